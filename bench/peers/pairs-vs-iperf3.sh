#!/usr/bin/env bash
# pairs-vs-iperf3.sh: the bench's unidirectional pair bandwidth on the cpu
# backend against iperf3, over the same link: a veth pair between this
# host's network namespace and a new one (needs root). Rank 0 runs here,
# rank 1 in the namespace, MPI's TCP transport on the veth only; iperf3's
# client runs here and its server in the namespace: the same direction
# over the same link. Runs alternate, R times; the last line compares each
# tool's best round (on a shared machine the best round is the least
# disturbed one).
#
#   bench/peers/pairs-vs-iperf3.sh [SIZE] [R]   message size (64M), rounds (5)
#
# MPI launches rank 1 through an "rsh agent" that enters the namespace
# instead of logging in to another host, so the job is a real two-host
# job whose second host is the namespace.
set -euo pipefail
cd "$(dirname "$0")/../.."
sn=$PWD/${SUPERNODE:-build/supernode}
size=${1:-64M}
rounds=${2:-5}
ns=snpeer$$
tmp=$(mktemp -d)
cleanup() {
    ip netns del "$ns" 2>/dev/null || true
    ip link del snp0 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT
[[ $(id -u) -eq 0 ]] || { echo "needs root (network namespaces)"; exit 1; }
command -v iperf3 >/dev/null || { echo "iperf3 is not installed"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

ip netns add "$ns"
ip link add snp0 type veth peer name snp1
ip link set snp1 netns "$ns"
ip addr add 10.78.0.1/24 dev snp0
ip link set snp0 up
ip netns exec "$ns" ip addr add 10.78.0.2/24 dev snp1
ip netns exec "$ns" ip link set snp1 up
ip netns exec "$ns" ip link set lo up

cat >"$tmp/agent.sh" <<AGENT
#!/bin/sh
# "host command..." -> the command inside the namespace
shift
exec ip netns exec $ns /bin/sh -c "\$*"
AGENT
chmod +x "$tmp/agent.sh"
printf '%s slots=1\n10.78.0.2 slots=1\n' "$(hostname)" >"$tmp/hosts"

printf '%5s %18s %18s %8s\n' round "iperf3 GB/s" "bench uni GB/s" ratio
for r in $(seq 1 "$rounds"); do
    ip netns exec "$ns" iperf3 -s -1 -B 10.78.0.2 >/dev/null 2>&1 &
    sleep 1
    ip_gbps=$(iperf3 -c 10.78.0.2 -t 5 -f g | awk '/receiver/ {
                  for (i = 1; i < NF; i++) if ($(i + 1) == "Gbits/sec") print $i }')
    wait
    # --bind-to none: both "hosts" are this machine's cores
    mpirun --hostfile "$tmp/hosts" -np 2 --bind-to none \
        --mca plm_rsh_agent "$tmp/agent.sh" --mca plm_rsh_no_tree_spawn 1 \
        --mca btl self,tcp --mca btl_tcp_if_include 10.78.0.0/24 \
        --mca oob_tcp_if_include 10.78.0.0/24 \
        "$sn" bench pairs --size "$size" -n 10 --latency-iters 1000 \
        --json "$tmp/p.json" >/dev/null
    # rank 0 -> rank 1, the direction iperf3 measured
    ours=$(awk '/"test":/ { op = ""; src = -1 }
                /"op":/ { op = $2 }
                /"src":/ { src = $2 + 0 }
                op ~ /"uni"/ && src == 0 && /"median":/ {
                    gsub(/[^0-9.e+-]/, "", $2); print $2; exit }' \
           "$tmp/p.json")
    awk -v r="$r" -v i="$ip_gbps" -v o="$ours" 'BEGIN {
        printf "%5d %18.3f %18.3f %8.3f\n", r, i / 8, o / 1e9, o / 1e9 / (i / 8) }' |
        tee -a "$tmp/rounds"
done
awk '{ if ($2 > i) i = $2; if ($3 > o) o = $3 }
     END { printf "%5s %18.3f %18.3f %8.3f\n", "best", i, o, o / i }' \
    "$tmp/rounds"
uptime
