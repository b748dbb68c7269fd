# the plan's JSON of examples/cloudmatrix-384.yaml, whole
args: plan examples/cloudmatrix-384.yaml --format json
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-json-cloudmatrix-384.out
