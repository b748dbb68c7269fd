#!/usr/bin/env bash
# check-quick.sh: `supernode check --suite quick` on the 4-host namespace
# cluster of tests/e2e (examples/cpu-cluster.yaml; host links 100 Mbit/s,
# the inter-switch link 400 Mbit/s): the whole quick suite (GEMM, memory,
# every pair, one all-reduce), three runs, wall time of each from mpirun's
# start to its end. Needs root and network namespaces.
#   bash bench/check-quick.sh
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
[[ $(id -u) -eq 0 ]] || { echo "check-quick: needs root"; exit 0; }
make -s build/supernode
# one multi-host run at a time on a machine (the e2e suite's lock): two
# would share its cores and time each other
exec 8>"${TMPDIR:-/tmp}/supernode-e2e.lock"
flock -w 900 8 || { echo "check-quick: the multi-host lock stayed taken"; exit 1; }
. tests/e2e/net.sh
P="snbq$$"
work=$(mktemp -d)
trap 'e2e_net_down "$P"; rm -rf "$work"' EXIT
e2e_net_up "$P" 100mbit 400mbit || { echo "check-quick: no cluster"; exit 1; }
for i in 0 1 2 3; do echo "$(e2e_ns "$P" "h$i") slots=1"; done >"$work/hosts"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "# load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
for k in 1 2 3; do
    t0=$(date +%s.%N)
    ip netns exec "$(e2e_ns "$P" ctl)" mpirun --hostfile "$work/hosts" -np 4 \
        --mca plm_rsh_agent "$root/tests/e2e/agent.sh" --mca btl tcp,self \
        --mca btl_tcp_if_include "$E2E_CIDR" \
        --mca oob_tcp_if_include "$E2E_CIDR" --mca mpi_yield_when_idle 1 \
        --mca btl_tcp_eager_limit 2097152 \
        --mca btl_tcp_rndv_eager_limit 2097152 \
        --mca btl_tcp_max_send_size 2097152 \
        "$root/build/supernode" check --spec examples/cpu-cluster.yaml \
        --suite quick --db "$work/r.db" >"$work/out" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    printf 'quick check %d: %.1f s wall, exit %d, %s\n' "$k" \
        "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$rc" \
        "$(grep -m1 '^check:' "$work/out")"
done
