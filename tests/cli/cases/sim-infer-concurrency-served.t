# a closed loop of 64 requests in flight: the served latencies beside the model's
args: sim infer examples/gb200-nvl72.yaml --model llama3-8b --gpus 1 --precision fp8 --kv-precision fp8 --concurrency 64
covers: spec net workload study render
exit: 0
stdout-has: served at 64 requests in flight per replica (closed loop, 400 requests)
