# sim coll alltoall with a spine uplink degraded and a NIC uplink failed, whole (pins the flow engine before model/flow.c is split)
args: sim coll examples/dgx-h100-superpod-4su.yaml --op alltoall -b 1M -e 1G -f 4 --degrade L018288=0.5 --degrade L019304=0.5 --fail L018289
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-coll-alltoall-4su-degrade.out
stderr-empty:
