# catalog show's JSON of a model, whole
args: catalog show llama3-405b --format json
covers: spec render catalog
exit: 0
stdout: tests/cli/expected/golden-cli-catalog-show-model-json.out
