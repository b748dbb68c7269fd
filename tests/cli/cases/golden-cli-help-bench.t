# bench's help, whole
args: help bench
covers: util
exit: 0
stdout: tests/cli/expected/golden-cli-help-bench.out
