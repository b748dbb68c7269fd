# `catalog list` prints one table per kind with the confidence marks
args: catalog list
covers: spec render catalog
exit: 0
stdout-has: h100-sxm5-80gb  NVIDIA          989 TFLOP/s  80.0 GB  3.35 TB/s  18 x 25.0 GB/s    700 W     256  V
stdout-has: nvswitch-gen3       scale-up     64  25.0 GB/s  yes              2  V
stdout-has: cx7-400g      NVIDIA  50.0 GB/s      1  V
stdout-has: cx7-400g-dgx  NVIDIA  50.0 GB/s      1  V
stdout-has: mmf-sr4-400g    mmf     50.0 m  50.0 GB/s     9.00 W  network   V
stdout-has: llama3-70b            80    8192      64/8   28672          -   70.6B   70.6B  V     llama3.1-70b, llama3.3-70b
stdout-has: deepseek-v3           61    7168   128/128    2048  256 top-8    671B     37B  V     deepseek-r1
stderr-empty:
