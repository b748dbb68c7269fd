/* flow-net.c: the flow engine's network: link capacities, fabric and
 * scale-up components, and each endpoint's host side searched once into
 * entries and exit profiles (see flow-int.h for the design). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flow-int.h"

static uint32_t uf_find(uint32_t *p, uint32_t x)
{
    while (p[x] != x) {
        p[x] = p[p[x]];
        x = p[x];
    }
    return x;
}

int sn__flownet_new(const struct sn_topo *t,
                    const double eff[SN_LINK_CLASS_COUNT],
                    struct sn_flownet **out, struct sn_error *err)
{
    struct sn_flownet *fn;

    *out = NULL;
    if (!t->finished)
        return sn_error_set(err, SN_EINPUT, "topology is not finished");
    fn = sn_xcalloc(1, sizeof(*fn));
    fn->t = t;
    fn->nld = 2 * t->nlinks;
    fn->cap = sn_xmalloc((fn->nld + 1) * sizeof(double));
    fn->lat = sn_xmalloc((t->nlinks + 1) * sizeof(float));
    for (size_t i = 0; i < t->nlinks; i++) {
        const struct sn_link *l = &t->links[i];
        double c = (double)l->bw * (double)l->health * eff[l->cls];
        fn->cap[2 * i] = fn->cap[2 * i + 1] = c > 0 ? c : 0;
        fn->lat[i] = l->latency;
    }
    fn->fidx = sn_xmalloc((t->nnodes + 1) * sizeof(uint32_t));
    fn->fnode = sn_xmalloc((t->nnodes + 1) * sizeof(uint32_t));
    for (size_t v = 0; v < t->nnodes; v++) {
        fn->fidx[v] = SN_NONE;
        if (is_fabric_for(t, (uint32_t)v, SN_LINK_SCALE_UP) ||
            is_fabric_for(t, (uint32_t)v, SN_LINK_SCALE_OUT)) {
            fn->fnode[fn->nfab] = (uint32_t)v;
            fn->fidx[v] = fn->nfab++;
        }
    }
    /* fabric components */
    {
        uint32_t *par = sn_xmalloc((fn->nfab + 1) * sizeof(uint32_t));
        for (uint32_t i = 0; i < fn->nfab; i++)
            par[i] = i;
        for (size_t i = 0; i < t->nlinks; i++) {
            const struct sn_link *l = &t->links[i];
            uint32_t fa = fn->fidx[l->a], fb = fn->fidx[l->b];
            if (fa == SN_NONE || fb == SN_NONE || !(l->health > 0))
                continue;
            fa = uf_find(par, fa);
            fb = uf_find(par, fb);
            if (fa != fb)
                par[fa > fb ? fa : fb] = fa < fb ? fa : fb;
        }
        fn->fcomp = sn_xmalloc((fn->nfab + 1) * sizeof(uint32_t));
        fn->flocal = sn_xmalloc((fn->nfab + 1) * sizeof(uint32_t));
        fn->fcsize = sn_xcalloc(fn->nfab + 1, sizeof(uint32_t));
        for (uint32_t i = 0; i < fn->nfab; i++) {
            uint32_t r = uf_find(par, i);
            fn->fcomp[i] = r;
            fn->flocal[i] = fn->fcsize[r]++;
        }
        free(par);
    }
    /* scale-up components, over healthy scale-up links */
    fn->comp = sn_xmalloc((t->nnodes + 1) * sizeof(uint32_t));
    for (size_t v = 0; v < t->nnodes; v++)
        fn->comp[v] = (uint32_t)v;
    for (size_t i = 0; i < t->nlinks; i++) {
        const struct sn_link *l = &t->links[i];
        if (l->cls != SN_LINK_SCALE_UP || !(l->health > 0))
            continue;
        uint32_t a = uf_find(fn->comp, l->a), b = uf_find(fn->comp, l->b);
        if (a != b)
            fn->comp[a > b ? a : b] = a < b ? a : b;
    }
    for (size_t v = 0; v < t->nnodes; v++)
        fn->comp[v] = uf_find(fn->comp, (uint32_t)v);
    fn->mark = sn_xcalloc(t->nnodes * 4 + 1, sizeof(uint32_t));
    fn->slot = sn_xmalloc((t->nnodes * 4 + 1) * sizeof(uint32_t));
    fn->bfs = sn_xmalloc((fn->nfab + 1) * sizeof(uint32_t));
    fn->fab_w = sn_xcalloc(fn->nfab + 1, sizeof(double));
    fn->fab_lat = sn_xcalloc(fn->nfab + 1, sizeof(double));
    fn->fab_mark = sn_xcalloc(fn->nfab + 1, sizeof(uint32_t));
    fn->dmemo = sn_xcalloc(fn->nfab + 1, sizeof(uint32_t));
    fn->dmark = sn_xcalloc(fn->nfab + 1, sizeof(uint32_t));
    fn->ld_acc = sn_xcalloc(fn->nld + 1, sizeof(double));
    fn->ld_mark = sn_xcalloc(fn->nld + 1, sizeof(uint32_t));
    fn->xload = sn_xcalloc(fn->nld + 1, sizeof(double));
    *out = fn;
    return SN_OK;
}

void sn__flownet_free(struct sn_flownet *fn)
{
    if (!fn)
        return;
    free(fn->cap);
    free(fn->lat);
    free(fn->fidx);
    free(fn->fnode);
    free(fn->fcomp);
    free(fn->flocal);
    free(fn->fcsize);
    free(fn->comp);
    hfree(&fn->lmap_of);
    free(fn->lm);
    free(fn->st);
    free(fn->mark);
    free(fn->slot);
    hfree(&fn->prof_of);
    free(fn->pr);
    free(fn->px);
    free(fn->pxtree);
    hfree(&fn->tree_of);
    for (size_t i = 0; i < fn->ntree; i++)
        free(fn->tree[i]);
    free(fn->tree);
    free(fn->bfs);
    free(fn->sg);
    free(fn->inc_ld);
    free(fn->inc_sh);
    free(fn->ar);
    hfree(&fn->out_of);
    hfree(&fn->fab_of);
    hfree(&fn->in_of);
    free(fn->hf);
    free(fn->hseg);
    free(fn->hw);
    free(fn->hx);
    hfree(&fn->half_of);
    hfree(&fn->pair_of);
    free(fn->fab_w);
    free(fn->fab_lat);
    free(fn->fab_mark);
    free(fn->dmemo);
    free(fn->dmark);
    free(fn->ld_acc);
    free(fn->ld_mark);
    free(fn->xload);
    free(fn->xlist);
    free(fn->touched);
    free(fn);
}

double sn__flownet_cap(const struct sn_flownet *fn, uint32_t ld)
{
    return ld < fn->nld ? fn->cap[ld] : 0;
}

uint32_t sn__flownet_component(const struct sn_flownet *fn, uint32_t node)
{
    return node < fn->t->nnodes ? fn->comp[node] : SN_NONE;
}

/* ---- host-side searches -------------------------------------------------- */

void sn__flow_heap_push(struct heap *h, uint64_t x)
{
    size_t i;

    SN_GROW(h->v, h->cap, h->n + 1);
    i = h->n++;
    while (i && h->v[(i - 1) / 2] > x) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = x;
}

uint64_t sn__flow_heap_pop(struct heap *h)
{
    uint64_t top, x;
    size_t i = 0;

    assert(h->n > 0);
    top = h->v[0];
    x = h->v[--h->n];

    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->v[c + 1] < h->v[c])
            c++;
        if (h->v[c] >= x)
            break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n)
        h->v[i] = x;
    return top;
}
void sn__flow_lmap_index(struct sn_flownet *fn, const struct lmap *m)
{
    fn->gen++;
    if (fn->gen == 0) {
        memset(fn->mark, 0, (fn->t->nnodes * 4 + 1) * sizeof(uint32_t));
        fn->gen = 1;
    }
    for (uint32_t i = 0; i < m->n; i++) {
        const struct lstate *s = &fn->st[m->off + i];
        size_t k = (size_t)s->node * 4 + s->cls;
        fn->mark[k] = fn->gen;
        fn->slot[k] = m->off + i;
    }
}
static uint32_t prof_intern(struct sn_flownet *fn, int cls,
                            const struct pexit *x, size_t n)
{
    uint64_t h = sn_hash64(x, n * sizeof(*x), (uint64_t)cls + 1);
    uint32_t id;

    /* probe on the hash; compare contents to rule out collisions */
    for (uint64_t k = h;; k++) {
        id = hget(&fn->prof_of, k);
        if (id == SN_NONE)
            break;
        if (fn->pr[id].cls == cls && fn->pr[id].n == n &&
            memcmp(&fn->px[fn->pr[id].off], x, n * sizeof(*x)) == 0)
            return id;
    }
    SN_GROW(fn->pr, fn->pr_cap, fn->npr + 1);
    SN_GROW(fn->px, fn->px_cap, fn->npx + n);
    fn->pxtree = sn_xrealloc(fn->pxtree, fn->px_cap * sizeof(uint32_t));
    memcpy(&fn->px[fn->npx], x, n * sizeof(*x));
    for (size_t i = 0; i < n; i++)
        fn->pxtree[fn->npx + i] = SN_NONE;
    id = (uint32_t)fn->npr++;
    fn->pr[id].off = (uint32_t)fn->npx;
    fn->pr[id].n = (uint32_t)n;
    fn->pr[id].cls = (uint8_t)cls;
    fn->npx += n;
    for (uint64_t k = h;; k++)
        if (hget(&fn->prof_of, k) == SN_NONE) {
            hput(&fn->prof_of, k, id);
            break;
        }
    return id;
}

static int cmp_pexit(const void *a, const void *b)
{
    const struct pexit *x = a, *y = b;

    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    return 0;
}

/* The staging area of a host-side search: states are appended unsettled,
 * then copied to fn->st in settle order. */
struct lsearch {
    struct heap h;
    struct lstate *tmp;
    size_t ntmp, tmp_cap;
    uint8_t *done;
    size_t done_cap;
};

/* Stage (w, class of l) at cost nd, or lower its cost if staged. */
static void lsearch_reach(struct sn_flownet *fn, struct lsearch *ls,
                          const struct sn_link *l, uint32_t w, uint32_t nd)
{
    const struct sn_topo *t = fn->t;
    size_t key = (size_t)w * 4 + l->cls;
    int kind;

    assert(w < t->nnodes && l->cls < CLS_ROOT);
    if (fn->mark[key] == fn->gen) {
        uint32_t j = fn->slot[key];
        assert(j < ls->ntmp);
        if (!ls->done[j] && nd < ls->tmp[j].dist) {
            ls->tmp[j].dist = nd;
            sn__flow_heap_push(&ls->h, (uint64_t)nd << 32 | j);
        }
        return;
    }
    if (is_fabric_for(t, w, l->cls))
        kind = LS_ENTRY;
    else if (is_pass(t, w))
        kind = LS_PASS;
    else
        kind = LS_END;
    SN_GROW(ls->tmp, ls->tmp_cap, ls->ntmp + 1);
    SN_GROW(ls->done, ls->done_cap, ls->ntmp + 1);
    ls->tmp[ls->ntmp] =
        (struct lstate){w, nd, (uint8_t)l->cls, (uint8_t)kind, 0, 0};
    ls->done[ls->ntmp] = 0;
    fn->mark[key] = fn->gen;
    fn->slot[key] = (uint32_t)ls->ntmp;
    sn__flow_heap_push(&ls->h, (uint64_t)nd << 32 | ls->ntmp);
    ls->ntmp++;
}

/* Dijkstra over root's host side, appending its states to fn->st in
 * settle order and stopping at fabric nodes (entries) and at nodes that
 * do not forward (other endpoints). */
static void lmap_search(struct sn_flownet *fn, uint32_t root, bool root_fab)
{
    const struct sn_topo *t = fn->t;
    struct lsearch ls = {0};

    fn->gen++;
    if (fn->gen == 0) {
        memset(fn->mark, 0, (t->nnodes * 4 + 1) * sizeof(uint32_t));
        fn->gen = 1;
    }
    SN_GROW(ls.tmp, ls.tmp_cap, 1);
    ls.tmp[0] = (struct lstate){root, 0, CLS_ROOT, LS_ROOT, 0, 0};
    ls.ntmp = 1;
    fn->mark[(size_t)root * 4 + CLS_ROOT] = fn->gen;
    fn->slot[(size_t)root * 4 + CLS_ROOT] = 0;
    sn__flow_heap_push(&ls.h, 0);
    SN_GROW(ls.done, ls.done_cap, 1);
    ls.done[0] = 0;
    while (ls.h.n) {
        uint64_t top = sn__flow_heap_pop(&ls.h);
        uint32_t si = (uint32_t)top, d = (uint32_t)(top >> 32);
        struct lstate s;
        assert(si < ls.ntmp);
        if (ls.done[si] || ls.tmp[si].dist != d)
            continue;
        ls.done[si] = 1;
        s = ls.tmp[si];
        SN_GROW(fn->st, fn->st_cap, fn->nst + 1);
        fn->st[fn->nst++] = s;
        if (s.kind != LS_ROOT && s.kind != LS_PASS)
            continue;
        for (uint32_t a = t->adj_off[s.node]; a < t->adj_off[s.node + 1]; a++) {
            const struct sn_link *l = &t->links[t->adj[a]];
            uint32_t w = other_end(l, s.node);
            if (!(l->health > 0) || w == root || w == s.node)
                continue;
            if (s.kind == LS_ROOT) {
                if (root_fab && l->cls == SN_LINK_SCALE_UP)
                    continue; /* the root is its own scale-up entry */
            } else if (!sn__topo_forwards(t, s.node, s.cls, l->cls)) {
                continue;
            }
            lsearch_reach(fn, &ls, l, w, d + sn__topo_link_cost(l));
        }
    }
    if (root_fab) {
        SN_GROW(fn->st, fn->st_cap, fn->nst + 1);
        fn->st[fn->nst++] =
            (struct lstate){root, 0, SN_LINK_SCALE_UP, LS_ENTRY, 1, 0};
    }
    free(ls.h.v);
    free(ls.tmp);
    free(ls.done);
}

/* Count the shortest-path links into every entry of m: the next hops a
 * fabric exit splits the traffic for this endpoint over. */
static void lmap_count_entries(struct sn_flownet *fn, const struct lmap *m,
                               bool root_fab)
{
    const struct sn_topo *t = fn->t;

    sn__flow_lmap_index(fn, m);
    for (uint32_t i = 0; i < m->n; i++) {
        struct lstate *e = &fn->st[m->off + i];
        unsigned k = 0;
        if (e->kind != LS_ENTRY || e->node == m->root)
            continue;
        for (uint32_t a = t->adj_off[e->node]; a < t->adj_off[e->node + 1];
             a++) {
            const struct sn_link *l = &t->links[t->adj[a]];
            uint32_t w = other_end(l, e->node);
            if (l->cls != e->cls || !(l->health > 0))
                continue;
            for (int c = 0; c <= CLS_ROOT; c++) {
                uint32_t j = lstate_find(fn, w, c);
                const struct lstate *p;
                if (j == SN_NONE)
                    continue;
                assert(j >= m->off && j < m->off + m->n);
                p = &fn->st[j];
                if (p->kind == LS_ROOT) {
                    if (root_fab && l->cls == SN_LINK_SCALE_UP)
                        continue;
                } else if (p->kind != LS_PASS ||
                           !sn__topo_forwards(t, w, p->cls, l->cls)) {
                    continue;
                }
                if (p->dist + sn__topo_link_cost(l) == e->dist)
                    k++;
            }
        }
        assert(k <= UINT16_MAX);
        e->k = (uint16_t)(k ? k : 1);
    }
}

/* Mark the entries of m a whole host hop costlier than another entry of
 * the same class and fabric component. */
static void lmap_mark_dominated(struct sn_flownet *fn, const struct lmap *m)
{
    for (uint32_t i = 0; i < m->n; i++) {
        struct lstate *e = &fn->st[m->off + i];
        uint32_t fe = fn->fidx[e->node];
        if (e->kind != LS_ENTRY || fe == SN_NONE)
            continue;
        for (uint32_t j = 0; j < m->n && !e->dominated; j++) {
            const struct lstate *o = &fn->st[m->off + j];
            uint32_t fo = fn->fidx[o->node];
            e->dominated = o->kind == LS_ENTRY && o->cls == e->cls &&
                           fo != SN_NONE && fn->fcomp[fo] == fn->fcomp[fe] &&
                           o->dist + HOST_COST <= e->dist;
        }
    }
}

/* The exit profile of m for class c: its entries of that class, less the
 * dominated ones, by node; SN_NONE when it has none. */
static uint32_t lmap_profile(struct sn_flownet *fn, const struct lmap *m, int c)
{
    struct pexit x[MAX_ENTRIES];
    size_t nx = 0, keep = 0;

    for (uint32_t i = 0; i < m->n && nx < MAX_ENTRIES; i++) {
        const struct lstate *e = &fn->st[m->off + i];
        if (e->kind == LS_ENTRY && e->cls == c)
            x[nx++] = (struct pexit){e->node, e->dist, e->k};
    }
    /* An exit a whole host hop costlier than another exit of the same
     * fabric component is never on a shortest route: the fabric path
     * between them is shorter than a host hop's cost (fabrics are far
     * less than 64 switch hops across). Keeping it would only split the
     * profiles of endpoints that route alike. */
    for (size_t i = 0; i < nx; i++) {
        bool dominated = false;
        uint32_t fi = fn->fidx[x[i].node];
        for (size_t j = 0; j < nx && !dominated; j++) {
            uint32_t fj = fn->fidx[x[j].node];
            dominated = fi != SN_NONE && fj != SN_NONE &&
                        fn->fcomp[fi] == fn->fcomp[fj] &&
                        x[j].h + HOST_COST <= x[i].h;
        }
        if (!dominated)
            x[keep++] = x[i];
    }
    assert(keep <= nx && nx <= MAX_ENTRIES);
    nx = keep;
    qsort(x, nx, sizeof(x[0]), cmp_pexit);
    return nx ? prof_intern(fn, c, x, nx) : SN_NONE;
}

uint32_t sn__flow_lmap(struct sn_flownet *fn, uint32_t root)
{
    const struct sn_topo *t = fn->t;
    uint32_t id = hget(&fn->lmap_of, root), first;
    bool root_fab = is_fabric_for(t, root, SN_LINK_SCALE_UP) &&
                    t->nodes[root].kind == SN_NODE_ACCEL;
    struct lmap *m;

    if (id != SN_NONE)
        return id;
    assert(root < t->nnodes);
    first = (uint32_t)fn->nst;
    lmap_search(fn, root, root_fab);
    SN_GROW(fn->lm, fn->lm_cap, fn->nlm + 1);
    id = (uint32_t)fn->nlm++;
    m = &fn->lm[id];
    m->root = root;
    m->off = first;
    m->n = (uint32_t)(fn->nst - first);
    m->comp = fn->comp[root];
    assert(m->n >= 1 && fn->st[m->off].node == root); /* the root first */
    lmap_count_entries(fn, m, root_fab);
    lmap_mark_dominated(fn, m);
    for (int c = 0; c < NCLS; c++)
        m->prof[c] = lmap_profile(fn, m, c);
    hput(&fn->lmap_of, root, id);
    return id;
}

/* ---- near endpoints ------------------------------------------------------ */

/* The two bucket keys of endpoint node: its scale-up component and its
 * server (supernode, server). */
static uint64_t near_key(const struct sn_flownet *fn, uint32_t node, int which)
{
    const struct sn_node *nd = &fn->t->nodes[node];

    if (which == 0)
        return (uint64_t)1 << 62 | fn->comp[node];
    return (uint64_t)2 << 62 | (uint64_t)nd->supernode << 32 | nd->server;
}

void sn__flow_near_init(struct near_index *ni, size_t n)
{
    memset(ni, 0, sizeof(*ni));
    ni->n = n;
    ni->next = sn_xmalloc((2 * n + 1) * sizeof(uint32_t));
}

void sn__flow_near_add(const struct sn_flownet *fn, struct near_index *ni,
                       const uint32_t *nodes, size_t i)
{
    assert(i < ni->n);
    for (int k = 0; k < 2; k++) {
        uint64_t key = near_key(fn, nodes[i], k);
        uint32_t b = hget(&ni->of, key);
        if (b == SN_NONE) {
            b = (uint32_t)ni->nb++;
            SN_GROW(ni->head, ni->nb_cap, ni->nb);
            ni->head[b] = SN_NONE;
            hput(&ni->of, key, b);
        }
        ni->next[2 * i + (size_t)k] = ni->head[b];
        ni->head[b] = (uint32_t)(2 * i + (size_t)k);
    }
}

uint32_t sn__flow_near_bucket(const struct sn_flownet *fn,
                              const struct near_index *ni,
                              const uint32_t *nodes, size_t i, int which)
{
    uint32_t b = hget(&ni->of, near_key(fn, nodes[i], which));

    /* every endpoint was added, so its buckets exist */
    assert(i < ni->n && b < ni->nb);
    return b;
}

size_t sn__flow_near_collect(const struct sn_flownet *fn,
                             const struct near_index *ni, const uint32_t *nodes,
                             size_t i, uint32_t **near, size_t *near_cap)
{
    size_t nn = 0;

    for (int k = 0; k < 2; k++) {
        uint32_t b = sn__flow_near_bucket(fn, ni, nodes, i, k);
        for (uint32_t e = ni->head[b]; e != SN_NONE; e = ni->next[e]) {
            uint32_t j = e / 2;
            bool dup = false;
            assert(e < 2 * ni->n);
            for (size_t q = 0; q < nn; q++)
                dup |= (*near)[q] == j;
            if (dup)
                continue;
            SN_GROW(*near, *near_cap, nn + 1);
            (*near)[nn++] = j;
        }
    }
    assert(nn >= 1 && nn <= ni->n); /* i is near itself */
    return nn;
}

void sn__flow_near_release(struct near_index *ni)
{
    hfree(&ni->of);
    free(ni->head);
    free(ni->next);
    memset(ni, 0, sizeof(*ni));
}
