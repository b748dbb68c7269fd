# the plan's JSON of examples/one-host.yaml, whole
args: plan examples/one-host.yaml --format json
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-json-one-host.out
