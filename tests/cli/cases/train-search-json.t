# JSON search: ranked layouts with their results
args: sim train tests/fixtures/train/a100-64.yaml --model llama3-8b --gbs 256 --seq 4096 --search --top 3 --format json
covers: spec net workload study render
exit: 0
stdout-has: "schema": "supernode.train-search/2",
stdout-has: "rank": 3,
stdout-has: "fits": true,
stderr-empty:
