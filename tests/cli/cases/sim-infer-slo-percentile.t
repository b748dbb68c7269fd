# --slo-percentile chooses the served percentile the limits are judged at: the same load meets a 65 ms
# TPOT at its median (55.72 ms) though not at P90
args: sim infer examples/gb200-nvl72.yaml --model llama3-70b --gpus 8 --tp 8 --rate 18 --tpot 65ms --ttft 1s --slo-percentile 50
exit: 0
stdout-has: limits, judged at the served P50 (--slo-percentile)
stdout-has: TPOT                   55.72 ms, within 65.00 ms
