# --force replaces a baseline, and says what soundness rule it overrode
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-2.json --db $TMP/r.db
setup: $SUPERNODE baseline save accept --run 1 --force --db $TMP/r.db
args: baseline save accept --run 2 --force --db $TMP/r.db
covers: diagnose store render
exit: 0
stdout-has: baseline 'accept': 28 subjects from run 2
stderr-has: --force overrides: not a sound baseline: 1 run where a baseline needs 3
