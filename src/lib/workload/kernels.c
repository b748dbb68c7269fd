/* kernels.c: kernel efficiency tables (sn/kernels.h): the shipped tables
 * from published kernel measurements (serving's set and training's, which
 * leaves Hopper's BF16 rows out for now), serving's lookup by work per
 * launch and training's previous one (nearest rows),
 * and the table file `bench kernels` writes and `sim train --kernels`
 * reads. docs/model.md ("Kernel efficiency tables") lists the sources. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/kernels.h"
#include "train-int.h"

#define TF 1e12

/* Hopper FP8 (1x128 / 128x128 block-scaled, DeepSeek-V3's recipe):
 * DeepGEMM's README performance tables, H800 (the H100's SM at 1,979
 * dense FP8 TFLOP/s), NVCC 12.8, every shape DeepSeek-V3/R1 uses without
 * TP (deepseek-ai/DeepGEMM README.md at commit 55ab91f, March 2025).
 * Grouped rows: the contiguous layout (training and prefill: 4 or 8
 * experts of 4,096-8,192 rows) and the masked layout (256-1,024 rows an
 * expert); M is the rows per expert. */
#define DG "deepseek-ai/DeepGEMM README.md @55ab91f, H800"
#define Z79 "zzc0721/torch-performance-test-data issue 79, H100 SXM, torch bf16"
#define V49363 "vllm-project/vllm PR 49363, H100, torch-bf16"
#define H100_BF16 (989.4 * TF)
/* The FP8 rows, in both of Hopper's table sets */
#define HOPPER_FP8_ROWS                                                        \
    {SN_KERNEL_GEMM, SN_KDT_FP8, 64, 2112, 7168, 206 * TF, DG, 0},             \
        {SN_KERNEL_GEMM, SN_KDT_FP8, 64, 24576, 1536, 289 * TF, DG, 0},        \
        {SN_KERNEL_GEMM, SN_KDT_FP8, 64, 32768, 512, 219 * TF, DG, 0},         \
        {SN_KERNEL_GEMM, SN_KDT_FP8, 64, 7168, 16384, 336 * TF, DG, 0},        \
        {SN_KERNEL_GEMM, SN_KDT_FP8, 64, 4096, 7168, 287 * TF, DG, 0},         \
        {SN_KERNEL_GEMM, SN_KDT_FP8, 64, 7168, 2048, 295 * TF, DG, 0},         \
        {SN_KERNEL_GEMM, SN_KDT_FP8, 128, 2112, 7168, 352 * TF, DG, 0},        \
        {SN_KERNEL_GEMM, SN_KDT_FP8, 128, 24576, 1536, 535 * TF, DG, 0},       \
        {SN_KERNEL_GEMM, SN_KDT_FP8, 128, 32768, 512, 358 * TF, DG, 0},        \
        {SN_KERNEL_GEMM, SN_KDT_FP8, 128, 7168, 16384, 645 * TF, DG, 0},       \
        {SN_KERNEL_GEMM, SN_KDT_FP8, 128, 4096, 7168, 533 * TF, DG, 0},        \
        {SN_KERNEL_GEMM, SN_KDT_FP8, 128, 7168, 2048, 510 * TF, DG, 0},        \
        {SN_KERNEL_GEMM, SN_KDT_FP8, 4096, 2112, 7168, 1009 * TF, DG, 0},      \
        {SN_KERNEL_GEMM, SN_KDT_FP8, 4096, 24576, 1536, 1125 * TF, DG, 0},     \
        {SN_KERNEL_GEMM, SN_KDT_FP8, 4096, 32768, 512, 751 * TF, DG, 0},       \
        {SN_KERNEL_GEMM, SN_KDT_FP8, 4096, 7168, 16384, 1426 * TF, DG, 0},     \
        {SN_KERNEL_GEMM, SN_KDT_FP8, 4096, 4096, 7168, 1265 * TF, DG, 0},      \
        {SN_KERNEL_GEMM, SN_KDT_FP8, 4096, 7168, 2048, 1168 * TF, DG, 0},      \
        {SN_KERNEL_GROUPED, SN_KDT_FP8, 8192, 4096, 7168, 1346 * TF, DG, 0},   \
        {SN_KERNEL_GROUPED, SN_KDT_FP8, 8192, 7168, 2048, 1214 * TF, DG, 0},   \
        {SN_KERNEL_GROUPED, SN_KDT_FP8, 4096, 4096, 7168, 1346 * TF, DG, 0},   \
        {SN_KERNEL_GROUPED, SN_KDT_FP8, 4096, 7168, 2048, 1214 * TF, DG, 0},   \
        {SN_KERNEL_GROUPED, SN_KDT_FP8, 1024, 4096, 7168, 1233 * TF, DG, 0},   \
        {SN_KERNEL_GROUPED, SN_KDT_FP8, 1024, 7168, 2048, 925 * TF, DG, 0},    \
        {SN_KERNEL_GROUPED, SN_KDT_FP8, 512, 4096, 7168, 1040 * TF, DG, 0},    \
        {SN_KERNEL_GROUPED, SN_KDT_FP8, 512, 7168, 2048, 916 * TF, DG, 0},     \
        {SN_KERNEL_GROUPED, SN_KDT_FP8, 256, 4096, 7168, 932 * TF, DG, 0},     \
    {                                                                          \
        SN_KERNEL_GROUPED, SN_KDT_FP8, 256, 7168, 2048, 815 * TF, DG, 0        \
    }

/* The training model's table (sn_kernels_shipped): the FP8 rows only. */
static const struct sn_kernel_point hopper_points[] = {HOPPER_FP8_ROWS};

/* The serving model's table (sn_kernels_serving): the FP8 rows and the
 * BF16 ones. The BF16 rows are the serving set's only: a BF16 training
 * layout on Hopper keeps the calibrated rate and, for the search's
 * pessimistic bound, the FP8 rows' shape curve, as before they were
 * shipped (docs/model.md, "Kernel efficiency tables", why training keeps
 * the previous lookup). */
static const struct sn_kernel_point hopper_serving_points[] = {
    HOPPER_FP8_ROWS,
    /* BF16, cuBLAS through torch.matmul, as shares of the H100 SXM's
     * dense BF16 peak (989.4 TFLOP/s, NVIDIA H100 datasheet: 1,979 with
     * sparsity). Square GEMMs: zzc0721/torch-performance-test-data issue
     * 79 (H100 SXM). M 16-128 at N 12,288, K 5,376: vllm-project/vllm
     * pull request 49363's torch-bf16 column (H100); they run 45-48 us
     * each, the weight's read, and fall below any Hopper ridge: they
     * record the memory-bound end, the lookup's curve leaves them out */
    {SN_KERNEL_GEMM, SN_KDT_BF16, 1024, 1024, 1024, 176.6 * TF, Z79, H100_BF16},
    {SN_KERNEL_GEMM, SN_KDT_BF16, 2048, 2048, 2048, 676.6 * TF, Z79, H100_BF16},
    {SN_KERNEL_GEMM, SN_KDT_BF16, 4096, 4096, 4096, 788.7 * TF, Z79, H100_BF16},
    {SN_KERNEL_GEMM, SN_KDT_BF16, 8192, 8192, 8192, 797.5 * TF, Z79, H100_BF16},
    {SN_KERNEL_GEMM, SN_KDT_BF16, 10240, 10240, 10240, 719.7 * TF, Z79,
     H100_BF16},
    {SN_KERNEL_GEMM, SN_KDT_BF16, 16, 12288, 5376, 46.5 * TF, V49363,
     H100_BF16},
    {SN_KERNEL_GEMM, SN_KDT_BF16, 64, 12288, 5376, 182.6 * TF, V49363,
     H100_BF16},
    {SN_KERNEL_GEMM, SN_KDT_BF16, 128, 12288, 5376, 352.6 * TF, V49363,
     H100_BF16},
};

/* The H800's ridge for DeepGEMM's absolute rows: 1,979 dense FP8
 * TFLOP/s over 3.35 TB/s of HBM3 (NVIDIA H800 SXM5 datasheet, the H100
 * SXM5's figures): 591 FLOPs a byte. */
static const struct sn_kernel_table hopper = {
    "hopper", hopper_points, sizeof(hopper_points) / sizeof(hopper_points[0]),
    false, 1979e12 / 3.35e12};
static const struct sn_kernel_table hopper_serving = {
    "hopper", hopper_serving_points,
    sizeof(hopper_serving_points) / sizeof(hopper_serving_points[0]), false,
    1979e12 / 3.35e12};

/* Blackwell. BF16: cuBLAS through torch.matmul, square GEMMs on a B200
 * (pytorch/ao pull request 2427, benchmarks/float8/bench_matmul.py, the
 * torch.bfloat16 lines). FP4 (MXFP4, block-scaled): cuBLASLt, the cBLT
 * column of deepseek-ai/DeepGEMM pull request 348 (B200, cublasTest 13.3),
 * the library Transformer Engine calls for MXFP4/NVFP4 GEMMs. No FP8 or
 * MXFP8 table was found with shapes and a GPU named: FP8 keeps the
 * calibrated rate (docs/model.md, "Kernel efficiency tables"). */
#define TAO "pytorch/ao PR 2427 bench_matmul torch.bfloat16, B200"
/* B200 dense peaks, BF16 and FP4: NVIDIA's B200 datasheet, the "peak
 * tops: bf16 2.25e+15, ... fp4 9.00e+15" line of pytorch/ao PR 2427 */
#define B200_BF16_PEAK (2250 * TF)
#define B200_FP4_PEAK (9000 * TF)
#define DGB "deepseek-ai/DeepGEMM PR 348 cBLT column (cuBLASLt), B200"
static const struct sn_kernel_point blackwell_points[] = {
    {SN_KERNEL_GEMM, SN_KDT_BF16, 1024, 1024, 1024, 423 * TF, TAO,
     B200_BF16_PEAK},
    {SN_KERNEL_GEMM, SN_KDT_BF16, 1536, 1536, 1536, 921 * TF, TAO,
     B200_BF16_PEAK},
    {SN_KERNEL_GEMM, SN_KDT_BF16, 2048, 2048, 2048, 1130 * TF, TAO,
     B200_BF16_PEAK},
    {SN_KERNEL_GEMM, SN_KDT_BF16, 3072, 3072, 3072, 1510 * TF, TAO,
     B200_BF16_PEAK},
    {SN_KERNEL_GEMM, SN_KDT_BF16, 4096, 4096, 4096, 1410 * TF, TAO,
     B200_BF16_PEAK},
    {SN_KERNEL_GEMM, SN_KDT_BF16, 6144, 6144, 6144, 1450 * TF, TAO,
     B200_BF16_PEAK},
    {SN_KERNEL_GEMM, SN_KDT_BF16, 8192, 8192, 8192, 1420 * TF, TAO,
     B200_BF16_PEAK},
    {SN_KERNEL_GEMM, SN_KDT_FP4, 128, 2048, 7168, 338 * TF, DGB, B200_FP4_PEAK},
    {SN_KERNEL_GEMM, SN_KDT_FP4, 128, 24576, 1536, 745 * TF, DGB,
     B200_FP4_PEAK},
    {SN_KERNEL_GEMM, SN_KDT_FP4, 512, 2048, 7168, 1422 * TF, DGB,
     B200_FP4_PEAK},
    {SN_KERNEL_GEMM, SN_KDT_FP4, 512, 7168, 2048, 1190 * TF, DGB,
     B200_FP4_PEAK},
    {SN_KERNEL_GEMM, SN_KDT_FP4, 1024, 7168, 2048, 1399 * TF, DGB,
     B200_FP4_PEAK},
    {SN_KERNEL_GEMM, SN_KDT_FP4, 4096, 4096, 7168, 3939 * TF, DGB,
     B200_FP4_PEAK},
    {SN_KERNEL_GEMM, SN_KDT_FP4, 8192, 8192, 8192, 5239 * TF, DGB,
     B200_FP4_PEAK},
};

static const struct sn_kernel_table blackwell = {
    "blackwell", blackwell_points,
    sizeof(blackwell_points) / sizeof(blackwell_points[0]), false, 0};

/* Ampere: no table. The one public A100 BF16 table found with shapes
 * (zzc0721/torch-performance-test-data issue #108) is of the PCIe part,
 * power-limited to 250 W, not the SXM part of the DGX A100 rows. */

/* The generation of a catalog accelerator name, by substring, in the
 * order train.c's calibration table matches them. */
static const struct {
    const char *match;
    const char *generation;
    const struct sn_kernel_table *table;   /* training's (sn_kernels_shipped) */
    const struct sn_kernel_table *serving; /* serving's (sn_kernels_serving) */
} generations[] = {
    {"gb300", "blackwell", &blackwell, &blackwell},
    {"gb200", "blackwell", &blackwell, &blackwell},
    {"b300", "blackwell", &blackwell, &blackwell},
    {"b200", "blackwell", &blackwell, &blackwell},
    {"gh200", "hopper", &hopper, &hopper_serving},
    {"h200", "hopper", &hopper, &hopper_serving},
    {"h800", "hopper", &hopper, &hopper_serving},
    {"h100", "hopper", &hopper, &hopper_serving},
    {"h20", "hopper", &hopper, &hopper_serving},
    {"a100", "ampere", NULL, NULL},
    {"a800", "ampere", NULL, NULL},
};

static int generation_of(const char *accel)
{
    char low[64];
    size_t i;

    for (i = 0; accel && accel[i] && i + 1 < sizeof(low); i++)
        low[i] = (char)tolower((unsigned char)accel[i]);
    low[i] = '\0';
    for (i = 0; accel && i < sizeof(generations) / sizeof(generations[0]); i++)
        if (strstr(low, generations[i].match))
            return (int)i;
    return -1;
}

const struct sn_kernel_table *sn_kernels_shipped(const char *accel,
                                                 const char **generation)
{
    int g = generation_of(accel);

    if (generation)
        *generation = g < 0 ? "other" : generations[g].generation;
    return g < 0 ? NULL : generations[g].table;
}

const struct sn_kernel_table *sn_kernels_serving(const char *accel,
                                                 const char **generation)
{
    int g = generation_of(accel);

    if (generation)
        *generation = g < 0 ? "other" : generations[g].generation;
    return g < 0 ? NULL : generations[g].serving;
}

const struct sn_kernel_table *sn_kernels_reference(void)
{
    return &hopper;
}

double sn_kernels_peak(const struct sn_kernel_table *t,
                       enum sn_kernel_kind kind, enum sn_kernel_dtype dtype)
{
    for (size_t i = 0; t && i < t->npoints; i++)
        if (t->points[i].kind == kind && t->points[i].dtype == dtype)
            return t->points[i].peak;
    return 0;
}

double sn_kernels_best(const struct sn_kernel_table *t,
                       enum sn_kernel_dtype dtype)
{
    double best = 0;

    for (size_t i = 0; t && i < t->npoints; i++)
        if (t->points[i].kind == SN_KERNEL_GEMM &&
            t->points[i].dtype == dtype && t->points[i].flops > best)
            best = t->points[i].flops;
    return best;
}

/* ---- the lookup -----------------------------------------------------------
 * By work per launch (2 M N K FLOPs), not by distance in log2(M, N, K).
 * What the measured rows show (docs/model.md, "Kernel efficiency
 * tables", the lookup):
 * - at fixed N and K, every table's rows rise with M (DeepGEMM's six N x K
 *   pairs at M 64, 128, 4,096; its two grouped pairs at 256-8,192 rows;
 *   the B200 FP4 rows at M 128 and 512); the square tables rise with the
 *   side up to a plateau that holds within 10% (B200 BF16 1,410-1,510
 *   from 3,072 up, H100 BF16 720-798 from 4,096 up): a GEMM's rate grows
 *   with the work one launch spreads over the SMs (whole waves of tiles,
 *   the fixed launch, prologue and epilogue amortised), whatever axis
 *   the work comes from;
 * - at equal work, shapes differ less than the work's own effect:
 *   DeepGEMM's compute-bound M 4,096 rows at 120-309 GFLOP run
 *   1,009-1,265 TFLOP/s where the table spans 751-1,426;
 * - a row below its GPU's ridge point (FLOPs per byte of input and BF16
 *   output under peak over HBM bandwidth) measured the bandwidth, not
 *   the tensor cores: vLLM PR 49363's H100 BF16 rows at M 16, 64, 128
 *   run 45-48 us each, the time of reading the 132 MB weight, so their
 *   FLOP/s grows as M. The callers time that roofline themselves (the
 *   training model's memory term, serving's weight floor); the curve is
 *   the compute-bound rows' only.
 * So: the rows of kind and type at or above the ridge, ordered by work,
 * rows of equal work merged (mean FLOP/s), made monotone non-decreasing
 * by pooling adjacent violators (the least-squares monotone fit: a
 * plateau's dips, 8,192 to 10,240 on the H100, become their mean), then
 * linear in log2(work) between the points. The answer is monotone in
 * each of M, N and K. Outside the measured work the nearest end's FLOP/s
 * holds, flagged extrapolated, as is a shape with a side below every
 * measured row's. */

struct wpoint {
    double lw;    /* log2 of the work */
    double f, wt; /* FLOP/s (mean of merged rows), rows merged */
};

static int wpoint_cmp(const void *a, const void *b)
{
    double x = ((const struct wpoint *)a)->lw,
           y = ((const struct wpoint *)b)->lw;
    return x < y ? -1 : x > y;
}

static double bytes_per_elt(enum sn_kernel_dtype d)
{
    /* FP4 carries one 8-bit scale a 16 values (NVFP4; MXFP4's 1 a 32 is
     * less): the bytes the GEMM reads */
    static const double b[SN_KDT_COUNT] = {2, 2, 1, 0.5 + 1.0 / 16, 4};
    return d < SN_KDT_COUNT ? b[d] : 2;
}

double sn_kernels_intensity(const struct sn_kernel_point *p)
{
    double bytes =
        bytes_per_elt(p->dtype) * (p->m * p->k + p->k * p->n) + 2 * p->m * p->n;
    return 2 * p->m * p->n * p->k / bytes;
}

double sn_kernels_ridge(const struct sn_kernel_table *t,
                        enum sn_kernel_kind kind, enum sn_kernel_dtype dtype,
                        double peak, double hbm)
{
    if (!t)
        return 0;
    /* absolute rows of a shipped table: the GPU that measured them */
    if (!t->owned && !(sn_kernels_peak(t, kind, dtype) > 0) && t->ridge > 0)
        return t->ridge;
    return peak > 0 && hbm > 0 ? peak / hbm : 0;
}

/* Pools adjacent violators in place: w[0..np) sorted by work, each
 * point weighted by the rows it merges, becomes the monotone
 * non-decreasing sequence nearest it in least squares. */
static void pool_violators(struct wpoint *w, size_t np)
{
    size_t i = 0;

    /* blocks are kept as runs of equal f; merging a run with the one
     * before it until the order holds */
    while (i + 1 < np) {
        if (w[i + 1].f >= w[i].f) {
            i++;
            continue;
        }
        {
            /* the violating run: from the start of i's block to the end
             * of i+1's, pooled; then step back to recheck the block
             * before */
            size_t lo = i, hi = i + 1;
            double sw = 0, sf = 0;
            while (lo > 0 && w[lo - 1].f == w[i].f)
                lo--;
            while (hi + 1 < np && w[hi + 1].f == w[i + 1].f)
                hi++;
            for (size_t j = lo; j <= hi; j++) {
                sw += w[j].wt;
                sf += w[j].f * w[j].wt;
            }
            for (size_t j = lo; j <= hi; j++)
                w[j].f = sf / sw;
            i = lo > 0 ? lo - 1 : 0;
        }
    }
}

double sn_kernels_rate(const struct sn_kernel_table *t,
                       enum sn_kernel_kind kind, enum sn_kernel_dtype dtype,
                       double m, double n, double k, double ridge,
                       enum sn_kernel_fit *fit)
{
    struct wpoint stack[64], *w = stack;
    double min_m = INFINITY, min_n = INFINITY, min_k = INFINITY, lq, f;
    size_t rows = 0, all = 0, np = 0;
    bool outside, all_memory_bound = false;

    *fit = SN_KFIT_NONE;
    for (size_t i = 0; t && i < t->npoints; i++)
        if (t->points[i].kind == kind && t->points[i].dtype == dtype) {
            all++;
            if (sn_kernels_intensity(&t->points[i]) >= ridge)
                rows++;
        }
    if (!all)
        return 0;
    if (!rows) {
        ridge = 0; /* every row memory-bound: they are all there is */
        all_memory_bound = true;
    }
    if (all > sizeof(stack) / sizeof(stack[0]))
        w = sn_xmalloc(all * sizeof(*w));
    for (size_t i = 0; i < t->npoints; i++) {
        const struct sn_kernel_point *p = &t->points[i];
        if (p->kind != kind || p->dtype != dtype ||
            sn_kernels_intensity(p) < ridge)
            continue;
        min_m = fmin(min_m, p->m);
        min_n = fmin(min_n, p->n);
        min_k = fmin(min_k, p->k);
        w[np++] = (struct wpoint){log2(2 * p->m * p->n * p->k), p->flops, 1};
    }
    qsort(w, np, sizeof(*w), wpoint_cmp);
    /* merge equal work (shapes of one product), then pool violators */
    {
        size_t out = 0;
        for (size_t i = 0; i < np; i++) {
            struct wpoint q = w[i];
            if (out && fabs(q.lw - w[out - 1].lw) < 1e-9) {
                struct wpoint *r = &w[out - 1];
                r->f = (r->f * r->wt + q.f) / (r->wt + 1);
                r->wt += 1;
                continue;
            }
            w[out++] = q;
        }
        np = out;
    }
    pool_violators(w, np);
    lq = log2(2 * fmax(m, 1) * fmax(n, 1) * fmax(k, 1));
    outside = lq < w[0].lw - 1e-9 || lq > w[np - 1].lw + 1e-9;
    if (lq <= w[0].lw)
        f = w[0].f;
    else if (lq >= w[np - 1].lw)
        f = w[np - 1].f;
    else {
        size_t i = 1;
        while (w[i].lw < lq)
            i++;
        f = w[i - 1].f + (w[i].f - w[i - 1].f) * (lq - w[i - 1].lw) /
                             (w[i].lw - w[i - 1].lw);
    }
    if (w != stack)
        free(w);
    *fit = outside || all_memory_bound || m < min_m || n < min_n || k < min_k
               ? SN_KFIT_EXTRAPOLATED
               : SN_KFIT_MEASURED;
    return f;
}

double sn_kernels_flops(const struct sn_kernel_table *t,
                        enum sn_kernel_kind kind, enum sn_kernel_dtype dtype,
                        double m, double n, double k, enum sn_kernel_fit *fit)
{
    return sn_kernels_rate(t, kind, dtype, m, n, k, 0, fit);
}

/* ---- the previous lookup, training's for now ------------------------------
 * Inverse distance weighted over the rows of kind and type in log2(M, N,
 * K), exact on a row; with a side below every row's, the lowest FLOP/s
 * of the four nearest rows. The training model (train-time.c) and its
 * layout search keep this rule until the search's blind spots are fixed
 * (docs/model.md, "Kernel efficiency tables", "Why training keeps the
 * previous lookup"): the rule's low answers for small shapes slow the
 * search's pessimistic bound, and that slowness hides layouts the
 * search's other terms rate too well (one micro-batch a step hiding the
 * DP gradient reduction, ZeRO-2's reduce-scatter, the interleaving
 * depth). Under sn_kernels_rate 12 of the 19 published recipes'
 * searches land past the 15% target; training moves to it once those
 * terms are right and the recipes pass under it. */

/* The four nearest rows' lowest FLOP/s is the pessimistic answer below the
 * measured range: a shape smaller than any measured one runs no faster
 * than its slowest measured neighbour. */
#define NEAREST 4

double sn__kernels_nearest(const struct sn_kernel_table *t,
                           enum sn_kernel_kind kind, enum sn_kernel_dtype dtype,
                           double m, double n, double k,
                           enum sn_kernel_fit *fit)
{
    double lm = log2(m > 1 ? m : 1), ln = log2(n > 1 ? n : 1);
    double lk = log2(k > 1 ? k : 1);
    double min_m = INFINITY, min_n = INFINITY, min_k = INFINITY;
    double wsum = 0, fsum = 0;
    double near_d[NEAREST], near_f[NEAREST];
    int nnear = 0;
    size_t rows = 0;

    *fit = SN_KFIT_NONE;
    for (size_t i = 0; t && i < t->npoints; i++) {
        const struct sn_kernel_point *p = &t->points[i];
        double dm, dn, dk, d2;
        if (p->kind != kind || p->dtype != dtype)
            continue;
        rows++;
        min_m = fmin(min_m, p->m);
        min_n = fmin(min_n, p->n);
        min_k = fmin(min_k, p->k);
        dm = lm - log2(p->m);
        dn = ln - log2(p->n);
        dk = lk - log2(p->k);
        d2 = dm * dm + dn * dn + dk * dk;
        if (d2 < 1e-12) { /* on a measured row */
            *fit = SN_KFIT_MEASURED;
            return p->flops;
        }
        wsum += 1 / d2;
        fsum += p->flops / d2;
        /* keep the NEAREST closest, sorted by distance */
        if (nnear < NEAREST || d2 < near_d[NEAREST - 1]) {
            int j = nnear < NEAREST ? nnear++ : NEAREST - 1;
            while (j > 0 && near_d[j - 1] > d2) {
                near_d[j] = near_d[j - 1];
                near_f[j] = near_f[j - 1];
                j--;
            }
            near_d[j] = d2;
            near_f[j] = p->flops;
        }
    }
    if (!rows)
        return 0;
    if (m < min_m || n < min_n || k < min_k) {
        double low = INFINITY;
        for (int j = 0; j < nnear; j++)
            low = fmin(low, near_f[j]);
        *fit = SN_KFIT_EXTRAPOLATED;
        return low;
    }
    *fit = SN_KFIT_MEASURED;
    return fsum / wsum;
}

/* ---- fused attention ------------------------------------------------------
 * Blackwell, BF16, FlashAttention 4 (CuTe DSL), forward, FLOPs counted
 * as FlashAttention's benchmarks/benchmark_attn.py counts them (4 s^2 d a
 * head, halved when causal), 32k tokens a batch: Dao-AILab/flash-attention
 * pull request 2605 (nvidia-cutlass-dsl 4.5.2), which prints several FA4
 * FWD tables; each table below is named by one of its rows, and its GPU
 * by the MFU column's peak (benchmark_attn.py's get_peak_flops: B200 and
 * B300 2.25e15, GB200 and GB300 2.5e15) and the PR's environment table
 * (a B200; a GB300 with clocks locked at 1,965 MHz). The causal rows of
 * head size 128 end at 4,096 tokens where the PR's text was read. No
 * backward table with its GPU named was found; the backward is the
 * forward row's efficiency times the backward/forward ratio that
 * FlashAttention's own SM100 backward benchmarks measured on one GPU at
 * 8,192 tokens, 4 x 16 heads (bwd_ratio below), and is flagged. */
#define FA_B200                                                                \
    "Dao-AILab/flash-attention PR 2605, B200 FA4 FWD table (row 128 True 32 "  \
    "1024: 0.21/660/29.3%)"
#define FA_GB300                                                               \
    "Dao-AILab/flash-attention PR 2605, GB300 FA4 FWD table (row 128 True 32 " \
    "1024: 0.17/829/33.2%)"
#define PEAK_GB300 (2500 * TF)
#define B2(s, d, c, f)                                                         \
    {                                                                          \
        s, d, c, (f)*TF, 0, B200_BF16_PEAK, FA_B200                            \
    }
#define G3(s, d, c, f)                                                         \
    {                                                                          \
        s, d, c, (f)*TF, 0, PEAK_GB300, FA_GB300                               \
    }
static const struct sn_attn_point b200_attn[] = {
    B2(1024, 128, true, 660),   B2(2048, 128, true, 899),
    B2(4096, 128, true, 1062),  B2(1024, 128, false, 975),
    B2(2048, 128, false, 1131), B2(4096, 128, false, 1256),
    B2(8192, 128, false, 1289), B2(16384, 128, false, 1330),
    B2(1024, 64, true, 384),    B2(2048, 64, true, 561),
    B2(4096, 64, true, 708),    B2(8192, 64, true, 797),
    B2(16384, 64, true, 852),   B2(1024, 64, false, 619),
    B2(2048, 64, false, 755),   B2(4096, 64, false, 825),
    B2(8192, 64, false, 863),   B2(16384, 64, false, 879),
};
static const struct sn_attn_point gb300_attn[] = {
    G3(1024, 128, true, 829),   G3(2048, 128, true, 1172),
    G3(4096, 128, true, 1431),  G3(1024, 128, false, 1540),
    G3(2048, 128, false, 1706), G3(4096, 128, false, 1796),
    G3(8192, 128, false, 1837), G3(16384, 128, false, 1882),
    G3(1024, 64, true, 542),    G3(2048, 64, true, 785),
    G3(4096, 64, true, 1011),   G3(8192, 64, true, 1169),
    G3(16384, 64, true, 1251),  G3(1024, 64, false, 1087),
    G3(2048, 64, false, 1167),  G3(4096, 64, false, 1213),
    G3(8192, 64, false, 1229),  G3(16384, 64, false, 1243),
};

static const struct sn_attn_table b200_attn_table = {
    "blackwell", b200_attn, sizeof(b200_attn) / sizeof(b200_attn[0])};
static const struct sn_attn_table gb300_attn_table = {
    "blackwell", gb300_attn, sizeof(gb300_attn) / sizeof(gb300_attn[0])};

/* The backward's FLOP/s over the forward's, FA4 on one SM100 GPU at
 * 8,192 tokens, batch 4, 16 heads, FLOPs counted as benchmark_attn.py
 * counts them (the backward 2.5 times the forward's): head size 128,
 * Dao-AILab/flash-attention PR 2280 (the 2-CTA backward it enabled):
 * causal 1,208.6 over 1,418.1, not causal 1,359.8 over 1,534.8; query
 * and key head 192 with value head 128 (MLA's shapes; the mean head size
 * 160 the model looks up), PR 2270: causal 971.1 over 1,494.1, not
 * causal 1,072.8 over 1,555.7. Keyed by the mean of the query-key and
 * value head sizes, as the forward rows are. One length only: other
 * lengths take the same ratio, and the figure is flagged extrapolated. */
static const struct {
    double hdim;
    double causal, full;
} bwd_ratio[] = {
    {128, 1208.6 / 1418.1, 1359.8 / 1534.8},
    {160, 971.1 / 1494.1, 1072.8 / 1555.7},
};

static double attn_bwd_ratio(double hdim, bool causal)
{
    size_t best = 0;

    for (size_t i = 1; i < sizeof(bwd_ratio) / sizeof(bwd_ratio[0]); i++)
        if (fabs(log2(bwd_ratio[i].hdim / hdim)) <
            fabs(log2(bwd_ratio[best].hdim / hdim)))
            best = i;
    return causal ? bwd_ratio[best].causal : bwd_ratio[best].full;
}

/* The Grace-Blackwell parts (GB200, GB300) take the GB300's rows, the
 * HGX parts (B200, B300) the B200's, as efficiencies (FLOP/s over the
 * measured GPU's peak) [E: GB200 and B300 not measured]. */
const struct sn_attn_table *sn_kernels_attention(const char *accel)
{
    const char *gen;
    char low[64];
    size_t i;

    sn_kernels_shipped(accel, &gen);
    if (strcmp(gen, "blackwell"))
        return NULL;
    for (i = 0; accel[i] && i + 1 < sizeof(low); i++)
        low[i] = (char)tolower((unsigned char)accel[i]);
    low[i] = '\0';
    return strstr(low, "gb") ? &gb300_attn_table : &b200_attn_table;
}

double sn_kernels_attn_eff(const struct sn_attn_table *t, double seq,
                           double hdim, bool causal, bool backward,
                           enum sn_kernel_fit *fit)
{
    double best_dh = INFINITY, dh = 0;
    double lo_s = 0, lo_e = 0, hi_s = INFINITY, hi_e = 0;
    bool exact_hdim;

    *fit = SN_KFIT_NONE;
    if (!t || !(seq > 0) || !(hdim > 0))
        return 0;
    /* the measured head size nearest hdim (in log2) */
    for (size_t i = 0; i < t->npoints; i++) {
        const struct sn_attn_point *p = &t->points[i];
        double d = fabs(log2(p->hdim / hdim));
        if (p->causal != causal || !((backward ? p->bwd : p->fwd) > 0))
            continue;
        if (d < best_dh) {
            best_dh = d;
            dh = p->hdim;
        }
    }
    if (!(dh > 0)) {
        /* no backward rows: the forward's times the measured ratio */
        double e;
        if (!backward)
            return 0;
        e = sn_kernels_attn_eff(t, seq, hdim, causal, false, fit);
        if (*fit == SN_KFIT_NONE)
            return 0;
        *fit = SN_KFIT_EXTRAPOLATED;
        return e * attn_bwd_ratio(hdim, causal);
    }
    exact_hdim = dh == hdim;
    /* the rows on either side of seq; a shorter sequence the nearest
     * below, a longer one the nearest above */
    for (size_t i = 0; i < t->npoints; i++) {
        const struct sn_attn_point *p = &t->points[i];
        double f = backward ? p->bwd : p->fwd;
        if (p->causal != causal || p->hdim != dh || !(f > 0))
            continue;
        if (p->seq <= seq && p->seq > lo_s) {
            lo_s = p->seq;
            lo_e = f / p->peak;
        }
        if (p->seq >= seq && p->seq < hi_s) {
            hi_s = p->seq;
            hi_e = f / p->peak;
        }
    }
    *fit = exact_hdim ? SN_KFIT_MEASURED : SN_KFIT_EXTRAPOLATED;
    if (lo_s > 0 && hi_s < INFINITY) {
        double w;
        if (hi_s == lo_s)
            return lo_e;
        w = log2(seq / lo_s) / log2(hi_s / lo_s);
        return lo_e + w * (hi_e - lo_e);
    }
    /* outside the measured lengths: the nearest end's efficiency */
    *fit = SN_KFIT_EXTRAPOLATED;
    return lo_s > 0 ? lo_e : hi_e;
}

static const char *const kind_names[SN_KERNEL_KIND_COUNT] = {"gemm", "grouped"};
static const char *const dtype_names[SN_KDT_COUNT] = {"bf16", "fp16", "fp8",
                                                      "fp4", "fp32"};

const char *sn_kernels_kind_name(enum sn_kernel_kind k)
{
    return k >= 0 && k < SN_KERNEL_KIND_COUNT ? kind_names[k] : "?";
}

const char *sn_kernels_dtype_name(enum sn_kernel_dtype d)
{
    return d >= 0 && d < SN_KDT_COUNT ? dtype_names[d] : "?";
}

void sn_kernels_free(struct sn_kernel_table *t)
{
    if (!t)
        return;
    if (t->owned) {
        for (size_t i = 0; i < t->npoints; i++)
            free((char *)t->points[i].source);
        free((void *)t->points);
        free((char *)t->generation);
    }
    free(t);
}

/* ---- the table file ------------------------------------------------------
 * CSV: a header naming the columns kind,dtype,m,n,k,tflops and optionally
 * source, in that order; blank lines and lines starting with '#' are
 * skipped; a source with commas is double-quoted. */

static const char *const columns[] = {"kind", "dtype",  "m",     "n",
                                      "k",    "tflops", "source"};
#define NCOLS 7

/* Splits one line into at most NCOLS fields; col[i] is each field's
 * 1-based column. Returns the count, or -1 on an unterminated quote. */
static int split(char *line, char **field, int *col)
{
    int nf = 0;
    char *p = line;

    while (nf < NCOLS + 1) {
        col[nf] = (int)(p - line) + 1;
        if (*p == '"') {
            char *w = ++p, *r = p;
            for (;;) {
                if (!*r)
                    return -1;
                if (*r == '"' && r[1] == '"') {
                    *w++ = '"';
                    r += 2;
                } else if (*r == '"') {
                    r++;
                    break;
                } else {
                    *w++ = *r++;
                }
            }
            *w = '\0';
            field[nf++] = p;
            p = r;
            if (*p == ',')
                p++;
            else if (*p)
                return -1;
            else
                break;
        } else {
            char *c = strchr(p, ',');
            field[nf++] = p;
            if (!c)
                break;
            *c = '\0';
            p = c + 1;
        }
    }
    for (int i = 0; i < nf; i++) { /* trim */
        char *s = field[i], *e;
        while (*s == ' ' || *s == '\t')
            s++, col[i]++;
        e = s + strlen(s);
        while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            *--e = '\0';
        field[i] = s;
    }
    return nf;
}

static int parse_dim(const char *name, int line, int col, const char *text,
                     double max, double *out, struct sn_error *err)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(text, &end);
    if (end == text || *end || errno || !(v > 0) || v > max)
        return sn_error_at(err, SN_EINPUT, name, line, col,
                           "'%s' is not a number in (0, %g]", text, max);
    *out = v;
    return SN_OK;
}

int sn_kernels_parse(const char *name, const char *text, size_t len,
                     struct sn_kernel_table **out, struct sn_error *err)
{
    struct sn_kernel_table *t = NULL;
    struct sn_kernel_point *pts = NULL;
    size_t n = 0, pos = 0;
    int lineno = 0, rc = SN_OK;
    bool header = false;
    char buf[SN_KERNELS_MAX_LINE + 2];

    *out = NULL;
    while (pos < len) {
        size_t end = pos;
        char *field[NCOLS + 1];
        int col[NCOLS + 1], nf;
        struct sn_kernel_point p;
        int d;

        while (end < len && text[end] != '\n')
            end++;
        lineno++;
        if (end - pos > SN_KERNELS_MAX_LINE) {
            rc = sn_error_at(err, SN_EINPUT, name, lineno, 0,
                             "line longer than %d bytes", SN_KERNELS_MAX_LINE);
            goto out;
        }
        if (memchr(text + pos, '\0', end - pos)) {
            rc = sn_error_at(err, SN_EINPUT, name, lineno, 0,
                             "a NUL byte in the line");
            goto out;
        }
        memcpy(buf, text + pos, end - pos);
        buf[end - pos] = '\0';
        pos = end + 1;
        {
            char *s = buf;
            while (*s == ' ' || *s == '\t' || *s == '\r')
                s++;
            if (!*s || *s == '#')
                continue;
        }
        nf = split(buf, field, col);
        if (nf < 0) {
            rc = sn_error_at(err, SN_EINPUT, name, lineno, 0,
                             "unterminated quoted field");
            goto out;
        }
        if (!header) {
            if (nf < 6 || nf > NCOLS) {
                rc = sn_error_at(err, SN_EINPUT, name, lineno, 1,
                                 "expected the header "
                                 "kind,dtype,m,n,k,tflops[,source]");
                goto out;
            }
            for (int i = 0; i < nf; i++)
                if (strcmp(field[i], columns[i])) {
                    rc = sn_error_at(err, SN_EINPUT, name, lineno, col[i],
                                     "expected column '%s', found '%s'",
                                     columns[i], field[i]);
                    goto out;
                }
            header = true;
            continue;
        }
        if (nf < 6 || nf > NCOLS) {
            rc = sn_error_at(err, SN_EINPUT, name, lineno, 1,
                             "expected 6 or 7 fields, found %d", nf);
            goto out;
        }
        if (n >= SN_KERNELS_MAX_ROWS) {
            rc = sn_error_at(err, SN_EINPUT, name, lineno, 1,
                             "more than %d rows", SN_KERNELS_MAX_ROWS);
            goto out;
        }
        memset(&p, 0, sizeof(p));
        for (d = 0; d < SN_KERNEL_KIND_COUNT; d++)
            if (!strcmp(field[0], kind_names[d]))
                break;
        if (d == SN_KERNEL_KIND_COUNT) {
            rc = sn_error_at(err, SN_EINPUT, name, lineno, col[0],
                             "unknown kind '%s' (expected gemm or grouped)",
                             field[0]);
            goto out;
        }
        p.kind = (enum sn_kernel_kind)d;
        for (d = 0; d < SN_KDT_COUNT; d++)
            if (!strcmp(field[1], dtype_names[d]))
                break;
        if (d == SN_KDT_COUNT) {
            rc = sn_error_at(err, SN_EINPUT, name, lineno, col[1],
                             "unknown dtype '%s' (expected bf16, fp16, fp8, "
                             "fp4 or fp32)",
                             field[1]);
            goto out;
        }
        p.dtype = (enum sn_kernel_dtype)d;
        if ((rc = parse_dim(name, lineno, col[2], field[2], 1e9, &p.m, err)) ||
            (rc = parse_dim(name, lineno, col[3], field[3], 1e9, &p.n, err)) ||
            (rc = parse_dim(name, lineno, col[4], field[4], 1e9, &p.k, err)) ||
            (rc =
                 parse_dim(name, lineno, col[5], field[5], 1e6, &p.flops, err)))
            goto out;
        p.flops *= 1e12;
        p.source = sn_xstrdup(nf > 6 ? field[6] : "");
        pts = sn_xrealloc(pts, (n + 1) * sizeof(*pts));
        pts[n++] = p;
    }
    if (!header) {
        rc = sn_error_at(err, SN_EINPUT, name, lineno ? lineno : 1, 0,
                         "no header kind,dtype,m,n,k,tflops[,source]");
        goto out;
    }
    if (!n) {
        rc = sn_error_at(err, SN_EINPUT, name, lineno, 0, "no kernel rows");
        goto out;
    }
    t = sn_xcalloc(1, sizeof(*t));
    t->generation = sn_xstrdup("measured");
    t->points = pts;
    t->npoints = n;
    t->owned = true;
    pts = NULL;
    *out = t;
out:
    if (pts) {
        for (size_t i = 0; i < n; i++)
            free((char *)pts[i].source);
        free(pts);
    }
    return rc;
}

#define FILE_MAX ((size_t)SN_KERNELS_MAX_ROWS * (SN_KERNELS_MAX_LINE + 1))

int sn_kernels_load(const char *path, struct sn_kernel_table **out,
                    struct sn_error *err)
{
    char *text = NULL;
    size_t len = 0;
    int rc;

    *out = NULL;
    /* the one file reader: a missing file or a directory is bad input,
     * the size capped before reading */
    rc = sn_read_file(path, FILE_MAX, &text, &len, err);
    if (rc)
        return rc;
    if (memchr(text, '\0', len))
        rc = sn_error_at(err, SN_EINPUT, path, 0, 0, "not a text file");
    else
        rc = sn_kernels_parse(path, text, len, out, err);
    free(text);
    return rc;
}

void sn_kernels_format(const struct sn_kernel_table *t, struct sn_buf *b)
{
    sn_buf_printf(b, "kind,dtype,m,n,k,tflops,source\n");
    for (size_t i = 0; i < t->npoints; i++) {
        const struct sn_kernel_point *p = &t->points[i];
        const char *s = p->source ? p->source : "";
        sn_buf_printf(b, "%s,%s,%.0f,%.0f,%.0f,%.6g,\"", kind_names[p->kind],
                      dtype_names[p->dtype], p->m, p->n, p->k, p->flops / 1e12);
        for (; *s; s++)
            sn_buf_printf(b, *s == '"' ? "\"\"" : "%c", *s);
        sn_buf_printf(b, "\"\n");
    }
}
