# a model file whose top-k is more than its experts: located, exit 2
args: sim train examples/gb200-nvl72.yaml --model tests/fixtures/train/bad-moe-topk.yaml --gpus 72
covers: spec net workload study render
exit: 2
stderr-has: tests/fixtures/train/bad-moe-topk.yaml:9:7: topk must be from 1 to the 4 experts
