# sim train's JSON with goodput, whole
args: sim train examples/gb200-nvl72.yaml --model llama3-8b --tp 1 --gbs 72 --format json
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sim-train-goodput-json.out
