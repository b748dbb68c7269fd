# golden (issue 14, model/ refactor): an example's default layout; whole stdout
args: sim train examples/seed-64.yaml --model llama3-8b
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-model-train-seed-64.out
stderr-empty:
