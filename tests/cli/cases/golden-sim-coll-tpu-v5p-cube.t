# the predicted allreduce sweep of examples/tpu-v5p-cube.yaml, whole
args: sim coll examples/tpu-v5p-cube.yaml
covers: model topo spec report
exit: 0
stdout: tests/cli/expected/golden-sim-coll-tpu-v5p-cube.out
