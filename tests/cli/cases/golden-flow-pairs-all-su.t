# sim pairs --all over three servers of a rail-optimised fat tree, whole (pins the flow engine before model/flow.c is split)
args: sim pairs examples/dgx-h100-superpod-su.yaml --all --ranks 24
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-pairs-all-su.out
stderr-empty:
