# golden (issue 14, model/ refactor): a sweep of the scale-up domain at a fixed job; whole stdout
args: sweep --set supernode.accelerators=8,16,32 --model llama3-8b --gpus 64 --gbs 256
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-model-sweep-domain.out
stderr-empty:
