# golden (issue 14, model/ refactor): the default layout of an example that does not fit (exit 1); whole stdout
args: sim train examples/dgx-h100-superpod-su.yaml --model llama3-70b
covers: spec net workload study render
exit: 1
stdout: tests/cli/expected/golden-model-train-superpod-su.out
stderr-empty:
