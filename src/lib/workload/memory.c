/* memory.c: memory per accelerator of a training layout: weights,
 * gradients and optimizer state under ZeRO stages and Megatron's
 * distributed optimizer; activations with Korthikanti et al.'s per-layer
 * formulas (tensor and sequence parallelism, selective and full recompute)
 * for every micro-batch a pipeline stage holds in flight; logits; buffers.
 * docs/model.md ("Training: memory") derives each term. */
#include <math.h>
#include <string.h>

#include "train-int.h"

void sn__state_bytes(enum sn_dtype dt, double *w, double *g, double *o)
{
    /* Megatron-LM docs/user-guide/features/dist_optimizer.md: fp16 params
     * and grads 20 bytes/param (2 + 2 + 16: fp32 master, fp32 grad copy,
     * Adam m and v), bf16 params with fp32 grads 18 (2 + 4 + 12). FP8
     * training (Transformer Engine) keeps the bf16 weights and optimizer
     * and caches an FP8 copy of each weight for the backward: +1. */
    switch (dt) {
    case SN_DTYPE_FP16:
        *w = 2, *g = 2, *o = 16;
        break;
    case SN_DTYPE_FP8:
        *w = 3, *g = 4, *o = 12;
        break;
    case SN_DTYPE_FP4:
        /* NVFP4 training (NVIDIA, "Pretraining Large Language Models with
         * NVFP4", arXiv:2509.25149) keeps the BF16 weights and FP32
         * optimizer; the FP4 weight copy is half a byte */
        *w = 2.5, *g = 4, *o = 12;
        break;
    default:
        *w = 2, *g = 4, *o = 12;
        break;
    }
}

int sn__stage_layers(int layers, int pp, int stage, int *first)
{
    int base = layers / pp, extra = layers % pp, per, n, f;

    /* Llama 3 (Dubey et al. 2024, section 3.3.2) runs 126 layers on 16
     * stages by giving the first and the last stage one layer fewer, as
     * the embedding and the output layer with the loss weigh about a
     * layer each; Megatron-Core does the same with
     * account_for_embedding_in_pipeline_split and
     * account_for_loss_in_pipeline_split. Taken when it balances: the
     * layers do not divide and the layers plus those two do. */
    if (extra && pp > 2 && (layers + 2) % pp == 0) {
        per = (layers + 2) / pp;
        f = stage == 0 ? 0 : stage * per - 1;
        n = stage == 0 || stage == pp - 1 ? per - 1 : per;
        if (first)
            *first = f;
        return n;
    }
    if (first)
        *first = stage * base + (stage < extra ? stage : extra);
    return base + (stage < extra ? 1 : 0);
}

int sn__stage_layers_d(const struct sn__dims *d, int pp, int stage, int *first)
{
    /* MTP modules sit on the last stage: each with the loss weighs about
     * three layers (NVIDIA's DeepSeek-V3 layout 'Et*4|(t*4|)*14tmL' puts
     * one layer beside them and the loss in the last of 16 chunks, four
     * in every other), so the other stages take the layers evenly and
     * the last what is left */
    if (d->mtp > 0 && pp > 1) {
        int per = (d->layers + 3 * d->mtp + pp - 1) / pp;
        int last = d->layers - per * (pp - 1);
        if (last >= 1) {
            if (first)
                *first = stage * per;
            return stage == pp - 1 ? last : per;
        }
    }
    return sn__stage_layers(d->layers, pp, stage, first);
}

double sn__inflight_chunks(int pp, int vpp, int m, int r)
{
    double chunks;

    if (vpp <= 1) {
        chunks = pp - r;
        return chunks < m ? chunks : m;
    }
    /* Megatron-LM schedules.py, interleaved 1F1B: warm-up micro-batch
     * chunks on rank r = (pp - r - 1) * 2 + (vpp - 1) * pp; one more is
     * live in the steady state. On rank 0 this gives Korthikanti's factor
     * 1 + (p - 1)/(p v) times the layers of one stage. */
    chunks = (double)(pp - r - 1) * 2 + (double)(vpp - 1) * pp + 1;
    return chunks < (double)m * vpp ? chunks : (double)m * vpp;
}

/* Bytes one layer keeps for the backward per local token, whole layer
 * (no recompute): Korthikanti et al. 2022 section 4 (34 s b h + 5 a s^2 b
 * for GPT-3 with TP t: 10 replicated + 24/t split + 5 a s/(h t)),
 * generalised per tensor to GQA, gated MLPs, MoE and fused attention. */
struct layer_act {
    double repl;   /* replicated across TP unless sequence parallel */
    double split;  /* split by TP */
    double scores; /* the s x s attention terms, split by TP */
    double upproj; /* MLA's up-projected queries, keys and values, split
                      by TP (part of split) */
};

/* The stored bytes per token of the attention block's own tensors. */
static void attn_act_per_token(const struct sn__dims *d, double s_kv,
                               const struct sn_train_opts *o,
                               struct layer_act *la)
{
    if (d->mla) {
        /* DeepSeek-V2's MLA in Megatron-Core: the query and key-value
         * latents (each the input of its norm and of its up-projection),
         * the rope key, then the up-projected Q and K (nope + rope wide),
         * V and the output projection's input */
        la->repl += 4 * d->q_lora + 2 * (d->kv_lora + d->rope) + 2 * d->kv_lora;
        la->upproj = 2 * d->a * (2 * d->qk + d->v_hd);
        la->split += la->upproj + 2 * d->a * d->v_hd;
    } else {
        /* Q, K, V (GQA: kv heads) and the projection input */
        la->split += 4 * d->a * d->d + 4 * d->k * d->d;
    }
    if (o->flash_attention) {
        la->scores = 0;
        la->split += 4 * d->a; /* softmax log-sum-exp, fp32 */
    } else {
        /* softmax output (2 bytes), dropout mask (1) and output (2) */
        la->scores = d->a * s_kv * (o->dropout ? 5 : 2);
    }
}

static void layer_act_per_token(const struct sn__dims *d, bool moe, double s_kv,
                                const struct sn_train_opts *o,
                                struct layer_act *la)
{
    double mats1 = d->mats - 1;

    memset(la, 0, sizeof(*la));
    /* LayerNorm inputs (2 x 2h), QKV and FC1 inputs (2 x 2h); one byte
     * per element for each hidden dropout mask */
    la->repl = 8 * d->h + (o->dropout ? 2 * d->h : 0);
    attn_act_per_token(d, s_kv, o, la);
    if (moe) {
        /* each token is copied to topk experts (times the capacity
         * factor's padding): the permuted input and the expert MLP
         * activations per copy (FC1 outputs, two for a gated MLP, and
         * the activation output); shared experts as dense; router logits
         * and probabilities in fp32 */
        double cap = o->moe_capacity > 1 ? o->moe_capacity : 1;
        la->split += cap * d->topk * (2 * d->f * mats1 + 2 * d->f) +
                     d->shared * (2 * d->f_shared * mats1 + 2 * d->f_shared);
        la->repl += cap * d->topk * 2 * d->h + 8 * d->experts;
    } else {
        double fd = d->moe ? d->f_dense : d->f;
        la->split += 2 * fd * mats1 + 2 * fd;
    }
}

/* Stored bytes per local token for one layer under the layout. *whole gets
 * the bytes without recompute (what a recomputed layer rebuilds). */
static double layer_bytes(const struct sn__dims *d, bool moe,
                          const struct sn_train_layout *l,
                          const struct sn_train_opts *o, double *whole)
{
    struct layer_act la;
    double t = l->tp, rdiv = (l->sp && l->tp > 1) ? t : 1;
    double s_kv = (double)l->seq / l->cp, all;

    layer_act_per_token(d, moe, s_kv, o, &la);
    all = la.repl / rdiv + la.split / t + la.scores / t;
    if (whole)
        *whole = all;
    switch (l->recompute) {
    case SN_RECOMPUTE_FULL:
        return 2 * d->h / rdiv; /* the layer input */
    case SN_RECOMPUTE_SELECTIVE:
        /* the core attention; with MLA also its up-projections, rebuilt
         * from the latents (Megatron-Core's recompute_modules
         * mla_up_proj, which the DeepSeek-V3 recipes run) */
        return all - la.scores / t - la.upproj / t;
    default:
        return all;
    }
}

/* Parameters on stage r per accelerator, split into dense (sharded over
 * dp x cp) and expert (sharded over the expert-data-parallel group). */
static void stage_params(const struct sn__dims *d,
                         const struct sn_train_layout *l, int r, double *dense,
                         double *expert, int *nlayers, int *nmoe)
{
    int first, n = sn__stage_layers_d(d, l->pp, r, &first), moe = 0;
    double t = l->tp, etp = l->etp > 0 ? l->etp : l->tp;
    double per_dense, per_moe_dense, per_moe_exp;

    for (int i = first; i < first + n; i++)
        moe += sn__layer_is_moe(d, i);
    per_dense = sn__attn_params(d) / t + sn__norm_params(d) +
                sn__mlp_params(d, d->moe ? d->f_dense : d->f) / t;
    per_moe_dense = sn__attn_params(d) / t + sn__norm_params(d) +
                    d->shared * sn__mlp_params(d, d->f_shared) / t +
                    d->h * d->experts; /* router, replicated */
    per_moe_exp = d->experts * sn__mlp_params(d, d->f) / (l->ep * etp);
    *dense = (n - moe) * per_dense + moe * per_moe_dense;
    *expert = moe * per_moe_exp;
    if (r == 0)
        *dense += d->v * d->h / t + (d->gpt ? d->s_max * d->h : 0);
    if (r == l->pp - 1) {
        *dense += d->gpt ? 2 * d->h : d->h; /* final norm */
        /* a tied output layer is the input embedding; the last stage
         * keeps its own copy when the pipeline has more than one */
        if (!d->tied || l->pp > 1)
            *dense += d->v * d->h / t;
        /* the MTP modules sit after the last layer (Megatron-Core puts
         * them on the last stage) */
        if (d->mtp) {
            *dense += d->mtp * ((d->moe ? per_moe_dense : per_dense) +
                                sn__mtp_params(d) / t);
            *expert += d->moe ? d->mtp * per_moe_exp : 0;
            n += d->mtp;
            moe += d->moe ? d->mtp : 0;
        }
    }
    *nlayers = n;
    *nmoe = moe;
}

static void stage_memory(const struct sn__dims *d,
                         const struct sn_train_layout *l,
                         const struct sn_train_opts *o, int r,
                         struct sn_train_memory *mem)
{
    double dense, expert, w, g, opt, shard, eshard, tokens, rdiv;
    double act_dense, act_moe, whole_dense, whole_moe, chunk_layers;
    double inflight, per_layer_avg, whole_max;
    int nlayers, nmoe, m = l->gbs / (l->mbs * l->dp);

    memset(mem, 0, sizeof(*mem));
    mem->stage = r;
    stage_params(d, l, r, &dense, &expert, &nlayers, &nmoe);
    sn__state_bytes(l->dtype, &w, &g, &opt);
    shard = (double)l->dp * l->cp;
    /* the expert-data-parallel group: tp x cp x dp / (ep x etp) */
    eshard = shard * l->tp / (l->ep * (l->etp > 0 ? l->etp : l->tp));
    switch (l->zero) {
    case 0:
        mem->weights = (dense + expert) * w;
        mem->gradients = (dense + expert) * g;
        mem->optimizer = (dense + expert) * opt;
        break;
    case 1:
        mem->weights = (dense + expert) * w;
        mem->gradients = (dense + expert) * g;
        mem->optimizer = dense * opt / shard + expert * opt / eshard;
        break;
    case 2:
        mem->weights = (dense + expert) * w;
        mem->gradients = dense * g / shard + expert * g / eshard;
        mem->optimizer = dense * opt / shard + expert * opt / eshard;
        /* the gradients are produced whole and sharded by the
         * reduce-scatter of their bucket (Megatron-Core's
         * DistributedDataParallel buckets, max(40M, 1M x dp) elements):
         * the bucket being filled is held whole, and the one before it
         * while its reduction overlaps the backward */
        mem->buffers +=
            g * fmin((o->overlap_grad_reduce ? 2 : 1) * fmax(40e6, 1e6 * l->dp),
                     dense + expert);
        break;
    default:
        mem->weights = dense * w / shard + expert * w / eshard;
        mem->gradients = dense * g / shard + expert * g / eshard;
        mem->optimizer = dense * opt / shard + expert * opt / eshard;
        break;
    }

    /* activations: every in-flight chunk holds its layers' stored bytes */
    tokens = (double)l->mbs * l->seq / l->cp;
    rdiv = (l->sp && l->tp > 1) ? l->tp : 1;
    act_dense = layer_bytes(d, false, l, o, &whole_dense);
    act_moe = layer_bytes(d, true, l, o, &whole_moe);
    per_layer_avg =
        nlayers ? ((nlayers - nmoe) * act_dense + nmoe * act_moe) / nlayers : 0;
    chunk_layers = (double)nlayers / (l->vpp > 1 ? l->vpp : 1);
    inflight = sn__inflight_chunks(l->pp, l->vpp, m, r);
    mem->activations = inflight * chunk_layers * per_layer_avg * tokens;
    /* the embedding output is the first layer's input, counted there;
     * its dropout mask is extra (Korthikanti section 4.3) */
    if (r == 0 && o->dropout)
        mem->activations +=
            inflight / (l->vpp > 1 ? l->vpp : 1) * tokens * d->h / rdiv;
    if (r == l->pp - 1) /* fp16 logits and their fp32 copy for the loss */
        mem->logits = tokens * d->v / l->tp * (2 + 4);

    /* buffers: the layer being recomputed rebuilds its whole
     * activations; ZeRO-3 gathers a layer's parameters (and prefetches
     * the next) */
    whole_max = (nmoe ? whole_moe : whole_dense) * tokens;
    if (l->recompute == SN_RECOMPUTE_FULL)
        mem->buffers += whole_max;
    if (l->zero == 3 && nlayers) {
        double layer = (dense + expert) / nlayers;
        mem->buffers += 2 * layer * 2;
    }
    mem->total = mem->weights + mem->gradients + mem->optimizer +
                 mem->activations + mem->logits + mem->buffers;
}

void sn_train_memory(const struct sn_model_info *m,
                     const struct sn_train_layout *l,
                     const struct sn_train_opts *o,
                     const struct sn_train_system *sys,
                     struct sn_train_memory *mem)
{
    struct sn__dims d;
    struct sn_train_memory cur;
    int stages[4], n = 0;

    sn__dims_init(m, &d);
    /* stage 0 holds the most micro-batches and layers, the last stage the
     * logits; with dense layers first in an MoE model, the first stage
     * that holds an MoE layer may be heavier still */
    stages[n++] = 0;
    if (l->pp > 1)
        stages[n++] = l->pp - 1;
    if (d.moe && l->pp > 2) {
        for (int r = 1; r < l->pp - 1; r++) {
            int first, nl = sn__stage_layers_d(&d, l->pp, r, &first);
            if (nl && sn__layer_is_moe(&d, first)) {
                stages[n++] = r;
                break;
            }
        }
    }
    memset(mem, 0, sizeof(*mem));
    for (int i = 0; i < n; i++) {
        stage_memory(&d, l, o, stages[i], &cur);
        if (i == 0 || cur.total > mem->total)
            *mem = cur;
    }
    if (sys) {
        mem->buffers += sys->calib.reserved;
        mem->total += sys->calib.reserved;
        mem->capacity = sys->hbm_bytes;
        mem->fits = mem->total <= mem->capacity;
    } else {
        mem->fits = true;
    }
}
