# the predicted allreduce sweep of examples/sugon-scalex640.yaml, whole
args: sim coll examples/sugon-scalex640.yaml
covers: net workload study topo spec render
exit: 0
stdout: tests/cli/expected/golden-sim-coll-sugon-scalex640.out
