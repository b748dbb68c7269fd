# golden (issue 17): the public MoE training set's report as JSON, whole
args: validate tests/fixtures/validation/moe-training-public.csv --format json
covers: net workload study render
exit: 0
stdout: tests/cli/expected/golden-model-validate-moe-json.out
stderr-empty:
