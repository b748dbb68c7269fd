#!/usr/bin/env bash
# allreduce-vs-loop.sh: `supernode bench coll` on the cpu backend against
# the same MPI_Allreduce timed by a minimal loop (mpi-loop.c), two ranks
# on this machine, to show what the tool adds per timed iteration.
#
#   bench/peers/allreduce-vs-loop.sh [SIZES...]     (default 8 1K 64K 1M)
#   ROUNDS=R (5): runs of each of the three, alternating
#
# Both sides time batches of back-to-back calls and report the median of
# the batches' mean time per call: the loop times each batch; the bench
# times each call (the slowest rank's time, every sample kept) and the
# script averages its samples in the same batches. The three runs
# alternate ROUNDS times and each keeps its best round: on a shared
# machine other work only ever adds time, so the best round is the least
# disturbed one. Prints one line per size: bytes, loop (us), loop with
# MPI_THREAD_MULTIPLE (us), bench (us), bench minus the MULTIPLE loop
# (us). The bench asks for MPI_THREAD_MULTIPLE (its watchdog needs it), so
# that loop is the fair reference; the single-threaded one shows what
# MULTIPLE costs MPI.
set -euo pipefail
cd "$(dirname "$0")/../.."
sn=${SUPERNODE:-build/supernode}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader
mpicc -O2 -o "$tmp/mpi-loop" bench/peers/mpi-loop.c
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(8 1K 64K 1M)

bytes_of() { # 1K -> 1024, as the bench reads sizes
    local v=$1
    case $v in
    *K) echo $((${v%K} * 1024)) ;;
    *M) echo $((${v%M} * 1048576)) ;;
    *) echo "$v" ;;
    esac
}

# median of batch means of the out-of-place samples in a bench JSON
bench_median() { # file per_batch
    awk -v per="$2" '
        /"inplace": false/ { oop = 1 }
        /"inplace": true/ { oop = 0 }
        /"samples_s": \[/ && oop {
            s = $0; sub(/.*\[/, "", s); sub(/\].*/, "", s)
            n = split(s, v, ",")
            for (i = 1; i + per - 1 <= n; i += per) {
                sum = 0
                for (k = i; k < i + per; k++) sum += v[k]
                printf "%.9e\n", sum / per
            }
            exit
        }' "$1" | sort -g | awk '{ m[NR] = $1 } END {
            printf "%.6e\n", NR % 2 ? m[(NR + 1) / 2] : (m[NR / 2] + m[NR / 2 + 1]) / 2 }'
}

best() { # the smaller of two times; the first may be empty
    awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }'
}

printf '%10s %12s %14s %12s %12s\n' bytes "loop(us)" "loop-mt(us)" \
    "bench(us)" "added(us)"
for size in "${sizes[@]}"; do
    b=$(bytes_of "$size")
    per=100
    batches=100
    [[ $b -ge 1048576 ]] && { per=10; batches=50; }
    loop="" loopmt="" ours=""
    for _ in $(seq 1 "${ROUNDS:-5}"); do
        v=$(mpirun -np 2 "$tmp/mpi-loop" allreduce "$b" $batches $per |
            awk '{print $3}')
        loop=$(best "$loop" "$v")
        v=$(mpirun -np 2 "$tmp/mpi-loop" allreduce "$b" $batches $per \
            multiple | awk '{print $3}')
        loopmt=$(best "$loopmt" "$v")
        mpirun -np 2 "$sn" bench coll --ops allreduce -b "$b" -e "$b" \
            -n $((batches * per)) -w $per --no-check --json "$tmp/b.json" \
            >/dev/null
        ours=$(best "$ours" "$(bench_median "$tmp/b.json" $per)")
    done
    awk -v b="$b" -v l="$loop" -v m="$loopmt" -v o="$ours" 'BEGIN {
        printf "%10d %12.3f %14.3f %12.3f %12.3f\n", b, l * 1e6, m * 1e6,
               o * 1e6, (o - m) * 1e6 }'
done
