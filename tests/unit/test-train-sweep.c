/* test-train-sweep.c: sweeps re-plan and re-predict a design per value
 * and mark one sweet spot. */
/* covers: net workload study spec */
#include "harness.h"
#include "sn/model.h"

/* A sweep of the scale-up domain over n values for Llama 3 8B on the
 * built-in seed design; the rest as sn_sweep's zero defaults. */
static struct sn_sweep domain_sweep(const char *const *values, size_t n)
{
    struct sn_sweep s = {0};

    s.key = "supernode.accelerators";
    s.values = values;
    s.nvalues = n;
    s.model = sn_catalog_model(sn_catalog_builtin(), "llama3-8b");
    return s;
}

static void test_sweep_domain_size_at_a_fixed_job(void)
{
    /* the built-in seed design (H200, 8 per node) with its scale-up domain
     * swept; a 64-GPU job of Llama 3 8B: every design gets the supernodes
     * the job needs, the plan's links grow with the domain, one value is
     * marked */
    static const char *const values[] = {"8", "16", "32"};
    struct sn_sweep s;
    struct sn_sweep_point pts[3];
    struct sn_error err;
    int marked = 0;

    s = domain_sweep(values, 3);
    s.gpus = 64;
    s.gbs = 256;
    REQUIRE(s.model);
    REQUIRE(sn_sweep_run(&s, pts, &err) == SN_OK);
    for (int i = 0; i < 3; i++) {
        CHECK(pts[i].ok);
        CHECK(pts[i].accels == 64);
        CHECK(pts[i].have_best && pts[i].best.result.mem.fits);
        CHECK(pts[i].links > 0 && pts[i].switch_chips > 0);
        CHECK(pts[i].power_w > 0);
        CHECK(pts[i].effective_per_accel > 0);
        CHECK(pts[i].effective_per_accel <= pts[i].tokens_per_accel);
        marked += pts[i].best_value;
    }
    CHECK(pts[0].domain == 8 && pts[2].domain == 32);
    CHECK(marked == 1);
}

static void test_sweep_refuses_a_value_that_does_not_validate(void)
{
    /* value 0 (or abc) gives no valid spec: the whole sweep is refused,
     * naming the value, before any design is predicted */
    static const char *const values[] = {"8", "16", "abc", "0"};
    struct sn_sweep s;
    struct sn_sweep_point pts[4];
    struct sn_error err;

    memset(pts, 0, sizeof(pts));
    s = domain_sweep(values, 4);
    s.gpus = 64;
    REQUIRE(s.model);
    CHECK(sn_sweep_run(&s, pts, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "value 3 of 4, 'abc'");
    CHECK_CONTAINS(err.msg, "is not a number");
    CHECK(!pts[0].ok && pts[0].links == 0); /* nothing was predicted */
}

static void test_sweep_marks_the_most_effective_tokens(void)
{
    static const char *const values[] = {"8", "16"};
    struct sn_sweep s;
    struct sn_sweep_point pts[2];
    struct sn_error err;

    s = domain_sweep(values, 2);
    s.gpus = 32;
    s.gbs = 128;
    REQUIRE(sn_sweep_run(&s, pts, &err) == SN_OK);
    REQUIRE(pts[0].ok && pts[1].ok);
    CHECK(pts[0].best_value ==
          (pts[0].effective_per_accel >= pts[1].effective_per_accel));
    CHECK(pts[0].best_value != pts[1].best_value);
}

static void test_sweep_compares_designs_at_the_spec_size(void)
{
    /* no job size given: every design runs the job of the spec as given
     * before the swept value (here the seed design with the fixed
     * setting supernodes=1: 64 accelerators), each with the supernodes
     * that job needs; the fixed setting holds for every design */
    static const char *const values[] = {"8", "16"};
    static const char *const fkeys[] = {"supernodes"}, *const fvals[] = {"1"};
    struct sn_sweep s;
    struct sn_sweep_point pts[2];
    struct sn_error err;

    s = domain_sweep(values, 2);
    s.fixed_keys = fkeys;
    s.fixed_values = fvals;
    s.nfixed = 1;
    s.gbs = 256;
    REQUIRE(s.model);
    REQUIRE(sn_sweep_run(&s, pts, &err) == SN_OK);
    for (int i = 0; i < 2; i++) {
        CHECK(pts[i].ok);
        CHECK(pts[i].accels == 64);
    }
    CHECK(pts[0].domain == 8 && pts[1].domain == 16);
    /* the plans describe 64 accelerators each: 8 x 8 links and 8 x 16
     * NIC ports either way */
    CHECK(pts[0].links == pts[1].links);
}

static void test_sweep_refuses_a_bad_fixed_setting(void)
{
    static const char *const values[] = {"8"};
    static const char *const fkeys[] = {"supernode.tiers"}, *const fvals[] = {
                                                                "5"};
    struct sn_sweep s;
    struct sn_sweep_point pts[1];
    struct sn_error err;

    s = domain_sweep(values, 1);
    s.fixed_keys = fkeys;
    s.fixed_values = fvals;
    s.nfixed = 1;
    CHECK(sn_sweep_run(&s, pts, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "--set supernode.tiers=5");
}

static void test_sweep_refuses_no_values(void)
{
    struct sn_sweep s = {0};
    struct sn_error err;

    s.key = "supernodes";
    CHECK(sn_sweep_run(&s, NULL, &err) == SN_EINPUT);
}

static const struct sn_test cases[] = {
    T(test_sweep_domain_size_at_a_fixed_job),
    T(test_sweep_marks_the_most_effective_tokens),
    T(test_sweep_compares_designs_at_the_spec_size),
    T(test_sweep_refuses_a_value_that_does_not_validate),
    T(test_sweep_refuses_a_bad_fixed_setting),
    T(test_sweep_refuses_no_values),
};

SN_TEST_MAIN(cases)
