# sim train --search's text when nothing fits: the smallest count that does
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --gpus 8 --search --gbs 8
covers: spec net workload study render
exit: 1
stdout-has: GPT-3 175B on 8 x a100-sxm4-80gb (a100-64, 8 per scale-up domain)
stdout-has: searched 330 layouts that pass the rules, 0 fit in memory, in
stdout-has: no layout fits
stdout-has: more accelerators: the smallest count with a layout that fits is 48 (searched in multiples of 8)
