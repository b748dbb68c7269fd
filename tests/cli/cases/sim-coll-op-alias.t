# nccl-tests' spellings name the same collective as ours
args: sim coll --op all_reduce -n 8 -b 1M -e 1M
covers: spec topo net workload study render
exit: 0
stdout-has: allreduce
