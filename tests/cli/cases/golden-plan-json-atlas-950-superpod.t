# the plan's JSON of examples/atlas-950-superpod.yaml, whole
args: plan examples/atlas-950-superpod.yaml --format json
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-json-atlas-950-superpod.out
