# the plan's JSON of examples/dgx-h100-superpod-16su.yaml, whole
args: plan examples/dgx-h100-superpod-16su.yaml --format json
covers: plan topo spec render
exit: 0
stdout: tests/cli/expected/golden-plan-json-dgx-h100-superpod-16su.out
