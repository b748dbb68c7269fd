/* test-infer.c: the serving model against closed forms (KV cache per
 * token, experts a batch hits, memory-bound decode), layout rules, the
 * topology's effect on tensor parallelism, the search's front, and the
 * public set of measured serving runs
 * (tests/fixtures/validation/inference-public.csv, a copy of the
 * project's set with each row's source). */
#include <stdlib.h>

#include "harness.h"
#include "sn/model.h"

#define PUBLIC_CSV "tests/fixtures/validation/inference-public.csv"

/* DeepSeek-V3 with MLA's real dimensions (DeepSeek-V3 config_671B.json:
 * q_lora 1536, kv_lora 512, rope 64, nope 128, v 128; 3 dense layers of
 * 18432; 256 routed experts of 2048 + 1 shared, top-8) */
static const struct sn_model_info ds_v3 = {
    .name = "deepseek-v3-mla",
    .layers = 61,
    .hidden = 7168,
    .heads = 128,
    .kv_heads = 128,
    .ffn = 2048,
    .vocab = 129280,
    .seq = 4096,
    .gated_mlp = true,
    .experts = 256,
    .topk = 8,
    .shared_experts = 1,
    .dense_ffn = 18432,
    .attention = SN_ATTN_MLA,
    .q_lora_rank = 1536,
    .kv_lora_rank = 512,
    .qk_nope_head_dim = 128,
    .qk_rope_head_dim = 64,
    .v_head_dim = 128,
    .dense_layers = 3,
};

/* GPT-OSS-120B (openai/gpt-oss model.py: 36 layers, 2880 hidden, 64
 * heads of 64, 8 KV heads, sliding window 128 on every other layer, 128
 * experts of 2880, top-4, vocab 201088) */
static const struct sn_model_info gpt_oss = {
    .name = "gpt-oss-120b",
    .layers = 36,
    .hidden = 2880,
    .heads = 64,
    .kv_heads = 8,
    .head_dim = 64,
    .ffn = 2880,
    .vocab = 201088,
    .seq = 131072,
    .gated_mlp = true,
    .experts = 128,
    .topk = 4,
    .window = 128,
    .window_every = 2,
};

/* Qwen3 MoE and Llama 4 (moe-inference.md section 1: THUDM/slime and
 * NeMo configs), for the public rows until the catalog has them */
static const struct sn_model_info qwen3_235b = {
    .name = "qwen3-235b-a22b",
    .layers = 94,
    .hidden = 4096,
    .heads = 64,
    .kv_heads = 4,
    .head_dim = 128,
    .ffn = 1536,
    .vocab = 151936,
    .seq = 32768,
    .gated_mlp = true,
    .experts = 128,
    .topk = 8,
};
static const struct sn_model_info qwen3_30b = {
    .name = "qwen3-30b-a3b",
    .layers = 48,
    .hidden = 2048,
    .heads = 32,
    .kv_heads = 4,
    .head_dim = 128,
    .ffn = 768,
    .vocab = 151936,
    .seq = 32768,
    .gated_mlp = true,
    .experts = 128,
    .topk = 8,
};
static const struct sn_model_info llama4_maverick = {
    .name = "llama4-maverick",
    .layers = 48,
    .hidden = 5120,
    .heads = 40,
    .kv_heads = 8,
    .head_dim = 128,
    .ffn = 8192,
    .vocab = 202048,
    .seq = 8192,
    .gated_mlp = true,
    .experts = 128,
    .topk = 1,
    .shared_experts = 1,
    .dense_ffn = 16384,
    .moe_every = 2,
};
static const struct sn_model_info llama4_scout = {
    .name = "llama4-scout",
    .layers = 48,
    .hidden = 5120,
    .heads = 40,
    .kv_heads = 8,
    .head_dim = 128,
    .ffn = 8192,
    .vocab = 202048,
    .seq = 8192,
    .gated_mlp = true,
    .experts = 16,
    .topk = 1,
    .shared_experts = 1,
};

/* An H100-like system with no communication model (closed forms). */
static struct sn_train_system fake_sys(void)
{
    struct sn_train_system s;

    memset(&s, 0, sizeof(s));
    s.name = "fake";
    s.accel = "h100-sxm5-80gb";
    s.flops = 989.4e12;
    s.fp8_flops = 1978.9e12;
    s.hbm_bytes = 80e9;
    s.hbm_bw = 3.35e12;
    s.accels = 64;
    s.domain = 8;
    sn_train_calib_for(s.accel, &s.calib);
    return s;
}

static void test_infer_kv_mla_is_deepseeks_70kb(void)
{
    /* (512 + 64) x 61 layers x 2 bytes = 70,272: "about 70 KB per
     * token" (DeepSeek ISCA'25, "Insights into DeepSeek-V3") */
    CHECK_NEAR(sn_infer_kv_bytes(&ds_v3, 1, 2), 576.0 * 61 * 2, 1e-12);
    CHECK_NEAR(sn_infer_kv_bytes(&ds_v3, 1, 2) / 1e3, 70, 0.01);
}

static void test_infer_kv_gqa_closed_form(void)
{
    const struct sn_model_info *m =
        sn_catalog_model(sn_catalog_builtin(), "llama3-70b");

    REQUIRE(m);
    /* 2 x 8 KV heads x 128 x 80 layers x 2 bytes = 320 KiB */
    CHECK_NEAR(sn_infer_kv_bytes(m, 1, 2), 2.0 * 8 * 128 * 80 * 2, 1e-12);
    CHECK_NEAR(sn_infer_kv_bytes(m, 1000, 1), 1000 * 2.0 * 8 * 128 * 80, 1e-12);
}

static void test_infer_kv_sliding_window_caps_half_the_layers(void)
{
    double per = 2.0 * 8 * 64 * 2; /* bytes per token per layer */

    CHECK_NEAR(sn_infer_kv_bytes(&gpt_oss, 8192, 2),
               per * (18 * 8192.0 + 18 * 128.0), 1e-12);
    CHECK_NEAR(sn_infer_kv_bytes(&gpt_oss, 100, 2), per * 36 * 100, 1e-12);
}

static void test_infer_experts_hit_closed_form(void)
{
    CHECK_NEAR(sn_infer_experts_hit(256, 8, 1), 8, 1e-12);
    CHECK_NEAR(sn_infer_experts_hit(256, 8, 32),
               256 * (1 - pow(1 - 8.0 / 256, 32)), 1e-12);
    CHECK(sn_infer_experts_hit(256, 8, 4096) > 255.99);
    CHECK_NEAR(sn_infer_experts_hit(8, 2, 1e6), 8, 1e-12);
}

static void test_infer_weights_match_published_sizes(void)
{
    /* one GPU holding all the weights in BF16: 2 bytes x parameters.
     * DeepSeek-V3 671B without MTP (README_WEIGHTS), GPT-OSS-120B
     * 116.8B (model card), Qwen3-235B-A22B 235B; 1.5%: the published
     * rounding and the norms this count leaves out */
    struct sn_train_system s = fake_sys();
    struct sn_infer_layout l = {1, 1, 1, false, 1};
    struct sn_infer_work w = {1000, 1000, SN_DTYPE_BF16, SN_DTYPE_BF16};
    struct sn_infer_result r;
    struct sn_error err;

    REQUIRE(sn_infer_predict(&ds_v3, &s, &l, &w, &r, &err) == SN_OK);
    CHECK_NEAR(r.weights_bytes / 2e9, 671, 0.015);
    CHECK(!r.fits);
    REQUIRE(sn_infer_predict(&gpt_oss, &s, &l, &w, &r, &err) == SN_OK);
    CHECK_NEAR(r.weights_bytes / 2e9, 116.8, 0.015);
    REQUIRE(sn_infer_predict(&qwen3_235b, &s, &l, &w, &r, &err) == SN_OK);
    CHECK_NEAR(r.weights_bytes / 2e9, 235, 0.015);
}

static void test_infer_decode_batch_one_is_memory_bound(void)
{
    /* batch 1, one GPU: the weights part is the weights read over the
     * achievable bandwidth, and it dominates the step */
    const struct sn_model_info *m =
        sn_catalog_model(sn_catalog_builtin(), "llama3-8b");
    struct sn_train_system s = fake_sys();
    struct sn_infer_layout l = {1, 1, 1, false, 1};
    struct sn_infer_work w = {128, 128, SN_DTYPE_BF16, SN_DTYPE_BF16};
    struct sn_infer_result r;
    struct sn_error err;
    double read;

    REQUIRE(m);
    REQUIRE(sn_infer_predict(m, &s, &l, &w, &r, &err) == SN_OK);
    /* held: layers + embedding + head; read: layers + head */
    read = r.weights_bytes - 2.0 * m->vocab * m->hidden;
    CHECK_NEAR(r.part[SN_INFER_WEIGHTS], read / (3.35e12 * s.calib.mem_eff),
               1e-9);
    CHECK(r.part[SN_INFER_WEIGHTS] > 0.5 * r.step_s);
    CHECK_NEAR(r.output_tps_user, 1 / r.tpot_s, 1e-12);
    CHECK(r.fits);
}

static void test_infer_mla_batch_grows_with_dp_attention(void)
{
    /* MLA's latent is whole on every TP rank: attention data-parallel
     * holds each sequence once, so the batch that fits is tp times */
    struct sn_train_system s = fake_sys();
    struct sn_infer_layout tp = {8, 8, 1, false, 0}, dp = {8, 8, 1, true, 0};
    struct sn_infer_work w = {1000, 1000, SN_DTYPE_FP8, SN_DTYPE_FP8};
    struct sn_infer_result a, b;
    struct sn_error err;

    s.hbm_bytes = 141e9;
    REQUIRE(sn_infer_predict(&ds_v3, &s, &tp, &w, &a, &err) == SN_OK);
    REQUIRE(sn_infer_predict(&ds_v3, &s, &dp, &w, &b, &err) == SN_OK);
    CHECK(b.weights_bytes > a.weights_bytes);
    CHECK(b.max_batch > 4 * a.max_batch);
}

static void test_infer_check_rejects_bad_layouts(void)
{
    struct sn_train_system s = fake_sys();
    struct sn_infer_work w = {100, 100, SN_DTYPE_BF16, SN_DTYPE_BF16};
    struct sn_infer_layout l = {8, 3, 1, false, 0};
    struct sn_error err;

    CHECK(sn_infer_check(&ds_v3, &s, &l, &w, 8, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "does not divide tp");
    l.ep = 1;
    CHECK(sn_infer_check(&ds_v3, &s, &l, &w, 12, &err) == SN_EINPUT);
    l.tp = 1;
    l.dp_attention = true;
    CHECK(sn_infer_check(&ds_v3, &s, &l, &w, 8, &err) == SN_EINPUT);
    /* experts 2048 wide cannot split 24 ways */
    l.tp = 24;
    l.dp_attention = true;
    CHECK(sn_infer_check(&ds_v3, &s, &l, &w, 24, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "does not divide the experts' width");
    l.ep = 24;
    CHECK(sn_infer_check(&ds_v3, &s, &l, &w, 24, &err) == SN_OK);
    l.tp = l.ep = 1;
    l.dp_attention = false;
    w.precision = SN_DTYPE_FP4; /* an H100 has no FP4 */
    CHECK(sn_infer_check(&ds_v3, &s, &l, &w, 8, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "fp4");
}

static void test_infer_tp_across_the_domain_costs_more(void)
{
    /* the same TP all-reduce, inside the 8-GPU NVLink domain and across
     * two of them over InfiniBand: the latency term decides */
    struct sn_spec spec;
    struct sn_train_env env = {0};
    struct sn_error err;
    const struct sn_model_info *m;
    struct sn_infer_layout in = {8, 1, 1, false, 64}, out = in;
    struct sn_infer_work w = {1000, 1000, SN_DTYPE_FP8, SN_DTYPE_FP8};
    struct sn_infer_result a, b;

    REQUIRE(sn_spec_load("examples/dgx-h100-superpod-su.yaml", &spec, &err) ==
            SN_OK);
    m = sn_catalog_model(&spec.catalog, "llama3-405b");
    if (m && sn_train_env_init(&env, &spec, &err) == SN_OK) {
        out.tp = 16;
        CHECK(sn_infer_predict(m, &env.sys, &in, &w, &a, &err) == SN_OK);
        CHECK(sn_infer_predict(m, &env.sys, &out, &w, &b, &err) == SN_OK);
        CHECK(b.part[SN_INFER_TP] > 2 * a.part[SN_INFER_TP]);
        CHECK(a.part[SN_INFER_TP] > 0);
    } else {
        CHECK(!"llama3-405b and the example spec load");
    }
    sn_train_env_release(&env);
    sn_spec_release(&spec);
}

static void test_infer_search_front_is_not_dominated(void)
{
    struct sn_train_system s = fake_sys();
    struct sn_infer_work w = {1000, 1000, SN_DTYPE_FP8, SN_DTYPE_FP8};
    struct sn_infer_limits lim = {0, 0.05};
    struct sn_infer_point pts[400];
    struct sn_infer_search_stats st;
    struct sn_error err;
    size_t n;

    REQUIRE(sn_infer_search(&gpt_oss, &s, 8, &w, &lim, pts, 400, &n, &st,
                            &err) == SN_OK);
    REQUIRE(n > 10);
    REQUIRE(st.best >= 0);
    CHECK(pts[st.best].result.tpot_s <= 0.05);
    for (size_t i = 0; i < n; i++) {
        if (!pts[i].pareto)
            continue;
        for (size_t j = 0; j < n; j++)
            CHECK(!(
                pts[j].result.output_tps_gpu > pts[i].result.output_tps_gpu &&
                pts[j].result.output_tps_user > pts[i].result.output_tps_user));
    }
    for (size_t i = 0; i < n; i++)
        CHECK(!pts[i].meets || pts[i].result.output_tps_gpu <=
                                   pts[st.best].result.output_tps_gpu);
}

/* ---- the public serving runs ---------------------------------------- */

static const struct sn_model_info *row_model(const char *name)
{
    static const struct {
        const char *name;
        const struct sn_model_info *m;
    } local[] = {
        {"deepseek-r1", &ds_v3},
        {"deepseek-v3", &ds_v3},
        {"qwen3-235b-a22b", &qwen3_235b},
        {"qwen3-30b-a3b", &qwen3_30b},
        {"llama4-maverick", &llama4_maverick},
        {"llama4-scout", &llama4_scout},
    };
    const struct sn_catalog *c = sn_catalog_builtin();
    const struct sn_model_info *cat = sn_catalog_model(c, name), *loc = NULL;

    for (size_t i = 0; i < sizeof(local) / sizeof(local[0]); i++)
        if (!strcmp(name, local[i].name))
            loc = local[i].m;
    /* the same architectures under their release names */
    if (!cat && !strcmp(name, "llama3.3-70b"))
        cat = sn_catalog_model(c, "llama3-70b");
    if (!cat && !strcmp(name, "llama3.1-405b"))
        cat = sn_catalog_model(c, "llama3-405b");
    /* the catalog's entry once it has MLA's dimensions, else ours */
    if (cat && !(loc && loc->attention == SN_ATTN_MLA &&
                 cat->attention != SN_ATTN_MLA))
        return cat;
    return loc;
}

static long num(const char *s)
{
    return s && *s ? strtol(s, NULL, 10) : 0;
}

/* A row's layout: a replica as wide as the largest of tp, ep and the
 * attention data-parallel degree; none given (SGLang's large-EP rows):
 * every GPU of the row, attention data-parallel. */
static void row_layout(long tp, long ep, long dpa, long gpus,
                       const struct sn_model_info *m, struct sn_infer_layout *l,
                       int *n)
{
    long width = tp > ep ? tp : ep;

    if (dpa > width)
        width = dpa;
    if (width <= 1 && gpus > 8 && m->experts > 1) {
        width = gpus;
        ep = gpus;
        dpa = gpus;
    }
    l->tp = (int)width;
    l->ep = (int)(ep > 0 ? ep : 1);
    l->pp = 1;
    l->dp_attention = dpa > 1;
    l->batch = 0;
    *n = gpus % width ? (int)width : (int)gpus;
}

static double row_metric(const char *metric, const struct sn_infer_result *r,
                         int replicas)
{
    if (!strcmp(metric, "output_tokens_per_s"))
        return r->output_tps * replicas;
    if (!strcmp(metric, "output_tokens_per_s_per_gpu"))
        return r->output_tps_gpu;
    if (!strcmp(metric, "output_tokens_per_s_per_user"))
        return r->output_tps_user;
    if (!strcmp(metric, "prefill_tokens_per_s_per_gpu"))
        return r->prefill_tps_gpu;
    if (!strcmp(metric, "decode_tokens_per_s_per_gpu"))
        return r->decode_tps_gpu;
    return -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One row: its system, model and layout, predicted; the signed error, or
 * a reason in why. */
static bool predict_row(char **f, const int *col, double *err_out, char *why,
                        size_t size)
{
    const struct sn_model_info *m = row_model(f[col[1]]);
    struct sn_infer_layout l;
    struct sn_infer_work w = {0};
    struct sn_infer_result r;
    struct sn_spec spec;
    struct sn_train_env env = {0};
    struct sn_error err;
    char name[64], *text;
    int gpus, rc;
    double pred;
    const char *prec = f[col[4]], *kv = f[col[5]];

    if (!m) {
        snprintf(why, size, "model '%s' not known", f[col[1]]);
        return false;
    }
    row_layout(num(f[col[6]]), num(f[col[7]]), num(f[col[9]]), num(f[col[3]]),
               m, &l, &gpus);
    w.isl = (int)num(f[col[10]]);
    w.osl = num(f[col[11]]) > 0 ? (int)num(f[col[11]]) : 100;
    w.precision = strstr(prec, "fp4")   ? SN_DTYPE_FP4
                  : strstr(prec, "fp8") ? SN_DTYPE_FP8
                                        : SN_DTYPE_BF16;
    /* quantized checkpoints carry an FP8 KV cache (TensorRT-LLM) */
    w.kv = strstr(kv, "bf16")                    ? SN_DTYPE_BF16
           : w.precision != SN_DTYPE_BF16 || *kv ? SN_DTYPE_FP8
                                                 : SN_DTYPE_BF16;
    if (num(f[col[12]]) > 0)
        l.batch = (int)num(f[col[12]]);
    text = sn_validate_system_spec(f[col[2]], "", gpus < 8 ? 8 : gpus, name,
                                   sizeof(name));
    if (!text) {
        snprintf(why, size, "no system for '%s'", f[col[2]]);
        return false;
    }
    rc = sn_spec_parse(name, text, strlen(text), &spec, &err);
    free(text);
    if (rc) {
        snprintf(why, size, "%.200s", err.msg);
        return false;
    }
    rc = sn_train_env_init(&env, &spec, &err);
    if (!rc)
        rc = sn_infer_predict(m, &env.sys, &l, &w, &r, &err);
    sn_train_env_release(&env);
    sn_spec_release(&spec);
    if (rc) {
        snprintf(why, size, "%.200s", err.msg);
        return false;
    }
    pred = row_metric(f[col[13]], &r, gpus / r.gpus);
    *err_out = pred / strtod(f[col[14]], NULL) - 1;
    snprintf(why, size, "predicted %.0f (tp %d ep %d dpa %d batch %d)", pred,
             l.tp, l.ep, l.dp_attention, r.batch);
    return true;
}

static void test_infer_public_serving_runs(void)
{
    static const char *const names[] = {"source",
                                        "model",
                                        "gpu",
                                        "n_gpus",
                                        "precision",
                                        "kv_precision",
                                        "tp",
                                        "ep",
                                        "pp",
                                        "dp_attention",
                                        "isl",
                                        "osl",
                                        "concurrency",
                                        "measured_metric",
                                        "measured_value"};
    struct sn_csv csv;
    struct sn_error err;
    char *text = NULL;
    size_t len = 0, n = 0;
    int col[15];
    double errs[64], med;

    REQUIRE(sn_read_file(PUBLIC_CSV, SN_FILE_MAX, &text, &len, &err) == 0);
    REQUIRE(sn_csv_parse(PUBLIC_CSV, text, len, 1000, &csv, &err) == 0);
    free(text);
    for (size_t i = 0; i < 15; i++) {
        col[i] = sn_csv_column(&csv, names[i]);
        CHECK(col[i] >= 0);
    }
    for (size_t i = 1; i < csv.nrows && n < 64; i++) {
        char why[300];
        double e;
        if (predict_row(csv.fields[i], col, &e, why, sizeof(why))) {
            errs[n++] = fabs(e);
            printf("  row %2zu %-16s %-15s %-28s %+6.1f%%  %s\n", i,
                   csv.fields[i][col[1]], csv.fields[i][col[2]],
                   csv.fields[i][col[13]], 100 * e, why);
        } else {
            printf("  row %2zu not predicted: %s\n", i, why);
            CHECK(!"every public row is predicted");
        }
    }
    sn_csv_release(&csv);
    REQUIRE(n > 0);
    qsort(errs, n, sizeof(errs[0]), cmp_double);
    med = n % 2 ? errs[n / 2] : (errs[n / 2 - 1] + errs[n / 2]) / 2;
    printf("  %zu rows, median absolute error %.1f%%\n", n, 100 * med);
    /* issue 17's target is 20%; the model is at 35% (offline rows
     * over-predicted, docs/model.md "Inference"): this bound only keeps
     * it from getting worse */
    CHECK(med <= 0.40);
}

static const struct sn_test cases[] = {
    T(test_infer_kv_mla_is_deepseeks_70kb),
    T(test_infer_kv_gqa_closed_form),
    T(test_infer_kv_sliding_window_caps_half_the_layers),
    T(test_infer_experts_hit_closed_form),
    T(test_infer_weights_match_published_sizes),
    T(test_infer_decode_batch_one_is_memory_bound),
    T(test_infer_mla_batch_grows_with_dp_attention),
    T(test_infer_check_rejects_bad_layouts),
    T(test_infer_tp_across_the_domain_costs_more),
    T(test_infer_search_front_is_not_dominated),
    T(test_infer_public_serving_runs),
};

SN_TEST_MAIN(cases)
