# the plan's text of examples/gb200-nvl36x2.yaml, whole
args: plan examples/gb200-nvl36x2.yaml
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-gb200-nvl36x2.out
