# the search under a load simulates the front's first distinct layouts and judges the limits at the
# served P90: DeepSeek-R1 at 50 requests/s on a GB200 NVL72 rack
args: sim infer examples/gb200-nvl72.yaml --model deepseek-r1 --precision fp8 --kv-precision fp8 --tpot 50ms --search --top 3 --rate 50
covers: spec net workload study render
exit: 0
stdout-has: limits: TTFT none, TPOT 50.0 ms, judged at the served P90 of the front's first 6 layouts
stdout-has: best*  24  24   1      yes    4096
stdout-has: limits, judged at the served P90 (--slo-percentile)
stdout-has: TPOT                   31.24 ms, within 50.00 ms
