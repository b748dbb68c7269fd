# a judged run is stored with its verdict and findings
setup: $SUPERNODE check --spec examples/cpu-cluster.yaml --results tests/fixtures/check/run-host0-half.json --db $TMP/r.db
args: runs show 1 --db $TMP/r.db
covers: spec topo net workload study health bench diagnose store render
exit: 0
stdout-has: run 1: complete, FAIL
stdout-has:   FAIL scale-out mmf link (L000000)
