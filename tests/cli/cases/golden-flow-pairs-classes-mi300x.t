# sim pairs --classes on a board mesh with a network, whole (pins the flow engine before model/flow.c is split)
args: sim pairs examples/mi300x-16-servers.yaml --classes
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-pairs-classes-mi300x.out
stderr-empty:
