# a node whose every PCIe link runs at its maximum: no failure, exit 0
args: doctor --nvml none --fsroot tests/fixtures/sysfs/node-good
covers: spec hw health render
exit: 0
stdout-has: doctor: host gpu-node-01
stdout-has: PASS  pcie.link             0000:83:00.0 gpu 10de:2330 slot GPU2: Gen5 x16 (32.0 GT/s) at its maximum
stdout-lacks: FAIL
stderr-empty:
