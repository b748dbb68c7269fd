/* cuda-int.h: what the cuda plugin's C side (cuda.c) and its kernels
 * (kernels.cu, compiled by nvcc as C++) share. Plain C types only. */
#ifndef SN_BENCH_CUDA_INT_H
#define SN_BENCH_CUDA_INT_H

#if !defined(SN_MODULE_bench) && !defined(SN_TESTS)
#error "private to src/lib/bench (tests/layers/table)"
#endif

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types the kernels write: the values of enum sn_bench_dtype. */
enum {
    SN_CU_FP64 = 0,
    SN_CU_FP32 = 1,
    SN_CU_TF32 = 2,
    SN_CU_BF16 = 3,
    SN_CU_FP16 = 4,
    SN_CU_FP8 = 5,
    SN_CU_INT32 = 6,
};

/* What sn__cuda_fill writes. */
enum {
    SN_CU_FILL_PATTERN,  /* sn_pattern(rank, first + i) */
    SN_CU_FILL_SENTINEL, /* -1: never a pattern value */
    SN_CU_FILL_OPERAND,  /* GEMM operands: spread values in [-0.5, 0.5) */
};

/* One STREAM kernel (enum sn__stream_kernel: copy, scale, add, triad)
 * over n doubles on stream s. */
cudaError_t sn__cuda_stream(int kernel, double *a, double *b, double *c,
                            size_t n, cudaStream_t s);
/* Fill count elements of dtype at buf. */
cudaError_t sn__cuda_fill(void *buf, int dtype, size_t count, int mode,
                          uint32_t rank, uint64_t first, cudaStream_t s);

/* NCCL's own dump and log of the run (nccl-view.c): the environment
 * before ncclCommInitRank, the read-back into notes after the run. */
struct sn__bench_ctx;
void sn__cuda_nccl_env(struct sn__bench_ctx *c);
void sn__cuda_nccl_readback(struct sn__bench_ctx *c);

#ifdef __cplusplus
}
#endif

#endif
