#!/usr/bin/env bash
# suite.sh BUILD: `supernode check` on a real multi-host cluster: four hosts
# in network namespaces on two leaf switches (Linux bridges) and one
# inter-switch link, every link a shaped veth pair (net.sh), Open MPI
# starting one rank per host through agent.sh. The cluster is
# examples/cpu-cluster.yaml. Scenarios, each run three times:
#   1. healthy: no FAIL, no link named (these runs become the baseline)
#   2. host 0's link at half rate: FAIL naming that cable, no other link
#   3. the inter-switch link degraded: it is named, not the host links
#   4. host 3's link at 80%: named (against the baseline), no other link
# Needs root and working network namespaces; otherwise it says why and
# counts nothing (SN_E2E=0 skips it too). One run at a time per machine.
# The whole test must take under 5 minutes. Everything it makes is
# removed at the end, also when it fails or is interrupted, and it checks
# that nothing is left.
# covers: bench diagnose store
# runs: alone slow
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
# The release binary: under mpirun the sanitizer build would report Open
# MPI's own allocations at exit as leaks and run several times slower.
bin=$root/build/supernode
spec=examples/cpu-cluster.yaml
pass=0
fail=0

skip() {
    echo "e2e: skipped: $*"
    echo "0 passed, 0 failed"
    exit 0
}

[[ "${SN_E2E:-1}" != 0 ]] || skip "SN_E2E=0"
[[ $(id -u) -eq 0 ]] || skip "needs root for network namespaces"
for tool in ip tc mpirun unshare; do
    command -v "$tool" >/dev/null 2>&1 || skip "'$tool' is not installed"
done
[[ -x "$bin" ]] || skip "$bin is not built"
probe="sne2e-probe-$$"
ip netns add "$probe" >/dev/null 2>&1 || skip "network namespaces do not work here"
ip netns del "$probe"
# one multi-host run at a time on a machine: two would share its cores
# and measure each other
exec 8>"${TMPDIR:-/tmp}/supernode-e2e.lock"
flock -w 600 8 || skip "another multi-host run held the lock for 10 minutes"

. tests/e2e/net.sh

# A run killed outright (SIGKILL: no trap runs) leaves its namespaces
# behind; holding the lock, any whose run is gone are ours to remove.
for stale in $(ip netns list | sed -n 's/^\(sne2e[0-9]*\)-.*/\1/p' | sort -u); do
    kill -0 "${stale#sne2e}" 2>/dev/null || e2e_net_down "$stale"
done

P="sne2e$$"
work=$(mktemp -d)
cleanup() {
    e2e_net_down "$P"
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ok() {
    pass=$((pass + 1))
    echo "ok $*"
}
bad() {
    fail=$((fail + 1))
    echo "FAIL $*"
}

# Rates the 2-core test machine sustains steadily for four ranks: a host
# link at 100 Mbit/s, the inter-switch link at 400 Mbit/s (the spec's).
HOST_RATE=100mbit
ISL_RATE=400mbit
t0=$(date +%s)
if ! e2e_net_up "$P" "$HOST_RATE" "$ISL_RATE"; then
    bad "network: cannot build the namespace cluster"
    echo "$pass passed, $fail failed"
    exit 1
fi
ok "network: 4 hosts, 2 switches, 1 inter-switch link, shaped"

for i in 0 1 2 3; do
    echo "$(e2e_ns "$P" "h$i") slots=1"
done >"$work/hosts"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# mpirun runs in the controller namespace; ranks start in the hosts'
# namespaces through the agent. TCP only, on the cluster's subnet.
# yield_when_idle: four ranks share two cores, so a waiting rank gives its
# core to the one that is moving data. The eager limits keep a 1 MiB
# message out of the TCP transport's rendezvous protocol, which on this
# machine halves what a bidirectional exchange reaches.
mca=(--mca plm_rsh_agent "$root/tests/e2e/agent.sh"
     --mca btl tcp,self
     --mca btl_tcp_if_include "$E2E_CIDR"
     --mca oob_tcp_if_include "$E2E_CIDR"
     --mca mpi_yield_when_idle 1
     --mca btl_tcp_eager_limit 2097152
     --mca btl_tcp_rndv_eager_limit 2097152
     --mca btl_tcp_max_send_size 2097152)

mpi() {
    timeout 180 ip netns exec "$(e2e_ns "$P" ctl)" mpirun \
        --hostfile "$work/hosts" -np 4 "${mca[@]}" "$@"
}

# ---- the launcher puts rank r on host r -------------------------------------
# stdout alone: Open MPI's launcher may warn on stderr (setpgid refused
# when the suite runs without a terminal's process group), which says
# nothing about where the ranks run
mpi sh -c 'echo "$OMPI_COMM_WORLD_RANK $(hostname)"' >"$work/launch" \
    2>"$work/launch.err"
want=$(for i in 0 1 2 3; do echo "$i $(e2e_ns "$P" "h$i")"; done)
if [[ "$(sort "$work/launch")" == "$want" ]]; then
    ok "launch: rank r runs on host r (hostfile order)"
else
    bad "launch: ranks and hosts do not line up:"
    sed 's/^/  /' "$work/launch" "$work/launch.err" | head -n 20
fi

# ---- the labels the plan gives the links this suite shapes ------------------
"$bin" plan "$spec" --ledger "$work/ledger.csv" >/dev/null 2>&1
label_of() { # awk condition on the ledger's columns
    awk -F, "NR > 1 && $1 { print \$2; exit }" "$work/ledger.csv"
}
L_H0=$(label_of '$3 == "sn0" && $11 == "leaf0"')
L_H3=$(label_of '$3 == "sn3" && $11 == "leaf1"')
L_ISL=$(label_of '$6 == "leaf0" && $11 == "leaf1"')
if [[ -n "$L_H0" && -n "$L_H3" && -n "$L_ISL" ]]; then
    ok "ledger: $L_H0, $L_H3, $L_ISL"
else
    bad "ledger: cannot find the shaped links' labels"
fi

db="$work/results.db"
runs=()

# check NAME [ARGS]: one check of the cluster; its text report in
# $work/NAME.out, exit status in $rc, run id appended to runs[]
check() {
    local name=$1
    shift
    mpi "$bin" check --spec "$spec" --db "$db" --tests pairs --iters 7 \
        --json "$work/$name.json" "$@" >"$work/$name.out" 2>"$work/$name.err"
    rc=$?
    runs+=("$(sed -n 's/^run \([0-9]*\) on .*/\1/p' "$work/$name.out")")
}

# the findings of a report, one per line: "SEVERITY KIND SUBJECT LABEL"
findings() {
    grep -E '^(PASS|WARN|FAIL) [a-z-]+ ' "$work/$1.out"
}

show() {
    sed 's/^/  /' "$work/$1.out" | head -n 30
    grep -v -E '^(-|$)' "$work/$1.err" | sed 's/^/  err: /' | head -n 5
}

# ---- 1. healthy -----------------------------------------------------------------
healthy=()
for k in 1 2 3; do
    check "healthy-$k"
    healthy+=("${runs[-1]}")
    links=$(findings "healthy-$k" | awk '$2 == "link"' | wc -l)
    if [[ $rc -eq 0 ]] && ! findings "healthy-$k" | grep -q '^FAIL' &&
            [[ $links -eq 0 ]]; then
        ok "healthy $k: no FAIL, no link named"
    else
        bad "healthy $k: exit $rc, $links link findings"
        show "healthy-$k"
    fi
done
if "$bin" baseline save healthy --db "$db" --run "${healthy[0]}" \
        --run "${healthy[1]}" --run "${healthy[2]}" >"$work/bl.out" 2>&1; then
    ok "baseline: $(cat "$work/bl.out")"
else
    bad "baseline: $(cat "$work/bl.out")"
fi

# expect_link NAME LABEL SEVERITIES: the first finding is a link finding
# naming LABEL with one of SEVERITIES, and no other link is named
expect_link() {
    local name=$1 label=$2 sev=$3 first others
    first=$(findings "$name" | head -n 1)
    others=$(findings "$name" | awk -v l="$label" '$2 == "link" && $4 != l' |
        wc -l)
    if [[ "$first" =~ ^($sev)\ link\ [^\ ]+\ \ ?(.*)$ ]] &&
            [[ "${BASH_REMATCH[2]}" == "$label" ]] && [[ $others -eq 0 ]]; then
        return 0
    fi
    return 1
}

# ---- 2. one host link at half rate -----------------------------------------------
e2e_shape "$P" h0 50mbit
for k in 1 2 3; do
    check "host-half-$k" --baseline healthy
    if [[ $rc -eq 1 ]] && expect_link "host-half-$k" "$L_H0" FAIL; then
        ok "host link at 50% ($k): FAIL names $L_H0 and no other link"
    else
        bad "host link at 50% ($k): exit $rc"
        show "host-half-$k"
    fi
done
e2e_shape "$P" h0 "$HOST_RATE"

# ---- 3. the inter-switch link degraded -----------------------------------------
# at a fifth of its rate it carries less than one host link: the two
# cross-switch pairs of a round share 80 Mbit/s
e2e_shape "$P" isl 80mbit
for k in 1 2 3; do
    check "isl-$k" --baseline healthy
    if [[ $rc -eq 1 ]] && expect_link "isl-$k" "$L_ISL" FAIL; then
        ok "inter-switch link degraded ($k): names $L_ISL, not the hosts"
    else
        bad "inter-switch link degraded ($k): exit $rc"
        show "isl-$k"
    fi
done
e2e_shape "$P" isl "$ISL_RATE"

# ---- 4. one host link at 80% ---------------------------------------------------------
e2e_shape "$P" h3 80mbit
for k in 1 2 3; do
    check "host-80-$k" --baseline healthy
    if expect_link "host-80-$k" "$L_H3" 'WARN|FAIL'; then
        ok "host link at 80% ($k): found, $L_H3, no other link"
    else
        bad "host link at 80% ($k): exit $rc"
        show "host-80-$k"
    fi
done
e2e_shape "$P" h3 "$HOST_RATE"

# ---- the store saw every run ------------------------------------------------------
n=$("$bin" runs list --db "$db" --limit 0 | tail -n +2 | grep -c complete)
if [[ $n -eq 12 ]]; then
    ok "store: 12 complete runs"
else
    bad "store: $n complete runs, expected 12"
fi

# ---- everything made is removed ------------------------------------------------------
e2e_net_down "$P"
left=$(ip netns list | grep "^$P-" | cut -d' ' -f1 | tr '\n' ' ')
# veth ends are named e2e<pid>... in this namespace until they move
left+=$(ip -o link show | grep -o "e2e$$[a-z0-9]*" | sort -u | tr '\n' ' ')
if [[ -n "${left// /}" ]]; then
    bad "teardown: left behind: $left"
else
    ok "teardown: namespaces, links and qdiscs removed"
fi
# the whole test, network and twelve checks, within five minutes
took=$(($(date +%s) - t0))
if [[ $took -lt 300 ]]; then
    ok "time: ${#runs[@]} checks, $took s in all (limit 300 s)"
else
    bad "time: ${#runs[@]} checks, $took s in all (limit 300 s)"
fi
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
