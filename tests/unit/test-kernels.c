/* test-kernels.c: the kernel efficiency tables: serving's lookup by work
 * per launch, exact on a measured row in order, pooled where rows dip,
 * monotone in each side, the ends held outside the measured work;
 * training's previous lookup (nearest rows in log2 shape) and its table
 * set without the serving-only rows; the table file's format and its
 * located errors; and a training prediction that moves with a loaded
 * table. */
/* covers: bench net workload study */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../src/lib/workload/train-int.h"
#include "harness.h"
#include "sn/bench.h"
#include "sn/kernels.h"
#include "sn/train.h"
#include "train-models.h"

/* Serving's Hopper table (FP8 and BF16 rows) */
static const struct sn_kernel_table *hopper(void)
{
    const char *gen = NULL;
    const struct sn_kernel_table *t =
        sn_kernels_serving("h100-sxm5-80gb", &gen);

    if (!t || strcmp(gen, "hopper")) {
        printf("  no shipped Hopper table\n");
        abort();
    }
    return t;
}

static void test_kernels_exact_on_a_measured_row(void)
{
    enum sn_kernel_fit fit;
    /* DeepGEMM README @55ab91f: M 4096, N 7168, K 16384 at 1426 TFLOPS,
     * the most work of the FP8 GEMM rows */
    double f = sn_kernels_flops(hopper(), SN_KERNEL_GEMM, SN_KDT_FP8, 4096,
                                7168, 16384, &fit);

    CHECK(fit == SN_KFIT_MEASURED);
    CHECK(fabs(f - 1426e12) < 1);
    /* grouped, masked layout: 256 rows an expert, N 4096, K 7168 (932)
     * does the work of 512 x 7168 x 2048 (916): one point, their mean */
    f = sn_kernels_flops(hopper(), SN_KERNEL_GROUPED, SN_KDT_FP8, 256, 4096,
                         7168, &fit);
    CHECK(fit == SN_KFIT_MEASURED);
    CHECK(fabs(f - (932e12 + 916e12) / 2) < 1);
    CHECK(sn_kernels_best(hopper(), SN_KDT_FP8) == 1426e12);
    /* H100 BF16, zzc0721 issue 79: the 2,048 cube at 676.6 */
    f = sn_kernels_flops(hopper(), SN_KERNEL_GEMM, SN_KDT_BF16, 2048, 2048,
                         2048, &fit);
    CHECK(fit == SN_KFIT_MEASURED && fabs(f - 676.6e12) < 1);
    /* no FP16 rows: the caller's own model applies */
    f = sn_kernels_flops(hopper(), SN_KERNEL_GEMM, SN_KDT_FP16, 4096, 4096,
                         4096, &fit);
    CHECK(fit == SN_KFIT_NONE && f == 0);
}

static void test_kernels_interpolate_between_neighbours(void)
{
    enum sn_kernel_fit fit;
    /* 384 rows an expert lies between the 256 (932) and 512 (1040) rows */
    double f = sn_kernels_flops(hopper(), SN_KERNEL_GROUPED, SN_KDT_FP8, 384,
                                4096, 7168, &fit);

    CHECK(fit == SN_KFIT_MEASURED);
    CHECK(f > 932e12 && f < 1040e12);
    /* more rows an expert never slower than fewer, along the measured N
     * and K */
    {
        double prev = 0;
        for (double m = 256; m <= 8192; m *= 1.5) {
            double g = sn_kernels_flops(hopper(), SN_KERNEL_GROUPED, SN_KDT_FP8,
                                        m, 4096, 7168, &fit);
            CHECK(g >= prev);
            prev = g;
        }
    }
}

static void test_kernels_below_the_range_take_the_slowest_neighbour(void)
{
    enum sn_kernel_fit fit;
    /* an expert FFN split four ways, 256 rows: N 1024, 3.8 GFLOP, less
     * work than any grouped row (the least, 256 x 7168 x 2048, 815):
     * that row's rate holds, flagged, never a projection upward */
    double f = sn_kernels_flops(hopper(), SN_KERNEL_GROUPED, SN_KDT_FP8, 256,
                                1024, 7168, &fit);

    CHECK(fit == SN_KFIT_EXTRAPOLATED);
    CHECK(fabs(f - 815e12) < 1);
    /* more work than any row: the largest's (8,192 x 4,096 x 7,168,
     * 1,346), flagged */
    f = sn_kernels_flops(hopper(), SN_KERNEL_GROUPED, SN_KDT_FP8, 16384, 8192,
                         7168, &fit);
    CHECK(fit == SN_KFIT_EXTRAPOLATED);
    CHECK(fabs(f - 1346e12) < 1);
}

/* A table whose rates dip with more work: adjacent violators pooled to
 * their mean, linear in log2(work) elsewhere, the ends held. */
#define DIP                                                                    \
    "kind,dtype,m,n,k,tflops\n"                                                \
    "gemm,bf16,1024,1024,1024,100\n"                                           \
    "gemm,bf16,2048,1024,1024,300\n"                                           \
    "gemm,bf16,2048,2048,1024,200\n"                                           \
    "gemm,bf16,2048,2048,2048,400\n"

static void test_kernels_pool_a_dip_and_hold_the_ends(void)
{
    struct sn_kernel_table *t = NULL;
    struct sn_error err;
    enum sn_kernel_fit fit;
    double f;

    REQUIRE(sn_kernels_parse("dip.csv", DIP, strlen(DIP), &t, &err) == SN_OK);
    /* 300 then 200 at twice the work: both 250 */
    f = sn_kernels_flops(t, SN_KERNEL_GEMM, SN_KDT_BF16, 2048, 1024, 1024,
                         &fit);
    CHECK(fit == SN_KFIT_MEASURED && fabs(f - 250e12) < 1e3);
    f = sn_kernels_flops(t, SN_KERNEL_GEMM, SN_KDT_BF16, 1024, 2048, 2048,
                         &fit);
    CHECK(fit == SN_KFIT_MEASURED && fabs(f - 250e12) < 1e3);
    /* half way in log2(work) between the first two: 175, whichever side
     * carries the work */
    f = sn_kernels_flops(t, SN_KERNEL_GEMM, SN_KDT_BF16, 1448.15, 1024, 1024,
                         &fit);
    CHECK(fabs(f - 175e12) < 0.1e12);
    f = sn_kernels_flops(t, SN_KERNEL_GEMM, SN_KDT_BF16, 1024, 1024, 1448.15,
                         &fit);
    CHECK(fabs(f - 175e12) < 0.1e12);
    /* below and above the measured work: the ends, flagged */
    f = sn_kernels_flops(t, SN_KERNEL_GEMM, SN_KDT_BF16, 512, 1024, 1024, &fit);
    CHECK(fit == SN_KFIT_EXTRAPOLATED && f == 100e12);
    f = sn_kernels_flops(t, SN_KERNEL_GEMM, SN_KDT_BF16, 8192, 8192, 8192,
                         &fit);
    CHECK(fit == SN_KFIT_EXTRAPOLATED && f == 400e12);
    /* inside the work, a side below every row's: flagged */
    f = sn_kernels_flops(t, SN_KERNEL_GEMM, SN_KDT_BF16, 4096, 512, 2048, &fit);
    CHECK(fit == SN_KFIT_EXTRAPOLATED && fabs(f - 250e12) < 1e3);
    sn_kernels_free(t);
}

/* Every shipped table, kind and type, with and without its ridge: more M,
 * N or K is never slower, and the rate stays within the rows' range. */
static void test_kernels_monotone_in_each_side(void)
{
    const char *accels[] = {"h100-sxm5-80gb", "b200"};
    const double ridges[] = {0, 206, 295, 591, 1125};

    for (size_t a = 0; a < 2; a++) {
        const struct sn_kernel_table *t = sn_kernels_serving(accels[a], NULL);
        REQUIRE(t);
        for (int kind = 0; kind < SN_KERNEL_KIND_COUNT; kind++)
            for (int dt = 0; dt < SN_KDT_COUNT; dt++)
                for (size_t r = 0; r < 5; r++) {
                    double lo = 1e30, hi = 0;
                    enum sn_kernel_fit fit;
                    for (size_t i = 0; i < t->npoints; i++)
                        if ((int)t->points[i].kind == kind &&
                            (int)t->points[i].dtype == dt) {
                            lo = fmin(lo, t->points[i].flops);
                            hi = fmax(hi, t->points[i].flops);
                        }
                    if (!(hi > 0))
                        continue;
                    for (double m = 16; m <= 32768; m *= 2.3)
                        for (double n = 256; n <= 65536; n *= 2.7)
                            for (double k = 256; k <= 32768; k *= 3.1) {
                                double f = sn_kernels_rate(t, kind, dt, m, n, k,
                                                           ridges[r], &fit);
                                double fm =
                                    sn_kernels_rate(t, kind, dt, m * 1.7, n, k,
                                                    ridges[r], &fit);
                                double fn =
                                    sn_kernels_rate(t, kind, dt, m, n * 1.7, k,
                                                    ridges[r], &fit);
                                double fk =
                                    sn_kernels_rate(t, kind, dt, m, n, k * 1.7,
                                                    ridges[r], &fit);
                                CHECK(fit != SN_KFIT_NONE);
                                CHECK(f >= lo && f <= hi);
                                CHECK(fm >= f && fn >= f && fk >= f);
                            }
                }
    }
}

/* The H100 BF16 rows: under the H100's ridge (989.4 TFLOP/s over 3.35
 * TB/s) vLLM's M 16-128 rows, the weight's read, leave the curve; a TP8
 * split of a square GEMM (4,096 x 896 x 7,168, 52.6 GFLOP) runs between
 * the 2,048 and 4,096 cubes whose work brackets it, not at the
 * launch-bound 1,024 cube's 176.6; the 8,192 and 10,240 cubes' dip is
 * pooled to their mean. */
static void test_kernels_hopper_bf16_by_work(void)
{
    const struct sn_kernel_table *h = hopper();
    double ridge =
        sn_kernels_ridge(h, SN_KERNEL_GEMM, SN_KDT_BF16, 989.4e12, 3.35e12);
    enum sn_kernel_fit fit;
    double f;

    CHECK(fabs(ridge - 989.4 / 3.35) < 1e-9);
    /* DeepGEMM's absolute rows: the H800's own ridge, whatever the target */
    CHECK(fabs(sn_kernels_ridge(h, SN_KERNEL_GEMM, SN_KDT_FP8, 5000e12, 1e12) -
               1979 / 3.35) < 1e-9);
    f = sn_kernels_rate(h, SN_KERNEL_GEMM, SN_KDT_BF16, 4096, 896, 7168, ridge,
                        &fit);
    CHECK(fit == SN_KFIT_EXTRAPOLATED); /* N below every cube's side */
    CHECK(f > 676.6e12 && f < 788.7e12);
    /* the memory-bound M 128 row is not a compute rate: under the ridge
     * its shape runs at the cubes' curve (16.9 GFLOP, just under the
     * 2,048 cube's 17.2), with it at 352.6 */
    f = sn_kernels_rate(h, SN_KERNEL_GEMM, SN_KDT_BF16, 128, 12288, 5376, ridge,
                        &fit);
    CHECK(f > 600e12 && f < 676.6e12);
    f = sn_kernels_rate(h, SN_KERNEL_GEMM, SN_KDT_BF16, 128, 12288, 5376, 0,
                        &fit);
    CHECK(fabs(f - 352.6e12) < 1);
    f = sn_kernels_rate(h, SN_KERNEL_GEMM, SN_KDT_BF16, 10240, 10240, 10240,
                        ridge, &fit);
    CHECK(fit == SN_KFIT_MEASURED &&
          fabs(f - (788.7e12 + 797.5e12 + 719.7e12) / 3) < 1);
}

/* Training's Hopper table: the FP8 rows, without serving's BF16 ones */
static const struct sn_kernel_table *hopper_training(void)
{
    const char *gen = NULL;
    const struct sn_kernel_table *t =
        sn_kernels_shipped("h100-sxm5-80gb", &gen);

    if (!t || strcmp(gen, "hopper")) {
        printf("  no shipped Hopper training table\n");
        abort();
    }
    return t;
}

/* The BF16 rows are serving's only: training's table is serving's FP8
 * rows, in order, and nothing else; Blackwell's tables are one set. */
static void test_training_table_leaves_the_serving_rows_out(void)
{
    const struct sn_kernel_table *tr = hopper_training(), *sv = hopper();
    size_t bf16 = 0;

    CHECK(tr != sv);
    CHECK(tr->npoints == 28);
    for (size_t i = 0; i < tr->npoints; i++) {
        CHECK(tr->points[i].dtype == SN_KDT_FP8);
        CHECK(tr->points[i].kind == sv->points[i].kind &&
              tr->points[i].m == sv->points[i].m &&
              tr->points[i].n == sv->points[i].n &&
              tr->points[i].k == sv->points[i].k &&
              tr->points[i].flops == sv->points[i].flops);
    }
    for (size_t i = tr->npoints; i < sv->npoints; i++)
        bf16 += sv->points[i].dtype == SN_KDT_BF16;
    CHECK(bf16 == 8 && sv->npoints == tr->npoints + 8);
    CHECK(sn_kernels_best(tr, SN_KDT_BF16) == 0);
    CHECK(sn_kernels_reference() == tr);
    CHECK(sn_kernels_shipped("b200", NULL) == sn_kernels_serving("b200", NULL));
    CHECK(!sn_kernels_shipped("a100-sxm4-80gb", NULL) &&
          !sn_kernels_serving("a100-sxm4-80gb", NULL));
}

/* Training's lookup, the previous rule: exact on a row, where the lookup
 * by work per launch merges rows of equal work (256 x 4096 x 7168 at 932
 * and 512 x 7168 x 2048 at 916 become 924) */
static void test_nearest_exact_on_a_measured_row(void)
{
    enum sn_kernel_fit fit;
    double f = sn__kernels_nearest(hopper_training(), SN_KERNEL_GEMM,
                                   SN_KDT_FP8, 4096, 7168, 16384, &fit);

    CHECK(fit == SN_KFIT_MEASURED);
    CHECK(fabs(f - 1426e12) < 1);
    f = sn__kernels_nearest(hopper_training(), SN_KERNEL_GROUPED, SN_KDT_FP8,
                            256, 4096, 7168, &fit);
    CHECK(fit == SN_KFIT_MEASURED);
    CHECK(fabs(f - 932e12) < 1);
    /* no BF16 rows in training's table: the caller's own model applies */
    f = sn__kernels_nearest(hopper_training(), SN_KERNEL_GEMM, SN_KDT_BF16,
                            4096, 4096, 4096, &fit);
    CHECK(fit == SN_KFIT_NONE && f == 0);
}

static void test_nearest_between_neighbours(void)
{
    enum sn_kernel_fit fit;
    /* 384 rows an expert lies between the 256 (932) and 512 (1040) rows */
    double f = sn__kernels_nearest(hopper_training(), SN_KERNEL_GROUPED,
                                   SN_KDT_FP8, 384, 4096, 7168, &fit);

    CHECK(fit == SN_KFIT_MEASURED);
    CHECK(f > 932e12 && f < 1040e12);
    {
        double prev = 0;
        for (double m = 256; m <= 8192; m *= 1.5) {
            double g = sn__kernels_nearest(hopper_training(), SN_KERNEL_GROUPED,
                                           SN_KDT_FP8, m, 4096, 7168, &fit);
            CHECK(g >= prev * 0.98);
            prev = g;
        }
    }
}

/* Below every measured N: the lowest of the four nearest rows, never a
 * projection upward (the rule that slows the search's pessimistic bound
 * for small shapes) */
static void test_nearest_below_the_range_takes_the_slowest_neighbour(void)
{
    enum sn_kernel_fit fit;
    /* an expert FFN split four ways: N 1024, below every measured N */
    double f = sn__kernels_nearest(hopper_training(), SN_KERNEL_GROUPED,
                                   SN_KDT_FP8, 256, 1024, 7168, &fit);
    double low = 1e30;

    CHECK(fit == SN_KFIT_EXTRAPOLATED);
    for (size_t i = 0; i < hopper_training()->npoints; i++)
        if (hopper_training()->points[i].kind == SN_KERNEL_GROUPED)
            low = fmin(low, hopper_training()->points[i].flops);
    CHECK(f <= 932e12);
    CHECK(f >= low);
    /* DeepGEMM's M 64 GEMM rows are inside the FP8 set: a 64-row GEMM at
     * N 1024, K 7168 takes the slowest of its neighbours, at most the M 64
     * row at N 2112 (206), where the work rule holds the least-work end */
    f = sn__kernels_nearest(hopper_training(), SN_KERNEL_GEMM, SN_KDT_FP8, 64,
                            1024, 7168, &fit);
    CHECK(fit == SN_KFIT_EXTRAPOLATED && f <= 206e12);
}

#define GOOD                                                                   \
    "# a measured table\n"                                                     \
    "kind,dtype,m,n,k,tflops,source\n"                                         \
    "gemm,bf16,4096,4096,4096,600,\"cuBLAS, bench kernels\"\n"                 \
    "grouped,fp8,256,4096,7168,900,\n"

static void test_kernels_file_parses_and_round_trips(void)
{
    struct sn_kernel_table *t = NULL, *u = NULL;
    struct sn_error err;
    char buf[4096];
    struct sn_buf b = SN_BUF_INIT;
    size_t n;

    REQUIRE(sn_kernels_parse("k.csv", GOOD, strlen(GOOD), &t, &err) == SN_OK);
    REQUIRE(t->npoints == 2);
    CHECK(t->points[0].kind == SN_KERNEL_GEMM);
    CHECK(t->points[0].dtype == SN_KDT_BF16);
    CHECK(t->points[0].flops == 600e12);
    CHECK(!strcmp(t->points[0].source, "cuBLAS, bench kernels"));
    CHECK(t->points[1].kind == SN_KERNEL_GROUPED && t->points[1].m == 256);
    sn_kernels_format(t, &b);
    REQUIRE(b.len < sizeof(buf));
    memcpy(buf, b.data, b.len);
    n = b.len;
    sn_buf_release(&b);
    buf[n] = '\0';
    REQUIRE(sn_kernels_parse("w.csv", buf, n, &u, &err) == SN_OK);
    REQUIRE(u->npoints == 2);
    CHECK(u->points[1].flops == t->points[1].flops);
    CHECK(!strcmp(u->points[0].source, t->points[0].source));
    sn_kernels_free(t);
    sn_kernels_free(u);
}

static void expect_error(const char *text, const char *want)
{
    struct sn_kernel_table *t = NULL;
    struct sn_error err;

    CHECK(sn_kernels_parse("k.csv", text, strlen(text), &t, &err) == SN_EINPUT);
    CHECK(t == NULL);
    if (!strstr(err.msg, want)) {
        printf("  got '%s', want '%s'\n", err.msg, want);
        CHECK(0);
    }
}

static void test_kernels_file_errors_are_located(void)
{
    expect_error("kind,dtype,m,n,k,tflops\ngemm,bf16,1,2,3,4\nconv,bf16,1,2,3,4"
                 "\n",
                 "k.csv:3:1: unknown kind 'conv'");
    expect_error("kind,dtype,m,n,k,tflops\ngemm,int8,1,2,3,4\n",
                 "k.csv:2:6: unknown dtype 'int8'");
    expect_error("kind,dtype,m,n,k,tflops\ngemm,bf16,1,x,3,4\n",
                 "k.csv:2:13: 'x' is not a number");
    expect_error("kind,dtype,m,n,k,tflops\ngemm,bf16,1,2,3,-4\n",
                 "k.csv:2:17: '-4' is not a number");
    expect_error("kind,dtype,m,nn,k,tflops\n",
                 "k.csv:1:14: expected column 'n'");
    expect_error("kind,dtype,m,n,k,tflops\n", "k.csv:1: no kernel rows");
    expect_error("kind,dtype,m,n,k,tflops\ngemm,bf16,1,2\n",
                 "k.csv:2:1: expected 6 or 7 fields, found 4");
    {
        /* capped: one row more than SN_KERNELS_MAX_ROWS */
        size_t cap = 32 + (SN_KERNELS_MAX_ROWS + 1) * 24;
        char *big = sn_xmalloc(cap);
        size_t len = (size_t)snprintf(big, cap, "kind,dtype,m,n,k,tflops\n");
        for (int i = 0; i <= SN_KERNELS_MAX_ROWS; i++)
            len += (size_t)snprintf(big + len, cap - len,
                                    "gemm,bf16,%d,64,64,1\n", i + 1);
        expect_error(big, "more than 4096 rows");
        free(big);
    }
}

static int free_comm(void *ctx, enum sn_coll_op op, const struct sn_group *g,
                     uint32_t siblings, double bytes, double *sec,
                     struct sn_error *err)
{
    (void)ctx, (void)op, (void)g, (void)siblings, (void)bytes, (void)err;
    *sec = 0;
    return SN_OK;
}

/* The forward time of GPT-18.4B, TP 8, on an accelerator with no shipped
 * table, with a loaded one-row table of `tflops` (every GEMM at that rate,
 * or 0: no table). */
static double forward(double tflops, bool *extrapolated)
{
    char text[256];
    struct sn_kernel_table *tab = NULL;
    struct sn_train_system sys = {0};
    struct sn_train *t = NULL;
    struct sn_train_opts o;
    struct sn_train_result r;
    struct sn_error err;
    struct sn_train_layout l = {.tp = 8,
                                .pp = 1,
                                .dp = 1,
                                .cp = 1,
                                .ep = 1,
                                .vpp = 1,
                                .mbs = 1,
                                .gbs = 8,
                                .seq = 2048,
                                .recompute = SN_RECOMPUTE_NONE,
                                .sp = true,
                                .dtype = SN_DTYPE_BF16};

    if (tflops > 0) {
        snprintf(text, sizeof(text),
                 "kind,dtype,m,n,k,tflops\ngemm,bf16,4096,4096,4096,%g\n",
                 tflops);
        if (sn_kernels_parse("t.csv", text, strlen(text), &tab, &err))
            return -1;
    }
    sys.name = "test";
    sys.accel = "test-accel";
    sys.flops = 989e12;
    sys.hbm_bytes = 80e9;
    sys.hbm_bw = 3.35e12;
    sys.accels = 8;
    sys.domain = 8;
    sn_train_calib_for("h100", &sys.calib);
    sys.comm.time = free_comm;
    sys.kernels = tab;
    sn_train_opts_default(&o);
    if (sn_train_new(&tm_gpt_1_7b, &sys, &t, &err) ||
        sn_train_predict(t, &l, &o, &r, &err)) {
        printf("  %s\n", err.msg);
        r.part[SN_PART_FORWARD] = -1;
    }
    *extrapolated = r.kernels_extrapolated;
    sn_train_free(t);
    sn_kernels_free(tab);
    return r.part[SN_PART_FORWARD];
}

static void test_prediction_moves_with_the_loaded_table(void)
{
    bool x0, x1, x2, x4;
    double none = forward(0, &x0);
    /* 100 TFLOP/s: every GEMM of the layout compute-bound (its HBM time
     * at 3.35 TB/s is under a tenth of this) */
    double f1 = forward(100, &x1), f2 = forward(50, &x2), f4 = forward(25, &x4);
    double g1 = f2 - f1, g2 = f4 - f2;

    REQUIRE(none > 0 && f1 > 0 && f2 > 0 && f4 > 0);
    CHECK(x0);        /* no table: the calibrated rate, flagged */
    CHECK(f1 > none); /* 100 TFLOP/s is far below the calibrated rate */
    /* halving the table's rate doubles the GEMM time: the forward's GEMM
     * share at 100 is f2 - f1, at 50 it is twice that */
    printf("  forward %.4f / %.4f / %.4f s at 100 / 50 / 25 TFLOP/s\n", f1, f2,
           f4);
    CHECK(g1 > 0);
    CHECK(fabs(g2 / g1 - 2) < 1e-9);
    CHECK(f1 - g1 > 0); /* the rest: attention, norms, activations */
}

/* bench kernels on the cpu backend: a row per reference shape, scaled,
 * at a positive rate, in the file sim train --kernels reads; options out
 * of range refused. */
static void test_bench_kernels_cpu_writes_a_readable_table(void)
{
    struct sn_bench_kernels_opts o;
    struct sn_kernel_table *t = NULL, *u = NULL;
    struct sn_buf b = SN_BUF_INIT;
    struct sn_error err;
    const struct sn_kernel_table *ref = sn_kernels_reference();

    sn_bench_kernels_opts_init(&o);
    o.scale = 64;
    o.iters = 1;
    REQUIRE(sn_bench_kernels(&o, &t, &err) == SN_OK);
    REQUIRE(t->npoints == ref->npoints);
    for (size_t i = 0; i < t->npoints; i++) {
        CHECK(t->points[i].flops > 0);
        CHECK(t->points[i].dtype == SN_KDT_FP32);
        CHECK(t->points[i].kind == ref->points[i].kind);
        CHECK(t->points[i].n == fmax(16, ceil(ref->points[i].n / 64)));
    }
    sn_kernels_format(t, &b);
    REQUIRE(sn_kernels_parse("cpu.csv", b.data, b.len, &u, &err) == SN_OK);
    CHECK(u->npoints == t->npoints);
    CHECK(fabs(u->points[3].flops / t->points[3].flops - 1) < 1e-5);
    sn_buf_release(&b);
    sn_kernels_free(t);
    sn_kernels_free(u);
    o.scale = 0;
    CHECK(sn_bench_kernels(&o, &t, &err) == SN_EINPUT && !t);
    o.scale = 8;
    o.backend = SN_BENCH_CUDA;
    CHECK(sn_bench_kernels(&o, &t, &err) == SN_ENOTSUP && !t);
}

/* Blackwell's tables: a measured row returns the source's figure, and the
 * attention efficiency is the source's FLOP/s over the B200's peak. */
static void test_blackwell_rows_are_the_sources_figures(void)
{
    const char *gen = NULL;
    const struct sn_kernel_table *b = sn_kernels_shipped("gb200-nvl72", &gen);
    const struct sn_attn_table *a = sn_kernels_attention("b200");
    enum sn_kernel_fit fit;
    double f, e;

    REQUIRE(b && gen && !strcmp(gen, "blackwell"));
    /* pytorch/ao PR 2427: torch.bfloat16 at 2048^3, 1.13e15; from 3,072
     * up the plateau's dips (1,510, 1,410, 1,450, 1,420) pool to their
     * mean */
    f = sn_kernels_flops(b, SN_KERNEL_GEMM, SN_KDT_BF16, 2048, 2048, 2048,
                         &fit);
    CHECK(fit == SN_KFIT_MEASURED && f == 1130e12);
    f = sn_kernels_flops(b, SN_KERNEL_GEMM, SN_KDT_BF16, 8192, 8192, 8192,
                         &fit);
    CHECK(fit == SN_KFIT_MEASURED &&
          fabs(f - (1510e12 + 1410e12 + 1450e12 + 1420e12) / 4) < 1);
    /* DeepGEMM PR 348, cuBLASLt MXFP4 at 8192^3: 5,239 */
    f = sn_kernels_flops(b, SN_KERNEL_GEMM, SN_KDT_FP4, 8192, 8192, 8192, &fit);
    CHECK(fit == SN_KFIT_MEASURED && f == 5239e12);
    /* no FP8 rows were published with shapes: the caller's own model */
    f = sn_kernels_flops(b, SN_KERNEL_GEMM, SN_KDT_FP8, 8192, 8192, 8192, &fit);
    CHECK(fit == SN_KFIT_NONE && f == 0);
    /* the B200 rows are shares of the B200's peaks (they scale to a
     * GB200's); DeepGEMM's H800 rows are absolute */
    CHECK(sn_kernels_peak(b, SN_KERNEL_GEMM, SN_KDT_BF16) == 2250e12);
    CHECK(sn_kernels_peak(b, SN_KERNEL_GEMM, SN_KDT_FP4) == 9000e12);
    CHECK(sn_kernels_peak(hopper(), SN_KERNEL_GEMM, SN_KDT_FP8) == 0);
    REQUIRE(a);
    CHECK(!sn_kernels_attention("h100-sxm5-80gb"));
    /* FlashAttention PR 2605, the B200 table: causal, head size 128,
     * 4,096 tokens, 1,062 TFLOP/s on a B200 of 2,250 dense BF16 */
    e = sn_kernels_attn_eff(a, 4096, 128, true, false, &fit);
    CHECK(fit == SN_KFIT_MEASURED && fabs(e - 1062.0 / 2250) < 1e-12);
    /* the GB300 table for the Grace-Blackwell parts: 1,431 of 2,500 */
    e = sn_kernels_attn_eff(sn_kernels_attention("gb200-nvl72"), 4096, 128,
                            true, false, &fit);
    CHECK(fit == SN_KFIT_MEASURED && fabs(e - 1431.0 / 2500) < 1e-12);
    /* beyond the longest measured length: the nearest end's, flagged */
    e = sn_kernels_attn_eff(a, 8192, 128, true, false, &fit);
    CHECK(fit == SN_KFIT_EXTRAPOLATED && fabs(e - 1062.0 / 2250) < 1e-12);
    /* no backward was published with its GPU: the forward row times
     * FlashAttention PR 2280's causal backward/forward ratio at head size
     * 128 (1,208.6 / 1,418.1), flagged */
    e = sn_kernels_attn_eff(a, 4096, 128, true, true, &fit);
    CHECK(fit == SN_KFIT_EXTRAPOLATED &&
          fabs(e - 1062.0 / 2250 * 1208.6 / 1418.1) < 1e-12);
    /* MLA's 192/128 heads (mean 160): PR 2270's ratio, 971.1 / 1,494.1,
     * on the head-128 forward rows; the backward slower than the forward */
    e = sn_kernels_attn_eff(a, 4096, 160, true, true, &fit);
    CHECK(fit == SN_KFIT_EXTRAPOLATED &&
          fabs(e - 1062.0 / 2250 * 971.1 / 1494.1) < 1e-12);
    e = sn_kernels_attn_eff(a, 4096, 128, false, true, &fit);
    CHECK(fit == SN_KFIT_EXTRAPOLATED &&
          fabs(e - 1256.0 / 2250 * 1359.8 / 1534.8) < 1e-12);
    /* no table: none */
    e = sn_kernels_attn_eff(NULL, 4096, 128, true, true, &fit);
    CHECK(fit == SN_KFIT_NONE && e == 0);
    /* another head size: the nearest measured one's rows, flagged */
    e = sn_kernels_attn_eff(a, 4096, 160, true, false, &fit);
    CHECK(fit == SN_KFIT_EXTRAPOLATED && fabs(e - 1062.0 / 2250) < 1e-12);
}

/* Between two measured rows the lookup stays between them and moves one
 * way (GEMM: BF16 cubes 1,536 and 2,048; attention: 1,024 and 2,048
 * tokens); a short sequence runs slower per FLOP than a long one. */
static void test_interpolation_is_monotone_and_short_attention_slower(void)
{
    const struct sn_kernel_table *b = sn_kernels_shipped("b200", NULL);
    const struct sn_attn_table *a = sn_kernels_attention("b200");
    enum sn_kernel_fit fit;
    double prev = 0, e1, e8;

    REQUIRE(b && a);
    for (double m = 1536; m <= 2048; m += 64) {
        double f =
            sn_kernels_flops(b, SN_KERNEL_GEMM, SN_KDT_BF16, m, m, m, &fit);
        CHECK(fit == SN_KFIT_MEASURED);
        CHECK(f >= 921e12 && f <= 1130e12);
        CHECK(f >= prev);
        prev = f;
    }
    prev = 0;
    for (double s = 1024; s <= 2048; s += 128) {
        double e = sn_kernels_attn_eff(a, s, 128, true, false, &fit);
        CHECK(fit == SN_KFIT_MEASURED);
        CHECK(e >= 660.0 / 2250 && e <= 899.0 / 2250);
        CHECK(e > prev);
        prev = e;
    }
    e1 = sn_kernels_attn_eff(a, 1024, 128, true, false, &fit);
    e8 = sn_kernels_attn_eff(a, 4096, 128, true, false, &fit);
    CHECK(e1 < 0.7 * e8);
}

/* A B200 training step whose GEMMs the Blackwell BF16 rows cover (at
 * least 1,024 a side, no launch above the 8,192 cube's work: GPT-1.7B)
 * is no longer extrapolated when its attention runs
 * as GEMMs; with fused attention it is, the backward having no table;
 * on an accelerator without tables it always is. */
static double b200_forward(const char *accel, bool flash, bool *x)
{
    struct sn_train_system sys = {0};
    struct sn_train *t = NULL;
    struct sn_train_opts o;
    struct sn_train_result r;
    struct sn_error err;
    struct sn_train_layout l = {.tp = 1,
                                .pp = 1,
                                .dp = 1,
                                .cp = 1,
                                .ep = 1,
                                .vpp = 1,
                                .mbs = 1,
                                .gbs = 1,
                                .seq = 4096,
                                .recompute = SN_RECOMPUTE_NONE,
                                .sp = false,
                                .dtype = SN_DTYPE_BF16};

    sys.name = "test";
    sys.accel = accel;
    sys.flops = 2250e12;
    sys.hbm_bytes = 180e9;
    sys.hbm_bw = 8e12;
    sys.accels = 1;
    sys.domain = 8;
    sn_train_calib_for(accel, &sys.calib);
    sys.comm.time = free_comm;
    sn_train_opts_default(&o);
    o.flash_attention = flash;
    if (sn_train_new(&tm_gpt_1_7b, &sys, &t, &err) ||
        sn_train_predict(t, &l, &o, &r, &err)) {
        printf("  %s\n", err.msg);
        r.part[SN_PART_FORWARD] = -1;
    }
    *x = r.kernels_extrapolated;
    sn_train_free(t);
    return r.part[SN_PART_FORWARD];
}

static void test_a_b200_step_uses_blackwell_tables(void)
{
    bool xb, xf, xo;
    double fb = b200_forward("b200-sxm", false, &xb);
    double ff = b200_forward("b200-sxm", true, &xf);
    double fo = b200_forward("test-accel", false, &xo);

    REQUIRE(fb > 0 && ff > 0 && fo > 0);
    CHECK(!xb);
    CHECK(xf);
    CHECK(xo);
}

static const struct sn_test cases[] = {
    T(test_bench_kernels_cpu_writes_a_readable_table),
    T(test_kernels_exact_on_a_measured_row),
    T(test_kernels_interpolate_between_neighbours),
    T(test_kernels_below_the_range_take_the_slowest_neighbour),
    T(test_kernels_pool_a_dip_and_hold_the_ends),
    T(test_kernels_monotone_in_each_side),
    T(test_kernels_hopper_bf16_by_work),
    T(test_training_table_leaves_the_serving_rows_out),
    T(test_nearest_exact_on_a_measured_row),
    T(test_nearest_between_neighbours),
    T(test_nearest_below_the_range_takes_the_slowest_neighbour),
    T(test_kernels_file_parses_and_round_trips),
    T(test_kernels_file_errors_are_located),
    T(test_prediction_moves_with_the_loaded_table),
    T(test_blackwell_rows_are_the_sources_figures),
    T(test_interpolation_is_monotone_and_short_attention_slower),
    T(test_a_b200_step_uses_blackwell_tables),
};

SN_TEST_MAIN(cases)
