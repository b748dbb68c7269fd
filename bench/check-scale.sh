#!/usr/bin/env bash
# check-scale.sh: check's own work at 1,000 devices (check-scale.c):
# localising one slow cable among 10,024 fabric links from all 499,500
# pairs, and storing a run of 1,000 devices' results (then with the full
# pair matrix too). Three runs each.
#   bash bench/check-scale.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/bench
mkdir -p "$out"
make -s build/rel/libsupernode.a build/supernode
cc -std=c11 -O2 -D_GNU_SOURCE -Iinclude bench/check-scale.c \
    build/rel/libsupernode.a \
    $(pkg-config --libs yaml-0.1 sqlite3 hwloc openblas ompi-c 2>/dev/null) \
    -lm -lpthread -ldl -o "$out/check-scale"
echo "# load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in 1 2 3; do "$out/check-scale" localise bench/check-1k.yaml; done
for i in 1 2 3; do "$out/check-scale" store "$out"; done
