# sim pairs --classes on a 72-way NVLink domain, whole (pins the flow engine before model/flow.c is split)
args: sim pairs examples/gb200-nvl72.yaml --classes
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-pairs-classes-nvl72.out
stderr-empty:
