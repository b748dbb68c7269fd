# --dtype takes nccl-tests' names and short ones; the type column says nccl-tests' name
args: sim coll --dtype bf16 -n 8 -b 1M -e 1M
covers: spec topo net workload study render
exit: 0
stdout-has: 1048576  524288  bfloat16
