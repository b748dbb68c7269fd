# the predicted allreduce sweep of examples/dgx-h100-superpod-su.yaml, whole
args: sim coll examples/dgx-h100-superpod-su.yaml
covers: net workload study topo spec render
exit: 0
stdout: tests/cli/expected/golden-sim-coll-dgx-h100-superpod-su.out
