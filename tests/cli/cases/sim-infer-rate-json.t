# the served latencies in JSON: percentiles of TTFT and TPOT
args: sim infer examples/gb200-nvl72.yaml --model llama3-8b --gpus 1 --precision fp8 --kv-precision fp8 --rate 10 --requests 400 --format json
covers: spec net workload study render
exit: 0
stdout-has: "served": {
stdout-has: "ttft_s": {
stdout-has: "p99":
stdout-has: "runtime": "trtllm"
stdout-has: "host_step_s":
