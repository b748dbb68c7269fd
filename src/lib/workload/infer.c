/* infer.c: one serving layout: weights and KV cache per accelerator, the
 * largest batch, prefill and decode time of a pipeline stage with their
 * parts, TTFT, TPOT and tokens/s. The search and disaggregation are in
 * infer-search.c; docs/model.md ("Inference") has the formulas. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "infer-int.h"
#include "train-int.h"

/* TensorRT-LLM's defaults (tensorrt_llm BuildConfig and KvCacheConfig):
 * max_batch_size 2048, max_num_tokens 8192 (tokens of one forward pass,
 * prefill chunks included), kv_cache_free_gpu_memory_fraction 0.9 of
 * what the weights leave. [V] */
#define MAX_BATCH 2048
#define MAX_NUM_TOKENS 8192
#define KV_FRACTION 0.9
/* Kernels one layer runs at decode, as TensorRT-LLM's and SGLang's
 * layers are written [D, counted, not fitted]: attention block: norm,
 * QKV GEMM, RoPE with the KV-cache write, attention, output GEMM; dense
 * MLP: norm, gate-up GEMM, activation, down GEMM; MoE MLP: norm, router
 * GEMM, top-k, permute, grouped GEMM up, activation, grouped GEMM down,
 * unpermute-combine, and gate-up, activation, down for shared experts.
 * Per step outside the layers: embedding, final norm, LM head, sampling.
 * CPU scheduling runs beside the GPU (TensorRT-LLM's overlap scheduler,
 * SGLang's zero-overhead batch scheduler): the step is max(GPU, host),
 * the host's time in infer-host.c. */
#define ATTN_KERNELS 5
#define MLP_KERNELS 4
#define MOE_KERNELS 8
#define SHARED_KERNELS 3
#define STEP_KERNELS 4

/* The model in the form the formulas use. */
struct shape {
    double h, v;
    double attn;         /* attention parameters per layer */
    double core_prefill; /* attention FLOPs per query per context token
                            per layer, prefill (MLA expanded) */
    double core_decode;  /* same at decode (MLA absorbed) */
    double dense;        /* dense MLP parameters */
    double expert;       /* one routed expert */
    double shared;       /* all shared experts of a layer */
    double router;
    double experts, topk;
    /* the GEMMs' widths, for their shapes: attention's output projection
     * (parameters), matrices of an MLP (3 gated), the dense MLP's, one
     * routed expert's and the shared experts' (all of a layer) FFN */
    double attn_out, mats, f_dense, f_expert, f_shared;
    double kv_split_max; /* KV heads TP can split them by (1 for MLA) */
    double heads;
    int layers, nmoe, ndense;
};

static bool is_mla(const struct sn_model_info *m)
{
    return m->attention == SN_ATTN_MLA && m->kv_lora_rank > 0;
}

static double head_dim(const struct sn_model_info *m)
{
    if (m->head_dim > 0)
        return m->head_dim;
    return m->heads > 0 ? (double)m->hidden / m->heads : 0;
}

static void shape_init(const struct sn_model_info *m, struct shape *s)
{
    double h = m->hidden, a = m->heads, mats = m->gated_mlp ? 3 : 2;
    double hd = head_dim(m);
    double k = m->kv_heads > 0 ? m->kv_heads : m->heads;
    double f_dense;

    memset(s, 0, sizeof(*s));
    s->h = h;
    s->v = m->vocab;
    s->heads = a;
    s->layers = m->layers;
    s->nmoe = sn_model_moe_layers(m); /* the catalog's layer pattern */
    s->ndense = m->layers - s->nmoe;
    if (is_mla(m)) {
        /* DeepSeek-V2 section 2.1: q through a rank-q_lora bottleneck
         * (or direct), the latent c_KV (kv_lora) plus a shared RoPE key,
         * up-projections to the heads' keys and values, output */
        double qk = m->qk_nope_head_dim + m->qk_rope_head_dim;
        double q = m->q_lora_rank > 0
                       ? h * m->q_lora_rank + m->q_lora_rank * a * qk
                       : h * a * qk;
        double kv = h * (m->kv_lora_rank + m->qk_rope_head_dim) +
                    m->kv_lora_rank * a * (m->qk_nope_head_dim + m->v_head_dim);
        s->attn = q + kv + a * m->v_head_dim * h;
        s->attn_out = a * m->v_head_dim * h;
        s->core_prefill = 2 * a * (qk + m->v_head_dim);
        /* absorbed (DeepSeek's FlashMLA decode): scores against the
         * latent and RoPE key, values from the latent */
        s->core_decode = 2 * a * (m->kv_lora_rank + m->qk_rope_head_dim) +
                         2 * a * m->kv_lora_rank;
        s->kv_split_max = 1;
    } else {
        s->attn = h * (a + 2 * k) * hd + a * hd * h;
        s->attn_out = a * hd * h;
        s->core_prefill = s->core_decode = 4 * a * hd;
        s->kv_split_max = k;
    }
    if (m->experts > 1) {
        double fs = m->shared_ffn > 0 ? m->shared_ffn : m->ffn;
        s->experts = m->experts;
        s->topk = m->topk > 0 ? m->topk : 1;
        s->expert = mats * h * m->ffn;
        s->shared = m->shared_experts * mats * h * fs;
        s->f_expert = m->ffn;
        s->f_shared = m->shared_experts * fs;
        s->router = h * m->experts;
        f_dense = m->dense_ffn > 0 ? m->dense_ffn
                                   : m->ffn * (s->topk + m->shared_experts);
    } else {
        f_dense = m->ffn;
    }
    s->dense = mats * h * f_dense;
    s->mats = mats;
    s->f_dense = f_dense;
}

/* Layers at full attention and with a sliding window. */
static void window_layers(const struct sn_model_info *m, double *full,
                          double *sliding)
{
    if (m->window <= 0) {
        *full = m->layers;
        *sliding = 0;
        return;
    }
    *full = m->window_every > 0
                ? (m->layers + m->window_every - 1) / m->window_every
                : 0;
    *sliding = m->layers - *full;
}

/* Sum over layers of the context each holds at ctx tokens. */
static double ctx_layers(const struct sn_model_info *m, double ctx)
{
    double full, sliding;

    window_layers(m, &full, &sliding);
    return full * ctx + sliding * fmin(ctx, m->window);
}

/* Sum over layers of the causal attention span of a ctx-token prompt:
 * ctx^2/2 at full attention, less past the window. */
static double causal_layers(const struct sn_model_info *m, double ctx)
{
    double full, sliding, w = m->window, win;

    window_layers(m, &full, &sliding);
    win = ctx <= w ? ctx * ctx / 2 : w * w / 2 + (ctx - w) * w;
    return full * ctx * ctx / 2 + sliding * win;
}

double sn_infer_kv_bytes(const struct sn_model_info *m, double ctx,
                         double bytes)
{
    double per; /* elements per token per layer */

    if (is_mla(m))
        per = m->kv_lora_rank + m->qk_rope_head_dim;
    else
        per = 2.0 * (m->kv_heads > 0 ? m->kv_heads : m->heads) * head_dim(m);
    return per * bytes * ctx_layers(m, ctx);
}

double sn_infer_experts_hit(double experts, double topk, double tokens)
{
    if (experts <= 0 || tokens <= 0)
        return 0;
    if (topk >= experts)
        return experts;
    /* each token misses a given expert with probability 1 - k/E */
    return experts * (1 - pow(1 - topk / experts, tokens));
}

/* Bytes per weight: NVFP4 adds an FP8 scale per 16 values (NVIDIA,
 * "Introducing NVFP4", 2025) [V]. */
static double weight_bytes(enum sn_dtype d)
{
    switch (d) {
    case SN_DTYPE_FP8:
    case SN_DTYPE_INT8:
        return 1;
    case SN_DTYPE_FP4:
        return 0.5 + 1.0 / 16;
    default:
        return 2;
    }
}

static double gemm_eff(const struct sn_train_calib *k, enum sn_dtype d)
{
    switch (d) {
    case SN_DTYPE_FP8:
        return k->gemm_eff_fp8 > 0 ? k->gemm_eff_fp8 : k->gemm_eff;
    case SN_DTYPE_FP4:
        return k->gemm_eff_fp4 > 0 ? k->gemm_eff_fp4 : k->gemm_eff;
    case SN_DTYPE_INT8:
        /* no INT8 GEMM measurement in the calibration: the 8-bit
         * GEMMs' share, else the BF16 one [E] */
        return k->gemm_eff_fp8 > 0 ? k->gemm_eff_fp8 : k->gemm_eff;
    default:
        return k->gemm_eff;
    }
}

/* What one prediction shares between its passes. */
struct run {
    const struct sn_model_info *m;
    const struct sn_train_system *sys;
    const struct sn_infer_layout *l;
    const struct sn_infer_work *w;
    struct shape s;
    double wb, kvb;          /* bytes per weight, per KV element */
    double bw, rate;         /* achievable HBM bytes/s, GEMM FLOP/s */
    double attn_rate;        /* attention FLOP/s (BF16 fused kernels) */
    double attn_rate_decode; /* the same at decode (MLA_DECODE_HOPPER) */
    double etp, rep;         /* expert TP; attention replication divisor */
    double ep_hot;           /* the busiest EP rank's routed tokens over the
                                mean (ep_imbalance) */
    double kv_split;         /* ways TP splits a sequence's KV cache */
    double stage;            /* share of the layers on a stage */
    bool pad;                /* decode batches padded to their CUDA graph */
    /* the kernel table (sn/kernels.h) that rates the GEMMs by shape: the
     * loaded one (`--kernels`) or the generation's shipped one when it
     * has rows of the precision's type (kdt), a loaded one of another
     * type at its own rates (other_type); NULL: every GEMM at `rate` */
    const struct sn_kernel_table *tab;
    enum sn_kernel_dtype kdt;
    bool other_type;
    uint64_t tab_key;   /* the table's contents, for the cache */
    bool *extrapolated; /* set when a GEMM's rate is not a measured row's */
    struct sn_error *err;
};

/* One collective on ranks 0, stride, 2 stride, ... (n of them). */
static int comm(const struct run *x, enum sn_coll_op op, int n, int stride,
                int siblings, double bytes, double *t)
{
    struct sn_group g = {0, (uint32_t)n, (uint32_t)stride, NULL};

    *t = 0;
    if (n < 2 || bytes <= 0 || !x->sys->comm.time)
        return SN_OK;
    return x->sys->comm.time(x->sys->comm.ctx, op, &g, (uint32_t)siblings,
                             bytes, t, x->err);
}

/* MLA's absorbed decode attention on Hopper: FlashMLA, the kernel
 * DeepSeek's and SGLang's Hopper decode runs, reaches 660 TFLOP/s in
 * the compute-bound setting (128 query heads a KV head, as DeepSeek-V3's
 * decode) on an H800 SXM5 (deepseek-ai/FlashMLA README, the 2025-04-22
 * update), 0.667 of its 989.4 dense BF16 TFLOP/s, against the fused
 * prefill-shaped attention share (attn_eff, 0.57 of the GEMM rate) the
 * calibration gives Hopper; taken at the sustained-load factor as every
 * measured kernel rate is [V, Hopper only: no dense MLA decode rate was
 * found for Blackwell, which keeps the calibrated one]. */
#define MLA_DECODE_HOPPER (660.0 / 989.4)

/* Expected maximum of n independent standard normal draws,
 * E[max] = integral of x n phi(x) Phi(x)^(n-1) dx, by the midpoint rule
 * (n 8: 1.4236, 32: 2.0697), cached by n (a search asks for a few EP
 * sizes many times). */
#define NORMAL_MAX_CACHE 1025

static double normal_max(int n)
{
    static _Thread_local double cache[NORMAL_MAX_CACHE];
    double s = 0, h = 0.01;

    if (n < 2)
        return 0;
    if (n < NORMAL_MAX_CACHE && cache[n] > 0)
        return cache[n];
    for (double x = -8 + h / 2; x < 8; x += h) {
        double phi = exp(-x * x / 2) / sqrt(2 * M_PI);
        double cdf = 0.5 * erfc(-x / sqrt(2));
        s += x * n * phi * pow(cdf, n - 1) * h;
    }
    if (n < NORMAL_MAX_CACHE)
        cache[n] = s;
    return s;
}

/* EP load imbalance: routing is not uniform, and the ranks meet at every
 * MoE layer, so the step waits for the rank whose experts received the
 * most tokens. TensorRT-LLM measured it on DeepSeek-R1 (tech blog 4,
 * "Scaling Expert Parallelism", Table 1: 32 GB200, EP 32, local batch
 * 256): without EPLB the busiest rank receives 1.564 times more routed
 * tokens than the mean (8 experts a rank; by expert the standard
 * deviation is 164.1 of a mean of 128); with EPLB's placement 0.115 more
 * (8 slots a rank, EP 36) [V]. Other EP sizes without EPLB [D]: a rank's
 * load is the sum of its n experts', so its spread falls as 1/sqrt(n)
 * (the blog's own by-rank deviation, 491.6 of 1,024 = 0.48, against
 * 164.1 / 128 / sqrt(8) = 0.45), and the busiest of ep ranks sits the
 * expected maximum of ep normal draws above the mean: r = 1.564
 * sqrt(8 / n) z(ep) / z(32); EP 8 over 256 experts: 0.54. The expert
 * spread is DeepSeek-R1's; other fine-grained MoE models (64 experts and
 * more: Qwen3's, Llama 4 Maverick's, GPT-OSS-120B's 128) take it [E];
 * coarse ones (Mixtral's 8, Scout's 16, with an auxiliary balance loss
 * over few large experts) keep uniform routing [E]. No rank gets
 * more than every token's copies it can hold: min(n, topk) ep / topk
 * times the mean. With EPLB (redundant copies imply it) 0.115 at any EP
 * [E]. docs/model.md ("EP load imbalance"). */
#define EP_IMB_MEASURED 1.564 /* no EPLB, EP 32, 8 experts a rank */
#define EP_IMB_EPLB 0.115     /* EPLB, EP 36, 8 slots a rank */
#define EP_IMB_RANKS 32
#define EP_IMB_LOCAL 8
#define EP_IMB_FINE 64 /* routed experts of a fine-grained MoE model */

double sn_infer_ep_hot(const struct sn_model_info *m,
                       const struct sn_infer_layout *l)
{
    double e = m->experts, k = m->topk > 0 ? m->topk : 1, n, r, cap;

    if (e < EP_IMB_FINE || l->ep < 2)
        return 1;
    n = (e + l->redundant) / l->ep;
    if (l->eplb || l->redundant > 0)
        r = EP_IMB_EPLB;
    else
        r = EP_IMB_MEASURED * sqrt(EP_IMB_LOCAL / n) * normal_max(l->ep) /
            normal_max(EP_IMB_RANKS);
    cap = fmin(n, k) * l->ep / k;
    return fmin(1 + r, fmax(1, cap));
}

/* Weights one accelerator holds on the most loaded stage (the last: it
 * has the LM head; with pp 1 the embedding too), and those it reads per
 * pass when `tokens` tokens go through its MoE layers. */
static double stage_weights(const struct run *x, double tokens, bool read)
{
    const struct shape *s = &x->s;
    const struct sn_infer_layout *l = x->l;
    double layers = s->layers * x->stage, moe = s->nmoe * x->stage;
    double dense = s->ndense * x->stage;
    /* the experts and their redundant copies, (E + R) / ep a rank
     * (sn_infer_check: ep divides them) */
    double local = ceil((s->experts + l->redundant) / l->ep);
    double hit =
        read ? fmin(local,
                    sn_infer_experts_hit(s->experts, s->topk, tokens) / l->ep)
             : local;
    double b = x->wb, w;

    w = (layers * s->attn + dense * s->dense + moe * (s->shared + s->router)) *
        b / x->rep;
    w += moe * hit * s->expert * b / x->etp;
    /* embedding and LM head in BF16, split over the vocabulary */
    w += s->v * s->h * 2 / l->tp;
    if (l->pp == 1 && !x->m->tied_embeddings && !read)
        w += s->v * s->h * 2 / l->tp;
    return w;
}

void sn_infer_trtllm_bench(struct sn_infer_work *w)
{
    /* docs/source/performance/perf-overview.md, the llm_options.yml of
     * its trtllm-bench commands: padding on, these sizes */
    static const int sizes[] = {1,   2,   4,   8,    16,   32,   64,  128,
                                256, 384, 512, 1024, 2048, 4096, 8192};

    w->ngraphs = (int)SN_ARRAY_LEN(sizes);
    memcpy(w->graphs, sizes, sizeof(sizes));
    w->max_tokens = SN_INFER_TOKENS_BENCH;
}

/* The decode batch a rank runs: the next captured CUDA-graph size. */
static double graph_batch(const struct sn_infer_work *w, double n)
{
    for (int i = 0; i < w->ngraphs; i++)
        if (w->graphs[i] >= n)
            return w->graphs[i];
    return n;
}

/* ---- GEMMs by shape (sn/kernels.h) ----------------------------------------
 * The training model's kernel tables (train-time.c): a GEMM's FLOP/s by
 * its shape M x N x K, a grouped (MoE expert) GEMM's by the rows each
 * expert gets, rounded up to whole 128-row tiles as train-time.c's
 * grouped_gemm rounds them [E]. docs/model.md ("Serving GEMMs by
 * shape"). */

/* Kernel-table answers by shape: a search asks for the same shapes for
 * many layouts and batches (train-time.c caches them the same way).
 * Direct-mapped, one cache a thread; a miss recomputes. */
struct kslot {
    double m, n, k, flops;
    uint64_t tab; /* the table's contents (run.tab_key) */
    uint8_t kind, dtype, fit, used;
};

#define KSLOTS 1024

static _Thread_local struct kslot kcache[KSLOTS];

/* The table rows' contents as a key: a table freed and another loaded at
 * the same address never answers from the other's slots. */
static uint64_t table_key(const struct sn_kernel_table *t)
{
    uint64_t h = 0x6b;

    for (size_t i = 0; t && i < t->npoints; i++) {
        const struct sn_kernel_point *p = &t->points[i];
        double v[5] = {p->m, p->n, p->k, p->flops,
                       (double)(p->kind * SN_KDT_COUNT + p->dtype)};
        h = sn_hash64(v, sizeof(v), h);
    }
    return h;
}

/* The rows of a table that measure a compute rate. A row whose
 * arithmetic intensity (FLOPs per byte of its inputs and BF16 output)
 * is below the ridge point (peak FLOP/s over HBM bytes/s) of the
 * accelerator that measured it ran memory-bound there: its FLOP/s is
 * that accelerator's bandwidth, not a GEMM rate, and interpolated in log
 * M it would drag mid-size GEMMs (M 256-2,048) towards it. The serving
 * model reads the weights at the target's own bandwidth (the floor in
 * stage_pass), so only the compute-bound rows rate the GEMMs. The
 * shipped Hopper rows were measured on H800: 1,979 dense FP8 TFLOP/s,
 * 3.35 TB/s of HBM3 (NVIDIA H800 SXM5 datasheet, the H100 SXM5's
 * figures), a ridge of 591 FLOPs a byte: DeepGEMM's M 64 and 128 rows and
 * its 256-row masked grouped rows fall below it. A loaded table is the
 * target's own: its ridge is the target's. One view a thread, rebuilt
 * when the table or the ridge changes. */
static _Thread_local struct {
    uint64_t key;
    double ridge;
    struct sn_kernel_point *p;
    size_t cap;
    struct sn_kernel_table t;
} compute_rows;

#define H800_FP8_FLOPS 1979e12 /* NVIDIA H800 SXM5 datasheet, dense */
#define H800_HBM_BW 3.35e12    /* bytes/s, the same datasheet */

static double dtype_bytes(enum sn_kernel_dtype d)
{
    static const double b[SN_KDT_COUNT] = {2, 2, 1, 0.5 + 1.0 / 16, 4};
    return d < SN_KDT_COUNT ? b[d] : 2;
}

static const struct sn_kernel_table *
compute_view(const struct sn_kernel_table *t, uint64_t key, double ridge)
{
    size_t n = 0;

    if (compute_rows.t.points && compute_rows.key == key &&
        compute_rows.ridge == ridge)
        return &compute_rows.t;
    if (compute_rows.cap < t->npoints) {
        compute_rows.cap = t->npoints;
        compute_rows.p =
            sn_xrealloc(compute_rows.p, t->npoints * sizeof(*compute_rows.p));
    }
    for (size_t i = 0; i < t->npoints; i++) {
        const struct sn_kernel_point *p = &t->points[i];
        double bytes = dtype_bytes(p->dtype) * (p->m * p->k + p->k * p->n) +
                       2 * p->m * p->n;
        if (2 * p->m * p->n * p->k / bytes >= ridge)
            compute_rows.p[n++] = *p;
    }
    compute_rows.key = key;
    compute_rows.ridge = ridge;
    compute_rows.t =
        (struct sn_kernel_table){t->generation, compute_rows.p, n, false, 0};
    return &compute_rows.t;
}

/* sn_kernels_flops through the cache. */
static double table_flops(const struct run *x, enum sn_kernel_kind kind,
                          double M, double N, double K, enum sn_kernel_fit *fit)
{
    uint64_t key[5];
    struct kslot *s;
    double f;

    memcpy(&key[0], &M, sizeof(M));
    memcpy(&key[1], &N, sizeof(N));
    memcpy(&key[2], &K, sizeof(K));
    key[3] = (uint64_t)kind << 8 | (uint64_t)x->kdt;
    key[4] = x->tab_key;
    s = &kcache[sn_hash64(key, sizeof(key), 0x69) % KSLOTS];
    if (s->used && s->m == M && s->n == N && s->k == K &&
        s->tab == x->tab_key && s->kind == kind && s->dtype == x->kdt) {
        *fit = (enum sn_kernel_fit)s->fit;
        return s->flops;
    }
    f = sn_kernels_flops(x->tab, kind, x->kdt, M, N, K, fit);
    *s = (struct kslot){
        M, N, K, f, x->tab_key, (uint8_t)kind, (uint8_t)x->kdt, (uint8_t)*fit,
        1};
    return f;
}

/* Seconds of `groups` GEMMs of M x K times K x N (one grouped kernel,
 * M the rows of each expert, or one GEMM): the table's FLOP/s at the
 * shape times the sustained-load factor (train-time.c's), or the
 * precision's one rate where the table has no row of the kind and type
 * (flagged extrapolated). */
static double shaped(const struct run *x, enum sn_kernel_kind kind,
                     double groups, double M, double N, double K)
{
    enum sn_kernel_fit fit;
    double f;

    if (!(groups > 0) || !(M > 0) || !(N > 0) || !(K > 0))
        return 0;
    if (kind == SN_KERNEL_GROUPED)
        M = ceil(M / 128) * 128; /* whole tiles of rows an expert */
    f = table_flops(x, kind, M, N, K, &fit);
    if (fit == SN_KFIT_NONE && kind == SN_KERNEL_GROUPED)
        f = table_flops(x, SN_KERNEL_GEMM, M, N, K, &fit);
    if (fit != SN_KFIT_MEASURED || x->other_type)
        *x->extrapolated = true;
    if (fit == SN_KFIT_NONE || !(f > 0))
        return groups * 2 * M * N * K / x->rate;
    return groups * 2 * M * N * K / (f * SN__SUSTAINED);
}

/* The GEMM time of one pass through a stage on one accelerator, GEMM by
 * GEMM at its shape. Attention and the dense parts: under attention DP
 * each rank's tokens / tp at whole widths, else every token at widths
 * split tp ways; the attention block as its input projections (K the
 * hidden size: MLA's low-rank down and up projections as one GEMM of
 * their parameters [E]) and its output projection. The routed experts:
 * grouped, each expert hit getting tokens x topk / experts hit rows
 * (tokens: the whole pass's, which the EP group's ranks route to one
 * another), N and K split by the expert TP. The LM head on the prompts'
 * last tokens at prefill, every token at decode, split over the
 * vocabulary. */
static double gemm_shaped(const struct run *x, double tokens, double seqs,
                          bool prefill)
{
    const struct shape *s = &x->s;
    const struct sn_infer_layout *l = x->l;
    double layers = s->layers * x->stage, moe = s->nmoe * x->stage;
    double dense = s->ndense * x->stage, h = s->h, up = s->mats - 1;
    double M = l->dp_attention ? tokens / l->tp : tokens;
    double split = l->dp_attention ? 1 : l->tp;
    double t = 0;

    t += layers * (shaped(x, SN_KERNEL_GEMM, 1, M,
                          (s->attn - s->attn_out) / h / split, h) +
                   shaped(x, SN_KERNEL_GEMM, 1, M, h, s->attn_out / h / split));
    t += dense * (shaped(x, SN_KERNEL_GEMM, 1, M, up * s->f_dense / split, h) +
                  shaped(x, SN_KERNEL_GEMM, 1, M, h, s->f_dense / split));
    if (moe > 0) {
        double hit = sn_infer_experts_hit(s->experts, s->topk, tokens);
        double rows = hit > 0 ? tokens * s->topk / hit : 0;
        t += moe * shaped(x, SN_KERNEL_GEMM, 1, M, s->experts / split, h);
        t += moe *
             (shaped(x, SN_KERNEL_GEMM, 1, M, up * s->f_shared / split, h) +
              shaped(x, SN_KERNEL_GEMM, 1, M, h, s->f_shared / split));
        /* the busiest EP rank's experts get ep_hot times the rows */
        rows *= x->ep_hot;
        t += moe * (shaped(x, SN_KERNEL_GROUPED, hit / l->ep, rows,
                           up * s->f_expert / x->etp, h) +
                    shaped(x, SN_KERNEL_GROUPED, hit / l->ep, rows, h,
                           s->f_expert / x->etp));
    }
    t += shaped(x, SN_KERNEL_GEMM, 1, prefill ? seqs : tokens, s->v / l->tp, h);
    return t;
}

/* One pass of `tokens` new tokens (seqs sequences, `ctx` context each at
 * decode; prompts of ctx tokens at prefill) through one pipeline stage on
 * one accelerator: its time by part. */
static int stage_pass(const struct run *x, double tokens, double seqs,
                      double ctx, bool prefill, double part[])
{
    const struct shape *s = &x->s;
    const struct sn_infer_layout *l = x->l;
    double layers = s->layers * x->stage, moe = s->nmoe * x->stage;
    double dense = s->ndense * x->stage;
    /* attention DP: whole sequences to a rank, the busiest holding
     * ceil(seqs / tp) of them (one prompt runs on one rank) */
    double seqs_gpu = l->dp_attention ? ceil(seqs / l->tp) : seqs;
    double act, gemm, gemm_t, attn, kv, wread, t, bpe;
    int rc;

    memset(part, 0, sizeof(double) * SN_INFER_PART_COUNT);
    /* a decode batch padded to its CUDA graph: the padded slots run
     * through the GEMMs, the experts and the collectives */
    if (!prefill && x->pad && seqs_gpu >= 1)
        tokens *= graph_batch(x->w, seqs_gpu) / seqs_gpu;
    /* GEMMs: 2 FLOPs per active weight per token, spread over tp */
    act = layers * s->attn + dense * s->dense +
          moe * (s->shared + s->router + s->topk * s->expert * x->ep_hot);
    gemm = 2 * tokens * act / l->tp;
    gemm += 2 * (prefill ? seqs : tokens) * s->v * s->h / l->tp;
    if (prefill) {
        attn = seqs * s->core_prefill * causal_layers(x->m, ctx);
        kv = 0; /* written once, read from on-chip tiles */
    } else {
        attn = seqs * s->core_decode * ctx_layers(x->m, ctx);
        kv = seqs_gpu * sn_infer_kv_bytes(x->m, ctx, x->kvb) / x->kv_split;
    }
    /* heads split over tp, or sequences over the DP ranks */
    attn *= x->stage * (l->dp_attention ? seqs_gpu / seqs : 1.0 / l->tp);
    kv *= x->stage;
    wread = stage_weights(x, tokens, true);
    part[SN_INFER_WEIGHTS] = wread / x->bw;
    part[SN_INFER_KV] = kv / x->bw;
    /* the GEMMs by shape where a kernel table has the precision's rows,
     * else at the one rate; either way no faster than their weights
     * are read (the floor: small M is memory-bound) */
    if (x->tab) {
        gemm_t = gemm_shaped(x, tokens, seqs, prefill);
    } else {
        gemm_t = gemm / x->rate;
        *x->extrapolated = true;
    }
    part[SN_INFER_COMPUTE] =
        fmax(0, gemm_t - part[SN_INFER_WEIGHTS]) +
        fmax(0, attn / (prefill ? x->attn_rate : x->attn_rate_decode) -
                    part[SN_INFER_KV]);
    part[SN_INFER_KERNELS] =
        x->sys->calib.kernel_time *
        (layers * ATTN_KERNELS + dense * MLP_KERNELS +
         moe * (MOE_KERNELS + (s->shared > 0 ? SHARED_KERNELS : 0)));
    part[SN_INFER_STEP] = x->sys->calib.kernel_time * STEP_KERNELS / l->pp;
    /* TP: an all-reduce after attention and after the MLP of every
     * layer (Megatron's two per layer), of the tokens' hidden states in
     * BF16; with attention data-parallel only the experts' TP reduces */
    if (l->tp > 1 && !l->dp_attention) {
        rc = comm(x, SN_COLL_ALLREDUCE, l->tp, 1, 1, tokens * s->h * 2, &t);
        if (rc)
            return rc;
        part[SN_INFER_TP] = 2 * layers * t;
    } else if (l->dp_attention && x->etp > 1 && moe > 0) {
        /* experts split etp ways under data-parallel attention: each
         * rank gathers its etp group's tokens and reduce-scatters the
         * experts' partial outputs back (the nccl-tests total) */
        double bytes = tokens / l->tp * x->etp * s->h * 2, rs;
        rc = comm(x, SN_COLL_ALLGATHER, (int)x->etp, 1, 1, bytes, &t);
        if (!rc)
            rc = comm(x, SN_COLL_REDUCESCATTER, (int)x->etp, 1, 1, bytes, &rs);
        if (rc)
            return rc;
        part[SN_INFER_TP] = moe * (t + rs);
    }
    /* EP with attention data-parallel: dispatch and combine all-to-all
     * per MoE layer; the nccl-tests size is what one rank sends, its
     * tokens' routed copies (as train-time.c passes it): FP8 dispatch
     * when the GEMMs are FP8 or FP4 (DeepEP), BF16 combine. With
     * attention TP every rank has every token and the TP all-reduce
     * combines. */
    if (l->dp_attention && l->ep > 1 && moe > 0) {
        double per = tokens / l->tp * s->topk * s->h, d, c;
        bpe = x->w->precision == SN_DTYPE_BF16 ? 2 : 1;
        rc = comm(x, SN_COLL_ALLTOALL, l->ep, (int)x->etp, (int)x->etp,
                  per * bpe, &d);
        if (!rc)
            rc = comm(x, SN_COLL_ALLTOALL, l->ep, (int)x->etp, (int)x->etp,
                      per * 2, &c);
        if (rc)
            return rc;
        part[SN_INFER_EP] = moe * (d + c);
    }
    if (l->pp > 1) {
        rc = comm(x, SN_COLL_SENDRECV, 2, l->tp, l->tp,
                  tokens * s->h * 2 / l->tp, &t);
        if (rc)
            return rc;
        part[SN_INFER_PP] = t;
    }
    return SN_OK;
}

static double sum(const double *p)
{
    double t = 0;
    for (int i = 0; i < SN_INFER_PART_COUNT; i++)
        t += p[i];
    return t;
}

/* One pass as the layout runs it: whole, or with two-batch overlap as
 * two halves, each reading the weights, whose TP and EP communication
 * runs under the other half's compute: only what exceeds that compute
 * stays exposed. */
static int pass(const struct run *x, double tokens, double seqs, double ctx,
                bool prefill, double part[])
{
    double comm, work, keep;
    int rc;

    if (!x->l->tbo || seqs < 2)
        return stage_pass(x, tokens, seqs, ctx, prefill, part);
    rc = stage_pass(x, tokens / 2, seqs / 2, ctx, prefill, part);
    if (rc)
        return rc;
    for (int i = 0; i < SN_INFER_PART_COUNT; i++)
        part[i] *= 2;
    comm = part[SN_INFER_TP] + part[SN_INFER_EP];
    work = sum(part) - comm - part[SN_INFER_PP];
    keep = comm > work ? (comm - work) / comm : 0;
    part[SN_INFER_TP] *= keep;
    part[SN_INFER_EP] *= keep;
    return SN_OK;
}

/* A decode step with k drafted tokens: the model verifies 1 + k tokens a
 * sequence in one pass (the KV cache read once), and the MTP module, one
 * layer, drafts k, each at a layer's share of a plain step. */
static int decode_step(const struct run *x, double seqs, double ctx, int k,
                       double part[])
{
    double one[SN_INFER_PART_COUNT];
    int rc = pass(x, seqs * (1 + k), seqs, ctx, false, part);

    if (rc || k == 0)
        return rc;
    rc = pass(x, seqs, seqs, ctx, false, one);
    for (int i = 0; !rc && i < SN_INFER_PART_COUNT; i++)
        part[i] += k * one[i] / x->s.layers;
    return rc;
}

/* Tokens a sequence gains per step: 1 + a + a^2 + ... + a^k, a the
 * acceptance the work gives. */
static double accepted(int k, double a)
{
    double e = 1, p = 1;

    for (int i = 0; i < k; i++) {
        p *= a;
        e += p;
    }
    return e;
}

/* The kernel table for the work's GEMMs, as train-time.c's pick_table
 * picks the nominal one: the loaded table, or the generation's shipped
 * one, when it has rows of the precision's type; a loaded table of
 * another type (`bench kernels` on a CPU measures fp32) at its own
 * rates, flagged; else none (INT8 has no table type). */
static void pick_table(struct run *x)
{
    static const enum sn_kernel_dtype kdt[SN_DTYPE_COUNT] = {
        SN_KDT_BF16, SN_KDT_FP16, SN_KDT_FP8, SN_KDT_FP4, SN_KDT_COUNT};
    const struct sn_kernel_table *own =
        x->sys->kernels ? x->sys->kernels
                        : sn_kernels_serving(x->sys->accel, NULL);
    enum sn_kernel_dtype want = kdt[x->w->precision];

    x->tab = NULL;
    x->kdt = want;
    x->other_type = false;
    for (size_t i = 0; own && want != SN_KDT_COUNT && i < own->npoints; i++)
        if (own->points[i].dtype == want) {
            x->tab = own;
            break;
        }
    if (!x->tab && x->sys->kernels && x->sys->kernels->npoints > 0) {
        x->tab = x->sys->kernels;
        x->kdt = x->sys->kernels->points[0].dtype;
        x->other_type = true;
    }
    x->tab_key = x->tab ? table_key(x->tab) : 0;
    if (x->tab && !x->other_type) {
        /* the measuring GPU's ridge: a loaded table's is the target's
         * own; shipped rows that carry their GPU's peak were measured
         * on the generation they scale to (B200 for Blackwell), whose
         * ridge is the target's peak over its HBM; DeepGEMM's absolute
         * rows are the H800's */
        bool scaled = sn_kernels_peak(x->tab, SN_KERNEL_GEMM, want) > 0;
        double ridge =
            x->sys->kernels || scaled
                ? sn_train_peak(x->sys, x->w->precision) / x->sys->hbm_bw
                : H800_FP8_FLOPS / H800_HBM_BW;
        x->tab = compute_view(x->tab, x->tab_key, ridge);
        x->tab_key = sn_hash64(&ridge, sizeof(ridge), x->tab_key);
    }
}

static void run_init(struct run *x, const struct sn_model_info *m,
                     const struct sn_train_system *sys,
                     const struct sn_infer_layout *l,
                     const struct sn_infer_work *w, bool *extrapolated,
                     struct sn_error *err)
{
    const struct sn_train_calib *k = &sys->calib;

    memset(x, 0, sizeof(*x));
    x->m = m;
    x->sys = sys;
    x->l = l;
    x->w = w;
    x->err = err;
    shape_init(m, &x->s);
    x->wb = weight_bytes(w->precision);
    x->kvb = w->kv == SN_DTYPE_FP8 ? 1 : 2;
    /* streaming at the fraction of HBM bandwidth the training model's
     * memory-bound kernels sustain (train.c, calib mem_eff) */
    x->bw = sys->hbm_bw * k->mem_eff;
    x->rate = sn_train_peak(sys, w->precision) * gemm_eff(k, w->precision);
    x->attn_rate = sys->flops * k->gemm_eff * k->attn_eff;
    x->attn_rate_decode = x->attn_rate;
    if (is_mla(m)) {
        const char *gen = NULL;
        sn_kernels_shipped(sys->accel, &gen);
        if (gen && !strcmp(gen, "hopper"))
            x->attn_rate_decode =
                sys->flops * MLA_DECODE_HOPPER * SN__SUSTAINED;
    }
    x->etp = (double)l->tp / l->ep;
    x->ep_hot = sn_infer_ep_hot(m, l);
    x->rep = l->dp_attention ? 1 : l->tp;
    x->kv_split = l->dp_attention ? 1 : fmin(l->tp, x->s.kv_split_max);
    x->stage = 1.0 / l->pp;
    x->extrapolated = extrapolated;
    *extrapolated = false;
    pick_table(x);
}

/* Tokens of one forward pass per attention rank. trtllm-bench's rule
 * (tuning.py finetune_setting): the batch, at most 4096, over pp, times
 * 1 + isl / osl, at most 32768, rounded up to 256 below 4096 (at least
 * 2048), to 512 below 8192, else to 1024. */
static double pass_tokens(const struct sn_infer_work *w,
                          const struct sn_infer_layout *l, int max_batch)
{
    double bs, raw;

    if (w->max_tokens > 0)
        return w->max_tokens;
    if (w->max_tokens != SN_INFER_TOKENS_BENCH)
        return MAX_NUM_TOKENS;
    bs = fmin(max_batch, 4096) / l->pp;
    raw = fmin(bs * (1 + (double)w->isl / w->osl), 32768);
    if (raw < 4096)
        return fmax(2048, 256 * ceil(raw / 256));
    if (raw < 8192)
        return 512 * ceil(raw / 512);
    return 1024 * ceil(raw / 1024);
}

/* The KV budget and the largest batch that fits, for the runtime's
 * memory at a token budget of `tokens` per attention rank. */
static void kv_room(const struct run *x, struct sn_infer_result *r,
                    double tokens)
{
    const struct sn_infer_layout *l = x->l;
    double ctx = (double)x->w->isl + x->w->osl, seq, per_rank;

    r->capacity = x->sys->hbm_bytes;
    r->weights_bytes = stage_weights(x, 0, false);
    r->kv_token_bytes = sn_infer_kv_bytes(x->m, 1, x->kvb);
    seq = sn_infer_kv_bytes(x->m, ctx, x->kvb) * x->stage / x->kv_split;
    r->kv_seq_gpu = seq;
    /* the runtime's workspaces, NCCL buffers and CUDA context first
     * (infer-mem.c); what attention DP replicates is in the weights */
    r->runtime_bytes = sn_infer_runtime_bytes(x->m, l, x->w, tokens);
    r->kv_budget = fmax(0, (r->capacity - r->runtime_bytes - r->weights_bytes) *
                               KV_FRACTION);
    per_rank = seq > 0 ? floor(r->kv_budget / seq) : MAX_BATCH;
    if (per_rank > MAX_BATCH)
        per_rank = MAX_BATCH;
    r->max_batch = (int)per_rank * (l->dp_attention ? l->tp : 1);
}

/* The memory at the pass's token budget; trtllm-bench's rule takes the
 * budget from the largest batch, found first at the default budget. */
static void memory(const struct run *x, struct sn_infer_result *r)
{
    const struct sn_infer_work *w = x->w;

    kv_room(x, r, w->max_tokens > 0 ? w->max_tokens : MAX_NUM_TOKENS);
    if (w->max_tokens == SN_INFER_TOKENS_BENCH)
        kv_room(x, r, pass_tokens(w, x->l, r->max_batch));
}

/* Kernel launches of one eager step of k drafted tokens, as stage_pass
 * counts the kernels, over every stage (each rank runs pp micro-batches
 * of its stage a step), with the collectives the layout runs: the TP
 * all-reduces, the experts' gather and scatter, the EP dispatch and
 * combine, a send a stage; twice over with two-batch overlap; the MTP
 * module a layer's each drafted token, as decode_step times it. */
static void step_launches(const struct run *x, int k,
                          struct sn__infer_launches *n)
{
    const struct shape *s = &x->s;
    const struct sn_infer_layout *l = x->l;
    double layers = s->layers, moe = s->nmoe, coll = 0, per;

    per = layers * ATTN_KERNELS + s->ndense * MLP_KERNELS +
          moe * (MOE_KERNELS + (s->shared > 0 ? SHARED_KERNELS : 0));
    if (l->tp > 1 && !l->dp_attention)
        coll += 2 * layers;
    if (l->dp_attention && x->etp > 1 && moe > 0)
        coll += 2 * moe;
    if (l->dp_attention && l->ep > 1 && moe > 0)
        coll += 2 * moe;
    per += coll;
    n->layers = layers * (l->tbo ? 2 : 1);
    n->all = (per * (1 + (double)k / layers) + STEP_KERNELS +
              (l->pp > 1 ? l->pp : 0)) *
             (l->tbo ? 2 : 1);
}

/* The decode steps of aggregated serving. With CUDA graphs only the
 * steps without a prompt run graphed, padded (TensorRT-LLM's model engine
 * graphs generation-only batches); a request's prompt is admitted in a
 * step of `budget` tokens beside the decodes, so of the osl / gain steps
 * a request lives, a share `mixed` = b isl / budget / (osl / gain) carry
 * prompts. `eager` gets the parts of such a step (one stage), `part` the
 * mean of both. Without graphs named nothing is padded and both kinds
 * take the same GPU time; the steps with a prompt still run eager, their
 * launches the host's (sn_infer_predict). */
static int decode_avg(struct run *x, double b, double ctx, double budget,
                      double gain, double part[], double eager[], double *mixed)
{
    const struct sn_infer_layout *l = x->l;
    int rc;

    x->pad = false;
    *mixed = fmin(1, b * x->w->isl / budget / (x->w->osl / gain));
    rc = decode_step(x, b / l->pp, ctx, x->w->mtp, part);
    memcpy(eager, part, sizeof(double) * SN_INFER_PART_COUNT);
    if (rc || x->w->ngraphs == 0)
        return rc;
    x->pad = true;
    rc = decode_step(x, b / l->pp, ctx, x->w->mtp, part);
    x->pad = false;
    for (int i = 0; i < SN_INFER_PART_COUNT; i++)
        part[i] = *mixed * eager[i] + (1 - *mixed) * part[i];
    return rc;
}

int sn_infer_predict(const struct sn_model_info *m,
                     const struct sn_train_system *sys,
                     const struct sn_infer_layout *l,
                     const struct sn_infer_work *w, struct sn_infer_result *r,
                     struct sn_error *err)
{
    struct run x;
    struct sn__infer_launches n;
    double part[SN_INFER_PART_COUNT], eager[SN_INFER_PART_COUNT], b, ctx, chunk,
        t, gain, mixed, host, launch, graphed;
    int rc, gpus = l->tp * l->pp;

    memset(r, 0, sizeof(*r));
    rc = sn__infer_check_timed(m, sys, l, w, gpus, err);
    if (!rc)
        rc = sn__infer_check_work(w, err);
    if (rc)
        return rc;
    run_init(&x, m, sys, l, w, &r->kernels_extrapolated, err);
    r->gpus = gpus;
    memory(&x, r);
    r->batch = l->batch > 0 ? l->batch : r->max_batch;
    r->fits = r->max_batch >= 1 && r->batch <= r->max_batch;
    b = r->batch > 0 ? r->batch : 1;
    /* TTFT: one prompt through every stage */
    rc = stage_pass(&x, w->isl, 1, w->isl, true, part);
    if (rc)
        return rc;
    r->prefill_s = r->ttft_s = l->pp * sum(part);
    /* prefill at full batching: forward passes of max_num_tokens per
     * attention rank, prompts of isl tokens, one stage's time per pass */
    chunk = fmax(pass_tokens(w, l, r->max_batch), w->isl) *
            (l->dp_attention ? l->tp : 1);
    rc = pass(&x, chunk, chunk / w->isl, w->isl, true, part);
    if (rc)
        return rc;
    r->prefill_tps_gpu = chunk / sum(part) / gpus;
    /* decode: pp micro-batches of b / pp in flight, each one stage's
     * time a stage; a token every pp stage times; context halfway */
    ctx = w->isl + w->osl / 2.0;
    gain = accepted(w->mtp, w->accept);
    rc = decode_avg(&x, b, ctx, chunk, gain, r->part, eager, &mixed);
    if (rc)
        return rc;
    for (int i = 0; i < SN_INFER_PART_COUNT; i++)
        r->part[i] *= l->pp;
    r->experts_hit =
        m->experts > 1
            ? sn_infer_experts_hit(m->experts, x.s.topk, b / l->pp) / l->ep
            : 0;
    /* the host: each step max(GPU, host), the steps with a prompt
     * launching their kernels eagerly besides; the excess over the GPU
     * its own part */
    r->gpu_step_s = sum(r->part);
    t = l->pp * sum(eager);
    graphed = mixed < 1 ? (r->gpu_step_s - mixed * t) / (1 - mixed) : t;
    step_launches(&x, w->mtp, &n);
    host = sn__infer_host(sys, l, w, b);
    launch = sn__infer_host_eager(sys, w, &n);
    r->host_step_s = host + mixed * launch;
    r->part[SN_INFER_HOST] =
        fmax(0, mixed * fmax(t, host + launch) +
                    (1 - mixed) * fmax(graphed, host) - r->gpu_step_s);
    r->step_s = sum(r->part);
    r->tpot_s = r->step_s / gain;
    r->decode_tps_gpu = b * gain / r->step_s / gpus;
    r->output_tps_user = 1 / r->tpot_s;
    /* aggregated serving: each request's prefill takes its share of the
     * replica's time beside the osl / gain decode steps of the batch */
    t = w->osl / gain * r->step_s + b * w->isl / (r->prefill_tps_gpu * gpus);
    r->output_tps = b * w->osl / t;
    r->output_tps_gpu = r->output_tps / gpus;
    return SN_OK;
}

/* Grid points 1, 2, 3, 4, 6, 8, 12, ... up to `top` (and top itself). */
static int grid(double top, double *g)
{
    int n = 0, e;

    for (double v = 1; v < top && n < SN__INFER_GRID - 1;) {
        g[n++] = v;
        /* a power of two steps by 3/2, the point between by 4/3 */
        v = v < 2 ? 2 : frexp(v, &e) == 0.5 ? v * 3 / 2 : v * 4 / 3;
    }
    g[n++] = top;
    return n;
}

int sn__infer_costs(const struct sn_model_info *m,
                    const struct sn_train_system *sys,
                    const struct sn_infer_layout *l,
                    const struct sn_infer_work *w, struct sn__infer_costs *c,
                    struct sn_error *err)
{
    struct run x;
    struct sn_infer_result r;
    struct sn__infer_launches n;
    double part[SN_INFER_PART_COUNT], ctx, one = 0;
    bool extrapolated;
    int rc;

    memset(c, 0, sizeof(*c));
    rc = sn_infer_check(m, sys, l, w, l->tp * l->pp, err);
    if (!rc)
        rc = sn__infer_check_work(w, err);
    if (rc)
        return rc;
    run_init(&x, m, sys, l, w, &extrapolated, err);
    memset(&r, 0, sizeof(r));
    memory(&x, &r);
    c->gpus = l->tp * l->pp;
    c->ranks = l->dp_attention ? l->tp : 1;
    c->max_batch = l->batch > 0 ? l->batch : r.max_batch;
    if (c->max_batch < 1)
        c->max_batch = 1;
    c->budget = pass_tokens(w, l, r.max_batch);
    c->gain = accepted(w->mtp, w->accept);
    step_launches(&x, w->mtp, &n);
    c->launch = sn__infer_host_eager(sys, w, &n);
    ctx = w->isl + w->osl / 2.0;
    c->nb = grid(c->max_batch, c->batch);
    for (int i = 0; i < c->nb; i++) {
        double b = c->batch[i];
        x.pad = false;
        rc = decode_step(&x, b / l->pp, ctx, w->mtp, part);
        if (rc)
            return rc;
        c->mixed[i] = c->decode[i] = l->pp * sum(part);
        if (w->ngraphs > 0) {
            x.pad = true;
            rc = decode_step(&x, b / l->pp, ctx, w->mtp, part);
            x.pad = false;
            if (rc)
                return rc;
            c->decode[i] = l->pp * sum(part);
        }
    }
    /* a chunk of t prompt tokens on the busiest attention rank: the pass
     * runs as if every rank had as many (the ranks meet at every MoE
     * layer and the TP collectives), its cost above a one-token pass's
     * (the weights the decodes beside it read anyway) */
    c->nt = grid(fmax(c->budget, w->isl), c->tokens);
    for (int i = 0; i < c->nt; i++) {
        double t = c->tokens[i] * c->ranks;
        rc = pass(&x, t, fmax(1, t / w->isl), w->isl, true, part);
        if (rc)
            return rc;
        if (i == 0)
            c->base = one = l->pp * sum(part);
        c->prefill[i] = fmax(0, l->pp * sum(part) - one);
    }
    return SN_OK;
}

const char *sn_infer_part_name(enum sn_infer_part p)
{
    static const char *const names[] = {"weights", "kv",       "compute",
                                        "kernels", "tp",       "ep",
                                        "pp",      "per-step", "host"};
    return p >= 0 && p < SN_INFER_PART_COUNT ? names[p] : "?";
}
