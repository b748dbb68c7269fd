# the served limits in JSON: the percentile judged, TTFT and TPOT at it, and whether they meet the limits
args: sim infer examples/gb200-nvl72.yaml --model llama3-70b --gpus 8 --tp 8 --rate 17.5 --tpot 70ms --ttft 1s --format json
covers: spec net workload study render
exit: 1
stdout-has: "slo_percentile": 90,
stdout-has: "tpot_at_percentile_s": 0.07266140075,
stdout-has: "meets_limits": false
