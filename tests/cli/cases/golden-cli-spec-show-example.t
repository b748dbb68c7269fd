# spec show of an example, whole
args: spec show examples/gb200-nvl72.yaml
covers: spec render
exit: 0
stdout: tests/cli/expected/golden-cli-spec-show-example.out
