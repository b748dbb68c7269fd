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

#endif
