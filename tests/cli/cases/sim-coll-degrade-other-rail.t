# the same degraded uplink leaves rail 2 untouched
args: sim coll examples/dgx-h100-superpod-su.yaml --group rail:2 -b 1G -e 1G --degrade L004467=0.5
covers: spec topo net workload study render
exit: 0
stdout-has: 47.56    47.56  hier  Simple  scale-out
stderr-empty:
