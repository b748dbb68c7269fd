# catalog show of a switch, whole
args: catalog show qm9700
covers: spec render catalog
exit: 0
stdout: tests/cli/expected/golden-cli-catalog-show-switch.out
