/* coll-pattern.c: the collective model's flow patterns (ring edges,
 * rings inside every domain, rings along every rail and through pods,
 * pairwise, all-to-all): their flows for the flow engine, or the per-level
 * estimate for groups too large for it, cached per group (coll-int.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll-int.h"
#include "flow.h"
#include "hmap.h"
#include "sn/coll.h"

/* ---- patterns ------------------------------------------------------------ */

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

static void layout_for(struct sn_coll_model *m, const struct grp *G, uint32_t s,
                       struct layout *L)
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
static int pat_estimate_pods(struct sn_coll_model *m, struct grp *G, enum pat p,
                             struct patres *r, struct sn_error *err)
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

int sn__coll_pat_get(struct sn_coll_model *m, struct grp *G, enum pat p,
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
        rc = p == PAT_POD || p == PAT_XPOD ? pat_estimate_pods(m, G, p, &r, err)
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
