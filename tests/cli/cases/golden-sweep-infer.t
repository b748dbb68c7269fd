# sweep --infer (issue 17): DeepSeek-R1 served on CloudMatrix 384 with its
# domain swept under a 50 ms TPOT: 8 NPUs cannot hold the BF16 weights (a
# row that says so), the sweet spot marked; whole stdout
args: sweep examples/cloudmatrix-384.yaml --set supernode.accelerators=8,16,72 --model deepseek-r1 --infer --tpot 50ms
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-sweep-infer.out
stdout-has: supernode.accelerators=8: the weights of deepseek-v3 in bf16
stderr-empty:
