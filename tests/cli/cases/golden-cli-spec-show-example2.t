# spec show of a torus example, whole
args: spec show examples/tpu-v5p-cube.yaml
covers: spec render
exit: 0
stdout: tests/cli/expected/golden-cli-spec-show-example2.out
