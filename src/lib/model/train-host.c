/* train-host.c: the host side of a training step. The host launches
 * every kernel the GPU model of train-time.c lists (one eager launch
 * each, or one per CUDA graph), and in dropless MoE dispatch waits once
 * per MoE layer for the tokens per expert. Between two host syncs the
 * GPU runs for max(GPU time, host time); after each sync it waits for
 * the host to launch again. docs/model.md ("Host time"). */
#include <math.h>

#include "train-int.h"

/* Host work of one TransformerEngine module's forward, in launches of
 * the same host: TE issue #2053 measured a te.Linear forward (BF16,
 * hidden 2048, 8192 tokens) at 99.66 us of CPU time on GB200 against
 * 37.08 us for torch.nn.Linear, one cuBLAS GEMM, on the same host (2.69
 * launches; GH200: 90.53 against 33.17, 2.73) [M]. The module's Python,
 * its quantizer and workspace setup and the FP8 metadata come on top of
 * its GEMM's launch. The backward of a module is taken to cost the same
 * work and one more launch for its second GEMM (dgrad and wgrad) [A: the
 * issue times the forward only]. */
#define TE_MODULE (99.66 / 37.08)

/* What the host spends on one Linear: a launch, or with TE a module
 * (forward) and a module and one launch (backward). */
struct lin_cost {
    double f, b;
};

static struct lin_cost lin_cost(const struct sn_train_opts *o)
{
    struct lin_cost c = {1, 2};

    if (o->te_modules) {
        c.f = TE_MODULE;
        c.b = TE_MODULE + 1;
    }
    return c;
}

/* Launches of the attention block of one layer, forward and backward,
 * kernel for kernel as train-time.c's layer() and attention_core() list
 * them: two norms, the QKV projection (MLA: its down-projections, their
 * norm kernel and two up-projections), the core (fused: one forward, two
 * backward; unfused: two batched GEMMs, the softmax and the dropout),
 * the output projection, two bias-dropout-adds; the backward runs two
 * kernels per forward one but the core's. Each projection is a Linear
 * (lin_cost), the fused core with TE a module too. With TP, two
 * collectives each way (SP's all-gather and reduce-scatter, or two
 * all-reduces). */
static void attn_launches(const struct sn__dims *d,
                          const struct sn_train_layout *l,
                          const struct sn_train_opts *o, double *f, double *b,
                          double *core_f)
{
    struct lin_cost lc = lin_cost(o);
    double lin = d->mla ? (d->q_lora > 0 ? 2 : 1) + 2 + 1 : 1 + 1;
    double other = d->mla ? 2 + 1 + 2 : 2 + 2; /* norms, bias-dropout-adds */
    double drop = o->dropout ? 1 : 0;
    double cf = o->flash_attention ? 1 : 3 + drop;
    double cb = o->flash_attention ? 2 : 5 + drop;
    double tp = l->tp > 1 ? 2 : 0;

    if (o->flash_attention && o->te_modules) {
        cf = TE_MODULE;
        cb = TE_MODULE + 1;
    }
    *f = other + lin * lc.f + cf + tp;
    *b = 2 * other + lin * lc.b + cb + tp;
    *core_f = cf;
}

void sn__train_host_launches(const struct sn__dims *d,
                             const struct sn_train_layout *l,
                             const struct sn_train_opts *o, bool moe,
                             struct sn__host_launches *h)
{
    struct lin_cost lc = lin_cost(o);
    double af, ab, core, mf, mb, rf = 0, rb = 0;
    bool graphs = o->graphs == SN_GRAPHS_PARTIAL;

    attn_launches(d, l, o, &af, &ab, &core);
    h->routed = 0;
    if (!moe) {
        /* FC1, activation, FC2; their backward twice over */
        mf = 2 * lc.f + 1;
        mb = 2 * lc.b + 2;
        if (graphs) /* Megatron-Core's scopes attn and mlp: a graph each */
            af = ab = mf = mb = 1;
    } else {
        /* the router (its GEMM and the softmax/top-k kernel the GPU
         * model counts, or the profile's measured count with the EP
         * preprocess), the shared experts' two Linears and activation,
         * and the routed part: the permute kernel and the three that
         * train-time.c charges to the sort and unpermute, FC1,
         * activation, FC2 and the dispatch and combine kernels. With TE
         * the routed FC1 and FC2 are GroupedLinear modules whose grouped
         * GEMM is one cuBLAS GEMM per local expert on several streams
         * (the GB200 guide, section 1 item 3; TE's
         * nvte_multi_stream_cublas_gemm), with a split and two tensor
         * allocations per expert on the host (TE issue #1499): a launch
         * for each expert past the first, twice in the backward (dgrad,
         * wgrad) */
        double router = o->router_kernels > 0 ? o->router_kernels : 2;
        double shared = d->shared > 0 ? 1 : 0;
        double el = l->ep > 0 ? fmax(d->experts / l->ep, 1) : 1;
        double gf = 2 * lc.f, gb = 2 * lc.b;
        double routed_f, routed_b;

        if (o->te_modules) {
            gf += 2 * (el - 1);
            gb += 4 * (el - 1);
        }
        routed_f = 4 + gf + 1 + 2;
        routed_b = 4 + gb + 2 + 2;
        rf = router + shared * (2 * lc.f + 1);
        rb = router + shared * (2 * lc.b + 2);
        if (graphs) {
            /* attn, moe_router with the shared experts, moe_preprocess:
             * the routed experts stay eager (dynamic shapes) */
            af = ab = 1;
            rf = rb = 1;
        }
        mf = rf + routed_f;
        mb = rb + routed_b;
        h->routed = routed_f;
    }
    h->fwd = af + mf;
    h->bwd = ab + mb;
    switch (l->recompute) {
    case SN_RECOMPUTE_FULL:
        h->recompute = h->fwd;
        break;
    case SN_RECOMPUTE_SELECTIVE:
        /* what the GPU model runs again: the unfused core, and MLA's two
         * up-projections (Linears); a graph replays them as one */
        h->recompute =
            (o->flash_attention ? 0 : core) + (d->mla ? 2 * lc.f : 0);
        if (graphs && h->recompute > 0)
            h->recompute = 1;
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
         * layer while the GPU, drained, waits for the first launch. The
         * routed part comes first: what the host lags behind the GPU
         * there is lost, whatever the attention and router after it
         * give back later, so the segment waits for the worse of the
         * routed part and the whole */
        double lag =
            fmax(launch * mh->fwd - mg->fwd, launch * mh->routed - mg->routed);
        e += moe * (fmax(lag, 0) + launch);
    } else {
        g_rest += moe * mg->fwd;
        h_rest += launch * moe * mh->fwd;
    }
    return e + fmax(h_rest - g_rest, 0);
}
