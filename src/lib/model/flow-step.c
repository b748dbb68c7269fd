/* flow-step.c: what a step of flows costs in the flow engine: link loads
 * of equal flows, all-to-all aggregated by route pieces, and max-min fair
 * rates by progressive filling (see flow-int.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flow-int.h"

/* ---- steps and rates --------------------------------------------------------
 */

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

/* All-to-all: destinations far from s (another scale-up component and
 * another server) all take the scale-out class half of their exit
 * profile, so their pieces are summed per (s, profile) and, for the in
 * pieces, per (profile, exit) minus the near sources. Near pairs are
 * routed one by one. */
static int a2a_block(struct sn_flownet *fn, const uint32_t *nodes, size_t n,
                     struct wacc *acc_w, struct sn__step *out, double *max_pre,
                     double *max_in, struct sn_error *err);

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
        for (uint32_t ai = t->adj_off[u]; ai < t->adj_off[u + 1]; ai++) {
            const struct sn_link *l = &t->links[t->adj[ai]];
            uint32_t w = other_end(l, u);
            if (l->cls != cls || !(l->health > 0) || fn->fidx[w] == SN_NONE ||
                !is_fabric_for(t, w, cls))
                continue;
            if (sn__flow_dist_memo(fn, p, w) + 1 == du)
                nf++;
        }
        if (k_exit && lu > worst)
            worst = lu;
        if (!nf)
            continue;
        for (uint32_t ai = t->adj_off[u]; ai < t->adj_off[u + 1]; ai++) {
            uint32_t id = t->adj[ai];
            const struct sn_link *l = &t->links[id];
            uint32_t w = other_end(l, u), fw;
            double share = a / (k_exit + nf);
            if (l->cls != cls || !(l->health > 0) || fn->fidx[w] == SN_NONE ||
                !is_fabric_for(t, w, cls))
                continue;
            if (sn__flow_dist_memo(fn, p, w) + 1 != du)
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

static int a2a_block(struct sn_flownet *fn, const uint32_t *nodes, size_t n,
                     struct wacc *acc_w, struct sn__step *out, double *max_pre,
                     double *max_in, struct sn_error *err)
{
    const struct sn_topo *t = fn->t;
    struct pieces pc = {0};
    uint32_t *ep = sn_xmalloc((n + 1) * sizeof(uint32_t)); /* lmap ids */
    uint32_t *pout = sn_xmalloc((n + 1) * sizeof(uint32_t));
    uint32_t *plist = NULL, *pcount = NULL;
    size_t np = 0, pl_cap = 0, pc_cap = 0;
    struct hmap pidx = {0}, near_of = {0};
    uint32_t *nhead = NULL, *nnext = NULL; /* near buckets */
    size_t nb = 0, nb_cap = 0;
    double **acc = NULL; /* per profile index: per exit sum of u */
    bool fast;
    double **dense = NULL; /* per profile: injection per entry index */
    size_t *inj_cap = NULL;
    struct hmap eidx = {0}; /* entry node -> entry index */
    uint32_t *enode = NULL;
    size_t ne = 0, e_cap = 0;
    uint32_t *far_src = NULL;
    uint32_t one_entry = SN_NONE, one_out = SN_NONE;
    int rc = SN_OK;

    if (n < 2)
        goto out;
    nnext = sn_xmalloc((2 * n + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++) {
        const struct sn_node *nd = &t->nodes[nodes[i]];
        uint64_t keys[2];
        ep[i] = sn__flow_lmap(fn, nodes[i]);
        pout[i] = fn->lm[ep[i]].prof[SN_LINK_SCALE_OUT];
        if (pout[i] != SN_NONE) {
            uint32_t k = hget(&pidx, pout[i]);
            if (k == SN_NONE) {
                k = (uint32_t)np++;
                hput(&pidx, pout[i], k);
                SN_GROW(plist, pl_cap, np);
                SN_GROW(pcount, pc_cap, np);
                plist[k] = pout[i];
                pcount[k] = 0;
            }
            pcount[k]++;
        }
        /* near buckets: by scale-up component and by server */
        keys[0] = (uint64_t)1 << 62 | fn->comp[nodes[i]];
        keys[1] =
            (uint64_t)2 << 62 | (uint64_t)nd->supernode << 32 | nd->server;
        for (int k = 0; k < 2; k++) {
            uint32_t b = hget(&near_of, keys[k]);
            if (b == SN_NONE) {
                b = (uint32_t)nb++;
                SN_GROW(nhead, nb_cap, nb);
                nhead[b] = SN_NONE;
                hput(&near_of, keys[k], b);
            }
            nnext[2 * i + (size_t)k] = nhead[b];
            nhead[b] = (uint32_t)(2 * i + (size_t)k);
        }
    }
    acc = sn_xcalloc(np + 1, sizeof(double *));
    for (size_t k = 0; k < np; k++)
        acc[k] = sn_xcalloc(fn->pr[plist[k]].n + 1, sizeof(double));
    /* every destination profile with one exit: the fabric part goes by
     * pushing each profile's demand through the fabric (push_to_profile)
     * and each destination's in piece carries one unit per far source */
    fast = np > 0;
    for (size_t k = 0; k < np; k++)
        fast &= fn->pr[plist[k]].n == 1;
    if (fast) {
        dense = sn_xcalloc(np + 1, sizeof(*dense));
        inj_cap = sn_xcalloc(np + 1, sizeof(size_t));
    }
    for (size_t i = 0; i < n; i++) {
        const struct sn_node *nd = &t->nodes[nodes[i]];
        uint64_t keys[2] = {(uint64_t)1 << 62 | fn->comp[nodes[i]],
                            (uint64_t)2 << 62 | (uint64_t)nd->supernode << 32 |
                                nd->server};
        /* near destinations of i, each once (the two buckets overlap) */
        uint32_t *near = NULL;
        size_t nn = 0, near_cap = 0;
        uint32_t *sub = sn_xcalloc(np + 1, sizeof(uint32_t));
        for (int k = 0; k < 2; k++) {
            uint32_t b = hget(&near_of, keys[k]);
            for (uint32_t e = nhead[b]; e != SN_NONE; e = nnext[e]) {
                uint32_t j = e / 2;
                bool dup = false;
                for (size_t q = 0; q < nn; q++)
                    dup |= near[q] == j;
                if (dup)
                    continue;
                SN_GROW(near, near_cap, nn + 1);
                near[nn++] = j;
            }
        }
        for (size_t q = 0; q < nn; q++) {
            uint32_t j = near[q];
            if (pout[j] != SN_NONE)
                sub[hget(&pidx, pout[j])]++;
            if (j == i)
                continue;
            rc = sn__flow_route_pieces(fn, nodes[i], nodes[j], &pc, err);
            if (rc)
                break;
            for (size_t k = 0; k < pc.n; k++)
                wacc_add(acc_w, pc.seg[k], pc.w[k]);
            if (pc.latency > out->latency)
                out->latency = pc.latency;
            if (cost_hops(pc.cost) > out->max_hops)
                out->max_hops = cost_hops(pc.cost);
        }
        if (fast) {
            /* the source's only network entry, if it has one */
            const struct lmap *mi = &fn->lm[ep[i]];
            one_entry = SN_NONE;
            one_out = SN_NONE;
            uint32_t nbest = 0;
            for (uint32_t q = 0; q < mi->n; q++) {
                const struct lstate *e = &fn->st[mi->off + q];
                if (e->kind != LS_ENTRY || e->cls != SN_LINK_SCALE_OUT ||
                    e->dominated)
                    continue;
                if (one_entry == SN_NONE || e->dist < fn->st[one_entry].dist) {
                    one_entry = mi->off + q;
                    nbest = 1;
                } else if (e->dist == fn->st[one_entry].dist) {
                    nbest++;
                }
            }
            /* the cheapest entry is the only way in when it is unique and
             * every other entry of its fabric component is a whole host
             * hop costlier (see the profile rule in lmap_get) */
            for (uint32_t q = 0; one_entry != SN_NONE && q < mi->n; q++) {
                const struct lstate *e = &fn->st[mi->off + q];
                const struct lstate *b = &fn->st[one_entry];
                uint32_t fe, fb;
                if (nbest != 1) {
                    one_entry = SN_NONE;
                    break;
                }
                if (e->kind != LS_ENTRY || e->cls != SN_LINK_SCALE_OUT ||
                    e->dominated || mi->off + q == one_entry)
                    continue;
                fe = fn->fidx[e->node];
                fb = fn->fidx[b->node];
                if (fe == SN_NONE || fb == SN_NONE ||
                    fn->fcomp[fe] != fn->fcomp[fb] ||
                    e->dist < b->dist + HOST_COST)
                    one_entry = SN_NONE;
            }
        }
        for (size_t k = 0; k < np && rc == SN_OK; k++) {
            uint32_t cnt = pcount[k] - sub[k], h;
            const struct half *hf;
            if (fn->lm[ep[i]].prof[SN_LINK_SCALE_OUT] == SN_NONE) {
                if (!cnt)
                    continue;
                rc = sn_error_set(err, SN_ENOTFOUND,
                                  "accelerator node %u has no route into "
                                  "the network",
                                  (unsigned)nodes[i]);
                break;
            }
            if (fast) {
                uint32_t tgt[MAX_ENTRIES], tail[MAX_ENTRIES], best, o;
                size_t ntgt = 0;
                if (!cnt)
                    continue;
                if (one_entry != SN_NONE) {
                    /* a single way into the network: the same out piece
                     * for every far profile that it reaches */
                    const struct lstate *e1 = &fn->st[one_entry];
                    uint32_t tl = sn__flow_prof_dist(fn, plist[k], e1->node);
                    if (tl != INF32) {
                        if (one_out == SN_NONE) {
                            uint32_t t1 = one_entry, z = tl;
                            one_out = sn__flow_out_cached(
                                fn, ep[i], fn->lm[ep[i]].off, &t1, &z, 1);
                        }
                        wacc_add(acc_w, one_out, cnt);
                        if (fn->sg[one_out].an &&
                            fn->ar[fn->sg[one_out].aoff].lat > *max_pre)
                            *max_pre = fn->ar[fn->sg[one_out].aoff].lat;
                        {
                            uint32_t e = hget(&eidx, e1->node);
                            if (e == SN_NONE) {
                                e = (uint32_t)ne++;
                                hput(&eidx, e1->node, e);
                                SN_GROW(enode, e_cap, ne);
                                enode[e] = e1->node;
                            }
                            if (e >= inj_cap[k]) {
                                size_t old = inj_cap[k], nc = old ? old : 16;
                                while (nc <= e)
                                    nc *= 2;
                                dense[k] =
                                    sn_xrealloc(dense[k], nc * sizeof(double));
                                for (size_t z2 = old; z2 < nc; z2++)
                                    dense[k][z2] = 0;
                                inj_cap[k] = nc;
                            }
                            dense[k][e] += cnt;
                        }
                        if (cost_hops(e1->dist + tl) > out->max_hops)
                            out->max_hops = cost_hops(e1->dist + tl);
                        continue;
                    }
                }
                best = sn__flow_class_targets(fn, ep[i], plist[k], tgt, tail,
                                              &ntgt);
                if (best == INF32) {
                    rc = sn_error_set(err, SN_ENOTFOUND,
                                      "no route between network exits of "
                                      "node %u",
                                      (unsigned)nodes[i]);
                    break;
                }
                o = sn__flow_out_cached(fn, ep[i], fn->lm[ep[i]].off, tgt, tail,
                                        ntgt);
                wacc_add(acc_w, o, cnt);
                for (uint32_t q = 0; q < fn->sg[o].an; q++) {
                    const struct arrival *ar = &fn->ar[fn->sg[o].aoff + q];
                    uint32_t node = fn->st[ar->key].node;
                    uint32_t e = hget(&eidx, node);
                    if (ar->lat > *max_pre)
                        *max_pre = ar->lat;
                    if (e == SN_NONE) {
                        e = (uint32_t)ne++;
                        hput(&eidx, node, e);
                        SN_GROW(enode, e_cap, ne);
                    }
                    enode[e] = node;
                    /* dense per (profile, entry): grown on demand */
                    if (e >= inj_cap[k]) {
                        size_t old = inj_cap[k], nc = old ? old : 16;
                        while (nc <= e)
                            nc *= 2;
                        dense[k] = sn_xrealloc(dense[k], nc * sizeof(double));
                        for (size_t z = old; z < nc; z++)
                            dense[k][z] = 0;
                        inj_cap[k] = nc;
                    }
                    dense[k][e] += ar->w * cnt;
                }
                if (cost_hops(best) > out->max_hops)
                    out->max_hops = cost_hops(best);
                continue;
            }
            /* computed even when every destination of k is near: the in
             * pieces below subtract the near sources from the sum */
            h = sn__flow_half_class(fn, ep[i], plist[k]);
            hf = &fn->hf[h];
            if (hf->cost == INF32) {
                if (!cnt)
                    continue;
                rc = sn_error_set(err, SN_ENOTFOUND,
                                  "no route between network exits of node "
                                  "%u",
                                  (unsigned)nodes[i]);
                break;
            }
            for (uint32_t q = 0; q < hf->sn; q++)
                wacc_add(acc_w, fn->hseg[hf->soff + q],
                         fn->hw[hf->soff + q] * cnt);
            {
                double pre = 0;
                for (uint32_t q = 0; q < hf->xn; q++) {
                    const struct hexit *x = &fn->hx[hf->xoff + q];
                    const struct prof *pr = &fn->pr[plist[k]];
                    for (uint32_t e = 0; e < pr->n; e++)
                        if (fn->px[pr->off + e].node == x->node)
                            acc[k][e] += x->u;
                    pre += x->u * x->lat;
                }
                if (cnt && pre > *max_pre)
                    *max_pre = pre;
            }
            if (cost_hops(hf->cost) > out->max_hops)
                out->max_hops = cost_hops(hf->cost);
        }
        free(near);
        free(sub);
        if (rc)
            goto out;
    }
    if (fast) {
        double fab_lat = 0;
        /* far sources of every destination: all but the near ones */
        far_src = sn_xcalloc(n + 1, sizeof(uint32_t));
        struct inj *list = sn_xmalloc((ne + 1) * sizeof(*list));
        for (size_t k = 0; k < np; k++) {
            size_t nl = 0;
            double l;
            for (size_t e = 0; e < inj_cap[k] && e < ne; e++)
                if (dense[k][e] > 0) {
                    list[nl].node = enode[e];
                    list[nl].amount = dense[k][e];
                    nl++;
                }
            l = push_to_profile(fn, plist[k], list, nl);
            if (l > fab_lat)
                fab_lat = l;
        }
        free(list);
        *max_pre += fab_lat;
    }
    /* in pieces of far pairs: the sum over all sources minus the near */
    for (size_t j = 0; j < n; j++) {
        const struct sn_node *nd = &t->nodes[nodes[j]];
        uint64_t keys[2] = {(uint64_t)1 << 62 | fn->comp[nodes[j]],
                            (uint64_t)2 << 62 | (uint64_t)nd->supernode << 32 |
                                nd->server};
        uint32_t k, *near = NULL;
        size_t nn = 0, near_cap = 0;
        const struct prof *pr;
        double *u;
        if (pout[j] == SN_NONE)
            continue;
        k = hget(&pidx, pout[j]);
        pr = &fn->pr[plist[k]];
        if (fast) {
            /* one unit from every source that is not near j */
            uint32_t nn2 = 0, ip;
            for (int b2 = 0; b2 < 2; b2++) {
                uint32_t b = hget(&near_of, keys[b2]);
                for (uint32_t e = nhead[b]; e != SN_NONE; e = nnext[e]) {
                    uint32_t i = e / 2;
                    if (far_src[i] != j + 1) {
                        far_src[i] = (uint32_t)j + 1;
                        nn2++;
                    }
                }
            }
            if (n > nn2) {
                ip = sn__flow_in_piece(fn, fn->px[pr->off].node,
                                       SN_LINK_SCALE_OUT, nodes[j]);
                wacc_add(acc_w, ip, (double)(n - nn2));
                if (fn->sg[ip].lat > *max_in)
                    *max_in = fn->sg[ip].lat;
            }
            continue;
        }
        u = sn_xmalloc((pr->n + 1) * sizeof(double));
        memcpy(u, acc[k], pr->n * sizeof(double));
        for (int b2 = 0; b2 < 2; b2++) {
            uint32_t b = hget(&near_of, keys[b2]);
            for (uint32_t e = nhead[b]; e != SN_NONE; e = nnext[e]) {
                uint32_t i = e / 2;
                bool dup = false;
                for (size_t q = 0; q < nn; q++)
                    dup |= near[q] == i;
                if (dup)
                    continue;
                SN_GROW(near, near_cap, nn + 1);
                near[nn++] = i;
            }
        }
        for (size_t q = 0; q < nn; q++) {
            const struct half *hf;
            uint32_t i = near[q];
            if (fn->lm[ep[i]].prof[SN_LINK_SCALE_OUT] == SN_NONE)
                continue;
            hf = &fn->hf[sn__flow_half_class(fn, ep[i], plist[k])];
            if (hf->cost == INF32)
                continue;
            for (uint32_t x = 0; x < hf->xn; x++)
                for (uint32_t e = 0; e < pr->n; e++)
                    if (fn->px[pr->off + e].node == fn->hx[hf->xoff + x].node)
                        u[e] -= fn->hx[hf->xoff + x].u;
        }
        for (uint32_t e = 0; e < pr->n; e++) {
            if (u[e] > 1e-12) {
                uint32_t ip = sn__flow_in_piece(fn, fn->px[pr->off + e].node,
                                                SN_LINK_SCALE_OUT, nodes[j]);
                wacc_add(acc_w, ip, u[e]);
                if (fn->sg[ip].lat > *max_in)
                    *max_in = fn->sg[ip].lat;
            }
        }
        free(near);
        free(u);
    }
out:
    if (acc)
        for (size_t k = 0; k < np; k++)
            free(acc[k]);
    free(acc);
    if (dense)
        for (size_t k = 0; k < np; k++)
            free(dense[k]);
    free(dense);
    free(inj_cap);
    hfree(&eidx);
    free(enode);
    free(far_src);
    free(ep);
    free(pout);
    free(plist);
    free(pcount);
    hfree(&pidx);
    hfree(&near_of);
    free(nhead);
    free(nnext);
    free(pc.seg);
    free(pc.w);
    return rc;
}

int sn__flow_rates(struct sn_flownet *fn, const struct sn__flow *f, size_t n,
                   double *rates, struct sn_error *err)
{
    struct pieces pc = {0};
    struct route_list {
        uint32_t off, n;
    } *rl = sn_xcalloc(n + 1, sizeof(*rl));
    uint32_t *rseg = NULL;
    double *rw = NULL;
    size_t nr = 0, r_cap = 0;
    struct wacc segs = {0};
    double *unfrozen = NULL, *frozen = NULL; /* per piece, by list index */
    uint32_t *pos = NULL;                    /* piece -> list index */
    uint8_t *hot = NULL, *done = sn_xcalloc(n + 1, 1);
    double *fz = NULL;
    size_t left = 0;
    int rc = SN_OK;

    for (size_t i = 0; i < n; i++) {
        rates[i] = 0;
        if (f[i].src == f[i].dst || f[i].mult <= 0) {
            rates[i] = INFINITY;
            done[i] = 1;
            continue;
        }
        rc = sn__flow_route_pieces(fn, f[i].src, f[i].dst, &pc, err);
        if (rc)
            goto out;
        rl[i].off = (uint32_t)nr;
        rl[i].n = (uint32_t)pc.n;
        for (size_t k = 0; k < pc.n; k++) {
            SN_GROW(rseg, r_cap, nr + 1);
            rw = sn_xrealloc(rw, r_cap * sizeof(double));
            rseg[nr] = pc.seg[k];
            rw[nr] = pc.w[k] * f[i].mult;
            nr++;
            wacc_add(&segs, pc.seg[k], 0);
        }
        left++;
    }
    unfrozen = sn_xcalloc(segs.n + 1, sizeof(double));
    frozen = sn_xcalloc(segs.n + 1, sizeof(double));
    hot = sn_xcalloc(segs.n + 1, 1);
    pos = sn_xmalloc((segs.cap + 1) * sizeof(uint32_t));
    for (size_t q = 0; q < segs.n; q++)
        pos[segs.list[q]] = (uint32_t)q;
    for (size_t i = 0; i < n; i++)
        if (!done[i])
            for (uint32_t k = 0; k < rl[i].n; k++)
                unfrozen[pos[rseg[rl[i].off + k]]] += rw[rl[i].off + k];
    /* progressive filling: the common rate of the unfrozen flows rises
     * until a link fills; its flows freeze at that rate */
    fz = sn_xcalloc(fn->nld + 1, sizeof(double));
    while (left) {
        double r = INFINITY;
        /* ld_acc holds the unfrozen coefficient, fz the frozen load */
        for (size_t i = 0; i < fn->ntouched; i++)
            fz[fn->touched[i]] = 0;
        sn__flow_ld_begin(fn);
        for (size_t q = 0; q < segs.n; q++) {
            const struct seg *g = &fn->sg[segs.list[q]];
            for (uint32_t k = 0; k < g->n; k++) {
                uint32_t ld = fn->inc_ld[g->off + k];
                sn__flow_ld_add(fn, ld, unfrozen[q] * fn->inc_sh[g->off + k]);
                fz[ld] += frozen[q] * fn->inc_sh[g->off + k];
            }
        }
        for (size_t i = 0; i < fn->ntouched; i++) {
            uint32_t ld = fn->touched[i];
            double c = fn->ld_acc[ld];
            if (c > 1e-15) {
                double v = (fn->cap[ld] - fz[ld]) / c;
                if (v < r)
                    r = v;
            }
        }
        if (!isfinite(r)) {
            /* flows that cross no link (same node): unlimited */
            for (size_t i = 0; i < n; i++)
                if (!done[i]) {
                    rates[i] = INFINITY;
                    done[i] = 1;
                }
            break;
        }
        if (r < 0)
            r = 0;
        memset(hot, 0, segs.n + 1);
        for (size_t q = 0; q < segs.n; q++) {
            const struct seg *g = &fn->sg[segs.list[q]];
            for (uint32_t k = 0; k < g->n && !hot[q]; k++) {
                uint32_t ld = fn->inc_ld[g->off + k];
                double c = fn->ld_acc[ld];
                if (c > 1e-15 && fn->inc_sh[g->off + k] > 0 &&
                    (fn->cap[ld] - fz[ld]) / c <= r * (1 + 1e-9) + 1e-300)
                    hot[q] = 1;
            }
        }
        for (size_t i = 0; i < n; i++) {
            bool freeze = false;
            if (done[i])
                continue;
            for (uint32_t k = 0; k < rl[i].n && !freeze; k++)
                freeze = hot[pos[rseg[rl[i].off + k]]] &&
                         unfrozen[pos[rseg[rl[i].off + k]]] > 0;
            if (!freeze)
                continue;
            rates[i] = r;
            done[i] = 1;
            left--;
            for (uint32_t k = 0; k < rl[i].n; k++) {
                uint32_t q = pos[rseg[rl[i].off + k]];
                unfrozen[q] -= rw[rl[i].off + k];
                if (unfrozen[q] < 1e-12)
                    unfrozen[q] = 0;
                frozen[q] += rw[rl[i].off + k] * r;
            }
        }
    }
    /* rates are per single flow; an aggregated flow of mult m moved m x */
out:
    free(pc.seg);
    free(pc.w);
    free(rl);
    free(rseg);
    free(rw);
    wacc_release(&segs);
    free(unfrozen);
    free(frozen);
    free(pos);
    free(hot);
    free(done);
    free(fz);
    return rc;
}
