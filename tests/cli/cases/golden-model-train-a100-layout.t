# golden (issue 14, model/ refactor): a given layout (tp/pp/vpp, full recompute, fp16, legacy stack); whole stdout
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --tp 8 --pp 8 --vpp 3 --gbs 64 --recompute full --zero 0 --no-sp --dtype fp16 --legacy
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-model-train-a100-layout.out
stderr-empty:
