#!/usr/bin/env bash
# report-1000.sh: the HTML report of a stored run of 1,000 devices
# (report-1000.c): bench/check-1k.yaml's 1,000 H100s, every pair of the
# tournament (499,500, bidirectional), rank 417's cable at half rate.
# The store is made once (one transaction, no MPI); then three timed
# reports of the library call, each checked to stay under 2 s and 10 MB,
# then three of `supernode report` itself.
#   bash bench/report-1000.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/bench
mkdir -p "$out"
make -s build/rel/libsupernode.a build/supernode
cc -std=c11 -O2 -D_GNU_SOURCE -Iinclude bench/report-1000.c \
    build/rel/libsupernode.a \
    $(pkg-config --libs yaml-0.1 sqlite3 hwloc openblas ompi-c 2>/dev/null) \
    -lm -lpthread -ldl -o "$out/report-1000"
db=$out/report-1000.db
if [ ! -s "$db" ]; then
    rm -f "$db" "$db-wal" "$db-shm"
    "$out/report-1000" make "$db" bench/check-1k.yaml
fi
echo "# load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
fail=0
for i in 1 2 3; do
    line=$("$out/report-1000" run "$db" bench/check-1k.yaml \
        "$out/report-1000.html")
    echo "$line"
    # "report: BYTES bytes (MB) in WALL s wall, CPU s CPU"
    bytes=$(echo "$line" | awk '{print $2}')
    wall=$(echo "$line" | awk '{print $7}')
    if [ "$bytes" -ge 10000000 ] || awk "BEGIN{exit !($wall >= 2)}"; then
        echo "report-1000: over the target (2 s, 10 MB)"
        fail=1
    fi
done
# the command itself: spec, store, every section the page has for them
for i in 1 2 3; do
    /usr/bin/time -f "supernode report: %e s wall, %U + %S s CPU, %M KB" \
        build/supernode report bench/check-1k.yaml --db "$db" --run 1 \
        -o "$out/report-1000-cli.html"
    ls -l "$out/report-1000-cli.html" | awk '{print "  " $5 " bytes"}'
done
exit $fail
