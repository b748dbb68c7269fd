/* cuda.c: the cuda backend, built into the plugin supernode-cuda.so:
 * cuBLASLt GEMM per data type, STREAM kernels on device memory, host to
 * device copies from pinned and pageable memory bound to each NUMA node,
 * pairs and collectives on device buffers through NCCL bootstrapped over
 * MPI. CUDA events time every iteration. */
#include <cublasLt.h>
#include <cuda_runtime_api.h>
#include <hwloc.h>
#include <math.h>
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench-int.h"
#include "../pattern.h"
#include "cuda-int.h"

_Static_assert(SN_CU_FP64 == (int)SN_DT_FP64 && SN_CU_FP32 == (int)SN_DT_FP32 &&
                   SN_CU_TF32 == (int)SN_DT_TF32 &&
                   SN_CU_BF16 == (int)SN_DT_BF16 &&
                   SN_CU_FP16 == (int)SN_DT_FP16 &&
                   SN_CU_FP8 == (int)SN_DT_FP8 &&
                   SN_CU_INT32 == (int)SN_DT_INT32,
               "cuda-int.h numbers the data types as bench.h does");

/* cuBLASLt workspace: 32 MiB, what cuBLAS itself reserves on Hopper
 * (cuBLAS documentation, "cuBLAS workspace") */
#define LT_WORKSPACE ((size_t)32 << 20)
/* iterations queued before the host waits for them: bounds the events
 * held and the NCCL operations in flight */
#define CHUNK 512
/* cudaEventElapsedTime(): "resolution of around 0.5 microseconds" (CUDA
 * Runtime API reference) */
#define EVENT_RESOLUTION 0.5e-6

struct cu {
    int dev;
    struct cudaDeviceProp prop;
    char pci[32];
    cudaStream_t st;
    cudaEvent_t ev[CHUNK + 1];
    int nev;
    /* GEMM */
    cublasLtHandle_t lt;
    void *ws;
    void *ga, *gb, *gd;
    size_t gbytes;
    int gdt, gsize;
    bool gready;
    cublasLtMatmulDesc_t mm;
    cublasLtMatrixLayout_t la, lb, ld;
    cublasLtMatmulAlgo_t algo;
    /* STREAM */
    double *a, *b, *c;
    uint64_t n;
    /* pairs and collectives */
    ncclComm_t comm;
    bool have_comm;
    void *sbuf, *rbuf, *ack;
    uint64_t cap;
    char *check; /* host copy of a checked output */
    size_t check_cap;
    /* host buffers for h2d and d2h */
    hwloc_topology_t topo;
    bool have_topo;
    void *host;
    size_t hbytes;
    int hnuma, hpinned;
};

static const enum sn_bench_dtype cuda_gemm_dtypes[] = {
    SN_DT_FP64, SN_DT_FP32, SN_DT_TF32, SN_DT_BF16, SN_DT_FP16, SN_DT_FP8};

/* ---- foreign codes into ours, with file:line (nccl-tests' CUDACHECK) -- */

static int cu_err(cudaError_t e, const char *call, const char *file, int line,
                  struct sn_error *err)
{
    if (e == cudaSuccess)
        return SN_OK;
    return sn_error_set(err, SN_ERUNTIME, "%s:%d: %.60s: %s", file, line, call,
                        cudaGetErrorString(e));
}

static int nc_err(ncclResult_t r, const char *call, const char *file, int line,
                  struct sn_error *err)
{
    if (r == ncclSuccess)
        return SN_OK;
    return sn_error_set(err, SN_ERUNTIME, "%s:%d: %.60s: %s", file, line, call,
                        ncclGetErrorString(r));
}

static int lt_err(cublasStatus_t s, const char *call, const char *file,
                  int line, struct sn_error *err)
{
    if (s == CUBLAS_STATUS_SUCCESS)
        return SN_OK;
    return sn_error_set(err, SN_ERUNTIME, "%s:%d: %.60s: %s", file, line, call,
                        cublasLtGetStatusString(s));
}

#define CU(call) cu_err((call), #call, __FILE__, __LINE__, err)
#define NC(call) nc_err((call), #call, __FILE__, __LINE__, err)
#define LT(call) lt_err((call), #call, __FILE__, __LINE__, err)

/* ---- set-up
 * ------------------------------------------------------------------- */

static int cuda_open(struct sn__bench_ctx *c, struct sn_error *err)
{
    struct cu *s = sn_xcalloc(1, sizeof(*s));
    int count = 0, rc;
    cudaError_t e;

    c->bs = s;
    c->threads = 1;
    e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0)
        return sn_error_set(
            err, SN_ENOTSUP, "no CUDA device on host '%s' (%s)", c->job->host,
            e != cudaSuccess ? cudaGetErrorString(e) : "the driver sees none");
    /* ranks of a host take its devices in local-rank order */
    s->dev = c->job->local_rank % count;
    if ((rc = CU(cudaSetDevice(s->dev))) ||
        (rc = CU(cudaGetDeviceProperties(&s->prop, s->dev))) ||
        (rc = CU(cudaDeviceGetPCIBusId(s->pci, (int)sizeof(s->pci), s->dev))) ||
        (rc = CU(cudaStreamCreateWithFlags(&s->st, cudaStreamNonBlocking))))
        return rc;
    for (s->nev = 0; s->nev < CHUNK + 1; s->nev++)
        if ((rc = CU(cudaEventCreate(&s->ev[s->nev]))))
            return rc;
    if ((rc = LT(cublasLtCreate(&s->lt))) ||
        (rc = CU(cudaMalloc(&s->ws, LT_WORKSPACE))) ||
        (rc = CU(cudaMalloc(&s->ack, 256))))
        return rc;
    snprintf(c->device, sizeof(c->device), "%.60s (%s)", s->prop.name, s->pci);
    /* NVML's handle for --lock-clocks and bench power (clocks.c) */
    sn_strlcpy(c->pci, s->pci, sizeof(c->pci));
    return SN_OK;
}

static int cuda_connect(struct sn__bench_ctx *c, struct sn_error *err)
{
    struct cu *s = c->bs;
    struct {
        int ok;
        ncclUniqueId id;
    } boot;
    int rc = SN_OK;

    /* NCCL bootstrapped over MPI: rank 0's id reaches everyone, with
     * word of whether there is one */
    memset(&boot, 0, sizeof(boot));
    if (c->job->rank == 0)
        boot.ok = !(rc = NC(ncclGetUniqueId(&boot.id)));
    if (SN_MPI(MPI_Bcast(&boot, (int)sizeof(boot), MPI_BYTE, 0, c->job->comm),
               rc ? NULL : err))
        return rc ? rc : SN_ERUNTIME;
    if (!boot.ok)
        return rc ? rc
                  : sn_error_set(err, SN_ERUNTIME,
                                 "rank 0 could not create an NCCL id");
    sn__cuda_nccl_env(c);
    if ((rc = NC(
             ncclCommInitRank(&s->comm, c->job->size, boot.id, c->job->rank))))
        return rc;
    s->have_comm = true;
    return SN_OK;
}

static void free_host(struct cu *s)
{
    if (!s->host)
        return;
    if (s->hpinned)
        cudaHostUnregister(s->host);
    hwloc_free(s->topo, s->host, s->hbytes);
    s->host = NULL;
}

static void free_gemm(struct cu *s)
{
    if (s->gready) {
        cublasLtMatrixLayoutDestroy(s->la);
        cublasLtMatrixLayoutDestroy(s->lb);
        cublasLtMatrixLayoutDestroy(s->ld);
        cublasLtMatmulDescDestroy(s->mm);
        s->gready = false;
    }
    cudaFree(s->ga);
    cudaFree(s->gb);
    cudaFree(s->gd);
    s->ga = s->gb = s->gd = NULL;
    s->gbytes = 0;
}

static void cuda_close(struct sn__bench_ctx *c)
{
    struct cu *s = c->bs;

    if (!s)
        return;
    if (s->st)
        cudaStreamSynchronize(s->st);
    if (s->have_comm) {
        ncclCommDestroy(s->comm);
        sn__cuda_nccl_readback(c);
    }
    free_gemm(s);
    if (s->lt)
        cublasLtDestroy(s->lt);
    cudaFree(s->ws);
    cudaFree(s->a);
    cudaFree(s->b);
    cudaFree(s->c);
    cudaFree(s->sbuf);
    cudaFree(s->rbuf);
    cudaFree(s->ack);
    if (s->have_topo) {
        free_host(s);
        hwloc_topology_destroy(s->topo);
    }
    for (int i = 0; i < s->nev; i++)
        cudaEventDestroy(s->ev[i]);
    if (s->st)
        cudaStreamDestroy(s->st);
    free(s->check);
    free(s);
    c->bs = NULL;
}

static void cuda_versions(struct sn__bench_ctx *c, struct sn_bench_versions *v)
{
    int rt = 0, drv = 0, nccl = 0;
    size_t lt = cublasLtGetVersion();

    (void)c;
    if (cudaRuntimeGetVersion(&rt) == cudaSuccess)
        snprintf(v->cuda_runtime, sizeof(v->cuda_runtime), "%d.%d", rt / 1000,
                 rt % 1000 / 10);
    if (cudaDriverGetVersion(&drv) == cudaSuccess)
        snprintf(v->cuda_driver, sizeof(v->cuda_driver), "%d.%d", drv / 1000,
                 drv % 1000 / 10);
    /* NCCL 2.9 and later: major * 10000 + minor * 100 + patch */
    if (ncclGetVersion(&nccl) == ncclSuccess)
        snprintf(v->nccl, sizeof(v->nccl), "%d.%d.%d", nccl / 10000,
                 nccl / 100 % 100, nccl % 100);
    snprintf(v->blas, sizeof(v->blas), "cuBLASLt %zu.%zu.%zu", lt / 10000,
             lt / 100 % 100, lt % 100);
    if (!sn__bench_nvml_driver(c, v->driver, sizeof(v->driver)))
        v->driver[0] = '\0';
}

static void cuda_state(struct sn__bench_ctx *c, struct sn_bench_state *st)
{
    struct cu *s = c->bs;

    sn__bench_state_cpu(c->o.fsroot, st);
    sn__bench_nvml_state(c, s->pci, st);
}

/* ---- timed loops
 * --------------------------------------------------------------- */

typedef int (*cu_op)(struct sn__bench_ctx *c, void *arg, struct sn_error *err);

/* Run op `iters` times on the stream with an event between iterations;
 * sample i = event i to event i + 1, times scale (1/2 for a ping-pong). */
static int timed(struct sn__bench_ctx *c, cu_op op, void *arg, int iters,
                 double *t, double scale, struct sn_error *err)
{
    struct cu *s = c->bs;
    int rc = SN_OK, done = 0;

    while (done < iters && !rc) {
        int k = iters - done < CHUNK ? iters - done : CHUNK;
        if ((rc = CU(cudaEventRecord(s->ev[0], s->st))))
            break;
        for (int i = 0; i < k && !rc; i++) {
            sn__tick(c, done + i);
            if (!(rc = op(c, arg, err)))
                rc = CU(cudaEventRecord(s->ev[i + 1], s->st));
        }
        if (rc || (rc = CU(cudaEventSynchronize(s->ev[k]))))
            break;
        for (int i = 0; i < k && !rc; i++) {
            float ms = 0;
            rc = CU(cudaEventElapsedTime(&ms, s->ev[i], s->ev[i + 1]));
            t[done + i] = (double)ms * 1e-3 * scale;
        }
        done += k;
    }
    return rc;
}

static void cuda_timer(struct sn__bench_ctx *c, struct sn_bench_timer *t)
{
    struct cu *s = c->bs;
    double gran = INFINITY, sum = 0;
    int n = 0;

    /* back-to-back events: the smallest non-zero gap is the granularity,
     * the mean gap what recording an event costs on the device */
    for (int i = 0; i < 64; i++) {
        float ms = 0;
        if (cudaEventRecord(s->ev[0], s->st) != cudaSuccess ||
            cudaEventRecord(s->ev[1], s->st) != cudaSuccess ||
            cudaEventSynchronize(s->ev[1]) != cudaSuccess ||
            cudaEventElapsedTime(&ms, s->ev[0], s->ev[1]) != cudaSuccess)
            return;
        if (ms > 0 && ms * 1e-3 < gran)
            gran = ms * 1e-3;
        sum += ms * 1e-3;
        n++;
    }
    sn_strlcpy(t->name, "cudaEventElapsedTime", sizeof(t->name));
    t->resolution = EVENT_RESOLUTION;
    t->granularity = isfinite(gran) ? gran : EVENT_RESOLUTION;
    t->overhead = n ? sum / n : NAN;
}

/* ---- compute
 * -------------------------------------------------------------------- */

static const char *cuda_gemm_unsupported(struct sn__bench_ctx *c,
                                         enum sn_bench_dtype dt)
{
    struct cu *s = c->bs;
    int cc = s->prop.major * 10 + s->prop.minor;

    switch (dt) {
    case SN_DT_FP8:
        return cc >= 89 ? NULL
                        : "fp8 GEMM needs compute capability 8.9 or later";
    case SN_DT_BF16:
    case SN_DT_TF32:
        return cc >= 80 ? NULL
                        : "bf16 and tf32 GEMM need compute capability 8.0 "
                          "or later";
    case SN_DT_INT32:
        return "no int32 GEMM";
    default:
        return NULL;
    }
}

struct gemm_types {
    cudaDataType_t ab, cd, scale;
    cublasComputeType_t compute;
    size_t ab_size, cd_size;
};

static struct gemm_types gemm_types(enum sn_bench_dtype dt)
{
    struct gemm_types g = {CUDA_R_32F,         CUDA_R_32F, CUDA_R_32F,
                           CUBLAS_COMPUTE_32F, 4,          4};

    switch (dt) {
    case SN_DT_FP64:
        g.ab = g.cd = g.scale = CUDA_R_64F;
        g.compute = CUBLAS_COMPUTE_64F;
        g.ab_size = g.cd_size = 8;
        break;
    case SN_DT_TF32:
        g.compute = CUBLAS_COMPUTE_32F_FAST_TF32;
        break;
    case SN_DT_BF16:
        g.ab = g.cd = CUDA_R_16BF;
        g.ab_size = g.cd_size = 2;
        break;
    case SN_DT_FP16:
        g.ab = g.cd = CUDA_R_16F;
        g.ab_size = g.cd_size = 2;
        break;
    case SN_DT_FP8:
        /* e4m3 inputs, bf16 output: a combination cuBLASLt documents */
        g.ab = CUDA_R_8F_E4M3;
        g.cd = CUDA_R_16BF;
        g.ab_size = 1;
        g.cd_size = 2;
        break;
    default:
        break;
    }
    return g;
}

/* Operands, descriptors and the heuristic's first algorithm for one data
 * type and size. The "TN" layout (A transposed) is the one cuBLASLt's FP8
 * kernels require, used for every type so they compare like for like. */
static int gemm_prepare(struct sn__bench_ctx *c, enum sn_bench_dtype dt,
                        int size, struct sn_error *err)
{
    struct cu *s = c->bs;
    struct gemm_types g = gemm_types(dt);
    uint64_t n = (uint64_t)size;
    cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    cublasLtMatmulPreference_t pref = NULL;
    cublasLtMatmulHeuristicResult_t h;
    size_t ws = LT_WORKSPACE;
    int found = 0, rc;

    if (s->gready && s->gdt == (int)dt && s->gsize == size)
        return SN_OK;
    free_gemm(s);
    if ((rc = CU(cudaMalloc(&s->ga, n * n * g.ab_size))) ||
        (rc = CU(cudaMalloc(&s->gb, n * n * g.ab_size))) ||
        (rc = CU(cudaMalloc(&s->gd, n * n * g.cd_size))) ||
        (rc = CU(sn__cuda_fill(s->ga, (int)dt, n * n, SN_CU_FILL_OPERAND, 0, 0,
                               s->st))) ||
        (rc = CU(sn__cuda_fill(s->gb, (int)dt, n * n, SN_CU_FILL_OPERAND, 0,
                               n * n, s->st))) ||
        (rc = CU(cudaMemsetAsync(s->gd, 0, n * n * g.cd_size, s->st))))
        return rc;
    if ((rc = LT(cublasLtMatmulDescCreate(&s->mm, g.compute, g.scale))))
        return rc;
    if ((rc = LT(cublasLtMatmulDescSetAttribute(
             s->mm, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta)))) ||
        (rc = LT(cublasLtMatmulDescSetAttribute(
             s->mm, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb)))) ||
        (rc = LT(cublasLtMatrixLayoutCreate(&s->la, g.ab, n, n, size))) ||
        (rc = LT(cublasLtMatrixLayoutCreate(&s->lb, g.ab, n, n, size))) ||
        (rc = LT(cublasLtMatrixLayoutCreate(&s->ld, g.cd, n, n, size))))
        goto out;
    s->gready = true;
    s->gdt = (int)dt;
    s->gsize = size;
    if ((rc = LT(cublasLtMatmulPreferenceCreate(&pref))) ||
        (rc = LT(cublasLtMatmulPreferenceSetAttribute(
             pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws,
             sizeof(ws)))) ||
        (rc = LT(cublasLtMatmulAlgoGetHeuristic(
             s->lt, s->mm, s->la, s->lb, s->ld, s->ld, pref, 1, &h, &found))))
        goto out;
    if (found < 1 || h.state != CUBLAS_STATUS_SUCCESS) {
        rc = sn_error_set(err, SN_ENOTSUP,
                          "cuBLASLt has no %s GEMM kernel for %d x %d on "
                          "%s",
                          sn_bench_dtype_name(dt), size, size, s->prop.name);
        goto out;
    }
    s->algo = h.algo;
out:
    if (pref)
        cublasLtMatmulPreferenceDestroy(pref);
    if (rc)
        free_gemm(s);
    return rc;
}

static int gemm_op(struct sn__bench_ctx *c, void *arg, struct sn_error *err)
{
    struct cu *s = c->bs;
    enum sn_bench_dtype dt = *(enum sn_bench_dtype *)arg;
    double a64 = 1, b64 = 0;
    float a32 = 1, b32 = 0;
    const void *alpha = dt == SN_DT_FP64 ? (const void *)&a64 : &a32;
    const void *beta = dt == SN_DT_FP64 ? (const void *)&b64 : &b32;

    return LT(cublasLtMatmul(s->lt, s->mm, alpha, s->ga, s->la, s->gb, s->lb,
                             beta, s->gd, s->ld, s->gd, s->ld, &s->algo, s->ws,
                             LT_WORKSPACE, s->st));
}

static int cuda_gemm(struct sn__bench_ctx *c, enum sn_bench_dtype dt, int size,
                     int iters, double *t, struct sn_error *err)
{
    int rc = gemm_prepare(c, dt, size, err);

    if (rc)
        return rc;
    return timed(c, gemm_op, &dt, iters, t, 1.0, err);
}

/* ---- memory
 * ---------------------------------------------------------------------- */

static int stream_op(struct sn__bench_ctx *c, void *arg, struct sn_error *err)
{
    struct cu *s = c->bs;

    return CU(sn__cuda_stream(*(int *)arg, s->a, s->b, s->c, s->n, s->st));
}

static int cuda_stream(struct sn__bench_ctx *c, enum sn__stream_kernel k,
                       uint64_t bytes, int iters, double *t,
                       struct sn_error *err)
{
    struct cu *s = c->bs;
    uint64_t n = bytes / sizeof(double);
    int kernel = (int)k, rc;

    if (s->n != n) {
        cudaFree(s->a);
        cudaFree(s->b);
        cudaFree(s->c);
        s->a = s->b = s->c = NULL;
        s->n = 0;
        if ((rc = CU(cudaMalloc((void **)&s->a, n * sizeof(double)))) ||
            (rc = CU(cudaMalloc((void **)&s->b, n * sizeof(double)))) ||
            (rc = CU(cudaMalloc((void **)&s->c, n * sizeof(double)))))
            return rc;
        s->n = n;
        /* non-zero data: no compression can flatter the figure */
        if ((rc = CU(sn__cuda_fill(s->a, SN_CU_FP64, n, SN_CU_FILL_OPERAND, 0,
                                   0, s->st))) ||
            (rc = CU(sn__cuda_fill(s->b, SN_CU_FP64, n, SN_CU_FILL_OPERAND, 0,
                                   n, s->st))) ||
            (rc = CU(sn__cuda_fill(s->c, SN_CU_FP64, n, SN_CU_FILL_OPERAND, 0,
                                   2 * n, s->st))))
            return rc;
    }
    return timed(c, stream_op, &kernel, iters, t, 1.0, err);
}

/* ---- host <-> device
 * -------------------------------------------------------------- */

static int topo_load(struct cu *s, struct sn_error *err)
{
    if (s->have_topo)
        return SN_OK;
    if (hwloc_topology_init(&s->topo) != 0)
        return sn_error_set(err, SN_ERUNTIME, "hwloc: cannot initialise");
    if (hwloc_topology_load(s->topo) != 0) {
        hwloc_topology_destroy(s->topo);
        return sn_error_set(err, SN_ERUNTIME,
                            "hwloc: cannot load the "
                            "topology");
    }
    s->have_topo = true;
    return SN_OK;
}

static int cuda_numa_nodes(struct sn__bench_ctx *c)
{
    struct cu *s = c->bs;
    struct sn_error e;
    int n;

    if (topo_load(s, &e))
        return 1;
    n = hwloc_get_nbobjs_by_type(s->topo, HWLOC_OBJ_NUMANODE);
    return n > 0 ? n : 1;
}

struct copy_arg {
    void *dst;
    const void *src;
    size_t bytes;
    enum cudaMemcpyKind kind;
};

static int copy_op(struct sn__bench_ctx *c, void *arg, struct sn_error *err)
{
    struct cu *s = c->bs;
    struct copy_arg *a = arg;

    return CU(cudaMemcpyAsync(a->dst, a->src, a->bytes, a->kind, s->st));
}

static int cuda_reserve(struct sn__bench_ctx *c, uint64_t bytes,
                        struct sn_error *err)
{
    struct cu *s = c->bs;
    int rc;

    if (bytes <= s->cap)
        return SN_OK;
    cudaFree(s->sbuf);
    cudaFree(s->rbuf);
    s->sbuf = s->rbuf = NULL;
    s->cap = 0;
    if ((rc = CU(cudaMalloc(&s->sbuf, bytes))) ||
        (rc = CU(cudaMalloc(&s->rbuf, bytes))))
        return rc;
    s->cap = bytes;
    return SN_OK;
}

static int cuda_hostcopy(struct sn__bench_ctx *c, bool h2d, bool pinned,
                         int numa, uint64_t bytes, int iters, double *t,
                         struct sn_error *err)
{
    struct cu *s = c->bs;
    struct copy_arg a;
    int rc;

    if ((rc = topo_load(s, err)) || (rc = cuda_reserve(c, bytes, err)))
        return rc;
    if (!s->host || s->hbytes != bytes || s->hnuma != numa ||
        s->hpinned != (int)pinned) {
        hwloc_obj_t node =
            hwloc_get_obj_by_type(s->topo, HWLOC_OBJ_NUMANODE, (unsigned)numa);
        free_host(s);
        s->host = node ? hwloc_alloc_membind(s->topo, bytes, node->nodeset,
                                             HWLOC_MEMBIND_BIND,
                                             HWLOC_MEMBIND_BYNODESET)
                       : NULL;
        if (!s->host)
            return sn_error_set(err, SN_ERUNTIME,
                                "cannot allocate %llu bytes on NUMA node "
                                "%d",
                                (unsigned long long)bytes, numa);
        s->hbytes = bytes;
        s->hnuma = numa;
        s->hpinned = 0;
        memset(s->host, 1, bytes); /* fault every page in on that node */
        if (pinned) {
            if ((rc = CU(cudaHostRegister(s->host, bytes,
                                          cudaHostRegisterDefault))))
                return rc;
            s->hpinned = 1;
        }
    }
    a.bytes = bytes;
    a.kind = h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    a.dst = h2d ? s->sbuf : s->host;
    a.src = h2d ? s->host : s->sbuf;
    return timed(c, copy_op, &a, iters, t, 1.0, err);
}

/* ---- pairs
 * ---------------------------------------------------------------------- */

struct p2p_arg {
    enum sn__p2p_mode mode;
    int peer;
    size_t bytes;
};

static int p2p_op(struct sn__bench_ctx *c, void *arg, struct sn_error *err)
{
    struct cu *s = c->bs;
    struct p2p_arg *a = arg;
    int rc = SN_OK;

    switch (a->mode) {
    case SN_P2P_SEND:
        if (!(rc = NC(ncclSend(s->sbuf, a->bytes, ncclInt8, a->peer, s->comm,
                               s->st))))
            rc = NC(ncclRecv(s->ack, 1, ncclInt8, a->peer, s->comm, s->st));
        break;
    case SN_P2P_RECV:
        if (!(rc = NC(ncclRecv(s->rbuf, a->bytes, ncclInt8, a->peer, s->comm,
                               s->st))))
            rc = NC(ncclSend(s->ack, 1, ncclInt8, a->peer, s->comm, s->st));
        break;
    case SN_P2P_BIDIR:
        if ((rc = NC(ncclGroupStart())))
            break;
        rc = NC(ncclSend(s->sbuf, a->bytes, ncclInt8, a->peer, s->comm, s->st));
        if (!rc)
            rc = NC(
                ncclRecv(s->rbuf, a->bytes, ncclInt8, a->peer, s->comm, s->st));
        if (!rc)
            rc = NC(ncclGroupEnd());
        else
            ncclGroupEnd();
        break;
    case SN_P2P_PING:
        if (!(rc = NC(ncclSend(s->sbuf, a->bytes, ncclInt8, a->peer, s->comm,
                               s->st))))
            rc = NC(
                ncclRecv(s->rbuf, a->bytes, ncclInt8, a->peer, s->comm, s->st));
        break;
    case SN_P2P_PONG:
        if (!(rc = NC(ncclRecv(s->rbuf, a->bytes, ncclInt8, a->peer, s->comm,
                               s->st))))
            rc = NC(
                ncclSend(s->sbuf, a->bytes, ncclInt8, a->peer, s->comm, s->st));
        break;
    }
    return rc;
}

static int cuda_p2p(struct sn__bench_ctx *c, enum sn__p2p_mode mode, int peer,
                    uint64_t bytes, int iters, double *t, struct sn_error *err)
{
    struct p2p_arg a = {mode, peer, bytes};
    int rc = cuda_reserve(c, bytes ? bytes : 1, err);
    bool half = mode == SN_P2P_PING || mode == SN_P2P_PONG;

    if (rc)
        return rc;
    return timed(c, p2p_op, &a, iters, t, half ? 0.5 : 1.0, err);
}

/* ---- collectives
 * ---------------------------------------------------------------- */

static ncclDataType_t nccl_type(enum sn_bench_dtype dt)
{
    switch (dt) {
    case SN_DT_FP64:
        return ncclFloat64;
    case SN_DT_BF16:
        return ncclBfloat16;
    case SN_DT_FP16:
        return ncclFloat16;
    case SN_DT_INT32:
        return ncclInt32;
    default:
        return ncclFloat32;
    }
}

