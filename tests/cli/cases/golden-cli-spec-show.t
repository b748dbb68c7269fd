# spec show of the built-in design, whole
args: spec show
covers: spec render
exit: 0
stdout: tests/cli/expected/golden-cli-spec-show.out
