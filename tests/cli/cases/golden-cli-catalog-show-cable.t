# catalog show of a cable, whole
args: catalog show mmf-sr4-400g
covers: spec render catalog
exit: 0
stdout: tests/cli/expected/golden-cli-catalog-show-cable.out
