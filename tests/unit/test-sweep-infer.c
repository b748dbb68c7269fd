/* test-sweep-infer.c: `sweep --infer`: the serving search at each value
 * of a design parameter, the facts that must hold whatever the model's
 * numbers (a looser limit never serves less, a domain too small for the
 * weights has no layout) and how the sweet spot is marked. */
/* covers: net workload study spec */
#include "harness.h"
#include "sn/model.h"

#define CM384 "examples/cloudmatrix-384.yaml"

/* DeepSeek-R1 on CloudMatrix 384 (Ascend 910C, 128 GB) with its domain
 * swept; 1024/1024-token requests in BF16, the defaults of `sim infer`. */
static struct sn_sweep_infer domain_sweep(const char *const *values, size_t n,
                                          double tpot)
{
    struct sn_sweep_infer s = {0};

    s.sweep.spec_path = CM384;
    s.sweep.key = "supernode.accelerators";
    s.sweep.values = values;
    s.sweep.nvalues = n;
    s.sweep.model = sn_catalog_model(sn_catalog_builtin(), "deepseek-r1");
    s.work.isl = s.work.osl = 1024;
    s.work.precision = s.work.kv = SN_DTYPE_BF16;
    s.limits.tpot = tpot;
    return s;
}

static double tps(const struct sn_sweep_infer_point *p)
{
    return p->have_best ? p->best.result.output_tps_gpu : 0;
}

static void test_sweep_infer_small_domain_holds_no_weights(void)
{
    /* 671B parameters in BF16 are about 1,250 GiB; 8 NPUs of 128 GB
     * cannot hold them, 16 can: the 8-NPU domain is a row with no
     * layout that says why, not an error and not dropped */
    static const char *const values[] = {"8", "16"};
    struct sn_sweep_infer s = domain_sweep(values, 2, 0.05);
    struct sn_sweep_infer_point pts[2];
    struct sn_error err;

    REQUIRE(s.sweep.model);
    REQUIRE(sn_sweep_infer_run(&s, pts, &err) == SN_OK);
    CHECK(pts[0].ok && !pts[0].have_best && !pts[0].best_value);
    CHECK(pts[0].accels == 8 && pts[0].domain == 8);
    CHECK(pts[0].timed == 0);
    CHECK_CONTAINS(pts[0].none, "exceed");
    CHECK(pts[1].ok && pts[1].have_best && pts[1].best_value);
    CHECK(pts[1].best.result.fits);
    CHECK(pts[1].best.result.tpot_s <= 0.05);
    CHECK(pts[1].best.layout.tp * pts[1].best.layout.pp <= 16);
}

static void test_sweep_infer_looser_tpot_never_serves_less(void)
{
    /* every point the search times under a tight limit is also within a
     * looser one, so the best under the looser cannot be lower */
    static const char *const values[] = {"16", "32", "72"};
    static const double tpot[] = {0.03, 0.05, 0.1, 0};
    struct sn_sweep_infer_point pts[4][3];
    struct sn_error err;

    for (int k = 0; k < 4; k++) {
        struct sn_sweep_infer s = domain_sweep(values, 3, tpot[k]);
        REQUIRE(sn_sweep_infer_run(&s, pts[k], &err) == SN_OK);
    }
    for (int i = 0; i < 3; i++) {
        for (int k = 1; k < 4; k++) {
            CHECK(tps(&pts[k][i]) >= tps(&pts[k - 1][i]));
            CHECK(pts[k][i].have_best || !pts[k - 1][i].have_best);
        }
        CHECK(pts[3][i].have_best); /* no limit: the best that fits */
    }
    /* the limits bind: something above 30 ms is served without them */
    CHECK(tps(&pts[3][2]) > tps(&pts[0][2]));
}

static void test_sweep_infer_marks_the_most_tokens_per_accelerator(void)
{
    static const char *const values[] = {"16", "32", "72"};
    struct sn_sweep_infer s = domain_sweep(values, 3, 0.05);
    struct sn_sweep_infer_point pts[3];
    struct sn_error err;
    double most = 0;
    int marked = 0, spot = -1;

    REQUIRE(sn_sweep_infer_run(&s, pts, &err) == SN_OK);
    for (int i = 0; i < 3; i++) {
        most = tps(&pts[i]) > most ? tps(&pts[i]) : most;
        if (pts[i].best_value) {
            marked++;
            spot = i;
        }
    }
    REQUIRE(marked == 1);
    CHECK(tps(&pts[spot]) >= (1 - SN_SWEEP_INFER_FLAT) * most);
    /* no smaller domain is within the flat band */
    for (int i = 0; i < 3; i++)
        if (pts[i].domain < pts[spot].domain)
            CHECK(tps(&pts[i]) < (1 - SN_SWEEP_INFER_FLAT) * most);
}

static void test_sweep_infer_ties_go_to_the_fewer_switch_chips(void)
{
    /* a 32-NPU domain served alone, designs of one and two supernodes:
     * the same instance, so the same throughput (a flat region); the
     * design without the second supernode's switches is marked */
    static const char *const values[] = {"2", "1"};
    static const char *const fkeys[] = {"supernode.accelerators"};
    static const char *const fvals[] = {"32"};
    struct sn_sweep_infer s = domain_sweep(values, 2, 0.05);
    struct sn_sweep_infer_point pts[2];
    struct sn_error err;

    s.sweep.key = "supernodes";
    s.sweep.fixed_keys = fkeys;
    s.sweep.fixed_values = fvals;
    s.sweep.nfixed = 1;
    REQUIRE(sn_sweep_infer_run(&s, pts, &err) == SN_OK);
    REQUIRE(pts[0].have_best && pts[1].have_best);
    CHECK(pts[0].accels == 32 && pts[1].accels == 32);
    CHECK_NEAR(tps(&pts[0]), tps(&pts[1]), 1e-12);
    CHECK(pts[0].switch_chips > pts[1].switch_chips);
    CHECK(!pts[0].best_value && pts[1].best_value);
}

static void test_sweep_infer_says_how_near_an_impossible_limit_comes(void)
{
    /* 1 ms a token is below any decode step of a 671B model: the row
     * keeps the fastest TPOT reached and says it misses the limit */
    static const char *const values[] = {"16"};
    struct sn_sweep_infer s = domain_sweep(values, 1, 0.001);
    struct sn_sweep_infer_point pts[1];
    struct sn_error err;

    REQUIRE(sn_sweep_infer_run(&s, pts, &err) == SN_OK);
    CHECK(pts[0].ok && !pts[0].have_best && !pts[0].best_value);
    CHECK(pts[0].timed > 0);
    CHECK(pts[0].fastest_tpot > 0.001);
    CHECK_CONTAINS(pts[0].none, "TPOT");
    CHECK_CONTAINS(pts[0].none, "limit 1.00 ms");
}

static void test_sweep_infer_serves_a_fixed_instance(void)
{
    /* --gpus 32 on 8- and 16-NPU domains: each design gets the
     * supernodes the instance needs, and the instance is 32 either way */
    static const char *const values[] = {"8", "16"};
    struct sn_sweep_infer s = domain_sweep(values, 2, 0.1);
    struct sn_sweep_infer_point pts[2];
    struct sn_error err;

    s.sweep.gpus = 32;
    REQUIRE(sn_sweep_infer_run(&s, pts, &err) == SN_OK);
    for (int i = 0; i < 2; i++) {
        CHECK(pts[i].ok && pts[i].accels == 32);
        CHECK(pts[i].design_accels == 32);
        CHECK(pts[i].have_best);
    }
}

static void test_sweep_infer_needs_a_model(void)
{
    static const char *const values[] = {"16"};
    struct sn_sweep_infer s = domain_sweep(values, 1, 0.05);
    struct sn_sweep_infer_point pts[1];
    struct sn_error err;

    s.sweep.model = NULL;
    CHECK(sn_sweep_infer_run(&s, pts, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "model");
}

static void test_sweep_infer_refuses_a_precision_the_chip_lacks(void)
{
    /* the Ascend 910C has no FP8 rate: each point says so */
    static const char *const values[] = {"16"};
    struct sn_sweep_infer s = domain_sweep(values, 1, 0.05);
    struct sn_sweep_infer_point pts[1];
    struct sn_error err;

    s.work.precision = SN_DTYPE_FP8;
    REQUIRE(sn_sweep_infer_run(&s, pts, &err) == SN_OK);
    CHECK(!pts[0].ok && !pts[0].have_best);
    CHECK_CONTAINS(pts[0].error, "fp8");
    /* one error naming what it has, INT8 among them */
    CHECK_CONTAINS(pts[0].error, "(it has bf16, fp16, int8)");
}

static void test_sweep_infer_serves_int8_on_the_910c(void)
{
    /* W8A8 on the 910C: 1-byte weights at its INT8 rate, so the search
     * serves more per NPU than BF16 at the same limit, and every layout
     * it proposes is one the rules accept */
    static const char *const values[] = {"64"};
    struct sn_sweep_infer s = domain_sweep(values, 1, 0.05);
    struct sn_sweep_infer_point bf16[1], int8[1];
    struct sn_error err;

    REQUIRE(sn_sweep_infer_run(&s, bf16, &err) == SN_OK);
    s.work.precision = SN_DTYPE_INT8;
    REQUIRE(sn_sweep_infer_run(&s, int8, &err) == SN_OK);
    REQUIRE(int8[0].ok && int8[0].have_best && bf16[0].have_best);
    CHECK(tps(&int8[0]) > tps(&bf16[0]));
    CHECK(int8[0].best.layout.dp_attention ||
          128 % int8[0].best.layout.tp == 0);
    CHECK((256 + int8[0].best.layout.redundant) % int8[0].best.layout.ep == 0);
}

static const struct sn_test cases[] = {
    T(test_sweep_infer_small_domain_holds_no_weights),
    T(test_sweep_infer_looser_tpot_never_serves_less),
    T(test_sweep_infer_marks_the_most_tokens_per_accelerator),
    T(test_sweep_infer_ties_go_to_the_fewer_switch_chips),
    T(test_sweep_infer_says_how_near_an_impossible_limit_comes),
    T(test_sweep_infer_serves_a_fixed_instance),
    T(test_sweep_infer_needs_a_model),
    T(test_sweep_infer_refuses_a_precision_the_chip_lacks),
    T(test_sweep_infer_serves_int8_on_the_910c),
};

SN_TEST_MAIN(cases)
