# runs show lists the watch events that held on the run's host while it ran
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: sqlite3 $TMP/r.db < tests/fixtures/watch/events-during-run.sql
args: runs show 1 --db $TMP/r.db
covers: store render
exit: 0
stdout: tests/cli/expected/runs-show-watch-events.out
stderr-empty:
