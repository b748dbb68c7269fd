/* test-train-moe.c: the mixture-of-experts side of the training model:
 * MLA's parameters and FLOPs against DeepSeek's published sizes and
 * NVIDIA's model FLOPs, Megatron-Core's parallel folding, expert memory
 * over the expert-data-parallel group, the MTP stage split, and the
 * dispatch and combine at DeepEP's measured share of the links. */
#include "harness.h"
#include "sn/model.h"
#include "sn/spec.h"

/* DeepSeek-V3, the catalog's preset (src/lib/catalog/catalog-models.c: its
 * config_671B.json; reference/moe-inference.md section 1). */
static const struct sn_model_info *dsv3(void)
{
    const struct sn_model_info *m =
        sn_catalog_model(sn_catalog_builtin(), "deepseek-v3");

    if (!m) { /* every case below needs it: stop here, loudly */
        printf("  no preset 'deepseek-v3' in the catalog\n");
        abort();
    }
    return m;
}

static int free_comm(void *ctx, enum sn_coll_op op, const struct sn_group *g,
                     uint32_t siblings, double bytes, double *sec,
                     struct sn_error *err)
{
    (void)ctx, (void)op, (void)g, (void)siblings, (void)bytes, (void)err;
    *sec = 0;
    return SN_OK;
}

/* Every all-to-all moves its bytes at 900 GB/s on the scale-up links
 * (NVLink 5, a direction); the other collectives are free. */
static int wire_nvl5(void *ctx, enum sn_coll_op op, const struct sn_group *g,
                     uint32_t siblings, double bytes, double *wire,
                     double *latency, bool *scaleout, struct sn_error *err)
{
    (void)ctx, (void)g, (void)siblings, (void)err;
    *wire = op == SN_COLL_ALLTOALL ? bytes / 900e9 : 0;
    *latency = 0;
    *scaleout = false;
    return SN_OK;
}

/* A GB200 (catalog figures) with free communication. */
static void gb200(struct sn_train_system *sys)
{
    memset(sys, 0, sizeof(*sys));
    sys->name = "gb200";
    sys->accel = "gb200-nvl72";
    sys->flops = 2.5e15;
    sys->fp8_flops = 5e15;
    sys->hbm_bytes = 186e9;
    sys->hbm_bw = 8e12;
    sys->accels = 256;
    sys->domain = 64;
    sn_train_calib_for(sys->accel, &sys->calib);
    sys->comm.time = free_comm;
}

/* The layout NVIDIA ran on 256 GB200 (Megatron-Bridge 26.08: TP1 PP4
 * VPP4 EP64, MXFP8, GBS 4096, MBS 1, 4096 tokens, mla_up_proj
 * recompute). */
static struct sn_train_layout published(void)
{
    struct sn_train_layout l = {.tp = 1,
                                .pp = 4,
                                .dp = 64,
                                .cp = 1,
                                .ep = 64,
                                .vpp = 4,
                                .mbs = 1,
                                .gbs = 4096,
                                .seq = 4096,
                                .recompute = SN_RECOMPUTE_SELECTIVE,
                                .zero = 1,
                                .dtype = SN_DTYPE_FP8};
    return l;
}

static void test_moe_mla_params_match_deepseek_v3(void)
{
    /* MLA per layer, DeepSeek-V2 section 2.1: q 7168 x 1536 + 1536 x
     * 128 x 192, kv 7168 x 576 + 512 x 128 x 256, out 128 x 128 x 7168,
     * two latent norms: 187.1M; seen through a one-layer dense model of
     * vocabulary 1 and ffn 1 (2h of norms, 3h of MLP, 2h of embedding
     * and output layer, h of final norm). Totals: 671B without the MTP
     * module, which adds 11.5B unique (README_WEIGHTS); 37B active (the
     * report); the published rounding, 0.5-2%. */
    struct sn_model_info m = *dsv3(), one = *dsv3();
    double active, with, without, h = 7168;
    double want = 7168.0 * 1536 + 1536.0 * 128 * 192 + 7168.0 * 576 +
                  512.0 * 128 * 256 + 128.0 * 128 * 7168 + 1536 + 512;

    one.layers = 1, one.vocab = 1, one.ffn = 1, one.experts = 0;
    one.dense_ffn = 0, one.dense_layers = 0, one.mtp_layers = 0;
    CHECK_NEAR(sn_train_params(&one, NULL), want + 8 * h, 1e-12);
    with = sn_train_params(&m, &active);
    m.mtp_layers = 0;
    without = sn_train_params(&m, &active);
    CHECK_NEAR(without / 1e9, 671, 0.005);
    CHECK_NEAR(active / 1e9, 37, 0.02);
    CHECK_NEAR((with - without) / 1e9, 11.5, 0.02);
}

static void test_moe_flops_match_nvidia_model_tflops(void)
{
    /* Megatron-Bridge 26.08 on 256 GB200: 1276 model TFLOP/s per GPU at
     * 4912 tokens/s per GPU, 259.8 GFLOP a token, the MTP module counted
     * and the causal core at half its s x s. Ours counts the core whole
     * (the 72-coefficient convention): 3 x 2 a s (qk + v) a token on 62
     * layers, half of which is taken off to compare; within 1%. */
    struct sn_train_layout l = published();
    struct sn_train_flops f;
    double core = 3 * 62 * 2 * 128.0 * 4096 * (192 + 128);

    sn_train_flops(dsv3(), &l, &f);
    CHECK_NEAR((f.model / f.tokens - core / 2) / 1e9, 1276e12 / 4912 / 1e9,
               0.01);
}

static void test_moe_folding_rules(void)
{
    /* Megatron-Core's parallel folding: ep x etp divides tp x cp x dp,
     * ep the experts, etp the expert ffn */
    struct sn_train_layout l = published();
    struct sn_error err;

    CHECK(sn_train_check(dsv3(), &l, 256, &err) == SN_OK);
    l.tp = 2, l.dp = 32, l.sp = true, l.etp = 1;
    CHECK(sn_train_check(dsv3(), &l, 256, &err) == SN_OK); /* 64 | 64 */
    l.etp = 2;
    CHECK(sn_train_check(dsv3(), &l, 256, &err) == SN_EINPUT); /* 128 */
    CHECK_CONTAINS(err.msg, "ep x etp = 64 x 2 must divide");
    l.etp = 0, l.ep = 3; /* 0: tp */
    CHECK(sn_train_check(dsv3(), &l, 256, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "ep 3 must divide the 256 experts");
}

static void test_moe_published_layout_fits_gb200(void)
{
    /* it ran: TP1 PP4 VPP4 EP64 with the distributed optimizer on 186 GB
     * (the issue: 2.3 GiB over before MLA, MTP and edp sharding). With
     * EP64 over the 64 ranks of a stage, edp = 1: the experts' optimizer
     * state is whole on every rank, the dense part sharded over 64. */
    struct sn_train_system sys;
    struct sn_train_layout l = published();
    struct sn_train_opts o;
    struct sn_train_memory mem;

    gb200(&sys);
    sn_train_opts_default(&o);
    sn_train_memory(dsv3(), &l, &o, &sys, &mem);
    CHECK(mem.fits);
    CHECK(mem.total < sys.hbm_bytes && mem.total > 0.85 * sys.hbm_bytes);
    l.recompute = SN_RECOMPUTE_NONE; /* the up-projections kept */
    {
        struct sn_train_memory keep;
        sn_train_memory(dsv3(), &l, &o, &sys, &keep);
        CHECK(keep.activations > mem.activations * 1.2);
    }
}

static void test_moe_expert_state_sharded_over_edp(void)
{
    /* doubling dp with ep fixed doubles edp: the expert optimizer state
     * per rank halves, the dense part halves too */
    struct sn_train_layout l = published();
    struct sn_train_opts o;
    struct sn_train_memory a, b;
    struct sn_model_info m = *dsv3();

    m.mtp_layers = 0;
    sn_train_opts_default(&o);
    l.pp = 1, l.vpp = 1, l.ep = 32, l.dp = 64;
    sn_train_memory(&m, &l, &o, NULL, &a);
    l.dp = 128, l.gbs = 4096;
    sn_train_memory(&m, &l, &o, NULL, &b);
    CHECK_NEAR(b.optimizer / a.optimizer, 0.5, 1e-9);
    CHECK_NEAR(b.weights, a.weights, 1e-12); /* not sharded under ZeRO-1 */
}

static void test_moe_dispatch_and_combine_at_deepep_share(void)
{
    /* overlap off: every all-to-all exposed, at 400 (dispatch) and 190
     * (combine) of the 900 GB/s link (DeepEP on GB200): per MoE layer
     * and micro-batch 2 x (b / 400 GB/s + b / 190 GB/s), b = 4096 tokens
     * x 8 x 7168 x 2 bytes; 58 MoE layers and the MTP's over 4 stages,
     * 16 on the slowest */
    struct sn_train_system sys;
    struct sn_train_layout l = published();
    struct sn_train_opts o;
    struct sn_train_result r;
    struct sn_train *t = NULL;
    struct sn_error err;
    double b = 4096.0 * 8 * 7168 * 2, per = 2 * (b / 400e9 + b / 190e9);
    double exposed;

    gb200(&sys);
    sys.comm.wire = wire_nvl5;
    sn_train_opts_default(&o);
    o.overlap_ep = false;
    REQUIRE(sn_train_new(dsv3(), &sys, &t, &err) == SN_OK);
    REQUIRE(sn_train_predict(t, &l, &o, &r, &err) == SN_OK);
    /* the slowest stage: 16 MoE layers (stage 1 or 2), 64 micro-batches */
    CHECK_NEAR(r.part[SN_PART_EP], 64 * 16 * per, 1e-6);
    exposed = r.part[SN_PART_EP];
    o.overlap_ep = true; /* interleaved: the other micro-batch hides it */
    REQUIRE(sn_train_predict(t, &l, &o, &r, &err) == SN_OK);
    CHECK(r.part[SN_PART_EP] < 0.7 * exposed);
    l.vpp = 1, l.gbs = 4096; /* plain 1F1B: Megatron-Core cannot */
    REQUIRE(sn_train_predict(t, &l, &o, &r, &err) == SN_OK);
    CHECK_NEAR(r.part[SN_PART_EP], exposed, 1e-6);
    sn_train_free(t);
}

static void test_moe_capacity_factor_costs_expert_time(void)
{
    /* a capacity factor of 2 pads every expert to twice its balanced
     * rows: more expert compute and all-to-all than forced balance */
    struct sn_train_system sys;
    struct sn_train_layout l = published();
    struct sn_train_opts o;
    struct sn_train_result a, b;
    struct sn_train *t = NULL;
    struct sn_error err;

    gb200(&sys);
    sys.comm.wire = wire_nvl5;
    sn_train_opts_default(&o);
    REQUIRE(sn_train_new(dsv3(), &sys, &t, &err) == SN_OK);
    REQUIRE(sn_train_predict(t, &l, &o, &a, &err) == SN_OK);
    o.moe_capacity = 2;
    REQUIRE(sn_train_predict(t, &l, &o, &b, &err) == SN_OK);
    CHECK(b.part[SN_PART_FORWARD] > 1.2 * a.part[SN_PART_FORWARD]);
    CHECK(b.step_time > a.step_time);
    sn_train_free(t);
}

/* Issue 17's target: the best layout the search finds for DeepSeek-V3
 * on 256 GB200 (four NVLink domains of 64, the collective model on the
 * topology) within 10% of the published layout's throughput as the same
 * model predicts it: the search ranks layouts, and the one NVIDIA chose
 * must be near the top, neither far better (the model mis-ranking) nor
 * better than what it finds. */
static void test_moe_search_near_published_layout(void)
{
    struct sn_spec spec;
    struct sn_train_env env = {0};
    struct sn_train *t = NULL;
    struct sn_train_search s;
    struct sn_train_opts o;
    struct sn_train_search_stats st;
    struct sn_train_candidate best;
    struct sn_train_layout l = published();
    struct sn_train_result r;
    struct sn_error err;
    const struct sn_model_info *m;
    size_t n = 0;

    REQUIRE(sn_spec_load("examples/gb200-nvl72.yaml", &spec, &err) == SN_OK);
    REQUIRE(sn_spec_set(&spec, "supernode.accelerators", "64", &err) == SN_OK);
    REQUIRE(sn_spec_set(&spec, "supernodes", "4", &err) == SN_OK);
    m = sn_catalog_model(&spec.catalog, "deepseek-v3");
    REQUIRE(m);
    REQUIRE(sn_train_env_init(&env, &spec, &err) == SN_OK);
    REQUIRE(sn_train_new(m, &env.sys, &t, &err) == SN_OK);
    sn_train_opts_default(&o);
    sn_train_search_default(&s);
    s.accels = 256;
    s.gbs = 4096;
    s.seq = 4096;
    s.dtype = SN_DTYPE_FP8;
    REQUIRE(sn_train_search_run(t, &s, &o, &best, 1, &n, &st, &err) == SN_OK);
    REQUIRE(n == 1);
    REQUIRE(sn_train_predict_bound(t, &l, &o, &r, &err) == SN_OK);
    CHECK(r.mem.fits);
    printf("  search best %.0f, published layout %.0f tokens/s (%+.1f%%)\n",
           best.result.tokens_per_s, r.tokens_per_s,
           100 * (best.result.tokens_per_s / r.tokens_per_s - 1));
    CHECK(best.result.tokens_per_s >= r.tokens_per_s * (1 - 1e-9));
    /* issue 27: the search's best at most 15% above what NVIDIA measured
     * with its tuned recipe on this hardware and batch (Megatron-Bridge
     * 26.08: 4,912 tokens/s per GPU, moe-training-public.csv line 3) */
    printf("  search best %.0f tokens/s per GPU, measured 4912 (%+.1f%%)\n",
           best.result.tokens_per_s / 256,
           100 * (best.result.tokens_per_s / 256 / 4912 - 1));
    CHECK(best.result.tokens_per_s / 256 <= 1.15 * 4912);
    sn_train_free(t);
    sn_train_env_release(&env);
    sn_spec_release(&spec);
}

static const struct sn_test cases[] = {
    T(test_moe_search_near_published_layout),
    T(test_moe_mla_params_match_deepseek_v3),
    T(test_moe_flops_match_nvidia_model_tflops),
    T(test_moe_folding_rules),
    T(test_moe_published_layout_fits_gb200),
    T(test_moe_expert_state_sharded_over_edp),
    T(test_moe_dispatch_and_combine_at_deepep_share),
    T(test_moe_capacity_factor_costs_expert_time),
};

SN_TEST_MAIN(cases)
