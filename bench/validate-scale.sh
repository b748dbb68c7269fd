#!/usr/bin/env bash
# validate-scale.sh: `supernode validate` on large inputs, each at the
# 100,000-row cap's order of size: 50,000 rows of distinct sources (the
# per-source summary), 50,000 timed rows of one source, model and GPU
# count (the layout ranking), and a valid header followed by 10 MB of
# pseudo-random bytes (seeded: the same bytes every run). Best of three
# by wall time.
#   bash bench/validate-scale.sh [SUPERNODE]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-./build/supernode}
out=build/bench
mkdir -p "$out"
[[ $# -gt 0 ]] || make -s build/supernode

header=$(head -n 1 tests/fixtures/validation/training-public.csv)
row='GPT-1.7B,1.7,24,2304,24,2048,51200,A100-SXM-80GB (Selene),32'
{
    echo "$header"
    awk -v row="$row" 'BEGIN { for (i = 0; i < 50000; i++)
        printf "src-%d,%s,1,1,32,,,512,full,TFLOPs_per_GPU_incl_recompute,137,\n", i, row }'
} >"$out/validate-sources.csv"
{
    echo "$header"
    awk -v row="$row" 'BEGIN { for (i = 0; i < 50000; i++) {
        tp = i % 2 + 1
        printf "one,%s,%d,1,%d,,,512,full,step_time_s,%d.5,\n", row, tp,
            32 / tp, i % 97 + 1 } }'
} >"$out/validate-group.csv"
{
    echo "$header"
    perl -e 'srand(1); my $n = 10_000_000;
             while ($n > 0) { my $k = $n < 65536 ? $n : 65536;
                 print pack("C*", map { int(rand(256)) } 1 .. $k); $n -= $k }'
} >"$out/validate-random.csv"

echo "# $bin validate FILE > /dev/null, best of 3 by wall time"
echo "# (load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
for f in sources group random; do
    file="$out/validate-$f.csv"
    for i in 1 2 3; do
        /usr/bin/time -f "%e %U %S %M" "$bin" validate "$file" \
            >/dev/null 2>"$out/validate.time" || true
        tail -n 1 "$out/validate.time"
    done | sort -n | head -n 1 |
        awk -v f="$f" -v size="$(wc -c <"$file")" \
            '{ printf "%-8s %9d bytes: %s s wall, %s s user + %s s system, %s KiB peak resident\n",
                      f, size, $1, $2, $3, $4 }'
done
