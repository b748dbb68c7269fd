# sim coll on the built-in design: nccl-tests columns plus the algorithm,
# protocol, bottleneck class and its efficiency; 1 MB to 1 GB by 32
args: sim coll -b 1M -e 1G -f 32
covers: spec topo net workload study render
exit: 0
stdout-has: # supernode sim coll: allreduce on 256 ranks (cluster), seed-64
stdout-has: size      count  type   redop  root   time_us  algbw   busbw  algo  proto   bottleneck   eff
stdout-has:    1048576     262144  float  sum      -1
stdout-has: 1073741824  268435456  float  sum      -1
stdout-has: # time_us in microseconds; algbw, busbw in GB/s (nccl-tests definitions)
stderr-empty:
