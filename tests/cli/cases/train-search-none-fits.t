# a search in which no layout fits exits 1 and names the smallest count
# with one that does
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --gpus 8 --search --gbs 8
covers: spec net workload study render
exit: 1
stdout-has: no layout fits
stdout-has: more accelerators: the smallest count with a layout that fits is 48 (searched in multiples of 8)
