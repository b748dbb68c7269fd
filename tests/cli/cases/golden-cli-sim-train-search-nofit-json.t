# sim train --search's JSON when nothing fits, whole
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --gpus 8 --search --gbs 8 --format json
covers: spec net workload study render
exit: 1
stdout: tests/cli/expected/golden-cli-sim-train-search-nofit-json.out
