# --disaggregate gives the balanced prefill:decode ratio and the KV transfer
args: sim infer examples/gb200-nvl72.yaml --model deepseek-v3 --disaggregate 16:48 --tp 8 --ep 8 --dp-attention --precision fp8 --isl 2000 --osl 100
covers: spec net workload study render
exit: 0
stdout-has: balanced split
stdout-has: KV transfer
