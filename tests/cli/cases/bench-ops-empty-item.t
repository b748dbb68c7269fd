# an empty item in a list is a typo, not a name
args: bench coll --ops allreduce,,allgather
covers: spec net workload study bench render
exit: 2
stderr-has: --ops: an empty name in 'allreduce,,allgather'
