/* search.c: the layout search. Every combination of TP, CP, PP, DP, EP,
 * micro-batch, recompute, ZeRO stage and interleaving that the layout
 * rules and the runtimes allow is checked for memory first (cheap) and,
 * when it fits, timed with the step-time model at the pessimistic end of
 * what the model knows (sn__train_predict_pessimistic: kernel shapes
 * outside the measured tables, overlaps the software may not achieve),
 * so that a layout the model knows little about cannot win on optimism;
 * the k fastest are kept. Collective
 * times are memoised by the step-time model, so a search costs a few
 * microseconds per layout. */
#include <assert.h>
#include <string.h>

#include "train-int.h"

void sn_train_search_default(struct sn_train_search *s)
{
    memset(s, 0, sizeof(*s));
    s->dtype = SN_DTYPE_BF16;
}

/* Divisors of n up to max, ascending. */
static int divisors(int n, int max, int *out, int cap)
{
    int k = 0;

    for (int d = 1; d <= n && d <= max && k < cap; d++)
        if (n % d == 0)
            out[k++] = d;
    return k;
}

/* Deterministic order: faster first, then the smaller layout fields. */
static int better(const struct sn_train_candidate *a,
                  const struct sn_train_candidate *b)
{
    const struct sn_train_layout *x = &a->layout, *y = &b->layout;
    const int ka[] = {
        x->tp, x->pp, x->cp, x->ep, x->mbs, x->vpp, (int)x->recompute, x->zero};
    const int kb[] = {
        y->tp, y->pp, y->cp, y->ep, y->mbs, y->vpp, (int)y->recompute, y->zero};

    if (a->result.step_time != b->result.step_time)
        return a->result.step_time < b->result.step_time;
    for (size_t i = 0; i < SN_ARRAY_LEN(ka); i++)
        if (ka[i] != kb[i])
            return ka[i] < kb[i];
    return 0;
}

static void keep(struct sn_train_candidate *top, size_t k, size_t *n,
                 const struct sn_train_candidate *c)
{
    size_t i;

    if (*n == k && !better(c, &top[k - 1]))
        return;
    i = *n < k ? (*n)++ : k - 1;
    while (i > 0 && better(c, &top[i - 1])) {
        top[i] = top[i - 1];
        i--;
    }
    top[i] = *c;
}

/* One search: what it searches, with what, and where it keeps what it
 * finds. */
struct search {
    struct sn_train *t;
    const struct sn_model_info *m;
    const struct sn_train_system *sys;
    const struct sn_train_search *s;
    const struct sn_train_opts *o;
    struct sn_train_candidate *top;
    size_t k, *ntop;
    struct sn_train_search_stats *st;
    struct sn_error *err;
    int experts; /* the model's experts, 1 for a dense model */
    int max_mbs, max_vpp;
    bool stop; /* fit_only: a layout that fits has been found */
};

/* The TP degrees to try: divisors of the accelerators up to max_tp that
 * divide the heads, the KV heads (query groups), the hidden size, the
 * FFN (the experts' too: expert TP is 1 or tp) and a MoE model's dense
 * FFN, as Megatron-Core's checks require; and that fit in one scale-up
 * domain (domain > 0), since no runtime splits a layer's GEMMs over the
 * scale-out network (Megatron-LM's and NeMo's recipes keep TP inside
 * the NVLink domain; TransformerEngine's overlap needs it, issue #1071). */
static int tp_choices(const struct sn_model_info *m,
                      const struct sn_train_search *s, int domain, int max_tp,
                      int *tps)
{
    int all[64], n = divisors(s->accels, max_tp, all, 64), ntp = 0;
    int kv = m->kv_heads > 0 ? m->kv_heads : m->heads;
    int dense = m->dense_ffn > 0 ? m->dense_ffn : m->ffn;

    for (int i = 0; i < n; i++)
        if (m->heads % all[i] == 0 && kv % all[i] == 0 &&
            m->hidden % all[i] == 0 && m->ffn % all[i] == 0 &&
            dense % all[i] == 0 &&
            (domain <= 0 || (all[i] <= domain && domain % all[i] == 0)))
            tps[ntp++] = all[i];
    return ntp;
}

/* The CP degrees to try with tp: powers of two up to max_cp (at most 8
 * of them) that divide the accelerators left and the sequence. */
static int cp_choices(const struct sn_train_search *s, int tp, int max_cp,
                      int *cps)
{
    int ncp = 0;

    for (int cp = 1; cp <= max_cp && ncp < 8; cp *= 2)
        if ((s->accels / tp) % cp == 0 && s->seq % cp == 0)
            cps[ncp++] = cp;
    return ncp;
}

/* The interleaving depths to try on pp stages (at most 16): 1, and with
 * a pipeline every v up to max_vpp that splits the layers into equal
 * chunks, as they are or with the embedding and the loss counted as a
 * layer each (Llama 3's 126 layers in 16 x v chunks), and the MTP modules
 * too (Megatron-Core's pipeline_model_parallel_layout, as the DeepSeek-V3
 * recipes run its 61 layers, one MTP module, embedding and loss in 4 x 4
 * chunks). */
static int vpp_choices(const struct sn_model_info *m, int pp, int max_vpp,
                       int *vpps)
{
    int nvpp = 0;

    vpps[nvpp++] = 1;
    if (pp > 1)
        for (int v = 2; v <= max_vpp && nvpp < 16; v++)
            if (m->layers % (pp * v) == 0 || (m->layers + 2) % (pp * v) == 0 ||
                (m->mtp_layers > 0 &&
                 (m->layers + 2 + m->mtp_layers) % (pp * v) == 0))
                vpps[nvpp++] = v;
    return nvpp;
}

/* Tries layout l: counted when it passes the rules, kept when it fits
 * (timed, unless the search only asks whether one fits). */
static int try_layout(struct search *c, const struct sn_train_layout *l)
{
    struct sn_train_candidate cand;
    struct sn_train_memory mem;
    int rc;

    if (sn_train_check(c->m, l, c->s->accels, NULL))
        return SN_OK;
    c->st->enumerated++;
    sn_train_memory(c->m, l, c->o, c->sys, &mem);
    if (!mem.fits)
        return SN_OK;
    c->st->fitting++;
    cand.layout = *l;
    if (c->s->fit_only) {
        memset(&cand.result, 0, sizeof(cand.result));
        cand.result.mem = mem;
        keep(c->top, c->k, c->ntop, &cand);
        c->stop = true;
        return SN_OK;
    }
    rc = sn__train_predict_pessimistic(c->t, l, c->o, &mem, &cand.result,
                                       c->err);
    if (rc)
        return rc;
    keep(c->top, c->k, c->ntop, &cand);
    return SN_OK;
}

/* Every recompute mode and ZeRO stage the search allows for one choice
 * of the parallel degrees, micro-batch and interleaving. */
static int try_options(struct search *c, int tp, int pp, int dp, int cp, int ep,
                       int etp, int vpp, int mbs)
{
    const struct sn_train_search *s = c->s;
    int rc;

    for (int rcv = 0; rcv < SN_RECOMPUTE_COUNT; rcv++) {
        if (s->fixed_recompute && rcv != (int)s->recompute)
            continue;
        /* fused attention already recomputes the scores: selective is
         * the same layout as none, except with MLA, whose up-projections
         * it recomputes (Megatron-Core's recompute_modules mla_up_proj,
         * the DeepSeek-V3 recipes' choice) */
        if (!s->fixed_recompute && c->o->flash_attention &&
            rcv == SN_RECOMPUTE_SELECTIVE && c->m->kv_lora_rank <= 0)
            continue;
        for (int z = 0; z <= 3; z++) {
            struct sn_train_layout l = {
                tp,  pp,     dp,       cp,     ep,
                vpp, mbs,    s->gbs,   s->seq, (enum sn_recompute)rcv,
                z,   tp > 1, s->dtype, etp};
            if (s->fixed_zero && z != s->zero)
                continue;
            if (!s->fixed_zero &&
                ((z == 3 && pp > 1) || (z >= 1 && dp * cp == 1)))
                continue;
            rc = try_layout(c, &l);
            if (rc || c->stop)
                return rc;
        }
    }
    return SN_OK;
}

static int try_eps(struct search *c, int tp, int cp, int pp, int dp, int etp,
                   const int *eps, int nep, const int *mbss, int nmb,
                   const int *vpps, int nvpp);

/* The EP degrees, micro-batches and interleaving depths of one split of
 * the accelerators into tp x cp x pp x dp. */
static int try_split(struct search *c, int tp, int cp, int pp, int dp)
{
    const struct sn_train_search *s = c->s;
    int eps[64], mbss[64], vpps[16], nep, nmb, nvpp, rc;

    if (s->gbs % dp)
        return SN_OK;
    nmb = divisors(s->gbs / dp, c->max_mbs, mbss, 64);
    nvpp = vpp_choices(c->m, pp, c->max_vpp, vpps);
    /* MoE: expert TP of 1 or tp, and every EP the folded tp x cp x dp
     * ranks of a stage allow (Megatron-Core's parallel folding) */
    for (int x = 0; x < (c->experts > 1 && tp > 1 ? 2 : 1); x++) {
        int etp = x ? tp : (c->experts > 1 ? 1 : 0);
        nep = c->experts > 1 ? divisors(tp * cp * dp / etp, c->experts, eps, 64)
                             : 1;
        if (c->experts <= 1)
            eps[0] = 1;
        rc = try_eps(c, tp, cp, pp, dp, etp, eps, nep, mbss, nmb, vpps, nvpp);
        if (rc || c->stop)
            return rc;
    }
    return SN_OK;
}

/* The EP degrees eps[] with expert TP etp, each with every micro-batch
 * and interleaving depth. */
static int try_eps(struct search *c, int tp, int cp, int pp, int dp, int etp,
                   const int *eps, int nep, const int *mbss, int nmb,
                   const int *vpps, int nvpp)
{
    const struct sn_train_search *s = c->s;
    int rc;

    for (int e = 0; e < nep; e++) {
        int ep = eps[e];
        if (c->experts > 1 && c->experts % ep)
            continue;
        for (int f = 0; f < nmb; f++) {
            int mbs = mbss[f], mcount;
            /* divisors: mbs divides gbs / dp */
            assert((s->gbs / dp) % mbs == 0);
            mcount = s->gbs / (mbs * dp);
            for (int g = 0; g < nvpp; g++) {
                int vpp = vpps[g];
                if (vpp > 1 && mcount % pp)
                    continue;
                rc = try_options(c, tp, pp, dp, cp, ep, etp, vpp, mbs);
                if (rc || c->stop)
                    return rc;
            }
        }
    }
    return SN_OK;
}

int sn_train_search_run(struct sn_train *t, const struct sn_train_search *s,
                        const struct sn_train_opts *o,
                        struct sn_train_candidate *top, size_t k, size_t *ntop,
                        struct sn_train_search_stats *st, struct sn_error *err)
{
    const struct sn_model_info *m = sn__train_model(t);
    int tps[64], cps[8], pps[256];
    int ntp, ncp, npp, max_tp, max_pp, max_cp;
    double t0 = sn_now();
    struct search c = {
        t, m, sn__train_system(t), s, o, top, k, ntop, st, err, 1, 0, 0, false};
    int rc = SN_OK;

    *ntop = 0;
    memset(st, 0, sizeof(*st));
    if (s->accels < 1 || s->gbs < 1 || s->seq < 1 || k < 1)
        return sn_error_set(err, SN_EINPUT,
                            "the search needs accelerators, a global batch "
                            "and a sequence length");
    c.experts = m->experts > 1 ? m->experts : 1;
    max_tp = s->max_tp > 0 ? s->max_tp : m->heads;
    max_pp = s->max_pp > 0 ? s->max_pp : m->layers;
    max_cp = s->max_cp > 0 ? s->max_cp : (s->seq >= 16384 ? 32 : 1);
    c.max_mbs = s->max_mbs > 0 ? s->max_mbs : 16;
    c.max_vpp = s->max_vpp > 0 ? s->max_vpp : 8;

    ntp = tp_choices(m, s, c.sys->domain, max_tp, tps);
    for (int a = 0; a < ntp; a++) {
        int tp = tps[a];
        ncp = cp_choices(s, tp, max_cp, cps);
        for (int b = 0; b < ncp; b++) {
            int cp = cps[b], rest;
            /* tp divides the accelerators, cp what tp leaves */
            assert(s->accels % (tp * cp) == 0);
            rest = s->accels / (tp * cp);
            npp = divisors(rest, max_pp, pps, 256);
            for (int p = 0; p < npp; p++) {
                rc = try_split(&c, tp, cp, pps[p], rest / pps[p]);
                if (rc || c.stop)
                    goto out;
            }
        }
    }
out:
    st->seconds = sn_now() - t0;
    return rc;
}

/* Whether some layout of s fits on n accelerators. */
static int fits_on(struct sn_train *t, const struct sn_train_search *s,
                   const struct sn_train_opts *o, int n, bool *fits,
                   struct sn_error *err)
{
    struct sn_train_search q = *s;
    struct sn_train_candidate c;
    struct sn_train_search_stats st;
    size_t nc = 0;
    int rc;

    q.accels = n;
    q.fit_only = true;
    rc = sn_train_search_run(t, &q, o, &c, 1, &nc, &st, err);
    *fits = rc == SN_OK && nc > 0;
    return rc;
}

int sn_train_min_accels(struct sn_train *t, const struct sn_train_search *s,
                        const struct sn_train_opts *o, int step, int max,
                        int *out, struct sn_error *err)
{
    long long lo = 0, hi = 0;
    bool fits = false;
    int rc;

    *out = 0;
    if (step < 1 || max < step)
        return sn_error_set(err, SN_EINPUT,
                            "the accelerator count to search needs a step "
                            "of at least 1 and a maximum of at least it");
    /* doubling: the first count that fits, and the last that did not */
    for (long long n = step; n <= max; n *= 2) {
        if ((rc = fits_on(t, s, o, (int)n, &fits, err)))
            return rc;
        if (fits) {
            hi = n;
            break;
        }
        lo = n;
    }
    if (!hi)
        return SN_OK;
    /* then every multiple of step between them: fitting need not be
     * monotonic in the count (a count whose divisors give no layout) */
    for (long long n = lo + step; n < hi; n += step) {
        if ((rc = fits_on(t, s, o, (int)n, &fits, err)))
            return rc;
        if (fits) {
            hi = n;
            break;
        }
    }
    *out = (int)hi;
    return SN_OK;
}
