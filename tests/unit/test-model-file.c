/* test-model-file.c: custom models from YAML (`--model FILE`,
 * sn_train_model_parse): every field a catalog preset has, each error
 * located at its key, and a file that copies a preset predicting what the
 * preset predicts in `sim train --search` and `sim infer --search`. */
#include "harness.h"
#include "sn/model.h"

/* examples/models/deepseek-v3.yaml copies the deepseek-v3 preset's
 * fields (src/lib/catalog/catalog-models.c, arXiv:2412.19437) */
#define DSV3_FILE "examples/models/deepseek-v3.yaml"
#define NVL72_SPEC "examples/gb200-nvl72.yaml"

static void test_model_file_reads_every_preset_field(void)
{
    const struct sn_model_info *p =
        sn_catalog_model(sn_catalog_builtin(), "deepseek-v3");
    struct sn_train_model_file f;
    const struct sn_model_info *m = &f.info;
    struct sn_error err;

    REQUIRE(p);
    REQUIRE(sn_train_model_load(DSV3_FILE, &f, &err) == SN_OK);
#define SAME(field) CHECK(m->field == p->field)
    SAME(layers);
    SAME(hidden);
    SAME(heads);
    SAME(kv_heads);
    SAME(ffn);
    SAME(vocab);
    SAME(seq);
    SAME(gated_mlp);
    SAME(experts);
    SAME(topk);
    SAME(shared_experts);
    SAME(moe_layers);
    SAME(dense_ffn);
    SAME(tied_embeddings);
    SAME(head_dim);
    SAME(attention);
    SAME(q_lora_rank);
    SAME(kv_lora_rank);
    SAME(qk_nope_head_dim);
    SAME(qk_rope_head_dim);
    SAME(v_head_dim);
    SAME(dense_layers);
    SAME(moe_every);
    SAME(shared_ffn);
    SAME(window);
    SAME(window_every);
    SAME(mtp_layers);
    SAME(params);
    SAME(active_params);
#undef SAME
    CHECK_STR(m->name, "deepseek-v3-file");
    CHECK_STR(m->display, "DeepSeek-V3 (MoE, MLA), from a model file");
    CHECK_STR(m->aliases, "my-dsv3");
    CHECK_STR(m->source, "arXiv:2412.19437 and config_671B.json");
    CHECK(m->confidence == SN_CONF_USER);
}

static void test_model_file_counts_what_it_does_not_publish(void)
{
    /* without params: counted from the shape as the training model
     * counts it; active below total for MoE, the MoE layers from the
     * pattern (2 dense, then every other of the remaining 6: 3) */
    static const char text[] = "layers: 8\nhidden: 512\nheads: 8\nffn: 256\n"
                               "vocab: 1000\nmlp: swiglu\nexperts: 16\n"
                               "topk: 2\ndense_layers: 2\nmoe_every: 2\n"
                               "window: 64\nwindow_every: 2\n";
    struct sn_train_model_file f;
    struct sn_error err;
    double active, total;

    REQUIRE(sn_train_model_parse("m.yaml", text, strlen(text), &f, &err) ==
            SN_OK);
    total = sn_train_params(&f.info, &active);
    CHECK(f.info.params == total && f.info.active_params == active);
    CHECK(active < total);
    CHECK(f.info.moe_layers == 3 && sn_model_moe_layers(&f.info) == 3);
    CHECK(f.info.window == 64 && f.info.window_every == 2);
    CHECK(f.info.aliases == NULL);
    CHECK_STR(f.info.source, "model file");
}

/* One training search and one serving search of m on the NVL72 example,
 * as `sim train --search --gpus 72` and `sim infer --search --gpus 8`
 * run them. */
struct figures {
    struct sn_train_candidate train;
    struct sn_infer_point infer;
};

static int figures_of(const struct sn_model_info *m,
                      const struct sn_train_env *env, struct figures *out)
{
    struct sn_train *t = NULL;
    struct sn_train_search s;
    struct sn_train_opts o;
    struct sn_train_search_stats st;
    struct sn_infer_work w = {.isl = 1000,
                              .osl = 1000,
                              .precision = SN_DTYPE_FP8,
                              .kv = SN_DTYPE_FP8};
    struct sn_infer_limits lim = {0, 0.05};
    static struct sn_infer_point pts[2000];
    struct sn_infer_search_stats ist;
    struct sn_error err;
    size_t n = 0;
    int rc;

    if ((rc = sn_train_new(m, &env->sys, &t, &err)))
        return rc;
    sn_train_opts_default(&o);
    sn_train_search_default(&s);
    s.accels = 72;
    s.seq = m->seq;
    s.gbs = sn_train_default_gbs(72, m->seq);
    rc = sn_train_search_run(t, &s, &o, &out->train, 1, &n, &st, &err);
    sn_train_free(t);
    if (rc || n != 1)
        return rc ? rc : SN_EINPUT;
    rc = sn_infer_search(m, &env->sys, 8, &w, &lim, pts, SN_ARRAY_LEN(pts), &n,
                         &ist, &err);
    if (rc || ist.best < 0)
        return rc ? rc : SN_EINPUT;
    out->infer = pts[ist.best];
    return SN_OK;
}

static bool same_train_layout(const struct sn_train_layout *x,
                              const struct sn_train_layout *y)
{
    return x->tp == y->tp && x->pp == y->pp && x->dp == y->dp &&
           x->cp == y->cp && x->ep == y->ep && x->vpp == y->vpp &&
           x->mbs == y->mbs && x->gbs == y->gbs && x->seq == y->seq &&
           x->recompute == y->recompute && x->zero == y->zero &&
           x->sp == y->sp && x->dtype == y->dtype && x->etp == y->etp;
}

static bool same_infer_layout(const struct sn_infer_layout *x,
                              const struct sn_infer_layout *y)
{
    return x->tp == y->tp && x->ep == y->ep && x->pp == y->pp &&
           x->dp_attention == y->dp_attention && x->batch == y->batch &&
           x->tbo == y->tbo;
}

static void test_model_file_predicts_as_its_preset(void)
{
    struct sn_spec spec;
    struct sn_train_env env = {0};
    struct sn_train_model_file f;
    struct figures a, b;
    struct sn_error err;
    const struct sn_model_info *p;

    REQUIRE(sn_train_model_load(DSV3_FILE, &f, &err) == SN_OK);
    REQUIRE(sn_spec_load(NVL72_SPEC, &spec, &err) == SN_OK);
    p = sn_catalog_model(&spec.catalog, "deepseek-v3");
    if (p && sn_train_env_init(&env, &spec, &err) == SN_OK &&
        figures_of(p, &env, &a) == SN_OK &&
        figures_of(&f.info, &env, &b) == SN_OK) {
        /* the same best layout, to the bit the same figures */
        CHECK(same_train_layout(&a.train.layout, &b.train.layout));
        CHECK(a.train.result.step_time == b.train.result.step_time);
        CHECK(a.train.result.mfu == b.train.result.mfu);
        CHECK(a.train.result.mem.total == b.train.result.mem.total);
        CHECK(a.train.result.flops.model == b.train.result.flops.model);
        CHECK(same_infer_layout(&a.infer.layout, &b.infer.layout));
        CHECK(a.infer.result.ttft_s == b.infer.result.ttft_s);
        CHECK(a.infer.result.tpot_s == b.infer.result.tpot_s);
        CHECK(a.infer.result.output_tps_gpu == b.infer.result.output_tps_gpu);
        CHECK(a.infer.result.kv_token_bytes == b.infer.result.kv_token_bytes);
        CHECK(a.infer.result.weights_bytes == b.infer.result.weights_bytes);
        CHECK(a.train.result.step_time > 0 && a.infer.result.tpot_s > 0);
    } else {
        CHECK(!"the preset, the NVL72 example and both searches run");
    }
    sn_train_env_release(&env);
    sn_spec_release(&spec);
}

/* The text of a small MoE model with `extra` appended (its lines from
 * line 7 on). */
static int parse_with(const char *extra, struct sn_train_model_file *f,
                      struct sn_error *err)
{
    char text[1024];

    snprintf(text, sizeof(text),
             "layers: 8\nhidden: 512\nheads: 8\nffn: 256\nvocab: 1000\n"
             "experts: 16\n%s",
             extra);
    return sn_train_model_parse("m.yaml", text, strlen(text), f, err);
}

static void test_model_file_locates_each_bad_field(void)
{
    static const struct {
        const char *extra, *want;
    } cases[] = {
        {"topk: 17\n", "m.yaml:7:7: topk must be from 1 to the 16 experts"},
        {"topk: 2\nkv_lora_rank: 64\n",
         "m.yaml:8:15: kv_lora_rank needs attention: mla"},
        {"topk: 2\nattention: mla\nkv_lora_rank: 64\n",
         "m.yaml:8:12: attention: mla needs kv_lora_rank, v_head_dim and "
         "qk_nope_head_dim or qk_rope_head_dim"},
        {"topk: 2\nattention: mla\nkv_lora_rank: 64\nv_head_dim: 64\n"
         "qk_rope_head_dim: 32\nhead_dim: 64\n",
         "m.yaml:12:11: head_dim is for attention: gqa"},
        {"topk: 2\nattention: sparse\n",
         "m.yaml:8:12: attention: 'sparse' (expected gqa or mla)"},
        {"topk: 2\nq_lora_rank: [1]\n",
         "m.yaml:8:14: q_lora_rank is a list (expected a whole number)"},
        {"topk: 2\nkv_lora_rank: 2000000\n",
         "m.yaml:8:15: kv_lora_rank is out of range (expected from 1 to "
         "1048576)"},
        {"topk: 2\nmtp_layers: 65\n",
         "m.yaml:8:13: mtp_layers is out of range (expected from 0 to 64)"},
        {"topk: 2\ndense_layers: 8\n",
         "m.yaml:8:15: dense_layers 8 leaves none of the 8 layers MoE"},
        {"topk: 2\nmoe_layers: 7\nmoe_every: 2\n",
         "m.yaml:9:12: moe_layers 7 disagrees with dense_layers 0 and "
         "moe_every 2 (4 MoE layers of 8)"},
        {"topk: 2\nshared_ffn: 128\n",
         "m.yaml:8:13: shared_ffn needs shared_experts"},
        {"topk: 2\nwindow_every: 2\n",
         "m.yaml:8:15: window_every needs window"},
        {"topk: 2\naliases: 'Big Model'\n",
         "m.yaml:8:10: aliases 'Big Model' is not a list of names"},
        {"topk: 2\nparams: 1B\nactive_params: 2B\n",
         "m.yaml:9:16: active_params 2B exceeds params 1B"},
        {"topk: 2\nmlp: swiglu\ngated_mlp: true\n",
         "m.yaml:9:12: gated_mlp: the file gives mlp already"},
        {"topk: 2\ndisplay: \"a\\x1b[31mb\"\n",
         "m.yaml:8:10: display: not a short line of text"},
    };
    struct sn_train_model_file f;
    struct sn_error err;

    for (size_t i = 0; i < SN_ARRAY_LEN(cases); i++) {
        CHECK(parse_with(cases[i].extra, &f, &err) == SN_EINPUT);
        CHECK_CONTAINS(err.msg, cases[i].want);
    }
    /* a dense model has no MoE pattern */
    {
        static const char dense[] = "layers: 8\nhidden: 512\nheads: 8\n"
                                    "ffn: 256\nvocab: 1000\nmoe_every: 2\n";
        CHECK(sn_train_model_parse("m.yaml", dense, strlen(dense), &f, &err) ==
              SN_EINPUT);
        CHECK_CONTAINS(err.msg, "m.yaml:6:12: dense_layers, moe_every and "
                                "shared_ffn need experts of 2 or more");
    }
}

static const struct sn_test cases[] = {
    T(test_model_file_reads_every_preset_field),
    T(test_model_file_counts_what_it_does_not_publish),
    T(test_model_file_predicts_as_its_preset),
    T(test_model_file_locates_each_bad_field),
};

SN_TEST_MAIN(cases)
