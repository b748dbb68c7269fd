# two suites
args: check --spec examples/cpu-cluster.yaml --suite fast
exit: 2
stderr-has: --suite: unknown suite 'fast' (expected quick or full)
