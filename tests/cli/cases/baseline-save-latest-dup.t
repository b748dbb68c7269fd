# without --run, a run imported twice counts once: the newest (run 4, a
# second import of run 2) is taken, run 2 is left out, and 3 and 1 join it
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-2.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-3.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-2.json --db $TMP/r.db
args: baseline save accept --db $TMP/r.db
covers: diagnose store render
exit: 0
stdout-has: baseline 'accept': 28 subjects from runs 4,3,1
