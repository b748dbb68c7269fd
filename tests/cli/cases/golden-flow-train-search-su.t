# sim train --search on a rail-optimised fat tree, whole (pins the flow engine before model/flow.c is split)
args: sim train examples/dgx-h100-superpod-su.yaml --model gpt3-175b --gbs 256 --search --top 8 --explain 2
exit: 0
stdout: tests/cli/expected/golden-flow-train-search-su.out
stderr-empty:
