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
 * switch fabric assumed non-blocking (docs/model.md).
 *
 * This file builds the model (rank capacities, network exits, groups);
 * coll-pattern.c gives patterns their bandwidth, coll-algo.c costs the
 * algorithms and predicts; coll-ops.c names the operations. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll-int.h"
#include "flow.h"
#include "hmap.h"
#include "sn/coll.h"

/* ---- the model ----------------------------------------------------------- */

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

/* ---- groups -------------------------------------------------------------- */

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
            uint64_t r = g->ranks
                             ? (uint64_t)g->ranks[i] + s
                             : (uint64_t)g->first + s + (uint64_t)i * g->stride;
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

int sn__coll_grp_get(struct sn_coll_model *m, const struct sn_group *g,
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
