/* expect.c: what the design says each result should be: catalog peaks for
 * devices, for pairs the bandwidth their routes give them, shared
 * max-min fairly with the pairs measured at the same moment (the same
 * tournament round and direction), and for NCCL's collectives the
 * collective model's bus bandwidth. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag-int.h"
#include "sn/model.h"

#define MAX_PATHS 64

/* The value of key in a "k=v,k=v" parameter list, or NULL. */
static const char *param(const char *params, const char *key, char *buf,
                         size_t size)
{
    size_t kl = strlen(key);

    for (const char *p = params; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > kl && !strncmp(p, key, kl) && p[kl] == '=') {
            size_t vl = len - kl - 1;
            if (vl >= size)
                vl = size - 1;
            memcpy(buf, p + kl + 1, vl);
            buf[vl] = '\0';
            return buf;
        }
        p = end ? end + 1 : NULL;
    }
    return NULL;
}

static void expect_device(const struct sn_topo *t, const char *backend,
                          const struct sn_result *r, double *e,
                          const char **src)
{
    const struct sn_accel_info *a = t->spec ? t->spec->accel : NULL;
    char dt[16];

    if (!a)
        return;
    if (sn_startswith(r->test, "compute.") && !strcmp(r->unit, "FLOP/s") &&
        param(r->params, "dtype", dt, sizeof(dt))) {
        if ((!strcmp(dt, "bf16") || !strcmp(dt, "fp16")) &&
            a->bf16_flops > 0) {
            *e = a->bf16_flops;
            *src = "catalog bf16_flops";
        } else if (!strcmp(dt, "fp8") && a->fp8_flops > 0) {
            *e = a->fp8_flops;
            *src = "catalog fp8_flops";
        }
    } else if (sn_startswith(r->test, "memory.") && !strcmp(r->unit, "B/s") &&
               backend && !strcmp(backend, "cuda") && a->hbm_bw > 0) {
        /* device memory only: the cpu backend sweeps host DRAM, which the
         * catalog does not describe */
        *e = a->hbm_bw;
        *src = "catalog hbm_bw";
    }
}

/* One flow of a pair measurement: the links it crosses, each in one
 * direction (0: a to b of the link, 1: b to a), with the share of the
 * flow that takes it. */
struct flow {
    size_t result;
    uint32_t key;          /* concurrency group */
    size_t off, n;         /* in the hop arrays */
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
    return (a->result > b->result) - (a->result < b->result);
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
                users[(size_t)h->items[k].link * 2 + h->items[k].dir] += h->items[k].w;
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
                load[(size_t)h->items[k].link * 2 + h->items[k].dir] += step * h->items[k].w;
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

/* The concurrency group of a pair result: pairs of one round run at
 * once, in bench's phases (uni low to high, uni high to low, bidir both
 * ways). A pair measured alone is its own group. */
static uint32_t flow_key(const struct sn_result *r, size_t idx)
{
    uint32_t phase;

    if (r->round == SN_STORE_NO_RANK)
        return (uint32_t)(0x80000000u | (uint32_t)idx);
    if (sn_startswith(r->test, "pairs.bidir"))
        phase = 2;
    else
        phase = r->a < r->b ? 0 : 1;
    return (r->round * 4 + phase) & 0x7fffffffu;
}

/* Whether any of the paths crosses a link of class cls. */
static bool crosses(const struct sn_topo *t, const struct sn_path *p,
                    size_t np, int cls)
{
    for (size_t i = 0; i < np; i++)
        for (uint32_t k = 0; k < p[i].nhops; k++)
            if (t->links[p[i].link[k]].cls == cls)
                return true;
    return false;
}

/* The notes for pairs the cpu backend cannot hold to the design (static
 * storage): on a scale-up fabric, and inside one server. */
const char *const sn__diag_cpu_fabric_note =
    "not measurable on the cpu backend: MPI moves host memory, not the "
    "design's scale-up fabric (use --backend cuda)";
const char *const sn_diag_colocated_note =
    "colocated: the ranks share a host the spec gives them apart";
const char *const sn__diag_cpu_host_note =
    "inside one server on the cpu backend: MPI's shared memory, which the "
    "design does not describe (judged against peers and the baseline)";

static int expect_pairs(const struct sn_topo *t, const char *backend,
                        const struct sn_results *rs, double *expected,
                        const char **source, struct sn_error *err)
{
    bool cpu = !backend || strcmp(backend, "cuda");
    struct flow *fl = NULL;
    struct hops h;
    struct sn_path *paths = sn_xmalloc(MAX_PATHS * sizeof(*paths));
    struct sn_route_tree rt;
    bool have_tree = false;
    double *cap = NULL, *load = NULL, *users = NULL;
    size_t nf = 0, fcap = 0;
    int rc = SN_OK;

    memset(&h, 0, sizeof(h));
    memset(&rt, 0, sizeof(rt));
    /* one flow per bandwidth result, from a to b: a bidirectional
     * measurement is two results, one per direction, and the two
     * directions of a link never compete */
    for (size_t i = 0; i < rs->n; i++) {
        const struct sn_result *r = &rs->items[i];
        if (r->subject != SN_SUBJECT_PAIR || strcmp(r->unit, "B/s") ||
            r->a >= t->naccel || r->b >= t->naccel || r->a == r->b)
            continue;
        {
            uint32_t s = r->a, e = r->b;
            size_t np = 0;
            if (!have_tree || rt.src != t->accel[s]) {
                if (have_tree)
                    sn_route_tree_release(&rt);
                have_tree = false;
                rc = sn_topo_route_tree(t, t->accel[s], &rt, err);
                if (rc)
                    goto out;
                have_tree = true;
            }
            rc = sn_topo_route_paths(t, &rt, t->accel[e], paths, MAX_PATHS,
                                     &np, err);
            if (rc == SN_ENOTFOUND) {
                sn_error_clear(err);
                rc = SN_OK;
                continue; /* no route: no expectation */
            }
            if (rc)
                goto out;
            /* the cpu backend's pairs travel MPI through host memory:
             * the accelerators' fabric is not what it measures */
            if (cpu && crosses(t, paths, np, SN_LINK_SCALE_UP)) {
                if (source)
                    source[i] = sn__diag_cpu_fabric_note;
                continue;
            }
            /* nor are the PCIe links between ranks of one server: MPI
             * copies through shared memory there */
            if (cpu && !crosses(t, paths, np, SN_LINK_SCALE_OUT)) {
                if (source)
                    source[i] = sn__diag_cpu_host_note;
                continue;
            }
            SN_GROW(fl, fcap, nf + 1);
            memset(&fl[nf], 0, sizeof(fl[nf]));
            fl[nf].result = i;
            fl[nf].key = flow_key(r, i);
            add_paths(t, t->accel[s], paths, np, &h, &fl[nf]);
            nf++;
        }
    }
    if (!nf)
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
        fair_share(t, fl, i, j, &h, cap, load, users);
        shared = j - i > 1;
        for (size_t k = i; k < j; k++) {
            size_t ri = fl[k].result;
            expected[ri] = fl[k].rate;
            if (source)
                source[ri] = shared ? "routes, shared in the round"
                                    : "routes";
        }
        i = j;
    }
out:
    if (have_tree)
        sn_route_tree_release(&rt);
    free(paths);
    free(fl);
    free(h.items);
    free(cap);
    free(load);
    free(users);
    return rc;
}

/* A collective's bus bandwidth as the collective model predicts it on
 * this topology (what `sim coll` prints), for the cuda backend only: the
 * model's algorithms and protocols are NCCL's. The cpu backend runs MPI's
 * collectives, whose algorithm choice (recursive doubling, Rabenseifner,
 * a ring by message size) the model does not describe; they get no
 * design value, only their baseline. Results are "coll.<op>.busbw" of a
 * group of ranks r->b from rank r->a. */
static int expect_colls(const struct sn_topo *t, const char *backend,
                        const struct sn_results *rs, double *expected,
                        const char **source, struct sn_error *err)
{
    struct sn_coll_model *m = NULL;
    int rc = SN_OK;

    if (!backend || strcmp(backend, "cuda"))
        return SN_OK;
    for (size_t i = 0; i < rs->n; i++) {
        const struct sn_result *r = &rs->items[i];
        const char *op_start = r->test + 5, *op_end;
        struct sn_group g;
        struct sn_coll_result res;
        struct sn_error perr;
        char name[32], buf[32];
        double bytes;
        enum sn_coll_op op;
        if (r->subject != SN_SUBJECT_GROUP ||
            !sn_startswith(r->test, "coll.") || strcmp(r->unit, "B/s"))
            continue;
        op_end = strchr(op_start, '.');
        if (!op_end || strcmp(op_end, ".busbw") ||
            (size_t)(op_end - op_start) >= sizeof(name))
            continue;
        memcpy(name, op_start, (size_t)(op_end - op_start));
        name[op_end - op_start] = '\0';
        if (sn_coll_op_parse(name, &op, &perr) ||
            !param(r->params, "bytes", buf, sizeof(buf)))
            continue;
        bytes = strtod(buf, NULL);
        if (!(bytes > 0) || r->b < 2 || r->a >= t->naccel ||
            r->b > t->naccel - r->a)
            continue;
        if (!m && (rc = sn_coll_model_new(t, &m, err)))
            goto out;
        memset(&g, 0, sizeof(g));
        g.first = r->a;
        g.n = r->b;
        g.stride = 1;
        /* a group the model cannot place says nothing: no design value */
        if (sn_coll_predict(m, op, &g, bytes, SN_ALGO_AUTO, &res,
                            &perr) != SN_OK ||
            !(res.busbw > 0))
            continue;
        expected[i] = res.busbw;
        if (source)
            source[i] = "the collective model";
    }
out:
    sn_coll_model_free(m);
    return rc;
}

int sn_diag_expect(const struct sn_topo *t, const char *backend,
                   const struct sn_results *rs, double *expected,
                   const char **source, struct sn_error *err)
{
    int rc;

    for (size_t i = 0; i < rs->n; i++) {
        expected[i] = NAN;
        if (source)
            source[i] = NULL;
    }
    if (!t->finished)
        return sn_error_set(err, SN_EINPUT, "topology is not finished");
    for (size_t i = 0; i < rs->n; i++) {
        const struct sn_result *r = &rs->items[i];
        const char *src = NULL;
        if (r->subject == SN_SUBJECT_DEVICE && r->a < t->naccel)
            expect_device(t, backend, r, &expected[i], &src);
        if (source)
            source[i] = src;
    }
    rc = expect_colls(t, backend, rs, expected, source, err);
    if (rc)
        return rc;
    return expect_pairs(t, backend, rs, expected, source, err);
}
