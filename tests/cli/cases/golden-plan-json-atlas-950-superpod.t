# the plan's JSON of examples/atlas-950-superpod.yaml, whole
args: plan examples/atlas-950-superpod.yaml --format json
exit: 0
stdout: tests/cli/expected/golden-plan-json-atlas-950-superpod.out
