# the plan's JSON of examples/cpu-cluster.yaml, whole
args: plan examples/cpu-cluster.yaml --format json
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-json-cpu-cluster.out
