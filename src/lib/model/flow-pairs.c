/* flow-pairs.c: pair values of the flow engine: one pair alone, and every
 * ordered pair of a set of endpoints grouped into classes of equal
 * expectations (see flow-int.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flow-int.h"

/* ---- pairs ------------------------------------------------------------------
 */

/* Compose a flow's rate from its pieces: exact when the pieces share no
 * link, which holds when at most one fabric piece and one in piece carry
 * links (the pieces of one kind can then not meet); otherwise the shares
 * are summed per link. */
static void pair_compose(struct sn_flownet *fn, const struct pieces *pc,
                         struct sn__pairval *v)
{
    size_t fab_links = 0, in_links = 0;

    v->rate = INFINITY;
    v->bottleneck = SN_NONE;
    for (size_t i = 1; i < pc->nhalf; i++)
        fab_links += fn->sg[pc->seg[i]].n > 0;
    for (size_t i = pc->nhalf; i < pc->n; i++)
        in_links += fn->sg[pc->seg[i]].n > 0;
    if (fab_links <= 1 && in_links <= 1) {
        for (size_t i = 0; i < pc->n; i++) {
            const struct seg *g = &fn->sg[pc->seg[i]];
            double r;
            if (!g->n || pc->w[i] <= 0)
                continue;
            r = g->bneck / pc->w[i];
            if (r < v->rate || (r == v->rate && g->bneck_ld < v->bottleneck)) {
                v->rate = r;
                v->bottleneck = g->bneck_ld;
            }
        }
        return;
    }
    sn__flow_ld_begin(fn);
    for (size_t i = 0; i < pc->n; i++) {
        const struct seg *g = &fn->sg[pc->seg[i]];
        for (uint32_t k = 0; k < g->n; k++)
            sn__flow_ld_add(fn, fn->inc_ld[g->off + k],
                            pc->w[i] * fn->inc_sh[g->off + k]);
    }
    for (size_t i = 0; i < fn->ntouched; i++) {
        uint32_t ld = fn->touched[i];
        double sh = fn->ld_acc[ld], r;
        if (sh <= 0)
            continue;
        r = fn->cap[ld] / sh;
        if (r < v->rate || (r == v->rate && ld < v->bottleneck)) {
            v->rate = r;
            v->bottleneck = ld;
        }
    }
}

int sn__flow_pair(struct sn_flownet *fn, uint32_t s, uint32_t d,
                  struct sn__pairval *v, struct sn_error *err)
{
    struct pieces pc = {0};
    int rc;

    memset(v, 0, sizeof(*v));
    v->bottleneck = SN_NONE;
    if (s >= fn->t->nnodes || d >= fn->t->nnodes)
        return sn_error_set(err, SN_EINPUT, "no node %u or %u", (unsigned)s,
                            (unsigned)d);
    rc = sn__flow_route_pieces(fn, s, d, &pc, err);
    if (rc == SN_OK) {
        pair_compose(fn, &pc, v);
        v->latency = pc.latency;
        v->hops = cost_hops(pc.cost);
    }
    free(pc.seg);
    free(pc.w);
    return rc;
}

/* The way out of endpoint v toward the networks, as a signature: its one
 * entry into the scale-out fabric (node, cost, arriving links) and what
 * the out piece to it carries, less its wire latency, which goes to
 * *lat. An endpoint with another way out (a second entry, an entry into
 * another class than scale-up and scale-out, an out piece that splits),
 * or whose host side reaches an accelerator of another server or
 * component, stands alone (*alone). */
static uint64_t out_sig(struct sn_flownet *fn, uint32_t v, double *lat,
                        bool *alone)
{
    const struct sn_topo *t = fn->t;
    uint32_t mi = sn__flow_lmap(fn, v), nent = 0;
    const struct sn_node *rv = &t->nodes[v];
    uint64_t h = 0x5151;

    *alone = false;
    *lat = 0;
    for (uint32_t i = 0; i < fn->lm[mi].n && !*alone; i++) {
        const struct lmap *m = &fn->lm[mi];
        const struct lstate *e = &fn->st[m->off + i];
        uint32_t tgt = m->off + i, tail = 0, op, hasb;
        const struct seg *g;
        if (e->kind == LS_END) {
            const struct sn_node *d = &t->nodes[e->node];
            if (d->kind == SN_NODE_ACCEL && e->node != v &&
                fn->comp[e->node] != fn->comp[v] &&
                (d->supernode != rv->supernode || d->server != rv->server))
                *alone = true;
            continue;
        }
        if (e->kind != LS_ENTRY || e->dominated || e->cls == SN_LINK_SCALE_UP)
            continue;
        if (e->cls != SN_LINK_SCALE_OUT || ++nent > 1) {
            *alone = true;
            break;
        }
        h = sn_hash64(&e->node, sizeof(e->node), h);
        h = sn_hash64(&e->dist, sizeof(e->dist), h);
        h = sn_hash64(&e->k, sizeof(e->k), h);
        op = sn__flow_out_cached(fn, mi, m->off, &tgt, &tail, 1);
        g = &fn->sg[op];
        if (g->an != 1) {
            *alone = true;
            break;
        }
        *lat = fn->ar[g->aoff].lat;
        hasb = g->bneck_ld != SN_NONE;
        h = sn_hash64(&g->bneck, sizeof(g->bneck), h);
        h = sn_hash64(&g->n, sizeof(g->n), h);
        h = sn_hash64(&hasb, sizeof(hasb), h);
    }
    return h;
}

/* The near pairs of i (same server or scale-up component), sorted, into
 * *near; returns their number. */
static size_t near_list(const struct sn_flownet *fn, const uint32_t *nodes,
                        size_t i, const struct hmap *near_of,
                        const uint32_t *nhead, const uint32_t *nnext,
                        uint32_t **near, size_t *near_cap)
{
    const struct sn_node *nd = &fn->t->nodes[nodes[i]];
    uint64_t keys[2] = {(uint64_t)1 << 62 | fn->comp[nodes[i]],
                        (uint64_t)2 << 62 | (uint64_t)nd->supernode << 32 |
                            nd->server};
    size_t nn = 0;

    for (int k = 0; k < 2; k++) {
        uint32_t b = hget(near_of, keys[k]);
        for (uint32_t e = nhead[b]; e != SN_NONE; e = nnext[e]) {
            uint32_t j = e / 2;
            bool dup = false;
            for (size_t q = 0; q < nn; q++)
                dup |= (*near)[q] == j;
            if (!dup) {
                SN_GROW(*near, *near_cap, nn + 1);
                (*near)[nn++] = j;
            }
        }
    }
    for (size_t a = 1; a < nn; a++)
        for (size_t b = a; b > 0 && (*near)[b - 1] > (*near)[b]; b--) {
            uint32_t tmp = (*near)[b];
            (*near)[b] = (*near)[b - 1];
            (*near)[b - 1] = tmp;
        }
    return nn;
}

int sn__flow_pairs_grouped(struct sn_flownet *fn, const uint32_t *nodes,
                           size_t n, double lat_floor, sn__pair_emit emit,
                           void *ctx, struct sn_error *err)
{
    const struct sn_topo *t = fn->t;
    struct hmap gidx = {0}, near_of = {0};
    uint32_t *grp = sn_xmalloc((n + 1) * sizeof(uint32_t));
    uint32_t *sgrp = sn_xmalloc((n + 1) * sizeof(uint32_t));
    uint32_t *gnext = sn_xmalloc((n + 1) * sizeof(uint32_t));
    uint32_t *gfirst = NULL, *gcount = NULL, *glast = NULL, *gin = NULL;
    double *inlat = NULL, *out_lo = NULL, *out_hi = NULL, *in_dev = NULL;
    double *out_lat = sn_xmalloc((n + 1) * sizeof(double));
    uint32_t *nhead = NULL, *nnext = sn_xmalloc((2 * n + 1) * sizeof(uint32_t));
    size_t ng = 0, g_cap = 0, nb = 0, nb_cap = 0, nin = 0, nin_cap = 0;
    size_t nsg;
    uint32_t *near = NULL, *gsub = NULL, *rep_i = NULL, *rep_j = NULL;
    uint64_t *gcnt = NULL;
    bool *sdone = NULL;
    size_t near_cap = 0;
    int rc = SN_OK;

    /* Groups of endpoints interchangeable at either end of a far pair:
     * the same scale-out profile, in pieces from its exits and way out
     * with equal values. Wire latencies differ by a few nanoseconds per
     * metre of cable and are kept apart: their spread per group bounds
     * how far a pair's latency can be from the group's example. */
    for (size_t i = 0; i < n; i++) {
        const struct sn_node *nd = &t->nodes[nodes[i]];
        uint64_t keys[2] = {(uint64_t)1 << 62 | fn->comp[nodes[i]],
                            (uint64_t)2 << 62 | (uint64_t)nd->supernode << 32 |
                                nd->server};
        uint32_t p, ep = sn__flow_lmap(fn, nodes[i]);
        grp[i] = SN_NONE;
        gnext[i] = SN_NONE;
        out_lat[i] = 0;
        p = fn->lm[ep].prof[SN_LINK_SCALE_OUT];
        if (p != SN_NONE) {
            const struct prof *pr = &fn->pr[p];
            uint64_t h = sn_hash64(&p, sizeof(p), 99);
            uint32_t gi;
            bool alone;
            double dev = 0;
            SN_GROW(inlat, nin_cap, nin + pr->n + 1);
            for (uint32_t e = 0; e < pr->n; e++) {
                uint32_t ip = sn__flow_in_piece(fn, fn->px[pr->off + e].node,
                                                SN_LINK_SCALE_OUT, nodes[i]);
                const struct seg *g = &fn->sg[ip];
                uint32_t cap_ld = g->bneck_ld == SN_NONE ? 0 : 1;
                h = sn_hash64(&g->bneck, sizeof(g->bneck), h);
                h = sn_hash64(&cap_ld, sizeof(cap_ld), h);
                h = sn_hash64(&g->n, sizeof(g->n), h);
                inlat[nin + e] = g->lat;
            }
            h = sn_hash64(&h, sizeof(h),
                          out_sig(fn, nodes[i], &out_lat[i], &alone));
            gi = alone ? SN_NONE : hget(&gidx, h);
            if (gi == SN_NONE) {
                gi = (uint32_t)ng++;
                if (!alone)
                    hput(&gidx, h, gi);
                if (ng > g_cap) {
                    SN_GROW(gfirst, g_cap, ng);
                    gcount = sn_xrealloc(gcount, g_cap * sizeof(uint32_t));
                    glast = sn_xrealloc(glast, g_cap * sizeof(uint32_t));
                    gin = sn_xrealloc(gin, g_cap * sizeof(uint32_t));
                    out_lo = sn_xrealloc(out_lo, g_cap * sizeof(double));
                    out_hi = sn_xrealloc(out_hi, g_cap * sizeof(double));
                    in_dev = sn_xrealloc(in_dev, g_cap * sizeof(double));
                }
                gfirst[gi] = (uint32_t)i;
                glast[gi] = (uint32_t)i;
                gcount[gi] = 0;
                gin[gi] = (uint32_t)nin;
                nin += pr->n;
                out_lo[gi] = out_hi[gi] = out_lat[i];
                in_dev[gi] = 0;
            } else {
                for (uint32_t e = 0; e < pr->n; e++) {
                    double d = fabs(inlat[nin + e] - inlat[gin[gi] + e]);
                    dev = d > dev ? d : dev;
                }
                gnext[glast[gi]] = (uint32_t)i;
                glast[gi] = (uint32_t)i;
                if (dev > in_dev[gi])
                    in_dev[gi] = dev;
                if (out_lat[i] < out_lo[gi])
                    out_lo[gi] = out_lat[i];
                if (out_lat[i] > out_hi[gi])
                    out_hi[gi] = out_lat[i];
            }
            grp[i] = gi;
            gcount[gi]++;
        }
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
    /* sources: their group, or alone when they have no scale-out way */
    nsg = ng;
    for (size_t i = 0; i < n; i++)
        sgrp[i] = grp[i] != SN_NONE ? grp[i] : (uint32_t)nsg++;
    gsub = sn_xcalloc(ng + 1, sizeof(uint32_t));
    gcnt = sn_xcalloc(ng + 1, sizeof(uint64_t));
    rep_i = sn_xmalloc((ng + 1) * sizeof(uint32_t));
    rep_j = sn_xmalloc((ng + 1) * sizeof(uint32_t));
    sdone = sn_xcalloc(nsg + 1, sizeof(bool));
    /* One source group at a time, from its first member in rank order:
     * near pairs one by one, far pairs summed per destination group over
     * the members, one pair standing for each sum: the smallest in rank
     * order, so the class examples do not depend on the grouping. When
     * the wire latencies of the block could reach lat_floor (the pair
     * latency is the larger of the two), the block is gone through pair
     * by pair instead. */
    for (size_t i0 = 0; i0 < n && rc == SN_OK; i0++) {
        uint32_t a = sgrp[i0];
        if (sdone[a])
            continue;
        sdone[a] = true;
        for (size_t gi = 0; gi < ng; gi++) {
            gcnt[gi] = 0;
            rep_i[gi] = SN_NONE;
        }
        for (uint32_t i = (uint32_t)i0; i != SN_NONE && rc == SN_OK;
             i = grp[i] != SN_NONE ? gnext[i] : SN_NONE) {
            size_t nn = near_list(fn, nodes, i, &near_of, nhead, nnext, &near,
                                  &near_cap);
            for (size_t q = 0; q < nn; q++) {
                struct sn__pairval v;
                uint32_t j = near[q];
                if (grp[j] != SN_NONE)
                    gsub[grp[j]]++;
                if (j == i)
                    continue;
                rc = sn__flow_pair(fn, nodes[i], nodes[j], &v, err);
                if (rc)
                    break;
                emit(ctx, i, j, 1, &v);
            }
            for (size_t gi = 0; gi < ng && rc == SN_OK; gi++) {
                uint32_t cnt = gcount[gi] - gsub[gi], j = gfirst[gi];
                if (!cnt)
                    continue;
                gcnt[gi] += cnt;
                if (rep_i[gi] != SN_NONE)
                    continue;
                while (j != SN_NONE) {
                    bool is_near = false;
                    for (size_t q = 0; q < nn && !is_near; q++)
                        is_near = near[q] == j;
                    if (!is_near)
                        break;
                    j = gnext[j];
                }
                rep_i[gi] = i;
                rep_j[gi] = j;
            }
            for (size_t q = 0; q < nn; q++)
                if (grp[near[q]] != SN_NONE)
                    gsub[grp[near[q]]] = 0;
        }
        for (size_t gi = 0; gi < ng && rc == SN_OK; gi++) {
            struct sn__pairval v;
            double spread;
            if (!gcnt[gi])
                continue;
            rc = sn__flow_pair(fn, nodes[rep_i[gi]], nodes[rep_j[gi]], &v, err);
            if (rc)
                break;
            spread = 2 * in_dev[gi] + (a < ng ? out_hi[a] - out_lo[a] : 0);
            if (spread == 0 || v.latency + spread < lat_floor * (1 - 1e-9)) {
                emit(ctx, rep_i[gi], rep_j[gi], gcnt[gi], &v);
                continue;
            }
            /* pair by pair */
            for (uint32_t i = (uint32_t)i0; i != SN_NONE && rc == SN_OK;
                 i = grp[i] != SN_NONE ? gnext[i] : SN_NONE) {
                size_t nn = near_list(fn, nodes, i, &near_of, nhead, nnext,
                                      &near, &near_cap);
                for (uint32_t j = gfirst[gi]; j != SN_NONE && rc == SN_OK;
                     j = gnext[j]) {
                    bool is_near = false;
                    for (size_t q = 0; q < nn && !is_near; q++)
                        is_near = near[q] == j;
                    if (is_near)
                        continue;
                    rc = sn__flow_pair(fn, nodes[i], nodes[j], &v, err);
                    if (!rc)
                        emit(ctx, i, j, 1, &v);
                }
            }
        }
    }
    hfree(&gidx);
    hfree(&near_of);
    free(grp);
    free(sgrp);
    free(gnext);
    free(gfirst);
    free(gcount);
    free(glast);
    free(gin);
    free(inlat);
    free(out_lo);
    free(out_hi);
    free(in_dev);
    free(out_lat);
    free(nhead);
    free(nnext);
    free(near);
    free(gsub);
    free(gcnt);
    free(rep_i);
    free(rep_j);
    free(sdone);
    return rc;
}
