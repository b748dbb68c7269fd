# the plan's JSON of examples/panjiu-al128.yaml, whole
args: plan examples/panjiu-al128.yaml --format json
exit: 0
stdout: tests/cli/expected/golden-plan-json-panjiu-al128.out
