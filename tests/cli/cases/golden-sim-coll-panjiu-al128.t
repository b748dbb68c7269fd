# the predicted allreduce sweep of examples/panjiu-al128.yaml, whole
args: sim coll examples/panjiu-al128.yaml
covers: model topo spec report
exit: 0
stdout: tests/cli/expected/golden-sim-coll-panjiu-al128.out
