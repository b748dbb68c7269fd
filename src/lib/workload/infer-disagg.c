/* infer-disagg.c: the disaggregated search: prefill and decode instance
 * layouts, their sizes and the prefill : decode split of a cluster under
 * TTFT/TPOT limits, for the most output tokens/s per GPU of both pools
 * (`sim infer --search --disaggregate`). One split is timed by
 * sn_infer_disaggregate() (infer-search.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "infer-int.h"

/* The most tokens/s per GPU one side reaches with instances of one size
 * within the limits. */
struct side {
    bool have;
    struct sn_infer_layout l;
    double tps;    /* prefill input or decode output tokens/s per GPU */
    double ttft_s; /* prefill: one prompt and the KV transfer */
};

struct dsearch {
    double kv_s;            /* one request's KV cache across the cluster */
    struct side *pre, *dec; /* by instance size, 1 .. gpus - 1 */
    size_t timed;
    double fastest_ttft, fastest_tpot; /* of every point that fits */
};

static void keep(struct side *s, const struct sn_infer_layout *l, double tps,
                 double ttft)
{
    if (!s->have || tps > s->tps) {
        s->have = true;
        s->l = *l;
        s->tps = tps;
        s->ttft_s = ttft;
    }
}

static void fastest(double *have, double t)
{
    if (!(*have > 0) || t < *have)
        *have = t;
}

/* A prefill instance: its rate at full batching, its TTFT idle. */
static int prefill_one(const struct sn_model_info *m,
                       const struct sn_train_system *sys,
                       struct sn_infer_layout l, const struct sn_infer_work *w,
                       const struct sn_infer_limits *lim, void *ctx,
                       struct sn_error *err)
{
    struct dsearch *d = ctx;
    struct sn_infer_result r;
    double ttft;
    int rc;

    l.batch = 0;
    if ((rc = sn_infer_predict(m, sys, &l, w, &r, err)) || !r.fits)
        return rc;
    d->timed++;
    ttft = r.prefill_s + d->kv_s;
    fastest(&d->fastest_ttft, ttft);
    if (!(lim->ttft > 0) || ttft <= lim->ttft)
        keep(&d->pre[l.tp * l.pp], &l, r.prefill_tps_gpu, ttft);
    return SN_OK;
}

/* A decode instance at each batch, powers of two up to the most that
 * fit, and that most. */
static int decode_one(const struct sn_model_info *m,
                      const struct sn_train_system *sys,
                      struct sn_infer_layout l, const struct sn_infer_work *w,
                      const struct sn_infer_limits *lim, void *ctx,
                      struct sn_error *err)
{
    struct dsearch *d = ctx;
    struct sn_infer_result r;
    int rc, max;

    l.batch = 1;
    if ((rc = sn_infer_predict(m, sys, &l, w, &r, err)) || !r.fits)
        return rc;
    max = r.max_batch;
    for (int b = 1;; b *= 2) {
        l.batch = b < max ? b : max;
        if (l.batch > 1 && (rc = sn_infer_predict(m, sys, &l, w, &r, err)))
            return rc;
        d->timed++;
        fastest(&d->fastest_tpot, r.tpot_s);
        if (!(lim->tpot > 0) || r.tpot_s <= lim->tpot)
            keep(&d->dec[l.tp * l.pp], &l, r.decode_tps_gpu, 0);
        if (l.batch == max)
            break;
    }
    return SN_OK;
}

/* One request's KV cache from rank 0 to the last rank: the farthest a
 * prefill pool and a decode pool can be apart (NIXL-style point to
 * point), so a split found meets the TTFT limit wherever it is placed. */
static int kv_transfer(const struct sn_model_info *m,
                       const struct sn_train_system *sys,
                       const struct sn_infer_work *w, int gpus, double *t,
                       struct sn_error *err)
{
    struct sn_group g = {0, 2, (uint32_t)(gpus - 1), NULL};
    double kv = sn_infer_kv_bytes(m, w->isl, w->kv == SN_DTYPE_FP8 ? 1 : 2);

    *t = 0;
    if (!sys->comm.time)
        return SN_OK;
    return sys->comm.time(sys->comm.ctx, SN_COLL_SENDRECV, &g, 1, kv, t, err);
}

/* What the split search weighs: the load and its limits. */
struct split_ask {
    double rate, pct; /* Poisson requests/s to the cluster (0: none) */
    double ttft;      /* the TTFT limit (0: none) */
};

/* The best split of the sides' sizes: for each prefill size and count of
 * its instances, each decode size with its instances filling the GPUs
 * left; per GPU of both pools. Under a rate both sides must serve it,
 * the prompts queue for the prefill instances (M/D/c, each instance one
 * prompt per isl / its prefill throughput) and the TTFT at the
 * percentile (wait, prefill, KV transfer) must be within the limit; the
 * rate over the fewest GPUs serves most per GPU. */
static bool best_split(const struct sn_infer_work *w, int gpus, int domain,
                       const struct dsearch *d, const struct split_ask *ask,
                       int *sp, int *np, int *sd, int *nd, double *wait,
                       size_t *splits)
{
    double most = 0;
    bool found = false;

    for (int a = 1; a < gpus; a++) {
        bool queue_met = false; /* a fewer count of a's already met it */
        if (!d->pre[a].have)
            continue;
        for (int b = 1; a + b <= gpus; b++)
            *splits += d->dec[b].have;
        for (int p = 1; p * a < gpus; p++) {
            int P = p * a;
            double pr = P * d->pre[a].tps / w->isl, qw = 0;
            if (sn__infer_straddles(&d->pre[a].l, P, domain))
                continue;
            if (ask->rate > 0) {
                if (pr <= ask->rate)
                    continue; /* the prompts' queue grows without bound */
                /* more instances never wait longer: once within the
                 * limit, the wait is only reported */
                qw = sn_infer_prefill_wait(
                    ask->rate, w->isl / (d->pre[a].tps * a), p, ask->pct);
                if (ask->ttft > 0 && !queue_met) {
                    if (qw + d->pre[a].ttft_s > ask->ttft)
                        continue;
                    queue_met = true;
                }
            }
            for (int b = 1; P + b <= gpus; b++) {
                int q = (gpus - P) / b, D = q * b;
                double dr, per;
                if (!d->dec[b].have)
                    continue;
                dr = D * d->dec[b].tps / w->osl;
                if (ask->rate > 0) {
                    if (dr < ask->rate)
                        continue;
                    /* the rate on the fewest decode instances that
                     * serve it */
                    q = (int)ceil(ask->rate * w->osl / (b * d->dec[b].tps));
                    q = q < 1 ? 1 : q;
                    D = q * b;
                    per = ask->rate * w->osl / (P + D);
                } else {
                    per = (pr < dr ? pr : dr) * w->osl / (P + D);
                }
                /* each pool's TP groups within the domains */
                if (per <= most || sn__infer_straddles(&d->dec[b].l, D, domain))
                    continue;
                most = per;
                found = true;
                *sp = a;
                *np = p;
                *sd = b;
                *nd = q;
                *wait = qw;
            }
        }
    }
    return found;
}

int sn_infer_disagg_search(const struct sn_model_info *m,
                           const struct sn_train_system *sys, int gpus,
                           const struct sn_infer_work *w,
                           const struct sn_infer_limits *lim,
                           struct sn_infer_disagg *best,
                           struct sn_infer_disagg_stats *st,
                           struct sn_error *err)
{
    return sn_infer_disagg_search_rate(m, sys, gpus, w, lim, 0, 0, best, st,
                                       err);
}

int sn_infer_disagg_search_rate(const struct sn_model_info *m,
                                const struct sn_train_system *sys, int gpus,
                                const struct sn_infer_work *w,
                                const struct sn_infer_limits *lim, double rate,
                                double percentile, struct sn_infer_disagg *best,
                                struct sn_infer_disagg_stats *st,
                                struct sn_error *err)
{
    struct split_ask ask = {
        rate > 0 ? rate : 0,
        percentile > 0 ? percentile : SN_INFER_SLO_PERCENTILE, lim->ttft};
    double wait = 0;
    struct dsearch d = {0};
    double t0 = sn_now();
    int rc, sp = 0, np = 0, sd = 0, nd = 0;

    memset(best, 0, sizeof(*best));
    memset(st, 0, sizeof(*st));
    if (gpus < 2)
        return sn_error_set(err, SN_EINPUT,
                            "a disaggregated search needs at least 2 GPUs "
                            "(one a side)");
    if ((rc = sn_infer_check_precision(sys, w, err)) ||
        (rc = kv_transfer(m, sys, w, gpus, &d.kv_s, err)))
        return rc;
    d.pre = sn_xcalloc((size_t)gpus, sizeof(*d.pre));
    d.dec = sn_xcalloc((size_t)gpus, sizeof(*d.dec));
    for (int s = 1; s < gpus && !rc; s++) {
        rc = sn__infer_each_layout(m, sys, s, true, w, lim, prefill_one, &d,
                                   err);
        if (!rc)
            rc = sn__infer_each_layout(m, sys, s, true, w, lim, decode_one, &d,
                                       err);
    }
    st->timed = d.timed;
    st->fastest_ttft = d.fastest_ttft;
    st->fastest_tpot = d.fastest_tpot;
    if (rc)
        goto out;
    st->found = best_split(w, gpus, sys->domain, &d, &ask, &sp, &np, &sd, &nd,
                           &wait, &st->splits);
    if (st->found) {
        struct sn_infer_layout lp = d.pre[sp].l, ld = d.dec[sd].l;
        lp.batch = 0;
        rc = sn_infer_disaggregate(m, sys, &lp, &ld, w, np * sp, nd * sd, best,
                                   err);
        /* the TTFT the split was chosen under: the transfer across the
         * cluster */
        best->kv_transfer_s = d.kv_s;
        best->d.ttft_s = best->p.prefill_s + d.kv_s;
        if (ask.rate > 0) {
            best->rate = ask.rate;
            best->percentile = ask.pct;
            best->prefill_wait_s = wait;
            best->d.ttft_s += wait;
            best->requests_per_s = ask.rate;
            best->bound = "rate"; /* both sides serve more */
            best->output_tps_gpu = best->d.output_tps_gpu =
                ask.rate * w->osl / (best->prefill + best->decode);
        }
    }
out:
    free(d.pre);
    free(d.dec);
    st->seconds = sn_now() - t0;
    return rc;
}
