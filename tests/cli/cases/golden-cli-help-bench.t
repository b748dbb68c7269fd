# bench's help, whole
args: help bench
exit: 0
stdout: tests/cli/expected/golden-cli-help-bench.out
