# the predicted allreduce sweep of examples/gb200-nvl36x2.yaml, whole
args: sim coll examples/gb200-nvl36x2.yaml
covers: net workload study topo spec render
exit: 0
stdout: tests/cli/expected/golden-sim-coll-gb200-nvl36x2.out
