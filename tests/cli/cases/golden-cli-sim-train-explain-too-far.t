# --explain past the layouts that fit is a usage error
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --gpus 8 --search --gbs 8 --explain 2
covers: spec net workload study render
exit: 2
stderr-has: --explain 2: only 0 layouts fit
