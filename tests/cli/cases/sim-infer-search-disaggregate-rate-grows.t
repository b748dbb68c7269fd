# the same search at a fifth of the rate queues less: P90 TTFT 42.1 ms at 20 requests/s against 88.4 ms
# at 100 (sim-infer-search-disaggregate-rate-100)
args: sim infer examples/gb200-nvl72.yaml --model deepseek-r1 --precision fp8 --kv-precision fp8 --tpot 50ms --search --disaggregate --rate 20
covers: spec net workload study render
exit: 0
stdout-has: under 20 requests/s  TTFT P90 42.1 ms: 3.4 ms queued
