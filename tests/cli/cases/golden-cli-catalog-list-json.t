# catalog list's JSON, whole
args: catalog list --format json
covers: spec render catalog
exit: 0
stdout: tests/cli/expected/golden-cli-catalog-list-json.out
