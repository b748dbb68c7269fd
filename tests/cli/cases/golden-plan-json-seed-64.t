# the plan's JSON of examples/seed-64.yaml, whole
args: plan examples/seed-64.yaml --format json
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-json-seed-64.out
