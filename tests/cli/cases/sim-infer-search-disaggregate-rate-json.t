# the queued disaggregated search in JSON: the rate, the percentile and the prompts' wait at it
args: sim infer examples/gb200-nvl72.yaml --model deepseek-r1 --precision fp8 --kv-precision fp8 --tpot 50ms --search --disaggregate --rate 100 --format json
covers: spec net workload study render
exit: 0
stdout-has: "rate": 100,
stdout-has: "slo_percentile": 90,
stdout-has: "prefill_wait_s": 0.04963450192,
