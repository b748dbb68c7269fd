# catalog list, whole
args: catalog list
exit: 0
stdout: tests/cli/expected/golden-cli-catalog-list.out
