# sim pairs --classes on a one-tier switched design with an external network, whole (pins the flow engine before model/flow.c is split)
args: sim pairs examples/seed-64.yaml --classes
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-pairs-classes-seed-64.out
stderr-empty:
