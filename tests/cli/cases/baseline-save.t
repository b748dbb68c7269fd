# a baseline from three runs pools their samples
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-2.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-3.json --db $TMP/r.db
args: baseline save accept --run 1 --run 2 --run 3 --db $TMP/r.db
covers: diagnose store render
exit: 0
stdout-has: baseline 'accept': 28 subjects from runs 1,2,3
stderr-empty:
