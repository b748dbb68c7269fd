# a database with no events says so
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
args: events list --db $TMP/r.db
covers: store render
exit: 0
stdout-has: no events
stderr-empty:
