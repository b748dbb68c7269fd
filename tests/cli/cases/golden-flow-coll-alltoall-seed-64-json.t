# sim coll alltoall as JSON on an external network, whole (pins the flow engine before model/flow.c is split)
args: sim coll examples/seed-64.yaml --op alltoall -b 1K -e 1G -f 8 --format json
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-coll-alltoall-seed-64-json.out
stderr-empty:
