/* flow-int.h: the flow engine's internals, shared by its files (the
 * interface for the rest of the model is flow.h):
 *   flow-net.c    the network: capacities, fabric and scale-up components,
 *                 each endpoint's host side (lmap) and exit profiles;
 *   flow-route.c  fabric distances, route pieces, halves and routes;
 *   flow-step.c   link loads of a step, all-to-all and max-min fair rates;
 *   flow-pairs.c  pair values and every pair grouped into classes.
 *
 * Routes split per hop over ECMP next hops, built from cached pieces. A
 * route from s to d is cut where every path crosses one node:
 *   out piece  s -> its entries into a switch fabric (NIC -> leaf, GPU ->
 *              scale-up chips), found by a small search of s's host side;
 *   fabric     entry A -> the exits of d, over switches of one class;
 *   in piece   exit B -> d, the mirror of d's host side.
 * Pieces are keyed by (s, optimal entries), (A, class, d's exit profile)
 * and (B, class, d), so all-to-all among 4,096 endpoints under 128 leaves
 * builds about 4,096 + 128 x 128 + 4,096 pieces rather than 16.7 M routes.
 * Costs and forwarding rules are topo's (route-int.h, sn_topo_paths): a host
 * (PCIe) hop costs 64, any other 1; switches forward within their class,
 * NICs between host and network, CPUs host to host, accelerators scale-up
 * to scale-up only where the fabric makes them transit. Pairs with no
 * route of that shape (a route through another server's host side, which
 * only failures force) fall back to sn_topo_paths' explicit path list,
 * split evenly over the paths. */
#ifndef SN_MODEL_FLOW_INT_H
#define SN_MODEL_FLOW_INT_H

#if !defined(SN_MODULE_net) && !defined(SN_TESTS)
#error "private to src/lib/net (tests/layers/table)"
#endif

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
    uint8_t cls;       /* class of the arriving link, CLS_ROOT for the root */
    uint8_t kind;      /* LS_* */
    uint16_t k;        /* entries: shortest-path links arriving at the state */
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
    double lat; /* mean latency from the piece's start */
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
    float *lat;      /* per link */
    uint32_t *fidx;  /* per node: fabric index or SN_NONE */
    uint32_t *fnode; /* fabric index -> node */
    uint32_t nfab;
    /* fabric components (over fabric-to-fabric links): a distance tree
     * covers the component of its root only */
    uint32_t *fcomp;  /* per fabric index: component */
    uint32_t *flocal; /* per fabric index: index inside its component */
    uint32_t *fcsize; /* per component: fabric nodes */
    uint32_t *comp;   /* per node: scale-up component */
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
    uint32_t *pxtree; /* per profile exit: its distance tree, SN_NONE */
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
    double *fab_w, *fab_lat; /* per fabric index */
    uint32_t *fab_mark;
    uint32_t fab_gen;
    uint32_t *dmemo, *dmark; /* per fabric index: prof_dist memo */
    uint32_t dgen;
    double *ld_acc; /* per link direction */
    uint32_t *ld_mark;
    uint32_t ld_gen;
    double *xload; /* per link direction: loads pushed
                      through the fabric directly (all-to-all) */
    uint32_t *xlist;
    size_t nx, x_cap;
    uint32_t *touched;
    size_t ntouched, touched_cap;
};

static inline uint32_t other_end(const struct sn_link *l, uint32_t v)
{
    return l->a == v ? l->b : l->a;
}

static inline uint32_t ld_of(const struct sn_link *l, uint32_t link,
                             uint32_t from)
{
    assert(l->a == from || l->b == from);
    return 2 * link + (l->a == from ? 0u : 1u);
}

/* A fabric node forwards within a class and is where routes are cut:
 * switches (except PCIe switches, which belong to a server's host side)
 * and, in mesh and torus fabrics, accelerators on their scale-up links. */
static inline bool is_fabric_for(const struct sn_topo *t, uint32_t v, int cls)
{
    const struct sn_node *n = &t->nodes[v];

    if (n->kind == SN_NODE_SWITCH)
        return n->role != SN_SW_PCIE;
    if (n->kind == SN_NODE_ACCEL)
        return t->accel_transit && cls == SN_LINK_SCALE_UP;
    return false;
}

static inline bool is_pass(const struct sn_topo *t, uint32_t v)
{
    const struct sn_node *n = &t->nodes[v];

    return n->kind == SN_NODE_NIC || n->kind == SN_NODE_CPU ||
           (n->kind == SN_NODE_SWITCH && n->role == SN_SW_PCIE);
}

/* Does link l, healthy and of class cls, lead to w as a fabric node of
 * that class? The hops that fabric routes take. */
static inline bool fabric_link(const struct sn_flownet *fn,
                               const struct sn_link *l, uint32_t w, int cls)
{
    return l->cls == cls && l->health > 0 && fn->fidx[w] != SN_NONE &&
           is_fabric_for(fn->t, w, cls);
}

/* Lowest-first binary heap of (dist << 32 | state index). */
struct heap {
    uint64_t *v; /* dist << 32 | state index */
    size_t n, cap;
};

/* Pieces of s -> d with weights, appended to caller arrays. */
struct pieces {
    uint32_t *seg;
    double *w;
    size_t n, cap;
    size_t nhalf; /* pieces before the in pieces: out, then fabric */
    double latency;
    uint32_t cost;
};

static inline uint32_t cost_hops(uint32_t cost)
{
    return cost / HOST_COST + cost % HOST_COST;
}

/* The state index (absolute, into fn->st) of (node, cls) in the lmap last
 * marked by sn__flow_lmap_index(), or SN_NONE. */
static inline uint32_t lstate_find(const struct sn_flownet *fn, uint32_t node,
                                   int cls)
{
    size_t k = (size_t)node * 4 + (size_t)cls;

    /* four states per node: one per arriving class and the root's */
    assert(node < fn->t->nnodes && cls >= 0 && cls <= CLS_ROOT);
    return fn->mark[k] == fn->gen ? fn->slot[k] : SN_NONE;
}

/* Endpoints near each other: in the same scale-up component or the same
 * server. Every endpoint i is in two buckets, entry 2i chaining its
 * component's and 2i + 1 its server's; all-to-all and the pair classes
 * route near pairs one by one and the far ones in aggregate. */
struct near_index {
    struct hmap of;       /* bucket key -> bucket */
    uint32_t *head;       /* per bucket: its latest entry, SN_NONE if none */
    uint32_t *next;       /* per entry: the entry added before it */
    size_t n, nb, nb_cap; /* endpoints, buckets */
};

/* ---- flow-net.c ---------------------------------------------------------- */

/* Push x on h (grown as needed); pop the smallest (h->n > 0). */
void sn__flow_heap_push(struct heap *h, uint64_t x);
uint64_t sn__flow_heap_pop(struct heap *h);
/* The lmap id of endpoint root: its host side searched once, then cached. */
uint32_t sn__flow_lmap(struct sn_flownet *fn, uint32_t root);
/* Mark lmap m's states for lstate_find(). */
void sn__flow_lmap_index(struct sn_flownet *fn, const struct lmap *m);

/* An index for n endpoints, filled by sn__flow_near_add for i = 0..n-1 in
 * order; released with sn__flow_near_release. */
void sn__flow_near_init(struct near_index *ni, size_t n);
void sn__flow_near_add(const struct sn_flownet *fn, struct near_index *ni,
                       const uint32_t *nodes, size_t i);
/* The endpoints near endpoint i (i among them), each once, into *near
 * (grown as needed): its component's bucket, then its server's, each
 * newest first. Returns their number. */
size_t sn__flow_near_collect(const struct sn_flownet *fn,
                             const struct near_index *ni, const uint32_t *nodes,
                             size_t i, uint32_t **near, size_t *near_cap);
/* The bucket of endpoint i: 0 its component's, 1 its server's. */
uint32_t sn__flow_near_bucket(const struct sn_flownet *fn,
                              const struct near_index *ni,
                              const uint32_t *nodes, size_t i, int which);
void sn__flow_near_release(struct near_index *ni);

/* ---- flow-route.c -------------------------------------------------------- */

/* Cost from fabric node x to the endpoint of profile p (INF32 if none). */
uint32_t sn__flow_prof_dist(struct sn_flownet *fn, uint32_t p, uint32_t x);
/* sn__flow_prof_dist through a memo valid for one walk (dist_begin). */
void sn__flow_dist_begin(struct sn_flownet *fn);
uint32_t sn__flow_dist_memo(struct sn_flownet *fn, uint32_t p, uint32_t x);
/* Does link l (class cls, toward w) take a fabric node at cost du one hop
 * closer to the exits of profile p? And how many links of fabric node u
 * do? (Costs through the sn__flow_dist_memo walk.) */
bool sn__flow_fabric_down(struct sn_flownet *fn, uint32_t p, int cls,
                          const struct sn_link *l, uint32_t w, uint32_t du);
uint32_t sn__flow_fabric_fanout(struct sn_flownet *fn, uint32_t p, int cls,
                                uint32_t u, uint32_t du);
/* The out piece of lmap mi toward target states, cached. */
uint32_t sn__flow_out_cached(struct sn_flownet *fn, uint32_t mi, uint32_t off,
                             const uint32_t *tgt, const uint32_t *tail,
                             size_t ntgt);
/* The entries of lmap mi on a best route toward profile p; the best cost
 * (INF32 when none reaches). */
uint32_t sn__flow_class_targets(struct sn_flownet *fn, uint32_t mi, uint32_t p,
                                uint32_t *tgt, uint32_t *tail, size_t *ntgt);
/* The class half of lmap mi toward profile p, cached. */
uint32_t sn__flow_half_class(struct sn_flownet *fn, uint32_t mi, uint32_t p);
/* The in piece from exit b (class cls) to endpoint d, cached. */
uint32_t sn__flow_in_piece(struct sn_flownet *fn, uint32_t b, int cls,
                           uint32_t d);
/* The pieces of s -> d with their weights into pc (reused). */
int sn__flow_route_pieces(struct sn_flownet *fn, uint32_t s, uint32_t d,
                          struct pieces *pc, struct sn_error *err);
/* Per-link-direction sums: begin, then add; fn->touched lists them. */
void sn__flow_ld_begin(struct sn_flownet *fn);
void sn__flow_ld_add(struct sn_flownet *fn, uint32_t ld, double v);

#endif
