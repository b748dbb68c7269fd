# sim train's JSON of one layout that fits, whole
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --tp 8 --pp 8 --gbs 64 --format json
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sim-train-json.out
