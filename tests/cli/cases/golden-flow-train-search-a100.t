# sim train --search on the a100 fixture, whole (pins the flow engine before model/flow.c is split)
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --gbs 64 --search --top 5 --explain 2
exit: 0
stdout: tests/cli/expected/golden-flow-train-search-a100.out
stderr-empty:
