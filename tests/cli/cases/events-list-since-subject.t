# --since a time and --subject a part of it select
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: sqlite3 $TMP/r.db < tests/fixtures/watch/events.sql
args: events list --db $TMP/r.db --since 2026-12-01T08:30:00Z --subject 0000:1b
covers: store render
exit: 0
stdout-has: gpu_thermal_creep
stdout-lacks: coolant_flow_low
stdout-lacks: gpu_xid
stderr-empty:
