# the plan's JSON of examples/sugon-scalex640.yaml, whole
args: plan examples/sugon-scalex640.yaml --format json
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-json-sugon-scalex640.out
