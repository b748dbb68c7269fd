# JSON: schema supernode.coll/1, one row per size with the nccl-tests
# fields and the algorithm (the H200 NVSwitch reduces: NVLS) and bottleneck
args: sim coll --op allgather --ranks 64 -b 64M -e 64M --format json
covers: spec topo net workload study render
exit: 0
stdout-has: "schema": "supernode.coll/1",
stdout-has: "op": "allgather",
stdout-has: "ranks": 64,
stdout-has: "size_bytes": 67108864,
stdout-has: "redop": "none",
stdout-has: "time_us":
stdout-has: "algbw_GBps":
stdout-has: "busbw_GBps":
stdout-has: "algo": "nvls",
stdout-has: "bottleneck": "scale-up",
stderr-empty:
