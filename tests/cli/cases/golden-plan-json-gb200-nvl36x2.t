# the plan's JSON of examples/gb200-nvl36x2.yaml, whole
args: plan examples/gb200-nvl36x2.yaml --format json
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-json-gb200-nvl36x2.out
