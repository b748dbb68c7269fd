# a model file with MLA ranks but no head sizes: located at attention, exit 2
args: sim train examples/gb200-nvl72.yaml --model tests/fixtures/train/bad-mla.yaml --gpus 72
covers: spec net workload study render
exit: 2
stderr-has: tests/fixtures/train/bad-mla.yaml:8:12: attention: mla needs kv_lora_rank, v_head_dim and qk_nope_head_dim or qk_rope_head_dim
