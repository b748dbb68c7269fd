/* test-memory.c: memory per accelerator against Korthikanti et al.'s
 * formulas and Figure 1, Megatron's distributed-optimizer table and the
 * ZeRO stages. */
/* covers: net workload study */
#include "harness.h"
#include "sn/model.h"
#include "train-models.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

/* Korthikanti et al. 2022 Table 3 layouts: TP 8, micro-batch 4 (22B) or
 * 1, interleaving 3 for 175B and 530B, 2048 tokens. */
static struct sn_train_layout korthikanti(int pp, int mbs, int vpp, int gbs,
                                          bool sp, enum sn_recompute rc)
{
    struct sn_train_layout l = {.tp = 8,
                                .pp = pp,
                                .dp = 1,
                                .cp = 1,
                                .ep = 1,
                                .vpp = vpp,
                                .mbs = mbs,
                                .gbs = gbs,
                                .seq = 2048,
                                .recompute = rc,
                                .zero = 0,
                                .sp = sp,
                                .dtype = SN_DTYPE_BF16};
    return l;
}

/* 2022-era Megatron: attention scores stored, dropout masks kept (the
 * legacy stack's overlap settings do not change the memory) */
static struct sn_train_opts old_megatron(void)
{
    struct sn_train_opts o;

    sn_train_opts_legacy(&o);
    return o;
}

static void test_memory_activations_match_korthikanti_figure_1(void)
{
    /* Korthikanti Fig. 1 as encoded in Calculon's validation (GiB):
     * activations with TP only / with TP + SP + selective recompute.
     * They are the per-layer formula s b h (10 + 24/t + 5 a s/(h t)) and
     * 34 s b h / t times all layers (1F1B) and 1 + (p-1)/(p v) when
     * interleaved. Ours adds the embedding dropout mask on stage 0 (p s b h
     * bytes, Korthikanti section 4.3): up to 2.4% (1T). Tolerance 3%. */
    static const struct {
        const struct sn_model_info *m;
        int pp, mbs, vpp, gbs;
        double tp_only, sp_sel;
    } cases[] = {
        {&tm_gpt_22b, 1, 4, 1, 4, 59.25, 9.56},
        {&tm_gpt_175b, 8, 1, 3, 64, 66.84, 12.35},
        {&tm_gpt_530b, 35, 1, 3, 280, 114.02, 23.08},
        {&tm_gpt_1t, 64, 1, 1, 512, 131.25, 26.56},
    };
    struct sn_train_opts o = old_megatron();

    for (size_t i = 0; i < SN_ARRAY_LEN(cases); i++) {
        struct sn_train_layout a =
            korthikanti(cases[i].pp, cases[i].mbs, cases[i].vpp, cases[i].gbs,
                        false, SN_RECOMPUTE_NONE);
        struct sn_train_layout b =
            korthikanti(cases[i].pp, cases[i].mbs, cases[i].vpp, cases[i].gbs,
                        true, SN_RECOMPUTE_SELECTIVE);
        struct sn_train_memory ma, mb;

        sn_train_memory(cases[i].m, &a, &o, NULL, &ma);
        sn_train_memory(cases[i].m, &b, &o, NULL, &mb);
        REQUIRE(ma.stage == 0 && mb.stage == 0);
        CHECK_NEAR(ma.activations / GIB, cases[i].tp_only, 0.03);
        CHECK_NEAR(mb.activations / GIB, cases[i].sp_sel, 0.03);
    }
}

static void test_memory_per_layer_formula_exact(void)
{
    /* one layer, no pipeline, no embedding term difference: the stored
     * bytes of 22B minus the stage-0 embedding output equal the formula
     * exactly (Korthikanti Table 2 rows) */
    const struct sn_model_info *m = &tm_gpt_22b;
    struct sn_train_opts o = old_megatron();
    double s = 2048, b = 4, h = 6144, a = 64, t = 8, L = 48;
    double sbh = s * b * h, emb = sbh; /* the 1-byte dropout mask */
    struct sn_train_layout l =
        korthikanti(1, 4, 1, 4, false, SN_RECOMPUTE_NONE);
    struct sn_train_memory mem;

    sn_train_memory(m, &l, &o, NULL, &mem);
    CHECK_NEAR(mem.activations - emb,
               L * sbh * (10 + 24 / t + 5 * a * s / (h * t)), 1e-12);
    l.sp = true;
    sn_train_memory(m, &l, &o, NULL, &mem);
    CHECK_NEAR(mem.activations - emb / t, L * sbh * (34 + 5 * a * s / h) / t,
               1e-12);
    l.recompute = SN_RECOMPUTE_SELECTIVE;
    sn_train_memory(m, &l, &o, NULL, &mem);
    CHECK_NEAR(mem.activations - emb / t, L * 34 * sbh / t, 1e-12);
    l.recompute = SN_RECOMPUTE_FULL;
    l.sp = false;
    sn_train_memory(m, &l, &o, NULL, &mem);
    CHECK_NEAR(mem.activations - emb, L * 2 * sbh, 1e-12);
}

static void test_memory_flash_attention_drops_the_s_squared_term(void)
{
    struct sn_train_opts o = old_megatron();
    struct sn_train_layout l = korthikanti(1, 4, 1, 4, true, SN_RECOMPUTE_NONE);
    struct sn_train_memory plain, flash, sel;

    sn_train_memory(&tm_gpt_22b, &l, &o, NULL, &plain);
    l.recompute = SN_RECOMPUTE_SELECTIVE;
    sn_train_memory(&tm_gpt_22b, &l, &o, NULL, &sel);
    o.flash_attention = true;
    l.recompute = SN_RECOMPUTE_NONE;
    sn_train_memory(&tm_gpt_22b, &l, &o, NULL, &flash);
    /* fused attention keeps only an fp32 log-sum-exp per head and token */
    CHECK_NEAR(flash.activations - sel.activations,
               48 * 2048.0 * 4 * 4 * 64 / 8, 1e-9);
    CHECK(flash.activations < 0.5 * plain.activations);
}

static void test_memory_params_optimizer_match_figure_1(void)
{
    /* Korthikanti Fig. 1 params + optimizer (GiB): 18 bytes per
     * parameter of the layers on one GPU. The first stage also holds the
     * word embedding (V h / t) and the learned positions (s h, not split
     * by TP), which the figure leaves out: the figure plus those, within
     * 1%. */
    static const struct {
        const struct sn_model_info *m;
        int pp, mbs, vpp, gbs;
        double gib;
    } cases[] = {
        {&tm_gpt_22b, 1, 4, 1, 4, 45.56},
        {&tm_gpt_175b, 8, 1, 3, 64, 45.56},
        {&tm_gpt_530b, 35, 1, 3, 280, 31.64},
        {&tm_gpt_1t, 64, 1, 1, 512, 32.96},
    };
    struct sn_train_opts o = old_megatron();

    for (size_t i = 0; i < SN_ARRAY_LEN(cases); i++) {
        const struct sn_model_info *m = cases[i].m;
        struct sn_train_layout l =
            korthikanti(cases[i].pp, cases[i].mbs, cases[i].vpp, cases[i].gbs,
                        true, SN_RECOMPUTE_SELECTIVE);
        struct sn_train_memory mem;
        double states, emb = 18.0 * m->hidden * (m->vocab / 8.0 + m->seq);

        sn_train_memory(m, &l, &o, NULL, &mem);
        states = mem.weights + mem.gradients + mem.optimizer;
        CHECK(mem.stage == 0);
        CHECK_NEAR(states / GIB, cases[i].gib + emb / GIB, 0.01);
    }
}

static double state_bytes_per_param(enum sn_dtype dt, int zero, int dp)
{
    /* a layer-only model: no vocabulary, so every parameter is in the
     * layers and split evenly */
    struct sn_model_info m = tm_gpt_22b;
    struct sn_train_layout l =
        korthikanti(1, 1, 1, dp, false, SN_RECOMPUTE_FULL);
    struct sn_train_opts o = old_megatron();
    struct sn_train_memory mem;
    double params;

    m.vocab = 0;
    m.seq = 0;
    l.tp = 1;
    l.dp = dp;
    l.zero = zero;
    l.dtype = dt;
    sn_train_memory(&m, &l, &o, NULL, &mem);
    params = sn_train_params(&m, NULL);
    return (mem.weights + mem.gradients + mem.optimizer) / params;
}

static void test_memory_optimizer_bytes_match_megatron_and_zero(void)
{
    /* Megatron-LM dist_optimizer.md: bf16 params / fp32 grads 18 bytes,
     * distributed optimizer 6 + 12/d; fp16 / fp16 20 and 4 + 16/d. */
    CHECK_NEAR(state_bytes_per_param(SN_DTYPE_BF16, 0, 8), 18, 1e-3);
    CHECK_NEAR(state_bytes_per_param(SN_DTYPE_BF16, 1, 8), 6 + 12.0 / 8, 1e-3);
    CHECK_NEAR(state_bytes_per_param(SN_DTYPE_FP16, 0, 8), 20, 1e-3);
    CHECK_NEAR(state_bytes_per_param(SN_DTYPE_FP16, 1, 64), 4 + 16.0 / 64,
               1e-3);
    /* ZeRO (Rajbhandari et al. SC'20) with the same state: stage 2 shards
     * the gradients too (2 + 16/d), stage 3 everything (18/d) */
    CHECK_NEAR(state_bytes_per_param(SN_DTYPE_BF16, 2, 16), 2 + 16.0 / 16,
               1e-3);
    CHECK_NEAR(state_bytes_per_param(SN_DTYPE_BF16, 3, 64), 18.0 / 64, 1e-3);
}

static void test_memory_pipeline_inflight_1f1b_and_interleaved(void)
{
    /* 1F1B: stage r holds pp - r micro-batches (fewer when m < pp);
     * interleaved rank 0: (pp-1)*2 + (v-1)*pp + 1 chunks of L/(pp v)
     * layers = L (1 + (pp-1)/(pp v)) layers' worth */
    struct sn_train_opts o = old_megatron();
    struct sn_train_layout l =
        korthikanti(8, 1, 1, 64, true, SN_RECOMPUTE_FULL);
    struct sn_train_memory a, b, c;

    sn_train_memory(&tm_gpt_175b, &l, &o, NULL, &a);
    l.gbs = 4; /* four micro-batches only */
    sn_train_memory(&tm_gpt_175b, &l, &o, NULL, &b);
    CHECK_NEAR(b.activations / a.activations, 4.0 / 8, 1e-9);
    l.gbs = 64;
    l.vpp = 3;
    sn_train_memory(&tm_gpt_175b, &l, &o, NULL, &c);
    CHECK_NEAR(c.activations / a.activations, 1 + 7.0 / 24, 1e-9);
}

static void test_memory_reports_does_not_fit(void)
{
    struct sn_train_system sys = {.hbm_bytes = 80e9};
    struct sn_train_opts o = old_megatron();
    struct sn_train_layout l =
        korthikanti(1, 4, 1, 4, false, SN_RECOMPUTE_NONE);
    struct sn_train_memory mem;

    /* 22B on 8 GPUs without recompute: 45 GiB of state and 59 GiB of
     * activations (Korthikanti Fig. 1) cannot fit in 80 GB */
    sn_train_memory(&tm_gpt_22b, &l, &o, &sys, &mem);
    CHECK(!mem.fits);
    CHECK(mem.total > mem.capacity + 20e9);
    l.sp = true;
    l.recompute = SN_RECOMPUTE_SELECTIVE;
    sn_train_memory(&tm_gpt_22b, &l, &o, &sys, &mem);
    CHECK(mem.fits);
    CHECK_NEAR(mem.capacity, 80e9, 1e-12);
}

static void test_memory_moe_experts_split_by_ep(void)
{
    /* Mixtral on ep 8 holds one expert per GPU: the expert weights drop
     * eightfold, the attention stays */
    struct sn_train_opts o;
    struct sn_train_layout l = {.tp = 1,
                                .pp = 1,
                                .dp = 8,
                                .cp = 1,
                                .ep = 1,
                                .vpp = 1,
                                .mbs = 1,
                                .gbs = 8,
                                .seq = 4096,
                                .recompute = SN_RECOMPUTE_FULL,
                                .zero = 1,
                                .dtype = SN_DTYPE_BF16};
    struct sn_train_memory one, eight;
    double h = 4096, expert = 3 * h * 14336;

    sn_train_opts_default(&o);
    sn_train_memory(&tm_mixtral, &l, &o, NULL, &one);
    l.ep = 8;
    sn_train_memory(&tm_mixtral, &l, &o, NULL, &eight);
    CHECK_NEAR((one.weights - eight.weights) / 2, 32 * 7 * expert, 1e-9);
}

/* Llama 3 405B as Meta ran it at 16,384 H100 (Dubey et al. 2024, Table 4
 * and section 3.3.2): TP 8, PP 16, DP 128, one sequence of 8,192 tokens
 * per micro-batch, 16 per pipeline, no activation recompute */
static struct sn_train_layout llama3_layout(int vpp, int zero)
{
    struct sn_train_layout l = {.tp = 8,
                                .pp = 16,
                                .dp = 128,
                                .cp = 1,
                                .ep = 1,
                                .vpp = vpp,
                                .mbs = 1,
                                .gbs = 2048,
                                .seq = 8192,
                                .recompute = SN_RECOMPUTE_NONE,
                                .zero = zero,
                                .sp = true,
                                .dtype = SN_DTYPE_BF16};
    return l;
}

static void test_memory_llama3_first_and_last_stage_hold_a_layer_fewer(void)
{
    /* Llama 3 section 3.3.2: 126 layers on 16 stages, the first and the
     * last one layer fewer so that the embedding and the output layer
     * weigh as a layer each: 7 + 14 x 8 + 7. Stage 0's weights are seven
     * layers and the embedding (closed form, 2 bytes per parameter); its
     * activations 7/8 of those of a 128-layer model's stage 0 with the
     * same 16 micro-batches in flight. */
    struct sn_train_opts o;
    struct sn_train_layout l = llama3_layout(1, 1);
    struct sn_train_memory mem, even;
    struct sn_model_info m128 = tm_llama3_405b;
    double h = 16384, kvd = 8 * 128, layer, stage0;

    sn_train_opts_default(&o);
    layer = (2 * h * h + 2 * h * kvd + 3 * h * 53248) / 8 + 2 * h;
    stage0 = 7 * layer + 128256 * h / 8;
    sn_train_memory(&tm_llama3_405b, &l, &o, NULL, &mem);
    CHECK(mem.stage == 0);
    CHECK_NEAR(mem.weights / (2 * stage0), 1, 1e-9);
    m128.layers = 128;
    sn_train_memory(&m128, &l, &o, NULL, &even);
    CHECK_NEAR(mem.activations / even.activations, 7.0 / 8, 1e-9);
}

static void test_memory_llama3_fits_80gb_with_sharded_gradients(void)
{
    /* Llama 3 section 3.3.2: FSDP shards the optimizer states and the
     * gradients (not the weights) and the 8K runs need no activation
     * checkpointing on 80 GB H100. ZeRO-2 under the pipeline: the FP32
     * gradients over the 128 DP ranks, the rest as ZeRO-1; it fits. */
    struct sn_train_system sys = {.hbm_bytes = 80e9};
    struct sn_train_opts o;
    struct sn_train_layout l1 = llama3_layout(8, 1), l2 = llama3_layout(8, 2);
    struct sn_train_memory z1, z2;
    struct sn_error err;

    sn_train_opts_default(&o);
    sn_train_calib_for("h100", &sys.calib);
    CHECK(sn_train_check(&tm_llama3_405b, &l2, 16384, &err) == SN_OK);
    sn_train_memory(&tm_llama3_405b, &l1, &o, &sys, &z1);
    sn_train_memory(&tm_llama3_405b, &l2, &o, &sys, &z2);
    CHECK_NEAR(z2.gradients, z1.gradients / 128, 1e-6);
    CHECK_NEAR(z2.activations, z1.activations, 1e-6);
    CHECK(z2.fits);
}

/* ZeRO-2 still produces each gradient whole: the bucket being filled and
 * the one being reduce-scattered, Megatron-Core's max(40M, 1M x dp)
 * elements each, are held at the gradient's bytes (FP32 here); without
 * the overlap, the one being filled. */
static void test_memory_zero2_holds_two_gradient_buckets_whole(void)
{
    struct sn_train_opts o;
    struct sn_train_layout l1 = llama3_layout(8, 1), l2 = llama3_layout(8, 2);
    struct sn_train_memory z1, z2;

    sn_train_opts_default(&o);
    REQUIRE(o.overlap_grad_reduce && l2.dp == 128);
    sn_train_memory(&tm_llama3_405b, &l1, &o, NULL, &z1);
    sn_train_memory(&tm_llama3_405b, &l2, &o, NULL, &z2);
    CHECK_NEAR(z2.buffers - z1.buffers, 4 * 2 * 128e6, 1e-9);
    o.overlap_grad_reduce = false;
    sn_train_memory(&tm_llama3_405b, &l1, &o, NULL, &z1);
    sn_train_memory(&tm_llama3_405b, &l2, &o, NULL, &z2);
    CHECK_NEAR(z2.buffers - z1.buffers, 4 * 128e6, 1e-9);
}

static const struct sn_test cases[] = {
    T(test_memory_activations_match_korthikanti_figure_1),
    T(test_memory_per_layer_formula_exact),
    T(test_memory_flash_attention_drops_the_s_squared_term),
    T(test_memory_params_optimizer_match_figure_1),
    T(test_memory_optimizer_bytes_match_megatron_and_zero),
    T(test_memory_pipeline_inflight_1f1b_and_interleaved),
    T(test_memory_reports_does_not_fit),
    T(test_memory_moe_experts_split_by_ep),
    T(test_memory_llama3_first_and_last_stage_hold_a_layer_fewer),
    T(test_memory_llama3_fits_80gb_with_sharded_gradients),
    T(test_memory_zero2_holds_two_gradient_buckets_whole),
};

SN_TEST_MAIN(cases)
