# the predicted allreduce sweep of examples/atlas-950-superpod.yaml, whole
args: sim coll examples/atlas-950-superpod.yaml
covers: net workload study topo spec render
exit: 0
stdout: tests/cli/expected/golden-sim-coll-atlas-950-superpod.out
