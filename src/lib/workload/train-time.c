/* train-time.c: the time of one training step. Each layer is a list of
 * kernels: GEMMs at the accelerator's sustained matmul rate (roofline with
 * HBM), memory-bound kernels at HBM bandwidth, a fixed cost per kernel;
 * the collectives of tensor, context, expert, pipeline and data
 * parallelism come from the communication model (sn_coll_predict in
 * production), with the overlap each allows. The pipeline is 1F1B or
 * interleaved 1F1B with its bubble; then the data-parallel tail and the
 * optimizer. docs/model.md ("Training: step time") has the derivation. */
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "train-int.h"

/* Memoised collective times: the layout search asks for the same
 * collectives many times. */
struct memo_slot {
    double bytes;
    double time;
    uint32_t first, n, stride, siblings;
    uint8_t op;
    uint8_t used;
};

#define MEMO_MAX ((size_t)1 << 20) /* slots; beyond this, no caching */

/* Kernel-table answers by shape: the search asks for the same shapes
 * for many layouts. Direct-mapped; a miss recomputes. */
struct kcache_slot {
    double m, n, k, flops;
    const struct sn_kernel_table *tab;
    uint8_t kind, dtype, fit, used;
};

#define KCACHE_SLOTS 4096

struct sn_train {
    struct sn_model_info model;
    struct sn__dims d;
    struct sn_train_system sys;
    struct memo_slot *memo;
    size_t memo_cap, memo_n;
    struct kcache_slot *kcache;
};

int sn_train_new(const struct sn_model_info *m,
                 const struct sn_train_system *sys, struct sn_train **out,
                 struct sn_error *err)
{
    struct sn_train *t;

    *out = NULL;
    if (m->layers < 1 || m->hidden < 1 || m->heads < 1 || m->ffn < 1)
        return sn_error_set(err, SN_EINPUT,
                            "model '%s' needs layers, hidden, heads and ffn",
                            m->name ? m->name : "?");
    if (!(sys->flops > 0) || !(sys->hbm_bw > 0) || !sys->comm.time)
        return sn_error_set(err, SN_EINPUT,
                            "system '%s' needs a compute peak, an HBM "
                            "bandwidth and a communication model",
                            sys->name ? sys->name : "?");
    t = sn_xcalloc(1, sizeof(*t));
    t->model = *m;
    t->sys = *sys;
    sn__dims_init(m, &t->d);
    t->memo_cap = 1024;
    t->memo = sn_xcalloc(t->memo_cap, sizeof(*t->memo));
    t->kcache = sn_xcalloc(KCACHE_SLOTS, sizeof(*t->kcache));
    *out = t;
    return SN_OK;
}

void sn_train_free(struct sn_train *t)
{
    if (!t)
        return;
    free(t->memo);
    free(t->kcache);
    free(t);
}

const struct sn_model_info *sn__train_model(const struct sn_train *t)
{
    return &t->model;
}

const struct sn_train_system *sn__train_system(const struct sn_train *t)
{
    return &t->sys;
}

static uint64_t memo_hash(int op, uint32_t first, uint32_t n, uint32_t stride,
                          uint32_t siblings, double bytes)
{
    uint64_t k[4];

    memcpy(&k[0], &bytes, sizeof(bytes));
    k[1] = (uint64_t)op << 32 | first;
    k[2] = (uint64_t)n << 32 | stride;
    k[3] = siblings;
    return sn_hash64(k, sizeof(k), 0x5eed);
}

static void memo_grow(struct sn_train *t)
{
    struct memo_slot *old = t->memo;
    size_t oldcap = t->memo_cap;

    t->memo_cap *= 2;
    t->memo = sn_xcalloc(t->memo_cap, sizeof(*t->memo));
    t->memo_n = 0;
    for (size_t i = 0; i < oldcap; i++) {
        struct memo_slot *s = &old[i];
        size_t j;
        if (!s->used)
            continue;
        j = memo_hash(s->op, s->first, s->n, s->stride, s->siblings, s->bytes) &
            (t->memo_cap - 1);
        while (t->memo[j].used)
            j = (j + 1) & (t->memo_cap - 1);
        t->memo[j] = *s;
        t->memo_n++;
    }
    free(old);
}

/* The time of one collective over `n` ranks from `first` at `stride`,
 * with the `siblings` groups of its shape that run at the same time. */
/* The kernels that move a collective: NCCL's, or the MoE dispatch and
 * combine (DeepEP-class) at the fraction of the links they reach. */
enum comm_kind { KIND_NCCL, KIND_DISPATCH, KIND_COMBINE };

/* DeepEP-class dispatch and combine against the nominal link rate of
 * their bottleneck. Scale-up: on GB200 NVL72 DeepEP at EP32 reached about
 * 400 GB/s dispatch and 190 GB/s combine with 24 SMs against 900 GB/s a
 * direction (Megatron-LM docs/discussions/deepseek-v3-gb200-optimization,
 * in reference/moe-inference.md). Scale-out: an all-to-all gets 46-48 of
 * a 400G NIC's 50 GB/s (NVIDIA, nccl-tests #267 and #290, in
 * reference/perf-model-anchors.md section 3.2). */
#define EP_DISPATCH_SCALEUP (400.0 / 900)
#define EP_COMBINE_SCALEUP (190.0 / 900)
#define EP_SCALEOUT (47.0 / 50)
/* The SMs those kernels hold while they overlap compute: 24 (the same
 * measurement) of a Blackwell GPU's 148 [D]; the compute beside them
 * runs on the rest. */
#define EP_SM_SHARE (24.0 / 148)

static int measure(struct sn_train *t, enum sn_coll_op op, enum comm_kind kind,
                   const struct sn_group *g, uint32_t siblings, double bytes,
                   double *sec, struct sn_error *err)
{
    double wire, lat, frac;
    bool out = false;
    int rc;

    if (kind == KIND_NCCL || !t->sys.comm.wire)
        return t->sys.comm.time(t->sys.comm.ctx, op, g, siblings, bytes, sec,
                                err);
    rc = t->sys.comm.wire(t->sys.comm.ctx, op, g, siblings, bytes, &wire, &lat,
                          &out, err);
    if (rc)
        return rc;
    frac = out                     ? EP_SCALEOUT
           : kind == KIND_DISPATCH ? EP_DISPATCH_SCALEUP
                                   : EP_COMBINE_SCALEUP;
    *sec = lat + wire / frac;
    return SN_OK;
}

static int comm_kind(struct sn_train *t, enum sn_coll_op op,
                     enum comm_kind kind, uint32_t first, uint32_t n,
                     uint32_t stride, uint32_t siblings, double bytes,
                     double *sec, struct sn_error *err)
{
    struct sn_group g = {first, n, stride, NULL};
    size_t j;
    int rc;

    *sec = 0;
    if (n <= 1 || !(bytes > 0))
        return SN_OK;
    /* the sibling groups that share g's NICs are those on g's nodes: at
     * most one per accelerator of a node; the others run on other nodes
     * (what they share beyond the leaves, a non-blocking fat tree does
     * not slow) */
    {
        uint32_t cap =
            (uint32_t)(t->sys.per_node > 0 ? t->sys.per_node : t->sys.domain);
        if (cap > 0 && siblings > cap)
            siblings = cap;
    }
    if (siblings < 1)
        siblings = 1;
    /* on a non-blocking network a group of one rank per domain (stride a
     * multiple of the domain) sees the same links wherever it sits: time
     * it at consecutive domains, so that the many strides of a search
     * share one answer */
    if (t->sys.uniform_network && t->sys.domain > 0 &&
        stride % (uint32_t)t->sys.domain == 0 && stride > 0) {
        first = first % (uint32_t)t->sys.domain;
        stride = (uint32_t)t->sys.domain;
        g.first = first;
        g.stride = stride;
    }
    op = (enum sn_coll_op)(op + 16 * kind); /* the memo's key */
    j = memo_hash(op, first, n, stride, siblings, bytes) & (t->memo_cap - 1);
    while (t->memo[j].used) {
        struct memo_slot *s = &t->memo[j];
        if (s->op == op && s->first == first && s->n == n &&
            s->stride == stride && s->siblings == siblings &&
            s->bytes == bytes) {
            *sec = s->time;
            return SN_OK;
        }
        j = (j + 1) & (t->memo_cap - 1);
    }
    rc = measure(t, (enum sn_coll_op)(op % 16), kind, &g, siblings, bytes, sec,
                 err);
    if (rc)
        return rc;
    if (t->memo_n + 1 > t->memo_cap / 2) {
        if (t->memo_cap >= MEMO_MAX)
            return SN_OK;
        memo_grow(t);
        j = memo_hash(op, first, n, stride, siblings, bytes) &
            (t->memo_cap - 1);
        while (t->memo[j].used)
            j = (j + 1) & (t->memo_cap - 1);
    }
    t->memo[j] = (struct memo_slot){bytes,  *sec,     first,       n,
                                    stride, siblings, (uint8_t)op, 1};
    t->memo_n++;
    return SN_OK;
}

static int comm(struct sn_train *t, enum sn_coll_op op, uint32_t first,
                uint32_t n, uint32_t stride, uint32_t siblings, double bytes,
                double *sec, struct sn_error *err)
{
    return comm_kind(t, op, KIND_NCCL, first, n, stride, siblings, bytes, sec,
                     err);
}

/* ---- kernels --------------------------------------------------------------
 */

struct rates {
    double gemm;   /* FLOP/s a large GEMM sustains in the layout's dtype */
    double attn;   /* fused attention FLOP/s, forward */
    double attn_b; /* fused attention FLOP/s, backward */
    double mem;    /* bytes/s streaming kernels sustain */
    double kt;     /* seconds per kernel */
    double elt;    /* bytes per GEMM input element */
    /* the kernel table (sn/kernels.h) that rates GEMMs by shape, NULL:
     * none; kdt the rows used; best > 0: the table is another
     * generation's or type's, and its shape curve (rate / best) scales
     * the calibrated rate gemm; best 0: its rates are this accelerator's */
    const struct sn_kernel_table *tab;
    enum sn_kernel_dtype kdt;
    double best;
    bool pessimistic;   /* the slower of the table and the calibration */
    bool other_type;    /* the table's rows are of another type */
    bool *extrapolated; /* set when a GEMM's rate is not measured */
    struct kcache_slot *kcache;       /* the model's cache of table answers */
    const struct sn_attn_table *atab; /* fused attention by length, NULL:
                                         the calibrated attn, attn_b */
    double peak;                      /* dense BF16 FLOP/s, for atab */
    double own_peak; /* dense FLOP/s of the GEMMs' type on this part */
};

/* The table's rate through the cache, by the previous lookup
 * (sn__kernels_nearest), not serving's sn_kernels_rate: the layout search
 * is not ready for it (docs/model.md, "Why training keeps the previous
 * lookup"). */
static double table_flops(const struct rates *r, enum sn_kernel_kind kind,
                          double M, double N, double K, enum sn_kernel_fit *fit)
{
    uint64_t key[4];
    struct kcache_slot *s;
    double f;

    memcpy(&key[0], &M, sizeof(M));
    memcpy(&key[1], &N, sizeof(N));
    memcpy(&key[2], &K, sizeof(K));
    key[3] = (uint64_t)kind << 8 | (uint64_t)r->kdt;
    s = &r->kcache[sn_hash64(key, sizeof(key), 0x6b) % KCACHE_SLOTS];
    if (s->used && s->m == M && s->n == N && s->k == K && s->tab == r->tab &&
        s->kind == kind && s->dtype == r->kdt) {
        *fit = (enum sn_kernel_fit)s->fit;
        return s->flops;
    }
    f = sn__kernels_nearest(r->tab, kind, r->kdt, M, N, K, fit);
    *s = (struct kcache_slot){
        M, N, K, f, r->tab, (uint8_t)kind, (uint8_t)r->kdt, (uint8_t)*fit, 1};
    return f;
}

/* Seconds of `flop` FLOPs of a kernel of kind and shape at the table's
 * rate; -1 when the table has no row of the kind and type. */
static double table_time(const struct rates *r, enum sn_kernel_kind kind,
                         double M, double N, double K, double flop)
{
    enum sn_kernel_fit fit;
    double f = table_flops(r, kind, M, N, K, &fit);

    if (fit == SN_KFIT_NONE && kind == SN_KERNEL_GROUPED)
        f = table_flops(r, SN_KERNEL_GEMM, M, N, K, &fit);
    if (fit != SN_KFIT_MEASURED || r->best > 0 || r->other_type)
        *r->extrapolated = true;
    if (fit == SN_KFIT_NONE || !(f > 0))
        return -1;
    if (r->best > 0)
        return flop / (r->gemm * f / r->best);
    {
        /* rows measured as a share of their GPU's peak scale to this
         * accelerator's (a B200's rows on a GB200) */
        double pk = sn_kernels_peak(r->tab, kind, r->kdt);
        if (!(pk > 0) && kind == SN_KERNEL_GROUPED)
            pk = sn_kernels_peak(r->tab, SN_KERNEL_GEMM, r->kdt);
        if (pk > 0 && r->own_peak > 0)
            f *= r->own_peak / pk;
    }
    return flop / (f * SN__SUSTAINED);
}

/* The compute time of a GEMM (or of one expert's, grouped) of `flop`
 * FLOPs: the kernel table's where it has the shape, else the calibrated
 * large-GEMM rate plus the fixed cost of a kernel (which the table's
 * measurements include); the pessimistic bound takes the slower. */
static double gemm_compute(const struct rates *r, enum sn_kernel_kind kind,
                           double M, double N, double K, double flop)
{
    double old = flop / r->gemm + r->kt, tt;

    if (!r->tab) {
        *r->extrapolated = true;
        return old;
    }
    tt = table_time(r, kind, M, N, K, flop);
    if (tt < 0)
        return old;
    return r->pessimistic ? fmax(tt, old) : tt;
}

/* A GEMM M x K times K x N: compute or HBM bound, whichever is slower, plus
 * the fixed cost of a kernel. */
static double gemm(const struct rates *r, double M, double N, double K)
{
    double tc = gemm_compute(r, SN_KERNEL_GEMM, M, N, K, 2 * M * N * K);
    double tm = (r->elt * (M * K + K * N) + 2 * M * N) / r->mem + r->kt;

    return tc > tm ? tc : tm;
}

/* A memory-bound kernel moving `bytes`. */
static double elem(const struct rates *r, double bytes)
{
    return bytes / r->mem + r->kt;
}

/* A grouped GEMM: `groups` experts of M x K times K x N in one kernel.
 * Each expert's rows fill whole tiles of 128 (the M tile of Hopper and
 * Blackwell tensor-core GEMMs: CUTLASS's 128-row CTA tiles, DeepGEMM's
 * BLOCK_M) [E], and each expert is compute or HBM bound by the
 * accelerator's roofline: a small M reads every weight for few rows, so
 * below M ~ rate / bandwidth (about 240 rows for FP8 on GB200) the rate
 * falls with M. The efficiency curve is that roofline, not a fit. */
static double grouped_gemm(const struct rates *r, double groups, double M,
                           double N, double K)
{
    double Mp = M > 0 ? ceil(M / 128) * 128 : 0;
    double tc, tm = groups * (r->elt * (M * K + K * N) + 2 * M * N) / r->mem;

    if (!(groups > 0) || !(Mp > 0))
        return 0;
    /* the table is measured at whole tiles of rows per expert */
    tc = gemm_compute(r, SN_KERNEL_GROUPED, Mp, N, K, groups * 2 * Mp * N * K);
    /* the pessimistic bound: a cuBLAS-based grouped GEMM launches one GEMM
     * per local expert (tgale96/grouped_gemm's CublasGroupedGemm loop,
     * TransformerEngine's multi-stream cuBLAS path), each with the fixed
     * cost of a kernel; MegaBlocks PR #24 recommends expert parallelism
     * "to keep per-device expert counts low, which is important for
     * efficiency with the current cuBLAS-based grouped GEMM kernels" */
    if (r->pessimistic)
        tc += (groups - 1) * r->kt;
    return tc > tm + r->kt ? tc : tm + r->kt;
}

/* What one layer costs for one micro-batch on one accelerator. Compute
 * times include memory-bound kernels; communication is what stays
 * exposed after the overlap the software achieves. */
struct layer_cost {
    double fwd, bwd, recompute; /* compute */
    double tp, cp, ep;          /* exposed communication, fwd + bwd +
                                   recompute */
    double overlapped;          /* communication hidden under compute */
    double routed; /* MoE: the forward's routed part, after the host's
                      sync (permute to unpermute, dispatch and combine) */
};

struct step_ctx {
    struct sn_train *t;
    const struct sn_train_layout *l;
    const struct sn_train_opts *o;
    struct rates r;
    double T;        /* local tokens per micro-batch: mbs x seq / cp */
    double rdiv;     /* tp with sequence parallelism, else 1 */
    double tp_unit;  /* seconds of one TP collective of T x h (AR or AG) */
    double tp_rs;    /* one reduce-scatter with SP */
    bool tp_overlap; /* the TP collectives may hide under their GEMMs */
    struct sn_error *err;
};

/* The attention core for the local tokens: forward time and backward. */
static void attention_core(const struct step_ctx *c, double *fwd, double *bwd)
{
    const struct sn__dims *d = &c->t->d;
    const struct sn_train_layout *l = c->l;
    double heads = d->a / l->tp, s_kv = (double)l->seq;
    double flops = 2 * c->T * heads * s_kv * (d->qk + d->v_hd);

    if (c->o->flash_attention) {
        /* fused kernel, causal: half the s x s blocks are skipped; the
         * backward recomputes the scores (2.5x the forward's FLOPs,
         * Dao 2023) and runs at a rate of its own, lower than the
         * forward's on every generation measured */
        double ra = c->r.attn, rb = c->r.attn_b, kf = c->r.kt, kb = 2 * c->r.kt;
        if (c->r.atab) {
            /* the generation's measured attention at this length and
             * head size (kernels.c), its launch included; the
             * pessimistic bound the slower of it and the calibration */
            enum sn_kernel_fit ff, fb;
            double hd = 0.5 * (d->qk + d->v_hd);
            double ef =
                sn_kernels_attn_eff(c->r.atab, s_kv, hd, true, false, &ff);
            double eb =
                sn_kernels_attn_eff(c->r.atab, s_kv, hd, true, true, &fb);
            if (ff != SN_KFIT_NONE) {
                double ta = c->r.peak * ef * SN__SUSTAINED;
                ra = c->r.pessimistic ? fmin(ra, ta) : ta;
                kf = 0;
            }
            if (fb != SN_KFIT_NONE) {
                double tb = c->r.peak * eb * SN__SUSTAINED;
                rb = c->r.pessimistic ? fmin(rb, tb) : tb;
                kb = 0;
            }
            if (ff != SN_KFIT_MEASURED || fb != SN_KFIT_MEASURED)
                *c->r.extrapolated = true;
        } else {
            *c->r.extrapolated = true;
        }
        *fwd = 0.5 * flops / ra + kf;
        *bwd = 2.5 * 0.5 * flops / rb + kb;
        return;
    }
    {
        /* unfused: QK^T and AV as batched GEMMs (roofline: the scores are
         * written and read through HBM), Megatron's fused
         * scale-mask-softmax and the attention dropout as kernels of
         * their own. Backward: two batched GEMMs per forward one; the
         * softmax gradient reads the probabilities and the incoming
         * gradient and writes one (6 bytes per score), the dropout's
         * reads a gradient and the mask and writes one (5). */
        double e = (double)l->mbs * heads * ((double)l->seq / l->cp) * s_kv;
        double bmm = fmax(flops / 2 / c->r.gemm,
                          (2 * e + 4 * c->T * heads * d->d) / c->r.mem) +
                     c->r.kt;
        double drop = c->o->dropout;

        *fwd = 2 * bmm + elem(&c->r, 4 * e) + (drop ? elem(&c->r, 5 * e) : 0);
        *bwd = 4 * bmm + elem(&c->r, 6 * e) + (drop ? elem(&c->r, 5 * e) : 0);
    }
}

/* Exposed time of a TP collective of duration `comm` next to a GEMM of
 * `g` seconds it may overlap with (Transformer Engine's userbuffers
 * overlap the SP all-gather and reduce-scatter with their GEMMs). */
static double tp_exposed(const struct step_ctx *c, double comm_t, double g,
                         double *hidden)
{
    if (c->tp_overlap) {
        double e = comm_t > g ? comm_t - g : 0;
        *hidden += comm_t - e;
        return e;
    }
    return comm_t;
}

/* The attention block's projections, forward: *qkv the GEMMs before the
 * core, *proj the output projection, *up what selective recompute runs
 * again besides the core (MLA's up-projections, Megatron-Core's
 * recompute_modules mla_up_proj). */
static void attn_gemms(const struct step_ctx *c, double *qkv, double *proj,
                       double *up)
{
    const struct sn__dims *d = &c->t->d;
    const struct rates *r = &c->r;
    double T = c->T, tp = c->l->tp, h = d->h;

    *up = 0;
    if (!d->mla) {
        *qkv = gemm(r, T, (d->a + 2 * d->k) * d->d / tp, h);
        *proj = gemm(r, T, h, d->a * d->d / tp);
        return;
    }
    /* DeepSeek-V2 section 2.1: the down-projections to the latents (whole
     * on every TP rank), their norms, the up-projections split by heads */
    {
        double qin = d->q_lora > 0 ? d->q_lora : h;
        double down = gemm(r, T, d->kv_lora + d->rope, h) +
                      (d->q_lora > 0 ? gemm(r, T, d->q_lora, h) : 0);
        double norms = elem(r, 4 * T * (d->q_lora + d->kv_lora));
        *up = gemm(r, T, d->a * d->qk / tp, qin) +
              gemm(r, T, d->a * (d->qk - d->rope + d->v_hd) / tp, d->kv_lora);
        *qkv = down + norms + *up;
        *proj = gemm(r, T, h, d->a * d->v_hd / tp);
    }
}

/* One dispatch or combine of `bytes` per rank (every routed copy of a
 * token, h x 2 bytes, BF16 both ways) over the EP group: ep ranks at
 * stride etp. Inside one scale-up domain it is one all-to-all. A group
 * over D domains runs as DeepEP's and HybridEP's hierarchical kernels
 * do: a token crosses the network once per remote domain that holds one
 * of its experts, to the rank on its own rail there, which forwards it
 * over the scale-up links, both at once (DeepSeek-V3 report section
 * 3.2.2). With uniform routing a token meets (D - 1)(1 - (1 - 1/D)^topk)
 * remote domains. */
static int ep_a2a(struct step_ctx *c, enum comm_kind kind, double bytes,
                  double *sec)
{
    struct sn_train *t = c->t;
    const struct sn_train_layout *l = c->l;
    const struct sn__dims *d = &t->d;
    uint32_t etp = (uint32_t)(l->etp > 0 ? l->etp : l->tp);
    uint32_t span = (uint32_t)l->ep * etp, dom = (uint32_t)t->sys.domain;
    double D, remote, up, out;
    int rc;

    /* without deduplication (NCCL's all-to-all) every routed copy
     * crosses on its own, at the collective model's rate */
    if (!c->o->ep_dedup)
        return comm_kind(t, SN_COLL_ALLTOALL, KIND_NCCL, 0, (uint32_t)l->ep,
                         etp, etp, bytes, sec, c->err);
    if (dom == 0 || span <= dom || span % dom || dom % etp)
        return comm_kind(t, SN_COLL_ALLTOALL, kind, 0, (uint32_t)l->ep, etp,
                         etp, bytes, sec, c->err);
    D = span / dom;
    remote = (D - 1) * (1 - pow(1 - 1 / D, d->topk));
    /* per rank, the network carries its tokens once per remote domain
     * (the all-to-all's size counts the rank's own share too) */
    rc = comm_kind(t, SN_COLL_ALLTOALL, kind, 0, (uint32_t)D, dom, dom / etp,
                   bytes / d->topk * remote * D / (D - 1), &out, c->err);
    if (!rc)
        rc = comm_kind(t, SN_COLL_ALLTOALL, kind, 0, dom / etp, etp, etp, bytes,
                       &up, c->err);
    *sec = rc ? 0 : fmax(out, up);
    return rc;
}

/* Whether the EP group (ep ranks at stride etp) lies in one scale-up
 * domain. */
static bool ep_in_domain(const struct step_ctx *c)
{
    const struct sn_train_layout *l = c->l;
    int etp = l->etp > 0 ? l->etp : l->tp, dom = c->t->sys.domain;

    return dom <= 0 || (l->ep * etp <= dom && dom % (l->ep * etp) == 0);
}

/* The MLP of a MoE layer for one micro-batch: forward and backward compute
 * (*gf its expert GEMMs, for the TP overlap) and the dispatch and combine
 * all-to-all, one way each (*disp, *comb). The local experts run as grouped
 * GEMMs of the rows routing gives each: T x topk x ep x etp / (experts x tp)
 * when balanced (Megatron-Core's folding: the stage's tokens spread over the
 * edp replicas of every expert), times the capacity factor. */
static int moe_mlp(struct step_ctx *c, double *fwd, double *bwd, double *gf,
                   double *routed, double *disp, double *comb)
{
    struct sn_train *t = c->t;
    const struct sn__dims *d = &t->d;
    const struct sn_train_layout *l = c->l;
    const struct rates *r = &c->r;
    double T = c->T, tp = l->tp, h = d->h;
    double etp = l->etp > 0 ? l->etp : tp;
    double cap = c->o->moe_capacity > 1 ? c->o->moe_capacity : 1;
    double El = d->experts / l->ep;
    double Me = cap * T * d->topk * l->ep * etp / (d->experts * tp);
    double fc1 = grouped_gemm(r, El, Me, d->f * (d->mats - 1) / etp, h);
    double fc2 = grouped_gemm(r, El, Me, h, d->f / etp);
    double act = elem(r, 2 * El * Me * d->f * d->mats / etp);
    double router = gemm(r, T, d->experts, h) + elem(r, 8 * T * d->experts);
    /* permute before the dispatch (read h, write topk copies), the sort
     * of what arrives by local expert (read and write the copies), and
     * the same two after the combine: (4 + 12 topk) h bytes a token */
    double perm =
        elem(r, (4 + 12 * cap * d->topk) * T * h / c->rdiv) + 3 * r->kt;
    double bytes = cap * T * d->topk * h * 2 / c->rdiv;
    int rc;

    *fwd = router + perm + fc1 + fc2 + act;
    *bwd = router + perm + 2 * (fc1 + fc2 + act);
    *gf = fc1 + fc2;
    *routed = *fwd - router;
    if (d->shared > 0) {
        double sf = d->f_shared * d->shared;
        double s1 = gemm(r, T, sf * (d->mats - 1) / tp, h);
        double s2 = gemm(r, T, h, sf / tp);
        double sa = elem(r, 2 * T * sf * d->mats / tp);
        *fwd += s1 + s2 + sa;
        *bwd += 2 * (s1 + s2 + sa);
    }
    rc = ep_a2a(c, KIND_DISPATCH, bytes, disp);
    if (!rc)
        rc = ep_a2a(c, KIND_COMBINE, bytes, comb);
    return rc;
}

/* The EP all-to-all under Megatron-Core's overlap_moe_expert_parallel_comm
 * (interleaved 1F1B, or no pipeline): the forward of one micro-batch runs
 * beside the backward of another, layer by layer, each all-to-all of one
 * under a compute block of the other, as DeepSeek-V3's DualPipe pairs
 * them (report section 3.2.1, figure 4): forward attention with the
 * backward's combine (a dispatch-shaped exchange), the forward dispatch
 * with the backward MLP, the forward MLP with the backward's dispatch (a
 * combine-shaped one), the forward combine with the backward attention.
 * What a block does not cover stays exposed; what it covers slows it by
 * the SMs the kernels hold. */
static void ep_overlap(double attn_f, double attn_b, double mlp_f, double mlp_b,
                       double disp, double comb, double *ep_f, double *ep_b)
{
    double e = fmax(disp - attn_f, 0) + fmax(disp - mlp_b, 0) +
               fmax(comb - mlp_f, 0) + fmax(comb - attn_b, 0);
    double hid = 2 * (disp + comb) - e;

    *ep_f = 0;
    *ep_b = e + hid * EP_SM_SHARE / (1 - EP_SM_SHARE);
}

static int layer(struct step_ctx *c, bool moe, struct layer_cost *lc)
{
    struct sn_train *t = c->t;
    const struct sn__dims *d = &t->d;
    const struct sn_train_layout *l = c->l;
    const struct rates *r = &c->r;
    double T = c->T, tp = l->tp, h = d->h, hid = 0;
    double ln, qkv, proj, up, core_f, core_b, bda, mlp_f, mlp_b, f, b;
    double tp_f = 0, tp_b = 0, cp_f = 0, cp_b = 0, ep_f = 0, ep_b = 0;
    double gemms_f, disp = 0, comb = 0;
    double drop = c->o->dropout ? 1 : 0;
    int rc;

    memset(lc, 0, sizeof(*lc));
    ln = elem(r, 4 * T * h / c->rdiv);
    attn_gemms(c, &qkv, &proj, &up);
    attention_core(c, &core_f, &core_b);
    /* bias + dropout + residual add: read two, write one, a mask */
    bda = elem(r, (6 + drop) * T * h / c->rdiv);

    if (moe) {
        rc = moe_mlp(c, &mlp_f, &mlp_b, &gemms_f, &lc->routed, &disp, &comb);
        if (rc)
            return rc;
        /* the host's segment after the sync holds the dispatch and the
         * combine as well (NCCL's all-to-all starts after it) */
        lc->routed += disp + comb;
        ep_f = disp + comb;
        ep_b = disp + comb;
    } else {
        double fc1 = gemm(r, T, d->f_dense * (d->mats - 1) / tp, h);
        double fc2 = gemm(r, T, h, d->f_dense / tp);
        double act = elem(r, 2 * T * d->f_dense * d->mats / tp);
        mlp_f = fc1 + fc2 + act;
        mlp_b = 2 * (fc1 + fc2 + act);
        gemms_f = fc1 + fc2;
    }

    f = 2 * ln + qkv + core_f + proj + 2 * bda + mlp_f;
    b = 2 * (2 * ln + qkv + proj + 2 * bda) + core_b + mlp_b;

    /* TP: two collectives per block in the forward and two in the
     * backward; with SP an all-gather before QKV/FC1 and a
     * reduce-scatter after the projection/FC2, same bytes */
    if (l->tp > 1) {
        if (l->sp) {
            tp_f = tp_exposed(c, c->tp_unit, qkv, &hid) +
                   tp_exposed(c, c->tp_rs, proj, &hid) +
                   tp_exposed(c, c->tp_unit, gemms_f / 2, &hid) +
                   tp_exposed(c, c->tp_rs, gemms_f / 2, &hid);
            tp_b = tp_exposed(c, c->tp_unit, 2 * qkv, &hid) +
                   tp_exposed(c, c->tp_rs, 2 * proj, &hid) +
                   tp_exposed(c, c->tp_unit, gemms_f, &hid) +
                   tp_exposed(c, c->tp_rs, gemms_f, &hid);
        } else {
            tp_f = 2 * c->tp_unit;
            tp_b = 2 * c->tp_unit;
        }
    }

    /* CP: each rank gathers the others' K and V (ring attention passes
     * them round, overlapped with the blocks of the core) and in the
     * backward sends the K/V gradients back */
    if (l->cp > 1) {
        double kv = (double)l->cp * T * 2 * d->k * d->d * 2 / tp, ag;
        rc = comm(t, SN_COLL_ALLGATHER, 0, (uint32_t)l->cp, (uint32_t)l->tp,
                  (uint32_t)l->tp, kv, &ag, c->err);
        if (rc)
            return rc;
        cp_f = ag > core_f ? ag - core_f : 0;
        cp_b = 2 * ag > core_b ? 2 * ag - core_b : 0;
        hid += ag - cp_f + 2 * ag - cp_b;
    }

    lc->fwd = f;
    lc->bwd = b;
    switch (l->recompute) {
    case SN_RECOMPUTE_FULL:
        lc->recompute = f;
        tp_b += tp_f;
        cp_b += cp_f;
        ep_b += ep_f;
        break;
    case SN_RECOMPUTE_SELECTIVE:
        lc->recompute = (c->o->flash_attention ? 0 : core_f) + up;
        break;
    default:
        break;
    }
    /* the pessimistic bound counts on the overlap only inside one
     * scale-up domain: across the network a dropless dispatch makes the
     * host wait for the GPU's token counts (DeepEP's normal kernels, "the
     * CPU wait for GPU's signal"; reference/prediction-mechanisms.md), and
     * the overlap is a software feature the model does not see achieved */
    if (moe && c->o->overlap_ep && (!c->r.pessimistic || ep_in_domain(c)) &&
        (l->pp == 1 || l->vpp > 1))
        ep_overlap(f - mlp_f, b - mlp_b + lc->recompute, mlp_f, mlp_b, disp,
                   comb, &ep_f, &ep_b);
    /* hidden communication still slows the compute it hides under (SM
     * and HBM contention; Calculon's processor_usage), charged to TP */
    lc->tp = tp_f + tp_b + t->sys.calib.overlap_tax * hid;
    lc->cp = cp_f + cp_b;
    lc->ep = ep_f + ep_b;
    lc->overlapped = hid;
    return SN_OK;
}

/* The share of a layer's ZeRO-3 gather that can start ahead, under the
 * compute before it: all of it when the stack prefetches the next layer
 * whole (FSDP, Megatron-FSDP); at most zero3_prefetch parameters when
 * the prefetch is a bucket of that size (DeepSpeed's
 * stage3_prefetch_bucket_size), the rest fetched on demand. */
static double zero3_prefetched(const struct sn_train_opts *o, double params)
{
    if (!(o->zero3_prefetch > 0) || !(params > 0))
        return 1;
    return fmin(1, o->zero3_prefetch / params);
}

/* Exposed time of one layer's ZeRO-3 traffic: the gather of ag seconds
 * before the forward and again before the backward, the reduce-scatter
 * of rs seconds after it, the share p of a gather that is prefetched
 * under the compute windows fwin and bwin; the rest of a gather is on
 * the critical path (sn__train_zero3_exposed). */
static void zero3_expose(double ag, double rs, double fwin, double bwin,
                         double p, double *ef, double *eb)
{
    double pre = p * ag;

    *ef = (ag - pre) + fmax(pre - fwin, 0);
    *eb = (ag - pre) + fmax(pre + rs - bwin, 0);
}

void sn__train_zero3_exposed(double ag, double rs, double fwin, double bwin,
                             double p, double *ef, double *eb)
{
    zero3_expose(ag, rs, fwin, bwin, p, ef, eb);
}

/* The weight matrices of one layer, the tensors a stack that gathers
 * tensor by tensor issues one collective each for: attention's fused QKV
 * and output projections (MLA: the query down and up projections when
 * queries are low-rank, the key-value down and up, the output), the
 * MLP's matrices (`mats`), and in an MoE layer the router and the
 * matrices of each local and shared expert. Biases and norms are left
 * out: below DeepSpeed's stage3_param_persistence_threshold (1e5
 * elements by default) they stay whole on every rank and are never
 * gathered. */
static double zero3_layer_tensors(const struct sn__dims *d,
                                  const struct sn_train_layout *l, bool moe)
{
    double attn = d->mla ? (d->q_lora > 0 ? 5 : 4) : 2;

    if (!moe)
        return attn + d->mats;
    return attn + 1 + (d->experts / l->ep + d->shared) * d->mats;
}

/* One ZeRO-3 collective of `bytes` over the DP group as DeepSpeed
 * 0.3-0.5 issued it: torch.distributed's list form, whose NCCL process
 * group stages the n per-rank pieces through a flat buffer, one copy
 * kernel each (ProcessGroupNCCL::allgather copies every output out after
 * ncclAllGather, ::reduce_scatter flattens every input before
 * ncclReduceScatter; DeepSpeed PR #1188: "torch.distributed.all_gather
 * will do implicit memcpy at the end of each ncclAllgather"). */
static int zero3_tensor_coll(struct step_ctx *c, enum sn_coll_op op,
                             double bytes, double *sec)
{
    const struct sn_train_layout *l = c->l;
    uint32_t n = (uint32_t)(l->dp * l->cp);
    int rc = comm(c->t, op, 0, n, (uint32_t)l->tp, (uint32_t)l->tp, bytes, sec,
                  c->err);

    if (!rc && n > 1 && bytes > 0)
        *sec += (n - 1) * c->r.kt + elem(&c->r, 2 * bytes);
    return rc;
}

/* ZeRO-3: each layer's weights are gathered for the forward and again for
 * the backward (which the recompute shares), and its gradients
 * reduce-scattered, prefetched under the neighbouring layer's compute.
 * A stack that issues the collectives tensor by tensor
 * (zero3_per_tensor) runs `tensors` of them per layer and pass, each
 * with its own latency, and hides none: DeepSpeed 0.3-0.5's
 * _allgather_param calls torch.cuda.synchronize() before every gather
 * (DeepSpeed PR #1188: "the async version is not async at all, because
 * each all_gather calls torch.cuda.synchronize()"), which also waits for
 * the reduce-scatters in flight. */
static int zero3_layer(struct step_ctx *c, double params, double tensors,
                       const struct layer_cost *lc, double *exposed,
                       double *hidden)
{
    const struct sn_train_layout *l = c->l;
    double w, g, o, ag, rs, fwin, bwin, ef, eb;
    uint32_t n = (uint32_t)(l->dp * l->cp);
    int rc;

    sn__state_bytes(l->dtype, &w, &g, &o);
    if (c->o->zero3_per_tensor && tensors > 0) {
        double each = params / tensors;
        rc = zero3_tensor_coll(c, SN_COLL_ALLGATHER, each * 2, &ag);
        if (!rc)
            rc = zero3_tensor_coll(c, SN_COLL_REDUCESCATTER, each * g, &rs);
        if (rc)
            return rc;
        *exposed = tensors * (2 * ag + rs);
        *hidden = 0;
        return SN_OK;
    }
    rc = comm(c->t, SN_COLL_ALLGATHER, 0, n, (uint32_t)l->tp, (uint32_t)l->tp,
              params * 2, &ag, c->err);
    if (!rc)
        rc = comm(c->t, SN_COLL_REDUCESCATTER, 0, n, (uint32_t)l->tp,
                  (uint32_t)l->tp, params * g, &rs, c->err);
    if (rc)
        return rc;
    fwin = lc->fwd;
    bwin = lc->bwd + lc->recompute;
    /* the pessimistic bound: prefetching each layer's gather under its
     * neighbour's compute is a feature of the software (FSDP's prefetch,
     * its memory and stream scheduling) that the model does not see
     * achieved; the plain end of that band leaves it exposed */
    if (c->r.pessimistic)
        fwin = bwin = 0;
    zero3_expose(ag, rs, fwin, bwin, zero3_prefetched(c->o, params), &ef, &eb);
    *exposed = ef + eb;
    *hidden = 2 * ag + rs - ef - eb;
    return SN_OK;
}

/* ---- the step
 * ------------------------------------------------------------------ */

struct stage_cost {
    double fwd, bwd, recompute, tp, cp, ep, pp, dp;
    double host; /* waiting for the host, one micro-batch */
    double total;
    double params_dense, params_expert; /* per accelerator */
};

/* The multi-token prediction modules on the last stage (Megatron-Core
 * places them after the last layer): each a layer, the 2h -> h projection
 * of the normed hidden state and embedding, and the shared output layer
 * with its loss again (DeepSeek-V3 section 2.2). */
static void stage_mtp(const struct step_ctx *c, const struct layer_cost *lc,
                      double params, double params_expert,
                      struct stage_cost *sc)
{
    const struct sn__dims *d = &c->t->d;
    const struct rates *r = &c->r;
    double T = c->T, tp = c->l->tp;
    double pj = gemm(r, T, d->h / tp, 2 * d->h);
    double lg = gemm(r, T, d->v / tp, d->h);
    double ce = T * d->v / tp;

    for (int i = 0; i < d->mtp; i++) {
        sc->fwd += lc->fwd + pj + lg + elem(r, 38 * ce) + 5 * r->kt;
        sc->bwd += lc->bwd + 2 * (pj + lg) + elem(r, 14 * ce) + r->kt;
        sc->recompute += lc->recompute;
        sc->tp += lc->tp;
        sc->cp += lc->cp;
        sc->ep += lc->ep;
        sc->params_dense += params + sn__mtp_params(d) / tp;
        sc->params_expert += params_expert;
    }
}

/* The host's share of one micro-batch on a stage of `dense` and `moe`
 * layers (train-host.c), on the system's host CPU. */
static double stage_host(const struct step_ctx *c, int dense, int moe,
                         const struct layer_cost *dl,
                         const struct layer_cost *ml)
{
    const struct sn__dims *d = &c->t->d;
    struct sn__host_launches dh, mh;
    struct sn__host_seg dg, mg;

    if (!(c->t->sys.host_launch > 0))
        return 0;
    sn__train_host_launches(d, c->l, c->o, false, &dh);
    sn__train_host_launches(d, c->l, c->o, true, &mh);
    dg.fwd = dl->fwd;
    dg.routed = 0;
    dg.rest = dl->bwd + dl->recompute + dl->tp + dl->cp + dl->ep;
    mg.fwd = ml->fwd;
    mg.routed = ml->routed;
    mg.rest = ml->bwd + ml->recompute + ml->tp + ml->cp + ml->ep;
    return sn__train_host_exposed(c->o, c->t->sys.host_launch, dense,
                                  d->moe ? moe : 0, &dg, &mg, &dh, &mh);
}

static int stage(struct step_ctx *c, int s, const struct layer_cost *dense,
                 const struct layer_cost *moe, double p2p,
                 struct stage_cost *sc)
{
    struct sn_train *t = c->t;
    const struct sn__dims *d = &t->d;
    const struct sn_train_layout *l = c->l;
    const struct rates *r = &c->r;
    double T = c->T, tp = l->tp;
    int first, n = sn__stage_layers_d(d, l->pp, s, &first), nm = 0;
    int rc;

    memset(sc, 0, sizeof(*sc));
    for (int i = first; i < first + n; i++)
        nm += sn__layer_is_moe(d, i);
    sc->fwd = (n - nm) * dense->fwd + nm * moe->fwd;
    sc->bwd = (n - nm) * dense->bwd + nm * moe->bwd;
    sc->recompute = (n - nm) * dense->recompute + nm * moe->recompute;
    sc->tp = (n - nm) * dense->tp + nm * moe->tp;
    sc->cp = (n - nm) * dense->cp + nm * moe->cp;
    sc->ep = (n - nm) * dense->ep + nm * moe->ep;

    /* per-accelerator parameters of the stage, as memory.c counts them */
    {
        double att = sn__attn_params(d) / tp + sn__norm_params(d);
        double dl = att + sn__mlp_params(d, d->moe ? d->f_dense : d->f) / tp;
        double ml = att + d->shared * sn__mlp_params(d, d->f_shared) / tp +
                    d->h * d->experts;
        double etp = l->etp > 0 ? l->etp : tp;
        sc->params_dense = (n - nm) * dl + nm * ml;
        sc->params_expert =
            nm * d->experts * sn__mlp_params(d, d->f) / (l->ep * etp);
        if (s == 0)
            sc->params_dense +=
                d->v * d->h / tp + (d->gpt ? d->s_max * d->h : 0);
        if (s == l->pp - 1 && (!d->tied || l->pp > 1))
            sc->params_dense += d->v * d->h / tp;
        if (s == l->pp - 1 && d->mtp)
            stage_mtp(c, d->moe ? moe : dense, d->moe ? ml : dl,
                      d->moe ? sc->params_expert / (nm ? nm : 1) : 0, sc);
    }

    if (l->zero == 3 && n) {
        double ex, hid;
        /* the stage's weight tensors: its layers', the word embedding on
         * the first stage (and GPT's positions), the output layer on the
         * last when it is its own */
        double k = (n - nm) * zero3_layer_tensors(d, l, false) +
                   nm * zero3_layer_tensors(d, l, true) +
                   (s == 0 ? 1 + (d->gpt ? 1 : 0) : 0) +
                   (s == l->pp - 1 && (!d->tied || l->pp > 1) ? 1 : 0);
        struct layer_cost avg = {0};
        avg.fwd = sc->fwd / n;
        avg.bwd = sc->bwd / n;
        avg.recompute = sc->recompute / n;
        rc = zero3_layer(c, (sc->params_dense + sc->params_expert) / n, k / n,
                         &avg, &ex, &hid);
        if (rc)
            return rc;
        sc->dp += n * (ex + t->sys.calib.overlap_tax * hid);
    }

    if (s == 0) { /* embedding lookup and its gradient */
        sc->fwd += elem(r, 4 * T * d->h / c->rdiv);
        sc->bwd += elem(r, 8 * T * d->h / c->rdiv);
    }
    if (s == l->pp - 1) {
        /* final norm, logits GEMM, and Megatron's vocabulary-parallel
         * cross entropy (megatron/core/tensor_parallel/cross_entropy.py),
         * kernel by kernel over the FP32 logits: the cast to FP32 (read
         * 2, write 4 bytes per logit), the max (read 4), the in-place
         * subtraction and exp (read and write 4 each), the sum (read 4)
         * and the division into the softmax kept for the backward (read
         * and write 4): 38 bytes in six kernels. Backward: the scaling by
         * the loss gradient (read and write 4) and the cast back to 16
         * bits for the logits GEMM (read 4, write 2): 14 in two. */
        double lg = gemm(r, T, d->v / tp, d->h);
        double ce = T * d->v / tp;
        sc->fwd +=
            elem(r, 4 * T * d->h / c->rdiv) + lg + elem(r, 38 * ce) + 5 * r->kt;
        sc->bwd +=
            elem(r, 8 * T * d->h / c->rdiv) + 2 * lg + elem(r, 14 * ce) + r->kt;
        if (l->sp && l->tp > 1)
            sc->tp += c->tp_unit + c->tp_rs;
    }
    sc->pp = p2p;
    sc->host = stage_host(c, n - nm, nm, dense, moe);
    sc->total = sc->fwd + sc->bwd + sc->recompute + sc->tp + sc->cp + sc->ep +
                sc->pp + sc->dp + sc->host;
    return SN_OK;
}

/* Data-parallel gradient reduction and parameter gather at the end of a
 * step, what stays exposed of it. */
static int dp_tail(struct step_ctx *c, const struct stage_cost *s0, int m,
                   double *exposed, double *overlapped)
{
    struct sn_train *t = c->t;
    const struct sn_train_layout *l = c->l;
    double w, g, o, red = 0, gat = 0, x, pd = s0->params_dense;
    double pe = s0->params_expert, bucket, nb, win_b, win_f;
    uint32_t n = (uint32_t)(l->dp * l->cp), stride = (uint32_t)l->tp;
    /* the expert-data-parallel group: every (etp, ep) position of the
     * folded stage, edp = tp x cp x dp / (ep x etp) ranks apart by
     * ep x etp */
    uint32_t etp = (uint32_t)(l->etp > 0 ? l->etp : l->tp);
    uint32_t en = (uint32_t)((long long)l->tp * l->cp * l->dp / (l->ep * etp));
    uint32_t estride = (uint32_t)(l->ep * etp);
    int rc = SN_OK;

    *exposed = *overlapped = 0;
    if (l->zero == 3)
        return SN_OK; /* per layer, counted in the stages */
    sn__state_bytes(l->dtype, &w, &g, &o);
    if (l->zero == 0) {
        rc = comm(t, SN_COLL_ALLREDUCE, 0, n, stride, stride, pd * g, &red,
                  c->err);
        if (!rc)
            rc = comm(t, SN_COLL_ALLREDUCE, 0, en, estride, estride, pe * g, &x,
                      c->err);
        red += x;
    } else {
        rc = comm(t, SN_COLL_REDUCESCATTER, 0, n, stride, stride, pd * g, &red,
                  c->err);
        if (!rc)
            rc = comm(t, SN_COLL_REDUCESCATTER, 0, en, estride, estride, pe * g,
                      &x, c->err);
        red += x;
        if (!rc)
            rc = comm(t, SN_COLL_ALLGATHER, 0, n, stride, stride, pd * 2, &gat,
                      c->err);
        if (!rc)
            rc = comm(t, SN_COLL_ALLGATHER, 0, en, estride, estride, pe * 2, &x,
                      c->err);
        gat += x;
    }
    if (rc)
        return rc;
    /* ZeRO-2 reduces at every micro-batch (gradients are sharded) */
    if (l->zero == 2)
        red *= m;

    /* Megatron-LM's buckets: max(40M, 1M x dp) elements; the last one
     * cannot overlap anything */
    bucket = fmax(40e6, 1e6 * l->dp);
    nb = ceil((pd + pe) / bucket);
    if (nb < 1)
        nb = 1;
    win_b = (s0->bwd + s0->recompute) / (l->vpp > 1 ? l->vpp : 1);
    win_f = s0->fwd / (l->vpp > 1 ? l->vpp : 1);
    /* ZeRO-2's reductions run under every micro-batch's backward, of
     * every chunk; only the last one's last bucket is left over */
    if (l->zero == 2)
        win_b = (s0->bwd + s0->recompute) * m;
    if (c->o->overlap_grad_reduce) {
        double e = fmax(red - win_b, red / (l->zero == 2 ? m * nb : nb));
        *exposed += e;
        *overlapped += red - e;
    } else {
        *exposed += red;
    }
    if (c->o->overlap_param_gather) {
        double e = fmax(gat - win_f, gat / nb);
        *exposed += e;
        *overlapped += gat - e;
    } else {
        *exposed += gat;
    }

    /* a tied embedding: the first and last stages add their word
     * embedding gradients */
    if (t->d.tied && l->pp > 1) {
        rc = comm(t, SN_COLL_ALLREDUCE, 0, 2,
                  (uint32_t)((l->pp - 1) * l->tp * l->cp * l->dp),
                  (uint32_t)l->tp, t->d.v * t->d.h / l->tp * g, &x, c->err);
        if (rc)
            return rc;
        *exposed += x;
    }
    return SN_OK;
}

int sn_train_predict(struct sn_train *t, const struct sn_train_layout *l,
                     const struct sn_train_opts *o, struct sn_train_result *r,
                     struct sn_error *err)
{
    return sn__train_predict(t, l, o, NULL, r, err);
}

/* The stages of one pipeline, timed: the first, the slowest, and the sum
 * and maximum of their times. */
struct pipe_stages {
    struct stage_cost s0, worst;
    double sum, tmax;
};

/* Fills the step context: the layout, the kernel rates of its data type
 * and the cost of one TP collective of a micro-batch's activations. */
/* The kernel table for layout l's GEMMs: the loaded one, or the
 * generation's shipped one, when it has rows of the layout's type; for
 * the pessimistic bound otherwise the shape curve of a table that has
 * (the same generation's other type, or Hopper's FP8 rows). */
static void pick_table(struct rates *r, const struct sn_train *t,
                       const struct sn_train_layout *l, bool pessimistic)
{
    static const enum sn_kernel_dtype kdt[SN_DTYPE_COUNT] = {
        SN_KDT_BF16, SN_KDT_FP16, SN_KDT_FP8, SN_KDT_FP4};
    const struct sn_kernel_table *own =
        t->sys.kernels ? t->sys.kernels
                       : sn_kernels_shipped(t->sys.accel, NULL);
    enum sn_kernel_dtype want = kdt[l->dtype];

    r->pessimistic = pessimistic;
    r->tab = NULL;
    r->best = 0;
    r->kdt = want;
    r->other_type = false;
    for (size_t i = 0; own && i < own->npoints; i++)
        if (own->points[i].dtype == want) {
            r->tab = own;
            return;
        }
    /* a measured table of another type (`bench kernels` on a CPU runs
     * fp32): its rates are this machine's, at its own type; flagged */
    if (t->sys.kernels && t->sys.kernels->npoints > 0) {
        r->tab = t->sys.kernels;
        r->kdt = t->sys.kernels->points[0].dtype;
        r->other_type = true;
        return;
    }
    if (!pessimistic)
        return;
    {
        const struct sn_kernel_table *ref = own;
        double best = sn_kernels_best(ref, want);
        if (!(best > 0)) {
            want = SN_KDT_FP8;
            best = sn_kernels_best(ref, want);
        }
        if (!(best > 0)) {
            ref = sn_kernels_reference();
            want = SN_KDT_FP8;
            best = sn_kernels_best(ref, want);
        }
        r->tab = ref;
        r->kdt = want;
        r->best = best;
    }
}

static int step_init(struct step_ctx *c, struct sn_train *t,
                     const struct sn_train_layout *l,
                     const struct sn_train_opts *o, bool pessimistic,
                     bool *extrapolated, struct sn_error *err)
{
    const struct sn__dims *d = &t->d;
    const struct sn_train_calib *k = &t->sys.calib;
    int rc;

    memset(c, 0, sizeof(*c));
    c->t = t;
    c->l = l;
    c->o = o;
    c->err = err;
    c->r.mem = t->sys.hbm_bw * k->mem_eff;
    c->r.kt = k->kernel_time;
    pick_table(&c->r, t, l, pessimistic);
    c->r.extrapolated = extrapolated;
    c->r.kcache = t->kcache;
    if (l->dtype == SN_DTYPE_FP8) {
        c->r.gemm = t->sys.fp8_flops * k->gemm_eff_fp8;
        c->r.own_peak = t->sys.fp8_flops;
        c->r.elt = 1;
    } else if (l->dtype == SN_DTYPE_FP4) {
        c->r.gemm = t->sys.fp4_flops * k->gemm_eff_fp4;
        c->r.own_peak = t->sys.fp4_flops;
        c->r.elt = 0.5;
    } else {
        c->r.gemm = t->sys.flops * k->gemm_eff;
        c->r.own_peak = t->sys.flops;
        c->r.elt = 2;
    }
    /* attention runs in BF16 even in FP8 recipes */
    c->r.attn = t->sys.flops * k->gemm_eff * k->attn_eff;
    c->r.atab = sn_kernels_attention(t->sys.accel);
    c->r.peak = t->sys.flops;
    c->r.attn_b = k->attn_bwd_eff > 0
                      ? t->sys.flops * k->gemm_eff * k->attn_bwd_eff
                      : c->r.attn;
    c->T = (double)l->mbs * l->seq / l->cp;
    c->rdiv = (l->sp && l->tp > 1) ? l->tp : 1;
    /* Transformer Engine's comm+GEMM overlap (userbuffers) moves data by
     * CUDA IPC and multicast handles, which exist only inside one NVLink
     * domain (TransformerEngine issue #1071; multi-node NVLink domains
     * since PR #1470): a TP group that crosses the scale-up domain runs
     * its collectives through NCCL, exposed. TP groups are contiguous
     * from rank 0, so a tp dividing the domain stays inside one. */
    c->tp_overlap = o->overlap_tp && l->sp &&
                    (t->sys.domain <= 0 ||
                     (l->tp <= t->sys.domain && t->sys.domain % l->tp == 0));
    if (l->tp > 1) {
        double bytes = c->T * d->h * 2;
        rc = comm(t, l->sp ? SN_COLL_ALLGATHER : SN_COLL_ALLREDUCE, 0,
                  (uint32_t)l->tp, 1, 1, bytes, &c->tp_unit, err);
        if (!rc && l->sp)
            rc = comm(t, SN_COLL_REDUCESCATTER, 0, (uint32_t)l->tp, 1, 1, bytes,
                      &c->tp_rs, err);
        if (rc)
            return rc;
    }
    return SN_OK;
}

/* Times every pipeline stage (p2p: one send/recv at a stage boundary).
 * The stages between the first and the last differ only in their layer
 * counts: a middle stage with the counts of the one before it costs the
 * same (this keeps a 100-stage pipeline as cheap to time as a short
 * one). */
static int pipe_stages(struct step_ctx *c, const struct layer_cost *dense,
                       const struct layer_cost *moe, double p2p,
                       struct pipe_stages *ps)
{
    const struct sn_train_layout *l = c->l;
    const struct sn__dims *d = &c->t->d;
    double v = l->vpp > 1 ? l->vpp : 1;
    int mid_n = -1, mid_nm = -1, rc;
    struct stage_cost sc, mid = {0};
    /* Megatron-LM overlaps the send/recv with compute only in the
     * interleaved schedule: megatron/training/arguments.py sets
     * overlap_p2p_comm to False when there is no virtual pipeline ("the
     * non-interleaved schedule does not support overlapping p2p
     * communication"), and schedules.py's 1F1B waits on each send/recv */
    bool p2p_hidden = c->o->overlap_p2p && l->vpp > 1;

    memset(ps, 0, sizeof(*ps));
    ps->tmax = -1;
    for (int s = 0; s < l->pp; s++) {
        bool middle = s > 0 && s < l->pp - 1;
        int first, n = sn__stage_layers_d(d, l->pp, s, &first);
        int nm = 0;
        assert(first >= 0 && first + n <= d->layers);
        for (int i = first; i < first + n; i++)
            nm += sn__layer_is_moe(d, i);
        if (middle && n == mid_n && nm == mid_nm) {
            sc = mid;
        } else {
            rc = stage(c, s, dense, moe, p2p_hidden ? 0 : 2 * v * p2p, &sc);
            if (rc)
                return rc;
            if (middle) {
                mid = sc;
                mid_n = n;
                mid_nm = nm;
            }
        }
        if (s == 0)
            ps->s0 = sc;
        ps->sum += sc.total;
        if (sc.total > ps->tmax) {
            ps->tmax = sc.total;
            ps->worst = sc;
        }
    }
    return SN_OK;
}

/* Seconds of the optimizer step on the stage with the most parameters.
 * Adam: fp32 master weights, m and v read and written, the gradient
 * read, the 16-bit weights written, the gradient norm read again. */
static double optimizer_time(const struct step_ctx *c,
                             const struct pipe_stages *ps)
{
    const struct sn_train_layout *l = c->l;
    double w, g, os;
    double params = fmax(ps->worst.params_dense + ps->worst.params_expert,
                         ps->s0.params_dense + ps->s0.params_expert);
    double shard = l->zero >= 1 ? (double)l->dp * l->cp : 1;
    double etp = l->etp > 0 ? l->etp : l->tp;
    double eshard = l->zero >= 1 ? shard * l->tp / (l->ep * etp) : 1;
    double pe = fmax(ps->worst.params_expert, ps->s0.params_expert);

    sn__state_bytes(l->dtype, &w, &g, &os);
    /* expert parameters are sharded over the expert-data-parallel group */
    return ((params - pe) / shard + pe / eshard) * (24 + 2 * g + 2) / c->r.mem +
           4 * c->r.kt;
}

/* The step's parts: m micro-batches through the slowest stage, the
 * pipeline's fill and drain, the exposed DP tail and the optimizer. */
static void step_parts(const struct sn_train_layout *l,
                       const struct pipe_stages *ps, int m, double p2p,
                       double dp_exp, double opt, struct sn_train_result *r)
{
    const struct stage_cost *worst = &ps->worst;
    double v = l->vpp > 1 ? l->vpp : 1;

    r->microbatches = m;
    r->part[SN_PART_FORWARD] = m * worst->fwd;
    r->part[SN_PART_BACKWARD] = m * worst->bwd;
    r->part[SN_PART_RECOMPUTE] = m * worst->recompute;
    r->part[SN_PART_TP] = m * worst->tp;
    r->part[SN_PART_CP] = m * worst->cp;
    r->part[SN_PART_EP] = m * worst->ep;
    r->part[SN_PART_PP] =
        m * worst->pp + (l->pp > 1 ? (l->pp - 1) * 2 * p2p : 0);
    r->part[SN_PART_BUBBLE] = (ps->sum - ps->tmax) / v;
    r->part[SN_PART_DP] = m * worst->dp + dp_exp;
    r->part[SN_PART_OPTIMIZER] = opt;
    r->part[SN_PART_HOST] = m * worst->host;
}

/* Throughput, MFU, HFU and what limits the step, from its time and
 * parts; the memory given (the search's) or computed. */
static void step_rates(struct sn_train *t, const struct sn_train_layout *l,
                       const struct sn_train_opts *o,
                       const struct sn_train_memory *mem,
                       struct sn_train_result *r)
{
    double accels, comm_parts;

    sn_train_flops(&t->model, l, &r->flops);
    if (mem)
        r->mem = *mem;
    else
        sn_train_memory(&t->model, l, o, &t->sys, &r->mem);
    accels = (double)l->tp * l->cp * l->pp * l->dp;
    r->tokens_per_s = r->flops.tokens / r->step_time;
    r->flops_per_gpu = r->flops.model / (accels * r->step_time);
    /* MFU against the peak of the type the GEMMs run in: an FP8 step
     * against the BF16 peak read 103.8% */
    r->peak = sn_train_peak(&t->sys, l->dtype);
    r->mfu = r->flops_per_gpu / r->peak;
    r->hfu = r->flops.hw / (accels * r->step_time) / r->peak;

    comm_parts = r->part[SN_PART_TP] + r->part[SN_PART_CP] +
                 r->part[SN_PART_EP] + r->part[SN_PART_PP] +
                 r->part[SN_PART_DP];
    if (!r->mem.fits)
        r->limit = SN_LIMIT_MEMORY;
    else if (fmax(comm_parts, r->part[SN_PART_BUBBLE]) < 0.15 * r->step_time)
        r->limit = SN_LIMIT_COMPUTE;
    else if (comm_parts >= r->part[SN_PART_BUBBLE])
        r->limit = SN_LIMIT_COMM;
    else
        r->limit = SN_LIMIT_BUBBLE;
}

static int predict(struct sn_train *t, const struct sn_train_layout *l,
                   const struct sn_train_opts *o,
                   const struct sn_train_memory *mem, bool pessimistic,
                   struct sn_train_result *r, struct sn_error *err)
{
    struct step_ctx c;
    struct layer_cost dense, moe;
    struct pipe_stages ps;
    const struct sn__dims *d = &t->d;
    const struct sn_train_calib *k = &t->sys.calib;
    double p2p = 0, pipe, dp_exp = 0, dp_hid = 0, opt;
    double v = l->vpp > 1 ? l->vpp : 1;
    int m, rc;

    memset(r, 0, sizeof(*r));
    if (!mem) { /* the search has checked the layout and its memory */
        rc = sn_train_check(&t->model, l, 0, err);
        if (rc)
            return rc;
    }
    if (!(sn_train_peak(&t->sys, l->dtype) > 0))
        return sn_error_set(err, SN_EINPUT, "'%s' has no %s tensor cores",
                            t->sys.accel ? t->sys.accel : "the accelerator",
                            l->dtype == SN_DTYPE_FP4 ? "FP4" : "FP8");
    /* sn_train_check: mbs x dp divides gbs */
    assert(l->mbs >= 1 && l->dp >= 1);
    m = l->gbs / (l->mbs * l->dp);

    rc = step_init(&c, t, l, o, pessimistic, &r->kernels_extrapolated, err);
    if (rc)
        return rc;
    rc = layer(&c, false, &dense);
    if (!rc && d->moe)
        rc = layer(&c, true, &moe);
    else
        moe = dense;
    if (rc)
        return rc;

    /* PP: the activations of a micro-batch cross each stage boundary
     * forward and their gradients backward, split over the TP ranks
     * (Megatron's scatter/gather, or the SP shard), once per chunk */
    if (l->pp > 1) {
        uint32_t stage = (uint32_t)(l->tp * l->cp * l->dp);
        rc = comm(t, SN_COLL_SENDRECV, 0, 2, stage, stage,
                  c.T * d->h * 2 / l->tp, &p2p, err);
        if (rc)
            return rc;
    }
    rc = pipe_stages(&c, &dense, &moe, p2p, &ps);
    if (rc)
        return rc;
    /* 1F1B: m micro-batches through the slowest stage, plus the fill and
     * drain through the others, divided by v when interleaved (Narayanan
     * et al.: bubble (p-1)/(v m) of the ideal time); the fill also waits
     * for a send/recv at every boundary */
    pipe = m * ps.tmax + (ps.sum - ps.tmax) / v;
    if (l->pp > 1)
        pipe += (l->pp - 1) * 2 * p2p;

    rc = dp_tail(&c, &ps.s0, m, &dp_exp, &dp_hid);
    if (rc)
        return rc;
    opt = optimizer_time(&c, &ps);

    /* hidden DP traffic slows the compute under it too */
    dp_exp += k->overlap_tax * dp_hid;

    r->step_time = pipe + dp_exp + opt;
    step_parts(l, &ps, m, p2p, dp_exp, opt, r);
    step_rates(t, l, o, mem, r);
    return SN_OK;
}

int sn__train_predict(struct sn_train *t, const struct sn_train_layout *l,
                      const struct sn_train_opts *o,
                      const struct sn_train_memory *mem,
                      struct sn_train_result *r, struct sn_error *err)
{
    return predict(t, l, o, mem, false, r, err);
}

int sn_train_predict_bound(struct sn_train *t, const struct sn_train_layout *l,
                           const struct sn_train_opts *o,
                           struct sn_train_result *r, struct sn_error *err)
{
    return predict(t, l, o, NULL, true, r, err);
}

int sn__train_predict_pessimistic(struct sn_train *t,
                                  const struct sn_train_layout *l,
                                  const struct sn_train_opts *o,
                                  const struct sn_train_memory *mem,
                                  struct sn_train_result *r,
                                  struct sn_error *err)
{
    return predict(t, l, o, mem, true, r, err);
}
