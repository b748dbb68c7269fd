/* results.c: the result set: adding results and notes, copying and
 * releasing, and the byte form results travel in between ranks. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bench-int.h"

/* Caps on what an incoming buffer may claim, checked before allocating. */
#define SN_BENCH_MAX_SAMPLES ((size_t)1 << 26)
#define SN_BENCH_MAX_RESULTS ((size_t)1 << 24)

static void state_init(struct sn_bench_state *st)
{
    memset(st, 0, sizeof(*st));
    st->cpu_freq_hz = st->cpu_temp_c = NAN;
    st->sm_clock_hz = st->mem_clock_hz = st->temp_c = st->power_w = NAN;
}

/* The statistics of n values, NaN throughout for none: a result that took
 * no sample shows nothing rather than zeros. */
static void stats_of(const double *x, size_t n, struct sn_stats *st)
{
    sn_stats_compute(x, n, st);
    if (n == 0) {
        st->median = st->mean = st->min = st->max = st->mad = NAN;
        st->stddev = st->cv = NAN;
        st->p5 = st->p90 = st->p95 = st->p99 = st->p999 = NAN;
    }
}

void sn__bench_result_init(struct sn_bench_result *r)
{
    memset(r, 0, sizeof(*r));
    r->peer = -1;
    r->round = -1;
    r->nranks = 1;
    r->gemm_m = r->gemm_n = r->gemm_k = -1;
    r->threads = -1;
    r->numa = -1;
    r->pinned = -1;
    r->inplace = -1;
    r->root = -1;
    r->concurrent = -1;
    r->wrong = -1;
    r->time = NAN;
    r->complete = true;
    r->ci_met = -1;
    state_init(&r->before);
    state_init(&r->after);
    stats_of(NULL, 0, &r->stats);
}

void sn__bench_result_release(struct sn_bench_result *r)
{
    free(r->samples);
    r->samples = NULL;
    r->nsamples = 0;
}

struct sn_bench_result *sn__bench_local_add(struct sn__bench_ctx *c)
{
    struct sn_bench_result *r;

    SN_GROW(c->local, c->local_cap, c->nlocal + 1);
    r = &c->local[c->nlocal++];
    sn__bench_result_init(r);
    r->rank = c->job->rank;
    sn_strlcpy(r->host, c->job->host, sizeof(r->host));
    sn_strlcpy(r->device, c->device, sizeof(r->device));
    r->nranks = c->job->size;
    return r;
}

void sn__bench_result_samples(struct sn_bench_result *r, const double *t,
                              size_t n, double work, const char *metric,
                              const char *unit)
{
    double *v = sn_xmalloc((n ? n : 1) * sizeof(*v));
    struct sn_stats ts;

    free(r->samples);
    r->samples = sn_xmalloc((n ? n : 1) * sizeof(*r->samples));
    memcpy(r->samples, t, n * sizeof(*t));
    r->nsamples = n;
    r->work = work;
    sn_strlcpy(r->metric, metric, sizeof(r->metric));
    sn_strlcpy(r->unit, unit, sizeof(r->unit));
    for (size_t i = 0; i < n; i++)
        v[i] = work > 0 ? (t[i] > 0 ? work / t[i] : INFINITY) : t[i];
    stats_of(v, n, &r->stats);
    /* the median time, whatever the unit */
    stats_of(t, n, &ts);
    r->time = ts.median;
    free(v);
}

void sn_bench_results_init(struct sn_bench_results *res)
{
    memset(res, 0, sizeof(*res));
    res->complete = true;
}

void sn_bench_results_release(struct sn_bench_results *res)
{
    for (size_t i = 0; i < res->n; i++)
        sn__bench_result_release(&res->items[i]);
    free(res->items);
    free(res->ranks);
    for (size_t i = 0; i < res->nnotes; i++)
        free(res->notes[i]);
    free(res->notes);
    sn_bench_results_init(res);
}

void sn__bench_results_add(struct sn_bench_results *res,
                           const struct sn_bench_result *r)
{
    struct sn_bench_result *d;

    SN_GROW(res->items, res->cap, res->n + 1);
    d = &res->items[res->n++];
    *d = *r;
    d->samples =
        sn_xmalloc((r->nsamples ? r->nsamples : 1) * sizeof(*d->samples));
    if (r->nsamples)
        memcpy(d->samples, r->samples, r->nsamples * sizeof(*d->samples));
}

