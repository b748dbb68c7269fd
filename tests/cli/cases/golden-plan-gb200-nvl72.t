# the plan's text of examples/gb200-nvl72.yaml, whole
args: plan examples/gb200-nvl72.yaml
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-gb200-nvl72.out
