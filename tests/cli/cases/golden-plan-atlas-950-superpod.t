# the plan's text of examples/atlas-950-superpod.yaml, whole
args: plan examples/atlas-950-superpod.yaml
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-atlas-950-superpod.out
