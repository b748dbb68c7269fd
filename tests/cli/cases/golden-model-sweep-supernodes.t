# golden (issue 14, model/ refactor): a sweep of supernodes (the job grows); whole stdout
args: sweep tests/fixtures/train/a100-64.yaml --set supernodes=4,8 --model gpt3-175b --gbs 64
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-model-sweep-supernodes.out
stderr-empty:
