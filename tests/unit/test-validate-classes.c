/* test-validate-classes.c: the per-class gates of issues 27 and 28 on the
 * public sets (tests/fixtures/validation/{training,moe-training,
 * inference}-public.csv), through validate's classes, and the
 * leave-one-source-out bands. A class that misses a target today is
 * listed in `known` with its figure: the test fails when a class not
 * listed misses a target, and when a listed one now meets it (then the
 * entry goes), so the list only shrinks, in the open. */
/* covers: net workload study spec */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "sn/model.h"

#define TRAIN_CSV "tests/fixtures/validation/training-public.csv"
#define MOE_CSV "tests/fixtures/validation/moe-training-public.csv"
#define INFER_CSV "tests/fixtures/validation/inference-public.csv"

/* The targets. Training (issue 27): median at most 8% for dense, 12% for
 * MoE (and for the classes of the other dimensions, which mix both: the
 * looser), P90 at most 25%, signed mean within +-10%. Serving (issue
 * 28): median 15%, P90 35%, signed mean +-15%. Both: a class of three
 * or more rows that are all optimistic fails whatever its median (with
 * one or two rows the direction is not established). */
#define TRAIN_MEDIAN_DENSE 8.0
#define TRAIN_MEDIAN 12.0
#define TRAIN_P90 25.0
#define TRAIN_SIGNED 10.0
#define INFER_MEDIAN 15.0
#define INFER_P90 35.0
#define INFER_SIGNED 15.0
#define ALL_OPTIMISTIC_MIN_ROWS 3

enum gate { G_MEDIAN, G_P90, G_SIGNED, G_ALL_OPTIMISTIC };
static const char *const gate_names[] = {"median", "p90", "signed",
                                         "all-optimistic"};

/* Classes that miss a target today, with the figure they had when
 * listed (percent; the share for all-optimistic). Remove an entry when
 * its class meets the target; never add one to make the test pass
 * without saying why in the commit. */
struct known {
    const char *kind, *dim, *cls;
    enum gate gate;
    double figure;
};

static const struct known known[] = {
    {"train", "arch", "moe", G_P90, 43.10},
    {"train", "arch", "moe", G_SIGNED, 14.48},
    {"train", "generation", "blackwell", G_P90, 38.51},
    {"train", "generation", "hopper", G_P90, 27.00},
    {"train", "generation", "hopper", G_SIGNED, 13.28},
    {"train", "software", "deepspeed", G_MEDIAN, 63.42},
    {"train", "software", "deepspeed", G_P90, 112.53},
    {"train", "software", "deepspeed", G_SIGNED, 69.40},
    {"train", "software", "deepspeed", G_ALL_OPTIMISTIC, 1.00},
    {"train", "software", "megatron-bridge", G_P90, 38.16},
    {"train", "software", "megatron-core", G_P90, 27.00},
    {"train", "software", "megatron-core", G_SIGNED, 13.28},
    {"train", "software", "torchtitan", G_MEDIAN, 38.51},
    {"train", "software", "torchtitan", G_P90, 38.51},
    {"train", "software", "torchtitan", G_SIGNED, 38.51},
    {"train", "host", "grace", G_P90, 39.37},
    {"train", "host", "x86", G_SIGNED, 10.23},
    /* the dense Hopper FP8 rows (Llama 3.1 405B, Llama 3.3 70B on
     * H200) went from +1..+8% to -14..-32% when the GEMMs took the
     * DeepGEMM table's rates by shape: below its compute-bound M 4,096
     * rows a GEMM gets the lowest of the nearest rows, under the
     * calibrated large-GEMM rate (docs/model.md, "Serving GEMMs by
     * shape") */
    /* small models: 28.1% before the GEMMs were timed by shape, 16.6%
     * after (the Hopper MoE rows' experts at their grouped rates) */
    {"infer", "size", "small", G_MEDIAN, 16.72},
    {"infer", "size", "small", G_P90, 53.71},
    /* large models' tail: the dense H200 FP8 rows below the DeepGEMM
     * table's compute-bound rows take its slowest neighbour (docs/model.md,
     * "Serving GEMMs by shape"): pessimistic, -15..-43% */
    {"infer", "generation", "blackwell", G_P90, 42.74},
    {"infer", "runtime", "tensorrt-llm", G_P90, 43.41}, /* the same rows */
    {"infer", "host", "x86", G_P90, 43.41},
};

static struct sn_validate_report reps[3];
static bool loaded;

static bool load(void)
{
    const char *files[] = {TRAIN_CSV, MOE_CSV, INFER_CSV};
    struct sn_error err;

    if (loaded)
        return true;
    for (int f = 0; f < 3; f++) {
        char *text = NULL;
        size_t len = 0;
        if (sn_read_file(files[f], SN_FILE_MAX, &text, &len, &err) ||
            sn_validate_csv(files[f], text, len, &reps[f], &err)) {
            printf("  %s\n", err.msg);
            free(text);
            return false;
        }
        free(text);
    }
    loaded = true;
    return true;
}

/* The classes of the two training files together, or of the serving
 * file; *rows set to the row pointers (caller frees both). */
static struct sn_validate_class *classes_of(bool serving, size_t *n,
                                            struct sn_validate_row ***rows,
                                            size_t *nrows)
{
    struct sn_validate_class *cls = NULL;
    size_t k = 0, total = 0;
    int lo = serving ? 2 : 0, hi = serving ? 3 : 2;

    for (int f = lo; f < hi; f++)
        total += reps[f].nrows;
    *rows = calloc(total ? total : 1, sizeof(**rows));
    for (int f = lo; f < hi; f++)
        for (size_t i = 0; i < reps[f].nrows; i++)
            (*rows)[k++] = &reps[f].rows[i];
    sn_validate_classify(*rows, k, &cls, n);
    *nrows = k;
    return cls;
}

/* Whether class c meets gate g; its figure in *figure. */
static bool meets(bool serving, const struct sn_validate_class *c, enum gate g,
                  double *figure)
{
    const struct sn_validate_stats *st = &c->st;

    switch (g) {
    case G_MEDIAN:
        *figure = st->median_abs_pct;
        if (serving)
            return *figure <= INFER_MEDIAN;
        return *figure <= (c->dim == SN_VDIM_ARCH && !strcmp(c->name, "dense")
                               ? TRAIN_MEDIAN_DENSE
                               : TRAIN_MEDIAN);
    case G_P90:
        *figure = st->p90_abs_pct;
        return *figure <= (serving ? INFER_P90 : TRAIN_P90);
    case G_SIGNED:
        *figure = st->signed_mean_pct;
        return fabs(*figure) <= (serving ? INFER_SIGNED : TRAIN_SIGNED);
    case G_ALL_OPTIMISTIC:
        *figure = st->optimistic_share;
        return st->n < ALL_OPTIMISTIC_MIN_ROWS || st->optimistic_share < 1;
    }
    return false;
}

static const struct known *
listed(const char *kind, const struct sn_validate_class *c, enum gate g)
{
    for (size_t i = 0; i < SN_ARRAY_LEN(known); i++)
        if (!strcmp(known[i].kind, kind) &&
            !strcmp(known[i].dim, c->dim_name) &&
            !strcmp(known[i].cls, c->name) && known[i].gate == g)
            return &known[i];
    return NULL;
}

/* The ratchet for one kind: a miss not listed fails, a listed class
 * that meets its target fails, a listed class that is gone fails. */
static void ratchet(bool serving)
{
    const char *kind = serving ? "infer" : "train";
    struct sn_validate_row **rows;
    size_t n, nrows;
    struct sn_validate_class *cls;

    REQUIRE(load());
    cls = classes_of(serving, &n, &rows, &nrows);
    CHECK(n > 0);
    for (size_t c = 0; c < n; c++) {
        for (int g = G_MEDIAN; g <= G_ALL_OPTIMISTIC; g++) {
            double fig;
            bool ok = meets(serving, &cls[c], (enum gate)g, &fig);
            const struct known *k = listed(kind, &cls[c], (enum gate)g);
            if (!ok && !k)
                printf("  new miss: {\"%s\", \"%s\", \"%s\", %s, %.2f} "
                       "(%zu rows)\n",
                       kind, cls[c].dim_name, cls[c].name,
                       g == G_MEDIAN   ? "G_MEDIAN"
                       : g == G_P90    ? "G_P90"
                       : g == G_SIGNED ? "G_SIGNED"
                                       : "G_ALL_OPTIMISTIC",
                       fig, cls[c].st.n);
            if (ok && k)
                printf("  %s %s %s now meets its %s target (%.2f, listed "
                       "%.2f): remove it from known\n",
                       kind, cls[c].dim_name, cls[c].name, gate_names[g], fig,
                       k->figure);
            /* a listed figure that moved: said, not failed (the model
             * is being worked on; the entry's figure is updated when
             * the list is next touched) */
            if (k && !ok && fabs(fig - k->figure) > 0.005)
                printf("  note: %s %s %s %s now %.2f (listed %.2f)\n", kind,
                       cls[c].dim_name, cls[c].name, gate_names[g], fig,
                       k->figure);
            CHECK(ok || k);
            CHECK(!(ok && k));
        }
    }
    /* an entry whose class no longer exists is stale */
    for (size_t i = 0; i < SN_ARRAY_LEN(known); i++) {
        bool found = false;
        if (strcmp(known[i].kind, kind))
            continue;
        for (size_t c = 0; c < n && !found; c++)
            found = !strcmp(known[i].dim, cls[c].dim_name) &&
                    !strcmp(known[i].cls, cls[c].name);
        if (!found)
            printf("  known entry %s %s %s: no such class\n", known[i].kind,
                   known[i].dim, known[i].cls);
        CHECK(found);
    }
    free(cls);
    free(rows);
}

static void test_training_classes_meet_targets_or_are_listed(void)
{
    ratchet(false);
}

static void test_serving_classes_meet_targets_or_are_listed(void)
{
    ratchet(true);
}

/* The gates themselves: a class of rows all optimistic fails with a
 * small median; one within every target passes; the signed mean counts
 * a time metric's sign the other way (a shorter predicted time is
 * optimistic). */
static void test_all_optimistic_class_fails_with_small_median(void)
{
    struct sn_validate_row r[4];
    struct sn_validate_row *p[4];
    struct sn_validate_class *cls = NULL;
    size_t n = 0;
    double fig;

    memset(r, 0, sizeof(r));
    for (int i = 0; i < 4; i++) {
        r[i].source = i < 2 ? "A et al. 2024" : "B et al. 2025";
        r[i].model = "m";
        r[i].notes = "";
        r[i].parallel = "";
        snprintf(r[i].accel, sizeof(r[i].accel), "h100-sxm5-80gb");
        r[i].predicted_ok = true;
        r[i].measured = 100;
        r[i].predicted = 101 + i; /* +1..+4%: all optimistic */
        r[i].error_pct = r[i].predicted - 100;
        p[i] = &r[i];
    }
    sn_validate_classify(p, 4, &cls, &n);
    REQUIRE(n == SN_VDIM_COUNT); /* one class per dimension */
    CHECK_STR(cls[0].name, "dense");
    CHECK_STR(cls[1].name, "hopper");
    CHECK_NEAR(cls[0].st.median_abs_pct, 2.5, 1e-9);
    CHECK_NEAR(cls[0].st.signed_mean_pct, 2.5, 1e-9);
    CHECK_NEAR(cls[0].st.optimistic_share, 1.0, 1e-12);
    CHECK(cls[0].st.sources == 2);
    CHECK(meets(false, &cls[0], G_MEDIAN, &fig));
    CHECK(meets(false, &cls[0], G_SIGNED, &fig));
    CHECK(!meets(false, &cls[0], G_ALL_OPTIMISTIC, &fig));
    free(cls);

    /* the same as step times: a predicted time above the measured one
     * is pessimistic, so the signed mean turns negative */
    for (int i = 0; i < 4; i++)
        r[i].lower_better = true;
    sn_validate_classify(p, 4, &cls, &n);
    CHECK_NEAR(cls[0].st.signed_mean_pct, -2.5, 1e-9);
    CHECK(cls[0].st.optimistic_share == 0);
    CHECK(meets(false, &cls[0], G_ALL_OPTIMISTIC, &fig));
    free(cls);
}

/* A row's leave-one-source-out band never holds its own source's rows:
 * one source far off its class, the others near; its band comes from
 * the others only, and theirs (which include it) are wider. */
static void test_loso_band_leaves_own_source_out(void)
{
    struct sn_validate_row r[9];
    struct sn_validate_row *p[9];
    struct sn_validate_class *cls = NULL;
    static const char *const src[] = {"A x y", "A x y", "A x y",
                                      "B x y", "B x y", "B x y",
                                      "C x y", "C x y", "C x y"};
    size_t n = 0;

    memset(r, 0, sizeof(r));
    for (int i = 0; i < 9; i++) {
        r[i].source = src[i];
        r[i].notes = "";
        r[i].parallel = "";
        snprintf(r[i].accel, sizeof(r[i].accel), "b200-hgx");
        r[i].moe = true;
        r[i].predicted_ok = true;
        r[i].measured = 100;
        /* source A: predicted 2x (ratio 0.5); B and C: ratio about 1 */
        r[i].predicted = i < 3 ? 200 : 99 + i % 3;
        r[i].error_pct = (r[i].predicted - 100);
        p[i] = &r[i];
    }
    sn_validate_classify(p, 9, &cls, &n);
    for (int i = 0; i < 9; i++)
        REQUIRE(r[i].band_ok);
    /* A's band: B and C only (6 rows, 2 sources), all near 1 */
    CHECK(r[0].band.rows == 6);
    CHECK(r[0].band.sources == 2);
    CHECK_STR(r[0].band.cls, "train/moe/blackwell");
    CHECK(!r[0].band.fallback);
    CHECK(r[0].band.p10 > 0.95);
    CHECK(!r[0].in_band);
    /* B's band holds A's rows and C's: its low end is A's 0.5 */
    CHECK(r[3].band.rows == 6);
    CHECK(r[3].band.p10 < 0.6);
    free(cls);

    /* one source alone: no band from other sources at any level */
    for (int i = 0; i < 9; i++)
        r[i].source = "A x y";
    sn_validate_classify(p, 9, &cls, &n);
    CHECK(!r[0].band_ok);
    free(cls);
}

/* The compiled-in table: a class with too few rows or sources falls back
 * to its parent and says so; one with enough gives its own. */
static void test_band_lookup_falls_back_to_parent(void)
{
    struct sn_band_pick b;

    for (size_t i = 0; i < sn_nbands; i++) {
        const struct sn_band *x = &sn_bands[i];
        char kind[8], arch[16], gen[16];
        if (sscanf(x->cls, "%7[^/]/%15[^/]/%15s", kind, arch, gen) != 3)
            continue;
        REQUIRE(sn_band_lookup(kind, arch, gen, &b));
        CHECK(b.wanted_rows == x->rows);
        if (x->rows >= SN_BAND_MIN_ROWS && x->sources >= SN_BAND_MIN_SOURCES) {
            CHECK_STR(b.cls, x->cls);
            CHECK(!b.fallback);
        } else {
            CHECK(b.fallback);
            CHECK(strcmp(b.cls, x->cls) != 0);
            CHECK(b.rows >= SN_BAND_MIN_ROWS);
        }
        CHECK(b.p10 <= b.p50 && b.p50 <= b.p90);
    }
    /* a class the files never saw: the parent's, said so */
    REQUIRE(sn_band_lookup("train", "moe", "tpu", &b));
    CHECK(b.fallback);
    CHECK(b.wanted_rows == 0);
    CHECK_STR(b.wanted, "MoE TPU");
}

/* The known gaps follow the layout: EP brings T4, an MoE model T3, a
 * modern stack's overlaps T1 only where there is communication to hide;
 * an A100 data-parallel dense layout meets none. */
static void test_gaps_follow_the_layout(void)
{
    const struct sn_catalog *cat = sn_catalog_builtin();
    const struct sn_model_info *moe = sn_catalog_model(cat, "mixtral-8x7b");
    const struct sn_model_info *dense = sn_catalog_model(cat, "llama3-70b");
    struct sn_train_layout l;
    struct sn_infer_layout il;
    char ids[64];

    REQUIRE(moe && dense);
    memset(&l, 0, sizeof(l));
    l.tp = 1;
    l.ep = 8;
    l.zero = 1;
    sn_gaps_ids(sn_train_gaps(moe, &l, "b200-hgx", true), ids, sizeof(ids));
    CHECK_STR(ids, "T1 T2 T3 T4"); /* 13B active: small, so T2 too */
    /* a software profile given: its stack is no assumption */
    sn_gaps_ids(sn_train_gaps(moe, &l, "b200-hgx", false), ids, sizeof(ids));
    CHECK_STR(ids, "T2 T3 T4");
    l.ep = 1;
    l.zero = 0;
    sn_gaps_ids(sn_train_gaps(dense, &l, "a100-sxm4-80gb", true), ids,
                sizeof(ids));
    CHECK_STR(ids, "");
    l.tp = 8;
    sn_gaps_ids(sn_train_gaps(dense, &l, "h100-sxm5-80gb", true), ids,
                sizeof(ids));
    CHECK_STR(ids, "T1");
    /* a TP group of 16 on a GB200 rack meets the NVLS gap, on Grace */
    l.tp = 16;
    sn_gaps_ids(sn_train_gaps(dense, &l, "gb200-nvl72", true), ids,
                sizeof(ids));
    CHECK_STR(ids, "T1 T2 C1");
    memset(&il, 0, sizeof(il));
    il.tp = 8;
    il.ep = 8;
    sn_gaps_ids(sn_infer_gaps(moe, &il, "h200-sxm-141gb", false), ids,
                sizeof(ids));
    CHECK_STR(ids, "T4 I1 I2 I3");
    /* under a load the TTFT is served, not an idle replica's */
    sn_gaps_ids(sn_infer_gaps(moe, &il, "h200-sxm-141gb", true), ids,
                sizeof(ids));
    CHECK_STR(ids, "T4 I1 I3");
}

static void release_loaded(void)
{
    if (loaded)
        for (int f = 0; f < 3; f++)
            sn_validate_report_release(&reps[f]);
    loaded = false;
}

static const struct sn_test cases[] = {
    T(test_training_classes_meet_targets_or_are_listed),
    T(test_serving_classes_meet_targets_or_are_listed),
    T(test_all_optimistic_class_fails_with_small_median),
    T(test_loso_band_leaves_own_source_out),
    T(test_band_lookup_falls_back_to_parent),
    T(test_gaps_follow_the_layout),
};

SN_TEST_MAIN_TEARDOWN(cases, release_loaded)
