# the plan's text of examples/mi300x-16-servers.yaml, whole
args: plan examples/mi300x-16-servers.yaml
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-mi300x-16-servers.out
