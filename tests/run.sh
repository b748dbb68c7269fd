#!/usr/bin/env bash
# run.sh BUILD: every test of supernode. Runs the unit-test binaries in
# BUILD/unit and every tests/*/suite.sh (each prints "N passed, N failed" as
# its last line), then prints the total as the last line.
set -uo pipefail
build=${1:?usage: tests/run.sh BUILD}
cd "$(dirname "$0")/.."
export SUPERNODE="$PWD/$build/supernode"
export SN_BUILD="$PWD/$build"
# Sanitizers: stop on the first error; leak checking stays on.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

total_pass=0
total_fail=0
failed_parts=()

tally() { # name, output file, exit code
    local name=$1 out=$2 rc=$3 last p f
    last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1)
    if [[ -z "$last" ]]; then
        echo "FAIL $name: no summary line (exit $rc)"
        tail -n 20 "$out" | sed 's/^/  /'
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
        grep -v -E '^(ok |[0-9]+ passed)' "$out" | tail -n 40 | sed 's/^/  /'
    fi
    printf '%-28s %s\n' "$name" "$last"
}

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

for bin in "$build"/unit/test-*; do
    [[ -x "$bin" ]] || continue
    "$bin" >"$tmp" 2>&1
    tally "unit/$(basename "$bin")" "$tmp" $?
done

for suite in tests/*/suite.sh; do
    [[ -f "$suite" ]] || continue
    bash "$suite" "$build" >"$tmp" 2>&1
    tally "${suite%/suite.sh}" "$tmp" $?
done

if [[ ${#failed_parts[@]} -gt 0 ]]; then
    echo "failing: ${failed_parts[*]}"
fi
echo "$total_pass passed, $total_fail failed"
[[ $total_fail -eq 0 ]]
