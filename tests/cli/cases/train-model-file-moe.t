# a MoE model from YAML with the preset's fields (examples/models/deepseek-v3.yaml): the preset's best layout and figures (golden-model-train-nvl72-moe-search)
args: sim train examples/gb200-nvl72.yaml --model examples/models/deepseek-v3.yaml --gpus 72 --search --top 2
exit: 0
stdout-has: DeepSeek-V3 (MoE, MLA), from a model file on 72 x gb200-nvl72 (gb200-nvl72, 72 per scale-up domain)
stdout-has: searched 12726 layouts that pass the rules, 16 fit in memory, in
stdout-has: 1   8   1   9   1   8    1    1    4       full  3     64.673     72961  11.8%  170.2  communication 44%       730-1,100  T1 T2 T3 T4 C1
stdout-has: 2   4   1  18   1   8    1    1    2       full  3     64.968     72630  11.8%  170.2  communication 48%       730-1,100  T1 T2 T3 T4 C1
stderr-empty:
