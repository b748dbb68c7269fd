/* kernels.c: `bench kernels`: the kernel efficiency table (sn/kernels.h)
 * measured on this machine, over the shapes of the shipped reference
 * table, in the file `sim train --kernels` reads. The cpu backend times
 * OpenBLAS sgemm; a grouped row is its experts' GEMMs one after another,
 * as a cuBLAS-based grouped GEMM runs them. */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-int.h"
#include "sn/kernels.h"

/* Experts a grouped row runs: DeepGEMM's contiguous-layout rows have 4
 * or 8 groups; the table is per expert, so the count only sets how many
 * GEMMs a sample times. */
#define GROUPS 4

void sn_bench_kernels_opts_init(struct sn_bench_kernels_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->scale = 8;
    o->iters = 5;
}

/* Median of n samples (sorts them). */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

/* One row: m x k times k x n, `groups` times in a sample, `iters`
 * samples after one warm-up; the median's FLOP/s. */
static int time_gemm(int m, int n, int k, int groups, int iters, double *flops,
                     struct sn_error *err)
{
    size_t a = (size_t)m * k, b = (size_t)k * n, c = (size_t)m * n;
    float *A = malloc(a * sizeof(float)), *B = malloc(b * sizeof(float));
    float *C = calloc(c, sizeof(float));
    double t[SN_BENCH_KERNELS_MAX_ITERS];
    int rc = SN_OK;

    if (!A || !B || !C) {
        rc = sn_error_set(err, SN_ENOMEM,
                          "no memory for a %d x %d x %d GEMM's operands", m, n,
                          k);
        goto out;
    }
    /* values in [0, 1): no denormals, no overflow */
    for (size_t i = 0; i < a; i++)
        A[i] = (float)((i * 2654435761u) % 1000u) / 1000.0f;
    for (size_t i = 0; i < b; i++)
        B[i] = 1.0f - (float)((i * 2654435761u) % 1000u) / 1000.0f;
    for (int s = -1; s < iters; s++) {
        double t0 = sn_now();
        for (int g = 0; g < groups; g++)
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k,
                        1.0f, A, k, B, n, 0.0f, C, n);
        if (s >= 0)
            t[s] = sn_now() - t0;
    }
    qsort(t, (size_t)iters, sizeof(t[0]), cmp_double);
    {
        double med =
            iters % 2 ? t[iters / 2] : (t[iters / 2 - 1] + t[iters / 2]) / 2;
        *flops = med > 0 ? 2.0 * m * n * k * groups / med : 0;
    }
out:
    free(A);
    free(B);
    free(C);
    return rc;
}

int sn_bench_kernels(const struct sn_bench_kernels_opts *o,
                     struct sn_kernel_table **out, struct sn_error *err)
{
    const struct sn_kernel_table *ref = sn_kernels_reference();
    struct sn_kernel_point *pts = NULL;
    struct sn_kernel_table *t;
    char source[128];
    size_t n = 0;
    int rc = SN_OK;

    *out = NULL;
    if (o->backend != SN_BENCH_CPU)
        return sn_error_set(err, SN_ENOTSUP,
                            "bench kernels: only the cpu backend measures "
                            "kernel tables so far");
    if (o->scale < 1 || o->scale > 1024)
        return sn_error_set(err, SN_EINPUT, "--scale: %d is not from 1 to 1024",
                            o->scale);
    if (o->iters < 1 || o->iters > SN_BENCH_KERNELS_MAX_ITERS)
        return sn_error_set(err, SN_EINPUT, "-n: %d is not from 1 to %d",
                            o->iters, SN_BENCH_KERNELS_MAX_ITERS);
    snprintf(source, sizeof(source),
             "supernode bench kernels, cpu backend (OpenBLAS sgemm), shapes "
             "/ %d",
             o->scale);
    pts = sn_xcalloc(ref->npoints, sizeof(*pts));
    for (size_t i = 0; i < ref->npoints && !rc; i++) {
        const struct sn_kernel_point *r = &ref->points[i];
        struct sn_kernel_point p = *r;
        /* each dimension scaled down, to at least one 16-wide tile */
        p.m = fmax(16, ceil(r->m / o->scale));
        p.n = fmax(16, ceil(r->n / o->scale));
        p.k = fmax(16, ceil(r->k / o->scale));
        p.dtype = SN_KDT_FP32;
        rc = time_gemm((int)p.m, (int)p.n, (int)p.k,
                       r->kind == SN_KERNEL_GROUPED ? GROUPS : 1, o->iters,
                       &p.flops, err);
        p.source = sn_xstrdup(source);
        pts[n++] = p;
    }
    if (rc) {
        for (size_t i = 0; i < n; i++)
            free((char *)pts[i].source);
        free(pts);
        return rc;
    }
    t = sn_xcalloc(1, sizeof(*t));
    t->generation = sn_xstrdup("measured");
    t->points = pts;
    t->npoints = n;
    t->owned = true;
    *out = t;
    return SN_OK;
}
