# sim train with every layout option and --legacy, whole
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --tp 8 --pp 8 --vpp 3 --gbs 64 --recompute full --zero 0 --no-sp --dtype fp16 --legacy
exit: 0
stdout: tests/cli/expected/golden-cli-sim-train-legacy.out
