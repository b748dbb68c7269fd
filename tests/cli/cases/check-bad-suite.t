# two suites
args: check --spec examples/cpu-cluster.yaml --suite fast
covers: spec topo net workload study health bench diagnose store render
exit: 2
stderr-has: --suite: unknown suite 'fast' (expected quick or full)
