# catalog list's JSON, whole
args: catalog list --format json
covers: spec report
exit: 0
stdout: tests/cli/expected/golden-cli-catalog-list-json.out
