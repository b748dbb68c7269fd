# an unknown collective far from every name is a usage error that lists the known ones
args: sim coll --op barrier
covers: spec topo net workload study render
exit: 2
stderr-has: unknown collective 'barrier' (expected allreduce, allgather, reducescatter, alltoall, broadcast, reduce or sendrecv)
