# as JSON the state is JSON again, whatever the database held (event 3's
# state is YAML, not JSON: it is written anew)
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: sqlite3 $TMP/r.db < tests/fixtures/watch/events.sql
args: events show 3 --db $TMP/r.db --format json
covers: store render
exit: 0
stdout: tests/cli/expected/events-show-json.out
stderr-empty:
