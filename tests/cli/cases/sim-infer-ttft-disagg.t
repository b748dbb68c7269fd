# the limits hold for a given disaggregated split too: TTFT is the prefill and the KV transfer
args: sim infer examples/gb200-nvl72.yaml --model deepseek-v3 --disaggregate 16:48 --tp 8 --ep 8 --dp-attention --precision fp8 --isl 2000 --osl 100 --ttft 10ms
covers: spec net workload study render
exit: 1
stdout-has: TTFT
stdout-has: LIMIT BROKEN
