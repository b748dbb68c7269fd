# --run and --results both name the run to judge
args: check --spec examples/cpu-cluster.yaml --run 1 --results tests/fixtures/check/run-healthy-1.json
covers: spec topo net workload study health bench diagnose store render
exit: 2
stderr-has: --run and --results both name the run to judge
