# a run that found a FAIL is not a healthy reference
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-2.json --db $TMP/r.db
setup: $SUPERNODE check --spec examples/cpu-cluster.yaml --results tests/fixtures/check/run-host0-half.json --db $TMP/r.db
args: baseline save accept --run 1 --run 2 --run 3 --db $TMP/r.db
covers: spec topo net workload study health bench diagnose store render
exit: 2
stderr-has: run 3 found a FAIL
