# an unknown collective is a usage error that lists the known ones
args: sim coll --op allscatter
exit: 2
stderr-has: unknown collective 'allscatter' (expected allreduce, allgather, reducescatter, alltoall, broadcast, reduce or sendrecv)
