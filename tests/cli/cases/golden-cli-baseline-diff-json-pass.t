# baseline diff's JSON of a healthy run, whole
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-2.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-3.json --db $TMP/r.db
setup: $SUPERNODE baseline save accept --run 1 --run 2 --force --db $TMP/r.db
args: baseline diff accept --run 3 --db $TMP/r.db --format json
covers: diagnose store render
exit: 0
stdout: tests/cli/expected/golden-cli-baseline-diff-json-pass.out
