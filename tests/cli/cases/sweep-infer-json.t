# sweep --infer as JSON: its own schema, the limits, a point per value with
# the layout and result of the best within them, or why there is none
args: sweep examples/cloudmatrix-384.yaml --set supernode.accelerators=8,16,72 --model deepseek-r1 --infer --tpot 50ms --format json
covers: spec net workload study render
exit: 0
stdout-has: "schema": "supernode.sweep-infer/2",
stdout-has: "tpot_limit_s": 0.05,
stdout-has: "meets_limits": false,
stdout-has: "none": "the weights of deepseek-v3 in bf16,
stdout-has: "meets_limits": true,
stdout-has: "scaleup_domain": 72,
stdout-has: "output_tokens_per_s_per_gpu":
stdout-has: "best": true,
stderr-empty:
