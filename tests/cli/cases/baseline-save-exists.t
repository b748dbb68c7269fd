# a name is kept until --force replaces it
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-2.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-3.json --db $TMP/r.db
setup: $SUPERNODE baseline save accept --db $TMP/r.db
args: baseline save accept --db $TMP/r.db
covers: diagnose store render
exit: 2
stderr-has: baseline 'accept' exists (use --force to replace it)
