# catalog list, whole
args: catalog list
covers: spec report
exit: 0
stdout: tests/cli/expected/golden-cli-catalog-list.out
