# against the design (4 GPUs), a node with 3 fails, and says how many
args: doctor --nvml none --spec tests/fixtures/node/four-h100.yaml --fsroot tests/fixtures/sysfs/node-missing-gpu
covers: spec hw health render
exit: 1
stdout-has: FAIL  topo.accelerators     node: found 3 of the 4 the design expects: 0000:03:00.0, 0000:04:00.0, 0000:83:00.0
stdout-has: FAIL  topo.numa             node: 2 NUMA nodes; node 0: 2 accelerators, 1 NIC; node 1: 1 accelerator, 1 NIC (the design: node 1 with 2 accelerators, 1 NIC)
stderr-empty:
