# golden (issue 14, model/ refactor): the default layout that does not fit, whole JSON (exit 1); whole stdout
args: sim train examples/dgx-h100-superpod-su.yaml --model llama3-70b --format json
covers: spec net workload study render
exit: 1
stdout: tests/cli/expected/golden-model-train-superpod-su-json.out
stderr-empty:
