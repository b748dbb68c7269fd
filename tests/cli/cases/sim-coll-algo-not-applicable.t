# NVLS needs switches that reduce: the A100's NVSwitch does not
args: sim coll tests/fixtures/specs/coll-dgx-a100.yaml --group node --algo nvls -b 1M -e 1M
covers: spec topo net workload study render
exit: 2
stderr-has: algorithm nvls does not apply to allreduce on this group: it needs one scale-up domain whose switches reduce in the network
