# spec show of an example with overrides, whole
args: spec show examples/dgx-h100-superpod-su.yaml --set supernodes=2
covers: spec render
exit: 0
stdout: tests/cli/expected/golden-cli-spec-show-example3.out
