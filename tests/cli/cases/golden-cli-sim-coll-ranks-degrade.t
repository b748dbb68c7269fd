# sim coll on the first ranks with a degraded link, whole
args: sim coll examples/dgx-h100-superpod-su.yaml --ranks 16 --degrade L004467=0.5 --op alltoall -b 1M -e 1G
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sim-coll-ranks-degrade.out
