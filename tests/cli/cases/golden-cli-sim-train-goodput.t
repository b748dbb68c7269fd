# sim train with goodput under failures, whole
args: sim train examples/gb200-nvl72.yaml --model llama3-8b --dtype fp4 --tp 1 --gbs 72
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sim-train-goodput.out
