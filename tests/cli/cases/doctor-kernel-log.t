# the kernel log's XID 79 names the GPU and its slot; the run fails
args: doctor --nvml none --fsroot tests/fixtures/sysfs/node-aer
covers: spec hw health render
exit: 1
stdout-has: FAIL  kernel.log            0000:84:00.0 gpu 10de:2330 slot GPU3: XID 79 (GPU has fallen off the bus): 1 line, the last 10 days ago; last: NVRM: Xid (PCI:0000:84:00): 79, pid=0, name=python3, GPU has fallen off the bus.
stdout-has: WARN  kernel.log            0000:85:00.0 nic 15b3:1021 slot NIC1 (mlx5_1): link down: 1 line
