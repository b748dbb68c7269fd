# the disaggregated search as JSON: its mode, both layouts, the pools and the per-GPU figure over both
args: sim infer examples/gb200-nvl72.yaml --model deepseek-v3 --search --disaggregate --precision fp8 --isl 2000 --osl 100 --tpot 50ms --format json
covers: spec net workload study render
exit: 0
stdout-has: "mode": "disaggregated-search",
stdout-has: "found": true,
stdout-has: "prefill_layout": {
stdout-has: "prefill_instances":
stdout-has: "decode_instances":
