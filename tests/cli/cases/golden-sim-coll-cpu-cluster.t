# the predicted allreduce sweep of examples/cpu-cluster.yaml, whole
args: sim coll examples/cpu-cluster.yaml
covers: model topo spec report
exit: 0
stdout: tests/cli/expected/golden-sim-coll-cpu-cluster.out
