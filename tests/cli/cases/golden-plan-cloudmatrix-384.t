# the plan's text of examples/cloudmatrix-384.yaml, whole
args: plan examples/cloudmatrix-384.yaml
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-cloudmatrix-384.out
