# sim pairs on the built-in design, whole
args: sim pairs
exit: 0
stdout: tests/cli/expected/golden-cli-sim-pairs-default.out
