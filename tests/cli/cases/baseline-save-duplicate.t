# one run imported twice is one run, not two
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-2.json --db $TMP/r.db
args: baseline save accept --run 1 --run 2 --run 3 --db $TMP/r.db
covers: diagnose store render
exit: 2
stderr-has: runs 1 and 2 are one run imported twice (started 2026-11-29T10:00:00Z on h0)
