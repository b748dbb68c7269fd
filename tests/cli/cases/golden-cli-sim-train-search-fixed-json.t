# sim train --search with recompute and zero fixed, whole
args: sim train tests/fixtures/train/a100-64.yaml --model llama3-8b --gbs 256 --search --top 4 --recompute selective --zero 1 --format json
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sim-train-search-fixed-json.out
