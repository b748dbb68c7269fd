# sim pairs --all with a degraded link, whole
args: sim pairs examples/dgx-h100-superpod-su.yaml --ranks 16 --all --degrade L004467=0.5
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sim-pairs-all-degrade.out
