# an imported run read back whole: the params, rounds and units the store
# keeps for each result
setup: $SUPERNODE runs import tests/fixtures/check/run-host0-half.json --db $TMP/r.db
args: runs show 1 --db $TMP/r.db --format json
covers: store render
exit: 0
stdout: tests/cli/expected/expect-runs-import-show.out
