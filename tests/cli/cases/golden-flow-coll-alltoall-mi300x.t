# sim coll alltoall on board meshes, one domain and the cluster, whole (pins the flow engine before model/flow.c is split)
args: sim coll examples/mi300x-16-servers.yaml --op alltoall --group domain:7 --fail L000198
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-coll-alltoall-mi300x.out
stderr-empty:
