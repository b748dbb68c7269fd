# sim coll alltoall over a rail-optimised fat tree, whole (pins the flow engine before model/flow.c is split)
args: sim coll examples/dgx-h100-superpod-su.yaml --op alltoall
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-coll-alltoall-su.out
stderr-empty:
