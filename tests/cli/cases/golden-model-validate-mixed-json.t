# golden (issue 14, model/ refactor): predicted and unpredictable rows, whole JSON; whole stdout
args: validate tests/fixtures/validation/mixed.csv --format json
covers: net workload study render
exit: 2
stdout: tests/cli/expected/golden-model-validate-mixed-json.out
stderr-has: mixed.csv:3: no built-in system for gpu 'TPU v9' with 8 GPUs: add the accelerator to the catalog
