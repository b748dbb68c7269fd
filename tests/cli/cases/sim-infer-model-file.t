# sim infer takes a model file too, MLA and MTP included
args: sim infer examples/gb200-nvl72.yaml --model examples/models/deepseek-v3.yaml --gpus 8 --search
covers: spec net workload study render
exit: 0
stdout-has: DeepSeek-V3 (MoE, MLA), from a model file on 8 x gb200-nvl72 (gb200-nvl72, 72 per scale-up domain)
stdout-has: best*
stderr-empty:
