# sweep's JSON, whole
args: sweep --set supernode.tiers=2 --set supernode.accelerators=64,72 --model llama3-8b --gbs 256 --format json
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sweep-json.out
