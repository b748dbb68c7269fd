#!/usr/bin/env bash
# run.sh BUILD: the tests of supernode, in parallel. Runs the unit-test
# binaries in BUILD/unit and every tests/*/suite.sh (each prints
# "N passed, N failed" as its last line), as many at a time as the machine
# has cores, each group's output kept apart and printed in one piece when
# it ends (a failing group's whole output); then the total as the last
# line, "N passed, N failed".
#
# The test map: each suite (a "# covers: MODULE..." line in its
# suite.sh), unit test (a "covers: MODULE..." comment in its
# tests/unit/test-*.c) and CLI case (a "covers:" line in its .t) names the
# modules of src/lib it tests ("all": every one, as the format check;
# "none": no code of src/lib, as the check of scripts/deps.sh). A name
# that is not a directory of src/lib, or a group without the line, is a
# failure: the map stays true as modules come and go. A "runs:" line
# beside it may say
#   alone  it shares nothing: it runs when nothing else does (it measures
#          the machine, or holds what another group would use)
#   slow   left out of the everyday set (QUICK=1)
#   shards it runs as parts side by side: SN_SHARD=I/N asks for the I-th
#          of N (the CLI cases, the hostile probes)
#
# Environment:
#   T=MODULE...  only the groups and CLI cases that cover these modules or
#                a module that uses them (symbols, from BUILD's objects):
#                what a change to those modules needs
#   QUICK=1      leave out the groups marked slow (`make test-quick`)
#   JOBS=N       groups at a time (default: the number of cores)
#   VERBOSE=1    print every group's whole output, passing or not
#   LIST=1       print the groups it would run, in order, and run none
#   SKIP=REGEX   leave out the groups whose names match (awk's regex)
set -uo pipefail
build=${1:?usage: tests/run.sh BUILD}
cd "$(dirname "$0")/.."
export SUPERNODE="$PWD/$build/supernode"
export SN_BUILD="$PWD/$build"
# Sanitizers: stop on the first error; leak checking stays on.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || jobs=2
shards=$((jobs * 2))

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
t_start=$(date +%s)

# ---- the map ---------------------------------------------------------------
modules=" $(cd src/lib && for d in */; do printf '%s ' "${d%/}"; done)"
map_errors=()

# meta FILE KEY: the words after "KEY:" in FILE's head (comment lines)
meta() {
    sed -n "1,60{s/^\(#\|\/\*\|\*\)\{0,1\} *$2: *\([^*]*\).*/\2/p}" "$1" |
        head -n 1 | tr -s ' ' | sed 's/ *$//'
}

# check_covers WHAT WORDS: every word a module of src/lib
check_covers() {
    local what=$1 m
    shift
    if [[ $# -eq 0 ]]; then
        map_errors+=("$what names no module (a 'covers:' line)")
        return 1
    fi
    [[ $# -eq 1 && ( $1 == all || $1 == none ) ]] && return 0
    for m in "$@"; do
        if [[ "$modules" != *" $m "* ]]; then
            map_errors+=("$what names '$m', not a module of src/lib")
            return 1
        fi
    done
}

# T: the modules asked for and, from the build's objects, every module
# whose code calls into one of them (directly or through others)
selected=""
if [[ -n "${T:-}" ]]; then
    for m in ${T//,/ }; do
        [[ "$modules" == *" $m "* ]] ||
            map_errors+=("T=$m: '$m' is not a module of src/lib")
    done
    nm -g --defined-only "$build"/src/lib/*/*.o 2>/dev/null |
        awk '/^build|^\//{split($0, p, "/src/lib/"); split(p[2], q, "/");
             mod = q[1]; next} NF == 3 {print $3, mod}' >"$work/defs"
    nm -u "$build"/src/lib/*/*.o 2>/dev/null |
        awk '/\.o:$/{split($0, p, "/src/lib/"); split(p[2], q, "/");
             mod = q[1]; next} $1 == "U" {print $2, mod}' >"$work/uses"
    awk 'NR == FNR {d[$1] = $2; next}
         ($1 in d) && d[$1] != $2 {print $2, d[$1]}' \
        "$work/defs" "$work/uses" | sort -u >"$work/deps"
    selected=" ${T//,/ } "
    while :; do
        more=$(awk -v s="$selected" 'BEGIN {n = split(s, a, " ");
                   for (i = 1; i <= n; i++) in_s[a[i]] = 1}
               ($2 in in_s) && !($1 in in_s) {print $1}' "$work/deps" |
            sort -u | tr '\n' ' ')
        [[ -n "$more" ]] || break
        selected+="$more "
    done
    echo "T=${T}: modules $(echo $selected)"
    export SN_TEST_MODULES="$selected"
fi

# wanted COVERS...: the group is in this run's selection
wanted() {
    local m
    [[ -z "$selected" || $1 == all ]] && return 0
    for m in "$@"; do
        [[ "$selected" == *" $m "* ]] && return 0
    done
    return 1
}

# ---- the groups --------------------------------------------------------------
# one line each: NAME<TAB>FLAGS<TAB>COMMAND
: >"$work/groups"
add() { printf '%s\t%s\t%s\n' "$1" "${2:--}" "$3" >>"$work/groups"; }

for bin in "$build"/unit/test-*; do
    [[ -x "$bin" ]] || continue
    name=$(basename "$bin")
    src=tests/unit/$name.c
    covers=$(meta "$src" covers)
    runs=$(meta "$src" runs)
    # shellcheck disable=SC2086
    check_covers "$src" $covers || continue
    # shellcheck disable=SC2086
    wanted $covers || continue
    [[ "${QUICK:-}" == 1 && " $runs " == *" slow "* ]] && continue
    if [[ " $runs " == *" shards "* ]]; then
        for ((i = 0; i < shards; i++)); do
            add "unit/$name[$((i + 1))/$shards]" "$runs" \
                "SN_SHARD=$i/$shards $bin"
        done
    else
        add "unit/$name" "$runs" "$bin"
    fi
done

for suite in tests/*/suite.sh; do
    [[ -f "$suite" ]] || continue
    dir=${suite%/suite.sh}
    covers=$(meta "$suite" covers)
    runs=$(meta "$suite" runs)
    [[ "${QUICK:-}" == 1 && " $runs " == *" slow "* ]] && continue
    # the CLI cases name their modules one by one (the suite filters them
    # by SN_TEST_MODULES)
    if [[ $dir != tests/cli ]]; then
        # shellcheck disable=SC2086
        check_covers "$suite" $covers || continue
        # shellcheck disable=SC2086
        wanted $covers || continue
    fi
    if [[ " $runs " == *" shards "* ]]; then
        # SN_SHARD=I/N: the suite runs its I-th of N parts
        for ((i = 0; i < shards; i++)); do
            add "$dir[$((i + 1))/$shards]" "$runs" \
                "SN_SHARD=$i/$shards bash $suite $build"
        done
    else
        add "$dir" "$runs" "bash $suite $build"
    fi
done

# Longest first (seconds from tests/times, the last measured run; a group
# it lacks counts as long, so that it starts early), the groups that run
# alone first of all.
order() {
    awk -F'\t' 'NR == FNR {if ($1 !~ /^#/) t[$1] = $2; next}
        {n = $1; sub(/\[.*/, "", n); s = (n in t) ? t[n] : 60
         if ($1 ~ /\[/) s = s / '"$shards"'
         a = ($2 ~ /(^| )alone( |$)/) ? 1 : 0
         printf "%d\t%012.3f\t%s\n", a, s, $0}' \
        tests/times "$work/groups" | sort -t$'\t' -k1,1nr -k2,2r | cut -f3-
}
order >"$work/queue"
if [[ -n "${SKIP:-}" ]]; then
    awk -F'\t' -v re="$SKIP" '$1 !~ re' "$work/queue" >"$work/q" &&
        mv "$work/q" "$work/queue"
fi
if [[ "${LIST:-}" == 1 ]]; then
    for e in "${map_errors[@]}"; do echo "FAIL test map: $e"; done
    cut -f1,2 "$work/queue"
    [[ ${#map_errors[@]} -eq 0 ]]
    exit
fi

# ---- running them --------------------------------------------------------------
total_pass=0
total_fail=0
failed_parts=()

tally() { # name, output file, exit code, seconds
    local name=$1 out=$2 rc=$3 secs=$4 last p f
    last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1)
    if [[ -z "$last" ]]; then
        echo "FAIL $name: no summary line (exit $rc)"
        sed 's/^/  /' "$out"
        total_fail=$((total_fail + 1))
        failed_parts+=("$name")
        return
    fi
    p=${last%% passed*}
    f=${last#*, }
    f=${f%% failed}
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
    if [[ $f -ne 0 || $rc -ne 0 ]]; then
        [[ $f -eq 0 ]] && total_fail=$((total_fail + 1))
        failed_parts+=("$name")
        echo "---- $name (exit $rc): its whole output"
        grep -v -E '^(ok |[0-9]+ passed)' "$out" | sed 's/^/  /'
    elif [[ "${VERBOSE:-}" == 1 ]]; then
        sed 's/^/  /' "$out"
    fi
    printf '%-28s %-24s %4ss\n' "$name" "$last" "$secs"
}

declare -A pid_name pid_start pid_out
running=0
n=0
# reap: wait for one group to end, then print what it said
reap() {
    local pid rc secs cpu
    wait -n -p pid
    rc=$?
    [[ -n "${pid:-}" && -n "${pid_name[$pid]:-}" ]] || return
    secs=$(($(date +%s) - pid_start[$pid]))
    tally "${pid_name[$pid]}" "${pid_out[$pid]}" "$rc" "$secs"
    # times: "0m1.234s 0m0.567s", the children's user and system time
    cpu=$(tail -n 1 "${pid_out[$pid]%/*}/cpu.${pid_out[$pid]##*.}" 2>/dev/null |
        sed 's/\([0-9]*\)m\([0-9.]*\)s/\1 \2/g' |
        awk '{printf "%.1f", $1 * 60 + $2 + $3 * 60 + $4}')
    printf '%s %s %s\n' "${pid_name[$pid]%%\[*}" "$secs" "${cpu:-0}" \
        >>"$work/times"
    rm -f "${pid_out[$pid]}" "${pid_out[$pid]%/*}/cpu.${pid_out[$pid]##*.}"
    unset "pid_name[$pid]" "pid_start[$pid]" "pid_out[$pid]"
    running=$((running - 1))
}

start() { # name, command; the CPU seconds of the group go to cpu.N
    (
        bash -c "$2"
        rc=$?
        # (not in a pipeline: its subshell would have no children)
        times >"$work/cpu.$n"
        exit $rc
    ) >"$work/out.$n" 2>&1 </dev/null &
    local pid=$!
    pid_name[$pid]=$1
    pid_start[$pid]=$(date +%s)
    pid_out[$pid]=$work/out.$n
    running=$((running + 1))
    n=$((n + 1))
}

for e in "${map_errors[@]}"; do
    echo "FAIL test map: $e"
    total_fail=$((total_fail + 1))
    failed_parts+=("map")
done

while IFS=$'\t' read -r name runs cmd; do
    if [[ " $runs " == *" alone "* ]]; then
        while ((running > 0)); do reap; done
        start "$name" "$cmd"
        reap
        continue
    fi
    while ((running >= jobs)); do reap; done
    start "$name" "$cmd"
done <"$work/queue"
while ((running > 0)); do reap; done

if [[ ${#failed_parts[@]} -gt 0 ]]; then
    echo "failing: ${failed_parts[*]}"
fi
# each group's seconds, wall and CPU (parts summed), for tests/times
awk '{s[$1] += $2; c[$1] += $3}
     END {for (g in s) printf "%s\t%d\t%.1f\n", g, s[g], c[g]}' \
    "$work/times" 2>/dev/null | sort >"$build/test-times"
echo "took $(($(date +%s) - t_start)) s, $jobs at a time"
echo "$total_pass passed, $total_fail failed"
[[ $total_fail -eq 0 ]]
