# golden (issue 14, model/ refactor): the public calibration set, whole report; whole stdout
args: validate tests/fixtures/validation/training-public.csv
covers: net workload study render
exit: 0
stdout: tests/cli/expected/golden-model-validate-public.out
stderr-empty:
