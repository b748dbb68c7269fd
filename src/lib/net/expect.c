/* expect.c: what the design expects of a measurement (expect.h), for
 * bench --spec and check alike: catalog peaks for devices, for pairs the
 * bandwidth their routes give them, shared max-min fairly with the pairs
 * measured at the same moment, for an aggregate the sum of those, and
 * for NCCL's collectives the collective model's prediction. */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sn/expect.h"

#define MAX_PATHS 64

const char *const sn_expect_cpu_fabric_note =
    "not measurable on the cpu backend: MPI moves host memory, not the "
    "design's scale-up fabric (use --backend cuda)";
const char *const sn_expect_colocated_note =
    "colocated: the ranks share a host the spec gives them apart";
const char *const sn_expect_cpu_host_note =
    "inside one server on the cpu backend: MPI's shared memory, which the "
    "design does not describe (judged against peers and the baseline)";

static void set(struct sn_expect *x, double v, const char *src)
{
    if (!(v > 0) || !isfinite(v))
        return;
    x->value = v;
    x->source = src;
}

/* GEMM and device memory against the catalog's peaks. */
static void expect_device(const struct sn_accel_info *a, bool device,
                          struct sn_expect *x)
{
    if (!a)
        return;
    if (x->kind == SN_EXPECT_GEMM) {
        if (!strcmp(x->dtype, "bf16") || !strcmp(x->dtype, "fp16"))
            set(x, a->bf16_flops, "catalog bf16_flops");
        else if (!strcmp(x->dtype, "fp8"))
            set(x, a->fp8_flops, "catalog fp8_flops");
    } else if (x->kind == SN_EXPECT_MEMORY && device) {
        /* device memory only: the cpu backend sweeps host DRAM, which the
         * catalog does not describe */
        set(x, a->hbm_bw, "catalog hbm_bw");
    }
}

/* One flow of a pair measurement: the links it crosses, each in one
 * direction (0: a to b of the link, 1: b to a), with the share of the
 * flow that takes it. */
struct flow {
    size_t item;   /* index of its struct sn_expect */
    uint32_t key;  /* concurrency group */
    size_t off, n; /* in the hop arrays */
    double rate;
    bool frozen;
};

struct hop {
    uint32_t link;
    uint8_t dir;
    float w;
};

struct hops {
    struct hop *items;
    size_t n, cap;
};

static void add_paths(const struct sn_topo *t, uint32_t src,
                      const struct sn_path *p, size_t np, struct hops *h,
                      struct flow *f)
{
    f->off = h->n;
    for (size_t i = 0; i < np; i++) {
        uint32_t at = src;
        for (uint32_t k = 0; k < p[i].nhops; k++) {
            const struct sn_link *l = &t->links[p[i].link[k]];
            uint8_t d = l->a == at ? 0 : 1;
            size_t j;
            for (j = f->off; j < h->n; j++)
                if (h->items[j].link == p[i].link[k] && h->items[j].dir == d)
                    break;
            if (j == h->n) {
                SN_GROW(h->items, h->cap, h->n + 1);
                h->items[h->n].link = p[i].link[k];
                h->items[h->n].dir = d;
                h->items[h->n].w = 0;
                h->n++;
            }
            h->items[j].w += (float)(1.0 / (double)np);
            at = l->a == at ? l->b : l->a;
        }
    }
    f->n = h->n - f->off;
}

static int flow_key_cmp(const void *x, const void *y)
{
    const struct flow *a = x, *b = y;

    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->item > b->item) - (a->item < b->item);
}

/* Max-min fair rates of flows[from, to) by progressive filling: raise
 * every unfrozen rate together until a link direction fills, freeze the
 * flows on it, repeat. Capacity is bw x health per direction. */
