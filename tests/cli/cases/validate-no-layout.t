# training rows without tp and pp: predicted with the search's best layout (that of sim train --search on the same system, GPUs and batch, golden-model-train-nvl72-moe-search) and said in the note
args: validate tests/fixtures/validation/no-layout.csv
exit: 0
stdout-has: 2  layout-less fixture    deepseek-v3    72  gb200-nvl72  tokens_per_s_per_gpu      2000       1793  -10.3%  assumed layout from search: TP8 PP1 EP8, software megatron-core
stdout-has: assumed layout from search: TP8 PP1 EP1, software megatron-core, global batch 512
stdout-has: 3 of 3 rows predicted
