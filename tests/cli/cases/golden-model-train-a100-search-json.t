# golden (issue 14, model/ refactor): the layout search, whole JSON; whole stdout
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --gbs 64 --search --top 5 --format json
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-model-train-a100-search-json.out
stderr-empty:
