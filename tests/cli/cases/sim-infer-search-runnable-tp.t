# the search proposes only layouts a runtime runs: Llama 3.1 405B's 128 heads and FFN of 53248 do not divide by 9, so no tp 9 (and no attention data-parallel on a dense model)
args: sim infer examples/gb200-nvl72.yaml --model llama3-405b --gpus 72 --search --precision fp4 --top 1000 --format json
covers: spec net workload study render
exit: 0
stdout-lacks: "tp": 9,
stdout-lacks: "dp_attention": true
stdout-has: "tp": 8,
