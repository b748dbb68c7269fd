/* test-train.c: parameter counts and FLOPs of the training model against
 * the closed forms of Narayanan et al. and Korthikanti et al. and the
 * published model sizes; layout rules. */
#include "harness.h"
#include "sn/model.h"
#include "train-models.h"

static struct sn_train_layout layout(int tp, int pp, int dp, int mbs,
                                     int gbs, enum sn_recompute rc)
{
    struct sn_train_layout l = {
        .tp = tp, .pp = pp, .dp = dp, .cp = 1, .ep = 1, .vpp = 1,
        .mbs = mbs, .gbs = gbs, .seq = 2048, .recompute = rc, .zero = 0,
        .sp = false, .dtype = SN_DTYPE_BF16};
    return l;
}

static void test_train_params_match_narayanan_formula(void)
{
    /* P = 12 l h^2 (1 + 13/(12h) + (V+s)/(12 l h)) (Narayanan et al.
     * SC'21 section 5.1); ours adds the final LayerNorm (2h) */
    const struct sn_model_info *m = &tm_gpt_175b;
    double l = m->layers, h = m->hidden, V = m->vocab, s = m->seq;
    double want = 12 * l * h * h * (1 + 13 / (12 * h) + (V + s) / (12 * l * h));

    CHECK_NEAR(sn_train_params(m, NULL), want + 2 * h, 1e-12);
}

static void test_train_params_match_published_sizes(void)
{
    /* Narayanan Table 1 (1.7B, 1008.0B), Table 2 (174.6B); Meta's Llama
     * cards (68.98B, 8.03B, 405B); Mixtral paper (46.7B / 12.9B active).
     * Tolerance: the published rounding, 0.1B or 0.5%. */
    double active;

    CHECK_NEAR(sn_train_params(&tm_gpt_1_7b, NULL) / 1e9, 1.7, 0.03);
    CHECK_NEAR(sn_train_params(&tm_gpt_175b, NULL) / 1e9, 174.6, 0.001);
    CHECK_NEAR(sn_train_params(&tm_gpt_1t, NULL) / 1e9, 1008.0, 0.001);
    CHECK_NEAR(sn_train_params(&tm_llama2_70b, NULL) / 1e9, 68.98, 0.002);
    CHECK_NEAR(sn_train_params(&tm_llama3_8b, NULL) / 1e9, 8.03, 0.002);
    CHECK_NEAR(sn_train_params(&tm_llama3_405b, NULL) / 1e9, 405.0, 0.005);
    CHECK_NEAR(sn_train_params(&tm_mixtral, &active) / 1e9, 46.7, 0.002);
    CHECK_NEAR(active / 1e9, 12.9, 0.005);
}

static void test_train_flops_match_72_and_96_coefficient_formulas(void)
{
    /* model: 72 B s l h^2 (1 + s/(6h) + V/(12 l h)) (Korthikanti App. A);
     * full recompute: 96 B s l h^2 (1 + s/(6h) + V/(16 l h)) (Narayanan
     * eq. 3). Exact: both count the GEMMs only, as we do. */
    const struct sn_model_info *m = &tm_gpt_530b;
    struct sn_train_layout l = layout(8, 35, 1, 1, 280, SN_RECOMPUTE_FULL);
    struct sn_train_flops f;
    double B = 280, s = 2048, L = m->layers, h = m->hidden, V = m->vocab;

    sn_train_flops(m, &l, &f);
    CHECK_NEAR(f.model,
               72 * B * s * L * h * h * (1 + s / (6 * h) + V / (12 * L * h)),
               1e-12);
    CHECK_NEAR(f.hw,
               96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h)),
               1e-12);
    CHECK_NEAR(f.tokens, B * s, 1e-12);
    l.recompute = SN_RECOMPUTE_NONE;
    sn_train_flops(m, &l, &f);
    CHECK_NEAR(f.hw, f.model, 1e-12);
}

static void test_train_flops_reproduce_korthikanti_mfu(void)
{
    /* MFU = model FLOPs / (GPUs x 312 TF x measured time) reproduces the
     * paper's MFU (Korthikanti Table 5, SP + selective rows; anchors
     * section 2.1): 175B 51.4% at 13.75 s on 64 GPUs, 530B 56.0% at
     * 37.83 s on 280, 1T 56.3% at 71.49 s on 512. Tolerance 0.1 point. */
    static const struct {
        const struct sn_model_info *m;
        int gpus, pp, gbs;
        double t, mfu;
    } rows[] = {
        {&tm_gpt_175b, 64, 8, 64, 13.75, 0.514},
        {&tm_gpt_530b, 280, 35, 280, 37.83, 0.560},
        {&tm_gpt_1t, 512, 64, 512, 71.49, 0.563},
    };

    for (size_t i = 0; i < SN_ARRAY_LEN(rows); i++) {
        struct sn_train_layout l = layout(8, rows[i].pp, 1, 1, rows[i].gbs,
                                          SN_RECOMPUTE_SELECTIVE);
        struct sn_train_flops f;
        double mfu;

        sn_train_flops(rows[i].m, &l, &f);
        mfu = f.model / (rows[i].gpus * 312e12 * rows[i].t);
        CHECK(fabs(mfu - rows[i].mfu) < 0.001);
    }
}

static void test_train_flops_gqa_and_swiglu_per_gemm(void)
{
    /* Llama 3 8B, per token forward: QKV 2h(a+2k)d, projection 2h^2,
     * attention 4 s h, SwiGLU 3 x 2 h f, logits 2 h V; x3 for training */
    const struct sn_model_info *m = &tm_llama3_8b;
    struct sn_train_layout l = layout(1, 1, 8, 1, 8, SN_RECOMPUTE_NONE);
    struct sn_train_flops f;
    double h = 4096, d = 128, s = 8192, per_layer, want;

    l.seq = 8192;
    per_layer = 2 * h * (32 + 16) * d + 2 * h * h + 4 * s * h +
                6 * h * 14336;
    want = 3 * (32 * per_layer + 2 * h * 128256) * 8 * s;
    sn_train_flops(m, &l, &f);
    CHECK_NEAR(f.model, want, 1e-12);
}

static void test_train_check_rejects_bad_layouts(void)
{
    struct sn_error err;
    struct sn_train_layout l = layout(8, 8, 1, 1, 64, SN_RECOMPUTE_FULL);

    CHECK(sn_train_check(&tm_gpt_175b, &l, 64, &err) == SN_OK);
    CHECK(sn_train_check(&tm_gpt_175b, &l, 128, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "not the 128 accelerators");
    l.tp = 7;
    l.dp = 1;
    CHECK(sn_train_check(&tm_gpt_175b, &l, 0, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "does not divide the 96 heads");
    l = layout(8, 8, 1, 1, 60, SN_RECOMPUTE_FULL);
    l.vpp = 3;
    CHECK(sn_train_check(&tm_gpt_175b, &l, 64, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "multiple of pp 8");
    l = layout(8, 1, 8, 3, 64, SN_RECOMPUTE_FULL);
    CHECK(sn_train_check(&tm_gpt_175b, &l, 64, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "micro-batch x dp");
    l = layout(1, 1, 8, 1, 8, SN_RECOMPUTE_FULL);
    l.sp = true;
    CHECK(sn_train_check(&tm_gpt_175b, &l, 8, &err) == SN_EINPUT);
    l.sp = false;
    l.ep = 4;
    CHECK(sn_train_check(&tm_gpt_175b, &l, 8, &err) == SN_EINPUT);
    CHECK(sn_train_check(&tm_mixtral, &l, 8, &err) == SN_OK);
    l = layout(1, 2, 4, 1, 8, SN_RECOMPUTE_FULL);
    l.zero = 3;
    CHECK(sn_train_check(&tm_gpt_175b, &l, 8, &err) == SN_EINPUT);
}

static const struct sn_test cases[] = {
    T(test_train_params_match_narayanan_formula),
    T(test_train_params_match_published_sizes),
    T(test_train_flops_match_72_and_96_coefficient_formulas),
    T(test_train_flops_reproduce_korthikanti_mfu),
    T(test_train_flops_gqa_and_swiglu_per_gemm),
    T(test_train_check_rejects_bad_layouts),
};

SN_TEST_MAIN(cases)
