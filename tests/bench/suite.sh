#!/usr/bin/env bash
# suite.sh BUILD: `supernode bench` on the cpu backend as an MPI job of two
# ranks (mpirun -np 2 --oversubscribe, also as root) and as a lone
# process: every test type, the data check catching injected corruption,
# the watchdog ending a job whose rank hangs, --until-ci, bad usage, and
# the cuda backend skipping where no GPU is present. Sizes are tiny: this
# checks behaviour, bench/ measures speed.
# covers: bench
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${SUPERNODE:?}
here=$PWD/tests/bench
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# shared memory between the two ranks, no network needed
export OMPI_MCA_btl=self,vader
# one case keeps leak checking on (below); the others trade it for speed:
# ASan still checks every access, UBSan every operation
quiet_asan="detect_leaks=0:abort_on_error=0"

mpi2() { # mpirun -np 2 with a hard stop, should the watchdog itself fail
    timeout 120 mpirun -np 2 --oversubscribe "$@"
}

ok() { pass=$((pass + 1)); echo "ok $1 ($((SECONDS - t0)) s)"; t0=$SECONDS; }
t0=$SECONDS
bad() {
    fail=$((fail + 1))
    echo "FAIL $1: $2"
    sed 's/^/  stdout: /' "$tmp/out" | tail -n 15
    sed 's/^/  stderr: /' "$tmp/err" | grep -v 'Suppressions\|count  *bytes\|^  stderr: -*$' |
        tail -n 15
}
has() { grep -qF -- "$2" "$1"; }
count() { grep -cF -- "$2" "$1"; }

small=(--gemm-size 64 --mem-size 1M --size 64K -b 64K -e 64K
       --latency-iters 300 -n 5 -w 1)

# 1. every test type, two ranks, leak checking on with Open MPI's own
#    allocations suppressed (tests/bench/lsan-mpi.supp)
ASAN_OPTIONS="fast_unwind_on_malloc=0:detect_leaks=1:abort_on_error=0" \
LSAN_OPTIONS="suppressions=$here/lsan-mpi.supp" \
    mpi2 "$bin" bench compute memory h2d d2h pairs aggregate coll latency \
    "${small[@]}" --json "$tmp/all.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
why=""
[[ $rc -eq 0 ]] || why="exit $rc"
for want in "Triad:" "GFLOP/s" "# Out of bounds values : 0 OK" \
            "unidirectional bandwidth (GB/s)" "src\\dst" \
            "Avg Latency(us)" "sum alone(GB/s)" \
            "h2d skipped: the cpu backend has no device memory"; do
    has "$tmp/out" "$want" || why+=" stdout lacks '$want';"
done
has "$tmp/all.json" '"schema": "supernode.bench/2"' || why+=" no schema;"
has "$tmp/all.json" '"complete": true' || why+=" not complete;"
# what the document must carry besides the results: the timer's measured
# granularity, the versions, how it sampled; the cpu backend reads the
# host's state only, so the accelerator's fields are null, not 0
grep -q '"granularity_s": [0-9]' "$tmp/all.json" || why+=" no timer granularity;"
has "$tmp/all.json" '"mpi": "Open MPI' || why+=" no MPI version;"
has "$tmp/all.json" '"blas": "OpenBLAS' || why+=" no BLAS version;"
has "$tmp/all.json" '"warmup": 1,' || why+=" no sampling;"
has "$tmp/all.json" '"throttle_reasons": null' || why+=" throttle not null;"
has "$tmp/all.json" '"throttle_reasons": 0' && why+=" throttle 0 unread;"
# 2 ranks x 2 GEMM types, 2 x 4 kernels, 6 pair results, 2 isolated + 1
# aggregate, 7 collectives x 1 size x 2 variants, 2 pair + 1 allreduce
# latencies
[[ $(count "$tmp/all.json" '"test": "compute"') -eq 4 ]] || why+=" compute count;"
[[ $(count "$tmp/all.json" '"test": "memory"') -eq 8 ]] || why+=" memory count;"
[[ $(count "$tmp/all.json" '"test": "pairs"') -eq 6 ]] || why+=" pairs count;"
[[ $(count "$tmp/all.json" '"test": "aggregate"') -eq 3 ]] || why+=" aggregate count;"
[[ $(count "$tmp/all.json" '"test": "coll"') -eq 14 ]] || why+=" coll count;"
[[ $(count "$tmp/all.json" '"test": "latency"') -eq 3 ]] || why+=" latency count;"
[[ $(count "$tmp/all.json" '"wrong": 0') -eq 14 ]] || why+=" unchecked coll;"
has "$tmp/err" "ERROR: AddressSanitizer" && why+=" asan error;"
has "$tmp/err" "ERROR: LeakSanitizer" && why+=" leak;"
has "$tmp/err" "runtime error" && why+=" ubsan error;"
[[ -z "$why" ]] && ok "all tests on two ranks" || bad "all tests on two ranks" "$why"

export ASAN_OPTIONS=$quiet_asan

# 2. a lone process is a job of one rank: device tests run, pair tests say
#    what they need
"$bin" bench compute memory pairs "${small[@]}" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [[ $rc -eq 0 ]] && has "$tmp/out" "Triad:" &&
        has "$tmp/out" "pairs skipped: it needs two ranks or more"; then
    ok "one rank without mpirun"
else
    bad "one rank without mpirun" "exit $rc"
fi

# 3. one pair at a time, beside the design (--spec): on the cpu backend
#    inside one host the pairs move through MPI's shared memory and the
#    collective is MPI's, neither of which the design describes: no design
#    value, as check gives none (sn_expect_design; before, bench compared
#    them with `sim pairs` and `sim coll`)
mpi2 "$bin" bench pairs coll --isolated "${small[@]}" --ops allreduce \
    --spec examples/one-host.yaml --json "$tmp/iso.json" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
if [[ $rc -eq 0 ]] && has "$tmp/out" "one pair at a time" &&
        [[ $(count "$tmp/iso.json" '"concurrent": false') -eq 6 ]] &&
        [[ $(count "$tmp/iso.json" '"source":') -eq 0 ]] &&
        ! has "$tmp/out" "% of the design"; then
    ok "isolated pairs beside the design"
else
    bad "isolated pairs beside the design" "exit $rc"
fi

# 4. corruption on rank 1 (test-only fault) is counted as #wrong, exit 1
mpi2 "$bin" bench coll --ops allreduce,allgather -b 1K -e 1K -n 3 \
    --inject corrupt:rank=1 --json "$tmp/bad.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [[ $rc -eq 1 ]] && has "$tmp/out" "# Out of bounds values : 2 FAILED" &&
        [[ $(count "$tmp/bad.json" '"wrong": 1') -eq 4 ]] &&
        has "$tmp/err" "wrong elements"; then
    ok "corruption caught"
else
    bad "corruption caught" "exit $rc"
fi

# 5. a rank that hangs at the start of a test: the job ends within the
#    timeout, exit 3, naming the rank and the test; what was gathered is
#    written and marked incomplete
start=$(date +%s)
mpi2 "$bin" bench compute memory "${small[@]}" --timeout 2 \
    --inject hang:rank=1,test=memory --json "$tmp/hang.json" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
took=$(($(date +%s) - start))
why=""
[[ $rc -eq 3 ]] || why+=" exit $rc;"
has "$tmp/err" "test 'memory' did not finish within 2 s" || why+=" no timeout message;"
has "$tmp/err" "rank 1 (" || why+=" rank not named;"
has "$tmp/err" "is behind" || why+=" culprit not found;"
has "$tmp/hang.json" '"complete": false' || why+=" not marked incomplete;"
[[ $(count "$tmp/hang.json" '"test": "compute"') -eq 4 ]] || why+=" compute results lost;"
[[ $took -lt 60 ]] || why+=" took ${took}s;"
[[ -z "$why" ]] && ok "hang at test start" || bad "hang at test start" "$why"

# 5b. a rank that dies (SIGKILL, test-only fault) at the start of a test:
#     Open MPI's mpirun ends the job at once and returns the dead rank's
#     status (128 + 9), naming that rank; rank 0 turns the launcher's
#     SIGTERM into the partial write, naming the test, well within the
#     timeout
start=$(date +%s)
mpi2 "$bin" bench compute memory "${small[@]}" --timeout 30 \
    --inject die:rank=1,test=memory --json "$tmp/die.json" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
took=$(($(date +%s) - start))
why=""
[[ $rc -eq 137 ]] || why+=" exit $rc;"
has "$tmp/err" "during test 'memory' (a rank died" || why+=" test not named;"
grep -q "rank 1 .*exited on signal 9" "$tmp/err" || why+=" rank not named;"
has "$tmp/die.json" '"complete": false' || why+=" not marked incomplete;"
has "$tmp/die.json" '"test": "memory",' || why+=" abort test missing;"
[[ $(count "$tmp/die.json" '"test": "compute"') -eq 4 ]] || why+=" compute results lost;"
[[ $took -lt 30 ]] || why+=" took ${took}s;"
[[ -z "$why" ]] && ok "rank dies at test start" || bad "rank dies at test start" "$why"

# 6. a rank that stops inside a timed collective loop
mpi2 "$bin" bench coll --ops allreduce -b 1K -e 1K -n 50 --timeout 2 \
    --inject hang:rank=1,test=coll,at=loop >"$tmp/out" 2>"$tmp/err"
rc=$?
if [[ $rc -eq 3 ]] && has "$tmp/err" "rank 1 (" &&
        has "$tmp/err" "injected hang" && has "$tmp/err" "is behind"; then
    ok "hang inside a timed loop"
else
    bad "hang inside a timed loop" "exit $rc"
fi

# 7. --until-ci samples in batches up to the cap and says whether the
#    interval got there
#    (latency's 200 samples per section exceed --max-iters: the cap never
#    cuts a section below its planned samples)
mpi2 "$bin" bench memory latency --mem-size 1M -n 6 --latency-iters 200 \
    --until-ci 50 --max-iters 30 --json "$tmp/ci.json" >"$tmp/out" \
    2>"$tmp/err"
rc=$?
if [[ $rc -eq 0 ]] && ! has "$tmp/ci.json" '"ci_met": null' &&
        has "$tmp/ci.json" '"ci_met": ' &&
        [[ $(count "$tmp/ci.json" '"test": "latency"') -eq 3 ]]; then
    ok "until-ci"
else
    bad "until-ci" "exit $rc"
fi

# 8. bad usage: exit 2, one message, nothing run
for args in "--until-ci 0" "colll" "-d bf61" "--inject hang" "--inject die" \
            "coll -b 1M -e 1K" "--timeout soon" "--spec /nonexistent.yaml"; do
    # shellcheck disable=SC2086
    "$bin" bench $args >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [[ $rc -eq 2 ]] && [[ $(wc -l <"$tmp/err") -ge 1 ]] &&
            [[ ! -s "$tmp/out" ]]; then
        ok "bad usage: $args"
    else
        bad "bad usage: $args" "exit $rc"
    fi
done

# 9. the cuda backend: built as a plugin beside the binary when CUDA was
#    found; without a GPU it says so and exits 3 (scripts/gpu-check.sh runs
#    it where there is one)
if [[ -f "$(dirname "$bin")/supernode-cuda.so" ]]; then
    "$bin" bench --backend cuda compute --gemm-size 256 -n 3 \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [[ $rc -eq 3 ]] && has "$tmp/err" "no CUDA device on host"; then
        ok "cuda backend (skipped: $(head -n 1 "$tmp/err" | cut -c 12-))"
    elif [[ $rc -eq 0 ]] && has "$tmp/out" "TFLOP/s"; then
        ok "cuda backend on a GPU"
    else
        bad "cuda backend" "exit $rc"
    fi
