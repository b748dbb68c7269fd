/* coll.c: the collective model on a topology. A group of ranks is cut into
 * scale-up domains; each algorithm is a sequence of steps whose concurrent
 * flows form a pattern (ring edges, rings inside every domain, rings
 * along every rail, pairwise); the flow engine (flow-*.c) gives each
 * pattern its bottleneck bandwidth once, and every later call costs an
 * alpha-beta sum per protocol:
 *
 *   time = base + steps x (hop + wire) + bytes on the wire / (bw x eff)
 *
 * with NCCL's base and hop latencies and protocol payload shares
 * (coll-params.c). Patterns of groups too large for the engine take the
 * per-level estimate: each rank's own scale-up and NIC capacity, with the
 * switch fabric assumed non-blocking (docs/model.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll-int.h"
#include "flow.h"
#include "hmap.h"
#include "sn/model.h"

/* PAT_POD: on each rail, a ring among the domains of every pod;
 * PAT_XPOD: on each rail, a ring through the pods (three-level). */
enum pat {
    PAT_RING,
    PAT_INTRA,
    PAT_RAIL,
    PAT_SR,
    PAT_A2A,
    PAT_POD,
    PAT_XPOD,
    PAT_COUNT
};

/* What one pattern's step gives: bw is the per-rank bandwidth of the
 * step (bytes/s a rank moves through its flows of the step), wire the
 * largest wire latency of a flow. */
struct patres {
    bool done;
    bool empty;   /* no flows (a domain of one rank) */
    bool flows;   /* from the flow engine */
    double bw;
    double t_unit; /* alltoall: seconds per byte per flow */
    double wire;   /* largest wire latency of a flow */
    double wire_in; /* of a flow inside one domain */
    int cls;
};

struct grp {
    uint64_t key;
    uint32_t n, sib;
    uint32_t first, stride; /* the shape, when not a list */
    bool list;
    uint32_t *ranks;   /* sib groups of n ranks, one after another */
    /* group 0's domains in order of first appearance */
    uint32_t m;
    uint32_t *doff;    /* m + 1 offsets into dlist */
    uint32_t *dlist;   /* ranks of each domain, in group order */
    uint32_t gmin, gmax;
    bool regular;
    int intra_cls;     /* scale-up, or host when the ranks have none */
    /* pods of group 0 (three-level): domains whose ranks enter the
     * network at the same switches, index by index */
    uint32_t npods;    /* pods found (0: not looked for or no exits) */
    uint32_t pod_rmin, pod_rmax; /* the group's domains per pod */
    uint32_t pod_r;    /* domains per pod when three-level applies */
    uint32_t *porder;  /* m domain indices, pod by pod (NULL: does not
                          apply) */
    bool pod_noexit;   /* a rank has no network switch behind it */
    double up_min, nvls_min, nic_min;    /* effective, per rank */
    double up_nom, nic_nom, host_nom;    /* nominal, per rank */
    struct patres pat[PAT_COUNT];
};

struct sn_coll_model {
    const struct sn_topo *t;
    struct sn_coll_params p;
    struct sn_flownet *fn;
    uint32_t *dom;     /* per rank: scale-up domain id */
    uint32_t ndom;
    double *up_cap, *up_nom, *nvls_cap, *nic_cap, *nic_nom, *host_nom;
    uint64_t *exits;   /* per rank: the switches its NICs plug into */
    struct hmap grp_of;
    struct grp **grps;
    size_t ngrps, grps_cap;
};

/* ---- names ---------------------------------------------------------------- */

static const char *const op_names[SN_COLL_OP_COUNT] = {
    "allreduce", "allgather", "reducescatter", "alltoall",
    "broadcast", "reduce",    "sendrecv"};

static const char *const algo_names[SN_ALGO_COUNT] = {
    "auto", "ring", "tree", "nvls", "hier", "direct", "hier3"};

const char *sn_coll_op_name(enum sn_coll_op op)
{
    return (unsigned)op < SN_COLL_OP_COUNT ? op_names[op] : "?";
}

const char *sn_coll_algo_name(enum sn_coll_algo algo)
{
    return (unsigned)algo < SN_ALGO_COUNT ? algo_names[algo] : "?";
}

int sn_coll_op_parse(const char *name)
{
    for (int i = 0; i < SN_COLL_OP_COUNT; i++)
        if (sn_strcaseeq(name, op_names[i]))
            return i;
    return -1;
}

int sn_coll_algo_parse(const char *name)
{
    for (int i = 0; i < SN_ALGO_COUNT; i++)
        if (sn_strcaseeq(name, algo_names[i]))
            return i;
    return -1;
}

double sn_coll_bus_factor(enum sn_coll_op op, uint32_t n)
{
    /* nccl-tests doc/PERFORMANCE.md */
    if (n == 0)
        return 0;
    switch (op) {
    case SN_COLL_ALLREDUCE:
        return 2.0 * (n - 1) / n;
    case SN_COLL_ALLGATHER:
    case SN_COLL_REDUCESCATTER:
    case SN_COLL_ALLTOALL:
        return (double)(n - 1) / n;
    case SN_COLL_BROADCAST:
    case SN_COLL_REDUCE:
    case SN_COLL_SENDRECV:
        return 1.0;
    default:
        return 0;
    }
}

/* ---- the model -------------------------------------------------------------- */

static uint32_t other_end(const struct sn_link *l, uint32_t v)
{
    return l->a == v ? l->b : l->a;
}

/* Per-rank capacities, read once: scale-up injection, the part of it that
 * reaches in-network-reduction switches, and the rank's share of its
 * server's NICs (all of the server's ranks use the network at once; a rank
 * without a NIC of its own reaches them over its host link). */
static void rank_caps(struct sn_coll_model *m)
{
    const struct sn_topo *t = m->t;
    const double *eff = m->p.link_eff;
    struct hmap srv = {0};
    double *out = NULL, *out_nom = NULL;
    uint32_t *users = NULL;
    size_t nsrv = 0, cap = 0;

    /* per server: network capacity of its NICs and its accelerators */
    for (size_t v = 0; v < t->nnodes; v++) {
        const struct sn_node *nd = &t->nodes[v];
        uint64_t key = (uint64_t)nd->supernode << 32 | nd->server;
        uint32_t id;
        if (nd->kind != SN_NODE_NIC && nd->kind != SN_NODE_ACCEL)
            continue;
        id = hget(&srv, key);
        if (id == SN_NONE) {
            id = (uint32_t)nsrv++;
            hput(&srv, key, id);
            if (nsrv > cap) {
                size_t old = cap;
                SN_GROW(out, cap, nsrv);
                out_nom = sn_xrealloc(out_nom, cap * sizeof(double));
                users = sn_xrealloc(users, cap * sizeof(uint32_t));
                for (size_t i = old; i < cap; i++) {
                    out[i] = out_nom[i] = 0;
                    users[i] = 0;
                }
            }
        }
        if (nd->kind == SN_NODE_ACCEL) {
            users[id]++;
            continue;
        }
        for (uint32_t a = t->adj_off[v]; a < t->adj_off[v + 1]; a++) {
            const struct sn_link *l = &t->links[t->adj[a]];
            if (l->cls != SN_LINK_SCALE_OUT)
                continue;
            out[id] += (double)l->bw * l->health * eff[SN_LINK_SCALE_OUT];
            out_nom[id] += l->bw;
        }
    }
    for (size_t r = 0; r < t->naccel; r++) {
        uint32_t v = t->accel[r];
        const struct sn_node *nd = &t->nodes[v];
        uint32_t id = hget(&srv, (uint64_t)nd->supernode << 32 | nd->server);
        double up = 0, upn = 0, nv = 0, direct = 0, via_cpu = 0, host = 0;
        for (uint32_t a = t->adj_off[v]; a < t->adj_off[v + 1]; a++) {
            const struct sn_link *l = &t->links[t->adj[a]];
            const struct sn_node *o = &t->nodes[other_end(l, v)];
            double c = (double)l->bw * l->health * eff[l->cls];
            if (l->cls == SN_LINK_SCALE_UP) {
                up += c;
                upn += l->bw;
                if (o->kind == SN_NODE_SWITCH)
                    nv += c;
            } else if (l->cls == SN_LINK_HOST) {
                if (l->bw > host)
                    host = l->bw;
                if (o->kind == SN_NODE_NIC)
                    direct += c;
                else if (o->kind == SN_NODE_CPU ||
                         (o->kind == SN_NODE_SWITCH && o->role == SN_SW_PCIE))
                    via_cpu += c;
            }
        }
        m->up_cap[r] = up;
        m->up_nom[r] = upn;
        m->nvls_cap[r] = nv;
        m->host_nom[r] = host;
        if (id != SN_NONE && users[id]) {
            double share = out[id] / users[id];
            double path = direct > 0 ? direct : via_cpu;
            m->nic_cap[r] = path < share ? path : share;
            m->nic_nom[r] = out_nom[id] / users[id];
        }
    }
    hfree(&srv);
    free(out);
    free(out_nom);
    free(users);
}

/* ---- network exits (three-level pods) ------------------------------------ */

#define NO_EXIT UINT64_MAX

/* The switches a set of NICs plugs into, folded so that the same set
 * gives the same value: one switch is its node id; several a mark bit
 * and a sum of their mixed ids. */
struct exits {
    uint32_t first;
    bool several;
    uint64_t sum;
};

static uint64_t mix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    return k ^ (k >> 33);
}

static void exits_add_nic(const struct sn_topo *t, uint32_t nic,
                          struct exits *e)
{
    for (uint32_t a = t->adj_off[nic]; a < t->adj_off[nic + 1]; a++) {
        const struct sn_link *l = &t->links[t->adj[a]];
        uint32_t o = other_end(l, nic);
        if (l->cls != SN_LINK_SCALE_OUT || t->nodes[o].kind != SN_NODE_SWITCH)
            continue;
        if (e->first == SN_NONE)
            e->first = o;
        else if (o != e->first)
            e->several = true;
        e->sum += mix64(o);
    }
}

static uint64_t exits_value(const struct exits *e)
{
    if (e->first == SN_NONE)
        return NO_EXIT;
    if (!e->several)
        return e->first;
    return (uint64_t)1 << 62 | (e->sum & (((uint64_t)1 << 62) - 1));
}

/* Where each rank enters the network: the first switches (leaves) behind
 * its own NICs, or behind every NIC of its server when it reaches them
 * only through the host. Read from the cabling, not from link health: a
 * pod is where the switches stand, and a failed link is the flow
 * engine's to price. */
static void rank_exits(struct sn_coll_model *m)
{
    const struct sn_topo *t = m->t;
    struct hmap srv = {0};
    struct exits *se = NULL;
    size_t nsrv = 0, cap = 0;
    bool need_srv = false;

    for (size_t r = 0; r < t->naccel; r++) {
        uint32_t v = t->accel[r];
        struct exits e = {SN_NONE, false, 0};
        bool direct = false;
        for (uint32_t a = t->adj_off[v]; a < t->adj_off[v + 1]; a++) {
            const struct sn_link *l = &t->links[t->adj[a]];
            uint32_t o = other_end(l, v);
            if (l->cls == SN_LINK_HOST && t->nodes[o].kind == SN_NODE_NIC) {
                exits_add_nic(t, o, &e);
                direct = true;
            }
        }
        m->exits[r] = exits_value(&e);
        if (!direct) {
            m->exits[r] = NO_EXIT - 1; /* the server's, below */
            need_srv = true;
        }
    }
    if (!need_srv)
        return;
    for (size_t v = 0; v < t->nnodes; v++) {
        const struct sn_node *nd = &t->nodes[v];
        uint64_t key = (uint64_t)nd->supernode << 32 | nd->server;
        uint32_t id;
        if (nd->kind != SN_NODE_NIC)
            continue;
        id = hget(&srv, key);
        if (id == SN_NONE) {
            id = (uint32_t)nsrv++;
            hput(&srv, key, id);
            SN_GROW(se, cap, nsrv);
            se[id] = (struct exits){SN_NONE, false, 0};
        }
        exits_add_nic(t, (uint32_t)v, &se[id]);
    }
    for (size_t r = 0; r < t->naccel; r++) {
        const struct sn_node *nd = &t->nodes[t->accel[r]];
        uint32_t id;
        if (m->exits[r] != NO_EXIT - 1)
            continue;
        id = hget(&srv, (uint64_t)nd->supernode << 32 | nd->server);
        m->exits[r] = id == SN_NONE ? NO_EXIT : exits_value(&se[id]);
    }
    hfree(&srv);
    free(se);
}

int sn_coll_model_new_params(const struct sn_topo *t,
                             const struct sn_coll_params *p,
                             struct sn_coll_model **out, struct sn_error *err)
{
    struct sn_coll_model *m;
    struct hmap ids = {0};
    int rc;

    *out = NULL;
    if (!t || !t->finished)
        return sn_error_set(err, SN_EINPUT, "topology is not finished");
    if (t->naccel == 0)
        return sn_error_set(err, SN_EINPUT, "topology has no accelerators");
    m = sn_xcalloc(1, sizeof(*m));
    m->t = t;
    m->p = *p;
    rc = sn__flownet_new(t, p->link_eff, &m->fn, err);
    if (rc) {
        free(m);
        return rc;
    }
    m->dom = sn_xmalloc(t->naccel * sizeof(uint32_t));
    m->up_cap = sn_xcalloc(t->naccel, sizeof(double));
    m->up_nom = sn_xcalloc(t->naccel, sizeof(double));
    m->nvls_cap = sn_xcalloc(t->naccel, sizeof(double));
    m->nic_cap = sn_xcalloc(t->naccel, sizeof(double));
    m->nic_nom = sn_xcalloc(t->naccel, sizeof(double));
    m->host_nom = sn_xcalloc(t->naccel, sizeof(double));
    m->exits = sn_xmalloc(t->naccel * sizeof(uint64_t));
    /* domains: the scale-up component; ranks without scale-up links form
     * one domain per server */
    for (size_t r = 0; r < t->naccel; r++) {
        uint32_t v = t->accel[r], c = sn__flownet_component(m->fn, v);
        const struct sn_node *nd = &t->nodes[v];
        uint64_t key;
        uint32_t id;
        if (c == v) {
            bool alone = true;
            for (uint32_t a = t->adj_off[v]; a < t->adj_off[v + 1]; a++) {
                const struct sn_link *l = &t->links[t->adj[a]];
                alone &= !(l->cls == SN_LINK_SCALE_UP && l->health > 0);
            }
            key = alone ? (uint64_t)1 << 63 | (uint64_t)nd->supernode << 32 |
                              nd->server
                        : c;
        } else {
            key = c;
        }
        id = hget(&ids, key);
        if (id == SN_NONE) {
            id = (uint32_t)ids.n;
            hput(&ids, key, id);
        }
        m->dom[r] = id;
    }
    m->ndom = (uint32_t)ids.n;
    hfree(&ids);
    rank_caps(m);
    rank_exits(m);
    *out = m;
    return SN_OK;
}

int sn_coll_model_new(const struct sn_topo *t, struct sn_coll_model **out,
                      struct sn_error *err)
{
    struct sn_coll_params p;
    int rc;

    *out = NULL;
    sn_coll_params_default(t, &p);
    if (t && t->spec) {
        rc = sn_coll_params_from_spec(t->spec, &p, err);
        if (rc)
            return rc;
    }
    return sn_coll_model_new_params(t, &p, out, err);
}

static void grp_free(struct grp *g)
{
    if (!g)
        return;
    free(g->ranks);
    free(g->doff);
    free(g->dlist);
    free(g->porder);
    free(g);
}

void sn_coll_model_free(struct sn_coll_model *m)
{
    if (!m)
        return;
    sn__flownet_free(m->fn);
    free(m->dom);
    free(m->up_cap);
    free(m->up_nom);
    free(m->nvls_cap);
    free(m->nic_cap);
    free(m->nic_nom);
    free(m->host_nom);
    free(m->exits);
    for (size_t i = 0; i < m->ngrps; i++)
        grp_free(m->grps[i]);
    free(m->grps);
    hfree(&m->grp_of);
    free(m);
}

/* What coll-int.h lends to pairs.c. */
struct sn_flownet *sn__coll_flownet(struct sn_coll_model *m)
{
    return m->fn;
}

const struct sn_coll_params *sn__coll_params(const struct sn_coll_model *m)
{
    return &m->p;
}

uint32_t sn__coll_domain(const struct sn_coll_model *m, uint32_t rank)
{
    return m->dom[rank];
}

const struct sn_topo *sn__coll_topo(const struct sn_coll_model *m)
{
    return m->t;
}

/* ---- groups ------------------------------------------------------------------- */

static uint64_t group_key(const struct sn_group *g, uint32_t sib)
{
    uint64_t h = sn_hash64(&g->n, sizeof(g->n), 7);

    h = sn_hash64(&sib, sizeof(sib), h);
    if (g->ranks)
        return sn_hash64(g->ranks, g->n * sizeof(uint32_t), h ^ 1);
    h = sn_hash64(&g->first, sizeof(g->first), h);
    return sn_hash64(&g->stride, sizeof(g->stride), h);
}

static bool grp_same(const struct grp *a, const struct sn_group *g,
                     uint32_t sib)
{
    if (a->n != g->n || a->sib != sib || a->list != (g->ranks != NULL))
        return false;
    if (!g->ranks)
        return a->first == g->first && (a->stride == g->stride || g->n < 2);
    for (uint32_t i = 0; i < g->n; i++) {
        uint32_t r = g->ranks ? g->ranks[i] : g->first + i * g->stride;
        if (a->ranks[i] != r)
            return false;
    }
    return true;
}

/* Expand, check and cut a group into domains. */
/* Whether domains i and j of group 0 enter the network at the same
 * switches, local index by local index. */
static bool same_exits(const struct sn_coll_model *m, const struct grp *G,
                       uint32_t i, uint32_t j)
{
    const uint32_t *a = G->dlist + G->doff[i], *b = G->dlist + G->doff[j];

    for (uint32_t k = 0; k < G->gmax; k++)
        if (m->exits[a[k]] != m->exits[b[k]])
            return false;
    return true;
}

/* The pods of group 0 for the three-level scheme: its domains grouped by
 * where their ranks enter the network, local index by local index (so
 * that rank k of every domain of a pod meets under one leaf: a scalable
 * unit of a rail-optimised fat tree). Three levels apply with two or
 * more pods holding the same number, two or more, of the group's
 * domains. */
static void grp_pods(const struct sn_coll_model *m, struct grp *G)
{
    struct hmap ids = {0};
    uint32_t *pod, *first, *cnt, np = 0;

    if (G->m < 2 || !G->regular)
        return;
    pod = sn_xmalloc(G->m * sizeof(uint32_t));
    first = sn_xmalloc(G->m * sizeof(uint32_t));
    cnt = sn_xcalloc(G->m, sizeof(uint32_t));
    for (uint32_t j = 0; j < G->m; j++) {
        const uint32_t *l = G->dlist + G->doff[j];
        uint32_t id;
        /* probe on the first rank's exits, then compare them all (a
         * domain's pod is usually found at the first probe: this is one
         * pass over the group's ranks) */
        for (uint64_t k = m->exits[l[0]];; k++) {
            id = hget(&ids, k);
            if (id == SN_NONE) {
                for (uint32_t x = 0; x < G->gmax; x++)
                    if (m->exits[l[x]] == NO_EXIT) {
                        G->pod_noexit = true;
                        goto out;
                    }
                id = np++;
                first[id] = j;
                hput(&ids, k, id);
                break;
            }
            if (same_exits(m, G, first[id], j))
                break;
        }
        pod[j] = id;
        cnt[id]++;
    }
    G->npods = np;
    G->pod_rmin = UINT32_MAX;
    for (uint32_t i = 0; i < np; i++) {
        if (cnt[i] < G->pod_rmin)
            G->pod_rmin = cnt[i];
        if (cnt[i] > G->pod_rmax)
            G->pod_rmax = cnt[i];
    }
    if (np >= 2 && G->pod_rmin == G->pod_rmax && G->pod_rmin >= 2) {
        G->pod_r = G->pod_rmin;
        G->porder = sn_xmalloc(G->m * sizeof(uint32_t));
        memset(cnt, 0, G->m * sizeof(uint32_t));
        for (uint32_t j = 0; j < G->m; j++)
            G->porder[pod[j] * G->pod_r + cnt[pod[j]]++] = j;
    }
out:
    hfree(&ids);
    free(pod);
    free(first);
    free(cnt);
}

static int grp_build(struct sn_coll_model *m, const struct sn_group *g,
                     uint32_t sib, struct grp **out, struct sn_error *err)
{
    const struct sn_topo *t = m->t;
    struct grp *G;
    uint8_t *seen;
    uint32_t *dl, ndom = 0;
    uint32_t *count;
    int rc = SN_OK;

    *out = NULL;
    if (g->n < 1)
        return sn_error_set(err, SN_EINPUT, "a group needs at least one rank");
    if ((uint64_t)g->n * sib > t->naccel)
        return sn_error_set(err, SN_EINPUT,
                            "group of %u ranks x %u is larger than the "
                            "cluster's %zu accelerators",
                            g->n, sib, t->naccel);
    if (!g->ranks && g->n > 1 && g->stride == 0)
        return sn_error_set(err, SN_EINPUT, "group stride is 0");
    G = sn_xcalloc(1, sizeof(*G));
    G->n = g->n;
    G->sib = sib;
    G->first = g->first;
    G->stride = g->stride;
    G->list = g->ranks != NULL;
    seen = sn_xcalloc(t->naccel / 8 + 1, 1);
    G->ranks = sn_xmalloc((size_t)g->n * sib * sizeof(uint32_t));
    for (uint32_t s = 0; s < sib && !rc; s++) {
        for (uint32_t i = 0; i < g->n; i++) {
            uint64_t r = g->ranks ? (uint64_t)g->ranks[i] + s
                                  : (uint64_t)g->first + s +
                                        (uint64_t)i * g->stride;
            if (r >= t->naccel) {
                rc = sn_error_set(err, SN_EINPUT,
                                  "rank %llu is outside the cluster (0 to "
                                  "%zu)",
                                  (unsigned long long)r, t->naccel - 1);
                break;
            }
            if (seen[r / 8] & (1u << (r % 8))) {
                rc = sn_error_set(err, SN_EINPUT,
                                  "rank %llu appears twice in the group",
                                  (unsigned long long)r);
                break;
            }
            seen[r / 8] |= (uint8_t)(1u << (r % 8));
            G->ranks[(size_t)s * g->n + i] = (uint32_t)r;
        }
    }
    free(seen);
    if (rc) {
        grp_free(G);
        return rc;
    }
    /* group 0's domains */
    count = sn_xcalloc(g->n + 1, sizeof(uint32_t));
    {
        uint32_t *which = sn_xmalloc((g->n + 1) * sizeof(uint32_t));
        ndom = m->ndom;
        dl = sn_xmalloc((ndom + 1) * sizeof(uint32_t));
        memset(dl, 0xff, (ndom + 1) * sizeof(uint32_t));
        for (uint32_t i = 0; i < g->n; i++) {
            uint32_t d = m->dom[G->ranks[i]], j = dl[d];
            if (j == SN_NONE) {
                j = G->m++;
                dl[d] = j;
            }
            which[i] = j;
            count[j]++;
        }
        free(dl);
        G->doff = sn_xcalloc(G->m + 1, sizeof(uint32_t));
        G->dlist = sn_xmalloc((g->n + 1) * sizeof(uint32_t));
        for (uint32_t j = 0; j < G->m; j++)
            G->doff[j + 1] = G->doff[j] + count[j];
        memset(count, 0, (g->n + 1) * sizeof(uint32_t));
        for (uint32_t i = 0; i < g->n; i++)
            G->dlist[G->doff[which[i]] + count[which[i]]++] = G->ranks[i];
        free(which);
    }
    G->gmin = UINT32_MAX;
    for (uint32_t j = 0; j < G->m; j++) {
        uint32_t c = G->doff[j + 1] - G->doff[j];
        if (c < G->gmin)
            G->gmin = c;
        if (c > G->gmax)
            G->gmax = c;
    }
    G->regular = G->gmin == G->gmax;
    free(count);
    /* per-rank capacities over every sibling */
    G->up_min = G->nvls_min = G->nic_min = INFINITY;
    G->up_nom = G->nic_nom = G->host_nom = INFINITY;
    for (size_t i = 0; i < (size_t)g->n * sib; i++) {
        uint32_t r = G->ranks[i];
        G->up_min = fmin(G->up_min, m->up_cap[r]);
        G->nvls_min = fmin(G->nvls_min, m->nvls_cap[r]);
        G->nic_min = fmin(G->nic_min, m->nic_cap[r]);
        G->up_nom = fmin(G->up_nom, m->up_nom[r]);
        G->nic_nom = fmin(G->nic_nom, m->nic_nom[r]);
        G->host_nom = fmin(G->host_nom, m->host_nom[r]);
    }
    G->intra_cls = G->up_nom > 0 ? SN_LINK_SCALE_UP : SN_LINK_HOST;
    grp_pods(m, G);
    *out = G;
    return SN_OK;
}

static int grp_get(struct sn_coll_model *m, const struct sn_group *g,
                   uint32_t sib, struct grp **out, struct sn_error *err)
{
    uint64_t key;
    int rc;

    if (sib < 1)
        sib = 1;
    key = group_key(g, sib);

    /* probe on the key; compare contents to rule out collisions */
    for (uint64_t k = key;; k++) {
        uint32_t id = hget(&m->grp_of, k);
        if (id == SN_NONE)
            break;
        if (grp_same(m->grps[id], g, sib)) {
            *out = m->grps[id];
            return SN_OK;
        }
    }
    rc = grp_build(m, g, sib, out, err);
    if (rc)
        return rc;
    SN_GROW(m->grps, m->grps_cap, m->ngrps + 1);
    m->grps[m->ngrps] = *out;
    for (uint64_t k = key;; k++)
        if (hget(&m->grp_of, k) == SN_NONE) {
            hput(&m->grp_of, k, (uint32_t)m->ngrps);
            break;
        }
    m->ngrps++;
    return SN_OK;
}

/* ---- patterns ------------------------------------------------------------------- */

struct flist {
    struct sn__flow *f;
    size_t n, cap;
    struct hmap idx;
};

static void flist_add(struct sn_coll_model *m, struct flist *fl, uint32_t a,
                      uint32_t b, double mult)
{
    uint32_t sa = m->t->accel[a], sb = m->t->accel[b];
    uint64_t key = (uint64_t)sa << 32 | sb;
    uint32_t i;

    if (a == b)
        return;
    i = hget(&fl->idx, key);
    if (i != SN_NONE) {
        fl->f[i].mult += mult;
        return;
    }
    SN_GROW(fl->f, fl->cap, fl->n + 1);
    fl->f[fl->n] = (struct sn__flow){sa, sb, mult};
    hput(&fl->idx, key, (uint32_t)fl->n);
    fl->n++;
}

static void flist_release(struct flist *fl)
{
    free(fl->f);
    hfree(&fl->idx);
}

/* One group's domain layout (siblings are shifted copies of group 0: the
 * same rank offsets; their own domains are found the same way). */
struct layout {
    uint32_t m;
    const uint32_t *doff;
    uint32_t *dlist;
};

static void layout_for(struct sn_coll_model *m, const struct grp *G,
                       uint32_t s, struct layout *L)
{
    L->m = G->m;
    L->doff = G->doff;
    L->dlist = sn_xmalloc((G->n + 1) * sizeof(uint32_t));
    if (s == 0) {
        memcpy(L->dlist, G->dlist, G->n * sizeof(uint32_t));
        return;
    }
    /* sibling s: ranks r + s, kept in the same slots; its domains may
     * differ from group 0's when the offset crosses a domain boundary,
     * which the routes then show */
    for (uint32_t i = 0; i < G->n; i++)
        L->dlist[i] = G->dlist[i] + s;
    (void)m;
}

/* Whether the scale-up domain is a full mesh: every pair of its
 * accelerators on links of their own. */
static bool mesh_fabric(const struct sn_coll_model *m)
{
    return m->t->spec && m->t->spec->scaleup.fabric == SN_FABRIC_FULL_MESH;
}

/* The rings of one domain on a full mesh: every rank sends an equal share
 * to every other, the union of the rings that cover each directed link
 * equally. RCCL drives the 7 Infinity Fabric links of an MI300X this way
 * (14 ring orderings over the 56 directed links, each twice: ROCm/rccl
 * src/graph/rome_models.cc); one ring in group order would use one link
 * of 7 (busbw 51 GB/s against the 318 measured). */
static void flows_mesh(struct sn_coll_model *m, struct flist *fl,
                       const uint32_t *rk, uint32_t g)
{
    for (uint32_t i = 0; g > 1 && i < g; i++)
        for (uint32_t j = 0; j < g; j++)
            if (j != i)
                flist_add(m, fl, rk[i], rk[j], 1.0 / (g - 1));
}

/* Where step q of a channel's walk through a mesh domain of g ranks
 * lands, as an offset from its entry. Even g: the zigzag 0, 1, -1, 2,
 * -2, ..., g/2 (Walecki), whose g - 1 steps are each difference mod g
 * once, so the g channels, entering at g different ranks, use every
 * directed link of the domain once. Odd g: the stride of channel k
 * among the steps coprime to g. A switched domain: 0, 1, 2, ... */
static uint32_t mesh_walk(uint32_t g, uint32_t k, uint32_t q, bool mesh)
{
    uint32_t steps[64], n = 0;

    if (!mesh || q == 0)
        return q % g;
    if (g % 2 == 0)
        return q % 2 ? (q + 1) / 2 : g - q / 2;
    for (uint32_t st = 1; st < g && n < 64; st++) {
        uint32_t a = st, b = g;
        while (b) {
            uint32_t r = a % b;
            a = b;
            b = r;
        }
        if (a == 1)
            steps[n++] = st;
    }
    return (uint32_t)((uint64_t)q * (n ? steps[k % n] : 1) % g);
}

/* The multi-channel ring: channel k enters every domain at one local
 * index, walks it, and leaves from the rank just before, to the rank of
 * the same local index in the next domain (rail-aligned, as NCCL's ring
 * search builds them). One domain: a single ring in group order, or on a
 * full mesh the rings over all its links. */
static void flows_ring(struct sn_coll_model *m, const struct grp *G,
                       struct flist *fl, uint32_t *channels)
{
    uint32_t c = G->m > 1 ? G->gmin : 1;

    *channels = c;
    for (uint32_t s = 0; s < G->sib; s++) {
        const uint32_t *rk = G->ranks + (size_t)s * G->n;
        struct layout L;
        if (G->m == 1 && mesh_fabric(m)) {
            flows_mesh(m, fl, rk, G->n);
            continue;
        }
        if (G->m == 1) {
            for (uint32_t i = 0; i < G->n; i++)
                flist_add(m, fl, rk[i], rk[(i + 1) % G->n], 1);
            continue;
        }
        layout_for(m, G, s, &L);
        for (uint32_t k = 0; k < c; k++) {
            uint32_t e = k;
            bool mesh = mesh_fabric(m);
            for (uint32_t j = 0; j < L.m; j++) {
                const uint32_t *l = L.dlist + L.doff[j];
                uint32_t g = L.doff[j + 1] - L.doff[j], x;
                uint32_t jn = (j + 1) % L.m;
                const uint32_t *ln = L.dlist + L.doff[jn];
                uint32_t gn = L.doff[jn + 1] - L.doff[jn];
                e %= g;
                for (uint32_t q = 0; q + 1 < g; q++)
                    flist_add(m, fl, l[(e + mesh_walk(g, k, q, mesh)) % g],
                              l[(e + mesh_walk(g, k, q + 1, mesh)) % g], 1);
                x = (e + mesh_walk(g, k, g - 1, mesh)) % g;
                e = jn == 0 ? k % gn : x % gn;
                flist_add(m, fl, l[x], ln[e], 1);
            }
        }
        free(L.dlist);
    }
}

static void flows_intra(struct sn_coll_model *m, const struct grp *G,
                        struct flist *fl)
{
    for (uint32_t s = 0; s < G->sib; s++) {
        struct layout L;
        layout_for(m, G, s, &L);
        for (uint32_t j = 0; j < L.m; j++) {
            const uint32_t *l = L.dlist + L.doff[j];
            uint32_t g = L.doff[j + 1] - L.doff[j];
            if (mesh_fabric(m)) {
                flows_mesh(m, fl, l, g);
                continue;
            }
            for (uint32_t q = 0; g > 1 && q < g; q++)
                flist_add(m, fl, l[q], l[(q + 1) % g], 1);
        }
        free(L.dlist);
    }
}

static void flows_rail(struct sn_coll_model *m, const struct grp *G,
                       struct flist *fl)
{
    for (uint32_t s = 0; s < G->sib; s++) {
        struct layout L;
        layout_for(m, G, s, &L);
        for (uint32_t k = 0; k < G->gmin; k++)
            for (uint32_t j = 0; j < L.m; j++) {
                uint32_t jn = (j + 1) % L.m;
                flist_add(m, fl, L.dlist[L.doff[j] + k],
                          L.dlist[L.doff[jn] + k], 1);
            }
        free(L.dlist);
    }
}

/* Three-level, on each rail k: a ring among the r domains of every pod
 * (PAT_POD), or through the q pods at each position in the pod
 * (PAT_XPOD); siblings keep group 0's pods slot by slot. */
static void flows_pods(struct sn_coll_model *m, const struct grp *G,
                       bool across, struct flist *fl)
{
    uint32_t r = G->pod_r, q = G->m / r;

    for (uint32_t s = 0; s < G->sib; s++) {
        struct layout L;
        layout_for(m, G, s, &L);
        for (uint32_t p = 0; p < q; p++)
            for (uint32_t i = 0; i < r; i++) {
                uint32_t j = G->porder[p * r + i];
                uint32_t jn = across ? G->porder[(p + 1) % q * r + i]
                                     : G->porder[p * r + (i + 1) % r];
                for (uint32_t k = 0; k < G->gmin; k++)
                    flist_add(m, fl, L.dlist[L.doff[j] + k],
                              L.dlist[L.doff[jn] + k], 1);
            }
        free(L.dlist);
    }
}

static void flows_sr(struct sn_coll_model *m, const struct grp *G,
                     struct flist *fl)
{
    for (uint32_t s = 0; s < G->sib; s++) {
        const uint32_t *rk = G->ranks + (size_t)s * G->n;
        for (uint32_t i = 0; i < G->n; i++)
            flist_add(m, fl, rk[i], rk[(i + 1) % G->n], 1);
    }
}

/* Flows a pattern would have, to choose the engine or the estimate. */
static double pat_flow_count(const struct grp *G, enum pat p)
{
    double n = (double)G->n * G->sib;

    switch (p) {
    case PAT_RING:
        return G->m > 1 ? 2 * n : n;
    case PAT_A2A:
        return n * (G->n - 1);
    default:
        return n;
    }
}

static int cls_of_ld(const struct sn_coll_model *m, uint32_t ld)
{
    return ld == SN_NONE ? SN_LINK_SCALE_UP : m->t->links[ld / 2].cls;
}

/* The per-level estimate for groups too large for the engine: each rank
 * injects at its own scale-up and NIC capacity; the switch fabric behind
 * the NICs is taken as non-blocking. Wire latency from two sample
 * routes: inside a domain and to the next domain. */
static int pat_estimate(struct sn_coll_model *m, struct grp *G, enum pat p,
                        struct patres *r, struct sn_error *err)
{
    double up = G->up_min, nic = G->nic_min;
    double wire = 0, rt_in = 0;
    struct sn__route rt;
    int rc = SN_OK;

    sn__route_init(&rt);
    if (G->doff[1] > 1) {
        rc = sn__flow_route(m->fn, m->t->accel[G->dlist[0]],
                            m->t->accel[G->dlist[1]], &rt, err);
        if (rc)
            goto out;
        wire = rt_in = rt.latency;
    }
    if (G->m > 1) {
        rc = sn__flow_route(m->fn, m->t->accel[G->dlist[0]],
                            m->t->accel[G->dlist[G->doff[1]]], &rt, err);
        if (rc)
            goto out;
        if (rt.latency > wire)
            wire = rt.latency;
    }
    r->wire = wire;
    r->wire_in = G->doff[1] > 1 ? rt_in : wire;
    r->flows = false;
    r->cls = G->intra_cls;
    switch (p) {
    case PAT_RING:
        if (G->m == 1) {
            r->bw = up;
        } else {
            /* per channel: c-1 intra flows share the scale-up links, one
             * crosses the NIC */
            double c = G->gmin, tu = 1.0 / nic;
            if (c > 1 && (c - 1) / up > tu) {
                tu = (c - 1) / up;
            } else {
                r->cls = SN_LINK_SCALE_OUT;
            }
            r->bw = c / tu;
        }
        break;
    case PAT_INTRA:
        r->bw = up;
        break;
    case PAT_RAIL:
        r->bw = nic;
        r->cls = SN_LINK_SCALE_OUT;
        break;
    case PAT_SR:
        r->bw = G->m > 1 ? fmin(up, nic) : up;
        if (G->m > 1 && nic < up)
            r->cls = SN_LINK_SCALE_OUT;
        break;
    case PAT_A2A: {
        double g = G->gmax, n = G->n;
        double ti = (g - 1) / up, to = (n - g) / nic;
        r->t_unit = ti > to ? ti : to;
        r->bw = 1.0 / r->t_unit;
        if (to >= ti)
            r->cls = SN_LINK_SCALE_OUT;
        break;
    }
    default:
        break;
    }
    if (!(r->bw > 0) || !isfinite(r->bw))
        rc = sn_error_set(err, SN_ENOTFOUND,
                          "the group's ranks have no usable link for this "
                          "pattern");
out:
    sn__route_release(&rt);
    return rc;
}

/* How much slower than its NICs a step goes when every rank below a
 * switch sends up through it at once: the smallest ratio of capacity up
 * to capacity down over the switches a route climbs (leaf to spine,
 * spine to core), at most 1. */
static double climb_ratio(const struct sn_coll_model *m,
                          const struct sn__route *rt)
{
    const struct sn_topo *t = m->t;
    struct hmap seen = {0};
    double worst = 1;

    for (size_t i = 0; i < rt->n; i++) {
        const struct sn_link *l = &t->links[rt->ld[i] / 2];
        uint32_t u = rt->ld[i] & 1 ? l->b : l->a, v = other_end(l, u);
        const struct sn_node *nu = &t->nodes[u], *nv = &t->nodes[v];
        double up = 0, down = 0;
        if (nu->kind != SN_NODE_SWITCH || nv->kind != SN_NODE_SWITCH ||
            nu->role < SN_SW_LEAF || nu->role >= nv->role ||
            nv->role > SN_SW_CORE || hget(&seen, u) != SN_NONE)
            continue;
        hput(&seen, u, 0);
        for (uint32_t a = t->adj_off[u]; a < t->adj_off[u + 1]; a++) {
            uint32_t li = t->adj[a];
            const struct sn_link *x = &t->links[li];
            uint32_t o = other_end(x, u);
            const struct sn_node *no = &t->nodes[o];
            if (x->cls != SN_LINK_SCALE_OUT)
                continue;
            if (no->kind == SN_NODE_SWITCH && no->role > nu->role &&
                no->role <= SN_SW_CORE)
                up += sn__flownet_cap(m->fn, 2 * li + (x->a == u ? 0 : 1));
            else
                down += sn__flownet_cap(m->fn, 2 * li + (x->a == o ? 0 : 1));
        }
        if (down > 0 && up / down < worst)
            worst = up / down;
    }
    hfree(&seen);
    return worst;
}

/* The per-level estimate of the three-level patterns: every rank at its
 * NIC share, across pods also at the climb ratio of the switches above
 * its leaf (the cross-pod step has every rank of every pod going up at
 * once: a 1:7 aggregation tier gives it 1/7); wire latency from one
 * route of the pattern, on one rail. The route ends where pat_estimate's
 * first sample route ends (domain 0's second rank, or domain 1's rank
 * when domains hold one): the distance tree toward it over the scale-out
 * network, a search of every switch link (3 ms at 100,000 accelerators),
 * is then built once. */
static int pat_estimate_pods(struct sn_coll_model *m, struct grp *G,
                             enum pat p, struct patres *r,
                             struct sn_error *err)
{
    uint32_t rr = G->pod_r, q = G->m / rr, at = 0, a, b;
    uint32_t k = G->gmax > 1 ? 1 : 0, d = G->gmax > 1 ? 0 : 1;
    struct sn__route rt;
    int rc;

    while (G->porder[at] != d)
        at++;
    a = p == PAT_POD ? G->porder[at / rr * rr + (at % rr + 1) % rr]
                     : G->porder[(at / rr + 1) % q * rr];
    a = G->dlist[G->doff[a] + k];
    b = G->dlist[G->doff[d] + k];

    sn__route_init(&rt);
    rc = sn__flow_route(m->fn, m->t->accel[a], m->t->accel[b], &rt, err);
    if (!rc) {
        r->wire = r->wire_in = rt.latency;
        r->flows = false;
        r->cls = SN_LINK_SCALE_OUT;
        r->bw = G->nic_min * (p == PAT_XPOD ? climb_ratio(m, &rt) : 1);
        if (!(r->bw > 0) || !isfinite(r->bw))
            rc = sn_error_set(err, SN_ENOTFOUND,
                              "the group's ranks have no usable link for "
                              "this pattern");
    }
    sn__route_release(&rt);
    return rc;
}

static int pat_get(struct sn_coll_model *m, struct grp *G, enum pat p,
                   const struct patres **out, struct sn_error *err)
{
    struct patres r;
    struct flist fl = {0};
    struct sn__step st;
    uint32_t channels = 1;
    int rc = SN_OK;

    if (G->pat[p].done) {
        *out = &G->pat[p];
        return SN_OK;
    }
    memset(&r, 0, sizeof(r));
    if (pat_flow_count(G, p) > m->p.flow_max) {
        rc = p == PAT_POD || p == PAT_XPOD
                 ? pat_estimate_pods(m, G, p, &r, err)
                 : pat_estimate(m, G, p, &r, err);
        if (rc)
            return rc;
        goto done;
    }
    if (p == PAT_A2A) {
        uint32_t *nodes = sn_xmalloc((size_t)G->n * G->sib * sizeof(uint32_t));
        for (size_t i = 0; i < (size_t)G->n * G->sib; i++)
            nodes[i] = m->t->accel[G->ranks[i]];
        rc = sn__flow_alltoall(m->fn, nodes, G->n * G->sib, G->n, &st, err);
        free(nodes);
    } else {
        switch (p) {
        case PAT_RING:
            flows_ring(m, G, &fl, &channels);
            break;
        case PAT_INTRA:
            flows_intra(m, G, &fl);
            break;
        case PAT_RAIL:
            flows_rail(m, G, &fl);
            break;
        case PAT_POD:
        case PAT_XPOD:
            flows_pods(m, G, p == PAT_XPOD, &fl);
            break;
        default:
            flows_sr(m, G, &fl);
            break;
        }
        rc = sn__flow_step(m->fn, fl.f, fl.n, &st, err);
    }
    flist_release(&fl);
    if (rc)
        return rc;
    r.flows = true;
    r.wire = st.latency;
    r.wire_in = st.latency;
    if (G->doff[1] > 1) {
        /* a flow inside domain 0 stands for the intra-domain steps */
        struct sn__route rt;
        sn__route_init(&rt);
        rc = sn__flow_route(m->fn, m->t->accel[G->dlist[0]],
                            m->t->accel[G->dlist[1]], &rt, err);
        r.wire_in = rt.latency;
        sn__route_release(&rt);
        if (rc)
            return rc;
    }
    r.cls = cls_of_ld(m, st.bottleneck);
    if (st.bottleneck == SN_NONE) {
        r.empty = true;
        r.bw = INFINITY;
    } else {
        r.t_unit = st.t_unit;
        r.bw = channels / st.t_unit;
    }
    if (st.bottleneck != SN_NONE && !(r.bw > 0))
        return sn_error_set(err, SN_ENOTFOUND,
                            "a flow of the group crosses a failed link");
done:
    r.done = true;
    G->pat[p] = r;
    *out = &G->pat[p];
    return SN_OK;
}

/* ---- algorithms ------------------------------------------------------------------- */

/* One evaluated candidate. */
struct cand {
    double time, lat;
    int proto;
    int cls;        /* bottleneck class */
    double wire_bytes; /* bytes a rank moves over the bottleneck class */
    bool flows;
};

static double log2c(uint32_t m)
{
    double d = 0;

    while ((1u << (unsigned)d) < m && d < 31)
        d++;
    return d;
}

static double hop(const struct sn_coll_model *m, const struct grp *G,
                  int cls, int p, bool tree)
{
    double h = tree ? m->p.tree_hop[cls][p] : m->p.ring_hop[cls][p];

    /* NCCL: LL's intra-node hop costs 1.8x when the job spans nodes */
    if (p == SN_PROTO_LL && G->m > 1 && cls != SN_LINK_SCALE_OUT)
        h *= m->p.ll_multinode;
    return h;
}

/* One step's latency: NCCL's per-hop figure, measured on short links and
 * so including their wire time; the route's own wire latency when it is
 * larger (long links, or the neutral constants of the closed forms). */
static double step_lat(double hop_lat, double wire)
{
    return hop_lat > wire ? hop_lat : wire;
}

/* Bandwidth share of protocol p on a ring or a tree: NCCL's tuner
 * refinements where set, else the protocol's payload share. */
static double peff(const struct sn_coll_model *m, const struct grp *G,
                   enum sn_coll_op op, bool tree, int p)
{
    double e = 0;

    if (p == SN_PROTO_LL)
        e = tree ? m->p.ll_tree
            : G->m > 1 || op == SN_COLL_ALLREDUCE || op == SN_COLL_REDUCE
                ? m->p.ll_ring
                : m->p.ll_ring_domain;
    else if (p == SN_PROTO_LL128)
        e = tree ? (G->m == 1 ? m->p.ll128_tree_domain : 0)
            : (double)G->n / G->m < 2 ? m->p.ll128_ring_alone
                                      : m->p.ll128_ring;
    return e > 0 ? e : m->p.proto_eff[p];
}

static bool nvls_usable(const struct sn_coll_model *m, const struct grp *G)
{
    return m->p.nvls && G->nvls_min > 0 && G->nvls_min >= G->up_min * 0.999;
}

static bool algo_ok(const struct sn_coll_model *m, const struct grp *G,
                    enum sn_coll_op op, enum sn_coll_algo a)
{
    switch (a) {
    case SN_ALGO_RING:
        return op != SN_COLL_ALLTOALL && op != SN_COLL_SENDRECV;
    case SN_ALGO_TREE:
        return op == SN_COLL_ALLREDUCE || op == SN_COLL_BROADCAST ||
               op == SN_COLL_REDUCE;
    case SN_ALGO_NVLS:
        return G->m == 1 && nvls_usable(m, G) &&
               (op == SN_COLL_ALLREDUCE || op == SN_COLL_ALLGATHER ||
                op == SN_COLL_REDUCESCATTER);
    case SN_ALGO_HIER:
        return G->m > 1 && G->regular && G->sib >= 1 &&
               op != SN_COLL_ALLTOALL && op != SN_COLL_SENDRECV;
    case SN_ALGO_DIRECT:
        return op == SN_COLL_ALLTOALL || op == SN_COLL_SENDRECV;
    case SN_ALGO_HIER3:
        return G->porder &&
               (op == SN_COLL_ALLREDUCE || op == SN_COLL_ALLGATHER ||
                op == SN_COLL_REDUCESCATTER);
    default:
        return false;
    }
}

static void cand_pick(struct cand *best, double time, double lat, int p,
                      int cls, double wire_bytes, bool flows)
{
    if (time < best->time) {
        best->time = time;
        best->lat = lat;
        best->proto = p;
        best->cls = cls;
        best->wire_bytes = wire_bytes;
        best->flows = flows;
    }
}

static double share_out(const struct grp *G, int cls)
{
    /* a rank's share of the traffic that crosses domains, for bytes on
     * the NIC of ring and tree: one edge per domain per channel */
    return cls == SN_LINK_SCALE_OUT ? (double)G->m / G->n : 1.0;
}

static int eval_ring(struct sn_coll_model *m, struct grp *G,
                     enum sn_coll_op op, double S, struct cand *best,
                     struct sn_error *err)
{
    const struct patres *R;
    uint32_t n = G->n, mm = G->m;
    double steps, inter, factor;
    int rc = pat_get(m, G, PAT_RING, &R, err);

    if (rc)
        return rc;
    switch (op) {
    case SN_COLL_ALLREDUCE:
        steps = 2.0 * (n - 1);
        inter = 2.0 * (mm - 1);
        factor = 2.0 * (n - 1) / n;
        break;
    case SN_COLL_ALLGATHER:
    case SN_COLL_REDUCESCATTER:
        steps = n - 1;
        inter = mm - 1;
        factor = (double)(n - 1) / n;
        break;
    default: /* broadcast, reduce: a pipelined chain */
        steps = n - 1;
        inter = mm - 1;
        factor = 1;
        break;
    }
    for (int p = 0; p < SN_PROTO_COUNT; p++) {
        double lat, bw, t;
        if (!m->p.proto_on[p])
            continue;
        lat = m->p.ring_base[p] +
              (steps - inter) *
                  step_lat(hop(m, G, G->intra_cls, p, false), R->wire_in) +
              inter * step_lat(hop(m, G, SN_LINK_SCALE_OUT, p, false),
                               R->wire);
        bw = R->bw * peff(m, G, op, false, p);
        if (op == SN_COLL_ALLREDUCE && mm > 1 && p == SN_PROTO_SIMPLE &&
            S >= n / 16.0 * 65536)
            lat *= m->p.ring_plateau;
        if (op == SN_COLL_BROADCAST || op == SN_COLL_REDUCE) {
            /* k chunks through n-1 hops: (k + n - 2) chunk times */
            double k = ceil(S / m->p.chunk), ce;
            if (k < 1)
                k = 1;
            ce = S / k;
            t = lat + (S + (n - 2) * ce) / bw;
        } else {
            t = lat + factor * S / bw;
        }
        cand_pick(best, t, lat, p, R->cls, factor * S * share_out(G, R->cls),
                  R->flows);
    }
    return SN_OK;
}

/* NCCL's tree correction (NVIDIA/nccl src/tuning/cost_model.cc,
 * treeCorrectionFactor, applied in src/tuning/tree.cc to all-reduce):
 * the tree's bandwidth times a factor per power of two of the size, from
 * 64 B (column 0) to 512 MiB (column 23), by protocol LL, LL128, Simple.
 * NCCL's own note: trees do not follow the alpha-beta model at medium
 * sizes, and the static factor "works quite well". */
static double tree_correction(int p, double S)
{
    static const double f[SN_PROTO_COUNT][24] = {
        {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5,
         .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
        {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6,
         .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0},
        {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5,
         .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9}};
    double units = floor(S / 64);
    int k;

    /* NCCL's log2i(nBytes >> 6): sizes below 64 B have no column. ilogb
     * is floor(log2) of a positive double, read from its exponent, where
     * halving in a loop cost a third of a cached prediction */
    if (!(units >= 1))
        return 1.0;
    k = ilogb(units);
    return k < 24 ? f[p][k] : 1.0;
}

static int eval_tree(struct sn_coll_model *m, struct grp *G,
                     enum sn_coll_op op, double S, struct cand *best,
                     struct sn_error *err)
{
    const struct patres *R;
    double di = G->gmax - 1, dn = log2c(G->m);
    double phases = op == SN_COLL_ALLREDUCE ? 2 : 1;
    int rc = pat_get(m, G, PAT_RING, &R, err);

    if (rc)
        return rc;
    for (int p = 0; p < SN_PROTO_COUNT; p++) {
        double lat, bw, t;
        if (!m->p.proto_on[p])
            continue;
        lat = m->p.tree_base[p] +
              phases *
                  (di * step_lat(hop(m, G, G->intra_cls, p, true),
                                 R->wire_in) +
                   dn * step_lat(hop(m, G, SN_LINK_SCALE_OUT, p, true),
                                 R->wire));
        /* a rank sends S up and S down, over its parent and children */
        bw = R->bw * m->p.tree_eff * peff(m, G, op, true, p);
        if (m->p.tree_correction && op == SN_COLL_ALLREDUCE)
            bw *= tree_correction(p, S);
        t = lat + phases * S / bw;
        cand_pick(best, t, lat, p, R->cls, phases * S * share_out(G, R->cls),
                  R->flows);
    }
    return SN_OK;
}

static int eval_nvls(struct sn_coll_model *m, struct grp *G,
                     enum sn_coll_op op, double S, struct cand *best,
                     struct sn_error *err)
{
    const struct patres *R;
    double n = G->n, bytes, lat, bw;
    int rc = pat_get(m, G, PAT_RING, &R, err);

    if (rc)
        return rc;
    if (!m->p.proto_on[SN_PROTO_SIMPLE])
        return SN_OK;
    /* per direction a rank carries S (reduce) + S/n (multicast) for
     * all-reduce; (n-1)/n S for all-gather or reduce-scatter */
    bytes = op == SN_COLL_ALLREDUCE ? S * (1 + 1 / n) : S * (n - 1) / n;
    bw = G->nvls_min * m->p.nvls_eff;
    lat = step_lat(m->p.nvls_hop, 2 * R->wire_in);
    /* per-rank link capacity, not the flow engine */
    cand_pick(best, lat + bytes / bw, lat, SN_PROTO_SIMPLE, SN_LINK_SCALE_UP,
              bytes, false);
    return SN_OK;
}

/* The intra-domain phase of the hierarchical schemes, once (reduce-scatter
 * or all-gather of S over g ranks): a ring, or NVLS with Simple when the
 * switches reduce. */
static void intra_phase(const struct sn_coll_model *m, const struct grp *G,
                        const struct patres *I, double S, int p, double eff,
                        double *t, double *lat)
{
    double g = G->gmax, bytes = (g - 1) / g * S;

    *t = *lat = 0;
    if (g < 2)
        return;
    *t = bytes / (I->bw * eff);
    *lat = (g - 1) * step_lat(hop(m, G, G->intra_cls, p, false), I->wire);
    if (p == SN_PROTO_SIMPLE && nvls_usable(m, G)) {
        double tv = bytes / (G->nvls_min * m->p.nvls_eff);
        double lv = step_lat(m->p.nvls_hop, 2 * I->wire);
        if (tv + lv < *t + *lat) {
            *t = tv;
            *lat = lv;
        }
    }
}

/* Hierarchical: reduce-scatter (or gather) inside every domain, the
 * inter-domain part on each rail at S/g, then all-gather inside. */
static int eval_hier(struct sn_coll_model *m, struct grp *G,
                     enum sn_coll_op op, double S, struct cand *best,
                     struct sn_error *err)
{
    const struct patres *I = NULL, *L;
    double g = G->gmax, mm = G->m, Sg = S / g;
    int rc;

    if (g > 1) {
        rc = pat_get(m, G, PAT_INTRA, &I, err);
        if (rc)
            return rc;
    }
    rc = pat_get(m, G, PAT_RAIL, &L, err);
    if (rc)
        return rc;
    for (int p = 0; p < SN_PROTO_COUNT; p++) {
        double eff = peff(m, G, op, false, p);
        double ti, li, tn, ln, tt, lt, t, lat, in_bytes = (g - 1) / g * S;
        double bw_time_in = 0, bw_time_net;
        int cls;
        if (!m->p.proto_on[p])
            continue;
        /* one intra phase: ring, or NVLS when the switches reduce */
        intra_phase(m, G, I, S, p, eff, &ti, &li);
        /* the rail part */
        switch (op) {
        case SN_COLL_ALLREDUCE:
            tn = 2 * (mm - 1) / mm * Sg / (L->bw * eff);
            ln = 2 * (mm - 1) *
                 step_lat(hop(m, G, SN_LINK_SCALE_OUT, p, false), L->wire);
            tt = 2 * Sg / (L->bw * m->p.tree_eff * eff);
            lt = 2 * log2c(G->m) *
                 step_lat(hop(m, G, SN_LINK_SCALE_OUT, p, true), L->wire);
            if (tt + lt < tn + ln) {
                tn = tt;
                ln = lt;
            }
            bw_time_in = 2 * ti;
            t = 2 * ti + tn;
            lat = m->p.ring_base[p] + 2 * li + ln;
            break;
        case SN_COLL_ALLGATHER:
        case SN_COLL_REDUCESCATTER:
            tn = (mm - 1) / mm * Sg / (L->bw * eff);
            ln = (mm - 1) *
                 step_lat(hop(m, G, SN_LINK_SCALE_OUT, p, false), L->wire);
            bw_time_in = ti;
            t = ti + tn;
            lat = m->p.ring_base[p] + li + ln;
            break;
        default: {
            /* broadcast and reduce: scatter over the rails, then gather
             * inside; the rail part is a chain of m domains in chunks */
            double k = ceil(Sg / m->p.chunk), ce;
            if (k < 1)
                k = 1;
            ce = Sg / k;
            tn = (Sg + (mm - 2 > 0 ? mm - 2 : 0) * ce) / (L->bw * eff);
            ln = (mm - 1) *
                 step_lat(hop(m, G, SN_LINK_SCALE_OUT, p, false), L->wire);
            bw_time_in = ti;
            t = ti + tn;
            lat = m->p.ring_base[p] + li + ln;
            break;
        }
        }
        bw_time_net = tn;
        cls = bw_time_net >= bw_time_in ? SN_LINK_SCALE_OUT
                                        : (I ? I->cls : G->intra_cls);
        cand_pick(best, t + lat, lat, p, cls,
                  cls == SN_LINK_SCALE_OUT
                      ? (op == SN_COLL_ALLREDUCE ? 2 * (mm - 1) / mm * Sg
                                                 : (mm - 1) / mm * Sg)
                      : (op == SN_COLL_ALLREDUCE ? 2 * in_bytes : in_bytes),
                  L->flows && (!I || I->flows));
    }
    return SN_OK;
}

/* Three-level: reduce-scatter inside every domain (S to S/g), on each
 * rail among the r domains of a pod (S/g to S/(g r)), all-reduce of
 * S/(g r) on each rail across the q pods (ring or tree), then the
 * all-gathers back; all-gather and reduce-scatter take one way. A rank
 * moves the same bytes as in the two-level scheme (both are bandwidth
 * optimal); what differs is where they go: the pod phase stays under the
 * leaves, and only S/(g r) climbs above them, from every rank at once,
 * in 2(r-1) + 2(q-1) steps (or 2 log2 q by tree) instead of 2(m-1). */
static int eval_hier3(struct sn_coll_model *m, struct grp *G,
                      enum sn_coll_op op, double S, struct cand *best,
                      struct sn_error *err)
{
    const struct patres *I = NULL, *P, *X;
    double g = G->gmax, r = G->pod_r, q = (double)G->m / G->pod_r;
    double Sg = S / g, Sgr = Sg / r;
    bool ar = op == SN_COLL_ALLREDUCE;
    int rc;

    if (g > 1) {
        rc = pat_get(m, G, PAT_INTRA, &I, err);
        if (rc)
            return rc;
    }
    rc = pat_get(m, G, PAT_POD, &P, err);
    if (!rc)
        rc = pat_get(m, G, PAT_XPOD, &X, err);
    if (rc)
        return rc;
    for (int p = 0; p < SN_PROTO_COUNT; p++) {
        double eff = peff(m, G, op, false, p);
        double hn = hop(m, G, SN_LINK_SCALE_OUT, p, false);
        double ti, li, tp, lp, tx, lx, xbytes, t_in, t_net, lat;
        int cls;
        if (!m->p.proto_on[p])
            continue;
        intra_phase(m, G, I, S, p, eff, &ti, &li);
        tp = (r - 1) / r * Sg / (P->bw * eff);
        lp = (r - 1) * step_lat(hn, P->wire);
        xbytes = (ar ? 2 : 1) * (q - 1) / q * Sgr;
        tx = xbytes / (X->bw * eff);
        lx = (ar ? 2 : 1) * (q - 1) * step_lat(hn, X->wire);
        if (ar) {
            /* across pods by double binary tree when that is faster */
            double tt = 2 * Sgr / (X->bw * m->p.tree_eff * eff);
            double lt = 2 * log2c((uint32_t)q) *
                        step_lat(hop(m, G, SN_LINK_SCALE_OUT, p, true),
                                 X->wire);
            if (tt + lt < tx + lx) {
                tx = tt;
                lx = lt;
                xbytes = 2 * Sgr;
            }
        }
        t_in = (ar ? 2 : 1) * ti;
        t_net = (ar ? 2 : 1) * tp + tx;
        lat = m->p.ring_base[p] + (ar ? 2 : 1) * (li + lp) + lx;
        cls = t_net >= t_in ? SN_LINK_SCALE_OUT
                            : (I ? I->cls : G->intra_cls);
        cand_pick(best, t_in + t_net + lat, lat, p, cls,
                  cls == SN_LINK_SCALE_OUT
                      ? (ar ? 2 : 1) * (r - 1) / r * Sg + xbytes
                      : (ar ? 2 : 1) * (g - 1) / g * S,
                  P->flows && X->flows && (!I || I->flows));
    }
    return SN_OK;
}

static int eval_direct(struct sn_coll_model *m, struct grp *G,
                       enum sn_coll_op op, double S, struct cand *best,
                       struct sn_error *err)
{
    const struct patres *P;
    int cls_hop = G->m > 1 ? SN_LINK_SCALE_OUT : G->intra_cls;
    double n = G->n;
    int rc = pat_get(m, G, op == SN_COLL_ALLTOALL ? PAT_A2A : PAT_SR, &P, err);

    if (rc)
        return rc;
    for (int p = 0; p < SN_PROTO_COUNT; p++) {
        double lat, t, bytes;
        if (!m->p.proto_on[p] || p == SN_PROTO_LL128)
            continue; /* NCCL's point-to-point uses LL or Simple */
        if (op == SN_COLL_ALLTOALL) {
            /* one message to each peer; each flow carries S/n */
            lat = m->p.ring_base[p] +
                  (n - 1) * step_lat(hop(m, G, cls_hop, p, false), P->wire);
            t = lat + S / n * P->t_unit / m->p.proto_eff[p];
            bytes = P->cls == SN_LINK_SCALE_OUT ? (n - G->gmax) / n * S
                                                : (G->gmax - 1) / n * S;
        } else {
            lat = m->p.ring_base[p] +
                  step_lat(hop(m, G, cls_hop, p, false), P->wire);
            t = lat + S / (P->bw * m->p.proto_eff[p]);
            bytes = S;
        }
        cand_pick(best, t, lat, p, P->cls, bytes, P->flows);
    }
    return SN_OK;
}

bool sn_coll_algo_applies(struct sn_coll_model *m, enum sn_coll_op op,
                          const struct sn_group *g, enum sn_coll_algo algo)
{
    struct grp *G;
    struct sn_error err;

    if (algo == SN_ALGO_AUTO)
        return true;
    if ((unsigned)op >= SN_COLL_OP_COUNT || (unsigned)algo >= SN_ALGO_COUNT)
        return false;
    if (grp_get(m, g, 1, &G, &err))
        return false;
    return algo_ok(m, G, op, algo);
}

static double nominal_bw(const struct grp *G, int cls)
{
    switch (cls) {
    case SN_LINK_SCALE_UP:
        return G->up_nom;
    case SN_LINK_SCALE_OUT:
        return G->nic_nom;
    default:
        return G->host_nom;
    }
}

static const char *why_not(const struct grp *G, enum sn_coll_op op,
                           enum sn_coll_algo a, char *buf, size_t size)
{
    switch (a) {
    case SN_ALGO_HIER3:
        if (op != SN_COLL_ALLREDUCE && op != SN_COLL_ALLGATHER &&
            op != SN_COLL_REDUCESCATTER)
            return "it runs allreduce, allgather and reducescatter only";
        if (G->m < 2 || !G->regular)
            return "it needs ranks in several scale-up domains, the same "
                   "number in each";
        if (G->pod_noexit)
            return "a rank of the group has no network switch behind its "
                   "NICs";
        if (G->npods < 2)
            return "the group's domains all sit under the same leaf "
                   "switches (one pod: hier runs it)";
        snprintf(buf, size,
                 "it needs two or more of the group's domains under each "
                 "pod's leaf switches, the same number in each (here %u "
                 "pods of %u to %u domains)",
                 G->npods, G->pod_rmin, G->pod_rmax);
        return buf;
    case SN_ALGO_NVLS:
        return op == SN_COLL_ALLREDUCE || op == SN_COLL_ALLGATHER ||
                       op == SN_COLL_REDUCESCATTER
                   ? "it needs one scale-up domain whose switches reduce in "
                     "the network"
                   : "it runs allreduce, allgather and reducescatter only";
    case SN_ALGO_HIER:
        return "it needs ranks in several scale-up domains, the same number "
               "in each";
    case SN_ALGO_DIRECT:
        return "it runs alltoall and sendrecv only";
    case SN_ALGO_TREE:
        return "it runs allreduce, broadcast and reduce only";
    default:
        return "alltoall and sendrecv run direct";
    }
}

int sn_coll_predict(struct sn_coll_model *m, enum sn_coll_op op,
                    const struct sn_group *g, double bytes,
                    enum sn_coll_algo algo, struct sn_coll_result *res,
                    struct sn_error *err)
{
    return sn_coll_predict_siblings(m, op, g, 1, bytes, algo, res, err);
}

int sn_coll_predict_siblings(struct sn_coll_model *m, enum sn_coll_op op,
                             const struct sn_group *g, uint32_t siblings,
                             double bytes, enum sn_coll_algo algo,
                             struct sn_coll_result *res,
                             struct sn_error *err)
{
    struct grp *G;
    struct cand best[SN_ALGO_COUNT];
    char why[160];
    int rc, pick = -1;

    memset(res, 0, sizeof(*res));
    if ((unsigned)op >= SN_COLL_OP_COUNT)
        return sn_error_set(err, SN_EINPUT, "unknown collective %d", (int)op);
    if ((unsigned)algo >= SN_ALGO_COUNT)
        return sn_error_set(err, SN_EINPUT, "unknown algorithm %d",
                            (int)algo);
    if (!(bytes >= 0) || !isfinite(bytes))
        return sn_error_set(err, SN_EINPUT, "message size %g is not a size",
                            bytes);
    rc = grp_get(m, g, siblings, &G, err);
    if (rc)
        return rc;
    if (G->n < 2)
        return sn_error_set(err, SN_EINPUT,
                            "%s needs at least 2 ranks (the group has %u)",
                            sn_coll_op_name(op), G->n);
    if (algo != SN_ALGO_AUTO && !algo_ok(m, G, op, algo))
        return sn_error_set(err, SN_EINPUT, "algorithm %s does not apply to "
                                            "%s on this group: %s",
                            sn_coll_algo_name(algo), sn_coll_op_name(op),
                            why_not(G, op, algo, why, sizeof(why)));
    for (int a = SN_ALGO_RING; a < SN_ALGO_COUNT; a++) {
        best[a].time = INFINITY;
        if (algo != SN_ALGO_AUTO && a != (int)algo)
            continue;
        if (!algo_ok(m, G, op, (enum sn_coll_algo)a))
            continue;
        switch (a) {
        case SN_ALGO_RING:
            rc = eval_ring(m, G, op, bytes, &best[a], err);
            break;
        case SN_ALGO_TREE:
            rc = eval_tree(m, G, op, bytes, &best[a], err);
            break;
        case SN_ALGO_NVLS:
            rc = eval_nvls(m, G, op, bytes, &best[a], err);
            break;
        case SN_ALGO_HIER:
            rc = eval_hier(m, G, op, bytes, &best[a], err);
            break;
        case SN_ALGO_HIER3:
            rc = eval_hier3(m, G, op, bytes, &best[a], err);
            break;
        default:
            rc = eval_direct(m, G, op, bytes, &best[a], err);
            break;
        }
        if (rc)
            return rc;
        /* auto: the lowest predicted time, as NCCL's tuner picks; ties go
         * to the earlier algorithm */
        if (pick < 0 || best[a].time < best[pick].time)
            pick = a;
    }
    if (pick < 0 || !isfinite(best[pick].time))
        return sn_error_set(err, SN_EINPUT,
                            "no algorithm runs %s on this group (every "
                            "protocol is off?)",
                            sn_coll_op_name(op));
    res->time = best[pick].time;
    res->latency = best[pick].lat;
    res->algo = (enum sn_coll_algo)pick;
    res->proto = best[pick].proto;
    res->bottleneck = (enum sn_link_class)best[pick].cls;
    res->flows = best[pick].flows;
    res->algbw = res->time > 0 ? bytes / res->time : 0;
    res->busbw = res->algbw * sn_coll_bus_factor(op, G->n);
    res->bottleneck_bw = nominal_bw(G, best[pick].cls);
    res->bottleneck_eff = res->time > 0 && res->bottleneck_bw > 0
                              ? best[pick].wire_bytes / res->time /
                                    res->bottleneck_bw
                              : 0;
    return SN_OK;
}
