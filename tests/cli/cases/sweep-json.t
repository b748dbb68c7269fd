# JSON: one point per value with throughput, goodput, links, switches, power;
# a sweep of supernodes grows the job: scaling against the first, no best
args: sweep tests/fixtures/train/a100-64.yaml --set supernodes=4,8 --model gpt3-175b --gbs 64 --format json
covers: spec net workload study render
exit: 0
stdout-has: "schema": "supernode.sweep/2",
stdout-has: "value": "4",
stdout-has: "switch_chips":
stdout-has: "ettr":
stdout-has: "scaling": 1,
stdout-lacks: "best": true,
stderr-empty:
