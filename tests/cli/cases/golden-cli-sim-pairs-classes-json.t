# sim pairs' JSON in classes with a degraded link, whole
args: sim pairs examples/dgx-h100-superpod-su.yaml --classes --degrade L004467=0.5 --format json
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sim-pairs-classes-json.out
