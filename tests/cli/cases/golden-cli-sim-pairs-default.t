# sim pairs on the built-in design, whole
args: sim pairs
covers: spec topo model report
exit: 0
stdout: tests/cli/expected/golden-cli-sim-pairs-default.out
