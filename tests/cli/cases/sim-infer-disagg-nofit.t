# DeepSeek-V3 in BF16 on one GPU a side fits on neither: exit 1, DOES NOT FIT, and no throughput beside it
args: sim infer examples/gb200-nvl72.yaml --model deepseek-v3 --disaggregate 1:1
covers: spec net workload study render
exit: 1
stdout-has: DOES NOT FIT
stdout-lacks: tokens/s
stdout-lacks: at batch 0
