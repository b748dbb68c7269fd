# sim train --search as JSON on a rail-optimised fat tree, whole (pins the flow engine before model/flow.c is split)
args: sim train examples/dgx-h100-superpod-su.yaml --model gpt3-175b --gbs 256 --search --top 8 --format json
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-train-search-json-su.out
stderr-empty:
# sim train --search as JSON on a rail-optimised fat tree, whole (pins the flow engine before model/flow.c is split)
args: sim train examples/dgx-h100-superpod-su.yaml --model gpt3-175b --gbs 256 --search --top 8 --format json
exit: 0
stdout: tests/cli/expected/golden-flow-train-search-json-su.out
stderr-empty:
