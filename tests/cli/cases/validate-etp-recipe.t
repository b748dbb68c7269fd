# a blank etp in a published recipe's row is the recipe's expert TP 1 (Megatron-Bridge sets expert_tensor_parallel_size = 1), said in the note where it differs from tp; a row of no recipe keeps Megatron-LM's default of tp
args: validate tests/fixtures/validation/etp-recipe.csv
covers: net workload study render
exit: 0
stdout-has: software megatron-bridge, etp 1 (megatron-bridge recipe)
stdout-has: assumed dp 32 from n_gpus, software megatron-core, recompute selective
stderr-empty:
