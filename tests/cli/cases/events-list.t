# stored events, newest first, holding ones marked
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: sqlite3 $TMP/r.db < tests/fixtures/watch/events.sql
args: events list --db $TMP/r.db
covers: store render
exit: 0
stdout: tests/cli/expected/events-list.out
stderr-empty:
