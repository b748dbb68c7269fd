# the predicted allreduce sweep of examples/seed-64.yaml, whole
args: sim coll examples/seed-64.yaml
covers: net workload study topo spec render
exit: 0
stdout: tests/cli/expected/golden-sim-coll-seed-64.out
