#!/usr/bin/env bash
# infer-search.sh: the serving search's speed (docs/benchmarks.md,
# "Serving layout search"; issue 17: over 1,000 layouts and batch sizes
# under 1 s). Builds bench/infer-search.c against the release library and
# runs DeepSeek-R1 on one GB200 NVL72 rack in FP8 (about 1,300 points)
# and on CloudMatrix 384 in BF16 (about 5,700), three times each, under
# a 50 ms TPOT; the disaggregated search (prefill and decode layouts,
# instance sizes, the P:D split) of both; then the first end to end
# through the CLI, with a load (--rate: the best layout served by the
# batcher's simulation, issue 28: under 2 s) and disaggregated, with and
# without a rate.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.bash
bench_build infer-search
out=build/bench
for i in 1 2 3; do
    "$out/infer-search" examples/gb200-nvl72.yaml deepseek-r1 72 fp8 50
done
for i in 1 2 3; do
    "$out/infer-search" examples/cloudmatrix-384.yaml deepseek-r1 384 bf16 50
done
for i in 1 2 3; do
    "$out/infer-search" --disaggregate examples/gb200-nvl72.yaml \
        deepseek-r1 72 fp8 50
done
for i in 1 2 3; do
    "$out/infer-search" --disaggregate examples/cloudmatrix-384.yaml \
        deepseek-r1 384 bf16 50
done
for i in 1 2 3; do
    /usr/bin/time -f "  cli end to end: %e s wall, %U+%S s CPU, %M KiB" \
        ./build/supernode sim infer examples/gb200-nvl72.yaml \
        --model deepseek-r1 --precision fp8 --kv-precision fp8 --tpot 50ms \
        --search --top 1 | sed -n 3p
done
for i in 1 2 3; do
    /usr/bin/time -f "  cli with --rate: %e s wall, %U+%S s CPU, %M KiB" \
        ./build/supernode sim infer examples/gb200-nvl72.yaml \
        --model deepseek-r1 --precision fp8 --kv-precision fp8 --tpot 50ms \
        --search --top 1 --rate 50 | grep -E "TTFT P50|served at"
    /usr/bin/time -f "  cli disaggregated end to end: %e s wall, %U+%S s CPU, %M KiB" \
        ./build/supernode sim infer examples/gb200-nvl72.yaml \
        --model deepseek-r1 --precision fp8 --kv-precision fp8 --tpot 50ms \
        --ttft 2s --search --disaggregate | sed -n 3p
    /usr/bin/time -f "  cli disaggregated with --rate: %e s wall, %U+%S s CPU, %M KiB" \
        ./build/supernode sim infer examples/gb200-nvl72.yaml \
        --model deepseek-r1 --precision fp8 --kv-precision fp8 --tpot 50ms \
        --ttft 2s --search --disaggregate --rate 100 | grep "under "
done
# exit 1: at 30 requests/s no layout of the six serves a 50 ms P90 TPOT
# (attention DP over 128 ranks: a prompt on one rank holds every step)
/usr/bin/time -f "  cli on 384 with --rate: %e s wall, %U+%S s CPU, %M KiB" \
    ./build/supernode sim infer examples/cloudmatrix-384.yaml \
    --model deepseek-r1 --precision bf16 --tpot 50ms --search --top 1 \
    --rate 30 | grep "limits:" || true
