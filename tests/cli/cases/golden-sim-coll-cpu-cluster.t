# the predicted allreduce sweep of examples/cpu-cluster.yaml, whole
args: sim coll examples/cpu-cluster.yaml
covers: net workload study topo spec render
exit: 0
stdout: tests/cli/expected/golden-sim-coll-cpu-cluster.out
