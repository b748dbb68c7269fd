# judging a run that is not there
setup: touch $TMP/r.db
args: check --spec examples/cpu-cluster.yaml --run 9 --db $TMP/r.db
covers: spec topo net workload study health bench diagnose store render
exit: 2
stderr-has: no run 9
