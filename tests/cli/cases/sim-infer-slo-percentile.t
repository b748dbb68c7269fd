# --slo-percentile chooses the served percentile the limits are judged at: the same load meets a 70 ms
# TPOT at its median (58.81 ms) though not at P90 (72.66 ms)
args: sim infer examples/gb200-nvl72.yaml --model llama3-70b --gpus 8 --tp 8 --rate 17.5 --tpot 70ms --ttft 1s --slo-percentile 50
covers: spec net workload study render
exit: 0
stdout-has: limits, judged at the served P50 (--slo-percentile)
stdout-has: TPOT                   58.81 ms, within 70.00 ms
