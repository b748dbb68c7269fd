# sim infer reads a model file with the same located errors
args: sim infer examples/gb200-nvl72.yaml --model tests/fixtures/train/bad-mla.yaml --gpus 8
covers: spec net workload study render
exit: 2
stderr-has: tests/fixtures/train/bad-mla.yaml:8:12: attention: mla needs kv_lora_rank
