# golden (issue 14, model/ refactor): predicted and unpredictable rows, whole JSON; whole stdout
args: validate tests/fixtures/validation/mixed.csv --format json
exit: 0
stdout: tests/cli/expected/golden-model-validate-mixed-json.out
stderr-empty:
