# a healthy run stays inside the interval: exit 0
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-2.json --db $TMP/r.db
setup: $SUPERNODE baseline save accept --run 1 --force --db $TMP/r.db
args: baseline diff accept --run 2 --db $TMP/r.db
covers: diagnose store render
exit: 0
stdout-has: 28 PASS, 0 WARN, 0 FAIL
