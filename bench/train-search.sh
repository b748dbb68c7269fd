#!/usr/bin/env bash
# train-search.sh: layout-search speed (docs/benchmarks.md, "Training
# layout search"). Builds bench/train-search.c against the release library
# and runs the two published cases: 530B on 5,120 A100 (Calculon's) and
# 1T on 16,384 H100, three times each; then the MoE case ("MoE layout
# search"; issue 17: DeepSeek-V3 on 1,024 GPUs under 1 s): 16 GB200
# domains of 64 (examples/gb200-nvl72.yaml with its size set), global
# batch 8,192 of 4,096 tokens in FP8, three times, and the same search
# end to end through the CLI under /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.bash
bench_build train-search
out=build/bench
for i in 1 2 3; do
    "$out/train-search" bench/train-selene-5120.yaml mt-nlg-530b 5120 2560
done
for i in 1 2 3; do
    "$out/train-search" bench/train-h100-16384.yaml megatron-1t 16384 4096
done
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
