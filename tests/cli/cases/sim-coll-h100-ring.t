# 8x H100 ring all-reduce at 4 GB: ~370 GB/s busbw (nccl-tests #212, the
# NCCL maintainer's "effective NVLink bandwidth of 370 GB/s"): 369.78
args: sim coll tests/fixtures/specs/coll-dgx-h100.yaml --group node -b 4G -e 4G --algo ring
covers: spec topo net workload study render
exit: 0
stdout-has: 4294967296  1073741824  float  sum      -1  20326.21  211.30  369.78  ring  Simple  scale-up    0.82
stderr-empty:
