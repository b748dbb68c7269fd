/* train-host.c: the host side of a training step. The host launches
 * every kernel the GPU model of train-time.c lists (one eager launch
 * each, or one per CUDA graph), and in dropless MoE dispatch waits once
 * per MoE layer for the tokens per expert. Between two host syncs the
 * GPU runs for max(GPU time, host time); after each sync it waits for
 * the host to launch again. docs/model.md ("Host time"). */
#include <math.h>

#include "train-int.h"

/* Launches of the attention block of one layer, forward and backward,
 * kernel for kernel as train-time.c's layer() and attention_core() list
 * them: two norms, the QKV projection (MLA: its down-projections, their
 * norm kernel and two up-projections), the core (fused: one forward, two
 * backward; unfused: two batched GEMMs, the softmax and the dropout),
 * the output projection, two bias-dropout-adds; the backward runs two
 * kernels per forward one but the core's. With TP, two collectives each
 * way (SP's all-gather and reduce-scatter, or two all-reduces). */
static void attn_launches(const struct sn__dims *d,
                          const struct sn_train_layout *l,
                          const struct sn_train_opts *o, double *f, double *b,
                          double *core_f)
{
    double qkv = d->mla ? (d->q_lora > 0 ? 2 : 1) + 1 + 2 : 1;
    double drop = o->dropout ? 1 : 0;
    double cf = o->flash_attention ? 1 : 3 + drop;
    double cb = o->flash_attention ? 2 : 5 + drop;
    double rest = 2 + qkv + 1 + 2;
    double tp = l->tp > 1 ? 2 : 0;

    *f = rest + cf + tp;
    *b = 2 * rest + cb + tp;
    *core_f = cf;
}

void sn__train_host_launches(const struct sn__dims *d,
                             const struct sn_train_layout *l,
                             const struct sn_train_opts *o, bool moe,
                             struct sn__host_launches *h)
{
    double af, ab, core, mf, mb, rf = 0, rb = 0;
    bool graphs = o->graphs == SN_GRAPHS_PARTIAL;

    attn_launches(d, l, o, &af, &ab, &core);
    if (!moe) {
        /* FC1, activation, FC2; their backward twice over */
        mf = 3;
        mb = 6;
        if (graphs) /* Megatron-Core's scopes attn and mlp: a graph each */
            af = ab = mf = mb = 1;
    } else {
        /* the router (its GEMM and the softmax/top-k kernel the GPU
         * model counts, or the profile's measured count with the EP
         * preprocess), the shared experts' three, and the routed part:
         * the permute kernel and the three that train-time.c charges to
         * the sort and unpermute, FC1, activation, FC2 and the dispatch
         * and combine kernels; backward, the routed GEMMs twice */
        double router = o->router_kernels > 0 ? o->router_kernels : 2;
        double shared = d->shared > 0 ? 3 : 0;
        double routed_f = 4 + 3 + 2, routed_b = 4 + 6 + 2;
        rf = router + shared;
        rb = router + 2 * shared;
        if (graphs) {
            /* attn, moe_router with the shared experts, moe_preprocess:
             * the routed experts stay eager (dynamic shapes) */
            af = ab = 1;
            rf = rb = 1;
        }
        mf = rf + routed_f;
        mb = rb + routed_b;
    }
    h->fwd = af + mf;
    h->bwd = ab + mb;
    switch (l->recompute) {
    case SN_RECOMPUTE_FULL:
        h->recompute = h->fwd;
        break;
    case SN_RECOMPUTE_SELECTIVE:
        h->recompute = graphs ? 1 : core;
        break;
    default:
        h->recompute = 0;
    }
}

double sn__train_host_exposed(const struct sn_train_opts *o, double launch,
                              int dense, int moe, const struct sn__host_seg *dg,
                              const struct sn__host_seg *mg,
                              const struct sn__host_launches *dh,
                              const struct sn__host_launches *mh)
{
    double g_rest, h_rest, e = 0;

    if (!(launch > 0))
        return 0;
    g_rest = dense * (dg->fwd + dg->rest) + moe * mg->rest;
    h_rest = launch * (dense * (dh->fwd + dh->bwd + dh->recompute) +
                       moe * (mh->bwd + mh->recompute));
    if (moe && o->moe_sync) {
        /* each MoE layer's forward is a segment of its own: the host
         * learns the tokens per expert, then launches the rest of the
         * layer while the GPU, drained, waits for the first launch */
        e += moe * (fmax(launch * mh->fwd - mg->fwd, 0) + launch);
    } else {
        g_rest += moe * mg->fwd;
        h_rest += launch * moe * mh->fwd;
    }
    return e + fmax(h_rest - g_rest, 0);
}
