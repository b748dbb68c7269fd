# the plan's text of examples/seed-64.yaml, whole
args: plan examples/seed-64.yaml
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-seed-64.out
