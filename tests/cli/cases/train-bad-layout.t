# a layout the model cannot take: which rule fails
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --tp 7 --dp 1 --gpus 7
covers: spec net workload study render
exit: 2
stderr-has: tp 7 does not divide the 96 heads
