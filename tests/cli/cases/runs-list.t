# imported runs are listed newest first with their state
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-host0-half.json --db $TMP/r.db
args: runs list --db $TMP/r.db
covers: store render
exit: 0
stdout-has: ID  STARTED               SPEC         SUITE  RANKS  RESULTS  STATE     VERDICT
stdout-has:  2  2026-11-29T10:30:00Z  cpu-cluster  quick      4       28  complete  -
stderr-empty:
