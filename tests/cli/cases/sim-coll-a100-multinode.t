# 4x DGX A100 ring all-reduce: NICs per node x per-NIC rate, 8 x 24 = 192
# GB/s (nccl #812): 192.23 at 4 GB, the NICs the bottleneck
args: sim coll tests/fixtures/specs/coll-dgx-a100.yaml -b 4G -e 4G --algo ring
covers: spec topo net workload study render
exit: 0
stdout-has: 192.23  ring  Simple  scale-out
stderr-empty:
