# the design puts a NIC under each GPU's PCIe switch; this node does not
args: doctor --nvml none --spec tests/fixtures/node/four-h100.yaml --fsroot tests/fixtures/sysfs/node-far-nic --format json
covers: spec hw health render
exit: 1
stdout-has: "evidence": "nearest NIC 0000:85:00.0 (mlx5_1): PHB, through the host bridge",
stdout-has: "evidence": "nearest NIC 0000:05:00.0 (mlx5_0): PIX, one PCIe switch via bridge 0000:01:00.0",
