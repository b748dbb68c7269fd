# catalog show of a switch, whole
args: catalog show qm9700
covers: spec report
exit: 0
stdout: tests/cli/expected/golden-cli-catalog-show-switch.out
