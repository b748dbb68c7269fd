# the plan's JSON of examples/mi300x-16-servers.yaml, whole
args: plan examples/mi300x-16-servers.yaml --format json
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-json-mi300x-16-servers.out
