/* flow-pairs.c: pair values of the flow engine: one pair alone, and every
 * ordered pair of a set of endpoints grouped into classes of equal
 * expectations (see flow-int.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flow-int.h"

/* ---- pairs --------------------------------------------------------------- */

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
                        size_t i, const struct near_index *ni, uint32_t **near,
                        size_t *near_cap)
{
    size_t nn = sn__flow_near_collect(fn, ni, nodes, i, near, near_cap);

    for (size_t a = 1; a < nn; a++)
        for (size_t b = a; b > 0 && (*near)[b - 1] > (*near)[b]; b--) {
            uint32_t tmp = (*near)[b];
            (*near)[b] = (*near)[b - 1];
            (*near)[b - 1] = tmp;
        }
    return nn;
}

/* Every ordered pair grouped: groups of endpoints interchangeable at
 * either end of a far pair (the same scale-out profile, in pieces from
 * its exits and way out with equal values), the near index, and per
 * source group the pairs counted per destination group. Wire latencies
 * differ by a few nanoseconds per metre of cable and are kept apart:
 * their spread per group bounds how far a pair's latency can be from the
 * group's example. */
struct pgroups {
    struct sn_flownet *fn;
    const uint32_t *nodes;
    size_t n;
    double lat_floor;
    sn__pair_emit emit;
    void *ctx;
    struct hmap gidx;         /* group signature -> group */
    uint32_t *grp;            /* per endpoint: its group or SN_NONE */
    uint32_t *sgrp;           /* per endpoint: its source group */
    uint32_t *gnext;          /* per endpoint: next member, rank order */
    uint32_t *gfirst, *glast; /* per group: first and last member */
    uint32_t *gcount;         /* per group: members */
    uint32_t *gin;            /* per group: its in latencies in inlat */
    double *out_lo, *out_hi;  /* per group: range of way-out latency */
    double *in_dev;           /* per group: largest in-latency deviation */
    double *inlat;            /* per group exit: in piece latency */
    double *out_lat;          /* per endpoint: way-out latency */
    size_t ng, g_cap, nsg, nin, nin_cap;
    struct near_index near;
    uint32_t *nearl;
    size_t near_cap;
    uint32_t *gsub;          /* per group: near members of a source */
    uint64_t *gcnt;          /* per group: far pairs of a source group */
    uint32_t *rep_i, *rep_j; /* per group: the example pair */
    bool *sdone;             /* per source group: gone through */
};

/* A new group gi whose first member is i. */
static uint32_t pg_new_group(struct pgroups *pg, size_t i, uint32_t nexit)
{
    uint32_t gi = (uint32_t)pg->ng++;

    if (pg->ng > pg->g_cap) {
        SN_GROW(pg->gfirst, pg->g_cap, pg->ng);
        pg->gcount = sn_xrealloc(pg->gcount, pg->g_cap * sizeof(uint32_t));
        pg->glast = sn_xrealloc(pg->glast, pg->g_cap * sizeof(uint32_t));
        pg->gin = sn_xrealloc(pg->gin, pg->g_cap * sizeof(uint32_t));
        pg->out_lo = sn_xrealloc(pg->out_lo, pg->g_cap * sizeof(double));
        pg->out_hi = sn_xrealloc(pg->out_hi, pg->g_cap * sizeof(double));
        pg->in_dev = sn_xrealloc(pg->in_dev, pg->g_cap * sizeof(double));
    }
    pg->gfirst[gi] = (uint32_t)i;
    pg->glast[gi] = (uint32_t)i;
    pg->gcount[gi] = 0;
    pg->gin[gi] = (uint32_t)pg->nin;
    pg->nin += nexit;
    pg->out_lo[gi] = pg->out_hi[gi] = pg->out_lat[i];
    pg->in_dev[gi] = 0;
    return gi;
}

/* Endpoint i joins group gi (nexit exits): its in latencies, staged at
 * inlat[nin], widen the group's deviation and its way out the range. */
static void pg_join_group(struct pgroups *pg, size_t i, uint32_t gi,
                          uint32_t nexit)
{
    double dev = 0;

    assert(gi < pg->ng && pg->glast[gi] < i);
    for (uint32_t e = 0; e < nexit; e++) {
        double d = fabs(pg->inlat[pg->nin + e] - pg->inlat[pg->gin[gi] + e]);
        dev = d > dev ? d : dev;
    }
    pg->gnext[pg->glast[gi]] = (uint32_t)i;
    pg->glast[gi] = (uint32_t)i;
    if (dev > pg->in_dev[gi])
        pg->in_dev[gi] = dev;
    if (pg->out_lat[i] < pg->out_lo[gi])
        pg->out_lo[gi] = pg->out_lat[i];
    if (pg->out_lat[i] > pg->out_hi[gi])
        pg->out_hi[gi] = pg->out_lat[i];
}

/* Put endpoint i in its group by the signature of its scale-out profile,
 * its in pieces and its way out; endpoints without a scale-out profile
 * stay out of every group. */
static void pg_group(struct pgroups *pg, size_t i)
{
    struct sn_flownet *fn = pg->fn;
    uint32_t ep = sn__flow_lmap(fn, pg->nodes[i]), p, gi;
    const struct prof *pr;
    uint64_t h;
    bool alone;

    pg->grp[i] = SN_NONE;
    pg->gnext[i] = SN_NONE;
    pg->out_lat[i] = 0;
    p = fn->lm[ep].prof[SN_LINK_SCALE_OUT];
    if (p == SN_NONE)
        return;
    pr = &fn->pr[p];
    h = sn_hash64(&p, sizeof(p), 99);
    SN_GROW(pg->inlat, pg->nin_cap, pg->nin + pr->n + 1);
    for (uint32_t e = 0; e < pr->n; e++) {
        uint32_t ip = sn__flow_in_piece(fn, fn->px[pr->off + e].node,
                                        SN_LINK_SCALE_OUT, pg->nodes[i]);
        const struct seg *g = &fn->sg[ip];
        uint32_t cap_ld = g->bneck_ld == SN_NONE ? 0 : 1;
        h = sn_hash64(&g->bneck, sizeof(g->bneck), h);
        h = sn_hash64(&cap_ld, sizeof(cap_ld), h);
        h = sn_hash64(&g->n, sizeof(g->n), h);
        pg->inlat[pg->nin + e] = g->lat;
    }
    h = sn_hash64(&h, sizeof(h),
                  out_sig(fn, pg->nodes[i], &pg->out_lat[i], &alone));
    gi = alone ? SN_NONE : hget(&pg->gidx, h);
    if (gi == SN_NONE) {
        gi = pg_new_group(pg, i, pr->n);
        if (!alone)
            hput(&pg->gidx, h, gi);
    } else {
        pg_join_group(pg, i, gi, pr->n);
    }
    pg->grp[i] = gi;
    pg->gcount[gi]++;
}

/* Group every endpoint, index the near pairs, and number the source
 * groups: a group, or an endpoint alone without a scale-out way. */
static void pg_index(struct pgroups *pg)
{
    size_t n = pg->n;

    pg->grp = sn_xmalloc((n + 1) * sizeof(uint32_t));
    pg->sgrp = sn_xmalloc((n + 1) * sizeof(uint32_t));
    pg->gnext = sn_xmalloc((n + 1) * sizeof(uint32_t));
    pg->out_lat = sn_xmalloc((n + 1) * sizeof(double));
    sn__flow_near_init(&pg->near, n);
    for (size_t i = 0; i < n; i++) {
        pg_group(pg, i);
        sn__flow_near_add(pg->fn, &pg->near, pg->nodes, i);
    }
    pg->nsg = pg->ng;
    for (size_t i = 0; i < n; i++)
        pg->sgrp[i] = pg->grp[i] != SN_NONE ? pg->grp[i] : (uint32_t)pg->nsg++;
    pg->gsub = sn_xcalloc(pg->ng + 1, sizeof(uint32_t));
    pg->gcnt = sn_xcalloc(pg->ng + 1, sizeof(uint64_t));
    pg->rep_i = sn_xmalloc((pg->ng + 1) * sizeof(uint32_t));
    pg->rep_j = sn_xmalloc((pg->ng + 1) * sizeof(uint32_t));
    pg->sdone = sn_xcalloc(pg->nsg + 1, sizeof(bool));
}

/* Is j among the nn near endpoints in pg->nearl? */
static bool pg_is_near(const struct pgroups *pg, size_t nn, uint32_t j)
{
    for (size_t q = 0; q < nn; q++)
        if (pg->nearl[q] == j)
            return true;
    return false;
}

/* Member i of the source group: its near pairs emitted one by one, its
 * far pairs counted per destination group, and the example pair of each
 * group it is the first member to reach: the smallest in rank order. */
static int pg_member(struct pgroups *pg, uint32_t i, struct sn_error *err)
{
    size_t nn =
        near_list(pg->fn, pg->nodes, i, &pg->near, &pg->nearl, &pg->near_cap);
    int rc = SN_OK;

    for (size_t q = 0; q < nn; q++) {
        struct sn__pairval v;
        uint32_t j = pg->nearl[q];
        if (pg->grp[j] != SN_NONE)
            pg->gsub[pg->grp[j]]++;
        if (j == i)
            continue;
        rc = sn__flow_pair(pg->fn, pg->nodes[i], pg->nodes[j], &v, err);
        if (rc)
            return rc;
        pg->emit(pg->ctx, i, j, 1, &v);
    }
    for (size_t gi = 0; gi < pg->ng; gi++) {
        uint32_t cnt = pg->gcount[gi] - pg->gsub[gi], j = pg->gfirst[gi];
        assert(pg->gsub[gi] <= pg->gcount[gi]);
        if (!cnt)
            continue;
        pg->gcnt[gi] += cnt;
        if (pg->rep_i[gi] != SN_NONE)
            continue;
        while (j != SN_NONE && pg_is_near(pg, nn, j))
            j = pg->gnext[j];
        /* cnt > 0: some member of gi is far from i */
        assert(j != SN_NONE);
        pg->rep_i[gi] = i;
        pg->rep_j[gi] = j;
    }
    for (size_t q = 0; q < nn; q++)
        if (pg->grp[pg->nearl[q]] != SN_NONE)
            pg->gsub[pg->grp[pg->nearl[q]]] = 0;
    return SN_OK;
}

/* The far pairs from the source group of i0 into group gi one by one:
 * for a block whose wire latencies could reach lat_floor. */
static int pg_pair_by_pair(struct pgroups *pg, size_t i0, size_t gi,
                           struct sn_error *err)
{
    int rc = SN_OK;

    for (uint32_t i = (uint32_t)i0; i != SN_NONE && rc == SN_OK;
         i = pg->grp[i] != SN_NONE ? pg->gnext[i] : SN_NONE) {
        size_t nn = near_list(pg->fn, pg->nodes, i, &pg->near, &pg->nearl,
                              &pg->near_cap);
        for (uint32_t j = pg->gfirst[gi]; j != SN_NONE && rc == SN_OK;
             j = pg->gnext[j]) {
            struct sn__pairval v;
            if (pg_is_near(pg, nn, j))
                continue;
            rc = sn__flow_pair(pg->fn, pg->nodes[i], pg->nodes[j], &v, err);
            if (!rc)
                pg->emit(pg->ctx, i, j, 1, &v);
        }
    }
    return rc;
}

/* The source group of i0 (its first member in rank order): near pairs one
 * by one, far pairs summed per destination group over the members, one
 * pair standing for each sum, so the class examples do not depend on the
 * grouping. When the wire latencies of the block could reach lat_floor
 * (the pair latency is the larger of the two), the block is gone through
 * pair by pair instead. */
static int pg_source(struct pgroups *pg, size_t i0, struct sn_error *err)
{
    uint32_t a = pg->sgrp[i0];
    int rc = SN_OK;

    for (size_t gi = 0; gi < pg->ng; gi++) {
        pg->gcnt[gi] = 0;
        pg->rep_i[gi] = SN_NONE;
    }
    for (uint32_t i = (uint32_t)i0; i != SN_NONE && rc == SN_OK;
         i = pg->grp[i] != SN_NONE ? pg->gnext[i] : SN_NONE)
        rc = pg_member(pg, i, err);
    for (size_t gi = 0; gi < pg->ng && rc == SN_OK; gi++) {
        struct sn__pairval v;
        double spread;
        if (!pg->gcnt[gi])
            continue;
        rc = sn__flow_pair(pg->fn, pg->nodes[pg->rep_i[gi]],
                           pg->nodes[pg->rep_j[gi]], &v, err);
        if (rc)
            break;
        spread = 2 * pg->in_dev[gi] +
                 (a < pg->ng ? pg->out_hi[a] - pg->out_lo[a] : 0);
        if (spread == 0 || v.latency + spread < pg->lat_floor * (1 - 1e-9)) {
            pg->emit(pg->ctx, pg->rep_i[gi], pg->rep_j[gi], pg->gcnt[gi], &v);
            continue;
        }
        rc = pg_pair_by_pair(pg, i0, gi, err);
    }
    return rc;
}

static void pg_release(struct pgroups *pg)
{
    hfree(&pg->gidx);
    sn__flow_near_release(&pg->near);
    free(pg->grp);
    free(pg->sgrp);
    free(pg->gnext);
    free(pg->gfirst);
    free(pg->gcount);
    free(pg->glast);
    free(pg->gin);
    free(pg->inlat);
    free(pg->out_lo);
    free(pg->out_hi);
    free(pg->in_dev);
    free(pg->out_lat);
    free(pg->nearl);
    free(pg->gsub);
    free(pg->gcnt);
    free(pg->rep_i);
    free(pg->rep_j);
    free(pg->sdone);
}

int sn__flow_pairs_grouped(struct sn_flownet *fn, const uint32_t *nodes,
                           size_t n, double lat_floor, sn__pair_emit emit,
                           void *ctx, struct sn_error *err)
{
    struct pgroups pg = {.fn = fn,
                         .nodes = nodes,
                         .n = n,
                         .lat_floor = lat_floor,
                         .emit = emit,
                         .ctx = ctx};
    int rc = SN_OK;

    pg_index(&pg);
    /* one source group at a time, from its first member in rank order */
    for (size_t i0 = 0; i0 < n && rc == SN_OK; i0++) {
        if (pg.sdone[pg.sgrp[i0]])
            continue;
        pg.sdone[pg.sgrp[i0]] = true;
        rc = pg_source(&pg, i0, err);
    }
    pg_release(&pg);
    return rc;
}
