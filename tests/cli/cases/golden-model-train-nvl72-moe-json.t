# golden (issue 14, model/ refactor): an MoE layout, whole JSON; whole stdout
args: sim train examples/gb200-nvl72.yaml --model mixtral-8x7b --gpus 64 --tp 2 --ep 4 --cp 2 --pp 2 --dtype fp8 --recompute selective --zero 1 --sp --format json
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-model-train-nvl72-moe-json.out
stderr-empty:
