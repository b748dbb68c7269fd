/* test-validate-layout.c: how `validate` reads the layout columns of the
 * MoE training file (shared/validation/moe-training-public.csv): a blank
 * dp derived from n_gpus, a blank cp as 1, the cp, vpp, ep, etp and
 * precision columns, a model found by alias, a local batch. */
/* covers: net workload study spec */
#include <stdlib.h>

#include "harness.h"
#include "sn/model.h"

#define MOE_HEADER                                                             \
    "source,model,gpu,n_gpus,precision,seq,global_batch,micro_batch,tp,pp,"    \
    "cp,vpp,ep,etp,dp,other_parallel,measured_metric,measured_value,notes\n"

/* Megatron-Bridge's GB200 DeepSeek-V3 row as the public file gives it
 * (dp blank), and variants: dp that does not divide, a local batch. */
static void test_validate_derives_dp_and_reads_the_moe_columns(void)
{
    static const char csv[] = MOE_HEADER
        "a,deepseek-r1,gb200-nvl72,256,mxfp8,4096,4096,1,1,4,1,4,64,,,,"
        "tokens_per_s_per_gpu,4912,\n"
        "b,mixtral-8x7b,gb200-nvl72,64,bf16,4096,256,1,1,3,,,8,,,,"
        "tokens_per_s_per_gpu,19000,\n"
        "c,qwen3-30b-a3b,b200-hgx,8,bf16,4096,,,1,1,,,8,,,"
        "local batch 8,tokens_per_s_per_gpu,14796,\n"
        "d,mixtral-8x7b,gb200-nvl72,64,bf16,4096,256,1,2,1,1,1,8,1,32,,"
        "tokens_per_s_per_gpu,19000,\n"
        "e,mixtral-8x7b,gb200-nvl72,64,bf16,4096,256,1,1,1,x,1,8,,,,"
        "tokens_per_s_per_gpu,19000,\n";
    struct sn_validate_report r;
    struct sn_error err;

    REQUIRE(sn_validate_csv("t.csv", csv, strlen(csv), &r, &err) == SN_OK);
    REQUIRE(r.nrows == 5);
    /* a: dp = 256 / (1 x 4 x 1), ep and vpp from their columns, MXFP8
     * at the FP8 rate, the model by its alias */
    CHECK(r.rows[0].predicted_ok);
    CHECK(r.rows[0].layout.dp == 64 && r.rows[0].layout.ep == 64);
    CHECK(r.rows[0].layout.vpp == 4 && r.rows[0].layout.cp == 1);
    CHECK(r.rows[0].layout.dtype == SN_DTYPE_FP8);
    CHECK_CONTAINS(r.rows[0].assumed, "dp 64 from n_gpus");
    CHECK_CONTAINS(r.rows[0].assumed, "mxfp8 at the fp8 rate");
    /* b: 64 GPUs are no multiple of tp x pp x cp = 3 */
    CHECK(!r.rows[1].predicted_ok);
    CHECK_CONTAINS(r.rows[1].reason, "dp is missing and the 64 GPUs are "
                                     "not a multiple of tp x pp x cp = 3");
    /* c: no global batch, 8 sequences per DP rank */
    CHECK(r.rows[2].predicted_ok);
    CHECK(r.rows[2].layout.gbs == 64 && r.rows[2].layout.dp == 8);
    CHECK_CONTAINS(r.rows[2].assumed, "global batch 8 x dp from local");
    /* d: dp given, the experts split by the row's etp, not by tp */
    CHECK(r.rows[3].predicted_ok);
    CHECK(r.rows[3].etp == 1 && r.rows[3].layout.tp == 2);
    CHECK(r.rows[3].layout.etp == 1);
    CHECK(r.rows[3].layout.dtype == SN_DTYPE_BF16);
    CHECK(!strstr(r.rows[3].assumed, "etp"));
    /* e: a cp that is not a number */
    CHECK(!r.rows[4].predicted_ok);
    CHECK_CONTAINS(r.rows[4].reason, "not a whole number");
    sn_validate_report_release(&r);
}

/* The project's MoE set (NVIDIA Megatron-Bridge and NeMo performance
 * summaries, the Megatron-MoE ModelZoo, torchtitan): every row predicted,
 * the median absolute error within the 15%. */
static void test_validate_moe_public_rows_are_read(void)
{
    const char *path = "tests/fixtures/validation/moe-training-public.csv";
    struct sn_validate_report r;
    struct sn_error err;
    char *text = NULL;
    size_t len = 0;

    REQUIRE(sn_read_file(path, SN_FILE_MAX, &text, &len, &err) == SN_OK);
    REQUIRE(sn_validate_csv(path, text, len, &r, &err) == SN_OK);
    free(text);
    CHECK(r.nrows == 12);
    for (size_t i = 0; i < r.nrows; i++) {
        CHECK(r.rows[i].predicted_ok || r.rows[i].reason[0]);
        CHECK(!strstr(r.rows[i].reason, "tp, pp or dp is missing"));
        CHECK(!strstr(r.rows[i].reason, "not in the catalog"));
    }
    CHECK(r.npredicted == 12);
    CHECK(r.median_abs_pct <= 15.0);
    if (!(r.median_abs_pct <= 15.0))
        printf("  median %.1f%%\n", r.median_abs_pct);
    sn_validate_report_release(&r);
}

/* What `sim train SPEC --model M --gpus N --search --gbs G` picks first
 * on validate's system for gpu and n (cmd-sim-train.c's run_search: the
 * default options, BF16, the model's sequence): its nominal tokens/s per
 * GPU and layout into *l; NAN when it cannot run. */
static double sim_train_search_best(const char *model, const char *gpu, int n,
                                    int gbs, bool full_recompute,
                                    struct sn_train_layout *l)
{
    const struct sn_model_info *m =
        sn_catalog_model(sn_catalog_builtin(), model);
    char name[48], *text = sn_validate_system_spec(gpu, "", n, name, 48);
    struct sn_spec spec;
    struct sn_train_env env = {0};
    struct sn_train *t = NULL;
    struct sn_train_search s;
    struct sn_train_opts o;
    struct sn_train_candidate best;
    struct sn_train_search_stats st;
    struct sn_error err;
    size_t got = 0;
    double tps = NAN;

    if (!m || !text ||
        sn_spec_parse("<system>", text, strlen(text), &spec, &err) != SN_OK) {
        free(text);
        return NAN;
    }
    sn_train_opts_default(&o);
    sn_train_search_default(&s);
    s.accels = n;
    s.seq = m->seq;
    s.gbs = gbs ? gbs : sn_train_default_gbs(n, m->seq);
    s.fixed_recompute = full_recompute;
    s.recompute = SN_RECOMPUTE_FULL;
    if (sn_train_env_init(&env, &spec, &err) == SN_OK &&
        sn_train_new(m, &env.sys, &t, &err) == SN_OK &&
        sn_train_search_run(t, &s, &o, &best, 1, &got, &st, &err) == SN_OK &&
        got == 1) {
        /* the search ranks by the pessimistic bound; validate predicts
         * the layout it picked with the nominal model */
        struct sn_train_result r;
        if (sn_train_predict(t, &best.layout, &o, &r, &err) == SN_OK)
            tps = r.tokens_per_s / n;
        *l = best.layout;
    }
    sn_train_free(t);
    sn_train_env_release(&env);
    sn_spec_release(&spec);
    free(text);
    return tps;
}

/* Rows without tp and pp (tests/fixtures/validation/no-layout.csv, a
 * MoE and a dense one): predicted with the search's best layout, said in
 * the note, equal to what `sim train --search` finds on the same system,
 * GPUs, batch and recompute; a row with its layout keeps it. */
static void test_validate_searches_the_layout_a_row_lacks(void)
{
    const char *path = "tests/fixtures/validation/no-layout.csv";
    struct sn_validate_report r;
    struct sn_train_layout moe, dense;
    struct sn_error err;
    char *text = NULL, note[96];
    size_t len = 0;
    double want_moe, want_dense;

    REQUIRE(sn_read_file(path, SN_FILE_MAX, &text, &len, &err) == SN_OK);
    REQUIRE(sn_validate_csv(path, text, len, &r, &err) == SN_OK);
    free(text);
    REQUIRE(r.nrows == 3);
    want_moe =
        sim_train_search_best("deepseek-v3", "gb200", 72, 1152, false, &moe);
    want_dense =
        sim_train_search_best("llama3-70b", "h100", 64, 0, true, &dense);
    REQUIRE(r.rows[0].predicted_ok && r.rows[1].predicted_ok);
    REQUIRE(want_moe > 0 && want_dense > 0);
    CHECK_NEAR(r.rows[0].predicted, want_moe, 1e-12);
    CHECK_NEAR(r.rows[1].predicted, want_dense, 1e-12);
    snprintf(note, sizeof(note), "layout from search: TP%d PP%d EP%d", moe.tp,
             moe.pp, moe.ep);
    CHECK_CONTAINS(r.rows[0].assumed, note);
    CHECK(r.rows[0].layout.tp == moe.tp && r.rows[0].layout.ep == moe.ep);
    snprintf(note, sizeof(note), "layout from search: TP%d PP%d EP%d", dense.tp,
             dense.pp, dense.ep);
    CHECK(strncmp(r.rows[1].assumed, note, strlen(note)) == 0);
    /* no global batch: the search's default, said */
    CHECK_CONTAINS(r.rows[1].assumed, "global batch 512");
    CHECK(r.rows[1].layout.recompute == SN_RECOMPUTE_FULL);
    /* the row that gives its layout is not searched */
    CHECK(r.rows[2].predicted_ok);
    CHECK(r.rows[2].layout.tp == 8 && r.rows[2].layout.pp == 2);
    CHECK(!strstr(r.rows[2].assumed, "from search"));
    sn_validate_report_release(&r);
}

static const struct sn_test cases[] = {
    T(test_validate_derives_dp_and_reads_the_moe_columns),
    T(test_validate_moe_public_rows_are_read),
    T(test_validate_searches_the_layout_a_row_lacks),
};

SN_TEST_MAIN(cases)
