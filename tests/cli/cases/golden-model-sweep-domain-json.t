# golden (issue 14, model/ refactor): a sweep of the scale-up domain, whole JSON; whole stdout
args: sweep --set supernode.accelerators=8,16,32 --model llama3-8b --gpus 64 --gbs 256 --format json
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-model-sweep-domain-json.out
stderr-empty:
