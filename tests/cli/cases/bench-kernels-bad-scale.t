# bench kernels --scale out of range: exit 2
args: bench kernels --scale 0
covers: net workload study bench
exit: 2
stderr-has: --scale: '0' (expected 1 to 1024)
