# sim coll allreduce, degraded and failed links, every algorithm, whole (pins the flow engine before model/flow.c is split)
args: sim coll examples/dgx-h100-superpod-4su.yaml -b 1M -e 4G -f 4 --degrade L019304=0.5 --degrade L019305=0.25 --fail L018289 --degrade L018288=0.5
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-coll-allreduce-4su-degrade.out
stderr-empty:
