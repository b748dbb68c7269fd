# the predicted allreduce sweep of examples/seed-64.yaml, whole
args: sim coll examples/seed-64.yaml
covers: model topo spec report
exit: 0
stdout: tests/cli/expected/golden-sim-coll-seed-64.out
