# sim pairs on the built-in design, whole
args: sim pairs
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sim-pairs-default.out
