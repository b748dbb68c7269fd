# the predicted allreduce sweep of examples/gb200-nvl72.yaml, whole
args: sim coll examples/gb200-nvl72.yaml
covers: net workload study topo spec render
exit: 0
stdout: tests/cli/expected/golden-sim-coll-gb200-nvl72.out
