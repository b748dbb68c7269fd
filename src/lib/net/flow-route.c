/* flow-route.c: routes of the flow engine: fabric distances, the out,
 * fabric and in pieces a route is cut into, halves shared by every
 * destination with the same exits, and whole routes (see flow-int.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flow-int.h"

/* ---- fabric distances ---------------------------------------------------- */

/* Hops from every fabric node of b's component to b inside class cls,
 * by BFS over fabric-to-fabric links of that class; indexed by the nodes'
 * index inside the component. Returns the tree id. */
static uint32_t tree_get(struct sn_flownet *fn, uint32_t b, int cls)
{
    const struct sn_topo *t = fn->t;
    uint64_t key = (uint64_t)b << 2 | (uint64_t)cls;
    uint32_t id = hget(&fn->tree_of, key), fb, comp;
    uint16_t *d;
    size_t head = 0, tail = 0;

    if (id != SN_NONE)
        return id;
    fb = fn->fidx[b];
    comp = fb == SN_NONE ? SN_NONE : fn->fcomp[fb];
    d = sn_xmalloc(((comp == SN_NONE ? 0 : fn->fcsize[comp]) + 1) *
                   sizeof(uint16_t));
    if (comp != SN_NONE) {
        for (uint32_t i = 0; i < fn->fcsize[comp]; i++)
            d[i] = FAB_INF;
        d[fn->flocal[fb]] = 0;
        fn->bfs[tail++] = b;
    }
    while (head < tail) {
        uint32_t u = fn->bfs[head++];
        uint16_t du = d[fn->flocal[fn->fidx[u]]];
        if (du + 1 >= FAB_INF)
            continue;
        for (uint32_t a = t->adj_off[u]; a < t->adj_off[u + 1]; a++) {
            const struct sn_link *l = &t->links[t->adj[a]];
            uint32_t w = other_end(l, u), fw;
            if (!fabric_link(fn, l, w, cls))
                continue;
            fw = fn->flocal[fn->fidx[w]];
            if (d[fw] != FAB_INF)
                continue;
            d[fw] = (uint16_t)(du + 1);
            fn->bfs[tail++] = w;
        }
    }
    SN_GROW(fn->tree, fn->tree_cap, fn->ntree + 1);
    id = (uint32_t)fn->ntree++;
    fn->tree[id] = d;
    hput(&fn->tree_of, key, id);
    return id;
}

/* Cost from fabric node x to the endpoint of profile p (INF32 if none). */
uint32_t sn__flow_prof_dist(struct sn_flownet *fn, uint32_t p, uint32_t x)
{
    const struct prof *pr = &fn->pr[p];
    uint32_t best = INF32, fx = fn->fidx[x];

    if (fx == SN_NONE)
        return INF32;
    for (uint32_t i = 0; i < pr->n; i++) {
        const struct pexit *e = &fn->px[pr->off + i];
        uint32_t fe = fn->fidx[e->node], tid;
        uint16_t h;
        if (fe == SN_NONE || fn->fcomp[fe] != fn->fcomp[fx])
            continue;
        if (e->node == x) {
            /* at the exit itself: no tree needed */
            if (e->h < best)
                best = e->h;
            continue;
        }
        tid = fn->pxtree[pr->off + i];
        if (tid == SN_NONE) {
            tid = tree_get(fn, e->node, pr->cls);
            fn->pxtree[pr->off + i] = tid;
        }
        h = fn->tree[tid][fn->flocal[fx]];
        if (h != FAB_INF && h + e->h < best)
            best = h + e->h;
    }
    return best;
}

/* prof_dist through a memo valid for one walk (dist_begin). */
void sn__flow_dist_begin(struct sn_flownet *fn)
{
    fn->dgen++;
    if (fn->dgen == 0) {
        memset(fn->dmark, 0, (fn->nfab + 1) * sizeof(uint32_t));
        fn->dgen = 1;
    }
}

uint32_t sn__flow_dist_memo(struct sn_flownet *fn, uint32_t p, uint32_t x)
{
    uint32_t fx = fn->fidx[x];

    if (fx == SN_NONE)
        return INF32;
    if (fn->dmark[fx] != fn->dgen) {
        fn->dmark[fx] = fn->dgen;
        fn->dmemo[fx] = sn__flow_prof_dist(fn, p, x);
    }
    return fn->dmemo[fx];
}

bool sn__flow_fabric_down(struct sn_flownet *fn, uint32_t p, int cls,
                          const struct sn_link *l, uint32_t w, uint32_t du)
{
    return fabric_link(fn, l, w, cls) && sn__flow_dist_memo(fn, p, w) + 1 == du;
}

uint32_t sn__flow_fabric_fanout(struct sn_flownet *fn, uint32_t p, int cls,
                                uint32_t u, uint32_t du)
{
    const struct sn_topo *t = fn->t;
    uint32_t nf = 0;

    for (uint32_t a = t->adj_off[u]; a < t->adj_off[u + 1]; a++) {
        const struct sn_link *l = &t->links[t->adj[a]];
        nf += sn__flow_fabric_down(fn, p, cls, l, other_end(l, u), du);
    }
    return nf;
}

/* ---- pieces -------------------------------------------------------------- */

static uint32_t seg_begin(struct sn_flownet *fn)
{
    SN_GROW(fn->sg, fn->sg_cap, fn->nsg + 1);
    memset(&fn->sg[fn->nsg], 0, sizeof(struct seg));
    fn->sg[fn->nsg].off = (uint32_t)fn->ninc;
    fn->sg[fn->nsg].aoff = (uint32_t)fn->nar;
    fn->sg[fn->nsg].bneck = INFINITY;
    fn->sg[fn->nsg].bneck_ld = SN_NONE;
    return (uint32_t)fn->nsg++;
}

static void seg_inc(struct sn_flownet *fn, uint32_t s, uint32_t ld,
                    double share)
{
    struct seg *g = &fn->sg[s];
    double r;

    if (fn->ninc + 1 > fn->inc_cap) {
        SN_GROW(fn->inc_ld, fn->inc_cap, fn->ninc + 1);
        fn->inc_sh = sn_xrealloc(fn->inc_sh, fn->inc_cap * sizeof(double));
    }
    fn->inc_ld[fn->ninc] = ld;
    fn->inc_sh[fn->ninc] = share;
    fn->ninc++;
    g->n++;
    r = share > 0 ? fn->cap[ld] / share : INFINITY;
    if (r < g->bneck || (r == g->bneck && ld < g->bneck_ld)) {
        g->bneck = r;
        g->bneck_ld = ld;
    }
}

static void seg_arrive(struct sn_flownet *fn, uint32_t s, uint32_t key,
                       double w, double lat)
{
    struct seg *g = &fn->sg[s];

    for (uint32_t i = 0; i < g->an; i++) {
        struct arrival *a = &fn->ar[g->aoff + i];
        if (a->key == key) {
            a->lat = (a->lat * a->w + lat * w) / (a->w + w);
            a->w += w;
            return;
        }
    }
    SN_GROW(fn->ar, fn->ar_cap, fn->nar + 1);
    fn->ar[fn->nar++] = (struct arrival){key, w, lat};
    g->an++;
}

/* The state (an index into lmap m) that link l leads to from state st
 * of m on a shortest route of m's host side, or SN_NONE. */
static uint32_t out_next(const struct sn_flownet *fn, const struct lmap *m,
                         const struct lstate *st, const struct sn_link *l,
                         bool root_fab)
{
    uint32_t j;

    if (!(l->health > 0))
        return SN_NONE;
    if (st->kind == LS_ROOT) {
        if (root_fab && l->cls == SN_LINK_SCALE_UP)
            return SN_NONE;
    } else if (!sn__topo_forwards(fn->t, st->node, st->cls, l->cls)) {
        return SN_NONE;
    }
    j = lstate_find(fn, other_end(l, st->node), l->cls);
    if (j == SN_NONE || fn->st[j].dist != st->dist + sn__topo_link_cost(l))
        return SN_NONE;
    assert(j >= m->off && j - m->off < m->n);
    return j - m->off;
}

/* The out piece of lmap mi toward a set of targets: states (absolute
 * indices) with their remaining cost. All targets have the same total
 * cost; traffic splits per hop over the links that stay on a shortest
 * route to one of them. Arrivals are keyed by target state index. */
static uint32_t out_piece(struct sn_flownet *fn, uint32_t mi,
                          const uint32_t *tgt, const uint32_t *tail,
                          size_t ntgt)
{
    const struct sn_topo *t = fn->t;
    const struct lmap *m = &fn->lm[mi];
    uint32_t n = m->n, s;
    uint32_t *togo = sn_xmalloc((n + 1) * sizeof(uint32_t));
    double *w = sn_xcalloc(n + 1, sizeof(double));
    double *lat = sn_xcalloc(n + 1, sizeof(double));
    bool root_fab = t->nodes[m->root].kind == SN_NODE_ACCEL &&
                    is_fabric_for(t, m->root, SN_LINK_SCALE_UP);

    sn__flow_lmap_index(fn, m);
    for (uint32_t i = 0; i < n; i++)
        togo[i] = INF32;
    for (size_t i = 0; i < ntgt; i++) {
        /* targets are states of m */
        assert(tgt[i] >= m->off && tgt[i] - m->off < n);
        togo[tgt[i] - m->off] = tail[i];
    }
    /* remaining cost, in reverse settle order over shortest-path links */
    for (uint32_t ii = n; ii-- > 0;) {
        const struct lstate *st = &fn->st[m->off + ii];
        if (st->kind != LS_ROOT && st->kind != LS_PASS)
            continue;
        for (uint32_t a = t->adj_off[st->node]; a < t->adj_off[st->node + 1];
             a++) {
            const struct sn_link *l = &t->links[t->adj[a]];
            uint32_t j = out_next(fn, m, st, l, root_fab);
            if (j == SN_NONE)
                continue;
            if (togo[j] != INF32 && togo[j] + sn__topo_link_cost(l) < togo[ii])
                togo[ii] = togo[j] + sn__topo_link_cost(l);
        }
    }
    s = seg_begin(fn);
    w[0] = 1;
    for (uint32_t ii = 0; ii < n; ii++) {
        const struct lstate *st = &fn->st[m->off + ii];
        uint32_t nnext = 0;
        bool target = false;
        if (w[ii] <= 0)
            continue;
        for (size_t k = 0; k < ntgt; k++)
            target |= tgt[k] == m->off + ii;
        if (target) {
            seg_arrive(fn, s, m->off + ii, w[ii], lat[ii]);
            continue;
        }
        if (st->kind == LS_ENTRY && st->node == m->root) {
            continue; /* the root's own fabric entry, not a target here */
        }
        for (int pass = 0; pass < 2; pass++) {
            for (uint32_t a = t->adj_off[st->node];
                 a < t->adj_off[st->node + 1]; a++) {
                uint32_t id = t->adj[a];
                const struct sn_link *l = &t->links[id];
                uint32_t j = out_next(fn, m, st, l, root_fab);
                if (j == SN_NONE || togo[j] == INF32 ||
                    togo[j] + sn__topo_link_cost(l) != togo[ii])
                    continue;
                if (pass == 0) {
                    nnext++;
                } else {
                    double f = w[ii] / nnext;
                    double nl = lat[ii] + fn->lat[id];
                    seg_inc(fn, s, ld_of(l, id, st->node), f);
                    lat[j] = (lat[j] * w[j] + nl * f) / (w[j] + f);
                    w[j] += f;
                }
            }
            if (!nnext)
                break;
        }
    }
    /* the root as its own entry (transit accelerators) */
    for (size_t k = 0; k < ntgt; k++) {
        const struct lstate *st = &fn->st[tgt[k]];
        if (st->kind == LS_ENTRY && st->node == m->root)
            seg_arrive(fn, s, tgt[k], 1.0, 0);
    }
    free(togo);
    free(w);
    free(lat);
    return s;
}

/* The fabric piece from entry a (class cls) toward the exits of profile
 * p. Arrivals are keyed by exit node. */
static uint32_t fab_piece(struct sn_flownet *fn, uint32_t a, int cls,
                          uint32_t p)
{
    const struct sn_topo *t = fn->t;
    uint64_t key = ((uint64_t)a << 2 | (uint64_t)cls) << 32 | p;
    uint32_t s = hget(&fn->fab_of, key);
    uint32_t *level = NULL, *next = NULL;
    size_t nlevel = 0, nnext = 0, level_cap = 0, next_cap = 0;
    const struct prof *pr;

    if (s != SN_NONE)
        return s;
    pr = &fn->pr[p];
    s = seg_begin(fn);
    sn__flow_dist_begin(fn);
    fn->fab_gen++;
    if (fn->fab_gen == 0) {
        memset(fn->fab_mark, 0, (fn->nfab + 1) * sizeof(uint32_t));
        fn->fab_gen = 1;
    }
    SN_GROW(level, level_cap, 1);
    level[nlevel++] = a;
    fn->fab_mark[fn->fidx[a]] = fn->fab_gen;
    fn->fab_w[fn->fidx[a]] = 1;
    fn->fab_lat[fn->fidx[a]] = 0;
    while (nlevel) {
        uint32_t gen_next = fn->fab_gen + 1;
        nnext = 0;
        for (size_t i = 0; i < nlevel; i++) {
            uint32_t u = level[i], fu = fn->fidx[u];
            uint32_t du = sn__flow_dist_memo(fn, p, u), k_exit = 0, nf = 0,
                     total;
            double wu = fn->fab_w[fu], lu = fn->fab_lat[fu];
            uint32_t hmin = INF32;
            for (uint32_t e = 0; e < pr->n; e++) {
                const struct pexit *x = &fn->px[pr->off + e];
                if (x->node == u && x->h == du)
                    k_exit = x->k;
                if (x->h < hmin)
                    hmin = x->h;
            }
            /* no fabric hop leads below the cheapest exit's own cost */
            if (du > hmin)
                nf = sn__flow_fabric_fanout(fn, p, cls, u, du);
            total = k_exit + nf;
            if (!total)
                continue;
            if (k_exit)
                seg_arrive(fn, s, u, wu * k_exit / total, lu);
            for (uint32_t ai = t->adj_off[u]; nf && ai < t->adj_off[u + 1];
                 ai++) {
                uint32_t id = t->adj[ai];
                const struct sn_link *l = &t->links[id];
                uint32_t w = other_end(l, u), fw;
                double f, nl;
                if (!sn__flow_fabric_down(fn, p, cls, l, w, du))
                    continue;
                f = wu / total;
                nl = lu + fn->lat[id];
                seg_inc(fn, s, ld_of(l, id, u), f);
                fw = fn->fidx[w];
                if (fn->fab_mark[fw] != gen_next) {
                    fn->fab_mark[fw] = gen_next;
                    fn->fab_w[fw] = 0;
                    fn->fab_lat[fw] = 0;
                    SN_GROW(next, next_cap, nnext + 1);
                    next[nnext++] = w;
                }
                fn->fab_lat[fw] = (fn->fab_lat[fw] * fn->fab_w[fw] + nl * f) /
                                  (fn->fab_w[fw] + f);
                fn->fab_w[fw] += f;
            }
        }
        fn->fab_gen = gen_next;
        {
            uint32_t *tmp = level;
            size_t tcap = level_cap;
            level = next;
            level_cap = next_cap;
            next = tmp;
            next_cap = tcap;
            nlevel = nnext;
        }
    }
    free(level);
    free(next);
    hput(&fn->fab_of, key, s);
    return s;
}

/* The in piece from exit b (class cls) to endpoint d: d's host side
 * walked from the fabric inwards. */
uint32_t sn__flow_in_piece(struct sn_flownet *fn, uint32_t b, int cls,
                           uint32_t d)
{
    const struct sn_topo *t = fn->t;
    uint64_t key = ((uint64_t)b << 2 | (uint64_t)cls) << 32 | d;
    uint32_t s = hget(&fn->in_of, key);
    uint32_t mi;
    const struct lmap *m;
    /* walk states: node, arriving class, cost to d, share, latency */
    struct wst {
        uint32_t node, togo;
        int cls;
        double w, lat;
    } *ws = NULL;
    size_t nws = 0, ws_cap = 0;
    double lat_sum = 0, w_sum = 0;

    if (s != SN_NONE)
        return s;
    mi = sn__flow_lmap(fn, d);
    m = &fn->lm[mi];
    sn__flow_lmap_index(fn, m);
    s = seg_begin(fn);
    if (b == d) {
        seg_arrive(fn, s, d, 1.0, 0);
        hput(&fn->in_of, key, s);
        return s;
    }
    {
        uint32_t j = lstate_find(fn, b, cls);
        SN_GROW(ws, ws_cap, 1);
        ws[0] =
            (struct wst){b, j == SN_NONE ? INF32 : fn->st[j].dist, cls, 1.0, 0};
        nws = 1;
    }
    /* process states in decreasing cost to d: costs fall along every
     * shortest-route link, so the largest unprocessed one is final */
    for (;;) {
        size_t bi = SIZE_MAX;
        struct wst cur;
        uint32_t nnext = 0;
        for (size_t i = 0; i < nws; i++)
            if (ws[i].w > 0 && ws[i].node != d &&
                (bi == SIZE_MAX || ws[i].togo > ws[bi].togo))
                bi = i;
        if (bi == SIZE_MAX)
            break;
        cur = ws[bi];
        ws[bi].w = 0;
        for (int pass = 0; pass < 2; pass++) {
            for (uint32_t a = t->adj_off[cur.node];
                 a < t->adj_off[cur.node + 1]; a++) {
                uint32_t id = t->adj[a];
                const struct sn_link *l = &t->links[id];
                uint32_t x = other_end(l, cur.node), tx = INF32;
                if (!(l->health > 0) ||
                    !sn__topo_forwards(t, cur.node, cur.cls, l->cls))
                    continue;
                if (x == d) {
                    tx = 0;
                } else if (is_pass(t, x)) {
                    /* cost from x onwards: leave over any class x may
                     * forward to, as d's search reached x */
                    for (int c = 0; c < NCLS; c++) {
                        uint32_t j = lstate_find(fn, x, c);
                        if (j != SN_NONE &&
                            sn__topo_forwards(t, x, l->cls, c) &&
                            fn->st[j].dist < tx)
                            tx = fn->st[j].dist;
                    }
                } else {
                    continue;
                }
                if (tx == INF32 || tx + sn__topo_link_cost(l) != cur.togo)
                    continue;
                if (pass == 0) {
                    nnext++;
                    continue;
                }
                {
                    double f = cur.w / nnext, nl = cur.lat + fn->lat[id];
                    size_t k;
                    seg_inc(fn, s, ld_of(l, id, cur.node), f);
                    if (x == d) {
                        lat_sum += nl * f;
                        w_sum += f;
                        continue;
                    }
                    for (k = 0; k < nws; k++)
                        if (ws[k].node == x && ws[k].cls == l->cls)
                            break;
                    if (k == nws) {
                        SN_GROW(ws, ws_cap, nws + 1);
                        ws[nws++] = (struct wst){x, tx, l->cls, 0, 0};
                    }
                    ws[k].lat = (ws[k].lat * ws[k].w + nl * f) / (ws[k].w + f);
                    ws[k].w += f;
                }
            }
            if (!nnext)
                break;
        }
    }
    free(ws);
    fn->sg[s].lat = w_sum > 0 ? lat_sum / w_sum : 0;
    seg_arrive(fn, s, d, w_sum, fn->sg[s].lat);
    hput(&fn->in_of, key, s);
    return s;
}

/* ---- halves and routes --------------------------------------------------- */

static uint32_t half_begin(struct sn_flownet *fn)
{
    SN_GROW(fn->hf, fn->hf_cap, fn->nhf + 1);
    memset(&fn->hf[fn->nhf], 0, sizeof(struct half));
    fn->hf[fn->nhf].soff = (uint32_t)fn->nhs;
    fn->hf[fn->nhf].xoff = (uint32_t)fn->nhx;
    fn->hf[fn->nhf].cost = INF32;
    return (uint32_t)fn->nhf++;
}

static void half_piece(struct sn_flownet *fn, uint32_t h, uint32_t s, double w)
{
    if (fn->nhs + 1 > fn->hs_cap) {
        SN_GROW(fn->hseg, fn->hs_cap, fn->nhs + 1);
        fn->hw = sn_xrealloc(fn->hw, fn->hs_cap * sizeof(double));
    }
    fn->hseg[fn->nhs] = s;
    fn->hw[fn->nhs] = w;
    fn->nhs++;
    fn->hf[h].sn++;
}

static void half_exit(struct sn_flownet *fn, uint32_t h, uint32_t node, int cls,
                      double u, double lat)
{
    struct half *hf = &fn->hf[h];

    for (uint32_t i = 0; i < hf->xn; i++) {
        struct hexit *x = &fn->hx[hf->xoff + i];
        if (x->node == node && x->cls == cls) {
            x->lat = (x->lat * x->u + lat * u) / (x->u + u);
            x->u += u;
            return;
        }
    }
    SN_GROW(fn->hx, fn->hx_cap, fn->nhx + 1);
    fn->hx[fn->nhx++] = (struct hexit){node, (uint8_t)cls, u, lat};
    hf->xn++;
}

/* The out piece of lmap mi toward target states (absolute indices) with
 * their remaining costs, cached by s and the set of target states (their
 * remaining costs follow from the set: all targets end on the best cost);
 * pieces that end at the destination itself are not shared. */
uint32_t sn__flow_out_cached(struct sn_flownet *fn, uint32_t mi, uint32_t off,
                             const uint32_t *tgt, const uint32_t *tail,
                             size_t ntgt)
{
    uint64_t key = sn_hash64(&mi, sizeof(mi), 0x0b);
    bool local = false;
    uint32_t out;

    for (size_t i = 0; i < ntgt; i++) {
        uint32_t rel = tgt[i] - off;
        key = sn_hash64(&rel, sizeof(rel), key);
        local |= fn->st[tgt[i]].kind == LS_END;
    }
    out = local ? SN_NONE : hget(&fn->out_of, key);
    if (out == SN_NONE) {
        out = out_piece(fn, mi, tgt, tail, ntgt);
        if (!local)
            hput(&fn->out_of, key, out);
    }
    return out;
}

/* The targets of lmap mi toward profile p of class cls: the entries on a
 * best route and their remaining costs. Returns the best cost (INF32 when
 * none reaches). */
uint32_t sn__flow_class_targets(struct sn_flownet *fn, uint32_t mi, uint32_t p,
                                uint32_t *tgt, uint32_t *tail, size_t *ntgt)
{
    const struct lmap *m = &fn->lm[mi];
    int cls = fn->pr[p].cls;
    uint32_t best = INF32, tl[MAX_ENTRIES];
    uint32_t st[MAX_ENTRIES];
    size_t nc = 0;

    *ntgt = 0;
    for (uint32_t i = 0; i < m->n && nc < MAX_ENTRIES; i++) {
        const struct lstate *e = &fn->st[m->off + i];
        uint32_t t;
        if (e->kind != LS_ENTRY || e->cls != cls || e->dominated)
            continue;
        t = sn__flow_prof_dist(fn, p, e->node);
        if (t == INF32)
            continue;
        st[nc] = m->off + i;
        tl[nc] = t;
        nc++;
        if (e->dist + t < best)
            best = e->dist + t;
    }
    for (size_t i = 0; i < nc; i++)
        if (fn->st[st[i]].dist + tl[i] == best) {
            tgt[*ntgt] = st[i];
            tail[*ntgt] = tl[i];
            (*ntgt)++;
        }
    /* a transit accelerator sends on its own links when it is a target */
    for (size_t i = 0; i < *ntgt; i++)
        if (fn->st[tgt[i]].node == m->root) {
            tgt[0] = tgt[i];
            tail[0] = tail[i];
            *ntgt = 1;
            break;
        }
    return best;
}

/* Choose targets and build a half: for class routes (cls >= 0) toward
 * profile p; for pair routes (cls < 0) toward endpoint d through any
 * class or directly. Returns the half id. */
static uint32_t half_build(struct sn_flownet *fn, uint32_t mi, int cls,
                           uint32_t p, uint32_t dmi)
{
    const struct lmap *m = &fn->lm[mi];
    uint32_t tgt[MAX_ENTRIES + 1], tail[MAX_ENTRIES + 1];
    uint32_t cand_prof[MAX_ENTRIES + 1];
    size_t ntgt = 0;
    uint32_t best = INF32, h, out;
    uint32_t n = m->n, off = m->off;
    uint32_t d = dmi != SN_NONE ? fn->lm[dmi].root : SN_NONE;
    struct {
        uint32_t state, tail, prof;
    } cand[MAX_ENTRIES + 1];
    size_t ncand = 0;

    /* candidate targets and their remaining costs */
    for (uint32_t i = 0; i < n && ncand < MAX_ENTRIES; i++) {
        const struct lstate *e = &fn->st[off + i];
        uint32_t pe, tl;
        if (e->kind == LS_END && e->node == d && d != SN_NONE) {
            cand[ncand].state = off + i;
            cand[ncand].tail = 0;
            cand[ncand].prof = SN_NONE;
            ncand++;
            continue;
        }
        if (e->kind != LS_ENTRY || e->dominated)
            continue;
        if (cls >= 0) {
            if (e->cls != cls)
                continue;
            pe = p;
        } else {
            pe = fn->lm[dmi].prof[e->cls];
            if (pe == SN_NONE)
                continue;
        }
        tl = sn__flow_prof_dist(fn, pe, e->node);
        if (tl == INF32)
            continue;
        cand[ncand].state = off + i;
        cand[ncand].tail = tl;
        cand[ncand].prof = pe;
        ncand++;
    }
    for (size_t i = 0; i < ncand; i++) {
        uint32_t c = fn->st[cand[i].state].dist + cand[i].tail;
        if (c < best)
            best = c;
    }
    for (size_t i = 0; i < ncand; i++)
        if (fn->st[cand[i].state].dist + cand[i].tail == best) {
            tgt[ntgt] = cand[i].state;
            tail[ntgt] = cand[i].tail;
            cand_prof[ntgt] = cand[i].prof;
            ntgt++;
        }
    /* the root as its own scale-up entry takes all the traffic when it is
     * among the best: a transit accelerator sends on its own links */
    for (size_t i = 0; i < ntgt; i++)
        if (fn->st[tgt[i]].node == m->root) {
            tgt[0] = tgt[i];
            tail[0] = tail[i];
            cand_prof[0] = cand_prof[i];
            ntgt = 1;
            break;
        }
    h = half_begin(fn);
    if (best == INF32)
        return h;
    fn->hf[h].cost = best;
    out = sn__flow_out_cached(fn, mi, off, tgt, tail, ntgt);
    half_piece(fn, h, out, 1.0);
    {
        /* pieces built below may move fn->sg: keep indices, not pointers */
        uint32_t aoff = fn->sg[out].aoff, an = fn->sg[out].an;
        double lat_pre = 0;
        for (uint32_t i = 0; i < an; i++) {
            const struct arrival a = fn->ar[aoff + i];
            const struct lstate *e = &fn->st[a.key];
            uint32_t pe = SN_NONE;
            for (size_t k = 0; k < ntgt; k++)
                if (tgt[k] == a.key)
                    pe = cand_prof[k];
            lat_pre += a.w * a.lat;
            if (e->kind == LS_END) {
                fn->hf[h].w_local += a.w;
                fn->hf[h].lat_local = a.lat;
                continue;
            }
            {
                uint32_t enode = e->node;
                int ecls = e->cls;
                uint32_t fs = fab_piece(fn, enode, ecls, pe);
                uint32_t foff = fn->sg[fs].aoff, fan = fn->sg[fs].an;
                half_piece(fn, h, fs, a.w);
                for (uint32_t j = 0; j < fan; j++) {
                    const struct arrival b = fn->ar[foff + j];
                    half_exit(fn, h, b.key, ecls, a.w * b.w, a.lat + b.lat);
                }
            }
        }
        fn->hf[h].lat_pre = lat_pre;
    }
    return h;
}

/* The cost of the best route of lmap mi toward profile p, without
 * building it. */
static uint32_t class_cost(struct sn_flownet *fn, uint32_t mi, uint32_t p)
{
    const struct lmap *m = &fn->lm[mi];
    int cls = fn->pr[p].cls;
    uint32_t best = INF32;

    for (uint32_t i = 0; i < m->n; i++) {
        const struct lstate *e = &fn->st[m->off + i];
        uint32_t tl;
        if (e->kind != LS_ENTRY || e->cls != cls || e->dominated)
            continue;
        tl = sn__flow_prof_dist(fn, p, e->node);
        if (tl != INF32 && e->dist + tl < best)
            best = e->dist + tl;
    }
    return best;
}

uint32_t sn__flow_half_class(struct sn_flownet *fn, uint32_t mi, uint32_t p)
{
    uint64_t key = (uint64_t)mi << 32 | p;
    uint32_t h = hget(&fn->half_of, key);

    if (h == SN_NONE) {
        h = half_build(fn, mi, fn->pr[p].cls, p, SN_NONE);
        hput(&fn->half_of, key, h);
    }
    return h;
}

/* A route of explicit paths (sn_topo_paths), split evenly: for pairs the
 * cut at fabric entries does not describe. */
static int half_fallback(struct sn_flownet *fn, uint32_t s, uint32_t d,
                         uint32_t *out, struct sn_error *err)
{
    struct sn_path *paths = sn_xmalloc(FALLBACK_PATHS * sizeof(*paths));
    size_t np = 0;
    int rc = sn_topo_paths(fn->t, s, d, paths, FALLBACK_PATHS, &np, err);
    uint32_t h, sg;
    double lat = 0;

    if (rc == SN_OK && !np)
        rc = sn_error_set(err, SN_ENOTFOUND, "no route");
    if (rc) {
        free(paths);
        return rc;
    }
    h = half_begin(fn);
    sg = seg_begin(fn);
    /* accumulate shares per link direction before recording */
    fn->ld_gen++;
    if (fn->ld_gen == 0) {
        memset(fn->ld_mark, 0, (fn->nld + 1) * sizeof(uint32_t));
        fn->ld_gen = 1;
    }
    fn->ntouched = 0;
    for (size_t i = 0; i < np; i++) {
        uint32_t v = s;
        double pl = 0;
        for (uint32_t k = 0; k < paths[i].nhops; k++) {
            uint32_t id = paths[i].link[k];
            const struct sn_link *l = &fn->t->links[id];
            uint32_t ld = ld_of(l, id, v);
            if (fn->ld_mark[ld] != fn->ld_gen) {
                fn->ld_mark[ld] = fn->ld_gen;
                fn->ld_acc[ld] = 0;
                SN_GROW(fn->touched, fn->touched_cap, fn->ntouched + 1);
                fn->touched[fn->ntouched++] = ld;
            }
            fn->ld_acc[ld] += 1.0 / (double)np;
            pl += fn->lat[id];
            v = other_end(l, v);
        }
        lat += pl / (double)np;
    }
    for (size_t i = 0; i < fn->ntouched; i++)
        seg_inc(fn, sg, fn->touched[i], fn->ld_acc[fn->touched[i]]);
    half_piece(fn, h, sg, 1.0);
    fn->hf[h].cost = paths[0].nhops; /* hop count; cost is not compared */
    {
        uint32_t hosts = 0;
        for (uint32_t k = 0; k < paths[0].nhops; k++)
            hosts += fn->t->links[paths[0].link[k]].cls == SN_LINK_HOST;
        fn->hf[h].cost = hosts * HOST_COST + (paths[0].nhops - hosts);
    }
    fn->hf[h].w_local = 1.0;
    fn->hf[h].lat_local = lat;
    fn->hf[h].lat_pre = lat;
    free(paths);
    *out = h;
    return SN_OK;
}

/* The half that carries s -> d: a class half shared by every destination
 * with the same exits, or a pair half when d is on s's host side, ties
 * across classes or needs the fallback. */
static int half_for(struct sn_flownet *fn, uint32_t s, uint32_t d,
                    uint32_t *out, struct sn_error *err)
{
    uint32_t ms = sn__flow_lmap(fn, s), md = sn__flow_lmap(fn, d);
    uint32_t best = INF32, nbest = 0, hbest = SN_NONE, local = INF32;
    uint64_t pkey = (uint64_t)s << 32 | d;
    uint32_t h = hget(&fn->pair_of, pkey);

    if (h != SN_NONE) {
        *out = h;
        return SN_OK;
    }
    {
        uint32_t pbest = SN_NONE;
        /* compare the classes by cost first; build only the winner */
        for (int c = 0; c < NCLS; c++) {
            uint32_t p = fn->lm[md].prof[c], cc;
            if (p == SN_NONE || fn->lm[ms].prof[c] == SN_NONE)
                continue;
            /* the scale-up class reaches only the same component */
            if (c == SN_LINK_SCALE_UP && fn->lm[ms].comp != fn->lm[md].comp)
                continue;
            cc = class_cost(fn, ms, p);
            if (cc < best) {
                best = cc;
                nbest = 1;
                pbest = p;
            } else if (cc == best && best != INF32) {
                nbest++;
            }
        }
        if (pbest != SN_NONE)
            hbest = sn__flow_half_class(fn, ms, pbest);
    }
    {
        const struct lmap *m = &fn->lm[ms];
        for (uint32_t i = 0; i < m->n; i++) {
            const struct lstate *e = &fn->st[m->off + i];
            if (e->kind == LS_END && e->node == d && e->dist < local)
                local = e->dist;
        }
    }
    if (local < best) {
        nbest = 0;
        best = local;
    } else if (local == best && best != INF32) {
        nbest++;
    }
    if (best == INF32) {
        int rc = half_fallback(fn, s, d, &h, err);
        if (rc)
            return rc;
        hput(&fn->pair_of, pkey, h);
        *out = h;
        return SN_OK;
    }
    if (nbest == 1 && hbest != SN_NONE) {
        *out = hbest;
        return SN_OK;
    }
    h = half_build(fn, ms, -1, SN_NONE, md);
    hput(&fn->pair_of, pkey, h);
    *out = h;
    return SN_OK;
}
static void pieces_add(struct pieces *pc, uint32_t s, double w)
{
    if (pc->n + 1 > pc->cap) {
        SN_GROW(pc->seg, pc->cap, pc->n + 1);
        pc->w = sn_xrealloc(pc->w, pc->cap * sizeof(double));
    }
    pc->seg[pc->n] = s;
    pc->w[pc->n] = w;
    pc->n++;
}

int sn__flow_route_pieces(struct sn_flownet *fn, uint32_t s, uint32_t d,
                          struct pieces *pc, struct sn_error *err)
{
    uint32_t h;
    int rc;
    double lat = 0;

    pc->n = 0;
    pc->nhalf = 0;
    pc->latency = 0;
    pc->cost = 0;
    if (s == d)
        return SN_OK;
    rc = half_for(fn, s, d, &h, err);
    if (rc)
        return rc;
    for (uint32_t i = 0; i < fn->hf[h].sn; i++)
        pieces_add(pc, fn->hseg[fn->hf[h].soff + i],
                   fn->hw[fn->hf[h].soff + i]);
    pc->nhalf = pc->n;
    lat = fn->hf[h].w_local * fn->hf[h].lat_local;
    for (uint32_t i = 0; i < fn->hf[h].xn; i++) {
        const struct hexit x = fn->hx[fn->hf[h].xoff + i];
        uint32_t ip = sn__flow_in_piece(fn, x.node, x.cls, d);
        pieces_add(pc, ip, x.u);
        lat += x.u * (x.lat + fn->sg[ip].lat);
    }
    pc->latency = lat;
    pc->cost = fn->hf[h].cost;
    return SN_OK;
}
void sn__route_init(struct sn__route *r)
{
    memset(r, 0, sizeof(*r));
}

void sn__route_release(struct sn__route *r)
{
    free(r->ld);
    free(r->share);
    memset(r, 0, sizeof(*r));
}

void sn__flow_ld_begin(struct sn_flownet *fn)
{
    fn->ld_gen++;
    if (fn->ld_gen == 0) {
        memset(fn->ld_mark, 0, (fn->nld + 1) * sizeof(uint32_t));
        fn->ld_gen = 1;
    }
    fn->ntouched = 0;
}

void sn__flow_ld_add(struct sn_flownet *fn, uint32_t ld, double v)
{
    if (fn->ld_mark[ld] != fn->ld_gen) {
        fn->ld_mark[ld] = fn->ld_gen;
        fn->ld_acc[ld] = 0;
        SN_GROW(fn->touched, fn->touched_cap, fn->ntouched + 1);
        fn->touched[fn->ntouched++] = ld;
    }
    fn->ld_acc[ld] += v;
}

int sn__flow_route(struct sn_flownet *fn, uint32_t src, uint32_t dst,
                   struct sn__route *r, struct sn_error *err)
{
    struct pieces pc = {0};
    int rc;

    r->n = 0;
    r->latency = 0;
    r->hops = 0;
    if (src >= fn->t->nnodes || dst >= fn->t->nnodes) {
        rc = sn_error_set(err, SN_EINPUT, "no node %u or %u", (unsigned)src,
                          (unsigned)dst);
        goto out;
    }
    rc = sn__flow_route_pieces(fn, src, dst, &pc, err);
    if (rc)
        goto out;
    sn__flow_ld_begin(fn);
    for (size_t i = 0; i < pc.n; i++) {
        const struct seg *g = &fn->sg[pc.seg[i]];
        for (uint32_t k = 0; k < g->n; k++)
            sn__flow_ld_add(fn, fn->inc_ld[g->off + k],
                            pc.w[i] * fn->inc_sh[g->off + k]);
    }
    for (size_t i = 0; i < fn->ntouched; i++) {
        SN_GROW(r->ld, r->cap, r->n + 1);
        r->share = sn_xrealloc(r->share, r->cap * sizeof(double));
        r->ld[r->n] = fn->touched[i];
        r->share[r->n] = fn->ld_acc[fn->touched[i]];
        r->n++;
    }
    r->latency = pc.latency;
    r->hops = cost_hops(pc.cost);
out:
    free(pc.seg);
    free(pc.w);
    return rc;
}
