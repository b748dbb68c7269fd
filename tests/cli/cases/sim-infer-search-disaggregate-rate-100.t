# at 100 requests/s the one prefill instance queues 49.6 ms at P90
args: sim infer examples/gb200-nvl72.yaml --model deepseek-r1 --precision fp8 --kv-precision fp8 --tpot 50ms --search --disaggregate --rate 100
covers: spec net workload study render
exit: 0
stdout-has: under 100 requests/s  TTFT P90 88.4 ms: 49.6 ms queued