static ncclRedOp_t nccl_op(enum sn_bench_redop op)
{
    return op == SN_REDOP_MAX   ? ncclMax
           : op == SN_REDOP_MIN ? ncclMin
                                : ncclSum;
}

static bool cuda_variant_ok(enum sn_coll_op op, bool inplace)
{
    /* grouped send/recv: a rank's send and receive buffers must differ */
    return !(inplace && (op == SN_COLL_ALLTOALL || op == SN_COLL_SENDRECV));
}

struct coll_arg {
    enum sn_coll_op op;
    enum sn_bench_dtype dt;
    enum sn_bench_redop redop;
    int root;
    uint64_t count;
    bool inplace;
};

/* One collective as nccl-tests issues it; in place, inputs sit where
 * nccl-tests puts them (allgather: this rank's part of the output;
 * reducescatter: the output is this rank's part of the input). */
static int coll_op(struct sn__bench_ctx *c, void *arg, struct sn_error *err)
{
    struct cu *s = c->bs;
    struct coll_arg *a = arg;
    int n = c->job->size, r = c->job->rank, rc = SN_OK;
    size_t es = sn_bench_dtype_size(a->dt), part = a->count / (size_t)n;
    ncclDataType_t t = nccl_type(a->dt);
    ncclRedOp_t op = nccl_op(a->redop);
    char *sb = s->sbuf, *rb = s->rbuf;
    const void *in = a->inplace ? (const void *)rb : (const void *)sb;

    switch (a->op) {
    case SN_COLL_ALLREDUCE:
        return NC(ncclAllReduce(in, rb, a->count, t, op, s->comm, s->st));
    case SN_COLL_ALLGATHER:
        return NC(ncclAllGather(a->inplace ? rb + (size_t)r * part * es : sb,
                                rb, part, t, s->comm, s->st));
    case SN_COLL_REDUCESCATTER:
        return NC(
            ncclReduceScatter(in, a->inplace ? rb + (size_t)r * part * es : rb,
                              part, t, op, s->comm, s->st));
    case SN_COLL_BROADCAST:
        return NC(ncclBroadcast(in, rb, a->count, t, a->root, s->comm, s->st));
    case SN_COLL_REDUCE:
        return NC(ncclReduce(in, rb, a->count, t, op, a->root, s->comm, s->st));
    case SN_COLL_ALLTOALL:
    case SN_COLL_SENDRECV:
        if ((rc = NC(ncclGroupStart())))
            return rc;
        if (a->op == SN_COLL_SENDRECV) {
            rc = NC(ncclSend(sb, a->count, t, (r + 1) % n, s->comm, s->st));
            if (!rc)
                rc = NC(
                    ncclRecv(rb, a->count, t, (r - 1 + n) % n, s->comm, s->st));
        } else {
            for (int j = 0; j < n && !rc; j++) {
                rc = NC(ncclSend(sb + (size_t)j * part * es, part, t, j,
                                 s->comm, s->st));
                if (!rc)
                    rc = NC(ncclRecv(rb + (size_t)j * part * es, part, t, j,
                                     s->comm, s->st));
            }
        }
        if (!rc)
            return NC(ncclGroupEnd());
        ncclGroupEnd();
        return rc;
    default:
        return sn_error_set(err, SN_EINPUT, "unknown collective %d",
                            (int)a->op);
    }
}

static int cuda_coll(struct sn__bench_ctx *c, enum sn_coll_op op,
                     enum sn_bench_dtype dt, enum sn_bench_redop redop,
                     int root, uint64_t count, bool inplace, int iters,
                     double *t, struct sn_error *err)
{
    struct coll_arg a = {op, dt, redop, root, count, inplace};
    int rc = cuda_reserve(c, count * sn_bench_dtype_size(dt), err);

    if (rc)
        return rc;
    return timed(c, coll_op, &a, iters, t, 1.0, err);
}

/* An element of a host copy as a double (bf16 and fp16 by their bits). */
static double element(const char *buf, enum sn_bench_dtype dt, size_t i)
{
    uint32_t bits;
    uint16_t h;
    float f;

    switch (dt) {
    case SN_DT_FP64:
        return ((const double *)buf)[i];
    case SN_DT_INT32:
        return ((const int32_t *)buf)[i];
    case SN_DT_BF16:
        memcpy(&h, buf + 2 * i, 2);
        bits = (uint32_t)h << 16; /* bf16 is fp32's upper half */
        memcpy(&f, &bits, 4);
        return f;
    case SN_DT_FP16: {
        int e, m;
        memcpy(&h, buf + 2 * i, 2);
        e = (h >> 10) & 0x1f;
        m = h & 0x3ff;
        /* IEEE 754 binary16: subnormal, normal, inf/NaN */
        f = e == 0    ? ldexpf((float)m, -24)
            : e == 31 ? (m ? NAN : INFINITY)
                      : ldexpf((float)(m | 0x400), e - 25);
        return h & 0x8000 ? -f : f;
    }
    default:
        return ((const float *)buf)[i];
    }
}

