#!/usr/bin/env bash
# stream-vs-hpcc.sh: the bench's memory triad on the cpu backend against
# HPCC's STREAM (Debian package hpcc) on this machine: same array size,
# one thread, one process, best rate of 10 timed iterations on both sides
# (HPCC's STREAM reports the best of its NTIMES = 10 iterations after the
# first; the bench runs 1 warm-up and 10 timed and its "Best Rate" is the
# fastest sample). Runs alternate, R times, so that a busy spell on a
# shared machine hits both tools; the last line compares each tool's best
# round (sharing the cores only ever slows a run down, so the best round
# is the least disturbed one, as STREAM's Best Rate is its least disturbed
# iteration).
#
#   bench/peers/stream-vs-hpcc.sh [N] [R]     HPL N (sets STREAM's arrays;
#                                             default 4000), rounds (5)
#
# HPCC sizes STREAM from HPL's matrix: each of the 3 arrays holds about
# N^2 / 3 doubles (N = 4000: 42.7 MB each, 128 MB in all, well beyond the
# caches). HPCC also runs its other tests each time, hence minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
sn=$PWD/${SUPERNODE:-build/supernode}
n=${1:-4000}
rounds=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader
command -v hpcc >/dev/null || { echo "hpcc is not installed (apt-get install hpcc)"; exit 1; }

# the example input with N and a 1 x 1 process grid
sed -e "s/^1000 *Ns/$n         Ns/" -e 's/^2 *Ps/1            Ps/' \
    -e 's/^2 *Qs/1            Qs/' /usr/share/doc/hpcc/examples/_hpccinf.txt \
    >"$tmp/hpccinf.txt"

printf '%5s %12s %16s %16s %8s\n' round "array(B)" "hpcc triad GB/s" \
    "bench triad GB/s" "ratio"
for r in $(seq 1 "$rounds"); do
    (cd "$tmp" && rm -f hpccoutf.txt && OMP_NUM_THREADS=1 mpirun -np 1 hpcc \
        >/dev/null 2>&1)
    vec=$(sed -n 's/^STREAM_VectorSize=//p' "$tmp/hpccoutf.txt")
    hp=$(sed -n 's/^SingleSTREAM_Triad=//p' "$tmp/hpccoutf.txt")
    "$sn" bench memory --mem-size $((vec * 8)) --threads 1 -n 10 -w 1 \
        --json "$tmp/b.json" >/dev/null
    # the triad result's fastest sample, in B/s
    ours=$(awk '/"op": "triad"/ { t = 1 } t && /"max":/ {
                 gsub(/[^0-9.e+-]/, "", $2); print $2; exit }' "$tmp/b.json")
    awk -v r="$r" -v v="$vec" -v h="$hp" -v o="$ours" 'BEGIN {
        printf "%5d %12d %16.3f %16.3f %8.3f\n", r, v * 8, h, o / 1e9,
               o / 1e9 / h }' | tee -a "$tmp/rounds"
done
awk '{ if ($3 > h) h = $3; if ($4 > o) o = $4; v = $2 }
     END { printf "%5s %12d %16.3f %16.3f %8.3f\n", "best", v, h, o, o / h }' \
    "$tmp/rounds"
uptime
