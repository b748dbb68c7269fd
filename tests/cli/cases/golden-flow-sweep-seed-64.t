# sweep of the domain size of a switched design, whole (pins the flow engine before model/flow.c is split)
args: sweep examples/seed-64.yaml --set supernode.accelerators=8,16,32,64 --model llama3-8b
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-sweep-seed-64.out
stderr-empty:
