# the predicted allreduce sweep of examples/one-host.yaml, whole
args: sim coll examples/one-host.yaml
covers: net workload study topo spec render
exit: 0
stdout: tests/cli/expected/golden-sim-coll-one-host.out
