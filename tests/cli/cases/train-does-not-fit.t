# 175B on 8 A100: 2.6 TB of training state cannot fit; said clearly and by
# how much, exit 0 (a prediction, not a failure)
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --gpus 8 --tp 8 --gbs 8
exit: 0
stdout-has: DOES NOT FIT:
stdout-has: GiB over
stdout-has:   limited by             memory (
