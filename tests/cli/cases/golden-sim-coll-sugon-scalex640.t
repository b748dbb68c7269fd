# the predicted allreduce sweep of examples/sugon-scalex640.yaml, whole
args: sim coll examples/sugon-scalex640.yaml
covers: model topo spec report
exit: 0
stdout: tests/cli/expected/golden-sim-coll-sugon-scalex640.out
