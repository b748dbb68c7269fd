# golden (issue 14, model/ refactor): an example with tp/pp/vpp given, fp8; whole stdout
args: sim train examples/dgx-h100-superpod-su.yaml --model llama3-70b --gpus 128 --tp 8 --pp 2 --vpp 2 --dtype fp8
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-model-train-superpod-su-fp8.out
stderr-empty:
