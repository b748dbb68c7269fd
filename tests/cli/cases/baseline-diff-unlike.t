# baseline diff compares like with like: a run of another suite is
# refused with what differs (--force compares anyway)
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-2.json --db $TMP/r.db
setup: $SUPERNODE baseline save accept --run 1 --run 2 --force --db $TMP/r.db
setup: sed 's/"suite": "quick"/"suite": "full"/' tests/fixtures/check/run-healthy-3.json > $TMP/full.json
setup: $SUPERNODE runs import $TMP/full.json --db $TMP/r.db
args: baseline diff accept --run 3 --db $TMP/r.db
covers: diagnose store render
exit: 2
stderr-has: run 3 (full suite, cpu backend, 4 ranks) is not like baseline 'accept' (quick, cpu, 4 ranks): compare like with like