else
    "$bin" bench --backend cuda >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [[ $rc -eq 3 ]] && has "$tmp/err" "cuda backend is not available"; then
        ok "cuda backend (skipped: not built)"
    else
        bad "cuda backend not built" "exit $rc"
    fi
fi

# ---- progress without a terminal: plain lines, one a test ------------------
# (under mpirun rank 0's stderr is a pipe; a run of minutes was silent)
ASAN_OPTIONS=$quiet_asan mpi2 "$bin" bench compute memory "${small[@]}" \
    -n 2 -w 0 >"$tmp/out" 2>"$tmp/err"
rc=$?
why=""
[[ $rc -eq 0 ]] || why+=" exit $rc;"
has "$tmp/err" "bench: compute" || why+=" no compute progress;"
has "$tmp/err" "bench: memory" || why+=" no memory progress;"
! grep -q $'\r\|\033' "$tmp/err" || why+=" terminal codes in a pipe;"
[[ -z "$why" ]] && ok "progress: plain lines when stderr is no terminal" ||
    bad "progress without a terminal" "$why"

# ---- the default memory arrays follow STREAM's rule -----------------------
# 4 x the last-level cache: a 24 MiB L3 (fixture tree) gives 96 MiB arrays,
# not the 64 MiB floor, and no "include cache" note
mkdir -p "$tmp/root/sys/devices/system/cpu/cpu0/cache/index3"
echo 3 >"$tmp/root/sys/devices/system/cpu/cpu0/cache/index3/level"
echo 24576K >"$tmp/root/sys/devices/system/cpu/cpu0/cache/index3/size"
ASAN_OPTIONS=$quiet_asan "$bin" bench memory -n 1 -w 0 --fsroot "$tmp/root" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
why=""
[[ $rc -eq 0 ]] || why+=" exit $rc;"
has "$tmp/out" "Copy:     100663296" || why+=" arrays not 96 MiB;"
! has "$tmp/out" "include cache" || why+=" cache note;"
[[ -z "$why" ]] && ok "memory: default arrays 4 x the LLC" ||
    bad "memory default size" "$why"

# placement: two ranks on this host against the 4-host cpu-cluster are
# refused naming them, the way check refuses them; --allow-colocated
# measures and leaves the colocated pair without a design value
host=$(hostname)
ASAN_OPTIONS=$quiet_asan mpi2 "$bin" bench pairs --size 64K -n 2 -w 0 \
    --spec examples/cpu-cluster.yaml >"$tmp/out" 2>"$tmp/err"
rc=$?
why=""
[[ $rc -eq 2 ]] || why+=" exit $rc, expected 2;"
has "$tmp/err" "bench: the ranks do not run where the spec puts them: ranks 0 and 1 both run on $host" ||
    why+=" mismatch not named;"
ASAN_OPTIONS=$quiet_asan mpi2 "$bin" bench pairs --size 64K -n 2 -w 0 \
    --spec examples/cpu-cluster.yaml --allow-colocated \
    --json "$tmp/coloc.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
[[ $rc -eq 0 ]] || why+=" allowed: exit $rc;"
has "$tmp/err" "bench: --allow-colocated: ranks 0 and 1" || why+=" not said;"
[[ $(jq '[.results[] | select(.test == "pairs") | .expected] | length' \
    "$tmp/coloc.json") -gt 0 ]] || why+=" no pair results;"
[[ $(jq '[.results[] | select(.test == "pairs" and .expected != null)] |
    length' "$tmp/coloc.json") -eq 0 ]] || why+=" a pair given a design value;"
[[ -z "$why" ]] && ok "placement: refused, allowed without a design value" ||
    bad "placement" "$why"

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
