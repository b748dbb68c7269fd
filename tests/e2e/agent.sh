#!/bin/sh
# agent.sh: Open MPI's remote launcher for the namespace cluster
# (--mca plm_rsh_agent): "agent.sh HOST COMMAND..." runs COMMAND inside the
# network namespace HOST, as ssh would run it on a remote host. The
# command line is shell text (Open MPI quotes its arguments for a remote
# shell), so a shell reads it. Each host gets its own UTS namespace with
# its name as hostname, so that Open MPI sees four nodes, not one.
host=$1
shift
exec ip netns exec "$host" unshare --uts sh -c "hostname '$host'; $*"
