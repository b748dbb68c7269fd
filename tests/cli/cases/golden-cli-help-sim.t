# sim's help, whole
args: help sim
covers: util
exit: 0
stdout: tests/cli/expected/golden-cli-help-sim.out
