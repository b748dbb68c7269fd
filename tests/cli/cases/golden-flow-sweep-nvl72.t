# sweep of the domain size of a GB200 design, whole (pins the flow engine before model/flow.c is split)
args: sweep examples/gb200-nvl72.yaml --set supernode.accelerators=36,72 --model gpt3-175b --gbs 256
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-sweep-nvl72.out
stderr-empty:
