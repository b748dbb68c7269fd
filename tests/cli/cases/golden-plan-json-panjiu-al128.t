# the plan's JSON of examples/panjiu-al128.yaml, whole
args: plan examples/panjiu-al128.yaml --format json
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-json-panjiu-al128.out
