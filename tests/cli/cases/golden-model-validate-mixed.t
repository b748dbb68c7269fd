# golden (issue 14, model/ refactor): predicted and unpredictable rows, whole report; whole stdout
args: validate tests/fixtures/validation/mixed.csv
exit: 0
stdout: tests/cli/expected/golden-model-validate-mixed.out
stderr-empty:
