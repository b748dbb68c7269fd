# sim coll alltoall in an NVLink domain with a link failed, whole (pins the flow engine before model/flow.c is split)
args: sim coll examples/gb200-nvl72.yaml --op alltoall -b 64K -e 4G -f 4 --fail L000001 --degrade L000000=0.5
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-coll-alltoall-nvl72-fail.out
stderr-empty:
