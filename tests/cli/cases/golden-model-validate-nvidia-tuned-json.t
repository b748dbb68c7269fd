# golden (issue 14, model/ refactor): vendor-tuned rows, whole JSON; whole stdout
args: validate tests/fixtures/validation/nvidia-tuned.csv --format json
covers: net workload study render
exit: 0
stdout: tests/cli/expected/golden-model-validate-nvidia-tuned-json.out
stderr-empty:
