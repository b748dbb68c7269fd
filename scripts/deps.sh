#!/usr/bin/env bash
# deps.sh: install the Debian 12 packages supernode's build and tests need.
# Idempotent: packages already present are left alone.
#   scripts/deps.sh              install whatever is missing (needs root)
#   scripts/deps.sh --if-missing the same, but only complain when not root
#   scripts/deps.sh --list       print the package list
set -euo pipefail

# build: compiler, pkg-config and the libraries the library links
pkgs_build=(build-essential pkg-config libyaml-dev libsqlite3-dev
            libhwloc-dev libopenblas-dev libopenmpi-dev openmpi-bin
            libmicrohttpd-dev libcurl4-openssl-dev libjansson-dev)
# libxml2: NCCL's topology dump (doctor --nccl-topo)
pkgs_build+=(libxml2-dev)
# tests: the sqlite3 shell (integrity checks), network namespaces and
# shaping (iproute2), clang for the fuzzer, clang-format for the house
# layout (tests/format), side-by-side peers, promtool (prometheus) for
# the metric renderers (tests/metrics), python3 for the Redfish mock
# (tests/lib/redfish-mock.py, standard library only), curl and openssl
# for the agent's HTTP and HTTPS tests (tests/watch, unit/test-serve);
# xmllint (libxml2-utils) for the HTML report and the NCCL topology
# file (tests/report, unit/test-export), headless chromium for the
# report (tests/report); graphviz (dot) and python3-yaml (libyaml) read back
# the DOT graph and the rule file a hostile name went through
# (tests/hostile)
pkgs_test=(sqlite3 iproute2 clang libclang-rt-14-dev clang-format hwloc
           iperf3 hpcc jq prometheus python3 python3-yaml curl openssl)
pkgs_test+=(libxml2-utils chromium graphviz)

all=("${pkgs_build[@]}" "${pkgs_test[@]}")

if [[ "${1:-}" == "--list" ]]; then
    printf '%s\n' "${all[@]}"
    exit 0
fi

missing=()
for p in "${all[@]}"; do
    if ! "${SN_DPKG_QUERY:-dpkg-query}" -W -f='${Status}' "$p" 2>/dev/null |
            grep -qx "install ok installed"; then
        missing+=("$p")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
    echo "supernode: missing Debian packages: ${missing[*]}" >&2
    echo "supernode: run 'sudo bash scripts/deps.sh' to install them" >&2
    [[ "${1:-}" == "--if-missing" ]] && exit 1
    exit 1
fi

echo "supernode: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive

# apt-get with the package lock waited for: unattended upgrades at boot
# hold /var/lib/dpkg/lock-frontend for minutes, and apt gives up at once
# by default. apt waits DPkg::Lock::Timeout seconds for the dpkg locks
# (apt 1.9.11 and later; Debian 12 has 2.6) before it fails; the loop
# says what it waits for after those 10 s, waits on, and also covers the
# lists lock of `apt-get update`.
apt_get=${SN_APT_GET:-apt-get}
lock_wait=${SN_APT_LOCK_WAIT:-900}
apt_locked() { # stderr file: did apt fail on a lock another process holds?
    grep -qE 'Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock directory|is another process using it' "$1"
}
apt_retry() { # quiet|loud, apt-get arguments...: stdout dropped; apt's
    # error is printed when loud or when the lock was never freed (then
    # the status is 75, EX_TEMPFAIL); the waiting is said either way
    local quiet=$1 err out start now said=0 rc gave_up=0
    shift
    err=$(mktemp)
    out=$(mktemp)
    start=$SECONDS
    while :; do
        rc=0
        "$apt_get" -o DPkg::Lock::Timeout=10 "$@" >"$out" 2>"$err" || rc=$?
        if [[ $rc -eq 0 ]] || ! apt_locked "$err"; then
            break
        fi
        now=$((SECONDS - start))
        if [[ $now -ge $lock_wait ]]; then
            echo "supernode: another package manager held the package" \
                 "lock for ${now} s; run 'make run' again when it" \
                 "has finished" >&2
            gave_up=1
            break
        fi
        if [[ $said -eq 0 ]]; then
            echo "supernode: another package manager is running" \
                 "($(grep -ohE 'held by process [0-9]+( \([^).]*\))?' "$err" "$out" |
                     head -n 1 || true)); waiting up to ${lock_wait} s" >&2
            said=1
        fi
        sleep "${SN_APT_RETRY_S:-5}"
    done
    if [[ $said -eq 1 && $rc -eq 0 ]]; then
        echo "supernode: the package lock was free after" \
             "$((SECONDS - start)) s" >&2
    fi
    [[ $rc -eq 0 || ($quiet == quiet && $gave_up -eq 0) ]] || cat "$err" >&2
    rm -f "$err" "$out"
    [[ $gave_up -eq 0 ]] || return 75
    return "$rc"
}

# the package lists may be old or absent on a fresh machine: on a failed
# install, update them once and try again; a lock never freed is not
# waited for a second time
rc=0
apt_retry quiet install -y -q --no-install-recommends "${missing[@]}" || rc=$?
if [[ $rc -eq 75 ]]; then
    exit 1
elif [[ $rc -ne 0 ]]; then
    apt_retry loud update -q
    apt_retry loud install -y -q --no-install-recommends "${missing[@]}"
fi
