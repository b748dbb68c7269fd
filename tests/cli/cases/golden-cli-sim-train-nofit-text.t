# sim train's report of a layout that does not fit, whole
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --gpus 8 --tp 8 --gbs 8
covers: spec net workload study render
exit: 1
stdout: tests/cli/expected/golden-cli-sim-train-nofit-text.out
