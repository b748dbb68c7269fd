/* flow.c: the flow-level engine: routes split per hop over ECMP next hops,
 * built from cached pieces, link loads of a step and max-min fair rates.
 *
 * A route from s to d is cut where every path crosses one node:
 *   out piece  s -> its entries into a switch fabric (NIC -> leaf, GPU ->
 *              scale-up chips), found by a small search of s's host side;
 *   fabric     entry A -> the exits of d, over switches of one class;
 *   in piece   exit B -> d, the mirror of d's host side.
 * Pieces are keyed by (s, optimal entries), (A, class, d's exit profile)
 * and (B, class, d), so all-to-all among 4,096 endpoints under 128 leaves
 * builds about 4,096 + 128 x 128 + 4,096 pieces rather than 16.7 M routes.
 * Costs and forwarding rules are those of route.c (sn_topo_paths): a host
 * (PCIe) hop costs 64, any other 1; switches forward within their class,
 * NICs between host and network, CPUs host to host, accelerators scale-up
 * to scale-up only where the fabric makes them transit. Pairs with no
 * route of that shape (a route through another server's host side, which
 * only failures force) fall back to sn_topo_paths' explicit path list,
 * split evenly over the paths. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flow.h"
#include "hmap.h"

#include "../topo/route-int.h"

#define NCLS SN_LINK_CLASS_COUNT
#define CLS_ROOT NCLS /* the root state has no arriving link */
#define HOST_COST SN__TOPO_HOST_COST
#define INF32 UINT32_MAX
#define FAB_INF UINT16_MAX
#define MAX_ENTRIES 64
#define FALLBACK_PATHS 256

/* ---- the network --------------------------------------------------------- */

enum { LS_ROOT, LS_PASS, LS_ENTRY, LS_END };

/* One settled state of an endpoint's host-side search. */
struct lstate {
    uint32_t node;
    uint32_t dist;
    uint8_t cls;  /* class of the arriving link, CLS_ROOT for the root */
    uint8_t kind; /* LS_* */
    uint16_t k;   /* entries: shortest-path links arriving at the state */
    uint8_t dominated; /* entries: a whole host hop costlier than another
                          entry of the same fabric component, so never on
                          a shortest route (fabrics are far less than 64
                          switch hops across) */
};

/* An endpoint's host side: its states in settle order. */
struct lmap {
    uint32_t root;
    uint32_t off, n;
    uint32_t prof[NCLS]; /* exit profile per fabric class, SN_NONE if none */
    uint32_t comp;       /* scale-up component */
};

/* One exit of a profile: fabric node, cost from it to the endpoint, and
 * how many links leave it on shortest routes to the endpoint. */
struct pexit {
    uint32_t node, h, k;
};

struct prof {
    uint32_t off, n;
    uint8_t cls;
};

/* A route piece: link directions with the share of one unit entering the
 * piece, and where the unit leaves it. */
struct seg {
    uint32_t off, n;   /* incidences */
    uint32_t aoff, an; /* arrivals */
    double bneck;      /* min cap/share: what one flow alone gets through */
    uint32_t bneck_ld; /* the link direction that sets it */
    double lat;        /* in pieces: mean latency to the endpoint */
};

struct arrival {
    uint32_t key; /* out pieces: state index in the lmap; fabric: node */
    double w;
    double lat;   /* mean latency from the piece's start */
};

/* The part of a route that does not depend on the destination itself:
 * out piece and fabric pieces with weights, and the exits reached. */
struct half {
    uint32_t cost;
    uint32_t soff, sn; /* pieces: seg ids and weights */
    uint32_t xoff, xn; /* exits */
    double w_local;    /* pair halves: share arriving at d directly */
    double lat_local;  /* its mean latency */
    double lat_pre;    /* mean latency of the pieces before the exits,
                          traffic-weighted (exits carry their own) */
};

struct hexit {
    uint32_t node;
    uint8_t cls;
    double u;   /* share of the flow leaving the fabric here */
    double lat; /* mean latency from s to here */
};

struct sn_flownet {
    const struct sn_topo *t;
    size_t nld;
    double *cap;
    float *lat;        /* per link */
    uint32_t *fidx;    /* per node: fabric index or SN_NONE */
    uint32_t *fnode;   /* fabric index -> node */
    uint32_t nfab;
    /* fabric components (over fabric-to-fabric links): a distance tree
     * covers the component of its root only */
    uint32_t *fcomp;   /* per fabric index: component */
    uint32_t *flocal;  /* per fabric index: index inside its component */
    uint32_t *fcsize;  /* per component: fabric nodes */
    uint32_t *comp;    /* per node: scale-up component */
    /* endpoint searches */
    struct hmap lmap_of;
    struct lmap *lm;
    size_t nlm, lm_cap;
    struct lstate *st;
    size_t nst, st_cap;
    uint32_t *mark, *slot; /* per node state (4 per node): generation, idx */
    uint32_t gen;
    /* profiles */
    struct hmap prof_of;
    struct prof *pr;
    size_t npr, pr_cap;
    struct pexit *px;
    uint32_t *pxtree;  /* per profile exit: its distance tree, SN_NONE */
    size_t npx, px_cap;
    /* fabric distance trees per (exit, class), in fabric hops */
    struct hmap tree_of;
    uint16_t **tree;
    size_t ntree, tree_cap;
    uint32_t *bfs;
    /* pieces */
    struct seg *sg;
    size_t nsg, sg_cap;
    uint32_t *inc_ld;
    double *inc_sh;
    size_t ninc, inc_cap;
    struct arrival *ar;
    size_t nar, ar_cap;
    struct hmap out_of, fab_of, in_of;
    /* halves */
    struct half *hf;
    size_t nhf, hf_cap;
    uint32_t *hseg;
    double *hw;
    size_t nhs, hs_cap;
    struct hexit *hx;
    size_t nhx, hx_cap;
    struct hmap half_of, pair_of;
    /* scratch */
    double *fab_w, *fab_lat;   /* per fabric index */
    uint32_t *fab_mark;
    uint32_t fab_gen;
    uint32_t *dmemo, *dmark;   /* per fabric index: prof_dist memo */
    uint32_t dgen;
    double *ld_acc;            /* per link direction */
    uint32_t *ld_mark;
    uint32_t ld_gen;
    double *xload;             /* per link direction: loads pushed
                                  through the fabric directly (all-to-all) */
    uint32_t *xlist;
    size_t nx, x_cap;
    uint32_t *touched;
    size_t ntouched, touched_cap;
};

static uint32_t other_end(const struct sn_link *l, uint32_t v)
{
    return l->a == v ? l->b : l->a;
}

static uint32_t ld_of(const struct sn_link *l, uint32_t link, uint32_t from)
{
    return 2 * link + (l->a == from ? 0u : 1u);
}

static uint32_t link_cost(const struct sn_link *l)
{
    return l->cls == SN_LINK_HOST ? HOST_COST : 1u;
}

/* A fabric node forwards within a class and is where routes are cut:
 * switches (except PCIe switches, which belong to a server's host side)
 * and, in mesh and torus fabrics, accelerators on their scale-up links. */
static bool is_fabric_for(const struct sn_topo *t, uint32_t v, int cls)
{
    const struct sn_node *n = &t->nodes[v];

    if (n->kind == SN_NODE_SWITCH)
        return n->role != SN_SW_PCIE;
    if (n->kind == SN_NODE_ACCEL)
        return t->accel_transit && cls == SN_LINK_SCALE_UP;
    return false;
}

static bool is_pass(const struct sn_topo *t, uint32_t v)
{
    const struct sn_node *n = &t->nodes[v];

    return n->kind == SN_NODE_NIC || n->kind == SN_NODE_CPU ||
           (n->kind == SN_NODE_SWITCH && n->role == SN_SW_PCIE);
}

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

/* ---- host-side searches --------------------------------------------------- */

struct heap {
    uint64_t *v; /* dist << 32 | state index */
    size_t n, cap;
};

static void heap_push(struct heap *h, uint64_t x)
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

static uint64_t heap_pop(struct heap *h)
{
    uint64_t top = h->v[0], x = h->v[--h->n];
    size_t i = 0;

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

/* The state index (absolute, into fn->st) of (node, cls) in lmap m, or
 * SN_NONE. Valid only while m is the last lmap marked (see lmap_index). */
static void lmap_index(struct sn_flownet *fn, const struct lmap *m)
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

static uint32_t lstate_find(const struct sn_flownet *fn, uint32_t node,
                            int cls)
{
    size_t k = (size_t)node * 4 + (size_t)cls;

    return fn->mark[k] == fn->gen ? fn->slot[k] : SN_NONE;
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

/* Search root's host side: states in settle order, stopping at fabric
 * nodes (entries) and at nodes that do not forward (other endpoints). */
static uint32_t lmap_get(struct sn_flownet *fn, uint32_t root)
{
    const struct sn_topo *t = fn->t;
    uint32_t id = hget(&fn->lmap_of, root);
    struct heap h = {0};
    struct lmap *m;
    bool root_fab = is_fabric_for(t, root, SN_LINK_SCALE_UP) &&
                    t->nodes[root].kind == SN_NODE_ACCEL;
    uint32_t first;
    /* states are appended unsettled in a staging area, then compacted */
    struct lstate *tmp = NULL;
    size_t ntmp = 0, tmp_cap = 0;
    uint8_t *done = NULL;
    size_t done_cap = 0;

    if (id != SN_NONE)
        return id;
    fn->gen++;
    if (fn->gen == 0) {
        memset(fn->mark, 0, (t->nnodes * 4 + 1) * sizeof(uint32_t));
        fn->gen = 1;
    }
    SN_GROW(tmp, tmp_cap, 1);
    tmp[0] = (struct lstate){root, 0, CLS_ROOT, LS_ROOT, 0, 0};
    ntmp = 1;
    fn->mark[(size_t)root * 4 + CLS_ROOT] = fn->gen;
    fn->slot[(size_t)root * 4 + CLS_ROOT] = 0;
    heap_push(&h, 0);
    SN_GROW(done, done_cap, 1);
    done[0] = 0;
    SN_GROW(fn->st, fn->st_cap, fn->nst + 1);
    first = (uint32_t)fn->nst;
    while (h.n) {
        uint64_t top = heap_pop(&h);
        uint32_t si = (uint32_t)top, d = (uint32_t)(top >> 32);
        struct lstate s;
        if (done[si] || tmp[si].dist != d)
            continue;
        done[si] = 1;
        s = tmp[si];
        SN_GROW(fn->st, fn->st_cap, fn->nst + 1);
        fn->st[fn->nst++] = s;
        if (s.kind != LS_ROOT && s.kind != LS_PASS)
            continue;
        for (uint32_t a = t->adj_off[s.node]; a < t->adj_off[s.node + 1];
             a++) {
            const struct sn_link *l = &t->links[t->adj[a]];
            uint32_t w = other_end(l, s.node), nd;
            int kind;
            size_t key;
            if (!(l->health > 0) || w == root || w == s.node)
                continue;
            if (s.kind == LS_ROOT) {
                if (root_fab && l->cls == SN_LINK_SCALE_UP)
                    continue; /* the root is its own scale-up entry */
            } else if (!sn__topo_forwards(t, s.node, s.cls, l->cls)) {
                continue;
            }
            if (is_fabric_for(t, w, l->cls))
                kind = LS_ENTRY;
            else if (is_pass(t, w))
                kind = LS_PASS;
            else
                kind = LS_END;
            nd = d + link_cost(l);
            key = (size_t)w * 4 + l->cls;
            if (fn->mark[key] == fn->gen) {
                uint32_t j = fn->slot[key];
                if (!done[j] && nd < tmp[j].dist) {
                    tmp[j].dist = nd;
                    heap_push(&h, (uint64_t)nd << 32 | j);
                }
                continue;
            }
            SN_GROW(tmp, tmp_cap, ntmp + 1);
            SN_GROW(done, done_cap, ntmp + 1);
            tmp[ntmp] =
                (struct lstate){w, nd, (uint8_t)l->cls, (uint8_t)kind, 0, 0};
            done[ntmp] = 0;
            fn->mark[key] = fn->gen;
            fn->slot[key] = (uint32_t)ntmp;
            heap_push(&h, (uint64_t)nd << 32 | ntmp);
            ntmp++;
        }
    }
    if (root_fab) {
        SN_GROW(fn->st, fn->st_cap, fn->nst + 1);
        fn->st[fn->nst++] =
            (struct lstate){root, 0, SN_LINK_SCALE_UP, LS_ENTRY, 1, 0};
    }
    free(h.v);
    free(tmp);
    free(done);
    SN_GROW(fn->lm, fn->lm_cap, fn->nlm + 1);
    id = (uint32_t)fn->nlm++;
    m = &fn->lm[id];
    m->root = root;
    m->off = first;
    m->n = (uint32_t)(fn->nst - first);
    m->comp = fn->comp[root];
    /* count the shortest-path links into every entry: the next hops a
     * fabric exit splits the traffic for this endpoint over */
    lmap_index(fn, m);
    for (uint32_t i = 0; i < m->n; i++) {
        struct lstate *e = &fn->st[m->off + i];
        unsigned k = 0;
        if (e->kind != LS_ENTRY || e->node == root)
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
                p = &fn->st[j];
                if (p->kind == LS_ROOT) {
                    if (root_fab && l->cls == SN_LINK_SCALE_UP)
                        continue;
                } else if (p->kind != LS_PASS ||
                           !sn__topo_forwards(t, w, p->cls, l->cls)) {
                    continue;
                }
                if (p->dist + link_cost(l) == e->dist)
                    k++;
            }
        }
        e->k = (uint16_t)(k ? k : 1);
    }
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
    for (int c = 0; c < NCLS; c++) {
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
         * less than 64 switch hops across). Keeping it would only split
         * the profiles of endpoints that route alike. */
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
        nx = keep;
        qsort(x, nx, sizeof(x[0]), cmp_pexit);
        m->prof[c] = nx ? prof_intern(fn, c, x, nx) : SN_NONE;
    }
    hput(&fn->lmap_of, root, id);
    return id;
}

/* ---- fabric distances ----------------------------------------------------- */

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
            if (l->cls != cls || !(l->health > 0) || fn->fidx[w] == SN_NONE ||
                !is_fabric_for(t, w, cls))
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
static uint32_t prof_dist(struct sn_flownet *fn, uint32_t p, uint32_t x)
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
static void dist_begin(struct sn_flownet *fn)
{
    fn->dgen++;
    if (fn->dgen == 0) {
        memset(fn->dmark, 0, (fn->nfab + 1) * sizeof(uint32_t));
        fn->dgen = 1;
    }
}

static uint32_t dist_memo(struct sn_flownet *fn, uint32_t p, uint32_t x)
{
    uint32_t fx = fn->fidx[x];

    if (fx == SN_NONE)
        return INF32;
    if (fn->dmark[fx] != fn->dgen) {
        fn->dmark[fx] = fn->dgen;
        fn->dmemo[fx] = prof_dist(fn, p, x);
    }
    return fn->dmemo[fx];
}

/* ---- pieces --------------------------------------------------------------- */

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

    lmap_index(fn, m);
    for (uint32_t i = 0; i < n; i++)
        togo[i] = INF32;
    for (size_t i = 0; i < ntgt; i++)
        togo[tgt[i] - m->off] = tail[i];
    /* remaining cost, in reverse settle order over shortest-path links */
    for (uint32_t ii = n; ii-- > 0;) {
        const struct lstate *st = &fn->st[m->off + ii];
        if (st->kind != LS_ROOT && st->kind != LS_PASS)
            continue;
        for (uint32_t a = t->adj_off[st->node]; a < t->adj_off[st->node + 1];
             a++) {
            const struct sn_link *l = &t->links[t->adj[a]];
            uint32_t wn = other_end(l, st->node), j;
            if (!(l->health > 0))
                continue;
            if (st->kind == LS_ROOT) {
                if (root_fab && l->cls == SN_LINK_SCALE_UP)
                    continue;
            } else if (!sn__topo_forwards(t, st->node, st->cls, l->cls)) {
                continue;
            }
            j = lstate_find(fn, wn, l->cls);
            if (j == SN_NONE || fn->st[j].dist != st->dist + link_cost(l))
                continue;
            j -= m->off;
            if (togo[j] != INF32 && togo[j] + link_cost(l) < togo[ii])
                togo[ii] = togo[j] + link_cost(l);
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
                uint32_t wn = other_end(l, st->node), j;
                if (!(l->health > 0))
                    continue;
                if (st->kind == LS_ROOT) {
                    if (root_fab && l->cls == SN_LINK_SCALE_UP)
                        continue;
                } else if (!sn__topo_forwards(t, st->node, st->cls, l->cls)) {
                    continue;
                }
                j = lstate_find(fn, wn, l->cls);
                if (j == SN_NONE || fn->st[j].dist != st->dist + link_cost(l))
                    continue;
                j -= m->off;
                if (togo[j] == INF32 || togo[j] + link_cost(l) != togo[ii])
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
    dist_begin(fn);
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
            uint32_t du = dist_memo(fn, p, u), k_exit = 0, nf = 0, total;
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
            for (uint32_t ai = t->adj_off[u];
                 du > hmin && ai < t->adj_off[u + 1]; ai++) {
                const struct sn_link *l = &t->links[t->adj[ai]];
                uint32_t w = other_end(l, u);
                if (l->cls != cls || !(l->health > 0) ||
                    fn->fidx[w] == SN_NONE || !is_fabric_for(t, w, cls))
                    continue;
                if (dist_memo(fn, p, w) + 1 == du)
                    nf++;
            }
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
                if (l->cls != cls || !(l->health > 0) ||
                    fn->fidx[w] == SN_NONE || !is_fabric_for(t, w, cls))
                    continue;
                if (dist_memo(fn, p, w) + 1 != du)
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
static uint32_t in_piece(struct sn_flownet *fn, uint32_t b, int cls,
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
    mi = lmap_get(fn, d);
    m = &fn->lm[mi];
    lmap_index(fn, m);
    s = seg_begin(fn);
    if (b == d) {
        seg_arrive(fn, s, d, 1.0, 0);
        hput(&fn->in_of, key, s);
        return s;
    }
    {
        uint32_t j = lstate_find(fn, b, cls);
        SN_GROW(ws, ws_cap, 1);
        ws[0] = (struct wst){b, j == SN_NONE ? INF32 : fn->st[j].dist, cls,
                             1.0, 0};
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
                if (tx == INF32 || tx + link_cost(l) != cur.togo)
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

/* ---- halves and routes ---------------------------------------------------- */

static uint32_t half_begin(struct sn_flownet *fn)
{
    SN_GROW(fn->hf, fn->hf_cap, fn->nhf + 1);
    memset(&fn->hf[fn->nhf], 0, sizeof(struct half));
    fn->hf[fn->nhf].soff = (uint32_t)fn->nhs;
    fn->hf[fn->nhf].xoff = (uint32_t)fn->nhx;
    fn->hf[fn->nhf].cost = INF32;
    return (uint32_t)fn->nhf++;
}

static void half_piece(struct sn_flownet *fn, uint32_t h, uint32_t s,
                       double w)
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

static void half_exit(struct sn_flownet *fn, uint32_t h, uint32_t node,
                      int cls, double u, double lat)
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
static uint32_t out_cached(struct sn_flownet *fn, uint32_t mi, uint32_t off,
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
static uint32_t class_targets(struct sn_flownet *fn, uint32_t mi,
                              uint32_t p, uint32_t *tgt, uint32_t *tail,
                              size_t *ntgt)
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
        t = prof_dist(fn, p, e->node);
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
        tl = prof_dist(fn, pe, e->node);
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
    out = out_cached(fn, mi, off, tgt, tail, ntgt);
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
        tl = prof_dist(fn, p, e->node);
        if (tl != INF32 && e->dist + tl < best)
            best = e->dist + tl;
    }
    return best;
}

static uint32_t half_class(struct sn_flownet *fn, uint32_t mi, uint32_t p)
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
    uint32_t ms = lmap_get(fn, s), md = lmap_get(fn, d);
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
            hbest = half_class(fn, ms, pbest);
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

/* Pieces of s -> d with weights, appended to caller arrays. */
struct pieces {
    uint32_t *seg;
    double *w;
    size_t n, cap;
    size_t nhalf;  /* pieces before the in pieces: out, then fabric */
    double latency;
    uint32_t cost;
};

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

static int route_pieces(struct sn_flownet *fn, uint32_t s, uint32_t d,
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
        uint32_t ip = in_piece(fn, x.node, x.cls, d);
        pieces_add(pc, ip, x.u);
        lat += x.u * (x.lat + fn->sg[ip].lat);
    }
    pc->latency = lat;
    pc->cost = fn->hf[h].cost;
    return SN_OK;
}

static uint32_t cost_hops(uint32_t cost)
{
    return cost / HOST_COST + cost % HOST_COST;
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

static void ld_begin(struct sn_flownet *fn)
{
    fn->ld_gen++;
    if (fn->ld_gen == 0) {
        memset(fn->ld_mark, 0, (fn->nld + 1) * sizeof(uint32_t));
        fn->ld_gen = 1;
    }
    fn->ntouched = 0;
}

static void ld_add(struct sn_flownet *fn, uint32_t ld, double v)
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
    rc = route_pieces(fn, src, dst, &pc, err);
    if (rc)
        goto out;
    ld_begin(fn);
    for (size_t i = 0; i < pc.n; i++) {
        const struct seg *g = &fn->sg[pc.seg[i]];
        for (uint32_t k = 0; k < g->n; k++)
            ld_add(fn, fn->inc_ld[g->off + k], pc.w[i] * fn->inc_sh[g->off + k]);
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

/* ---- steps and rates -------------------------------------------------------- */

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

    ld_begin(fn);
    for (size_t i = 0; i < a->n; i++) {
        uint32_t s = a->list[i];
        const struct seg *g = &fn->sg[s];
        double w = a->w[s];
        for (uint32_t k = 0; k < g->n; k++)
            ld_add(fn, fn->inc_ld[g->off + k], w * fn->inc_sh[g->off + k]);
    }
    for (size_t i = 0; i < fn->nx; i++) {
        ld_add(fn, fn->xlist[i], fn->xload[fn->xlist[i]]);
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
        rc = route_pieces(fn, f[i].src, f[i].dst, &pc, err);
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

    dist_begin(fn);
    fn->fab_gen++;
    if (fn->fab_gen == 0) {
        memset(fn->fab_mark, 0, (fn->nfab + 1) * sizeof(uint32_t));
        fn->fab_gen = 1;
    }
    for (size_t i = 0; i < nin; i++) {
        uint32_t f = fn->fidx[in[i].node], d = dist_memo(fn, p, in[i].node);
        if (f == SN_NONE || d == INF32)
            continue;
        if (fn->fab_mark[f] != fn->fab_gen) {
            fn->fab_mark[f] = fn->fab_gen;
            fn->fab_w[f] = 0;
            fn->fab_lat[f] = 0;
            /* a max-heap on the cost to the exit: negate */
            heap_push(&h, (uint64_t)(UINT32_MAX - d) << 32 | f);
        }
        fn->fab_w[f] += in[i].amount;
    }
    while (h.n) {
        uint64_t top = heap_pop(&h);
        uint32_t f = (uint32_t)top, u = fn->fnode[f];
        uint32_t du = UINT32_MAX - (uint32_t)(top >> 32), k_exit = 0, nf = 0;
        double a = fn->fab_w[f], lu = fn->fab_lat[f];
        if (x->node == u && x->h == du)
            k_exit = x->k;
        for (uint32_t ai = t->adj_off[u]; ai < t->adj_off[u + 1]; ai++) {
            const struct sn_link *l = &t->links[t->adj[ai]];
            uint32_t w = other_end(l, u);
            if (l->cls != cls || !(l->health > 0) ||
                fn->fidx[w] == SN_NONE || !is_fabric_for(t, w, cls))
                continue;
            if (dist_memo(fn, p, w) + 1 == du)
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
            if (l->cls != cls || !(l->health > 0) ||
                fn->fidx[w] == SN_NONE || !is_fabric_for(t, w, cls))
                continue;
            if (dist_memo(fn, p, w) + 1 != du)
                continue;
            xload_add(fn, ld_of(l, id, u), share);
            fw = fn->fidx[w];
            if (fn->fab_mark[fw] != fn->fab_gen) {
                fn->fab_mark[fw] = fn->fab_gen;
                fn->fab_w[fw] = 0;
                fn->fab_lat[fw] = 0;
                heap_push(&h, (uint64_t)(UINT32_MAX - (du - 1)) << 32 | fw);
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
                      size_t group, struct sn__step *out,
                      struct sn_error *err)
{
    struct wacc a = {0};
    double max_pre = 0, max_in = 0;
    int rc = SN_OK;

    memset(out, 0, sizeof(*out));
    out->bottleneck = SN_NONE;
    if (!group || group > n)
        group = n;
    for (size_t b = 0; b + group <= n && rc == SN_OK; b += group)
        rc = a2a_block(fn, nodes + b, group, &a, out, &max_pre, &max_in,
                       err);
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
    double **dense = NULL;  /* per profile: injection per entry index */
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
        ep[i] = lmap_get(fn, nodes[i]);
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
        keys[1] = (uint64_t)2 << 62 | (uint64_t)nd->supernode << 32 |
                  nd->server;
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
                            (uint64_t)2 << 62 |
                                (uint64_t)nd->supernode << 32 | nd->server};
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
            rc = route_pieces(fn, nodes[i], nodes[j], &pc, err);
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
                if (one_entry == SN_NONE ||
                    e->dist < fn->st[one_entry].dist) {
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
                    uint32_t tl = prof_dist(fn, plist[k], e1->node);
                    if (tl != INF32) {
                        if (one_out == SN_NONE) {
                            uint32_t t1 = one_entry, z = tl;
                            one_out = out_cached(fn, ep[i],
                                                 fn->lm[ep[i]].off, &t1, &z,
                                                 1);
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
                                dense[k] = sn_xrealloc(dense[k],
                                                       nc * sizeof(double));
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
                best = class_targets(fn, ep[i], plist[k], tgt, tail, &ntgt);
                if (best == INF32) {
                    rc = sn_error_set(err, SN_ENOTFOUND,
                                      "no route between network exits of "
                                      "node %u",
                                      (unsigned)nodes[i]);
                    break;
                }
                o = out_cached(fn, ep[i], fn->lm[ep[i]].off, tgt, tail, ntgt);
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
            h = half_class(fn, ep[i], plist[k]);
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
                            (uint64_t)2 << 62 |
                                (uint64_t)nd->supernode << 32 | nd->server};
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
                ip = in_piece(fn, fn->px[pr->off].node, SN_LINK_SCALE_OUT,
                              nodes[j]);
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
            hf = &fn->hf[half_class(fn, ep[i], plist[k])];
            if (hf->cost == INF32)
                continue;
            for (uint32_t x = 0; x < hf->xn; x++)
                for (uint32_t e = 0; e < pr->n; e++)
                    if (fn->px[pr->off + e].node ==
                        fn->hx[hf->xoff + x].node)
                        u[e] -= fn->hx[hf->xoff + x].u;
        }
        for (uint32_t e = 0; e < pr->n; e++) {
            if (u[e] > 1e-12) {
                uint32_t ip = in_piece(fn, fn->px[pr->off + e].node,
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
        rc = route_pieces(fn, f[i].src, f[i].dst, &pc, err);
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
        ld_begin(fn);
        for (size_t q = 0; q < segs.n; q++) {
            const struct seg *g = &fn->sg[segs.list[q]];
            for (uint32_t k = 0; k < g->n; k++) {
                uint32_t ld = fn->inc_ld[g->off + k];
                ld_add(fn, ld, unfrozen[q] * fn->inc_sh[g->off + k]);
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

/* ---- pairs ------------------------------------------------------------------ */

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
    ld_begin(fn);
    for (size_t i = 0; i < pc->n; i++) {
        const struct seg *g = &fn->sg[pc->seg[i]];
        for (uint32_t k = 0; k < g->n; k++)
            ld_add(fn, fn->inc_ld[g->off + k], pc->w[i] * fn->inc_sh[g->off + k]);
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
    rc = route_pieces(fn, s, d, &pc, err);
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
    uint32_t mi = lmap_get(fn, v), nent = 0;
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
        op = out_cached(fn, mi, m->off, &tgt, &tail, 1);
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
                        (uint64_t)2 << 62 |
                            (uint64_t)nd->supernode << 32 | nd->server};
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
                            (uint64_t)2 << 62 |
                                (uint64_t)nd->supernode << 32 | nd->server};
        uint32_t p, ep = lmap_get(fn, nodes[i]);
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
                uint32_t ip = in_piece(fn, fn->px[pr->off + e].node,
                                       SN_LINK_SCALE_OUT, nodes[i]);
                const struct seg *g = &fn->sg[ip];
                uint32_t cap_ld = g->bneck_ld == SN_NONE ? 0 : 1;
                h = sn_hash64(&g->bneck, sizeof(g->bneck), h);
                h = sn_hash64(&cap_ld, sizeof(cap_ld), h);
                h = sn_hash64(&g->n, sizeof(g->n), h);
                inlat[nin + e] = g->lat;
            }
            h = sn_hash64(&h, sizeof(h), out_sig(fn, nodes[i], &out_lat[i],
                                                 &alone));
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
            size_t nn = near_list(fn, nodes, i, &near_of, nhead, nnext,
                                  &near, &near_cap);
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
            rc = sn__flow_pair(fn, nodes[rep_i[gi]], nodes[rep_j[gi]], &v,
                               err);
            if (rc)
                break;
            spread = 2 * in_dev[gi] +
                     (a < ng ? out_hi[a] - out_lo[a] : 0);
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
