# the predicted allreduce sweep of examples/mi300x-16-servers.yaml, whole
args: sim coll examples/mi300x-16-servers.yaml
covers: net workload study topo spec render
exit: 0
stdout: tests/cli/expected/golden-sim-coll-mi300x-16-servers.out
