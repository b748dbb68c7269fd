# the predicted allreduce sweep of examples/cloudmatrix-384.yaml, whole
args: sim coll examples/cloudmatrix-384.yaml
covers: net workload study topo spec render
exit: 0
stdout: tests/cli/expected/golden-sim-coll-cloudmatrix-384.out
