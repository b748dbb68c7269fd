# bench kernels measures on the cpu backend only: cuda is a usage error before anything runs, and an output that cannot be written is refused before measuring
args: bench kernels --backend cuda
covers: net workload study bench
exit: 2
stderr-has: bench kernels --backend cuda: not measured yet
