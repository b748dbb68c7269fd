# the plan's text of examples/panjiu-al128.yaml, whole
args: plan examples/panjiu-al128.yaml
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-panjiu-al128.out
