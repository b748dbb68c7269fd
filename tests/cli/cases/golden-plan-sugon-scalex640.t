# the plan's text of examples/sugon-scalex640.yaml, whole
args: plan examples/sugon-scalex640.yaml
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-sugon-scalex640.out
