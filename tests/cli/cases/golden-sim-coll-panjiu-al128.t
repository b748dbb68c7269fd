# the predicted allreduce sweep of examples/panjiu-al128.yaml, whole
args: sim coll examples/panjiu-al128.yaml
covers: net workload study topo spec render
exit: 0
stdout: tests/cli/expected/golden-sim-coll-panjiu-al128.out
