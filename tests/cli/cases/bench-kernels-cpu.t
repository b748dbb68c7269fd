# bench kernels on the cpu backend: the kernel table file (sim train --kernels reads it), one row per reference shape scaled down
args: bench kernels --scale 64 -n 1 --output $TMP/k.csv
covers: net workload study bench
exit: 0
file: $TMP/k.csv
file-has: kind,dtype,m,n,k,tflops,source
file-has: grouped,fp32,128,64,112,
stderr-empty:
