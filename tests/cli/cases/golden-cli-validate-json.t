# validate's JSON, whole
args: validate tests/fixtures/validation/mixed.csv --format json
exit: 0
stdout: tests/cli/expected/golden-cli-validate-json.out
