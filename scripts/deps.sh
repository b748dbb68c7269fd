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
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
            grep -q "install ok installed"; then
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
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" \
        >/dev/null 2>&1; then
    apt-get update -q >/dev/null
    apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi
