# catalog list, whole
args: catalog list
covers: spec render catalog
exit: 0
stdout: tests/cli/expected/golden-cli-catalog-list.out
