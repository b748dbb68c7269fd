# sim pairs --all over 24 accelerators of a 72-way NVLink domain, whole (pins the flow engine before model/flow.c is split)
args: sim pairs examples/gb200-nvl72.yaml --all --ranks 24
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-pairs-all-nvl72.out
stderr-empty:
