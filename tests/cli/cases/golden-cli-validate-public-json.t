# validate's JSON of the public measurements, whole
args: validate tests/fixtures/validation/training-public.csv --format json
exit: 0
stdout: tests/cli/expected/golden-cli-validate-public-json.out
