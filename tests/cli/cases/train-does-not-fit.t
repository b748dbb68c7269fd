# 175B on 8 A100: 2.6 TB of training state cannot fit; said clearly and by
# how much, no step time or throughput for it, exit 1 (not fitting is a
# finding), and the smallest count that fits: 175B x 18 B = 3.15 TB of
# state over 80 GB is at least 40 GPUs, 48 in whole nodes of 8
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --gpus 8 --tp 8 --gbs 8
covers: spec net workload study render
exit: 1
stdout-has: DOES NOT FIT:
stdout-has: GiB over
stdout-has: more accelerators: the smallest count with a layout that fits is 48 (searched in multiples of 8)
stdout-lacks: tokens/s
stdout-lacks: MFU
stdout-lacks: ETTR
