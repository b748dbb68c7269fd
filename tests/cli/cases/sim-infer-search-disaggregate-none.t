# no split meets an unreachable TPOT: exit 1, with the fastest reached
args: sim infer examples/gb200-nvl72.yaml --model deepseek-v3 --search --disaggregate --precision fp8 --isl 2000 --osl 100 --tpot 1ms
covers: spec net workload study render
exit: 1
stdout-has: no disaggregated split meets the limits
stdout-has: LIMIT BROKEN
