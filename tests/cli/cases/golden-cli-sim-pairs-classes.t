# sim pairs in classes, whole
args: sim pairs examples/dgx-h100-superpod-su.yaml --classes
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sim-pairs-classes.out
