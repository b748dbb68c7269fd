# JSON: supernode.train/2 with the step, throughput, memory and breakdown
args: sim train tests/fixtures/train/a100-64.yaml --tp 8 --pp 8 --gbs 64 --format json
covers: spec net workload study render
exit: 0
stdout-has: "schema": "supernode.train/2",
stdout-has: "model": "gpt3-175b",
stdout-has: "step_time_s":
stdout-has: "tokens_per_s":
stdout-has: "mfu":
stdout-has: "hfu":
stdout-has: "total_bytes":
stdout-has: "fits": true,
stdout-has: "breakdown": {
stdout-has: "bubble":
stdout-has: "young_interval_s":
stderr-empty:
