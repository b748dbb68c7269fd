/* kernels.cu: the cuda backend's device code: STREAM's four kernels on
 * device memory and the fills that give collectives verifiable inputs and
 * GEMMs non-trivial operands. */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "../pattern.h"
#include "cuda-int.h"

/* STREAM's scalar (stream.c: "scalar = 3.0") */
#define STREAM_SCALAR 3.0

/* Grid-stride loops: enough blocks to fill every SM a few times over,
 * whatever n is. */
static unsigned blocks_for(size_t n, unsigned threads)
{
    size_t b = (n + threads - 1) / threads;
    return (unsigned)(b > 65535 ? 65535 : (b ? b : 1));
}

__global__ void k_copy(const double *__restrict__ a, double *__restrict__ c,
                       size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        c[i] = a[i];
}

__global__ void k_scale(double *__restrict__ b, const double *__restrict__ c,
                        size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        b[i] = STREAM_SCALAR * c[i];
}

__global__ void k_add(const double *__restrict__ a,
                      const double *__restrict__ b, double *__restrict__ c,
                      size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}

__global__ void k_triad(double *__restrict__ a, const double *__restrict__ b,
                        const double *__restrict__ c, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        a[i] = b[i] + STREAM_SCALAR * c[i];
}

extern "C" cudaError_t sn__cuda_stream(int kernel, double *a, double *b,
                                       double *c, size_t n, cudaStream_t s)
{
    const unsigned t = 256;
    unsigned g = blocks_for(n, t);

    switch (kernel) {
    case 0:
        k_copy<<<g, t, 0, s>>>(a, c, n);
        break;
    case 1:
        k_scale<<<g, t, 0, s>>>(b, c, n);
        break;
    case 2:
        k_add<<<g, t, 0, s>>>(a, b, c, n);
        break;
    case 3:
        k_triad<<<g, t, 0, s>>>(a, b, c, n);
        break;
    default:
        return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

__device__ float fill_value(int mode, uint32_t rank, uint64_t idx)
{
    if (mode == SN_CU_FILL_PATTERN)
        return (float)sn_pattern(rank, idx);
    if (mode == SN_CU_FILL_SENTINEL)
        return -1.0f;
    /* a multiplicative hash spread over [-0.5, 0.5): no zeros to make the
     * tensor cores idle, no growth over k */
    return (float)((idx * 2654435761u) % 1000u) / 1000.0f - 0.5f;
}

template <typename T> __device__ T convert(float v);
template <> __device__ double convert<double>(float v)
{
    return v;
}
template <> __device__ float convert<float>(float v)
{
    return v;
}
template <> __device__ int32_t convert<int32_t>(float v)
{
    return (int32_t)v;
}
template <> __device__ __nv_bfloat16 convert<__nv_bfloat16>(float v)
{
    return __float2bfloat16(v);
}
template <> __device__ __half convert<__half>(float v)
{
    return __float2half(v);
}
template <> __device__ __nv_fp8_e4m3 convert<__nv_fp8_e4m3>(float v)
{
    return __nv_fp8_e4m3(v);
}

template <typename T>
__global__ void k_fill(T *buf, size_t count, int mode, uint32_t rank,
                       uint64_t first)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x)
        buf[i] = convert<T>(fill_value(mode, rank, first + i));
}

extern "C" cudaError_t sn__cuda_fill(void *buf, int dtype, size_t count,
                                     int mode, uint32_t rank, uint64_t first,
                                     cudaStream_t s)
{
    const unsigned t = 256;
    unsigned g = blocks_for(count, t);

    if (!count)
        return cudaSuccess;
    switch (dtype) {
    case SN_CU_FP64:
        k_fill<double><<<g, t, 0, s>>>((double *)buf, count, mode, rank, first);
        break;
    case SN_CU_FP32:
    case SN_CU_TF32:
        k_fill<float><<<g, t, 0, s>>>((float *)buf, count, mode, rank, first);
        break;
    case SN_CU_BF16:
        k_fill<__nv_bfloat16>
            <<<g, t, 0, s>>>((__nv_bfloat16 *)buf, count, mode, rank, first);
        break;
    case SN_CU_FP16:
        k_fill<__half><<<g, t, 0, s>>>((__half *)buf, count, mode, rank, first);
        break;
    case SN_CU_FP8:
        k_fill<__nv_fp8_e4m3>
            <<<g, t, 0, s>>>((__nv_fp8_e4m3 *)buf, count, mode, rank, first);
        break;
    case SN_CU_INT32:
        k_fill<int32_t>
            <<<g, t, 0, s>>>((int32_t *)buf, count, mode, rank, first);
        break;
    default:
        return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}
