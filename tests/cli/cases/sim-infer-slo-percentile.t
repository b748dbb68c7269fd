# --slo-percentile chooses the served percentile the limits are judged at: the same load meets a 55 ms
# TPOT at its median (45.69 ms) though not at P90
args: sim infer examples/gb200-nvl72.yaml --model llama3-70b --gpus 8 --tp 8 --rate 17 --tpot 65ms --ttft 1s --slo-percentile 50
covers: spec model report
exit: 0
stdout-has: limits, judged at the served P50 (--slo-percentile)
stdout-has: TPOT                   63.14 ms, within 65.00 ms
