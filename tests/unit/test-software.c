/* test-software.c: the training software profiles (software.c), the host
 * time of a step (train-host.c), ZeRO-3's gathers as DeepSpeed prefetches
 * them, and the spec's software: section with its located errors. */
#include <math.h>
#include <string.h>

#include "../../src/lib/model/train-int.h"
#include "harness.h"
#include "sn/model.h"
#include "sn/spec.h"

/* A small GPT: 4 layers of hidden 256, small enough that an eager
 * stack's launches outrun its kernels. */
static const struct sn_model_info tiny = {.name = "tiny",
                                          .layers = 4,
                                          .hidden = 256,
                                          .heads = 4,
                                          .kv_heads = 4,
                                          .ffn = 1024,
                                          .vocab = 1024,
                                          .seq = 512};

/* A tiny MoE: 2 layers, 8 experts of 256, top 2 (a 3B-active model's
 * per-layer work in miniature). */
static const struct sn_model_info tiny_moe = {.name = "tiny-moe",
                                              .layers = 2,
                                              .hidden = 512,
                                              .heads = 8,
                                              .kv_heads = 8,
                                              .ffn = 256,
                                              .vocab = 1024,
                                              .seq = 1024,
                                              .gated_mlp = true,
                                              .experts = 8,
                                              .topk = 2};

/* Closed-form collectives: an all-gather or reduce-scatter of `bytes`
 * (the nccl-tests size, the whole buffer) takes bytes / bw; every other
 * collective is free. Records the largest all-gather. */
struct flat {
    double bw;
    double ag_bytes;
    bool rs_free;
};

static int flat_time(void *ctx, enum sn_coll_op op, const struct sn_group *g,
                     uint32_t siblings, double bytes, double *sec,
                     struct sn_error *err)
{
    struct flat *f = ctx;

    (void)g, (void)siblings, (void)err;
    *sec = 0;
    if (op == SN_COLL_ALLGATHER) {
        *sec = bytes / f->bw;
        if (bytes > f->ag_bytes)
            f->ag_bytes = bytes;
    } else if (op == SN_COLL_REDUCESCATTER && !f->rs_free) {
        *sec = bytes / f->bw;
    }
    return SN_OK;
}

static struct sn_train *make(const struct sn_model_info *m, int accels,
                             double host_launch, struct flat *f)
{
    struct sn_train_system sys = {0};
    struct sn_train *t = NULL;
    struct sn_error err;

    sys.name = "test";
    sys.accel = "h100-sxm";
    sys.flops = 989e12;
    sys.fp8_flops = 1979e12;
    sys.hbm_bytes = 80e9;
    sys.hbm_bw = 3.35e12;
    sys.accels = accels;
    sys.domain = 8;
    sys.host_launch = host_launch;
    sys.host_cpu = host_launch > 0 ? "test" : NULL;
    sn_train_calib_for(sys.accel, &sys.calib);
    sys.comm.time = flat_time;
    sys.comm.ctx = f;
    if (sn_train_new(m, &sys, &t, &err))
        printf("  %s\n", err.msg);
    return t;
}

static struct sn_train_layout one_gpu(int gbs, int seq)
{
    struct sn_train_layout l = {.tp = 1,
                                .pp = 1,
                                .dp = 1,
                                .cp = 1,
                                .ep = 1,
                                .vpp = 1,
                                .mbs = 1,
                                .gbs = gbs,
                                .seq = seq,
                                .dtype = SN_DTYPE_BF16};
    return l;
}

static void profile(const char *name, struct sn_train_opts *o)
{
    const struct sn_train_software *s = NULL;
    struct sn_error err;

    memset(o, 0, sizeof(*o));
    CHECK(sn_train_software_find(name, &s, &err) == SN_OK);
    if (s)
        sn_train_software_apply(s, o);
}

static void test_profiles_are_named_and_sourced(void)
{
    const struct sn_train_software *list, *s = NULL;
    struct sn_train_opts o;
    struct sn_error err;
    size_t n;

    list = sn_train_software_list(&n);
    CHECK(n >= 8);
    for (size_t i = 0; i < n; i++) {
        CHECK(list[i].name && list[i].source && strlen(list[i].source) > 20);
        CHECK(!strcmp(list[i].opts.software, list[i].name));
    }
    CHECK(sn_train_software_find("megatron-cor", &s, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "did you mean 'megatron-core'");
    /* the default is the best recipe; the legacy options are 2022's */
    sn_train_opts_default(&o);
    CHECK(!strcmp(o.software, sn_train_software_best()->name));
    CHECK(o.ep_dedup && o.overlap_ep && o.graphs == SN_GRAPHS_PARTIAL);
    CHECK(o.te_modules);
    sn_train_opts_legacy(&o);
    CHECK(!strcmp(o.software, "megatron-lm-2022") && o.dropout);
    /* the plain stack has none of the recipe's features */
    profile("plain", &o);
    CHECK(!o.ep_dedup && !o.overlap_ep && !o.overlap_tp &&
          o.graphs == SN_GRAPHS_NONE && o.moe_sync && !o.te_modules);
    profile("torchtitan", &o);
    CHECK(!o.te_modules);
    /* recipes run expert TP 1 */
    CHECK(sn_train_software_find("megatron-bridge", &s, &err) == SN_OK);
    CHECK(s && s->etp_default == 1);
}

static void test_rows_name_their_stack(void)
{
    CHECK(!strcmp(
        sn_train_software_guess("zero-3 (deepspeed), no model parallelism")
            ->name,
        "deepspeed"));
    CHECK(!strcmp(sn_train_software_guess("1f1b; megatron-deepspeed")->name,
                  "megatron-lm-2022"));
    CHECK(!strcmp(sn_train_software_guess("nvidia megatron-bridge docs, nemo "
                                          "container")
                      ->name,
                  "megatron-bridge"));
    CHECK(!strcmp(sn_train_software_guess("pytorch/torchtitan")->name,
                  "torchtitan"));
    CHECK(sn_train_software_guess("narayanan et al. sc'21") == NULL);
}

/* Host-bound, the host part grows by launches x the CPU cost of one:
 * the eager tiny GPT launches 30 kernels per layer and micro-batch
 * (forward: two norms, QKV, the fused core, the projection, two
 * bias-dropout-adds, FC1, the activation, FC2; backward two per forward
 * kernel but the core's two), a CUDA-graphed one 4 (attention and MLP,
 * each way). */
static void test_host_part_is_launches_times_cost(void)
{
    struct flat f = {.bw = 1e30, .rs_free = true};
    struct sn_train *a = make(&tiny, 1, 100e-6, &f);
    struct sn_train *b = make(&tiny, 1, 200e-6, &f);
    struct sn_train_layout l = one_gpu(8, 512);
    struct sn_train_opts eager, graphs;
    struct sn_train_result ra, rb, ga, gb;
    struct sn_error err;
    double m = 8, layers = 4;

    profile("plain", &eager);
    graphs = eager;
    graphs.graphs = SN_GRAPHS_PARTIAL;
    CHECK(sn_train_predict(a, &l, &eager, &ra, &err) == SN_OK);
    CHECK(sn_train_predict(b, &l, &eager, &rb, &err) == SN_OK);
    CHECK(ra.part[SN_PART_HOST] > 0);
    CHECK_NEAR(rb.part[SN_PART_HOST] - ra.part[SN_PART_HOST],
               m * layers * 30 * 100e-6, 1e-9);
    CHECK_NEAR(rb.step_time - ra.step_time, m * layers * 30 * 100e-6, 1e-9);
    /* selective recompute with fused attention runs nothing again on
     * the GPU (the core recomputes its scores itself): no launch more */
    {
        struct sn_train_layout sel = l;
        struct sn_train_result sa, sb;
        sel.recompute = SN_RECOMPUTE_SELECTIVE;
        CHECK(sn_train_predict(a, &sel, &eager, &sa, &err) == SN_OK);
        CHECK(sn_train_predict(b, &sel, &eager, &sb, &err) == SN_OK);
        CHECK_NEAR(sb.part[SN_PART_HOST] - sa.part[SN_PART_HOST],
                   m * layers * 30 * 100e-6, 1e-9);
    }
    /* partial CUDA graphs: 4 launches a layer; at 200 us the host still
     * bounds this model */
    CHECK(sn_train_predict(a, &l, &graphs, &ga, &err) == SN_OK);
    CHECK(sn_train_predict(b, &l, &graphs, &gb, &err) == SN_OK);
    CHECK(gb.step_time < rb.step_time);
    if (ga.part[SN_PART_HOST] > 0)
        CHECK_NEAR(gb.part[SN_PART_HOST] - ga.part[SN_PART_HOST],
                   m * layers * 4 * 100e-6, 1e-9);
    /* no host model: no host part */
    {
        struct sn_train *z = make(&tiny, 1, 0, &f);
        struct sn_train_result rz;
        CHECK(sn_train_predict(z, &l, &eager, &rz, &err) == SN_OK);
        CHECK(rz.part[SN_PART_HOST] == 0);
        CHECK(rz.step_time < ra.step_time);
        sn_train_free(z);
    }
    sn_train_free(a);
    sn_train_free(b);
}

/* TransformerEngine modules (te_modules): each Linear and the fused core
 * cost the host a module's forward work, 99.66 / 37.08 launches (TE
 * issue #2053), and in the backward that and one more launch. The eager
 * tiny GPT has four Linears (QKV, projection, FC1, FC2) and the core: 10
 * x (module - 1) launches a layer and micro-batch more than the 30 of
 * the plain stack. */
static void test_te_modules_cost_the_host_a_module(void)
{
    struct flat f = {.bw = 1e30, .rs_free = true};
    struct sn_train *a = make(&tiny, 1, 100e-6, &f);
    struct sn_train *b = make(&tiny, 1, 200e-6, &f);
    struct sn_train_layout l = one_gpu(8, 512);
    struct sn_train_opts te;
    struct sn_train_result ra, rb;
    struct sn_error err;
    double m = 8, layers = 4, module = 99.66 / 37.08;
    double launches = 30 + 10 * (module - 1);

    profile("plain", &te);
    te.te_modules = true;
    CHECK(sn_train_predict(a, &l, &te, &ra, &err) == SN_OK);
    CHECK(sn_train_predict(b, &l, &te, &rb, &err) == SN_OK);
    CHECK_NEAR(rb.part[SN_PART_HOST] - ra.part[SN_PART_HOST],
               m * layers * launches * 100e-6, 1e-9);
    sn_train_free(a);
    sn_train_free(b);
}

/* With TE the routed experts' GroupedLinear runs one cuBLAS GEMM per local
 * expert: the host work of a MoE layer grows with the experts a rank
 * holds. The tiny MoE's 8 experts on one rank launch more than the same
 * layer without TE (one grouped kernel each way). */
static void test_te_grouped_gemm_launches_per_expert(void)
{
    struct flat f = {.bw = 1e30, .rs_free = true};
    struct sn_train *t = make(&tiny_moe, 1, 200e-6, &f);
    struct sn_train_layout l = one_gpu(4, 1024);
    struct sn_train_opts plain, te;
    struct sn_train_result rp, rt;
    struct sn_error err;

    profile("plain", &plain);
    te = plain;
    te.te_modules = true;
    CHECK(sn_train_predict(t, &l, &plain, &rp, &err) == SN_OK);
    CHECK(sn_train_predict(t, &l, &te, &rt, &err) == SN_OK);
    /* both host-bound: the difference is at least the per-expert
     * launches past the first, 6 x 7 a layer and micro-batch */
    CHECK(rt.part[SN_PART_HOST] - rp.part[SN_PART_HOST] >=
          4 * 2 * 6 * 7 * 200e-6 * (1 - 1e-9));
    sn_train_free(t);
}

/* After a MoE layer's sync the host issues the routed part first: what
 * it lags behind the GPU there is lost even when the whole segment's GPU
 * time (attention and router after it) would cover its launches. One MoE
 * layer, 10 us a launch: 100 launches against 2 ms of GPU hide; of them
 * the routed part's 50 (0.5 ms) against 0.2 ms of GPU leave it 0.3 ms
 * behind, plus the first launch after the sync. */
static void test_host_lag_in_the_routed_part_is_exposed(void)
{
    struct sn_train_opts o = {.moe_sync = true};
    struct sn__host_launches dh = {0}, mh = {.fwd = 100, .routed = 50};
    struct sn__host_seg dg = {0}, mg = {.fwd = 2e-3, .routed = 0.2e-3};

    CHECK_NEAR(sn__train_host_exposed(&o, 10e-6, 0, 1, &dg, &mg, &dh, &mh),
               0.3e-3 + 10e-6, 1e-12);
    /* the routed part's GPU time covers its launches: the sync's launch */
    mg.routed = 1e-3;
    CHECK_NEAR(sn__train_host_exposed(&o, 10e-6, 0, 1, &dg, &mg, &dh, &mh),
               10e-6, 1e-12);
    /* the whole behind as well: the worse of the two */
    mg.fwd = 0.1e-3;
    mg.routed = 0.2e-3;
    CHECK_NEAR(sn__train_host_exposed(&o, 10e-6, 0, 1, &dg, &mg, &dh, &mh),
               0.9e-3 + 10e-6, 1e-12);
}

/* A tiny MoE without CUDA graphs on a Grace host is slower than on an x86
 * one (the per-launch costs of sn_train_host_class), and each MoE
 * layer's host sync leaves the GPU waiting at least one launch per
 * micro-batch. */
static void test_tiny_moe_on_grace_is_host_bound(void)
{
    const struct sn_catalog *cat = sn_catalog_builtin();
    double grace = 0, x86 = 0;
    const char *gc =
        sn_train_host_class(sn_catalog_accel(cat, "gb200-nvl72"), &grace);
    const char *xc =
        sn_train_host_class(sn_catalog_accel(cat, "b200-hgx"), &x86);
    struct flat f = {.bw = 1e30, .rs_free = true};
    struct sn_train *g, *x;
    struct sn_train_layout l = one_gpu(4, 1024);
    struct sn_train_opts o, nosync;
    struct sn_train_result rg, rx, rn;
    struct sn_error err;

    CHECK(!strcmp(gc, "grace") && !strcmp(xc, "x86"));
    CHECK(grace > x86 && x86 > 0);
    g = make(&tiny_moe, 1, grace, &f);
    x = make(&tiny_moe, 1, x86, &f);
    profile("plain", &o);
    CHECK(sn_train_predict(g, &l, &o, &rg, &err) == SN_OK);
    CHECK(sn_train_predict(x, &l, &o, &rx, &err) == SN_OK);
    CHECK(rg.step_time > rx.step_time);
    CHECK(rg.part[SN_PART_HOST] > rx.part[SN_PART_HOST]);
    /* two MoE layers, four micro-batches: at least one launch after
     * each of the eight syncs */
    CHECK(rg.part[SN_PART_HOST] >= 4 * 2 * grace * (1 - 1e-12));
    /* padded dispatch (no sync) waits less */
    nosync = o;
    nosync.moe_sync = false;
    CHECK(sn_train_predict(g, &l, &nosync, &rn, &err) == SN_OK);
    CHECK(rn.part[SN_PART_HOST] < rg.part[SN_PART_HOST]);
    sn_train_free(g);
    sn_train_free(x);
}

/* ZeRO-3 with a prefetch bucket far below a layer's parameters (DeepSpeed
 * 2021): each gather is on the critical path, so the exposed DP time is
 * the gather's bytes over the bandwidth, twice per layer and micro-batch
 * (forward and backward), the reduce-scatter (free here) aside. With the
 * whole next layer prefetched (FSDP) it hides under compute. */
static void test_zero3_gather_exposed_is_bytes_over_bandwidth(void)
{
    struct flat f = {.bw = 1e9, .rs_free = true};
    struct sn_train *t = make(&tiny, 8, 0, &f);
    struct sn_train_layout l = one_gpu(16, 512);
    struct sn_train_opts ds, fsdp;
    struct sn_train_result r, rf;
    struct sn_error err;
    double m, ag;

    l.dp = 8;
    l.zero = 3;
    m = l.gbs / (l.mbs * l.dp);
    profile("deepspeed", &ds);
    ds.zero3_prefetch = 1;       /* one element ahead: nothing hidden */
    ds.zero3_per_tensor = false; /* one gather per layer */
    CHECK(sn_train_predict(t, &l, &ds, &r, &err) == SN_OK);
    ag = f.ag_bytes / f.bw; /* the one layer-sized gather of this model */
    CHECK(ag > 0);
    CHECK_NEAR(r.part[SN_PART_DP], m * tiny.layers * 2 * ag, 1e-6);
    /* the whole next layer ahead, and a slow enough network that the
     * gather still shows: less exposed than DeepSpeed's */
    fsdp = ds;
    fsdp.zero3_prefetch = 0;
    CHECK(sn_train_predict(t, &l, &fsdp, &rf, &err) == SN_OK);
    CHECK(rf.part[SN_PART_DP] < r.part[SN_PART_DP]);
    sn_train_free(t);
}

/* FSDP-style whole-layer prefetch on a fast network: the gathers hide
 * under the compute of the layer before (2 micro-batches: gbs 16 over
 * dp 8). */
static void test_zero3_whole_layer_prefetch_hides(void)
{
    struct flat f = {.bw = 1e12, .rs_free = true};
    struct sn_train *t = make(&tiny, 8, 0, &f);
    struct sn_train_layout l = one_gpu(16, 512);
    struct sn_train_opts o;
    struct sn_train_result r;
    struct sn_train_calib k;
    struct sn_error err;

    l.dp = 8;
    l.zero = 3;
    profile("torchtitan", &o);
    CHECK(sn_train_predict(t, &l, &o, &r, &err) == SN_OK);
    /* a fast network under the whole-layer prefetch: hidden */
    /* all of it hidden: what shows is the compute the hidden traffic
     * slows, overlap_tax of it (the reduce-scatter is free here) */
    sn_train_calib_for("h100-sxm", &k);
    CHECK(f.ag_bytes > 0);
    CHECK_NEAR(r.part[SN_PART_DP],
               2.0 * tiny.layers * k.overlap_tax * 2 * f.ag_bytes / f.bw, 1e-9);
    sn_train_free(t);
}

/* A collective model with a latency: every all-gather and reduce-scatter
 * takes lat + bytes / bw, and is counted. */
struct latent {
    double lat, bw;
    int calls;
};

static int latent_time(void *ctx, enum sn_coll_op op, const struct sn_group *g,
                       uint32_t siblings, double bytes, double *sec,
                       struct sn_error *err)
{
    struct latent *x = ctx;

    (void)g, (void)siblings, (void)err;
    *sec = 0;
    if (op == SN_COLL_ALLGATHER || op == SN_COLL_REDUCESCATTER) {
        *sec = x->lat + bytes / x->bw;
        x->calls++;
    }
    return SN_OK;
}

/* DeepSpeed 2021's ZeRO-3 (zero3_per_tensor): per layer and micro-batch
 * one gather for the forward, one for the backward and one
 * reduce-scatter per weight matrix (tiny: QKV, output, two MLP; the
 * embeddings and output layer add three on the one stage), each paying
 * the collective's latency, none hidden: a latency 2 ms longer adds
 * 3 x 2 ms per matrix. Against the same stack gathering a layer at a
 * time, what it adds is those latencies and the n - 1 extra copy kernels
 * of torch's list-form collectives (and their streaming, a few us). */
static struct sn_train *make_latent(struct latent *x,
                                    struct sn_train_system *sys)
{
    struct sn_train *t = NULL;
    struct sn_error err;

    memset(sys, 0, sizeof(*sys));
    sys->name = "test";
    sys->accel = "h100-sxm";
    sys->flops = 989e12;
    sys->fp8_flops = 1979e12;
    sys->hbm_bytes = 80e9;
    sys->hbm_bw = 3.35e12;
    sys->accels = 8;
    sys->domain = 8;
    sn_train_calib_for(sys->accel, &sys->calib);
    sys->comm.time = latent_time;
    sys->comm.ctx = x;
    CHECK(sn_train_new(&tiny, sys, &t, &err) == SN_OK);
    return t;
}

static void test_zero3_per_tensor_pays_latency_per_matrix(void)
{
    struct latent x1 = {.lat = 1e-3, .bw = 1e12};
    struct latent x3 = {.lat = 3e-3, .bw = 1e12};
    struct sn_train_system sys;
    struct sn_train *t1 = make_latent(&x1, &sys);
    struct sn_train *t3 = make_latent(&x3, &sys);
    struct sn_train_layout l = one_gpu(16, 512);
    struct sn_train_opts ds, whole;
    struct sn_train_result r, r3, rw;
    struct sn_error err;
    double m, n = 8, per_layer, lat_extra, copies;

    l.dp = 8;
    l.zero = 3;
    m = l.gbs / (l.mbs * l.dp);
    profile("deepspeed", &ds);
    CHECK(ds.zero3_per_tensor);
    CHECK(sn_train_predict(t1, &l, &ds, &r, &err) == SN_OK);
    CHECK(sn_train_predict(t3, &l, &ds, &r3, &err) == SN_OK);
    per_layer = 4 + 3.0 / tiny.layers;
    CHECK_NEAR(r3.part[SN_PART_DP] - r.part[SN_PART_DP],
               m * tiny.layers * 3 * per_layer * 2e-3, 1e-9);
    whole = ds;
    whole.zero3_per_tensor = false;
    whole.zero3_prefetch = 1; /* nothing hidden either */
    CHECK(sn_train_predict(t1, &l, &whole, &rw, &err) == SN_OK);
    lat_extra = m * tiny.layers * 3 * (per_layer - 1) * x1.lat;
    copies = m * tiny.layers * 3 * per_layer * (n - 1) * sys.calib.kernel_time;
    CHECK(r.part[SN_PART_DP] - rw.part[SN_PART_DP] >= lat_extra + copies);
    CHECK(r.part[SN_PART_DP] - rw.part[SN_PART_DP] <
          (lat_extra + copies) * 1.1);
    sn_train_free(t1);
    sn_train_free(t3);
}

static const char *spec_base = "accelerator: b200-hgx\n"
                               "supernode:\n"
                               "  accelerators: 8\n";

/* Parses spec_base + tail and the software section; returns the error
 * message (empty when it parses). */
static const char *software_of(const char *tail,
                               const struct sn_train_software **sw,
                               struct sn_train_opts *o)
{
    static char msg[SN_ERROR_MSG_MAX + 16];
    char text[1024];
    struct sn_spec spec;
    struct sn_error err;

    snprintf(text, sizeof(text), "%s%s", spec_base, tail);
    msg[0] = '\0';
    if (sn_spec_parse("t.yaml", text, strlen(text), &spec, &err)) {
        snprintf(msg, sizeof(msg), "spec: %s", err.msg);
        return msg;
    }
    sn_train_opts_default(o);
    if (sn_train_software_parse(spec.file, sn_spec_section(&spec, "software"),
                                sw, o, &err))
        snprintf(msg, sizeof(msg), "%s", err.msg);
    sn_spec_release(&spec);
    return msg;
}

static void test_spec_software_section_and_located_errors(void)
{
    const struct sn_train_software *sw = NULL;
    struct sn_train_opts o;

    CHECK_CONTAINS(software_of("", &sw, &o), "");
    CHECK(sw == NULL);
    CHECK(!strcmp(software_of("software:\n  profile: deepspeed\n"
                              "  cuda_graphs: partial\n",
                              &sw, &o),
                  ""));
    CHECK(sw && !strcmp(sw->name, "deepspeed"));
    CHECK(o.graphs == SN_GRAPHS_PARTIAL && o.zero3_prefetch == 5e7);
    /* TransformerEngine's modules off by hand */
    CHECK(!strcmp(software_of("software:\n  profile: megatron-core\n"
                              "  te_modules: false\n",
                              &sw, &o),
                  ""));
    CHECK(!o.te_modules && o.ep_dedup);
    CHECK_CONTAINS(software_of("software:\n  profile: megatron-cor\n", &sw, &o),
                   "t.yaml:5:12: unknown software 'megatron-cor' (did you "
                   "mean 'megatron-core'?)");
    CHECK_CONTAINS(software_of("software:\n  profile: plain\n  moe_synk: "
                               "true\n",
                               &sw, &o),
                   "t.yaml:6:3: unknown key 'software.moe_synk' (did you "
                   "mean 'moe_sync'?)");
    CHECK_CONTAINS(software_of("software:\n  profile: plain\n  ep_dedup: "
                               "maybe\n",
                               &sw, &o),
                   "t.yaml:6:13: software.ep_dedup: 'maybe'");
    CHECK_CONTAINS(software_of("software:\n  cuda_graphs: none\n", &sw, &o),
                   "t.yaml:5:3: software has no 'profile'");
    CHECK_CONTAINS(software_of("software: plain\n", &sw, &o),
                   "t.yaml:4:11: software is a single value");
}

static const struct sn_test cases[] = {
    T(test_profiles_are_named_and_sourced),
    T(test_rows_name_their_stack),
    T(test_host_part_is_launches_times_cost),
    T(test_tiny_moe_on_grace_is_host_bound),
    T(test_te_modules_cost_the_host_a_module),
    T(test_host_lag_in_the_routed_part_is_exposed),
    T(test_te_grouped_gemm_launches_per_expert),
    T(test_zero3_gather_exposed_is_bytes_over_bandwidth),
    T(test_zero3_whole_layer_prefetch_hides),
    T(test_zero3_per_tensor_pays_latency_per_matrix),
    T(test_spec_software_section_and_located_errors),
};

SN_TEST_MAIN(cases)
