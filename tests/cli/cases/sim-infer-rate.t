# served under an open load: Poisson arrivals at 20 requests/s on one GB200,
# TTFT and TPOT percentiles from the batcher's simulation
args: sim infer examples/gb200-nvl72.yaml --model llama3-8b --gpus 1 --precision fp8 --kv-precision fp8 --rate 20 --requests 500 --seed 7
covers: spec net workload study render
exit: 0
stdout-has: served at 20 requests/s per replica (Poisson, 500 requests)
stdout-has: TTFT P50/P90/P99
stdout-has: TPOT P50/P90/P99
stdout-has: TTFT (idle replica)
