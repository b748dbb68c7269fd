/* pairs.c: what every accelerator pair should see: one flow alone over
 * its ECMP routes (unidirectional), both directions at once
 * (bidirectional), wire latency and the small-message latency of a NCCL
 * send/recv; and the pairs of a whole cluster grouped into classes of
 * equal expectations. The routes are the flow engine's (flow-*.c), so a
 * degraded link lowers exactly the pairs whose traffic it carries. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll-int.h"
#include "flow.h"
#include "hmap.h"
#include "sn/pairs.h"

const char *sn_pair_relation_name(enum sn_pair_relation r)
{
    switch (r) {
    case SN_REL_SERVER:
        return "server";
    case SN_REL_DOMAIN:
        return "domain";
    case SN_REL_NETWORK:
        return "network";
    default:
        return "?";
    }
}

static int check_ranks(const struct sn_topo *t, uint32_t src, uint32_t dst,
                       struct sn_error *err)
{
    if (src >= t->naccel || dst >= t->naccel)
        return sn_error_set(err, SN_EINPUT,
                            "rank %u is outside the cluster (0 to %zu)",
                            src >= t->naccel ? src : dst, t->naccel - 1);
    if (src == dst)
        return sn_error_set(err, SN_EINPUT,
                            "a pair needs two ranks (both are %u)", src);
    return SN_OK;
}

static enum sn_pair_relation relation(struct sn_coll_model *m, uint32_t a,
                                      uint32_t b)
{
    const struct sn_topo *t = sn__coll_topo(m);
    const struct sn_node *x = &t->nodes[t->accel[a]];
    const struct sn_node *y = &t->nodes[t->accel[b]];

    if (x->supernode == y->supernode && x->server == y->server)
        return SN_REL_SERVER;
    if (sn__coll_domain(m, a) == sn__coll_domain(m, b))
        return SN_REL_DOMAIN;
    return SN_REL_NETWORK;
}

/* Fill a pair from both directions' values. The small-message latency is
 * a NCCL send/recv: the LL base plus one step over the pair's fabric
 * (NCCL's hop figure, or the wire when that is longer). */
static void fill(struct sn_coll_model *m, uint32_t src, uint32_t dst,
                 const struct sn__pairval *fw, const struct sn__pairval *bw,
                 struct sn_pair *out)
{
    const struct sn_topo *t = sn__coll_topo(m);
    const struct sn_coll_params *p = sn__coll_params(m);
    enum sn_pair_relation rel = relation(m, src, dst);
    int cls, fabric;
    double hop;

    memset(out, 0, sizeof(*out));
    out->src = src;
    out->dst = dst;
    out->uni_bw = fw->rate;
    out->bidi_bw = fw->rate + bw->rate;
    out->wire_latency = fw->latency;
    out->hops = fw->hops;
    out->bottleneck = fw->bottleneck == SN_NONE ? SN_NONE : fw->bottleneck / 2;
    cls = out->bottleneck == SN_NONE ? SN_LINK_SCALE_UP
                                     : t->links[out->bottleneck].cls;
    out->cls = (enum sn_link_class)cls;
    fabric = rel == SN_REL_NETWORK ? SN_LINK_SCALE_OUT : cls;
    hop = p->ring_hop[fabric][SN_PROTO_LL];
    out->latency =
        p->ring_base[SN_PROTO_LL] + (hop > fw->latency ? hop : fw->latency);
}

int sn_pairs_predict(struct sn_coll_model *m, uint32_t src, uint32_t dst,
                     struct sn_pair *out, struct sn_error *err)
{
    const struct sn_topo *t = sn__coll_topo(m);
    struct sn_flownet *fn = sn__coll_flownet(m);
    struct sn__pairval fw, bw;
    int rc = check_ranks(t, src, dst, err);

    memset(out, 0, sizeof(*out));
    if (rc)
        return rc;
    rc = sn__flow_pair(fn, t->accel[src], t->accel[dst], &fw, err);
    if (!rc)
        rc = sn__flow_pair(fn, t->accel[dst], t->accel[src], &bw, err);
    if (rc)
        return rc;
    /* the two directions cross opposite directions of the same links,
     * which are full duplex: they do not share capacity, and max-min
     * fairness gives each its lone rate */
    fill(m, src, dst, &fw, &bw, out);
    return SN_OK;
}

int sn_pairs_route(struct sn_coll_model *m, uint32_t src, uint32_t dst,
                   uint32_t *links, double *share, size_t max, size_t *n,
                   struct sn_error *err)
{
    const struct sn_topo *t = sn__coll_topo(m);
    struct sn__route r;
    int rc = check_ranks(t, src, dst, err);

    *n = 0;
    if (rc)
        return rc;
    sn__route_init(&r);
    rc = sn__flow_route(sn__coll_flownet(m), t->accel[src], t->accel[dst], &r,
                        err);
    if (rc == SN_OK) {
        for (size_t i = 0; i < r.n && i < max; i++) {
            if (links)
                links[i] = r.ld[i] / 2;
            if (share)
                share[i] = r.share[i];
        }
        *n = r.n;
    }
    sn__route_release(&r);
    return rc;
}

/* ---- classes
 * ----------------------------------------------------------------- */

struct class_ctx {
    struct sn_coll_model *m;
    const uint32_t *nodes;
    struct sn_pair_classes *out;
    size_t cap;
    struct hmap idx;
    int rc;
    struct sn_error *err;
};

/* Values are compared as people read them: bandwidth to four significant
 * digits, the send/recv latency to 10 ns; the wire latency alone, which
 * differs by a few nanoseconds per metre of cable, does not split a
 * class. The example's own values are the class's. */
static uint64_t class_key(const struct sn_pair *p, enum sn_pair_relation rel)
{
    char buf[256];

    snprintf(buf, sizeof(buf), "%d|%.4g|%.4g|%.0f|%d|%u", (int)rel, p->uni_bw,
             p->bidi_bw, p->latency * 1e8, (int)p->cls, p->hops);
    return sn_hash64(buf, strlen(buf), 0x5a);
}

static void emit(void *vctx, size_t i, size_t j, uint64_t count,
                 const struct sn__pairval *fw)
{
    struct class_ctx *c = vctx;
    struct sn_flownet *fn = sn__coll_flownet(c->m);
    struct sn__pairval bw;
    struct sn_pair p;
    enum sn_pair_relation rel;
    uint64_t key;
    uint32_t id;

    if (c->rc)
        return;
    c->rc = sn__flow_pair(fn, c->nodes[j], c->nodes[i], &bw, c->err);
    if (c->rc)
        return;
    fill(c->m, (uint32_t)i, (uint32_t)j, fw, &bw, &p);
    rel = relation(c->m, (uint32_t)i, (uint32_t)j);
    key = class_key(&p, rel);
    id = hget(&c->idx, key);
    if (id == SN_NONE) {
        id = (uint32_t)c->out->n;
        SN_GROW(c->out->items, c->cap, c->out->n + 1);
        c->out->items[id].example = p;
        c->out->items[id].rel = rel;
        c->out->items[id].count = 0;
        c->out->n++;
        hput(&c->idx, key, id);
    } else {
        struct sn_pair *e = &c->out->items[id].example;
        if (p.src < e->src || (p.src == e->src && p.dst < e->dst))
            *e = p;
    }
    c->out->items[id].count += count;
    c->out->pairs += count;
}

static int cmp_class(const void *a, const void *b)
{
    const struct sn_pair_class *x = a, *y = b;

    if (x->rel != y->rel)
        return x->rel < y->rel ? -1 : 1;
    if (x->example.src != y->example.src)
        return x->example.src < y->example.src ? -1 : 1;
    if (x->example.dst != y->example.dst)
        return x->example.dst < y->example.dst ? -1 : 1;
    return 0;
}

int sn_pairs_classes(struct sn_coll_model *m, uint32_t nranks,
                     struct sn_pair_classes *out, struct sn_error *err)
{
    const struct sn_topo *t = sn__coll_topo(m);
    struct class_ctx c;
    uint32_t *nodes;
    int rc;

    memset(out, 0, sizeof(*out));
    if (nranks == 0)
        nranks = (uint32_t)t->naccel;
    if (nranks > t->naccel)
        return sn_error_set(err, SN_EINPUT,
                            "%u ranks asked, the cluster has %zu", nranks,
                            t->naccel);
    if (nranks > SN_PAIRS_MAX)
        return sn_error_set(err, SN_EINPUT,
                            "%u ranks is more than the %d the pair classes "
                            "cover (ask for the first %d)",
                            nranks, SN_PAIRS_MAX, SN_PAIRS_MAX);
    nodes = sn_xmalloc((nranks + 1) * sizeof(uint32_t));
    for (uint32_t r = 0; r < nranks; r++)
        nodes[r] = t->accel[r];
    memset(&c, 0, sizeof(c));
    c.m = m;
    c.nodes = nodes;
    c.out = out;
    c.err = err;
    /* far pairs cross the network: their latency is the larger of NCCL's
     * hop and the wire (fill), so wires shorter than the hop are not told
     * apart */
    rc = sn__flow_pairs_grouped(
        sn__coll_flownet(m), nodes, nranks,
        sn__coll_params(m)->ring_hop[SN_LINK_SCALE_OUT][SN_PROTO_LL], emit, &c,
        err);
    if (!rc)
        rc = c.rc;
    hfree(&c.idx);
    free(nodes);
    if (rc) {
        sn_pair_classes_release(out);
        return rc;
    }
    qsort(out->items, out->n, sizeof(out->items[0]), cmp_class);
    return SN_OK;
}

void sn_pair_classes_release(struct sn_pair_classes *c)
{
    free(c->items);
    memset(c, 0, sizeof(*c));
}
