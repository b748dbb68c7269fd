# the predicted allreduce sweep of examples/tpu-v5p-cube.yaml, whole
args: sim coll examples/tpu-v5p-cube.yaml
covers: net workload study topo spec render
exit: 0
stdout: tests/cli/expected/golden-sim-coll-tpu-v5p-cube.out
