#!/usr/bin/env bash
# suite.sh BUILD: the metric renderers (metrics.h) against Prometheus'
# own parser and linter: the unit test writes its text expositions and
# `promtool check metrics` must accept each; a broken exposition must be
# refused, so the check can fail. Skips, saying so, without promtool
# (Debian package prometheus, installed by scripts/deps.sh). Prints
# "N passed, N failed" last.
# covers: metrics
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:-${SN_BUILD:-build/test}}
unit=$build/unit/test-metrics
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

if ! command -v promtool >/dev/null 2>&1; then
    echo "skip: promtool not on PATH (Debian package prometheus);" \
        "the renderers are checked by unit/test-metrics only"
    echo "0 passed, 0 failed"
    exit 0
fi

# 1. the unit test renders and saves its expositions
if SN_METRICS_OUT=$tmp "$unit" >"$tmp/unit.out" 2>&1; then
    ok
else
    bad "$unit failed:"
    tail -n 20 "$tmp/unit.out"
fi

# 2. promtool parses and lints each one clean
for name in sample escapes cleaned special; do
    f=$tmp/$name.prom
    if [[ ! -s $f ]]; then
        bad "$name.prom was not written"
    elif promtool check metrics <"$f" >"$tmp/check.out" 2>&1; then
        ok
    else
        bad "promtool check metrics refused $name.prom:"
        cat "$tmp/check.out"
    fi
done

# 3. and refuses a broken one (an unescaped quote in a label value)
printf 'supernode_x{a="b"c"} 1\n' >"$tmp/broken.prom"
if promtool check metrics <"$tmp/broken.prom" >/dev/null 2>&1; then
    bad "promtool accepted a broken exposition"
else
    ok
fi

# 4. the node agent's host collectors on their fixture host
watch_unit=$build/unit/test-watch-host
if [[ -x $watch_unit ]]; then
    if SN_WATCH_HOST_OUT=$tmp "$watch_unit" >"$tmp/watch.out" 2>&1 &&
        promtool check metrics <"$tmp/host.prom" >"$tmp/check.out" 2>&1; then
        ok
    else
        bad "host collectors' exposition:"
        tail -n 20 "$tmp/watch.out" "$tmp/check.out"
    fi
fi

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
