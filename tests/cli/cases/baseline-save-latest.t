# without --run: the newest complete run and the runs like it, 3 of them
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-2.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-3.json --db $TMP/r.db
args: baseline save accept --db $TMP/r.db
covers: diagnose store render
exit: 0
stdout-has: baseline 'accept': 28 subjects from runs 3,2,1
