# the tree captured from a virtual machine: a virtio NIC has no PCIe link
# to check, and doctor says so instead of passing it
args: doctor --nvml none --fsroot tests/fixtures/sysfs/captured-vm
covers: spec hw health render
exit: 0
stdout-has: SKIP  pcie.link             0000:00:03.0 nic 1af4:1041 (eth0): no link speed or width in sysfs
stdout-lacks: PASS  pcie
