# a model file over a field's cap (MTP modules, at most 64): located, exit 2
args: sim train examples/gb200-nvl72.yaml --model tests/fixtures/train/bad-moe-range.yaml --gpus 72
covers: spec net workload study render
exit: 2
stderr-has: tests/fixtures/train/bad-moe-range.yaml:10:13: mtp_layers is out of range (expected from 0 to 64)
