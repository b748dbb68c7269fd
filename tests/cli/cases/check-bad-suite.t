# two suites
args: check --spec examples/cpu-cluster.yaml --suite fast
covers: spec topo model health bench diagnose store report
exit: 2
stderr-has: --suite: unknown suite 'fast' (expected quick or full)
