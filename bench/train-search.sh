#!/usr/bin/env bash
# train-search.sh: layout-search speed (docs/benchmarks.md, "Training
# layout search"). Builds bench/train-search.c against the release library
# and runs the two published cases: 530B on 5,120 A100 (Calculon's) and
# 1T on 16,384 H100, three times each.
set -euo pipefail
cd "$(dirname "$0")/.."
make -s all
out=build/bench
mkdir -p "$out"
cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude bench/train-search.c \
    build/rel/libsupernode.a $(pkg-config --libs yaml-0.1 sqlite3 hwloc \
    openblas ompi-c 2>/dev/null) -lm -lpthread -ldl -o "$out/train-search"
for i in 1 2 3; do
    "$out/train-search" bench/train-selene-5120.yaml mt-nlg-530b 5120 2560
done
for i in 1 2 3; do
    "$out/train-search" bench/train-h100-16384.yaml megatron-1t 16384 4096
done
