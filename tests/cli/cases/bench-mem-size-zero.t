# --mem-size 0 would silently become the backend's 64 MiB
args: bench memory --mem-size 0
covers: spec net workload study bench render
exit: 2
stderr-has: --mem-size: a size of 0 bytes
