# spec show's JSON, whole
args: spec show --format json
covers: spec render
exit: 0
stdout: tests/cli/expected/golden-cli-spec-show-json.out
