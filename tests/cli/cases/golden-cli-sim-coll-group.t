# sim coll on a group, whole
args: sim coll examples/dgx-h100-superpod-su.yaml --group rail:1 --op allgather --dtype half
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sim-coll-group.out
