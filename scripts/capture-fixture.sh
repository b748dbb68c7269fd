#!/usr/bin/env bash
# capture-fixture.sh DIR: copy what `supernode doctor` and hwloc read from
# this node's /sys, /proc and kernel log into DIR, so that
# `supernode doctor --fsroot DIR` (and `HWLOC_FSROOT=DIR lstopo`) see this
# node on any machine.
#
#   scripts/capture-fixture.sh tests/fixtures/sysfs/mynode
#   scripts/capture-fixture.sh --full-log DIR   keep the whole kernel log
#   scripts/capture-fixture.sh --anonymize DIR  for sharing: host name,
#       kernel builder, MAC addresses blanked; no command line, no mounts
#
# Only small text attributes are copied, and the first 256 bytes of PCI
# config space (bridge bus numbers, which hwloc needs to rebuild the PCI
# tree); no ROMs, nothing is written to the node. Symlinks stay symlinks,
# so the PCI tree (which bridge a device hangs from) survives. The kernel
# log keeps only the lines doctor looks at (XID, AER, link changes) unless
# --full-log is given.
set -euo pipefail

full_log=0
anonymize=0
while [[ "${1:-}" == --* ]]; do
    case $1 in
    --full-log) full_log=1 ;;
    --anonymize) anonymize=1 ;;
    *) echo "capture-fixture.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
dest=${1:?usage: capture-fixture.sh [--full-log] [--anonymize] DIR}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
# CAPTURE_ROOT captures another tree instead of / (this script's tests)
root=$(cd "${CAPTURE_ROOT:-/}" && pwd -P)
cd "$root"

list=$(mktemp)
trap 'rm -f "$list"' EXIT

# attributes never copied: binary, write-only, or with side effects
skip='(.*/)?(config|rom|resource[0-9]*(_wc)?|remove|rescan|reset|reset_method|new_id|remove_id|bind|unbind|uevent|driver_override|broken_parity_status|msi_bus|d3cold_allowed|power_state|waiting_for_supplier|ari_enabled|enable|label|index|acpi_index|modalias|vpd)'

# want DEPTH DIR...: the files and links under DIR, DEPTH levels down
want() {
    local depth=$1
    shift
    find "$@" -maxdepth "$depth" -regextype posix-extended \
        \( -type f -o -type l \) ! -regex "$skip" -print0 \
        2>/dev/null >>"$list" || true
}
# want_path PATH...: these files or links, when they exist
want_path() {
    local p
    for p; do
        if [[ -L "$p" || -f "$p" ]]; then printf '%s\0' "$p" >>"$list"; fi
    done
}

# ---- procfs ------------------------------------------------------------
want_path proc/cpuinfo proc/meminfo proc/version proc/cmdline proc/uptime \
    proc/mounts proc/sys/kernel/hostname proc/sys/kernel/numa_balancing \
    proc/sys/kernel/osrelease proc/sys/vm/nr_hugepages
[[ -d proc/driver/nvidia ]] && want 3 proc/driver/nvidia

# ---- CPUs, NUMA nodes, huge pages (what hwloc and the CPU checks read) --
want 1 sys/devices/system/cpu
for c in sys/devices/system/cpu/cpu[0-9]*; do
    [[ -d "$c" ]] || continue
    want 1 "$c"
    want 1 "$c/topology" "$c/cpufreq"
    want 2 "$c/cache"
done
want 1 sys/bus/cpu/devices sys/devices/system/node sys/bus/node/devices
for n in sys/devices/system/node/node[0-9]*; do
    [[ -d "$n" ]] || continue
    want_path "$n/cpumap" "$n/cpulist" "$n/meminfo" "$n/distance"
    want 2 "$n/hugepages"
done
want 2 sys/kernel/mm/hugepages
want 1 sys/kernel/mm/transparent_hugepage sys/devices/virtual/dmi/id
want_path sys/class/dmi/id

# ---- PCI: every function, the bridges above it, its OS devices ---------
want 1 sys/bus/pci/devices
want 2 sys/bus/pci/slots
declare -A seen=()
configs=()
for l in sys/bus/pci/devices/*; do
    [[ -L "$l" ]] || continue
    target=$(readlink "$l")
    real=$(cd "${l%/*}" && cd "$target" && pwd -P) || continue
    rel=${real#"$root"}
    rel=${rel#/}
    # every directory from sys/devices/pciDDDD:BB down to the device
    p=$rel
    while [[ "$p" == sys/devices/pci* && -z "${seen[$p]:-}" ]]; do
        seen[$p]=1
        want 1 "$p"
        [[ -f "$p/config" ]] && configs+=("$p/config")
        p=${p%/*}
    done
    # the names under net/, infiniband/, nvme/, block/, drm/ and their
    # /sys/class entries (hwloc finds OS devices through /sys/class)
    for sub in net infiniband nvme block drm; do
        for e in "$rel/$sub"/* "$rel"/virtio*/"$sub"/*; do
            [[ -e "$e" ]] || continue
            want 1 "$e"
            want_path "sys/class/$sub/${e##*/}"
            [[ $sub == infiniband ]] && want 3 "$e/ports"
        done
    done
done
for l in sys/class/net/*; do
    want_path "$l"
done

# ---- versions: where installs leave them ------------------------------
want_path usr/local/cuda/version.json var/lib/dpkg/status
placeholders=()
for d in usr/local/cuda/lib64 usr/local/cuda/targets/x86_64-linux/lib \
        usr/local/cuda/targets/sbsa-linux/lib usr/lib/x86_64-linux-gnu \
        usr/lib/aarch64-linux-gnu usr/lib/x86_64-linux-gnu/openblas-pthread \
        usr/lib/x86_64-linux-gnu/openblas-openmp \
        usr/lib/aarch64-linux-gnu/openblas-pthread usr/lib64 \
        usr/local/lib opt/nccl/lib; do
    [[ -d "$d" ]] || continue
    # the names carry the versions; the libraries themselves stay behind
    for f in "$d"/libnccl.so* "$d"/libcudart.so* "$d"/libopenblas*-r*.so; do
        [[ -e "$f" || -L "$f" ]] && placeholders+=("$f")
    done
done
headers=()
for h in usr/local/cuda/include/nccl.h usr/include/nccl.h \
        usr/local/cuda/include/cuda_runtime_api.h \
        usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
        usr/lib/aarch64-linux-gnu/openmpi/include/mpi.h \
        usr/include/openmpi-x86_64/mpi.h usr/include/mpi.h; do
    [[ -f "$h" ]] && headers+=("$h")
done
dist=()
[[ -d usr/local/cuda/dist-info ]] &&
    for e in usr/local/cuda/dist-info/*.dist-info; do dist+=("$e"); done

# one cp for everything: each file read to its end (sysfs reports 4096
# bytes whatever an attribute holds); a file that fails to read (some
# attributes answer EIO) is left out, not half-copied
xargs -0 -r cp -d --parents -t "$dest" -- <"$list" 2>/dev/null || true
for f in "${configs[@]}"; do
    head -c 256 "$f" >"$dest/$f" 2>/dev/null || rm -f "$dest/$f"
done
for f in "${placeholders[@]}"; do
    mkdir -p "$dest/${f%/*}"
    if [[ -L "$f" ]]; then
        ln -sfn "$(readlink "$f")" "$dest/$f"
    else
        : >"$dest/$f"
    fi
done
for h in "${headers[@]}"; do
    # only the version lines of a header
    mkdir -p "$dest/${h%/*}"
    grep -E '^#define +(NCCL_(MAJOR|MINOR|PATCH)|CUDART_VERSION|OMPI_(MAJOR|MINOR|RELEASE)_VERSION) ' \
        "$h" >"$dest/$h" || rm -f "$dest/$h"
done
for e in "${dist[@]}"; do
    mkdir -p "$dest/$e"
done
if [[ -f "$dest/var/lib/dpkg/status" ]]; then
    # the stanzas of the packages doctor reads, three lines each
    awk -v RS= -v ORS='\n\n' '/^Package: (libopenmpi3|libopenmpi40|openmpi-bin|libmpich12|mpich|libnccl2|libopenblas0-pthread|libopenblas0-openmp|libopenblas0|libopenblas-base)\n/' \
        "$dest/var/lib/dpkg/status" |
        grep -E '^(Package|Status|Version): |^$' >"$dest/var/lib/dpkg/status.tmp"
    mv "$dest/var/lib/dpkg/status.tmp" "$dest/var/lib/dpkg/status"
fi

# ---- kernel log: /dev/kmsg records ("prio,seq,usec,flags;text") --------
if [[ -r dev/kmsg ]]; then
    mkdir -p "$dest/dev"
    # reading /dev/kmsg blocks at the end of the log; a file ends itself
    if [[ -c dev/kmsg ]]; then
        log=$(timeout 2 cat dev/kmsg 2>/dev/null || true)
    else
        log=$(cat dev/kmsg)
    fi
    if [[ $full_log -eq 0 ]]; then
        log=$(grep -E 'Linux version|NVRM: Xid|AER|[Ll]ink (is )?[Dd]own|PCIe Bus Error|link speed|[Ll]ink up|fallen off the bus' <<<"$log" || true)
    fi
    printf '%s\n' "$log" >"$dest/dev/kmsg"
fi

if [[ $anonymize -eq 1 ]]; then
    rm -f "$dest/proc/cmdline" "$dest/proc/mounts"
    if [[ -f "$dest/proc/sys/kernel/hostname" ]]; then
        echo captured-node >"$dest/proc/sys/kernel/hostname"
    fi
    # "Linux version X (user@host) (compiler ...)": keep X and the compiler
    for f in "$dest/proc/version" "$dest/dev/kmsg"; do
        [[ -f "$f" ]] && sed -i -E 's/\(([^()@ ]+)@([^()@ ]+)\)/(builder@host)/' "$f"
    done
    find "$dest/sys" -path '*/net/*' -name address -type f \
        -exec sh -c 'for f; do echo 00:00:00:00:00:00 >"$f"; done' _ {} +
fi

echo "captured into $dest ($(find "$dest" -type f | wc -l) files)"
