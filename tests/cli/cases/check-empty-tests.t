# --tests "" would mean the suite's own tests
args: check --spec examples/cpu-cluster.yaml --tests "" --no-doctor
covers: spec topo net workload study health bench diagnose store render
exit: 2
stderr-has: '--tests' has an empty value
