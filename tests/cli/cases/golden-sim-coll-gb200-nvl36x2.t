# the predicted allreduce sweep of examples/gb200-nvl36x2.yaml, whole
args: sim coll examples/gb200-nvl36x2.yaml
covers: model topo spec report
exit: 0
stdout: tests/cli/expected/golden-sim-coll-gb200-nvl36x2.out
