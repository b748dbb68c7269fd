# baseline diff's JSON, whole
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-host0-half.json --db $TMP/r.db
setup: $SUPERNODE baseline save accept --run 1 --force --db $TMP/r.db
args: baseline diff accept --run 2 --db $TMP/r.db --format json
covers: diagnose store render
exit: 1
stdout: tests/cli/expected/golden-cli-baseline-diff-json.out
