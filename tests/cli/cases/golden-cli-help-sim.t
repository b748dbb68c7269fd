# sim's help, whole
args: help sim
exit: 0
stdout: tests/cli/expected/golden-cli-help-sim.out
