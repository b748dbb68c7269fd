#!/usr/bin/env bash
# plan-scale.sh: the planner's speed and memory at about 1,000, 10,000 and
# 100,000 accelerators (14, 139 and 1,389 GB200 NVL72 racks on a 3-tier
# rail-optimised fat tree): the stages in one process (plan-scale.c), best
# of three runs, then `supernode plan --format json` end to end.
#   bash bench/plan-scale.sh [RACKS...]
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(14 139 1389)
out=build/bench
mkdir -p "$out"
make -s build/rel/libsupernode.a build/supernode
cc -std=c11 -O2 -D_GNU_SOURCE -Iinclude bench/plan-scale.c \
    build/rel/libsupernode.a \
    $(pkg-config --libs yaml-0.1 sqlite3 hwloc openblas ompi-c 2>/dev/null) \
    -lm -lpthread -ldl -o "$out/plan-scale"

echo "# stages in one process, seconds (best of 3 by total)"
for r in "${sizes[@]}"; do
    for i in 1 2 3; do "$out/plan-scale" "$r"; done |
        awk '{ t = $0; sub(/.*total /, "", t); sub(/ s wall.*/, "", t)
               if (best == "" || t + 0 < bt) { best = $0; bt = t + 0 } }
             END { print best }'
done

echo "# supernode plan SPEC --format json > /dev/null, end to end"
echo "# (load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
for r in "${sizes[@]}"; do
    spec="$out/nvl72-x$r.yaml"
    "$out/plan-scale" --yaml "$r" >"$spec"
    if [[ -x /usr/bin/time ]]; then
        /usr/bin/time -f "$r racks: %e s wall, %U s user + %S s system, %M KiB peak resident" \
            ./build/supernode plan "$spec" --format json >/dev/null
    else
        TIMEFORMAT="$r racks: %R s wall"
        time ./build/supernode plan "$spec" --format json >/dev/null
    fi
done