static void fair_share(const struct sn_topo *t, struct flow *fl, size_t from,
                       size_t to, const struct hops *h, double *cap,
                       double *load, double *users)
{
    size_t left = to - from;

    for (size_t i = from; i < to; i++) {
        fl[i].rate = 0;
        fl[i].frozen = fl[i].n == 0;
        if (fl[i].frozen)
            left--;
        for (size_t k = fl[i].off; k < fl[i].off + fl[i].n; k++) {
            size_t s = (size_t)h->items[k].link * 2 + h->items[k].dir;
            const struct sn_link *l = &t->links[h->items[k].link];
            cap[s] = (double)l->bw * (double)l->health;
            load[s] = 0;
            users[s] = 0;
        }
    }
    while (left) {
        double step = INFINITY;
        for (size_t i = from; i < to; i++)
            for (size_t k = fl[i].off; k < fl[i].off + fl[i].n; k++) {
                size_t s = (size_t)h->items[k].link * 2 + h->items[k].dir;
                users[s] = 0;
            }
        for (size_t i = from; i < to; i++) {
            if (fl[i].frozen)
                continue;
            for (size_t k = fl[i].off; k < fl[i].off + fl[i].n; k++)
                users[(size_t)h->items[k].link * 2 + h->items[k].dir] +=
                    h->items[k].w;
        }
        for (size_t i = from; i < to; i++)
            for (size_t k = fl[i].off; k < fl[i].off + fl[i].n; k++) {
                size_t s = (size_t)h->items[k].link * 2 + h->items[k].dir;
                if (users[s] > 0) {
                    double room = (cap[s] - load[s]) / users[s];
                    if (room < step)
                        step = room;
                }
            }
        if (!isfinite(step) || step < 0)
            step = 0;
        for (size_t i = from; i < to; i++) {
            if (fl[i].frozen)
                continue;
            fl[i].rate += step;
            for (size_t k = fl[i].off; k < fl[i].off + fl[i].n; k++)
                load[(size_t)h->items[k].link * 2 + h->items[k].dir] +=
                    step * h->items[k].w;
        }
        /* freeze the flows that cross a full link direction */
        for (size_t i = from; i < to; i++) {
            if (fl[i].frozen)
                continue;
            for (size_t k = fl[i].off; k < fl[i].off + fl[i].n; k++) {
                size_t s = (size_t)h->items[k].link * 2 + h->items[k].dir;
                if (load[s] >= cap[s] * (1 - 1e-9)) {
                    fl[i].frozen = true;
                    left--;
                    break;
                }
            }
        }
    }
}

/* Whether any of the paths crosses a link of class cls. */
static bool crosses(const struct sn_topo *t, const struct sn_path *p, size_t np,
                    int cls)
{
    for (size_t i = 0; i < np; i++)
        for (uint32_t k = 0; k < p[i].nhops; k++)
            if (t->links[p[i].link[k]].cls == cls)
                return true;
    return false;
}

/* The routes of the pairs of x, as flows: the tree of the last source
 * is kept, so pairs grouped by source route in one pass each. */
struct router {
    const struct sn_topo *t;
    struct sn_route_tree rt;
    bool have_tree;
    struct sn_path *paths;
};

/* The paths from rank s to rank e into r->paths (*np of them; 0 when
 * there is no route). */
static int route(struct router *r, uint32_t s, uint32_t e, size_t *np,
                 struct sn_error *err)
{
    const struct sn_topo *t = r->t;
    int rc;

    *np = 0;
    if (!r->have_tree || r->rt.src != t->accel[s]) {
        if (r->have_tree)
            sn_route_tree_release(&r->rt);
        r->have_tree = false;
        if ((rc = sn_topo_route_tree(t, t->accel[s], &r->rt, err)))
            return rc;
        r->have_tree = true;
    }
    rc = sn_topo_route_paths(t, &r->rt, t->accel[e], r->paths, MAX_PATHS, np,
                             err);
    if (rc == SN_ENOTFOUND) {
        sn_error_clear(err);
        *np = 0;
        return SN_OK; /* no route: no expectation */
    }
    return rc;
}

/* Whether the pair's paths are what the backend measures: the cpu
 * backend's pairs travel MPI through host memory, so neither the
 * scale-up fabric nor the PCIe links inside one server (MPI copies
 * through shared memory there) are what it measures. */
static bool measurable(const struct sn_topo *t, const struct sn_path *p,
                       size_t np, bool device, struct sn_expect *x)
{
    if (device)
        return true;
    if (crosses(t, p, np, SN_LINK_SCALE_UP)) {
        x->source = sn_expect_cpu_fabric_note;
        return false;
    }
    if (!crosses(t, p, np, SN_LINK_SCALE_OUT)) {
        x->source = sn_expect_cpu_host_note;
        return false;
    }
    return true;
}

/* One flow per pair item with a route the backend measures, from a to
 * b: a bidirectional measurement is two items, one per direction. */
static int pair_flows(const struct sn_topo *t, bool device, struct sn_expect *x,
                      size_t n, struct flow **fl, size_t *nf, struct hops *h,
                      struct sn_error *err)
{
    struct router r;
    size_t fcap = 0;
    int rc = SN_OK;

    memset(&r, 0, sizeof(r));
    r.t = t;
    r.paths = sn_xmalloc(MAX_PATHS * sizeof(*r.paths));
    for (size_t i = 0; i < n; i++) {
        size_t np = 0;
        if (x[i].kind != SN_EXPECT_PAIR || x[i].colocated ||
            x[i].a >= t->naccel || x[i].b >= t->naccel || x[i].a == x[i].b)
            continue;
        if ((rc = route(&r, x[i].a, x[i].b, &np, err)))
            break;
        if (!np || !measurable(t, r.paths, np, device, &x[i]))
            continue;
        SN_GROW(*fl, fcap, *nf + 1);
        memset(&(*fl)[*nf], 0, sizeof(**fl));
        (*fl)[*nf].item = i;
        /* alone: a group of its own, above every caller's group */
        (*fl)[*nf].key = x[i].group == SN_EXPECT_ALONE
                             ? (uint32_t)(0x80000000u | (uint32_t)i)
                             : x[i].group & 0x7fffffffu;
        add_paths(t, t->accel[x[i].a], r.paths, np, h, &(*fl)[*nf]);
        (*nf)++;
    }
    if (r.have_tree)
        sn_route_tree_release(&r.rt);
    free(r.paths);
    return rc;
}

/* Pair bandwidth: the max-min fair rate of each pair among the pairs of
 * its group. */
static int expect_pairs(const struct sn_topo *t, bool device,
                        struct sn_expect *x, size_t n, struct sn_error *err)
{
    struct flow *fl = NULL;
    struct hops h;
    double *cap = NULL, *load = NULL, *users = NULL;
    size_t nf = 0;
    int rc;

    memset(&h, 0, sizeof(h));
    rc = pair_flows(t, device, x, n, &fl, &nf, &h, err);
    if (rc || !nf)
        goto out;
    qsort(fl, nf, sizeof(*fl), flow_key_cmp);
    cap = sn_xcalloc(t->nlinks * 2 + 1, sizeof(double));
    load = sn_xcalloc(t->nlinks * 2 + 1, sizeof(double));
    users = sn_xcalloc(t->nlinks * 2 + 1, sizeof(double));
    for (size_t i = 0; i < nf;) {
        size_t j = i + 1;
        bool shared;
        while (j < nf && fl[j].key == fl[i].key)
            j++;
        assert(j <= nf);
        fair_share(t, fl, i, j, &h, cap, load, users);
        shared = j - i > 1;
        for (size_t k = i; k < j; k++) {
            assert(fl[k].item < n);
            x[fl[k].item].value = fl[k].rate;
            x[fl[k].item].source =
                shared ? "routes, shared in the round" : "routes";
        }
        i = j;
    }
out:
    free(fl);
    free(h.items);
    free(cap);
    free(load);
    free(users);
    return rc;
}

/* An aggregate: every pair of the round both ways at once, one group;
 * the sum of their fair rates, or none when one of them has none. */
static int expect_aggregate(const struct sn_topo *t, bool device,
                            struct sn_expect *x, struct sn_error *err)
{
    struct sn_expect *p = NULL;
    size_t np = 0, pcap = 0;
    double sum = 0;
    int rc;

    if (!x->partner)
        return SN_OK;
    for (uint32_t a = 0; a < x->b; a++) {
        int b = x->partner[a];
        if (b < 0 || (uint32_t)b == a)
            continue;
        assert((uint32_t)b < x->b);
        SN_GROW(p, pcap, np + 1);
        memset(&p[np], 0, sizeof(*p));
        p[np].kind = SN_EXPECT_PAIR;
        p[np].a = a;
        p[np].b = (uint32_t)b;
        p[np].group = 1;
        p[np].value = NAN;
        np++;
    }
    rc = np ? expect_pairs(t, device, p, np, err) : SN_OK;
    for (size_t i = 0; i < np && !rc; i++)
        sum += p[i].value; /* NaN once one pair has none */
    if (!rc && np)
        set(x, sum, "routes, shared in the round, summed");
    free(p);
    return rc;
}

/* A collective's bus bandwidth or time as the collective model predicts
 * it on this topology (what `sim coll` prints), on the accelerators only:
 * the model's algorithms and protocols are NCCL's. The cpu backend runs
 * MPI's collectives, whose algorithm choice (recursive doubling,
 * Rabenseifner, a ring by message size) the model does not describe. */
static int expect_colls(const struct sn_topo *t, struct sn_expect *x, size_t n,
                        struct sn_error *err)
{
    struct sn_coll_model *m = NULL;
    int rc = SN_OK;

    for (size_t i = 0; i < n; i++) {
        struct sn_group g;
        struct sn_coll_result res;
        struct sn_error perr;
        if ((x[i].kind != SN_EXPECT_COLL_BUSBW &&
             x[i].kind != SN_EXPECT_COLL_TIME) ||
            !(x[i].bytes > 0) || x[i].b < 2 || x[i].a >= t->naccel ||
            x[i].b > t->naccel - x[i].a)
            continue;
        if (!m && (rc = sn_coll_model_new(t, &m, err)))
            break;
        memset(&g, 0, sizeof(g));
        g.first = x[i].a;
        g.n = x[i].b;
        g.stride = 1;
        /* a group the model cannot place says nothing: no design value */
        if (sn_coll_predict(m, x[i].op, &g, x[i].bytes, SN_ALGO_AUTO, &res,
                            &perr) != SN_OK)
            continue;
        if (x[i].kind == SN_EXPECT_COLL_BUSBW)
            set(&x[i], res.busbw, "the collective model");
        else
            set(&x[i], res.time, "the collective model");
    }
    sn_coll_model_free(m);
    return rc;
}

int sn_expect_design(const struct sn_spec *spec, const struct sn_topo *t,
                     bool device, struct sn_expect *x, size_t n,
                     struct sn_error *err)
{
    const struct sn_accel_info *a = spec ? spec->accel : NULL;
    int rc = SN_OK;

    for (size_t i = 0; i < n; i++) {
        x[i].value = NAN;
        x[i].source = NULL;
        if (x[i].kind == SN_EXPECT_PAIR && x[i].colocated)
            /* the ranks never crossed the designed links */
            x[i].source = sn_expect_colocated_note;
        expect_device(a, device, &x[i]);
    }
    if (!t)
        return SN_OK;
    if (!t->finished)
        return sn_error_set(err, SN_EINPUT, "topology is not finished");
    if (device && (rc = expect_colls(t, x, n, err)))
        return rc;
    for (size_t i = 0; i < n && !rc; i++)
        if (x[i].kind == SN_EXPECT_AGGREGATE)
            rc = expect_aggregate(t, device, &x[i], err);
    if (rc)
        return rc;
    return expect_pairs(t, device, x, n, err);
}
