/* tomo.c: boolean network tomography. A pair is slow when a link on its
 * route is bad; links that carry healthy pairs are cleared; the smallest
 * set of remaining links that covers every slow pair is chosen greedily,
 * and each chosen link gets the pairs that support it, the links the
 * data cannot tell from it and a confidence. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag-int.h"

/* A link on more than half of a healthy pair's ECMP paths is more likely
 * than not to have carried its flow (one flow hashes onto one path): such
 * a link is cleared. */
#define CLEAR_WEIGHT 0.5

/* The links each pair crosses, with the share of its paths that use
 * them, in compressed rows: pair i has entries off[i] .. off[i+1]. */
struct routes {
    size_t *off;
    uint32_t *link;
    float *w;
    size_t n, cap;
};

static void routes_release(struct routes *r)
{
    free(r->off);
    free(r->link);
    free(r->w);
    memset(r, 0, sizeof(*r));
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return (x > y) - (x < y);
}

/* Order pairs by their lower rank so that one route tree serves all the
 * pairs from that rank. */
struct by_src {
    uint32_t src, dst;
    size_t idx;
};

static int cmp_src(const void *a, const void *b)
{
    const struct by_src *x = a, *y = b;

    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* One pair's links and their shares, before they go into the rows. */
struct row {
    uint32_t *link;
    float *w;
    size_t n;
};

/* Scratch for the backward pass over one pair's shortest-path DAG,
 * indexed by state and by link, reset through the lists of what was
 * touched so that a pair costs what its DAG holds. */
struct walk {
    double *back;     /* per state: shortest paths from it to dst */
    uint8_t *seen;    /* per state */
    double *flow;     /* per link: paths through it */
    uint32_t *states; /* reverse topological order, built by DFS */
    size_t nstates;
    uint32_t *links; /* links touched */
    size_t nlinks;
    uint32_t *stack, *next; /* DFS: state and its next predecessor */
};

/* The links of the shortest paths from rt->src to dst (w->links) and the
 * paths through each (w->flow, of rt->npaths[dst]; the caller resets
 * them): back[X] counts paths from state X on to dst;
 * each link into X from state F carries spaths[F] x back[X] of them
 * (spaths[source] = 1). States are taken in reverse postorder of a DFS
 * over predecessor edges, so every state comes before its predecessors. */
static void pair_shares(const struct sn_route_tree *rt,
                        const struct sn_route_dag *dag, uint32_t dst,
                        struct walk *w)
{
    size_t ncls = SN_LINK_CLASS_COUNT, sp = 0;
    double total = rt->npaths[dst];

    w->nstates = 0;
    w->nlinks = 0;
    if (rt->dist[dst] == SN_NONE || rt->dist[dst] == 0 || !(total > 0))
        return;
    /* DFS from the destination's final states over predecessors */
    for (size_t c = 0; c < ncls; c++) {
        uint32_t s = (uint32_t)(dst * ncls + c);
        if (rt->sdist[s] != rt->dist[dst] || w->seen[s])
            continue;
        w->back[s] = 1.0;
        w->seen[s] = 1;
        w->stack[sp] = s;
        w->next[sp++] = dag->off[s];
        while (sp) {
            uint32_t x = w->stack[sp - 1];
            uint32_t k = w->next[sp - 1];
            if (k < dag->off[x + 1]) {
                uint32_t f = dag->from[k];
                w->next[sp - 1] = k + 1;
                if (f != SN_NONE && !w->seen[f]) {
                    w->seen[f] = 1;
                    w->back[f] = 0.0;
                    w->stack[sp] = f;
                    w->next[sp++] = dag->off[f];
                }
                continue;
            }
            w->states[w->nstates++] = x; /* postorder */
            sp--;
        }
    }
    /* reverse postorder: a state before the states it is reached from */
    for (size_t i = w->nstates; i-- > 0;) {
        uint32_t x = w->states[i];
        double b = w->back[x];
        for (uint32_t k = dag->off[x]; k < dag->off[x + 1]; k++) {
            uint32_t f = dag->from[k], l = dag->link[k];
            if (w->flow[l] == 0.0)
                w->links[w->nlinks++] = l;
            w->flow[l] += b * (f == SN_NONE ? 1.0 : rt->spaths[f]);
            if (f != SN_NONE)
                w->back[f] += b;
        }
    }
    for (size_t i = 0; i < w->nstates; i++)
        w->seen[w->states[i]] = 0;
}

/* What the pairs' routes say, in one pass over the pairs, source by
 * source: a healthy pair clears the links on more than half of its paths
 * (cleared: the largest share seen; conflicts: how many healthy pairs
 * had a link on more than half of theirs) and is then forgotten; a slow
 * pair keeps its row of links and shares. crossed marks every link some
 * route uses. */
static int build_routes(const struct sn_topo *t, const struct sn_diag_pair *p,
                        size_t n, struct routes *out, float *cleared,
                        uint32_t *conflicts, uint8_t *crossed,
                        struct sn_error *err)
{
    struct by_src *order = sn_xmalloc((n ? n : 1) * sizeof(*order));
    struct row *rows = sn_xcalloc(n ? n : 1, sizeof(*rows));
    size_t ns = t->nnodes * SN_LINK_CLASS_COUNT + 1;
    struct walk w;
    struct sn_route_tree rt;
    struct sn_route_dag dag;
    bool have_tree = false;
    size_t total = 0;
    int rc = SN_OK;

    memset(&rt, 0, sizeof(rt));
    memset(&dag, 0, sizeof(dag));
    memset(out, 0, sizeof(*out));
    w.back = sn_xcalloc(ns, sizeof(double));
    w.seen = sn_xcalloc(ns, 1);
    w.flow = sn_xcalloc(t->nlinks + 1, sizeof(double));
    w.states = sn_xmalloc(ns * sizeof(uint32_t));
    w.links = sn_xmalloc((t->nlinks + 1) * sizeof(uint32_t));
    w.stack = sn_xmalloc(ns * sizeof(uint32_t));
    w.next = sn_xmalloc(ns * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++) {
        if (p[i].a >= t->naccel || p[i].b >= t->naccel || p[i].a == p[i].b) {
            rc = sn_error_set(err, SN_EINPUT,
                              "pair %zu (ranks %u and %u) is not a pair of "
                              "the topology's %zu accelerators",
                              i, (unsigned)p[i].a, (unsigned)p[i].b, t->naccel);
            goto out;
        }
        order[i].src = p[i].a < p[i].b ? p[i].a : p[i].b;
        order[i].dst = p[i].a < p[i].b ? p[i].b : p[i].a;
        order[i].idx = i;
    }
    qsort(order, n, sizeof(*order), cmp_src);
    for (size_t i = 0; i < n; i++) {
        size_t idx = order[i].idx;
        double all;
        if (!have_tree || rt.src != t->accel[order[i].src]) {
            if (have_tree) {
                sn_route_tree_release(&rt);
                sn_route_dag_release(&dag);
            }
            have_tree = false;
            rc = sn_topo_route_tree(t, t->accel[order[i].src], &rt, err);
            if (!rc)
                rc = sn_topo_route_dag(t, &rt, &dag, err);
            if (rc) {
                sn_route_tree_release(&rt);
                goto out;
            }
            have_tree = true;
        }
        /* a pair without a route has no links: nothing to localise on */
        pair_shares(&rt, &dag, t->accel[order[i].dst], &w);
        all = rt.npaths[t->accel[order[i].dst]];
        if (p[idx].slow && w.nlinks) {
            struct row *row = &rows[idx];
            qsort(w.links, w.nlinks, sizeof(uint32_t), cmp_u32);
            row->link = sn_xmalloc(w.nlinks * sizeof(uint32_t));
            row->w = sn_xmalloc(w.nlinks * sizeof(float));
            row->n = w.nlinks;
            total += w.nlinks;
            for (size_t k = 0; k < w.nlinks; k++) {
                row->link[k] = w.links[k];
                row->w[k] = (float)(w.flow[w.links[k]] / all);
            }
        }
        for (size_t k = 0; k < w.nlinks; k++) {
            uint32_t l = w.links[k];
            float share = (float)(w.flow[l] / all);
            crossed[l] = 1;
            w.flow[l] = 0.0;
            if (p[idx].slow)
                continue;
            if (share > cleared[l])
                cleared[l] = share;
            if (share > CLEAR_WEIGHT)
                conflicts[l]++;
        }
    }
    out->off = sn_xmalloc((n + 1) * sizeof(size_t));
    out->link = sn_xmalloc((total ? total : 1) * sizeof(uint32_t));
    out->w = sn_xmalloc((total ? total : 1) * sizeof(float));
    out->off[0] = 0;
    for (size_t i = 0; i < n; i++) {
        if (rows[i].n) {
            memcpy(out->link + out->off[i], rows[i].link,
                   rows[i].n * sizeof(uint32_t));
            memcpy(out->w + out->off[i], rows[i].w, rows[i].n * sizeof(float));
        }
        out->off[i + 1] = out->off[i] + rows[i].n;
    }
    out->n = n;
out:
    if (have_tree) {
        sn_route_tree_release(&rt);
        sn_route_dag_release(&dag);
    }
    for (size_t i = 0; i < n; i++) {
        free(rows[i].link);
        free(rows[i].w);
    }
    free(rows);
    free(order);
    free(w.back);
    free(w.seen);
    free(w.flow);
    free(w.states);
    free(w.links);
    free(w.stack);
    free(w.next);
    if (rc)
        routes_release(out);
    return rc;
}

double sn__diag_link_prior(const struct sn_topo *t, uint32_t link)
{
    /* Where performance goes missing: cables and their connectors and
     * optics far more often than board traces. Llama 3 (Table 5, 54 days
     * on 16,384 GPUs) counts 35 interruptions from network switches and
     * cables against 2 from IO expansion boards: a board link is
     * 2/35 as likely a priori. */
    return t->links[link].medium == SN_MEDIUM_BOARD ? 2.0 / 35.0 : 1.0;
}

/* Is candidate x a better pick than y at equal gain? Higher prior, then
 * the label in byte order, then the id (labels are unique). */
static bool better_tie(const struct sn_topo *t, uint32_t x, uint32_t y)
{
    double px = sn__diag_link_prior(t, x), py = sn__diag_link_prior(t, y);
    char lx[256], ly[256];
    int c;

    if (px != py)
        return px > py;
    sn_topo_link_label(t, x, lx, sizeof(lx));
    sn_topo_link_label(t, y, ly, sizeof(ly));
    c = strcmp(lx, ly);
    if (c)
        return c < 0;
    return x < y;
}

/* The slow pairs a link lies on: the inverse of the routes restricted to
 * slow pairs, in compressed rows by link. */
struct incidence {
    size_t *off;    /* per link */
    uint32_t *pair; /* ascending within a link */
    float *w;
};

static void incidence_build(const struct routes *r,
                            const struct sn_diag_pair *p, size_t nlinks,
                            struct incidence *inc)
{
    size_t *fill;

    inc->off = sn_xcalloc(nlinks + 1, sizeof(size_t));
    for (size_t i = 0; i < r->n; i++)
        if (p[i].slow)
            for (size_t k = r->off[i]; k < r->off[i + 1]; k++)
                inc->off[r->link[k] + 1]++;
    for (size_t l = 0; l < nlinks; l++)
        inc->off[l + 1] += inc->off[l];
    inc->pair = sn_xmalloc((inc->off[nlinks] + 1) * sizeof(uint32_t));
    inc->w = sn_xmalloc((inc->off[nlinks] + 1) * sizeof(float));
    fill = sn_xcalloc(nlinks + 1, sizeof(size_t));
    for (size_t i = 0; i < r->n; i++)
        if (p[i].slow)
            for (size_t k = r->off[i]; k < r->off[i + 1]; k++) {
                uint32_t l = r->link[k];
                size_t at = inc->off[l] + fill[l]++;
                inc->pair[at] = (uint32_t)i;
                inc->w[at] = r->w[k];
            }
    free(fill);
}

static void incidence_release(struct incidence *inc)
{
    free(inc->off);
    free(inc->pair);
    free(inc->w);
}

static bool same_support(const struct incidence *inc, uint32_t x, uint32_t y)
{
    size_t nx = inc->off[x + 1] - inc->off[x];

    if (nx != inc->off[y + 1] - inc->off[y])
        return false;
    return memcmp(inc->pair + inc->off[x], inc->pair + inc->off[y],
                  nx * sizeof(uint32_t)) == 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Fill a culprit from the link chosen: its supporting slow pairs, the
 * links no observation tells from it, and the numbers. */
static void make_culprit(const struct sn_topo *t, const struct incidence *inc,
                         const struct sn_diag_pair *p, const uint8_t *cand,
                         const uint32_t *conflicts, uint32_t l,
                         struct sn_diag_culprit *c)
{
    size_t ns = inc->off[l + 1] - inc->off[l], cap = 0;
    double *ratios = sn_xmalloc((ns ? ns : 1) * sizeof(double));
    double prior = sn__diag_link_prior(t, l), others = 0.0;

    memset(c, 0, sizeof(*c));
    c->link = l;
    c->support = sn_xmalloc((ns ? ns : 1) * sizeof(uint32_t));
    for (size_t k = 0; k < ns; k++) {
        uint32_t i = inc->pair[inc->off[l] + k];
        c->support[c->nsupport++] = i;
        ratios[k] = p[i].ratio;
        if (p[i].severity > c->severity)
            c->severity = p[i].severity;
    }
    c->health = ns ? ratios[0] : 1.0;
    if (ns) {
        qsort(ratios, ns, sizeof(*ratios), cmp_double);
        c->health = ns % 2 ? ratios[ns / 2]
                           : 0.5 * (ratios[ns / 2 - 1] + ratios[ns / 2]);
    }
    free(ratios);
    c->conflicts = conflicts[l];
    /* contradicted by a healthy pair: a suspicion, not a verdict */
    if (c->conflicts && c->severity > SN_SEV_WARN)
        c->severity = SN_SEV_WARN;
    /* links with exactly the same slow pairs and as clear of healthy
     * ones: the observations cannot tell them apart */
    for (uint32_t o = 0; o < t->nlinks; o++) {
        if (o == l || !cand[o] || conflicts[o] != conflicts[l] ||
            !same_support(inc, o, l))
            continue;
        SN_GROW(c->alternatives, cap, c->nalternatives + 1);
        c->alternatives[c->nalternatives++] = o;
        others += sn__diag_link_prior(t, o);
    }
    c->confidence = prior / (prior + others) * (double)c->nsupport /
                    (double)(c->nsupport + c->conflicts);
}

int sn_diag_localise(const struct sn_topo *t, const struct sn_diag_pair *p,
                     size_t n, struct sn_diag_culprits *out,
                     struct sn_error *err)
{
    struct routes r;
    struct incidence inc;
    float *cleared = NULL;
    uint32_t *conflicts = NULL;
    uint8_t *cand = NULL, *covered = NULL, *chosen = NULL;
    size_t nl = t->nlinks, cap = 0, nslow = 0, ncovered = 0;
    int rc;

    memset(out, 0, sizeof(*out));
    memset(&inc, 0, sizeof(inc));
    if (!t->finished)
        return sn_error_set(err, SN_EINPUT, "topology is not finished");
    cleared = sn_xcalloc(nl + 1, sizeof(float));
    conflicts = sn_xcalloc(nl + 1, sizeof(uint32_t));
    out->crossed = sn_xcalloc(nl + 1, 1);
    out->nlinks = nl;
    /* clear the links healthy pairs depend on; keep the slow pairs' */
    rc = build_routes(t, p, n, &r, cleared, conflicts, out->crossed, err);
    if (rc) {
        free(cleared);
        free(conflicts);
        sn_diag_culprits_release(out);
        return rc;
    }
    cand = sn_xcalloc(nl + 1, 1);
    chosen = sn_xcalloc(nl + 1, 1);
    covered = sn_xcalloc(n + 1, 1);
    for (size_t i = 0; i < n; i++)
        nslow += p[i].slow;
    if (nslow == 0)
        goto out;
    incidence_build(&r, p, nl, &inc);
    for (uint32_t l = 0; l < nl; l++)
        cand[l] = inc.off[l + 1] > inc.off[l] && cleared[l] <= CLEAR_WEIGHT;
    /* A slow pair without a route is unexplained from the start. */
    for (size_t i = 0; i < n; i++)
        if (p[i].slow && r.off[i + 1] == r.off[i]) {
            covered[i] = 2;
            ncovered++;
        }
    /* Greedy set cover: first over uncleared links; then, for slow pairs
     * every one of whose links is cleared, over links whose slow pairs
     * outnumber twice the healthy pairs crossing them. */
    for (int pass = 0; pass < 2 && ncovered < nslow; pass++) {
        for (;;) {
            uint32_t best = UINT32_MAX;
            double best_gain = 0.0;
            for (uint32_t l = 0; l < nl; l++) {
                double g = 0.0;
                size_t sup = 0;
                bool ok = pass == 0 ? cand[l]
                                    : (inc.off[l + 1] > inc.off[l] && !cand[l]);
                if (!ok || chosen[l])
                    continue;
                for (size_t k = inc.off[l]; k < inc.off[l + 1]; k++)
                    if (!covered[inc.pair[k]]) {
                        g += inc.w[k];
                        sup++;
                    }
                /* a link healthy pairs cross needs twice their number of
                 * slow pairs, plus one, to be suspected at all */
                if (pass == 1 && sup < 2 * (size_t)conflicts[l] + 1)
                    continue;
                if (g <= 0)
                    continue;
                /* gains are sums of path shares: compare with a tolerance
                 * so that float rounding does not break ties */
                if (best == UINT32_MAX || g > best_gain + 1e-6 ||
                    (fabs(g - best_gain) <= 1e-6 && better_tie(t, l, best))) {
                    best = l;
                    best_gain = g;
                }
            }
            if (best == UINT32_MAX)
                break;
            chosen[best] = 1;
            for (size_t k = inc.off[best]; k < inc.off[best + 1]; k++)
                if (!covered[inc.pair[k]]) {
                    covered[inc.pair[k]] = 1;
                    ncovered++;
                }
            SN_GROW(out->items, cap, out->n + 1);
            make_culprit(t, &inc, p, cand, conflicts, best,
                         &out->items[out->n++]);
            if (ncovered >= nslow)
                break;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (p[i].slow && covered[i] != 1) {
            if (!out->unexplained)
                out->unexplained = sn_xmalloc(nslow * sizeof(uint32_t));
            out->unexplained[out->nunexplained++] = (uint32_t)i;
        }
out:
    incidence_release(&inc);
    routes_release(&r);
    free(cleared);
    free(conflicts);
    free(cand);
    free(chosen);
    free(covered);
    return SN_OK;
}

void sn_diag_culprits_release(struct sn_diag_culprits *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->items[i].support);
        free(c->items[i].alternatives);
    }
    free(c->items);
    free(c->unexplained);
    free(c->crossed);
    memset(c, 0, sizeof(*c));
}
