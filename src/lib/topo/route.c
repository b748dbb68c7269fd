/* route.c: equal-cost shortest paths over the topology, with forwarding
 * rules that follow the hardware: switches forward within their fabric,
 * NICs between their host link and the network, CPUs (root complexes)
 * host to host, accelerators only scale-up to scale-up and only where the
 * fabric makes them forward (torus, partial mesh). */
#include <stdlib.h>
#include <string.h>

#include "sn/topo.h"

#include "route-int.h"

#define NCLS SN_LINK_CLASS_COUNT

static uint32_t other_end(const struct sn_link *l, uint32_t v)
{
    return l->a == v ? l->b : l->a;
}

bool sn__topo_forwards(const struct sn_topo *t, uint32_t u, int in, int out)
{
    switch (t->nodes[u].kind) {
    case SN_NODE_SWITCH:
        return in == out;
    case SN_NODE_NIC:
        return (in == SN_LINK_HOST && out == SN_LINK_SCALE_OUT) ||
               (in == SN_LINK_SCALE_OUT && out == SN_LINK_HOST);
    case SN_NODE_CPU:
        return in == SN_LINK_HOST && out == SN_LINK_HOST;
    case SN_NODE_ACCEL:
        return t->accel_transit && in == SN_LINK_SCALE_UP &&
               out == SN_LINK_SCALE_UP;
    }
    return false;
}

static bool usable(const struct sn_link *l)
{
    return l->health > 0.0f;
}

/* Route cost (sn__topo_link_cost): fewest host (PCIe) hops first, then
 * fewest hops (SN__TOPO_HOST_COST): two GPUs on one NVLink switch never
 * share an ECMP set with the PCIe path through their root complex, but
 * use it when every NVLink path failed. */
#define HOST_COST SN__TOPO_HOST_COST

/* Dial's algorithm: a bucket queue indexed by cost modulo the largest link
 * cost plus one; every bucket is a growable array of states. */
struct buckets {
    uint32_t *items[HOST_COST + 1];
    size_t n[HOST_COST + 1], cap[HOST_COST + 1];
};

static void bucket_push(struct buckets *b, uint32_t d, uint32_t s)
{
    uint32_t k = d % (HOST_COST + 1);

    SN_GROW(b->items[k], b->cap[k], b->n[k] + 1);
    b->items[k][b->n[k]++] = s;
}

static void relax(const struct sn_topo *t, struct sn_route_tree *rt,
                  struct buckets *b, uint32_t d, double paths, uint32_t w,
                  const struct sn_link *l)
{
    size_t s2 = (size_t)w * NCLS + l->cls;
    uint32_t d2 = d + sn__topo_link_cost(l);

    (void)t;
    if (d2 < rt->sdist[s2]) {
        rt->sdist[s2] = d2;
        rt->spaths[s2] = 0;
        bucket_push(b, d2, (uint32_t)s2);
    }
    if (d2 == rt->sdist[s2])
        rt->spaths[s2] += paths;
}

int sn_topo_route_tree(const struct sn_topo *t, uint32_t src,
                       struct sn_route_tree *rt, struct sn_error *err)
{
    size_t n = t->nnodes, ns = n * NCLS, pending = 0;
    struct buckets b;
    uint8_t *done;

    memset(rt, 0, sizeof(*rt));
    if (!t->finished)
        return sn_error_set(err, SN_EINPUT, "topology is not finished");
    if (src >= n)
        return sn_error_set(err, SN_EINPUT, "no node %u", (unsigned)src);
    memset(&b, 0, sizeof(b));
    rt->src = src;
    rt->dist = sn_xmalloc(n * sizeof(uint32_t));
    rt->npaths = sn_xcalloc(n, sizeof(double));
    rt->sdist = sn_xmalloc(ns * sizeof(uint32_t));
    rt->spaths = sn_xcalloc(ns, sizeof(double));
    done = sn_xcalloc(ns ? ns : 1, 1);
    for (size_t i = 0; i < n; i++)
        rt->dist[i] = SN_NONE;
    for (size_t i = 0; i < ns; i++)
        rt->sdist[i] = SN_NONE;
    rt->dist[src] = 0;
    rt->npaths[src] = 1;
    for (uint32_t k = t->adj_off[src]; k < t->adj_off[src + 1]; k++) {
        const struct sn_link *l = &t->links[t->adj[k]];
        uint32_t w = other_end(l, src);
        if (usable(l) && w != src)
            relax(t, rt, &b, 0, 1, w, l);
    }
    /* Settle states in cost order. Path counts of a state are complete when
     * it is popped: every predecessor has a strictly smaller cost. */
    for (uint32_t d = 1;; d++) {
        uint32_t k = d % (HOST_COST + 1);
        size_t i;
        pending = 0;
        for (size_t j = 0; j <= HOST_COST; j++)
            pending += b.n[j];
        if (!pending)
            break;
        for (i = 0; i < b.n[k]; i++) {
            uint32_t s = b.items[k][i];
            uint32_t u = s / NCLS;
            int in = (int)(s % NCLS);
            if (rt->sdist[s] != d || done[s])
                continue; /* stale entry, or already settled */
            done[s] = 1;
            for (uint32_t a = t->adj_off[u]; a < t->adj_off[u + 1]; a++) {
                const struct sn_link *l = &t->links[t->adj[a]];
                uint32_t w = other_end(l, u);
                if (!usable(l) || w == src ||
                    !sn__topo_forwards(t, u, in, l->cls))
                    continue;
                relax(t, rt, &b, d, rt->spaths[s], w, l);
            }
        }
        b.n[k] = 0;
    }
    for (size_t j = 0; j <= HOST_COST; j++)
        free(b.items[j]);
    free(done);
    for (size_t v = 0; v < n; v++) {
        if (v == src)
            continue;
        for (int c = 0; c < NCLS; c++) {
            uint32_t d = rt->sdist[v * NCLS + (size_t)c];
            if (d == SN_NONE)
                continue;
            if (d < rt->dist[v]) {
                rt->dist[v] = d;
                rt->npaths[v] = 0;
            }
            if (d == rt->dist[v])
                rt->npaths[v] += rt->spaths[v * NCLS + (size_t)c];
        }
    }
    return SN_OK;
}

void sn_route_tree_release(struct sn_route_tree *rt)
{
    free(rt->dist);
    free(rt->npaths);
    free(rt->sdist);
    free(rt->spaths);
    memset(rt, 0, sizeof(*rt));
}

struct walk {
    const struct sn_topo *t;
    const struct sn_route_tree *rt;
    struct sn_path *out;
    size_t max, n;
    uint32_t rev[SN_PATH_MAX_HOPS];
    bool too_long;
};

/* Walk back from state (v, c) with cost d, `depth` links already in rev. */
static void walk_back(struct walk *w, uint32_t v, int c, uint32_t d,
                      uint32_t depth)
{
    const struct sn_topo *t = w->t;

    if (depth >= SN_PATH_MAX_HOPS) {
        w->too_long = true;
        return;
    }
    for (uint32_t a = t->adj_off[v]; a < t->adj_off[v + 1]; a++) {
        uint32_t id = t->adj[a];
        const struct sn_link *l = &t->links[id];
        uint32_t u = other_end(l, v);
        uint32_t lc = sn__topo_link_cost(l);
        if (w->n >= w->max)
            return;
        if (l->cls != c || !usable(l) || u == v || lc > d)
            continue;
        w->rev[depth] = id;
        if (u == w->rt->src) {
            if (lc == d) {
                struct sn_path *p = &w->out[w->n++];
                p->nhops = depth + 1;
                for (uint32_t i = 0; i <= depth; i++)
                    p->link[i] = w->rev[depth - i];
            }
            continue;
        }
        for (int c2 = 0; c2 < NCLS; c2++)
            if (w->rt->sdist[(size_t)u * NCLS + (size_t)c2] == d - lc &&
                sn__topo_forwards(t, u, c2, c))
                walk_back(w, u, c2, d - lc, depth + 1);
    }
}

int sn_topo_route_paths(const struct sn_topo *t, const struct sn_route_tree *rt,
                        uint32_t dst, struct sn_path *out, size_t max,
                        size_t *n, struct sn_error *err)
{
    struct walk w;
    uint32_t d;

    *n = 0;
    if (dst >= t->nnodes)
        return sn_error_set(err, SN_EINPUT, "no node %u", (unsigned)dst);
    d = rt->dist[dst];
    if (d == SN_NONE) {
        char a[96], b[96];
        return sn_error_set(err, SN_ENOTFOUND, "no route from %s to %s",
                            sn_topo_node_name(t, rt->src, a, sizeof(a)),
                            sn_topo_node_name(t, dst, b, sizeof(b)));
    }
    if (!out) {
        *n = d == 0 ? 1 : (size_t)rt->npaths[dst];
        return SN_OK;
    }
    if (d == 0) {
        if (max) {
            out[0].nhops = 0;
            *n = 1;
        }
        return SN_OK;
    }
    memset(&w, 0, sizeof(w));
    w.t = t;
    w.rt = rt;
    w.out = out;
    w.max = max;
    for (int c = 0; c < NCLS && w.n < max; c++)
        if (rt->sdist[(size_t)dst * NCLS + (size_t)c] == d)
            walk_back(&w, dst, c, d, 0);
    *n = w.n;
    if (!w.n && w.too_long)
        return sn_error_set(err, SN_ENOTSUP, "route is longer than %d hops",
                            SN_PATH_MAX_HOPS);
    return SN_OK;
}

int sn_topo_paths(const struct sn_topo *t, uint32_t src, uint32_t dst,
                  struct sn_path *out, size_t max, size_t *n,
                  struct sn_error *err)
{
    struct sn_route_tree rt;
    int rc;

    *n = 0;
    rc = sn_topo_route_tree(t, src, &rt, err);
    if (rc)
        return rc;
    rc = sn_topo_route_paths(t, &rt, dst, out, max, n, err);
    sn_route_tree_release(&rt);
    return rc;
}

int sn_topo_route_dag(const struct sn_topo *t, const struct sn_route_tree *rt,
                      struct sn_route_dag *dag, struct sn_error *err)
{
    size_t ns = t->nnodes * NCLS, n = 0;
    uint32_t *fill;

    memset(dag, 0, sizeof(*dag));
    if (!t->finished)
        return sn_error_set(err, SN_EINPUT, "topology is not finished");
    dag->nstates = ns;
    dag->off = sn_xcalloc(ns + 1, sizeof(uint32_t));
    /* two passes over every state's links: count, then fill; a link
     * enters state (v, c) on a shortest path when it has class c, comes
     * from a state one link cost closer that may forward into c, or
     * straight from the source */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            for (size_t s = 0; s < ns; s++)
                dag->off[s + 1] += dag->off[s];
            n = dag->off[ns];
            dag->link = sn_xmalloc((n ? n : 1) * sizeof(uint32_t));
            dag->from = sn_xmalloc((n ? n : 1) * sizeof(uint32_t));
        }
        fill = pass ? sn_xcalloc(ns + 1, sizeof(uint32_t)) : NULL;
        for (uint32_t v = 0; v < t->nnodes; v++) {
            for (int c = 0; c < NCLS; c++) {
                size_t s = (size_t)v * NCLS + (size_t)c;
                uint32_t d = rt->sdist[s];
                if (d == SN_NONE || v == rt->src)
                    continue;
                for (uint32_t a = t->adj_off[v]; a < t->adj_off[v + 1]; a++) {
                    const struct sn_link *l = &t->links[t->adj[a]];
                    uint32_t u = other_end(l, v), lc = sn__topo_link_cost(l);
                    if (l->cls != c || !usable(l) || u == v || lc > d)
                        continue;
                    if (u == rt->src) {
                        if (lc != d)
                            continue;
                        if (pass == 0) {
                            dag->off[s + 1]++;
                        } else {
                            uint32_t at = dag->off[s] + fill[s]++;
                            dag->link[at] = t->adj[a];
                            dag->from[at] = SN_NONE;
                        }
                        continue;
                    }
                    for (int c2 = 0; c2 < NCLS; c2++) {
                        size_t s2 = (size_t)u * NCLS + (size_t)c2;
                        if (rt->sdist[s2] != d - lc ||
                            !sn__topo_forwards(t, u, c2, c))
                            continue;
                        if (pass == 0) {
                            dag->off[s + 1]++;
                        } else {
                            uint32_t at = dag->off[s] + fill[s]++;
                            dag->link[at] = t->adj[a];
                            dag->from[at] = (uint32_t)s2;
                        }
                    }
                }
            }
        }
        free(fill);
    }
    return SN_OK;
}

void sn_route_dag_release(struct sn_route_dag *dag)
{
    free(dag->off);
    free(dag->link);
    free(dag->from);
    memset(dag, 0, sizeof(*dag));
}
