/* infer-load.c: TTFT and TPOT as served under a load, from an iteration-
 * level simulation of one replica's in-flight batcher: requests arrive
 * (Poisson at a rate, seeded, or a closed loop keeping N in flight), wait
 * in a FIFO queue for a slot (the largest batch), their prompts run in
 * chunks within each attention rank's token budget beside the decodes
 * (chunked prefill), and every step takes max(GPU, host). Under attention
 * data-parallelism a request belongs to the rank with the fewest, and a
 * step lasts as long as its busiest rank's prompt chunk: the others wait
 * (TensorRT-LLM blog 10, "ADP balance"). The GPU costs come from infer.c
 * on a grid (sn__infer_costs), interpolated. docs/model.md ("Load"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "infer-int.h"

#define REQUESTS_MIN 400
#define REQUESTS_MAX 20000
#define RANKS_MAX 1024

/* One request's life. */
struct req {
    double arrive, first, done;
    double prompt; /* prompt tokens still to run */
    double out;    /* output tokens still to come after the first */
    int rank;
    bool started; /* admitted to a slot */
};

/* splitmix64: a seeded stream of uniform numbers in (0, 1) */
static double uniform(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

/* Linear interpolation of y over ascending x (clamped at the ends, and
 * through the origin below the first point). */
static double interp(const double *x, const double *y, int n, double v)
{
    int i;

    if (v <= 0 || n < 1)
        return 0;
    if (v <= x[0])
        return y[0] * v / x[0];
    for (i = 1; i < n && x[i] < v; i++)
        ;
    if (i == n)
        return y[n - 1] * v / x[n - 1];
    return y[i - 1] + (y[i] - y[i - 1]) * (v - x[i - 1]) / (x[i] - x[i - 1]);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The p-th percentile of v[0..n) (sorted in place), nearest rank. */
static double percentile(double *v, int n, double p)
{
    int k;

    if (n < 1)
        return 0;
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    k = (int)ceil(p / 100 * n) - 1;
    return v[k < 0 ? 0 : k >= n ? n - 1 : k];
}

static int check_load(const struct sn_infer_load *ld, struct sn_error *err)
{
    if ((ld->rate > 0) == (ld->concurrency > 0))
        return sn_error_set(err, SN_EINPUT,
                            "a load is a request rate or a concurrency: "
                            "give one");
    if (ld->rate < 0 || !isfinite(ld->rate) || ld->requests < 0 ||
        ld->requests > REQUESTS_MAX)
        return sn_error_set(err, SN_EINPUT,
                            "load: rate must be positive, requests at most "
                            "%d",
                            REQUESTS_MAX);
    if (ld->percentile != 0 && !(ld->percentile >= 1 && ld->percentile <= 99.9))
        return sn_error_set(err, SN_EINPUT,
                            "load: percentile %g is not within 1 to 99.9",
                            ld->percentile);
    return SN_OK;
}

/* The simulation's state. */
struct sim {
    const struct sn__infer_costs *c;
    const struct sn_train_system *sys;
    const struct sn_infer_layout *l;
    const struct sn_infer_work *w;
    struct req *q;
    int n, issued, next, done, active;
    int *rank_n;    /* requests on each attention rank */
    double tokens;  /* output tokens made so far */
    double *rank_t; /* prompt tokens each rank runs this step */
};

/* Admit the arrived requests, in order, while the replica has a slot. */
static void admit(struct sim *s, double t)
{
    while (s->next < s->issued && s->q[s->next].arrive <= t &&
           s->active < s->c->max_batch) {
        struct req *r = &s->q[s->next++];
        int best = 0;
        for (int k = 1; k < s->c->ranks; k++)
            if (s->rank_n[k] < s->rank_n[best])
                best = k;
        r->rank = best;
        r->started = true;
        s->rank_n[best]++;
        s->active++;
    }
}

/* One step from time *t: its length, the requests' progress. */
static void step(struct sim *s, double *t, int *first_dec)
{
    const struct sn__infer_costs *c = s->c;
    double dec = 0, tmax = 0, gpu, host, dt;
    int busiest = 0;

    memset(s->rank_t, 0, sizeof(double) * (size_t)c->ranks);
    /* the decodes, then each rank's prompts in arrival order within its
     * budget */
    for (int i = *first_dec; i < s->next; i++) {
        struct req *r = &s->q[i];
        if (!r->started || r->done > 0)
            continue;
        if (r->prompt <= 0) {
            dec++;
        } else if (s->rank_t[r->rank] < c->budget) {
            double take = fmin(r->prompt, c->budget - s->rank_t[r->rank]);
            s->rank_t[r->rank] += take;
        }
    }
    for (int k = 0; k < c->ranks; k++) {
        tmax = fmax(tmax, s->rank_t[k]);
        busiest = s->rank_n[k] > busiest ? s->rank_n[k] : busiest;
    }
    /* a step with a prompt chunk runs eager: the decodes beside it, or
     * the one-token pass when none, plus the chunk above that pass */
    if (tmax > 0)
        gpu = (dec > 0 ? interp(c->batch, c->mixed, c->nb, dec) : c->base) +
              interp(c->tokens, c->prefill, c->nt, tmax);
    else
        gpu = interp(c->batch, c->decode, c->nb, dec);
    host = sn__infer_host(s->sys, s->l, s->w, (double)busiest * c->ranks);
    if (tmax > 0) /* and its kernels launched one by one */
        host += c->launch;
    dt = fmax(gpu, host);
    if (!(dt > 0))
        dt = 1e-6;
    *t += dt;
    /* progress: decodes gain, prompt chunks run (first token at the end
     * of the step that finishes the prompt) */
    memset(s->rank_t, 0, sizeof(double) * (size_t)c->ranks);
    for (int i = *first_dec; i < s->next; i++) {
        struct req *r = &s->q[i];
        if (!r->started || r->done > 0)
            continue;
        if (r->prompt <= 0) {
            s->tokens += fmin(c->gain, r->out);
            r->out -= c->gain;
        } else if (s->rank_t[r->rank] < c->budget) {
            double take = fmin(r->prompt, c->budget - s->rank_t[r->rank]);
            s->rank_t[r->rank] += take;
            r->prompt -= take;
            if (r->prompt <= 0) {
                r->first = *t;
                s->tokens += 1;
            }
        } else {
            continue;
        }
        if (r->prompt <= 0 && r->out <= 1e-9) {
            r->done = *t;
            s->done++;
            s->active--;
            s->rank_n[r->rank]--;
            if (s->issued < s->n && s->q[s->issued].arrive < 0)
                /* closed loop: the client sends its next request */
                s->q[s->issued++].arrive = *t;
        }
    }
    while (*first_dec < s->next && s->q[*first_dec].done > 0)
        (*first_dec)++;
}

int sn_infer_serve(const struct sn_model_info *m,
                   const struct sn_train_system *sys,
                   const struct sn_infer_layout *l,
                   const struct sn_infer_work *w,
                   const struct sn_infer_load *load,
                   struct sn_infer_served *out, struct sn_error *err)
{
    struct sn__infer_costs c;
    struct sim s;
    uint64_t seed = load->seed ? load->seed : 20240607;
    double t = 0, arrive = 0, *lat = NULL, wait = 0, tokens = 0, busy = 0;
    double t1 = -1, t2 = -1, c1 = 0, c2 = 0;
    int rc, first_dec = 0, steps = 0, n;

    memset(out, 0, sizeof(*out));
    memset(&s, 0, sizeof(s));
    if ((rc = check_load(load, err)) ||
        (rc = sn__infer_costs(m, sys, l, w, &c, err)))
        return rc;
    if (c.ranks > RANKS_MAX)
        return sn_error_set(err, SN_EINPUT, "load: at most %d attention ranks",
                            RANKS_MAX);
    n = load->requests;
    if (n == 0) {
        n = 4 * (load->concurrency > 0 ? load->concurrency : c.max_batch);
        n = n < REQUESTS_MIN   ? REQUESTS_MIN
            : n > REQUESTS_MAX ? REQUESTS_MAX
                               : n;
    }
    s.c = &c;
    s.sys = sys;
    s.l = l;
    s.w = w;
    s.n = n;
    s.q = sn_xcalloc((size_t)n, sizeof(*s.q));
    s.rank_n = sn_xcalloc((size_t)c.ranks, sizeof(int));
    s.rank_t = sn_xcalloc((size_t)c.ranks, sizeof(double));
    for (int i = 0; i < n; i++) {
        s.q[i].prompt = w->isl;
        s.q[i].out = w->osl - 1;
        if (load->rate > 0) {
            arrive += -log(uniform(&seed)) / load->rate;
            s.q[i].arrive = arrive;
        } else {
            s.q[i].arrive = i < load->concurrency ? 0 : -1;
        }
    }
    s.issued =
        load->rate > 0 ? n : (load->concurrency < n ? load->concurrency : n);
    while (s.done < n) {
        if (s.active == 0 && s.next < s.issued && s.q[s.next].arrive > t)
            t = s.q[s.next].arrive;
        admit(&s, t);
        if (s.active == 0)
            break; /* nothing left to run: cannot happen with n issued */
        busy += s.active;
        step(&s, &t, &first_dec);
        steps++;
        /* the steady window: from the arrival of the first quarter's
         * last request to the last arrival (warm-up and drain out) */
        if (t1 < 0 && s.issued > n / 4 && t >= s.q[n / 4].arrive) {
            t1 = t;
            c1 = s.tokens;
        }
        if (t2 < 0 && s.issued == n && t >= s.q[n - 1].arrive) {
            t2 = t;
            c2 = s.tokens;
        }
    }
    /* the latencies of every request, none left out */
    lat = sn_xcalloc((size_t)n, sizeof(double));
    for (int i = 0; i < n; i++)
        lat[i] = s.q[i].first - s.q[i].arrive;
    out->at = load->percentile > 0 ? load->percentile : SN_INFER_SLO_PERCENTILE;
    for (int p = 0; p < SN_INFER_PCT_COUNT; p++)
        out->ttft[p] = percentile(lat, n, p == 0 ? 50 : p == 1 ? 90 : 99);
    out->ttft_at = percentile(lat, n, out->at);
    for (int i = 0; i < n; i++) {
        wait += s.q[i].first - s.q[i].arrive;
        lat[i] = w->osl > 1 ? (s.q[i].done - s.q[i].first) / (w->osl - 1) : 0;
        tokens += w->osl;
    }
    for (int p = 0; p < SN_INFER_PCT_COUNT; p++)
        out->tpot[p] = percentile(lat, n, p == 0 ? 50 : p == 1 ? 90 : 99);
    out->tpot_at = percentile(lat, n, out->at);
    out->ttft_mean = wait / n;
    out->requests = n;
    out->iterations = steps;
    out->mean_batch = steps ? busy / steps : 0;
    if (t2 > t1 && t1 >= 0 && c2 > c1) {
        out->output_tps_gpu = (c2 - c1) / (t2 - t1) / c.gpus;
        out->requests_per_s = (c2 - c1) / (t2 - t1) / w->osl;
    } else if (t > s.q[0].arrive) { /* too short a run for a window */
        out->output_tps_gpu = tokens / (t - s.q[0].arrive) / c.gpus;
        out->requests_per_s = n / (t - s.q[0].arrive);
    }
    /* arrivals above what the replica serves: in the steady window it
     * completes less than 95% of the rate offered */
    out->saturated = load->rate > 0 && out->requests_per_s < 0.95 * load->rate;
    free(lat);
    free(s.rank_t);
    free(s.rank_n);
    free(s.q);
    return SN_OK;
}

bool sn_infer_served_meets(const struct sn_infer_served *s,
                           const struct sn_infer_limits *lim, double *ttft_over,
                           double *tpot_over)
{
    /* a saturated replica meets no limit, whatever its percentiles */
    return sn__infer_within(s->ttft_at, s->tpot_at, lim, ttft_over,
                            tpot_over) &&
           !s->saturated;
}

void sn_infer_load_per_replica(const struct sn_infer_load *cluster, int gpus,
                               struct sn_infer_layout *l,
                               struct sn_infer_load *replica)
{
    long long per = l->tp * l->pp;

    *replica = *cluster;
    replica->rate = 0;
    replica->concurrency = 0;
    if (cluster->rate > 0) {
        replica->rate = cluster->rate * (double)per / gpus;
        l->batch = 0; /* the batch grows as the load asks */
    } else if (cluster->concurrency > 0) {
        replica->concurrency = l->batch =
            (int)((cluster->concurrency * per + gpus - 1) / gpus);
    }
}

/* The M/D/c queue's arrivals: a fixed seeded Poisson stream of unit rate,
 * scaled by the rate asked (the same draws for every rate, so a higher
 * rate never waits less by chance). */
#define WAIT_REQUESTS 4000

double sn_infer_prefill_wait(double rate, double service_s, int instances,
                             double pct)
{
    double *start, *wait, t = 0, r;
    uint64_t seed = 20240607;

    if (!(rate > 0) || !(service_s > 0) || instances < 1)
        return 0;
    if (rate * service_s >= instances)
        return INFINITY;
    start = sn_xcalloc(WAIT_REQUESTS, sizeof(double));
    wait = sn_xcalloc(WAIT_REQUESTS, sizeof(double));
    /* FIFO to the first free of c identical servers with a fixed service
     * time: request i takes the server request i - c left, so it starts
     * at max(its arrival, that start + the service time) */
    for (int i = 0; i < WAIT_REQUESTS; i++) {
        t += -log(uniform(&seed)) / rate;
        start[i] =
            i < instances ? t : fmax(t, start[i - instances] + service_s);
        wait[i] = start[i] - t;
    }
    r = percentile(wait, WAIT_REQUESTS, pct);
    free(wait);
    free(start);
    return r;
}
