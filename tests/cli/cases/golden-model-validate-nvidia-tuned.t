# golden (issue 14, model/ refactor): vendor-tuned rows (FP8, overlap, notes), whole report; whole stdout
args: validate tests/fixtures/validation/nvidia-tuned.csv
covers: net workload study render
exit: 0
stdout: tests/cli/expected/golden-model-validate-nvidia-tuned.out
stderr-empty:
