/* names.c: the names of tests, data types, reduction operations and
 * backends as users type them (collectives are coll.h's vocabulary). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench-int.h"

static const char *const test_names[SN_BENCH_TEST_COUNT + 1] = {
    "compute",   "memory", "h2d",     "d2h", "pairs",
    "aggregate", "coll",   "latency", NULL,
};

const char *sn_bench_test_name(enum sn_bench_test t)
{
    return (unsigned)t < SN_BENCH_TEST_COUNT ? test_names[t] : "?";
}

int sn_bench_test_parse(const char *name, enum sn_bench_test *out,
                        struct sn_error *err)
{
    for (int i = 0; i < SN_BENCH_TEST_COUNT; i++) {
        if (sn_strcaseeq(name, test_names[i])) {
            *out = (enum sn_bench_test)i;
            return SN_OK;
        }
    }
    return sn_unknown_name(err, "test", name, test_names, SN_BENCH_TEST_COUNT,
                           sizeof(test_names[0]));
}

/* Our names and the ones bench prints as nccl-tests' (kept as they were
 * printed); the element type of the buffers gives the size (coll.h). */
static const struct {
    const char *name; /* ours */
    const char *nccl; /* nccl-tests' */
    enum sn_coll_dtype elem;
} dtypes[SN_DT_COUNT] = {
    [SN_DT_FP64] = {"fp64", "double", SN_COLL_DOUBLE},
    [SN_DT_FP32] = {"fp32", "float", SN_COLL_FLOAT},
    [SN_DT_TF32] = {"tf32", "tf32", SN_COLL_FLOAT}, /* fp32 storage */
    [SN_DT_BF16] = {"bf16", "bfloat16", SN_COLL_BFLOAT16},
    [SN_DT_FP16] = {"fp16", "half", SN_COLL_HALF},
    [SN_DT_FP8] = {"fp8", "fp8_e4m3", SN_COLL_FP8E4M3},
    [SN_DT_INT32] = {"int32", "int32", SN_COLL_INT32},
};

const char *sn_bench_dtype_name(enum sn_bench_dtype d)
{
    return (unsigned)d < SN_DT_COUNT ? dtypes[d].name : "?";
}

const char *sn_bench_dtype_nccl_name(enum sn_bench_dtype d)
{
    return (unsigned)d < SN_DT_COUNT ? dtypes[d].nccl : "?";
}

size_t sn_bench_dtype_size(enum sn_bench_dtype d)
{
    return (unsigned)d < SN_DT_COUNT ? sn_coll_dtype_size(dtypes[d].elem) : 0;
}

int sn_bench_dtype_parse(const char *name, enum sn_bench_dtype *out,
                         struct sn_error *err)
{
    static const char *const all[] = {
        "fp64",   "fp32",  "tf32",     "bf16", "fp16",     "fp8", "int32",
        "double", "float", "bfloat16", "half", "fp8_e4m3", NULL};
    enum sn_coll_dtype elem;

    for (int i = 0; i < SN_DT_COUNT; i++) {
        if (sn_strcaseeq(name, dtypes[i].name) ||
            sn_strcaseeq(name, dtypes[i].nccl)) {
            *out = (enum sn_bench_dtype)i;
            return SN_OK;
        }
    }
    /* the element types' other spellings ("int", "e4m3"), for the types
     * bench runs; tf32 is a math mode, never an element's type */
    if (sn_coll_dtype_parse(name, &elem, NULL) == SN_OK) {
        for (int i = 0; i < SN_DT_COUNT; i++) {
            if (i != SN_DT_TF32 && dtypes[i].elem == elem) {
                *out = (enum sn_bench_dtype)i;
                return SN_OK;
            }
        }
    }
    {
        const char *near = sn_suggest(name, all);
        if (near)
            return sn_error_set(err, SN_EINPUT,
                                "unknown data type '%.64s' (did you mean "
                                "'%s'?)",
                                name, near);
    }
    return sn_error_set(err, SN_EINPUT,
                        "unknown data type '%.64s' (expected fp64, fp32, "
                        "tf32, bf16, fp16, fp8 or int32)",
                        name);
}

static const char *const redop_names[] = {"sum", "max", "min", NULL};

const char *sn_bench_redop_name(enum sn_bench_redop op)
{
    return (unsigned)op < 3 ? redop_names[op] : "?";
}

int sn_bench_redop_parse(const char *name, enum sn_bench_redop *out,
                         struct sn_error *err)
{
    for (int i = 0; i < 3; i++) {
        if (sn_strcaseeq(name, redop_names[i])) {
            *out = (enum sn_bench_redop)i;
            return SN_OK;
        }
    }
    return sn_error_set(err, SN_EINPUT,
                        "unknown reduction '%.64s' (expected sum, max or "
                        "min)",
                        name);
}

const char *sn_bench_backend_name(enum sn_bench_backend b)
{
    return b == SN_BENCH_CUDA ? "cuda" : "cpu";
}

int sn_bench_backend_parse(const char *name, enum sn_bench_backend *out,
                           struct sn_error *err)
{
    if (sn_strcaseeq(name, "cpu"))
        return *out = SN_BENCH_CPU, SN_OK;
    if (sn_strcaseeq(name, "cuda"))
        return *out = SN_BENCH_CUDA, SN_OK;
    return sn_error_set(err, SN_EINPUT,
                        "unknown backend '%.64s' (expected cpu or cuda)", name);
}

/* The cuda backend lives in a plugin beside the executable
 * (supernode-cuda.so, built with CUDA): loading it only when asked keeps
 * the CUDA libraries out of every other command and lets the binary start
 * on hosts without them. */
static struct {
    pthread_once_t once;
    const struct sn__bench_backend *be;
    char why[320];
} cuda = {PTHREAD_ONCE_INIT, NULL, ""};

static void cuda_load(void)
{
#ifdef HAVE_CUDA
    char path[4096];
    ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 64);
    char *slash;
    void *h;

    if (n <= 0) {
        snprintf(cuda.why, sizeof(cuda.why),
                 "cannot find the executable's directory");
        return;
    }
    path[n] = '\0';
    slash = strrchr(path, '/');
    snprintf(slash ? slash + 1 : path, 64, "supernode-cuda.so");
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(cuda.why, sizeof(cuda.why), "%.300s",
                 e ? e : "cannot load supernode-cuda.so");
        return;
    }
    /* the plugin stays loaded for the life of the process */
    cuda.be = (const struct sn__bench_backend *)dlsym(h, "sn__bench_cuda");
    if (!cuda.be)
        snprintf(cuda.why, sizeof(cuda.why), "%.256s has no cuda backend in it",
                 path);
#else
    snprintf(cuda.why, sizeof(cuda.why),
             "this build has no CUDA (nvcc, cuBLAS and NCCL were not found "
             "when it was built)");
#endif
}

const struct sn__bench_backend *sn__bench_backend_for(enum sn_bench_backend b)
{
    if (b == SN_BENCH_CUDA) {
        pthread_once(&cuda.once, cuda_load);
        return cuda.be;
    }
    return b == SN_BENCH_CPU ? &sn__bench_cpu : NULL;
}

const char *sn_bench_backend_why(enum sn_bench_backend b)
{
    if (b == SN_BENCH_CUDA) {
        pthread_once(&cuda.once, cuda_load);
        return cuda.why;
    }
    return "";
}

bool sn_bench_backend_available(enum sn_bench_backend b)
{
    return sn__bench_backend_for(b) != NULL;
}