void sn__bench_results_note(struct sn_bench_results *res, const char *fmt, ...)
{
    struct sn_buf b;
    va_list ap;
    size_t cap = res->nnotes;

    sn_buf_init(&b);
    va_start(ap, fmt);
    sn_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    /* notes grow one at a time; a few per run */
    res->notes = sn_xrealloc(res->notes, (cap + 1) * sizeof(*res->notes));
    res->notes[res->nnotes++] = sn_buf_detach(&b, NULL);
}

void sn_bench_results_copy(struct sn_bench_results *dst,
                           const struct sn_bench_results *src)
{
    sn_bench_results_init(dst);
    for (size_t i = 0; i < src->n; i++)
        sn__bench_results_add(dst, &src->items[i]);
    if (src->nranks > 0) {
        dst->ranks = sn_xmalloc((size_t)src->nranks * sizeof(*dst->ranks));
        memcpy(dst->ranks, src->ranks,
               (size_t)src->nranks * sizeof(*dst->ranks));
    }
    dst->nranks = src->nranks;
    for (size_t i = 0; i < src->nnotes; i++)
        sn__bench_results_note(dst, "%s", src->notes[i]);
    memcpy(dst->backend, src->backend, sizeof(dst->backend));
    dst->versions = src->versions;
    dst->timer = src->timer;
    dst->mpi_thread_level = src->mpi_thread_level;
    dst->complete = src->complete;
    memcpy(dst->abort_test, src->abort_test, sizeof(dst->abort_test));
    memcpy(dst->abort_msg, src->abort_msg, sizeof(dst->abort_msg));
    dst->started = src->started;
    dst->elapsed = src->elapsed;
    dst->sampling = src->sampling;
}

long long sn_bench_wrong(const struct sn_bench_results *res)
{
    long long w = 0;

    for (size_t i = 0; i < res->n; i++)
        if (res->items[i].wrong > 0)
            w += res->items[i].wrong;
    return w;
}

/* The byte form: for each result the struct with its pointer cleared,
 * then its samples. Every rank runs the same binary, so the layout is the
 * same on both ends (MPI jobs require that anyway). */
void sn__bench_pack(const struct sn_bench_result *r, size_t n,
                    struct sn_buf *out)
{
    for (size_t i = 0; i < n; i++) {
        struct sn_bench_result h = r[i];
        h.samples = NULL;
        sn_buf_append(out, &h, sizeof(h));
        if (r[i].nsamples)
            sn_buf_append(out, r[i].samples,
                          r[i].nsamples * sizeof(*r[i].samples));
    }
}

int sn__bench_unpack(const char *data, size_t len, struct sn_bench_results *res,
                     struct sn_error *err)
{
    size_t off = 0, count = 0;

    while (off < len) {
        struct sn_bench_result h;
        size_t sbytes;
        if (len - off < sizeof(h) || ++count > SN_BENCH_MAX_RESULTS)
            return sn_error_set(err, SN_ERUNTIME,
                                "bench: malformed result data from a rank");
        memcpy(&h, data + off, sizeof(h));
        off += sizeof(h);
        if (h.nsamples > SN_BENCH_MAX_SAMPLES)
            return sn_error_set(err, SN_ERUNTIME,
                                "bench: a rank sent %zu samples (at most "
                                "%zu)",
                                h.nsamples, SN_BENCH_MAX_SAMPLES);
        sbytes = h.nsamples * sizeof(double);
        if (len - off < sbytes)
            return sn_error_set(err, SN_ERUNTIME,
                                "bench: truncated result data from a rank");
        /* strings arrive from another process: terminate them */
        h.op[sizeof(h.op) - 1] = '\0';
        h.host[sizeof(h.host) - 1] = '\0';
        h.peer_host[sizeof(h.peer_host) - 1] = '\0';
        h.device[sizeof(h.device) - 1] = '\0';
        h.dtype[sizeof(h.dtype) - 1] = '\0';
        h.redop[sizeof(h.redop) - 1] = '\0';
        h.metric[sizeof(h.metric) - 1] = '\0';
        h.unit[sizeof(h.unit) - 1] = '\0';
        h.expected_src[sizeof(h.expected_src) - 1] = '\0';
        h.before.governor[sizeof(h.before.governor) - 1] = '\0';
        h.after.governor[sizeof(h.after.governor) - 1] = '\0';
        {
            struct sn_bench_result tmp = h;
            tmp.samples =
                sn_xmalloc((h.nsamples ? h.nsamples : 1) * sizeof(double));
            if (sbytes)
                memcpy(tmp.samples, data + off, sbytes);
            sn__bench_results_add(res, &tmp);
            free(tmp.samples);
        }
        off += sbytes;
    }
    return SN_OK;
}
