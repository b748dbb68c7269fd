/* pattern.h: the data every collective starts from, chosen so that the
 * exact result of any sum, max or min over ranks is known: small integers,
 * exact in every type checked (nccl-tests' verifiable inputs follow the
 * same idea). Shared by the C and the CUDA code. */
#ifndef SN_BENCH_PATTERN_H
#define SN_BENCH_PATTERN_H

#include <stdint.h>

#ifdef __CUDACC__
#define SN_HD __host__ __device__
#else
#define SN_HD
#endif

/* Largest value an element takes: with n ranks a sum reaches n times
 * this, so a type is checked only while that stays exact (below 2^24 for
 * fp32, 2^11 for fp16, 2^8 for bf16). */
#define SN_PATTERN_MAX 13

/* Element i of rank r's input. */
static inline SN_HD uint32_t sn_pattern(uint32_t r, uint64_t i)
{
    return (uint32_t)((r * 31u + (uint32_t)(i % 8191u) * 7u) % 13u) + 1u;
}

/* Collectives and reductions by number: enum sn_coll_op and enum
 * sn_bench_redop (this header stays free of the public ones so that CUDA
 * code can include it). */
enum {
    SN_PAT_ALLREDUCE,
    SN_PAT_ALLGATHER,
    SN_PAT_REDUCESCATTER,
    SN_PAT_ALLTOALL,
    SN_PAT_BROADCAST,
    SN_PAT_REDUCE,
    SN_PAT_SENDRECV
};
enum { SN_PAT_SUM, SN_PAT_MAX, SN_PAT_MIN };

/* Element i reduced over the inputs of ranks 0 .. n-1. */
static inline double sn_pattern_reduced(int redop, int n, uint64_t i)
{
    double acc = sn_pattern(0, i);

    for (int r = 1; r < n; r++) {
        double v = sn_pattern((uint32_t)r, i);
        if (redop == SN_PAT_SUM)
            acc += v;
        else if (redop == SN_PAT_MAX)
            acc = v > acc ? v : acc;
        else
            acc = v < acc ? v : acc;
    }
    return acc;
}

/* How many output elements rank r checks after collective op over n
 * ranks of `count` elements (the nccl-tests count; part = count / n). */
static inline uint64_t sn_pattern_outputs(int op, int n, int r, int root,
                                          uint64_t count)
{
    if (op == SN_PAT_REDUCESCATTER)
        return count / (uint64_t)n;
    if (op == SN_PAT_REDUCE)
        return r == root ? count : 0;
    return count;
}

/* The exact value of output element i on rank r, every rank's input
 * being sn_pattern(rank, index) (for allgather, rank j's part holds
 * indices 0 .. part-1; for alltoall and reducescatter, block j of a
 * rank's input holds indices j part .. (j+1) part - 1). */
static inline double sn_pattern_expected(int op, int redop, int n, int r,
                                         int root, uint64_t count, uint64_t i)
{
    uint64_t part = count / (uint64_t)n;

    switch (op) {
    case SN_PAT_ALLREDUCE:
    case SN_PAT_REDUCE:
        return sn_pattern_reduced(redop, n, i);
    case SN_PAT_BROADCAST:
        return sn_pattern((uint32_t)root, i);
    case SN_PAT_SENDRECV:
        return sn_pattern((uint32_t)((r - 1 + n) % n), i);
    case SN_PAT_ALLGATHER:
        return sn_pattern((uint32_t)(i / part), i % part);
    case SN_PAT_ALLTOALL:
        /* block j came from rank j, which sent it its block r */
        return sn_pattern((uint32_t)(i / part), (uint64_t)r * part + i % part);
    case SN_PAT_REDUCESCATTER:
        return sn_pattern_reduced(redop, n, (uint64_t)r * part + i);
    default:
        return -1;
    }
}

#endif
