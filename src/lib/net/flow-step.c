/* flow-step.c: what a step of flows costs in the flow engine: link loads
 * of equal flows, all-to-all aggregated by route pieces, and max-min fair
 * rates by progressive filling (see flow-int.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flow-int.h"

/* ---- steps and rates ----------------------------------------------------- */

/* Per-piece weights of a step, then per-link loads from them. */
struct wacc {
    double *w;
    size_t cap;
    uint32_t *list;
    size_t n, lcap;
};

static void wacc_add(struct wacc *a, uint32_t s, double v)
{
    if (s >= a->cap) {
        size_t old = a->cap, nc = old ? old : 1024;
        while (nc <= s)
            nc *= 2;
        a->w = sn_xrealloc(a->w, nc * sizeof(double));
        for (size_t i = old; i < nc; i++)
            a->w[i] = -1; /* unseen */
        a->cap = nc;
    }
    if (a->w[s] < 0) {
        a->w[s] = 0;
        SN_GROW(a->list, a->lcap, a->n + 1);
        a->list[a->n++] = s;
    }
    a->w[s] += v;
}

static void wacc_release(struct wacc *a)
{
    free(a->w);
    free(a->list);
}

static void step_finish(struct sn_flownet *fn, const struct wacc *a,
                        struct sn__step *out)
{
    double worst = 0;

    sn__flow_ld_begin(fn);
    for (size_t i = 0; i < a->n; i++) {
        uint32_t s = a->list[i];
        const struct seg *g = &fn->sg[s];
        double w = a->w[s];
        for (uint32_t k = 0; k < g->n; k++)
            sn__flow_ld_add(fn, fn->inc_ld[g->off + k],
                            w * fn->inc_sh[g->off + k]);
    }
    for (size_t i = 0; i < fn->nx; i++) {
        sn__flow_ld_add(fn, fn->xlist[i], fn->xload[fn->xlist[i]]);
        fn->xload[fn->xlist[i]] = 0;
    }
    fn->nx = 0;
    out->bottleneck = SN_NONE;
    for (size_t i = 0; i < fn->ntouched; i++) {
        uint32_t ld = fn->touched[i];
        double load = fn->ld_acc[ld], u;
        if (load <= 0)
            continue;
        u = fn->cap[ld] > 0 ? load / fn->cap[ld] : INFINITY;
        if (u > worst || (u == worst && ld < out->bottleneck)) {
            worst = u;
            out->bottleneck = ld;
        }
    }
    out->t_unit = worst;
    out->min_rate = worst > 0 ? 1.0 / worst : INFINITY;
}

int sn__flow_step(struct sn_flownet *fn, const struct sn__flow *f, size_t n,
                  struct sn__step *out, struct sn_error *err)
{
    struct pieces pc = {0};
    struct wacc a = {0};
    int rc = SN_OK;

    memset(out, 0, sizeof(*out));
    out->bottleneck = SN_NONE;
    for (size_t i = 0; i < n; i++) {
        if (f[i].src == f[i].dst || f[i].mult <= 0)
            continue;
        rc = sn__flow_route_pieces(fn, f[i].src, f[i].dst, &pc, err);
        if (rc)
            goto out;
        for (size_t k = 0; k < pc.n; k++)
            wacc_add(&a, pc.seg[k], pc.w[k] * f[i].mult);
        if (pc.latency > out->latency)
            out->latency = pc.latency;
        if (cost_hops(pc.cost) > out->max_hops)
            out->max_hops = cost_hops(pc.cost);
    }
    step_finish(fn, &a, out);
out:
    free(pc.seg);
    free(pc.w);
    wacc_release(&a);
    return rc;
}

static void xload_add(struct sn_flownet *fn, uint32_t ld, double v)
{
    if (fn->xload[ld] == 0) {
        SN_GROW(fn->xlist, fn->x_cap, fn->nx + 1);
        fn->xlist[fn->nx++] = ld;
    }
    fn->xload[ld] += v;
}

/* Push the traffic that enters the fabric at several entries toward the
 * single exit of profile p, splitting per hop as the pieces do, and add
 * the link loads to fn->xload: one sweep over the fabric per destination
 * profile instead of one piece per (entry, profile). Returns the largest
 * wire latency from an entry to the exit. */
struct inj {
    uint32_t node;
    double amount;
};

static double push_to_profile(struct sn_flownet *fn, uint32_t p,
                              const struct inj *in, size_t nin)
{
    const struct sn_topo *t = fn->t;
    const struct prof *pr = &fn->pr[p];
    const struct pexit *x = &fn->px[pr->off];
    int cls = pr->cls;
    struct heap h = {0};
    double worst = 0;

    sn__flow_dist_begin(fn);
    fn->fab_gen++;
    if (fn->fab_gen == 0) {
        memset(fn->fab_mark, 0, (fn->nfab + 1) * sizeof(uint32_t));
        fn->fab_gen = 1;
    }
    for (size_t i = 0; i < nin; i++) {
        uint32_t f = fn->fidx[in[i].node],
                 d = sn__flow_dist_memo(fn, p, in[i].node);
        if (f == SN_NONE || d == INF32)
            continue;
        if (fn->fab_mark[f] != fn->fab_gen) {
            fn->fab_mark[f] = fn->fab_gen;
            fn->fab_w[f] = 0;
            fn->fab_lat[f] = 0;
            /* a max-heap on the cost to the exit: negate */
            sn__flow_heap_push(&h, (uint64_t)(UINT32_MAX - d) << 32 | f);
        }
        fn->fab_w[f] += in[i].amount;
    }
    while (h.n) {
        uint64_t top = sn__flow_heap_pop(&h);
        uint32_t f = (uint32_t)top, u = fn->fnode[f];
        uint32_t du = UINT32_MAX - (uint32_t)(top >> 32), k_exit = 0, nf = 0;
        double a = fn->fab_w[f], lu = fn->fab_lat[f];
        if (x->node == u && x->h == du)
            k_exit = x->k;
        nf = sn__flow_fabric_fanout(fn, p, cls, u, du);
        if (k_exit && lu > worst)
            worst = lu;
        if (!nf)
            continue;
        for (uint32_t ai = t->adj_off[u]; ai < t->adj_off[u + 1]; ai++) {
            uint32_t id = t->adj[ai];
            const struct sn_link *l = &t->links[id];
            uint32_t w = other_end(l, u), fw;
            double share = a / (k_exit + nf);
            if (!sn__flow_fabric_down(fn, p, cls, l, w, du))
                continue;
            xload_add(fn, ld_of(l, id, u), share);
            fw = fn->fidx[w];
            if (fn->fab_mark[fw] != fn->fab_gen) {
                fn->fab_mark[fw] = fn->fab_gen;
                fn->fab_w[fw] = 0;
                fn->fab_lat[fw] = 0;
                sn__flow_heap_push(&h, (uint64_t)(UINT32_MAX - (du - 1)) << 32 |
                                           fw);
            }
            fn->fab_w[fw] += share;
            if (lu + fn->lat[id] > fn->fab_lat[fw])
                fn->fab_lat[fw] = lu + fn->lat[id];
        }
    }
    free(h.v);
    return worst;
}

/* All-to-all: destinations far from s (another scale-up component and
 * another server) all take the scale-out class half of their exit
 * profile, so their pieces are summed per (s, profile) and, for the in
 * pieces, per (profile, exit) minus the near sources. Near pairs are
 * routed one by one. One block's state, shared by its steps: */
struct a2a {
    struct sn_flownet *fn;
    const uint32_t *nodes;
    size_t n;
    struct wacc *acc_w; /* per-piece weights of the whole step */
    struct sn__step *out;
    double *max_pre;  /* slowest way from a source to a network exit */
    double *max_in;   /* slowest way in from an exit */
    uint32_t *ep;     /* per endpoint: its lmap */
    uint32_t *pout;   /* per endpoint: its scale-out profile */
    struct hmap pidx; /* profile -> index into plist */
    uint32_t *plist;  /* the distinct scale-out profiles */
    uint32_t *pcount; /* per profile index: endpoints that have it */
    size_t np, pl_cap, pc_cap;
    struct near_index near;
    uint32_t *nearl; /* scratch: one endpoint's near endpoints */
    size_t near_cap;
    uint32_t *sub; /* per profile index: near endpoints with it */
    double **acc;  /* per profile index: per exit, sum of u */
    bool fast;     /* every profile has one exit */
    /* fast path: per profile index, the traffic injected per entry */
    double **dense;
    size_t *inj_cap;
    struct hmap eidx; /* entry node -> entry index */
    uint32_t *enode;  /* entry index -> node */
    size_t ne, e_cap;
    uint32_t *far_src; /* per source: 1 + the last j it was near */
    struct pieces pc;
};

/* Index the block: every endpoint's lmap, scale-out profile and near
 * buckets; the distinct profiles with their counts; the fast path's
 * arrays when every profile has one exit. */
static void a2a_index(struct a2a *a)
{
    struct sn_flownet *fn = a->fn;

    sn__flow_near_init(&a->near, a->n);
    for (size_t i = 0; i < a->n; i++) {
        a->ep[i] = sn__flow_lmap(fn, a->nodes[i]);
        a->pout[i] = fn->lm[a->ep[i]].prof[SN_LINK_SCALE_OUT];
        if (a->pout[i] != SN_NONE) {
            uint32_t k = hget(&a->pidx, a->pout[i]);
            if (k == SN_NONE) {
                k = (uint32_t)a->np++;
                hput(&a->pidx, a->pout[i], k);
                SN_GROW(a->plist, a->pl_cap, a->np);
                SN_GROW(a->pcount, a->pc_cap, a->np);
                a->plist[k] = a->pout[i];
                a->pcount[k] = 0;
            }
            a->pcount[k]++;
        }
        sn__flow_near_add(fn, &a->near, a->nodes, i);
    }
    a->sub = sn_xcalloc(a->np + 1, sizeof(uint32_t));
    a->acc = sn_xcalloc(a->np + 1, sizeof(double *));
    for (size_t k = 0; k < a->np; k++)
        a->acc[k] = sn_xcalloc(fn->pr[a->plist[k]].n + 1, sizeof(double));
    /* every destination profile with one exit: the fabric part goes by
     * pushing each profile's demand through the fabric (push_to_profile)
     * and each destination's in piece carries one unit per far source */
    a->fast = a->np > 0;
    for (size_t k = 0; k < a->np; k++)
        a->fast &= fn->pr[a->plist[k]].n == 1;
    if (a->fast) {
        a->dense = sn_xcalloc(a->np + 1, sizeof(*a->dense));
        a->inj_cap = sn_xcalloc(a->np + 1, sizeof(size_t));
    }
}

/* The index of profile p among the block's profiles. */
static uint32_t a2a_prof(const struct a2a *a, uint32_t p)
{
    uint32_t k = hget(&a->pidx, p);

    assert(k < a->np);
    return k;
}

/* Route the near pairs of source i one by one (nn of them in a->nearl)
 * and count, per profile, the near destinations the far sums leave out. */
static int a2a_near_pairs(struct a2a *a, size_t i, size_t nn,
                          struct sn_error *err)
{
    struct sn_flownet *fn = a->fn;
    int rc = SN_OK;

    memset(a->sub, 0, (a->np + 1) * sizeof(uint32_t));
    for (size_t q = 0; q < nn; q++) {
        uint32_t j = a->nearl[q];
        assert(j < a->n);
        if (a->pout[j] != SN_NONE)
            a->sub[a2a_prof(a, a->pout[j])]++;
        if (j == i)
            continue;
        rc = sn__flow_route_pieces(fn, a->nodes[i], a->nodes[j], &a->pc, err);
        if (rc)
            break;
        for (size_t k = 0; k < a->pc.n; k++)
            wacc_add(a->acc_w, a->pc.seg[k], a->pc.w[k]);
        if (a->pc.latency > a->out->latency)
            a->out->latency = a->pc.latency;
        if (cost_hops(a->pc.cost) > a->out->max_hops)
            a->out->max_hops = cost_hops(a->pc.cost);
    }
    return rc;
}

/* The source's only network entry (a state index), or SN_NONE when it
 * has none or more than one way in. */
static uint32_t a2a_one_entry(const struct a2a *a, size_t i)
{
    const struct sn_flownet *fn = a->fn;
    const struct lmap *mi = &fn->lm[a->ep[i]];
    uint32_t one_entry = SN_NONE, nbest = 0;

    for (uint32_t q = 0; q < mi->n; q++) {
        const struct lstate *e = &fn->st[mi->off + q];
        if (e->kind != LS_ENTRY || e->cls != SN_LINK_SCALE_OUT || e->dominated)
            continue;
        if (one_entry == SN_NONE || e->dist < fn->st[one_entry].dist) {
            one_entry = mi->off + q;
            nbest = 1;
        } else if (e->dist == fn->st[one_entry].dist) {
            nbest++;
        }
    }
    /* the cheapest entry is the only way in when it is unique and every
     * other entry of its fabric component is a whole host hop costlier
     * (see the profile rule in sn__flow_lmap) */
    for (uint32_t q = 0; one_entry != SN_NONE && q < mi->n; q++) {
        const struct lstate *e = &fn->st[mi->off + q];
        const struct lstate *b = &fn->st[one_entry];
        uint32_t fe, fb;
        if (nbest != 1)
            return SN_NONE;
        if (e->kind != LS_ENTRY || e->cls != SN_LINK_SCALE_OUT ||
            e->dominated || mi->off + q == one_entry)
            continue;
        fe = fn->fidx[e->node];
        fb = fn->fidx[b->node];
        if (fe == SN_NONE || fb == SN_NONE || fn->fcomp[fe] != fn->fcomp[fb] ||
            e->dist < b->dist + HOST_COST)
            one_entry = SN_NONE;
    }
    return one_entry;
}

/* Add amount to what profile index k receives at network entry node,
 * numbering the entries as they first appear. */
static void a2a_inject(struct a2a *a, size_t k, uint32_t node, double amount)
{
    uint32_t e = hget(&a->eidx, node);

    if (e == SN_NONE) {
        e = (uint32_t)a->ne++;
        hput(&a->eidx, node, e);
        SN_GROW(a->enode, a->e_cap, a->ne);
        a->enode[e] = node;
    }
    assert(e < a->ne && a->enode[e] == node && k < a->np);
    /* dense per (profile, entry): grown on demand */
    if (e >= a->inj_cap[k]) {
        size_t old = a->inj_cap[k], nc = old ? old : 16;
        while (nc <= e)
            nc *= 2;
        a->dense[k] = sn_xrealloc(a->dense[k], nc * sizeof(double));
        for (size_t z = old; z < nc; z++)
            a->dense[k][z] = 0;
        a->inj_cap[k] = nc;
    }
    a->dense[k][e] += amount;
}

/* Fast path: source i's cnt far destinations of profile index k leave by
 * its out piece and are injected at their entries, to be pushed through
 * the fabric per profile. *one_out caches the out piece of the source's
 * single way in (one_entry) across its profiles. */
static int a2a_far_fast(struct a2a *a, size_t i, size_t k, uint32_t cnt,
                        uint32_t one_entry, uint32_t *one_out,
                        struct sn_error *err)
{
    struct sn_flownet *fn = a->fn;
    uint32_t tgt[MAX_ENTRIES], tail[MAX_ENTRIES], best, o;
    size_t ntgt = 0;

    if (one_entry != SN_NONE) {
        /* a single way into the network: the same out piece for every
         * far profile that it reaches */
        const struct lstate *e1 = &fn->st[one_entry];
        uint32_t tl = sn__flow_prof_dist(fn, a->plist[k], e1->node);
        if (tl != INF32) {
            if (*one_out == SN_NONE) {
                uint32_t t1 = one_entry, z = tl;
                *one_out = sn__flow_out_cached(
                    fn, a->ep[i], fn->lm[a->ep[i]].off, &t1, &z, 1);
            }
            wacc_add(a->acc_w, *one_out, cnt);
            if (fn->sg[*one_out].an &&
                fn->ar[fn->sg[*one_out].aoff].lat > *a->max_pre)
                *a->max_pre = fn->ar[fn->sg[*one_out].aoff].lat;
            a2a_inject(a, k, e1->node, cnt);
            if (cost_hops(e1->dist + tl) > a->out->max_hops)
                a->out->max_hops = cost_hops(e1->dist + tl);
            return SN_OK;
        }
    }
    best = sn__flow_class_targets(fn, a->ep[i], a->plist[k], tgt, tail, &ntgt);
    if (best == INF32)
        return sn_error_set(err, SN_ENOTFOUND,
                            "no route between network exits of node %u",
                            (unsigned)a->nodes[i]);
    assert(ntgt >= 1 && ntgt <= MAX_ENTRIES);
    o = sn__flow_out_cached(fn, a->ep[i], fn->lm[a->ep[i]].off, tgt, tail,
                            ntgt);
    wacc_add(a->acc_w, o, cnt);
    for (uint32_t q = 0; q < fn->sg[o].an; q++) {
        const struct arrival *ar = &fn->ar[fn->sg[o].aoff + q];
        if (ar->lat > *a->max_pre)
            *a->max_pre = ar->lat;
        a2a_inject(a, k, fn->st[ar->key].node, ar->w * cnt);
    }
    if (cost_hops(best) > a->out->max_hops)
        a->out->max_hops = cost_hops(best);
    return SN_OK;
}

/* Half path: source i's class half toward profile index k, weighted by
 * its cnt far destinations, and its exits summed into a->acc[k]. The
 * half is taken even when cnt is 0: the in pieces subtract the near
 * sources from the sum. */
static int a2a_far_half(struct a2a *a, size_t i, size_t k, uint32_t cnt,
                        struct sn_error *err)
{
    struct sn_flownet *fn = a->fn;
    /* the half is built first: building moves fn->hf */
    uint32_t h = sn__flow_half_class(fn, a->ep[i], a->plist[k]);
    const struct half *hf = &fn->hf[h];
    const struct prof *pr = &fn->pr[a->plist[k]];
    double pre = 0;

    if (hf->cost == INF32) {
        if (!cnt)
            return SN_OK;
        return sn_error_set(err, SN_ENOTFOUND,
                            "no route between network exits of node %u",
                            (unsigned)a->nodes[i]);
    }
    for (uint32_t q = 0; q < hf->sn; q++)
        wacc_add(a->acc_w, fn->hseg[hf->soff + q], fn->hw[hf->soff + q] * cnt);
    for (uint32_t q = 0; q < hf->xn; q++) {
        const struct hexit *x = &fn->hx[hf->xoff + q];
        for (uint32_t e = 0; e < pr->n; e++)
            if (fn->px[pr->off + e].node == x->node)
                a->acc[k][e] += x->u;
        pre += x->u * x->lat;
    }
    if (cnt && pre > *a->max_pre)
        *a->max_pre = pre;
    if (cost_hops(hf->cost) > a->out->max_hops)
        a->out->max_hops = cost_hops(hf->cost);
    return SN_OK;
}

/* Source i: its near pairs one by one, then its far destinations per
 * profile in aggregate. */
static int a2a_source(struct a2a *a, size_t i, struct sn_error *err)
{
    struct sn_flownet *fn = a->fn;
    size_t nn = sn__flow_near_collect(fn, &a->near, a->nodes, i, &a->nearl,
                                      &a->near_cap);
    uint32_t one_entry = SN_NONE, one_out = SN_NONE;
    int rc = a2a_near_pairs(a, i, nn, err);

    if (rc)
        return rc;
    if (a->fast)
        one_entry = a2a_one_entry(a, i);
    for (size_t k = 0; k < a->np && rc == SN_OK; k++) {
        uint32_t cnt = a->pcount[k] - a->sub[k];
        assert(a->sub[k] <= a->pcount[k]);
        if (fn->lm[a->ep[i]].prof[SN_LINK_SCALE_OUT] == SN_NONE) {
            if (!cnt)
                continue;
            rc = sn_error_set(err, SN_ENOTFOUND,
                              "accelerator node %u has no route into "
                              "the network",
                              (unsigned)a->nodes[i]);
        } else if (a->fast) {
            if (cnt)
                rc = a2a_far_fast(a, i, k, cnt, one_entry, &one_out, err);
        } else {
            rc = a2a_far_half(a, i, k, cnt, err);
        }
    }
    return rc;
}

/* Fast path: push every profile's injections through the fabric; the
 * slowest way across goes to *max_pre. */
static void a2a_push(struct a2a *a)
{
    struct sn_flownet *fn = a->fn;
    struct inj *list = sn_xmalloc((a->ne + 1) * sizeof(*list));
    double fab_lat = 0;

    for (size_t k = 0; k < a->np; k++) {
        size_t nl = 0;
        double l;
        for (size_t e = 0; e < a->inj_cap[k] && e < a->ne; e++)
            if (a->dense[k][e] > 0) {
                list[nl].node = a->enode[e];
                list[nl].amount = a->dense[k][e];
                nl++;
            }
        l = push_to_profile(fn, a->plist[k], list, nl);
        if (l > fab_lat)
            fab_lat = l;
    }
    free(list);
    *a->max_pre += fab_lat;
}

/* The in piece from exit node into destination j carries weight w. */
static void a2a_in_add(struct a2a *a, size_t j, uint32_t exit, double w)
{
    struct sn_flownet *fn = a->fn;
    uint32_t ip = sn__flow_in_piece(fn, exit, SN_LINK_SCALE_OUT, a->nodes[j]);

    wacc_add(a->acc_w, ip, w);
    if (fn->sg[ip].lat > *a->max_in)
        *a->max_in = fn->sg[ip].lat;
}

/* Fast path: destination j's in piece from its one exit carries one unit
 * from every source that is not near j. */
static void a2a_in_fast(struct a2a *a, size_t j, const struct prof *pr)
{
    uint32_t nn = 0;

    for (int which = 0; which < 2; which++) {
        uint32_t b = sn__flow_near_bucket(a->fn, &a->near, a->nodes, j, which);
        for (uint32_t e = a->near.head[b]; e != SN_NONE; e = a->near.next[e]) {
            uint32_t i = e / 2;
            if (a->far_src[i] != j + 1) {
                a->far_src[i] = (uint32_t)j + 1;
                nn++;
            }
        }
    }
    assert(nn >= 1 && nn <= a->n); /* j is near itself */
    if (a->n > nn)
        a2a_in_add(a, j, a->fn->px[pr->off].node, (double)(a->n - nn));
}

/* Half path: destination j's in pieces carry the sum over every source
 * of profile index k less its near sources' share, per exit. */
static void a2a_in_half(struct a2a *a, size_t j, size_t k,
                        const struct prof *pr)
{
    struct sn_flownet *fn = a->fn;
    double *u = sn_xmalloc((pr->n + 1) * sizeof(double));
    size_t nn = sn__flow_near_collect(fn, &a->near, a->nodes, j, &a->nearl,
                                      &a->near_cap);

    memcpy(u, a->acc[k], pr->n * sizeof(double));
    for (size_t q = 0; q < nn; q++) {
        const struct half *hf;
        uint32_t i = a->nearl[q], h;
        if (fn->lm[a->ep[i]].prof[SN_LINK_SCALE_OUT] == SN_NONE)
            continue;
        h = sn__flow_half_class(fn, a->ep[i], a->plist[k]);
        hf = &fn->hf[h];
        if (hf->cost == INF32)
            continue;
        for (uint32_t x = 0; x < hf->xn; x++)
            for (uint32_t e = 0; e < pr->n; e++)
                if (fn->px[pr->off + e].node == fn->hx[hf->xoff + x].node)
                    u[e] -= fn->hx[hf->xoff + x].u;
    }
    for (uint32_t e = 0; e < pr->n; e++)
        if (u[e] > 1e-12)
            a2a_in_add(a, j, fn->px[pr->off + e].node, u[e]);
    free(u);
}

static void a2a_release(struct a2a *a)
{
    if (a->acc)
        for (size_t k = 0; k < a->np; k++)
            free(a->acc[k]);
    free(a->acc);
    if (a->dense)
        for (size_t k = 0; k < a->np; k++)
            free(a->dense[k]);
    free(a->dense);
    free(a->inj_cap);
    hfree(&a->eidx);
    free(a->enode);
    free(a->far_src);
    free(a->ep);
    free(a->pout);
    free(a->plist);
    free(a->pcount);
    free(a->sub);
    hfree(&a->pidx);
    sn__flow_near_release(&a->near);
    free(a->nearl);
    free(a->pc.seg);
    free(a->pc.w);
}

/* One block of all-to-all: index it, go through the sources, push the
 * fast path's injections, then add every destination's in pieces. */
static int a2a_block(struct sn_flownet *fn, const uint32_t *nodes, size_t n,
                     struct wacc *acc_w, struct sn__step *out, double *max_pre,
                     double *max_in, struct sn_error *err)
{
    struct a2a a = {.fn = fn,
                    .nodes = nodes,
                    .n = n,
                    .acc_w = acc_w,
                    .out = out,
                    .max_pre = max_pre,
                    .max_in = max_in};
    int rc = SN_OK;

    if (n < 2)
        return SN_OK;
    a.ep = sn_xmalloc((n + 1) * sizeof(uint32_t));
    a.pout = sn_xmalloc((n + 1) * sizeof(uint32_t));
    a2a_index(&a);
    for (size_t i = 0; i < n && rc == SN_OK; i++)
        rc = a2a_source(&a, i, err);
    if (rc)
        goto out;
    if (a.fast) {
        /* far sources of every destination: all but the near ones */
        a.far_src = sn_xcalloc(n + 1, sizeof(uint32_t));
        a2a_push(&a);
    }
    /* in pieces of far pairs: the sum over all sources minus the near */
    for (size_t j = 0; j < n; j++) {
        size_t k;
        const struct prof *pr;
        if (a.pout[j] == SN_NONE)
            continue;
        k = a2a_prof(&a, a.pout[j]);
        pr = &fn->pr[a.plist[k]];
        if (a.fast)
            a2a_in_fast(&a, j, pr);
        else
            a2a_in_half(&a, j, k, pr);
    }
out:
    a2a_release(&a);
    return rc;
}

int sn__flow_alltoall(struct sn_flownet *fn, const uint32_t *nodes, size_t n,
                      size_t group, struct sn__step *out, struct sn_error *err)
{
    struct wacc a = {0};
    double max_pre = 0, max_in = 0;
    int rc = SN_OK;

    memset(out, 0, sizeof(*out));
    out->bottleneck = SN_NONE;
    if (!group || group > n)
        group = n;
    for (size_t b = 0; b + group <= n && rc == SN_OK; b += group)
        rc = a2a_block(fn, nodes + b, group, &a, out, &max_pre, &max_in, err);
    /* far pairs: the slowest way to an exit plus the slowest way in (an
     * upper bound; exact when every endpoint has one exit) */
    if (max_pre + max_in > out->latency)
        out->latency = max_pre + max_in;
    if (rc == SN_OK)
        step_finish(fn, &a, out);
    wacc_release(&a);
    return rc;
}

/* Progressive filling's state: per flow the pieces it crosses (a run of
 * rseg and rw), per piece crossed (by its index in segs' list) the
 * coefficient of the unfrozen flows and the load of the frozen ones. */
struct fill {
    struct sn_flownet *fn;
    const struct sn__flow *f;
    size_t n;
    double *rates;
    struct fill_route {
        uint32_t off, n;
    } * rl;         /* per flow: its pieces in rseg and rw */
    uint32_t *rseg; /* pieces */
    double *rw;     /* their weights x the flow's mult */
    size_t nr, r_cap;
    struct wacc segs;    /* the pieces crossed, each once */
    uint32_t *pos;       /* piece -> index in segs' list */
    double *unfrozen;    /* per piece: unfrozen flows' weight */
    double *frozen;      /* per piece: frozen flows' load */
    uint8_t *hot, *done; /* per piece: on a full link; per flow */
    double *fz;          /* per link direction: frozen load */
    size_t left;         /* flows not frozen yet */
};

/* Route every flow into its run of pieces; flows that move nothing
 * (same node, mult 0) are unlimited and done. */
static int fill_route(struct fill *fs, struct sn_error *err)
{
    struct pieces pc = {0};
    const struct sn__flow *f = fs->f;
    int rc = SN_OK;

    for (size_t i = 0; i < fs->n; i++) {
        fs->rates[i] = 0;
        if (f[i].src == f[i].dst || f[i].mult <= 0) {
            fs->rates[i] = INFINITY;
            fs->done[i] = 1;
            continue;
        }
        rc = sn__flow_route_pieces(fs->fn, f[i].src, f[i].dst, &pc, err);
        if (rc)
            break;
        fs->rl[i].off = (uint32_t)fs->nr;
        fs->rl[i].n = (uint32_t)pc.n;
        for (size_t k = 0; k < pc.n; k++) {
            SN_GROW(fs->rseg, fs->r_cap, fs->nr + 1);
            fs->rw = sn_xrealloc(fs->rw, fs->r_cap * sizeof(double));
            fs->rseg[fs->nr] = pc.seg[k];
            fs->rw[fs->nr] = pc.w[k] * f[i].mult;
            fs->nr++;
            wacc_add(&fs->segs, pc.seg[k], 0);
        }
        fs->left++;
    }
    free(pc.seg);
    free(pc.w);
    return rc;
}

/* Index the pieces crossed and sum the unfrozen weight on each. */
static void fill_index(struct fill *fs)
{
    size_t np = fs->segs.n;

    fs->unfrozen = sn_xcalloc(np + 1, sizeof(double));
    fs->frozen = sn_xcalloc(np + 1, sizeof(double));
    fs->hot = sn_xcalloc(np + 1, 1);
    fs->pos = sn_xmalloc((fs->segs.cap + 1) * sizeof(uint32_t));
    for (size_t q = 0; q < np; q++)
        fs->pos[fs->segs.list[q]] = (uint32_t)q;
    for (size_t i = 0; i < fs->n; i++)
        if (!fs->done[i])
            for (uint32_t k = 0; k < fs->rl[i].n; k++) {
                size_t r = fs->rl[i].off + k;
                assert(r < fs->nr && fs->pos[fs->rseg[r]] < np);
                fs->unfrozen[fs->pos[fs->rseg[r]]] += fs->rw[r];
            }
    fs->fz = sn_xcalloc(fs->fn->nld + 1, sizeof(double));
}

/* The next fill level: per link direction the unfrozen coefficient (into
 * fn->ld_acc) and the frozen load (fs->fz); the lowest rate at which a
 * link fills, INFINITY when no unfrozen flow crosses a link. */
static double fill_level(struct fill *fs)
{
    struct sn_flownet *fn = fs->fn;
    double r = INFINITY;

    for (size_t i = 0; i < fn->ntouched; i++)
        fs->fz[fn->touched[i]] = 0;
    sn__flow_ld_begin(fn);
    for (size_t q = 0; q < fs->segs.n; q++) {
        const struct seg *g = &fn->sg[fs->segs.list[q]];
        for (uint32_t k = 0; k < g->n; k++) {
            uint32_t ld = fn->inc_ld[g->off + k];
            assert(ld < fn->nld);
            sn__flow_ld_add(fn, ld, fs->unfrozen[q] * fn->inc_sh[g->off + k]);
            fs->fz[ld] += fs->frozen[q] * fn->inc_sh[g->off + k];
        }
    }
    for (size_t i = 0; i < fn->ntouched; i++) {
        uint32_t ld = fn->touched[i];
        double c = fn->ld_acc[ld];
        if (c > 1e-15) {
            double v = (fn->cap[ld] - fs->fz[ld]) / c;
            if (v < r)
                r = v;
        }
    }
    return r;
}

/* Mark the pieces that cross a link full at rate r. */
static void fill_mark_hot(struct fill *fs, double r)
{
    struct sn_flownet *fn = fs->fn;

    memset(fs->hot, 0, fs->segs.n + 1);
    for (size_t q = 0; q < fs->segs.n; q++) {
        const struct seg *g = &fn->sg[fs->segs.list[q]];
        for (uint32_t k = 0; k < g->n && !fs->hot[q]; k++) {
            uint32_t ld = fn->inc_ld[g->off + k];
            double c = fn->ld_acc[ld];
            if (c > 1e-15 && fn->inc_sh[g->off + k] > 0 &&
                (fn->cap[ld] - fs->fz[ld]) / c <= r * (1 + 1e-9) + 1e-300)
                fs->hot[q] = 1;
        }
    }
}

/* Freeze at rate r every unfrozen flow that crosses a full link: its
 * weight moves from the unfrozen coefficient to the frozen load. */
static void fill_freeze(struct fill *fs, double r)
{
    for (size_t i = 0; i < fs->n; i++) {
        const struct fill_route *rl = &fs->rl[i];
        bool freeze = false;
        if (fs->done[i])
            continue;
        for (uint32_t k = 0; k < rl->n && !freeze; k++)
            freeze = fs->hot[fs->pos[fs->rseg[rl->off + k]]] &&
                     fs->unfrozen[fs->pos[fs->rseg[rl->off + k]]] > 0;
        if (!freeze)
            continue;
        fs->rates[i] = r;
        fs->done[i] = 1;
        assert(fs->left > 0);
        fs->left--;
        for (uint32_t k = 0; k < rl->n; k++) {
            uint32_t q = fs->pos[fs->rseg[rl->off + k]];
            fs->unfrozen[q] -= fs->rw[rl->off + k];
            if (fs->unfrozen[q] < 1e-12)
                fs->unfrozen[q] = 0;
            fs->frozen[q] += fs->rw[rl->off + k] * r;
        }
    }
}

int sn__flow_rates(struct sn_flownet *fn, const struct sn__flow *f, size_t n,
                   double *rates, struct sn_error *err)
{
    struct fill fs = {.fn = fn, .f = f, .n = n, .rates = rates};
    int rc;

    fs.rl = sn_xcalloc(n + 1, sizeof(*fs.rl));
    fs.done = sn_xcalloc(n + 1, 1);
    rc = fill_route(&fs, err);
    if (rc)
        goto out;
    fill_index(&fs);
    /* progressive filling: the common rate of the unfrozen flows rises
     * until a link fills; its flows freeze at that rate */
    while (fs.left) {
        double r = fill_level(&fs);
        if (!isfinite(r)) {
            /* flows that cross no link (same node): unlimited */
            for (size_t i = 0; i < n; i++)
                if (!fs.done[i]) {
                    rates[i] = INFINITY;
                    fs.done[i] = 1;
                }
            break;
        }
        if (r < 0)
            r = 0;
        fill_mark_hot(&fs, r);
        fill_freeze(&fs, r);
    }
    /* rates are per single flow; an aggregated flow of mult m moved m x */
out:
    free(fs.rl);
    free(fs.rseg);
    free(fs.rw);
    wacc_release(&fs.segs);
    free(fs.unfrozen);
    free(fs.frozen);
    free(fs.pos);
    free(fs.hot);
    free(fs.done);
    free(fs.fz);
    return rc;
}
