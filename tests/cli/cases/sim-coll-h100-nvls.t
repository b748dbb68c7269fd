# 8x H100 all-reduce, auto: NVLS in the switches, ~480 GB/s busbw at >= 1 GB
# (nccl-tests #212, #290): 487.10; the bottleneck efficiency stays 0.70
# although busbw is above the 450 GB/s of the links
args: sim coll tests/fixtures/specs/coll-dgx-h100.yaml --group node -b 1G -e 1G
covers: spec topo net workload study render
exit: 0
stdout-has: 1073741824  268435456  float  sum      -1  3857.60  278.34  487.10  nvls  Simple  scale-up    0.70
stderr-empty:
