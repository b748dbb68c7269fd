# sim coll allgather on a board mesh with a failed link, whole (pins the flow engine before model/flow.c is split)
args: sim coll examples/mi300x-16-servers.yaml --op allgather -b 1M -e 1G -f 8 --fail L000000
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-coll-allgather-mi300x-fail.out
stderr-empty:
