# sim train --search's JSON, whole
args: sim train tests/fixtures/train/a100-64.yaml --model llama3-8b --gbs 256 --seq 4096 --search --top 3 --format json
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sim-train-search-json.out