static int cuda_coll_check(struct sn__bench_ctx *c, enum sn_coll_op op,
                           enum sn_bench_dtype dt, enum sn_bench_redop redop,
                           int root, uint64_t count, bool inplace, bool corrupt,
                           long long *wrong, struct sn_error *err)
{
    struct cu *s = c->bs;
    int n = c->job->size, r = c->job->rank, rc;
    size_t es = sn_bench_dtype_size(dt), part = count / (size_t)n;
    uint64_t nout = sn_pattern_outputs((int)op, n, r, root, count);
    char *rb = s->rbuf, *sb = s->sbuf, *out = rb;
    struct coll_arg a = {op, dt, redop, root, count, inplace};

    *wrong = 0;
    if ((rc = cuda_reserve(c, count * es, err)) ||
        (rc = CU(sn__cuda_fill(sb, (int)dt, count, SN_CU_FILL_SENTINEL, 0, 0,
                               s->st))) ||
        (rc = CU(sn__cuda_fill(rb, (int)dt, count, SN_CU_FILL_SENTINEL, 0, 0,
                               s->st))))
        return rc;
    /* this rank's input where coll_op() reads it */
    if (op == SN_COLL_ALLGATHER)
        rc =
            CU(sn__cuda_fill(inplace ? rb + (size_t)r * part * es : sb, (int)dt,
                             part, SN_CU_FILL_PATTERN, (uint32_t)r, 0, s->st));
    else if (op != SN_COLL_BROADCAST || r == root)
        rc = CU(sn__cuda_fill(inplace ? rb : sb, (int)dt, count,
                              SN_CU_FILL_PATTERN, (uint32_t)r, 0, s->st));
    if (rc || (rc = coll_op(c, &a, err)) ||
        (rc = CU(cudaStreamSynchronize(s->st))))
        return rc;
    if (op == SN_COLL_REDUCESCATTER && inplace)
        out = rb + (size_t)r * part * es;
    if (nout * es > s->check_cap) {
        free(s->check);
        s->check = sn_xmalloc(nout * es);
        s->check_cap = nout * es;
    }
    if (nout &&
        (rc = CU(cudaMemcpy(s->check, out, nout * es, cudaMemcpyDeviceToHost))))
        return rc;
    for (uint64_t i = 0; i < nout; i++) {
        double got = element(s->check, dt, i);
        if (corrupt && i == nout / 2)
            got += 1000; /* test-only fault */
        if (got !=
            sn_pattern_expected((int)op, (int)redop, n, r, root, count, i))
            (*wrong)++;
    }
    return SN_OK;
}

static uint64_t cuda_device_memory(struct sn__bench_ctx *c)
{
    size_t free_bytes = 0, total = 0;

    (void)c;
    if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess)
        return 0;
    return (uint64_t)total;
}

/* The plugin's one export, found with dlsym() by names.c. */
extern const struct sn__bench_backend sn__bench_cuda;
const struct sn__bench_backend sn__bench_cuda = {
    .name = "cuda",
    .mem_bytes = (uint64_t)1 << 30,
    .pair_bytes = (uint64_t)256 << 20,
    .host_bytes = (uint64_t)256 << 20,
    .min_bytes = 8,
    .max_bytes = (uint64_t)1 << 30,
    .gemm_size = 8192,
    .gemm_dtypes = cuda_gemm_dtypes,
    .ngemm_dtypes = SN_ARRAY_LEN(cuda_gemm_dtypes),
    .open = cuda_open,
    .connect = cuda_connect,
    .close = cuda_close,
    .timer = cuda_timer,
    .versions = cuda_versions,
    .state = cuda_state,
    .gemm_unsupported = cuda_gemm_unsupported,
    .gemm = cuda_gemm,
    .stream = cuda_stream,
    .host_numa_nodes = cuda_numa_nodes,
    .hostcopy = cuda_hostcopy,
    .p2p = cuda_p2p,
    .coll = cuda_coll,
    .coll_variant_ok = cuda_variant_ok,
    .coll_check = cuda_coll_check,
    .reserve = cuda_reserve,
    .device_memory = cuda_device_memory,
};
