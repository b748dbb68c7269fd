# catalog show of a model, whole
args: catalog show llama3-405b
covers: spec render catalog
exit: 0
stdout: tests/cli/expected/golden-cli-catalog-show-model.out
