# the plan's text of examples/cpu-cluster.yaml, whole
args: plan examples/cpu-cluster.yaml
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-cpu-cluster.out
