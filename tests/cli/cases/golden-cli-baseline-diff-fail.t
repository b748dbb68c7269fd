# baseline diff where a host link halved, whole
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-2.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-host0-half.json --db $TMP/r.db
setup: $SUPERNODE baseline save accept --run 1 --run 2 --force --db $TMP/r.db
args: baseline diff accept --db $TMP/r.db
covers: diagnose store render
exit: 1
stdout: tests/cli/expected/golden-cli-baseline-diff-fail.out
