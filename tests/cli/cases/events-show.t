# one event with the state of the moment
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: sqlite3 $TMP/r.db < tests/fixtures/watch/events.sql
args: events show 2 --db $TMP/r.db
covers: store render
exit: 0
stdout: tests/cli/expected/events-show.out
stderr-empty:
