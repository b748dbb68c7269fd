/* test-search.c: the layout search finds what exhaustive timing of the
 * same space finds, keeps only layouts that fit and pass the rules, and
 * ranks them deterministically. */
/* covers: net workload study */
#include "harness.h"
#include "sn/model.h"
#include "train-comm.h"
#include "train-models.h"

static struct tc_fabric fab;

static struct sn_train *a100(const struct sn_model_info *m)
{
    struct sn_train_system sys = {0};
    struct sn_train *t = NULL;
    struct sn_error err;

    fab = tc_dgx_a100;
    sys.name = "selene";
    sys.flops = 312e12;
    sys.hbm_bytes = 80e9;
    sys.hbm_bw = 2.039e12;
    sn_train_calib_for("a100", &sys.calib);
    sys.comm.time = tc_time;
    sys.comm.ctx = &fab;
    if (sn_train_new(m, &sys, &t, &err))
        printf("  %s\n", err.msg);
    return t;
}

/* A search for a job of accels accelerators and a global batch of gbs
 * sequences of seq tokens, with a current software stack in *o. */
static struct sn_train_search search_of(int accels, int gbs, int seq,
                                        struct sn_train_opts *o)
{
    struct sn_train_search s;

    sn_train_search_default(&s);
    sn_train_opts_default(o);
    s.accels = accels;
    s.gbs = gbs;
    s.seq = seq;
    return s;
}

static void test_search_ranks_fitting_layouts_fastest_first(void)
{
    struct sn_train *t = a100(&tm_gpt_39b);
    struct sn_train_search s;
    struct sn_train_opts o;
    struct sn_train_candidate top[20];
    struct sn_train_search_stats st;
    struct sn_error err;
    size_t n;

    REQUIRE(t);
    s = search_of(64, 512, 2048, &o);
    REQUIRE(sn_train_search_run(t, &s, &o, top, 20, &n, &st, &err) == SN_OK);
    REQUIRE(n == 20);
    CHECK(st.enumerated > st.fitting);
    CHECK(st.fitting >= 20);
    for (size_t i = 0; i < n; i++) {
        CHECK(sn_train_check(&tm_gpt_39b, &top[i].layout, 64, &err) == SN_OK);
        CHECK(top[i].result.mem.fits);
        if (i)
            CHECK(top[i - 1].result.step_time <= top[i].result.step_time);
    }
    sn_train_free(t);
}

static void test_search_best_beats_every_hand_picked_layout(void)
{
    /* time a grid of layouts by hand; none that fits may beat the
     * search's first */
    struct sn_train *t = a100(&tm_gpt_18b);
    struct sn_train_search s;
    struct sn_train_opts o;
    struct sn_train_candidate top[1];
    struct sn_train_search_stats st;
    struct sn_error err;
    size_t n, tried = 0;
    static const int tps[] = {1, 2, 4, 8}, pps[] = {1, 2, 4, 8};

    REQUIRE(t);
    s = search_of(64, 256, 2048, &o);
    REQUIRE(sn_train_search_run(t, &s, &o, top, 1, &n, &st, &err) == SN_OK);
    REQUIRE(n == 1);
    for (size_t a = 0; a < 4; a++)
        for (size_t b = 0; b < 4; b++)
            for (int mbs = 1; mbs <= 8; mbs *= 2)
                for (int rc = 0; rc < SN_RECOMPUTE_COUNT; rc++) {
                    struct sn_train_layout l = {tps[a],
                                                pps[b],
                                                64 / (tps[a] * pps[b]),
                                                1,
                                                1,
                                                1,
                                                mbs,
                                                256,
                                                2048,
                                                (enum sn_recompute)rc,
                                                1,
                                                tps[a] > 1,
                                                SN_DTYPE_BF16,
                                                0};
                    struct sn_train_result r;
                    if (sn_train_check(&tm_gpt_18b, &l, 64, NULL))
                        continue;
                    REQUIRE(sn_train_predict_bound(t, &l, &o, &r, &err) ==
                            SN_OK);
                    if (!r.mem.fits)
                        continue;
                    tried++;
                    CHECK(r.step_time >= top[0].result.step_time);
                }
    CHECK(tried > 20);
    sn_train_free(t);
}

static void test_search_respects_fixed_choices_and_memory(void)
{
    struct sn_train *t = a100(&tm_gpt_175b);
    struct sn_train_search s;
    struct sn_train_opts o;
    struct sn_train_candidate top[8];
    struct sn_train_search_stats st;
    struct sn_error err;
    size_t n;

    REQUIRE(t);
    s = search_of(64, 64, 2048, &o);
    s.fixed_recompute = true;
    s.recompute = SN_RECOMPUTE_FULL;
    REQUIRE(sn_train_search_run(t, &s, &o, top, 8, &n, &st, &err) == SN_OK);
    REQUIRE(n > 0);
    for (size_t i = 0; i < n; i++)
        CHECK(top[i].layout.recompute == SN_RECOMPUTE_FULL);
    sn_train_free(t);
    /* 175B on 8 GPUs: 175e9 x 2 bytes of weights alone is 350 GB */
    t = a100(&tm_gpt_175b);
    s.accels = 8;
    s.gbs = 8;
    REQUIRE(sn_train_search_run(t, &s, &o, top, 8, &n, &st, &err) == SN_OK);
    CHECK(n == 0);
    CHECK(st.enumerated > 0 && st.fitting == 0);
    sn_train_free(t);
}

static void test_search_results_equal_a_direct_prediction(void)
{
    /* the search passes the memory it computed to the step-time model
     * and costs equal middle pipeline stages once: what it reports must
     * be exactly what sn_train_predict gives for the same layout, for
     * short and long pipelines alike (GPT-39.1B has 48 layers: pipelines
     * up to 48 stages, some uneven) */
    struct sn_train *t = a100(&tm_gpt_39b);
    struct sn_train_search s;
    struct sn_train_opts o;
    struct sn_train_candidate top[40];
    struct sn_train_search_stats st;
    struct sn_train_result r;
    struct sn_error err;
    size_t n;
    int long_pipes = 0;

    REQUIRE(t);
    s = search_of(256, 1536, 2048, &o);
    s.max_tp = 2;        /* memory forces long pipelines, with the */
    s.fixed_zero = true; /* distributed optimizer's whole gradients */
    s.zero = 1;
    REQUIRE(sn_train_search_run(t, &s, &o, top, 40, &n, &st, &err) == SN_OK);
    REQUIRE(n > 0);
    for (size_t i = 0; i < n; i++) {
        REQUIRE(sn_train_predict_bound(t, &top[i].layout, &o, &r, &err) ==
                SN_OK);
        CHECK(r.step_time == top[i].result.step_time);
        CHECK(r.mem.total == top[i].result.mem.total);
        CHECK(r.part[SN_PART_BUBBLE] == top[i].result.part[SN_PART_BUBBLE]);
        long_pipes += top[i].layout.pp >= 8;
    }
    CHECK(long_pipes > 0);
    sn_train_free(t);
}

static void test_search_is_deterministic(void)
{
    struct sn_train *t = a100(&tm_gpt_39b);
    struct sn_train_search s;
    struct sn_train_opts o;
    struct sn_train_candidate a[10], b[10];
    struct sn_train_search_stats st;
    struct sn_error err;
    size_t na, nb;

    REQUIRE(t);
    s = search_of(128, 512, 2048, &o);
    REQUIRE(sn_train_search_run(t, &s, &o, a, 10, &na, &st, &err) == SN_OK);
    REQUIRE(sn_train_search_run(t, &s, &o, b, 10, &nb, &st, &err) == SN_OK);
    REQUIRE(na == nb);
    for (size_t i = 0; i < na; i++) {
        CHECK(!memcmp(&a[i].layout, &b[i].layout, sizeof(a[i].layout)));
        CHECK(a[i].result.step_time == b[i].result.step_time);
    }
    sn_train_free(t);
}

static void test_search_moe_tries_expert_parallelism(void)
{
    struct sn_train *t = a100(&tm_mixtral);
    struct sn_train_search s;
    struct sn_train_opts o;
    struct sn_train_candidate top[200];
    struct sn_train_search_stats st;
    struct sn_error err;
    size_t n;
    bool ep8 = false;

    REQUIRE(t);
    s = search_of(64, 256, 4096, &o);
    REQUIRE(sn_train_search_run(t, &s, &o, top, 200, &n, &st, &err) == SN_OK);
    REQUIRE(n > 0);
    for (size_t i = 0; i < n; i++)
        ep8 = ep8 || top[i].layout.ep == 8;
    CHECK(ep8);
    sn_train_free(t);
}

static void test_search_interleaves_stages_of_uneven_layers(void)
{
    /* Llama 3 405B: 126 layers do not divide into 16 x v chunks, but with
     * the embedding and the loss as a chunk each (Llama 3 section 3.3.2,
     * Megatron-Core's account_for_embedding/loss_in_pipeline_split) the
     * 128 do, so the search tries the interleaved schedule there; every
     * layout it keeps passes the rules, and interleaving that 16-stage
     * pipeline is faster than 1F1B (bubble (p-1)/(v m)) */
    struct sn_train *t = a100(&tm_llama3_405b);
    struct sn_train_search s;
    struct sn_train_opts o;
    struct sn_train_candidate top[400];
    struct sn_train_search_stats st;
    struct sn_error err;
    size_t n, uneven = 0;
    double v1 = 0, v8 = 0;

    REQUIRE(t);
    s = search_of(2048, 256, 8192, &o);
    s.max_tp = 8;
    s.fixed_recompute = true;
    s.recompute = SN_RECOMPUTE_FULL;
    REQUIRE(sn_train_search_run(t, &s, &o, top, 400, &n, &st, &err) == SN_OK);
    REQUIRE(n > 0 && n < 400);
    for (size_t i = 0; i < n; i++) {
        const struct sn_train_layout *l = &top[i].layout;
        CHECK(sn_train_check(&tm_llama3_405b, l, 2048, &err) == SN_OK);
        if (l->vpp > 1 && 126 % (l->pp * l->vpp))
            uneven++;
        if (l->tp == 8 && l->pp == 16 && l->mbs == 1 && l->zero == 1) {
            if (l->vpp == 1)
                v1 = top[i].result.step_time;
            if (l->vpp == 8)
                v8 = top[i].result.step_time;
        }
    }
    CHECK(uneven > 0);
    REQUIRE(v1 > 0 && v8 > 0);
    CHECK(v8 < v1);
    sn_train_free(t);
}

static const struct sn_test cases[] = {
    T(test_search_ranks_fitting_layouts_fastest_first),
    T(test_search_best_beats_every_hand_picked_layout),
    T(test_search_respects_fixed_choices_and_memory),
    T(test_search_results_equal_a_direct_prediction),
    T(test_search_is_deterministic),
    T(test_search_moe_tries_expert_parallelism),
    T(test_search_interleaves_stages_of_uneven_layers),
};

SN_TEST_MAIN(cases)
