# sim pairs --classes on a multi-tier rail-optimised fat tree, whole (pins the flow engine before model/flow.c is split)
args: sim pairs examples/dgx-h100-superpod-4su.yaml --classes
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-pairs-classes-4su.out
stderr-empty:
