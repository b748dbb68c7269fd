# golden (issue 14, model/ refactor): a custom model file from tests/fixtures/train; whole stdout
args: sim train tests/fixtures/train/a100-64.yaml --model tests/fixtures/train/llama-like.yaml --tp 2 --gbs 256
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-model-train-model-file.out
stderr-empty:
