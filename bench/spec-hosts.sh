#!/usr/bin/env bash
# spec-hosts.sh: `supernode spec check` on specs whose hosts: list names
# 20,000 and 100,000 nodes (H100 servers of 8; the repeated-host check is
# the part that grows with the list). Best of three by wall time.
#   bash bench/spec-hosts.sh [SUPERNODE]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-./build/supernode}
out=build/bench
mkdir -p "$out"
[[ $# -gt 0 ]] || make -s build/supernode

echo "# $bin spec check FILE > /dev/null, best of 3 by wall time"
echo "# (load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
for n in 20000 100000; do
    file="$out/spec-hosts-$n.yaml"
    {
        printf 'accelerator: h100-sxm5-80gb\nsupernode: {accelerators: 8}\n'
        printf 'supernodes: %d\nhosts:\n' "$n"
        awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "  - node%06d\n", i }'
    } >"$file"
    for i in 1 2 3; do
        /usr/bin/time -f "%e %U %S %M" "$bin" spec check "$file" \
            >/dev/null 2>"$out/spec-hosts.time" || true
        tail -n 1 "$out/spec-hosts.time"
    done | sort -n | head -n 1 |
        awk -v n="$n" '{ printf "%7d hosts: %s s wall, %s s user + %s s system, %s KiB peak resident\n",
                             n, $1, $2, $3, $4 }'
done
