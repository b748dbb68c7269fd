# golden (issue 14, model/ refactor): a sweep with a custom model file, fp8, --seq; whole stdout
args: sweep --set supernode.tiers=2 --set supernode.accelerators=64,72 --model tests/fixtures/train/llama-like.yaml --dtype fp8 --seq 4096
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-model-sweep-model-file.out
stderr-empty:
