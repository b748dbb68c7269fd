# the plan's text of examples/one-host.yaml, whole
args: plan examples/one-host.yaml
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-one-host.out
