# sim pairs with a failed link, whole
args: sim pairs examples/gb200-nvl72.yaml --fail L000000 --ranks 12
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sim-pairs-fail.out
