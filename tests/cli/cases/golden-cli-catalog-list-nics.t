# catalog list nics, whole
args: catalog list nics
covers: spec render catalog
exit: 0
stdout: tests/cli/expected/golden-cli-catalog-list-nics.out
