# the plan's text of examples/tpu-v5p-cube.yaml, whole
args: plan examples/tpu-v5p-cube.yaml
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-tpu-v5p-cube.out
