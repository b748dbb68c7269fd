#!/usr/bin/env bash
# moe-search.sh: the MoE layout search's speed (docs/benchmarks.md,
# "MoE layout search"; issue 17: DeepSeek-V3 on 1,024 GPUs under 1 s).
# Builds bench/train-search.c against the release library and runs
# DeepSeek-V3 on 16 GB200 domains of 64 (examples/gb200-nvl72.yaml with
# its size set), global batch 8,192 of 4,096 tokens in FP8, three times;
# then the same search end to end through the CLI under /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
make -s all
out=build/bench
mkdir -p "$out"
cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude bench/train-search.c \
    build/rel/libsupernode.a $(pkg-config --libs yaml-0.1 sqlite3 hwloc \
    openblas ompi-c 2>/dev/null) -lm -lpthread -ldl -o "$out/train-search"
for i in 1 2 3; do
    "$out/train-search" examples/gb200-nvl72.yaml deepseek-v3 1024 8192 \
        4096 fp8 supernode.accelerators=64 supernodes=16
done
for i in 1 2 3; do
    /usr/bin/time -f "  cli end to end: %e s wall, %U+%S s CPU, %M KiB" \
        ./build/supernode sim train examples/gb200-nvl72.yaml \
        --set supernode.accelerators=64 --set supernodes=16 \
        --model deepseek-v3 --gpus 1024 --gbs 8192 --seq 4096 --dtype fp8 \
        --search | sed -n 3p
done
