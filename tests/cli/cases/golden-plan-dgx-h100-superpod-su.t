# the plan's text of examples/dgx-h100-superpod-su.yaml, whole
args: plan examples/dgx-h100-superpod-su.yaml
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-dgx-h100-superpod-su.out
