# the plan's JSON of examples/gb200-nvl72.yaml, whole
args: plan examples/gb200-nvl72.yaml --format json
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-json-gb200-nvl72.out
