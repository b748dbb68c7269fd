# the plan's JSON of examples/tpu-v5p-cube.yaml, whole
args: plan examples/tpu-v5p-cube.yaml --format json
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-json-tpu-v5p-cube.out
