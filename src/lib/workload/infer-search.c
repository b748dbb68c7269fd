/* infer-search.c: serving layouts searched (tp, ep, pp, attention data
 * parallel, batch) for the throughput-latency Pareto front and the best
 * layout under TTFT/TPOT limits; disaggregated prefill and decode. */
#include <stdlib.h>
#include <string.h>

#include "infer-int.h"

/* the most points one search times: far above any real cluster's
 * layouts times their batches (a cap on what input can allocate) */
#define POINTS_MAX 1000000
#define PP_MAX 16

static void push(struct grow *g, const struct sn_infer_point *pt)
{
    if (g->n == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 256;
        g->p = sn_xrealloc(g->p, g->cap * sizeof(*g->p));
    }
    g->p[g->n++] = *pt;
}

bool sn__infer_within(double ttft, double tpot,
                      const struct sn_infer_limits *lim, double *ttft_over,
                      double *tpot_over)
{
    double a = lim->ttft > 0 && ttft > lim->ttft ? ttft - lim->ttft : 0;
    double b = lim->tpot > 0 && tpot > lim->tpot ? tpot - lim->tpot : 0;

    if (ttft_over)
        *ttft_over = a;
    if (tpot_over)
        *tpot_over = b;
    return a == 0 && b == 0;
}

bool sn_infer_meets(const struct sn_infer_result *r,
                    const struct sn_infer_limits *lim, double *ttft_over,
                    double *tpot_over)
{
    return sn__infer_within(r->ttft_s, r->tpot_s, lim, ttft_over, tpot_over);
}

static bool meets(const struct sn_infer_result *r,
                  const struct sn_infer_limits *lim)
{
    return sn_infer_meets(r, lim, NULL, NULL);
}

/* Every batch of one layout: powers of two up to the most that fit, and
 * that most. */
static int batches(const struct sn_model_info *m,
                   const struct sn_train_system *sys, struct sn_infer_layout l,
                   const struct sn_infer_work *w,
                   const struct sn_infer_limits *lim, void *ctx,
                   struct sn_error *err)
{
    struct grow *g = ctx;
    struct sn_infer_point pt;
    int rc, max;

    l.batch = 1;
    rc = sn_infer_predict(m, sys, &l, w, &pt.result, err);
    if (rc || !pt.result.fits)
        return rc;
    max = pt.result.max_batch;
    for (int b = 1; g->n < POINTS_MAX; b *= 2) {
        l.batch = b < max ? b : max;
        if (l.batch > 1 &&
            (rc = sn_infer_predict(m, sys, &l, w, &pt.result, err)))
            return rc;
        pt.layout = l;
        pt.pareto = false;
        pt.meets = meets(&pt.result, lim);
        push(g, &pt);
        if (l.batch == max)
            break;
    }
    return SN_OK;
}

static int by_tps(const void *a, const void *b)
{
    const struct sn_infer_point *x = a, *y = b;
    if (x->pareto != y->pareto)
        return x->pareto ? -1 : 1;
    if (x->result.output_tps_gpu != y->result.output_tps_gpu)
        return x->result.output_tps_gpu > y->result.output_tps_gpu ? -1 : 1;
    if (x->result.output_tps_user != y->result.output_tps_user)
        return x->result.output_tps_user > y->result.output_tps_user ? -1 : 1;
    return memcmp(&x->layout, &y->layout, sizeof(x->layout));
}

/* Mark the front: sorted by tokens/s per GPU, a point is on it when it
 * serves each user faster than every point above it. */
static size_t mark_front(struct grow *g)
{
    double best_user = -1;
    size_t n = 0;

    if (g->n == 0) /* nothing fits: no array to sort */
        return 0;
    qsort(g->p, g->n, sizeof(*g->p), by_tps);
    for (size_t i = 0; i < g->n; i++) {
        if (g->p[i].result.output_tps_user > best_user) {
            g->p[i].pareto = true;
            best_user = g->p[i].result.output_tps_user;
            n++;
        }
    }
    /* again: the front first */
    qsort(g->p, g->n, sizeof(*g->p), by_tps);
    return n;
}

int sn__infer_each_layout(const struct sn_model_info *m,
                          const struct sn_train_system *sys, int gpus,
                          bool whole, const struct sn_infer_work *w,
                          const struct sn_infer_limits *lim, sn__layout_fn each,
                          void *ctx, struct sn_error *err)
{
    int e = m->experts > 1 ? m->experts : 1;

    for (int tp = 1; tp <= gpus; tp++) {
        if (gpus % tp)
            continue;
        for (int pp = 1; pp <= PP_MAX && pp <= m->layers; pp *= 2) {
            if ((gpus / tp) % pp || (whole && tp * pp != gpus))
                continue;
            for (int ep = 1; ep <= tp; ep++) {
                int slots = (e + ep - 1) / ep * ep;
                if (tp % ep || (e % ep && ep != tp))
                    continue;
                /* attention TP or DP, each with and without two-batch
                 * overlap where there is communication to hide */
                for (int v = 0; v < (tp > 1 ? 4 : 1); v++) {
                    struct sn_infer_layout l = {
                        .tp = tp,
                        .ep = ep,
                        .pp = pp,
                        .dp_attention = v & 1,
                        .tbo = v >> 1,
                        .redundant = e > 1 ? slots - e : 0,
                    };
                    struct sn_error e2;
                    int rc;
                    if (sn_infer_check(m, sys, &l, w, gpus, &e2))
                        continue;
                    rc = each(m, sys, l, w, lim, ctx, err);
                    if (rc)
                        return rc;
                }
            }
        }
    }
    return SN_OK;
}

/* Every point timed into *g, the front marked and first; st's counts. */
static int search_all(const struct sn_model_info *m,
                      const struct sn_train_system *sys, int gpus,
                      const struct sn_infer_work *w,
                      const struct sn_infer_limits *lim, struct grow *g,
                      struct sn_infer_search_stats *st, struct sn_error *err)
{
    int rc;

    memset(st, 0, sizeof(*st));
    st->best = -1;
    /* a precision the accelerator lacks is one error, not a search
     * that finds nothing */
    rc = sn_infer_check_precision(sys, w, err);
    if (!rc)
        rc =
            sn__infer_each_layout(m, sys, gpus, false, w, lim, batches, g, err);
    if (rc)
        return rc;
    st->timed = g->n;
    st->pareto = mark_front(g);
    return SN_OK;
}

/* Up to cap of g's points into pts, the best kept (as the last when
 * beyond cap). */
static void copy_out(const struct grow *g, struct sn_infer_point *pts,
                     size_t cap, size_t *n, struct sn_infer_search_stats *st)
{
    size_t best = st->best >= 0 ? (size_t)st->best : 0;

    for (size_t i = 0; i < g->n && *n < cap; i++)
        pts[(*n)++] = g->p[i];
    if (st->best >= 0 && (size_t)st->best >= cap && cap > 0) {
        pts[cap - 1] = g->p[best];
        st->best = (long)cap - 1;
    }
}

int sn_infer_search(const struct sn_model_info *m,
                    const struct sn_train_system *sys, int gpus,
                    const struct sn_infer_work *w,
                    const struct sn_infer_limits *lim,
                    struct sn_infer_point *pts, size_t cap, size_t *n,
                    struct sn_infer_search_stats *st, struct sn_error *err)
{
    struct grow g = {0};
    double t0 = sn_now();
    size_t best = 0;
    int rc;

    *n = 0;
    rc = search_all(m, sys, gpus, w, lim, &g, st, err);
    if (rc)
        goto out;
    /* the best within the limits: the most tokens/s per GPU; it is
     * always kept, as the first point after the front when not on it */
    for (size_t i = 0; i < g.n; i++) {
        if (g.p[i].meets &&
            (st->best < 0 ||
             g.p[i].result.output_tps_gpu > g.p[best].result.output_tps_gpu)) {
            best = i;
            st->best = (long)i;
        }
    }
    copy_out(&g, pts, cap, n, st);
out:
    st->seconds = sn_now() - t0;
    free(g.p);
    return rc;
}

static bool same_layout(const struct sn_infer_layout *a,
                        const struct sn_infer_layout *b)
{
    return a->tp == b->tp && a->ep == b->ep && a->pp == b->pp &&
           a->dp_attention == b->dp_attention && a->tbo == b->tbo &&
           a->redundant == b->redundant && a->eplb == b->eplb;
}

/* Whether served run a beats b: more output tokens/s per GPU, or within
 * 1% of it (an open load below saturation serves its rate whatever the
 * layout; the steady window's count differs by noise) the lower TPOT at
 * the percentile. */
static bool served_better(const struct sn_infer_served *a,
                          const struct sn_infer_served *b)
{
    if (a->output_tps_gpu > 1.01 * b->output_tps_gpu)
        return true;
    if (b->output_tps_gpu > 1.01 * a->output_tps_gpu)
        return false;
    return a->tpot_at < b->tpot_at;
}

int sn_infer_search_served(
    const struct sn_model_info *m, const struct sn_train_system *sys, int gpus,
    const struct sn_infer_work *w, const struct sn_infer_limits *lim,
    const struct sn_infer_load *cluster, struct sn_infer_point *pts, size_t cap,
    size_t *n, struct sn_infer_search_stats *st,
    struct sn_infer_served_search *best, struct sn_error *err)
{
    struct sn_infer_limits none = {0, 0};
    struct sn_infer_layout tried[SN_INFER_SHORTLIST];
    struct grow g = {0};
    size_t ntried = 0;
    double t0 = sn_now(), t1;
    int rc;

    memset(best, 0, sizeof(*best));
    *n = 0;
    /* the whole front, idle, unlimited: a limit judged idle would drop
     * layouts the load serves within it (a TPOT at a full batch the rate
     * never fills) */
    rc = search_all(m, sys, gpus, w, &none, &g, st, err);
    if (rc)
        goto out;
    t1 = sn_now();
    for (size_t i = 0; i < g.n && g.p[i].pareto; i++)
        g.p[i].meets = false;
    /* first the layouts with a point on the front within the limits idle
     * (at some batch they can meet them), then the rest of the front */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < g.n && g.p[i].pareto; i++) {
            struct sn_infer_layout l = g.p[i].layout;
            struct sn_infer_load ld;
            struct sn_infer_served sv;
            size_t k;

            if (meets(&g.p[i].result, lim) != (pass == 0))
                continue;
            for (k = 0; k < ntried && !same_layout(&tried[k], &l); k++)
                ;
            if (k < ntried || ntried == SN_INFER_SHORTLIST)
                continue;
            tried[ntried++] = l;
            sn_infer_load_per_replica(cluster, gpus, &l, &ld);
            /* a concurrency above the largest batch does not fit; a
             * rate's batch is capped at the point's, the largest of the
             * layout on the front (within the limits idle in the first
             * pass), as a runtime's max batch size is set for an SLO */
            if (ld.concurrency > g.p[i].result.max_batch)
                continue;
            if (ld.rate > 0)
                l.batch = g.p[i].layout.batch;
            rc = sn_infer_serve(m, sys, &l, w, &ld, &sv, err);
            if (rc)
                goto out;
            best->simulated++;
            g.p[i].meets = sn_infer_served_meets(&sv, lim, NULL, NULL);
            if (g.p[i].meets &&
                (st->best < 0 || served_better(&sv, &best->served))) {
                st->best = (long)i;
                best->layout = l;
                best->load = ld;
                best->served = sv;
            }
        }
    }
    best->seconds = sn_now() - t1;
    copy_out(&g, pts, cap, n, st);
out:
    st->seconds = sn_now() - t0;
    free(g.p);
    return rc;
}

int sn_infer_disaggregate(const struct sn_model_info *m,
                          const struct sn_train_system *sys,
                          const struct sn_infer_layout *lp,
                          const struct sn_infer_layout *ld,
                          const struct sn_infer_work *w, int prefill,
                          int decode, struct sn_infer_disagg *o,
                          struct sn_error *err)
{
    double pr, dr, kv;
    int rc;

    memset(o, 0, sizeof(*o));
    o->prefill = prefill;
    o->decode = decode;
    o->lp = *lp;
    o->ld = *ld;
    if (prefill < 1 || decode < 1)
        return sn_error_set(err, SN_EINPUT,
                            "--disaggregate needs GPUs on both sides");
    if (sys->accels > 0 && prefill + decode > sys->accels)
        return sn_error_set(err, SN_EINPUT,
                            "--disaggregate %d:%d is more than the %d "
                            "accelerators",
                            prefill, decode, sys->accels);
    rc = sn_infer_check(m, sys, lp, w, prefill, err);
    if (!rc)
        rc = sn_infer_check(m, sys, ld, w, decode, err);
    if (!rc)
        rc = sn_infer_predict(m, sys, lp, w, &o->p, err);
    if (!rc)
        rc = sn_infer_predict(m, sys, ld, w, &o->d, err);
    if (rc)
        return rc;
    o->prefill_instances = prefill / (lp->tp * lp->pp);
    o->decode_instances = decode / (ld->tp * ld->pp);
    /* a side that does not fit serves nothing: no rates */
    o->fits = o->p.fits && o->d.fits;
    if (!o->fits)
        return SN_OK;
    /* requests/s each side sustains */
    pr = prefill * o->p.prefill_tps_gpu / w->isl;
    dr = decode * o->d.decode_tps_gpu / w->osl;
    o->requests_per_s = pr < dr ? pr : dr;
    o->bound = pr < dr ? "prefill" : "decode";
    o->output_tps_gpu = o->requests_per_s * w->osl / (prefill + decode);
    o->balanced_ratio =
        (w->isl / o->p.prefill_tps_gpu) / (w->osl / o->d.decode_tps_gpu);
    /* one request's KV cache from the first prefill GPU to the first
     * decode GPU (NIXL-style point to point) */
    kv = sn_infer_kv_bytes(m, w->isl, w->kv == SN_DTYPE_FP8 ? 1 : 2);
    if (sys->comm.time) {
        struct sn_group g = {0, 2, (uint32_t)prefill, NULL};
        rc = sys->comm.time(sys->comm.ctx, SN_COLL_SENDRECV, &g, 1, kv,
                            &o->kv_transfer_s, err);
        if (rc)
            return rc;
    }
    o->d.ttft_s = o->p.prefill_s + o->kv_transfer_s;
    o->d.output_tps_gpu = o->output_tps_gpu;
    return SN_OK;
}
