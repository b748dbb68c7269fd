# the list as JSON, with a date for --since
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: sqlite3 $TMP/r.db < tests/fixtures/watch/events.sql
args: events list --db $TMP/r.db --since 2026-12-02 --format json
covers: store render
exit: 0
stdout: tests/cli/expected/events-list-json.out
stderr-empty:
