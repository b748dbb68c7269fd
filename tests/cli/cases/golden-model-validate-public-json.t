# golden (issue 14, model/ refactor): the public calibration set, whole JSON; whole stdout
args: validate tests/fixtures/validation/training-public.csv --format json
covers: net workload study render
exit: 0
stdout: tests/cli/expected/golden-model-validate-public-json.out
stderr-empty:
