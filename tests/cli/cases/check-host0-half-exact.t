# the same run gives the same findings in the same order, byte for byte
args: check --spec examples/cpu-cluster.yaml --results tests/fixtures/check/run-host0-half.json --no-store
covers: spec topo net workload study health bench diagnose store render
exit: 1
stdout: tests/cli/expected/check-host0-half.out
stderr-empty:
