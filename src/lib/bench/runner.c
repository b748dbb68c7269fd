/* runner.c: the measurement engine: options and their defaults, timed
 * sections (warm-up, batches of samples, --until-ci), the schedule of each
 * test across ranks, and the results each one leaves. Backends do the
 * timed loops; this file decides what runs where and when; the per-device
 * and pair tests are in tests.c. */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-int.h"
#include "pattern.h"
#include "sn/health.h"
#include "sn/schema.h"

/* Collective data types each backend moves (bit per enum sn_bench_dtype) */
#define DT(x) (1u << (x))
#define CPU_COLL_DTYPES (DT(SN_DT_FP64) | DT(SN_DT_FP32) | DT(SN_DT_INT32))
#define CUDA_COLL_DTYPES                                                       \
    (DT(SN_DT_FP64) | DT(SN_DT_FP32) | DT(SN_DT_INT32) | DT(SN_DT_BF16) |      \
     DT(SN_DT_FP16))

void sn_bench_opts_init(struct sn_bench_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->backend = SN_BENCH_CPU;
    o->warmup = 2;
    o->iters = 20;
    o->latency_iters = 10000;
    o->max_iters = 1000;
    o->timeout = 300;
    o->step_factor = 0;
    o->lat_bytes = 8;
    o->coll_dtype = SN_DT_FP32;
    o->redop = SN_REDOP_SUM;
    o->check = true;
    o->inject.rank = -1;
    o->inject.test = -1;
    o->nvml_library = SN_HEALTH_NVML_DEFAULT; /* the one doctor loads */
}

/* Elements of one collective buffer at size bytes: nccl-tests' count,
 * and for the gathered, scattered and exchanged buffers a whole multiple
 * of the ranks' parts. 0: the size holds too little to run. */
static uint64_t coll_count(enum sn_coll_op op, uint64_t size, size_t es,
                           int nranks)
{
    uint64_t count = size / es;

    if (sn_coll_op_info(op)->parted)
        count = count / (uint64_t)nranks * (uint64_t)nranks;
    return count;
}

/* The sizes of the collective sweep, as test_coll() walks them. */
static uint64_t coll_next(const struct sn_bench_opts *o, uint64_t size)
{
    uint64_t next = (uint64_t)((double)size * o->step_factor);

    if (o->min_bytes == o->max_bytes || next <= size)
        return 0;
    return next;
}

static bool wants(const struct sn_bench_opts *o, enum sn_bench_test t)
{
    for (size_t i = 0; i < o->ntests; i++)
        if (o->tests[i] == t)
            return true;
    return false;
}

/* A collective sweep in which no size runs for any collective asked for
 * would report success with no results: refused before anything runs. */
static int coll_sweep_check(const struct sn_bench_opts *o, int nranks,
                            struct sn_error *err)
{
    size_t es = sn_bench_dtype_size(o->coll_dtype);

    if (!wants(o, SN_BENCH_COLL))
        return SN_OK;
    for (int op = 0; op < SN_COLL_OP_COUNT; op++) {
        if (o->coll_ops && !(o->coll_ops & (1u << op)))
            continue;
        for (uint64_t size = o->min_bytes; size && size <= o->max_bytes;
             size = coll_next(o, size))
            if (coll_count((enum sn_coll_op)op, size, es, nranks) > 0)
                return SN_OK;
    }
    return sn_error_set(err, SN_EINPUT,
                        "coll: no size from %llu to %llu B can run: a buffer "
                        "needs one %zu-byte %s element (allgather, "
                        "reducescatter and alltoall one per rank: %llu B on "
                        "%d ranks); raise -e or choose a smaller -d",
                        (unsigned long long)o->min_bytes,
                        (unsigned long long)o->max_bytes, es,
                        sn_bench_dtype_name(o->coll_dtype),
                        (unsigned long long)(es * (size_t)nranks), nranks);
}

/* Fill defaults and check what no test can run with. Same options give
 * the same answer on every rank, so ranks never disagree here. */
static int resolve(struct sn__bench_ctx *c, const struct sn_bench_opts *in,
                   struct sn_error *err)
{
    struct sn_bench_opts *o = &c->o;
    const struct sn__bench_backend *be = sn__bench_backend_for(in->backend);
    unsigned coll_ok;

    *o = *in;
    if (!be)
        return sn_error_set(err, SN_ENOTSUP,
                            "bench: the %s backend is not available: %s",
                            sn_bench_backend_name(in->backend),
                            sn_bench_backend_why(in->backend));
    c->be = be;
    if (!o->ntests) {
        for (int t = 0; t < SN_BENCH_TEST_COUNT; t++)
            o->tests[o->ntests++] = (enum sn_bench_test)t;
    }
    if (!o->fsroot)
        o->fsroot = "";
    if (!o->mem_bytes) {
        /* STREAM's rule for the default: each array at least 4 times the
         * last-level cache, so the figure is memory's, not the cache's */
        double llc =
            o->backend == SN_BENCH_CPU ? sn__bench_llc_bytes(o->fsroot) : 0;
        uint64_t need = (uint64_t)(4 * llc + (1 << 20) - 1) >> 20 << 20;
        o->mem_bytes = be->mem_bytes > need ? be->mem_bytes : need;
    }
    if (!o->pair_bytes)
        o->pair_bytes = be->pair_bytes;
    if (!o->host_bytes)
        o->host_bytes = be->host_bytes;
    if (!o->min_bytes)
        o->min_bytes = in->max_bytes && in->max_bytes < be->min_bytes
                           ? in->max_bytes
                           : be->min_bytes;
    if (!o->max_bytes)
        o->max_bytes =
            o->min_bytes > be->max_bytes ? o->min_bytes : be->max_bytes;
    if (o->step_factor == 0)
        o->step_factor = 4;
    if (!o->gemm_size)
        o->gemm_size = be->gemm_size;
    if (!o->lat_bytes)
        o->lat_bytes = 8;
    if (o->iters < 1 || o->iters > 10000000)
        return sn_error_set(err, SN_EINPUT,
                            "iterations must be 1 to 10000000, not %d",
                            o->iters);
    if (o->warmup < 0 || o->warmup > 10000000)
        return sn_error_set(err, SN_EINPUT,
                            "warm-up iterations must be 0 to 10000000, "
                            "not %d",
                            o->warmup);
    if (o->latency_iters < 1 || o->latency_iters > 10000000)
        return sn_error_set(err, SN_EINPUT,
                            "latency iterations must be 1 to 10000000, "
                            "not %d",
                            o->latency_iters);
    if (o->until_ci < 0 || o->until_ci >= 1)
        return sn_error_set(err, SN_EINPUT,
                            "--until-ci must be above 0%% and below "
                            "100%%");
    if (o->until_ci > 0 && o->max_iters < o->iters)
        o->max_iters = o->iters;
    if (o->min_bytes > o->max_bytes)
        return sn_error_set(
            err, SN_EINPUT, "minimum size %llu is above the maximum %llu",
            (unsigned long long)o->min_bytes, (unsigned long long)o->max_bytes);
    if (o->step_factor <= 1 && o->min_bytes < o->max_bytes)
        return sn_error_set(err, SN_EINPUT,
                            "step factor must be above 1, not %g",
                            o->step_factor);
    if (o->gemm_size < 1 || o->gemm_size > 65536)
        return sn_error_set(err, SN_EINPUT,
                            "GEMM size must be 1 to 65536, not %d",
                            o->gemm_size);
    if (o->mem_bytes < 1024 || o->pair_bytes < 1)
        return sn_error_set(err, SN_EINPUT,
                            "memory arrays need at least 1 KiB and pair "
                            "messages 1 byte");
    if (o->root < 0 || o->root >= c->job->size)
        return sn_error_set(err, SN_EINPUT,
                            "root %d is not a rank of this job (0 to %d)",
                            o->root, c->job->size - 1);
    if (o->threads < 0 || o->threads > 4096)
        return sn_error_set(err, SN_EINPUT, "threads must be 1 to 4096, not %d",
                            o->threads);
    if (o->timeout < 0)
        return sn_error_set(err, SN_EINPUT, "timeout must not be negative");
    /* a fault for a rank the job does not have would never fire, and the
     * run would pass for one that proved the fault path */
    if (o->inject.fault != SN_FAULT_NONE &&
        (o->inject.rank < 0 || o->inject.rank >= c->job->size))
        return sn_error_set(err, SN_EINPUT,
                            "--inject: rank %d is not a rank of this job (0 "
                            "to %d)",
                            o->inject.rank, c->job->size - 1);
    coll_ok = in->backend == SN_BENCH_CPU ? CPU_COLL_DTYPES : CUDA_COLL_DTYPES;
    if (!(coll_ok & DT(o->coll_dtype)))
        return sn_error_set(err, SN_EINPUT,
                            "the %s backend's collectives do not take %s",
                            be->name, sn_bench_dtype_name(o->coll_dtype));
    return coll_sweep_check(o, c->job->size, err);
}

/* ---- what the buffers need -------------------------------------------------
 */

#define GIB(x) ((double)(x) / (double)(1ULL << 30))

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* The most bytes this rank's buffers hold at once, by what holds them:
 * GEMM operands (three n x n matrices of the widest type asked for),
 * STREAM arrays (three), and the send and receive buffers of the pair,
 * collective, latency and host-copy tests (each sized for the largest
 * message). Buffers stay allocated from test to test, so they add up. */
struct budget {
    uint64_t gemm, stream, msgs, host_copy, total;
};

static void budget_of(const struct sn__bench_ctx *c, struct budget *b)
{
    const struct sn_bench_opts *o = &c->o;
    const enum sn_bench_dtype *dts =
        o->ngemm_dtypes ? o->gemm_dtypes : c->be->gemm_dtypes;
    size_t ndt = o->ngemm_dtypes ? o->ngemm_dtypes : c->be->ngemm_dtypes;
    uint64_t es = 0, n = (uint64_t)o->gemm_size, msg = 0;

    memset(b, 0, sizeof(*b));
    if (wants(o, SN_BENCH_COMPUTE)) {
        for (size_t i = 0; i < ndt; i++)
            if (sn_bench_dtype_size(dts[i]) > es)
                es = sn_bench_dtype_size(dts[i]);
        b->gemm = mul_sat(3 * es, mul_sat(n, n));
    }
    if (wants(o, SN_BENCH_MEMORY))
        b->stream = mul_sat(3, o->mem_bytes / 8 * 8);
    if (wants(o, SN_BENCH_PAIRS) || wants(o, SN_BENCH_AGGREGATE))
        msg = o->pair_bytes;
    if (wants(o, SN_BENCH_COLL) && o->max_bytes > msg)
        msg = o->max_bytes;
    if (wants(o, SN_BENCH_LATENCY) && o->lat_bytes > msg)
        msg = o->lat_bytes;
    if (c->be->hostcopy && (wants(o, SN_BENCH_H2D) || wants(o, SN_BENCH_D2H))) {
        b->host_copy = o->host_bytes;
        if (o->host_bytes > msg)
            msg = o->host_bytes;
    }
    b->msgs = mul_sat(2, msg);
    b->total = add_sat(add_sat(b->gemm, b->stream), b->msgs);
}

/* What needs the memory: "STREAM arrays 3 x 100 GiB, ...". */
static void budget_parts(const struct sn__bench_ctx *c, const struct budget *b,
                         char *buf, size_t size)
{
    struct sn_buf t;

    sn_buf_init(&t);
    if (b->gemm)
        sn_buf_printf(&t, "GEMM operands 3 x %.3g GiB", GIB(b->gemm / 3));
    if (b->stream)
        sn_buf_printf(&t, "%sSTREAM arrays 3 x %.3g GiB (--mem-size)",
                      t.len ? ", " : "", GIB(b->stream / 3));
    if (b->msgs)
        sn_buf_printf(&t, "%smessage buffers 2 x %.3g GiB", t.len ? ", " : "",
                      GIB(b->msgs / 2));
    if (b->gemm)
        sn_buf_printf(&t, "; --gemm-size %d", c->o.gemm_size);
    sn_strlcpy(buf, t.len ? t.data : "none", size);
    sn_buf_release(&t);
}

/* Sizes are capped before anything is allocated: against this rank's
 * share of the host's physical memory (and the process's address-space
 * limit) for the buffers that live on the host, against the device's
 * memory for those that live on it. Called on every rank after the
 * device is open; the ranks agree on the first refusal. */
static int budget_check(struct sn__bench_ctx *c, struct sn_error *err)
{
    const struct sn_bench_opts *o = &c->o;
    uint64_t host = sn__bench_host_memory(), limit = sn__bench_address_limit();
    uint64_t share, dev = 0, on_host;
    int ranks = c->job->local_size > 0 ? c->job->local_size : 1;
    struct budget b;
    char parts[256];
    const char *lower = "lower --gemm-size, --mem-size, --size, -e or "
                        "--host-size";

    budget_of(c, &b);
    budget_parts(c, &b, parts, sizeof(parts));
    if (c->be->max_message) {
        uint64_t msg = b.msgs / 2;
        if (msg > c->be->max_message)
            return sn_error_set(err, SN_EINPUT,
                                "bench: %llu-byte messages are beyond what "
                                "one MPI call moves on the %s backend "
                                "(%llu bytes); lower --size or -e",
                                (unsigned long long)msg, c->be->name,
                                (unsigned long long)c->be->max_message);
    }
    share = host ? host / (uint64_t)ranks : UINT64_MAX;
    if (c->be->device_memory) {
        dev = c->be->device_memory(c);
        /* on the device: every buffer but the host side of the copies */
        if (dev && b.total > dev)
            return sn_error_set(err, SN_EINPUT,
                                "bench: the buffers need %.3g GiB on the "
                                "device (%s), more than its %.3g GiB "
                                "memory; %s",
                                GIB(b.total), parts, GIB(dev), lower);
        /* on the host: the copies' host buffer and the collectives' data
         * check */
        on_host =
            add_sat(b.host_copy, wants(o, SN_BENCH_COLL) ? o->max_bytes : 0);
    } else {
        on_host = b.total;
    }
    if (on_host > share)
        return sn_error_set(err, SN_EINPUT,
                            "bench: the buffers need %.3g GiB per rank (%s), "
                            "more than this rank's share of the host's "
                            "memory: %.3g GiB (%.3g GiB over %d rank%s); %s",
                            GIB(on_host), parts, GIB(share), GIB(host), ranks,
                            ranks == 1 ? "" : "s", lower);
    if (on_host > limit)
        return sn_error_set(err, SN_EINPUT,
                            "bench: the buffers need %.3g GiB per rank (%s), "
                            "more than this process may map (ulimit -v: "
                            "%.3g GiB); %s",
                            GIB(on_host), parts, GIB(limit), lower);
    return SN_OK;
}

/* ---- timed sections --------------------------------------------------------
 */

static int combine(struct sn__bench_ctx *c, const struct sn__bench_measure *m,
                   double *t, int n, struct sn_error *err)
{
    MPI_Comm comm = c->job->comm;
    double *other;
    int rc = SN_OK;

    switch (m->how) {
    case C_NONE:
        break;
    case C_FROM:
        if (m->source)
            rc = SN_MPI(MPI_Send(t, n, MPI_DOUBLE, m->peer, 11, comm), err);
        else
            rc = SN_MPI(MPI_Recv(t, n, MPI_DOUBLE, m->peer, 11, comm,
                                 MPI_STATUS_IGNORE),
                        err);
        break;
    case C_MAX_PEER:
        other = sn_xmalloc((size_t)n * sizeof(*other));
        rc = SN_MPI(MPI_Sendrecv(t, n, MPI_DOUBLE, m->peer, 12, other, n,
                                 MPI_DOUBLE, m->peer, 12, comm,
                                 MPI_STATUS_IGNORE),
                    err);
        for (int i = 0; !rc && i < n; i++)
            t[i] = fmax(t[i], other[i]);
        free(other);
        break;
    case C_MAX_ALL:
        rc = SN_MPI(
            MPI_Allreduce(MPI_IN_PLACE, t, n, MPI_DOUBLE, MPI_MAX, comm), err);
        break;
    }
    return rc;
}

/* Warm up, then take batches of samples until there are `iters` of them,
 * or with --until-ci until the median's CI is tight enough or the cap is
 * reached. Every rank in a combined section sees the same samples, so all
 * of them stop after the same batch. */
static int measure(struct sn__bench_ctx *c, const struct sn__bench_measure *m,
                   struct sn_bench_result *r, struct sn_error *err)
{
    int cap = c->o.until_ci > 0 && c->o.max_iters > m->iters ? c->o.max_iters
                                                             : m->iters;
    int n = 0, batch = m->iters, rc;
    double *t =
        sn_xmalloc((size_t)(cap > m->warmup ? cap : m->warmup) * sizeof(*t));
    bool met = false;

    if (m->warmup > 0 && (rc = m->fn(c, m->arg, m->warmup, t, err)))
        goto out;
    for (;;) {
        if ((rc = m->fn(c, m->arg, batch, t + n, err)) ||
            (rc = combine(c, m, t + n, batch, err)))
            goto out;
        n += batch;
        if (c->o.until_ci <= 0)
            break;
        {
            struct sn_bench_result tmp;
            sn__bench_result_init(&tmp);
            sn__bench_result_samples(&tmp, t, (size_t)n, m->work, "", "");
            met = sn_stats_ci_rel(&tmp.stats) <= c->o.until_ci;
            sn__bench_result_release(&tmp);
        }
        if (met || n >= cap)
            break;
        batch = m->iters < cap - n ? m->iters : cap - n;
    }
    if (r) {
        char metric[sizeof(r->metric)], unit[sizeof(r->unit)];
        sn_strlcpy(metric, r->metric, sizeof(metric));
        sn_strlcpy(unit, r->unit, sizeof(unit));
        sn__bench_result_samples(r, t, (size_t)n, m->work, metric, unit);
        r->ci_met = c->o.until_ci > 0 ? met : -1;
    }
out:
    free(t);
    return rc;
}

/* A section everyone enters together: label it, tell the user (rank 0),
 * and synchronise. */
int sn__bench_section(struct sn__bench_ctx *c, struct sn_error *err,
                      const char *fmt, ...)
{
    char label[80];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(label, sizeof(label), fmt, ap);
    va_end(ap);
    sn__bench_where(c, "%s", label);
    if (c->job->rank == 0 && c->o.progress)
        c->o.progress(c->o.cb_ctx, label);
    return sn__bench_sync(c, err);
}

void sn__bench_note(struct sn__bench_ctx *c, const char *fmt, ...)
{
    struct sn_buf b;
    va_list ap;

    if (c->job->rank != 0)
        return;
    sn_buf_init(&b);
    va_start(ap, fmt);
    sn_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&c->lock);
    sn__bench_results_note(c->res, "%s", b.data);
    pthread_mutex_unlock(&c->lock);
    sn_buf_release(&b);
}

struct sn_bench_result *sn__bench_result_new(struct sn__bench_ctx *c,
                                             enum sn_bench_test test,
                                             const char *op, const char *metric,
                                             const char *unit)
{
    struct sn_bench_result *r = sn__bench_local_add(c);

    r->test = test;
    sn_strlcpy(r->op, op, sizeof(r->op));
    sn_strlcpy(r->metric, metric, sizeof(r->metric));
    sn_strlcpy(r->unit, unit, sizeof(r->unit));
    r->subject = SN_SUBJECT_DEVICE;
    r->nranks = 1;
    return r;
}

void sn__bench_pair_subject(struct sn__bench_ctx *c, struct sn_bench_result *r,
                            int peer, int round, bool concurrent)
{
    r->subject = SN_SUBJECT_PAIR;
    r->peer = peer;
    r->nranks = 2;
    r->round = round;
    r->concurrent = concurrent;
    if (c->res->ranks && peer < c->res->nranks)
        sn_strlcpy(r->peer_host, c->res->ranks[peer].host,
                   sizeof(r->peer_host));
}

/* Measure around the backend's state, so each result carries it. */
int sn__bench_measured(struct sn__bench_ctx *c,
                       const struct sn__bench_measure *m,
                       struct sn_bench_result *r, struct sn_error *err)
{
    int rc;

    if (r)
        c->be->state(c, &r->before);
    rc = measure(c, m, r, err);
    if (r)
        c->be->state(c, &r->after);
    return rc;
}

/* ---- expected values (--spec) ---------------------------------------------
 */

/* The design's topology, on rank 0, once: NULL (with a note) when the
 * spec cannot give one or has fewer accelerators than the job has ranks;
 * the catalog's values need none. */
static const struct sn_topo *design_topo(struct sn__bench_ctx *c)
{
    struct sn_error err;

    if (c->topo_tried)
        return c->topo;
    c->topo_tried = true;
    if ((int)sn_spec_total_accels(c->o.spec) < c->job->size) {
        sn__bench_note(c,
                       "--spec: %d accelerators in the design, %d ranks in the "
                       "job: no pair or collective expectations",
                       sn_spec_total_accels(c->o.spec), c->job->size);
        return NULL;
    }
    if (sn_topo_build(c->o.spec, &c->topo, &err)) {
        sn__bench_note(c, "--spec: no pair or collective expectations: %s",
                       err.msg);
        sn_topo_free(c->topo);
        c->topo = NULL;
    }
    return c->topo;
}

/* Rank 0, after a test's results [from, res->n) are in: what the design
 * expects of each (sn_bench_expect); the topology only for what the
 * catalog cannot answer. */
static void expect_all(struct sn__bench_ctx *c, size_t from)
{
    struct sn_bench_results *res = c->res;
    const struct sn_topo *t = NULL;
    struct sn_error err;

    assert(from <= res->n);
    for (size_t i = from; i < res->n && !t; i++)
        if (res->items[i].test != SN_BENCH_COMPUTE &&
            res->items[i].test != SN_BENCH_MEMORY &&
            res->items[i].test != SN_BENCH_H2D &&
            res->items[i].test != SN_BENCH_D2H && !(t = design_topo(c)))
            break;
    if (sn_bench_expect(c->o.spec, t, c->o.backend, c->o.placement,
                        c->job->size, res->items + from, res->n - from, &err))
        sn__bench_note(c, "--spec: no expectations for %s: %s", c->test,
                       err.msg);
}

/* ---- collectives
 * -------------------------------------------------------------- */

struct coll_arg {
    enum sn_coll_op op;
    uint64_t count;
    bool inplace;
};

static int coll_loop(struct sn__bench_ctx *c, void *p, int iters, double *t,
                     struct sn_error *err)
{
    struct coll_arg *a = p;

    return c->be->coll(c, a->op, c->o.coll_dtype, c->o.redop, c->o.root,
                       a->count, a->inplace, iters, t, err);
}

static bool fault_here(struct sn__bench_ctx *c, enum sn_bench_fault f,
                       enum sn_bench_test t)
{
    const struct sn_bench_inject *in = &c->o.inject;

    return in->fault == f && in->rank == c->job->rank &&
           (in->test < 0 || in->test == (int)t);
}

/* A checked result is exact only while the largest reduced value stays an
 * integer the type holds exactly (pattern.h). */
static bool checkable(enum sn_bench_dtype dt, int n)
{
    double top = (double)SN_PATTERN_MAX * n;

    switch (dt) {
    case SN_DT_BF16:
        return top <= 256;
    case SN_DT_FP16:
        return top <= 2048;
    case SN_DT_FP32:
        return top <= 16777216.0;
    default:
        return true;
    }
}

static int coll_one(struct sn__bench_ctx *c, enum sn_coll_op op, uint64_t count,
                    bool inplace, struct sn_error *err)
{
    size_t es = sn_bench_dtype_size(c->o.coll_dtype);
    int n = c->job->size, rc;
    struct coll_arg a = {op, count, inplace};
    struct sn__bench_measure m = {coll_loop, &a, C_MAX_ALL,   -1,
                                  false,     0,  c->o.warmup, c->o.iters};
    struct sn_bench_result *r = NULL;
    long long wrong = 0, total = 0;
    int checked = c->o.check && checkable(c->o.coll_dtype, n);

    if ((rc =
             sn__bench_section(c, err, "coll %s %llu B %s", sn_coll_op_name(op),
                               (unsigned long long)(count * es),
                               inplace ? "in-place" : "out-of-place")))
        return rc;
    if (c->job->rank == 0) {
        r = sn__bench_result_new(c, SN_BENCH_COLL, sn_coll_op_name(op), "time",
                                 "s");
        r->subject = SN_SUBJECT_GROUP;
        r->nranks = n;
        r->bytes = count * es;
        r->count = count;
        sn_strlcpy(r->dtype, sn_bench_dtype_name(c->o.coll_dtype),
                   sizeof(r->dtype));
        if (sn_coll_op_info(op)->reduces)
            sn_strlcpy(r->redop, sn_bench_redop_name(c->o.redop),
                       sizeof(r->redop));
        if (sn_coll_op_info(op)->rooted)
            r->root = c->o.root;
        r->inplace = inplace;
    }
    if ((rc = sn__bench_measured(c, &m, r, err)))
        return rc;
    if (checked) {
        if ((rc = c->be->coll_check(
                 c, op, c->o.coll_dtype, c->o.redop, c->o.root, count, inplace,
                 fault_here(c, SN_FAULT_CORRUPT, SN_BENCH_COLL), &wrong, err)))
            return rc;
        if ((rc = SN_MPI(MPI_Allreduce(&wrong, &total, 1, MPI_LONG_LONG,
                                       MPI_SUM, c->job->comm),
                         err)))
            return rc;
    }
    if (r) {
        /* nccl-tests: algbw = size / time, busbw = algbw x bus factor */
        r->algbw = sn_coll_algbw((double)r->bytes, r->time);
        r->busbw = sn_coll_busbw(op, (uint32_t)n, (double)r->bytes, r->time);
        r->wrong = checked ? total : -1;
    }
    return SN_OK;
}

static int test_coll(struct sn__bench_ctx *c, struct sn_error *err)
{
    size_t es = sn_bench_dtype_size(c->o.coll_dtype);
    int n = c->job->size, rc = SN_OK;

    if (c->o.check && !checkable(c->o.coll_dtype, n))
        sn__bench_note(c,
                       "coll: %s sums over %d ranks are not exact; data not "
                       "checked",
                       sn_bench_dtype_name(c->o.coll_dtype), n);
    if ((rc = c->be->reserve(c, c->o.max_bytes, err)))
        return rc;
    for (int op = 0; op < SN_COLL_OP_COUNT && !rc; op++) {
        uint64_t skipped = 0, first = 0, last = 0;
        if (c->o.coll_ops && !(c->o.coll_ops & (1u << op)))
            continue;
        for (uint64_t size = c->o.min_bytes;
             size && size <= c->o.max_bytes && !rc;
             size = coll_next(&c->o, size)) {
            /* nccl-tests: gathered, scattered and exchanged buffers are
             * whole multiples of the ranks' parts */
            uint64_t count = coll_count((enum sn_coll_op)op, size, es, n);
            if (!count) {
                if (!skipped++)
                    first = size;
                last = size;
                continue;
            }
            for (int ip = 0; ip < 2 && !rc; ip++)
                if (!c->be->coll_variant_ok ||
                    c->be->coll_variant_ok((enum sn_coll_op)op, ip == 1))
                    rc = coll_one(c, (enum sn_coll_op)op, count, ip == 1, err);
        }
        /* what the sweep left out, and why: never silently */
        if (skipped) {
            bool parts = n > 1 && sn_coll_op_info((enum sn_coll_op)op)->parted;
            char sizes[96];
            if (skipped == 1)
                snprintf(sizes, sizeof(sizes), "%llu B",
                         (unsigned long long)first);
            else
                snprintf(sizes, sizeof(sizes),
                         "%llu sizes from %llu to "
                         "%llu B",
                         (unsigned long long)skipped, (unsigned long long)first,
                         (unsigned long long)last);
            sn__bench_note(c,
                           "coll %s: %s skipped: under one %zu-byte %s element "
                           "per %s",
                           sn_coll_op_name((enum sn_coll_op)op), sizes, es,
                           sn_bench_dtype_name(c->o.coll_dtype),
                           parts ? "rank" : "buffer");
        }
    }
    return rc;
}

static int test_latency(struct sn__bench_ctx *c, struct sn_error *err)
{
    int n = c->job->size, me = c->job->rank, rc = SN_OK;
    int *partner = sn_xcalloc((size_t)n, sizeof(*partner));
    int it = c->o.latency_iters;
    int wu = c->o.warmup > it / 100 ? c->o.warmup : it / 100;
    size_t es = sn_bench_dtype_size(SN_DT_FP32);
    struct coll_arg ca = {SN_COLL_ALLREDUCE, 0, false};
    struct sn__bench_measure m;
    struct sn_bench_result *r = NULL;
    enum sn_bench_dtype saved = c->o.coll_dtype;

    if (n < 2)
        sn__bench_note(c,
                       "latency: pair latencies need two ranks or more (mpirun "
                       "-np N)");
    for (int round = 0; round < sn_bench_rounds(n) && !rc; round++) {
        sn_bench_tournament(n, round, partner);
        for (int ph = PH_LAT_LO; ph <= PH_LAT_HI && !rc; ph++) {
            if ((rc = sn__bench_section(c, err, "latency round %d/%d %s",
                                        round + 1, sn_bench_rounds(n),
                                        ph == PH_LAT_LO ? "low->high"
                                                        : "high->low")))
                break;
            rc = sn__bench_pair_phase(c, SN_BENCH_LATENCY,
                                      (enum sn__bench_phase)ph, partner[me],
                                      round, true, it, err);
        }
    }
    if (rc)
        goto out;
    /* the small all-reduce every training step waits on */
    ca.count = c->o.lat_bytes / es ? c->o.lat_bytes / es : 1;
    if ((rc = c->be->reserve(c, ca.count * es, err)) ||
        (rc = sn__bench_section(c, err, "latency allreduce %llu B",
                                (unsigned long long)(ca.count * es))))
        goto out;
    memset(&m, 0, sizeof(m));
    m.fn = coll_loop;
    m.arg = &ca;
    m.how = C_MAX_ALL;
    m.warmup = wu;
    m.iters = it;
    if (me == 0) {
        r = sn__bench_result_new(c, SN_BENCH_LATENCY, "allreduce", "latency",
                                 "s");
        r->subject = SN_SUBJECT_GROUP;
        r->nranks = n;
        r->bytes = ca.count * es;
        r->count = ca.count;
        sn_strlcpy(r->dtype, "fp32", sizeof(r->dtype));
        sn_strlcpy(r->redop, "sum", sizeof(r->redop));
        r->inplace = 0;
    }
    c->o.coll_dtype = SN_DT_FP32;
    c->o.redop = SN_REDOP_SUM;
    rc = sn__bench_measured(c, &m, r, err);
    c->o.coll_dtype = saved;
out:
    free(partner);
    return rc;
}

/* ---- the run
 * ------------------------------------------------------------------- */

/* Every rank learns whether any rank failed; the lowest failing rank's
 * message becomes everyone's. */
static int agree(struct sn__bench_ctx *c, int rc, struct sn_error *err)
{
    int mine = rc ? c->job->rank : c->job->size, first = 0;
    char msg[SN_ERROR_MSG_MAX];
    int code = rc;

    if (MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, c->job->comm) !=
        MPI_SUCCESS)
        return sn_error_set(err, SN_ERUNTIME, "bench: MPI_Allreduce failed");
    if (first == c->job->size)
        return SN_OK;
    if (c->job->rank == first)
        snprintf(msg, sizeof(msg), "%s", err->msg);
    MPI_Bcast(msg, (int)sizeof(msg), MPI_CHAR, first, c->job->comm);
    MPI_Bcast(&code, 1, MPI_INT, first, c->job->comm);
    msg[sizeof(msg) - 1] = '\0';
    if (first == 0 || c->job->rank == first)
        return sn_error_set(err, code, "%s", msg);
    return sn_error_set(err, code, "rank %d: %s", first, msg);
}

static int rank_table(struct sn__bench_ctx *c, struct sn_bench_results *res,
                      struct sn_error *err)
{
    struct sn_bench_rank me;
    struct sn_bench_job *job = c->job;

    memset(&me, 0, sizeof(me));
    me.rank = job->rank;
    me.local_rank = job->local_rank;
    sn_strlcpy(me.host, job->host, sizeof(me.host));
    sn_strlcpy(me.device, c->device, sizeof(me.device));
    sn__bench_clocks_held(c, &me.locked_sm_mhz, &me.locked_mem_mhz);
    res->nranks = job->size;
    res->ranks = sn_xcalloc((size_t)job->size, sizeof(*res->ranks));
    /* everyone gets the table: pair results name the peer's host */
    return SN_MPI(MPI_Allgather(&me, (int)sizeof(me), MPI_BYTE, res->ranks,
                                (int)sizeof(me), MPI_BYTE, job->comm),
                  err);
}

static void versions_base(struct sn_bench_versions *v)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;

    memset(v, 0, sizeof(*v));
    sn_strlcpy(v->tool, SN_VERSION, sizeof(v->tool));
    if (MPI_Get_library_version(lib, &len) == MPI_SUCCESS) {
        lib[len < (int)sizeof(lib) ? len : (int)sizeof(lib) - 1] = '\0';
        lib[strcspn(lib, "\n,")] = '\0'; /* the first clause is enough */
        sn_strlcpy(v->mpi, lib, sizeof(v->mpi));
    }
    sn__bench_kernel_version(v->kernel, sizeof(v->kernel));
}

/* every version string is what a library or the kernel said */
static void versions_clean(struct sn_bench_versions *v)
{
    sn_str_clean_in(v->mpi, sizeof(v->mpi), 0);
    sn_str_clean_in(v->blas, sizeof(v->blas), 0);
    sn_str_clean_in(v->cuda_runtime, sizeof(v->cuda_runtime), 0);
    sn_str_clean_in(v->cuda_driver, sizeof(v->cuda_driver), 0);
    sn_str_clean_in(v->driver, sizeof(v->driver), 0);
    sn_str_clean_in(v->nccl, sizeof(v->nccl), 0);
    sn_str_clean_in(v->kernel, sizeof(v->kernel), 0);
}

static void versions(struct sn__bench_ctx *c, struct sn_bench_versions *v)
{
    versions_base(v);
    c->be->versions(c, v);
    versions_clean(v);
}

int sn_bench_backend_versions(enum sn_bench_backend b,
                              struct sn_bench_versions *v, struct sn_error *err)
{
    const struct sn__bench_backend *be = sn__bench_backend_for(b);
    struct sn__bench_ctx c;

    versions_base(v);
    if (!be)
        return sn_error_set(err, SN_ENOTSUP, "%s", sn_bench_backend_why(b));
    /* the backends' version readers use no state of a job */
    memset(&c, 0, sizeof(c));
    c.be = be;
    be->versions(&c, v);
    versions_clean(v);
    return SN_OK;
}

/* Say when results sit near the clock's limits: a median under 100
 * steps of the measured granularity is a figure the timer blurs. */
static void timer_note(struct sn__bench_ctx *c, struct sn_bench_results *res)
{
    size_t near = 0;
    const struct sn_bench_result *first = NULL;
    double step = res->timer.granularity;

    if (c->job->rank != 0 || !(step > 0) || !isfinite(step))
        return;
    for (size_t i = 0; i < res->n; i++) {
        if (res->items[i].time < 100 * step) {
            if (!first)
                first = &res->items[i];
            near++;
        }
    }
    if (near)
        sn__bench_note(
            c,
            "%zu result%s a median time under 100 steps of the clock "
            "(%s, %.0f ns steps), the first %s %s: read %s as coarse",
            near, near == 1 ? " has" : "s have", res->timer.name, step * 1e9,
            sn_bench_test_name(first->test), first->op,
            near == 1 ? "it" : "them");
}

typedef int (*test_fn)(struct sn__bench_ctx *c, struct sn_error *err);

static const test_fn tests[SN_BENCH_TEST_COUNT] = {
    [SN_BENCH_COMPUTE] = sn__bench_test_compute,
    [SN_BENCH_MEMORY] = sn__bench_test_memory,
    [SN_BENCH_H2D] = sn__bench_test_h2d,
    [SN_BENCH_D2H] = sn__bench_test_d2h,
    [SN_BENCH_PAIRS] = sn__bench_test_pairs,
    [SN_BENCH_AGGREGATE] = sn__bench_test_aggregate,
    [SN_BENCH_COLL] = test_coll,
    [SN_BENCH_LATENCY] = test_latency,
};

int sn_bench_run(struct sn_bench_job *job, const struct sn_bench_opts *opts,
                 struct sn_bench_results *res, struct sn_error *err)
{
    struct sn__bench_ctx *c = sn_xcalloc(1, sizeof(*c));
    int rc;
    double t0 = sn_now();

    sn_bench_results_init(res);
    pthread_mutex_init(&c->lock, NULL);
    pthread_mutex_init(&c->where_lock, NULL);
    pthread_mutex_init(&c->hold_lock, NULL);
    c->job = job;
    c->res = res;
    c->t0 = t0;
    c->sigpipe[0] = c->sigpipe[1] = -1;
    if ((rc = resolve(c, opts, err)))
        goto out;
    sn_strlcpy(res->backend, c->be->name, sizeof(res->backend));
    res->sampling.warmup = c->o.warmup;
    res->sampling.iters = c->o.iters;
    res->sampling.latency_iters = c->o.latency_iters;
    res->sampling.until_ci = c->o.until_ci;
    res->sampling.max_iters = c->o.max_iters;
    res->sampling.timeout = c->o.timeout;
    res->sampling.check = c->o.check;
    res->sampling.isolated = c->o.isolated;
    res->mpi_thread_level = job->thread_level;
    res->started = (double)time(NULL);
    rc = c->be->open(c, err);
    /* the device's name is the machine's words (cpuinfo, the driver),
     * cut to fit: cleaned once for every result that quotes it */
    sn_str_clean_in(c->device, sizeof(c->device), 0);
    if (!rc)
        rc = budget_check(c, err);
    if ((rc = agree(c, rc, err)))
        goto close;
    if (c->be->connect) {
        rc = c->be->connect(c, err);
        if ((rc = agree(c, rc, err)))
            goto close;
    }
    if ((rc = sn__bench_watch_start(c, err)))
        goto close;
    /* every rank holds its GPU, or none goes on; after the watchdog
     * started, so that a signal from the first change on restores (what
     * was locked is put back at close) */
    rc = sn__bench_clocks_lock(c, err);
    if ((rc = agree(c, rc, err)) || (rc = rank_table(c, res, err)))
        goto done;
    versions(c, &res->versions);
    sn__bench_timer_probe(&res->timer);
    if (c->be->timer)
        c->be->timer(c, &res->timer);
    if (c->o.power) {
        rc = sn__bench_power_run(c, err);
        goto done;
    }
    for (size_t i = 0; i < c->o.ntests && !rc; i++) {
        enum sn_bench_test t = c->o.tests[i];
        bool stop;
        sn_strlcpy(c->test, sn_bench_test_name(t), sizeof(c->test));
        if ((rc = sn__bench_section(c, err, "%s", c->test)))
            sn__bench_fail(c, err);
        atomic_store(&c->test_start, sn_now());
        stop =
            fault_here(c, SN_FAULT_HANG, t) || fault_here(c, SN_FAULT_DIE, t);
        c->hang_in_loop = stop && c->o.inject.in_loop;
        if (stop && !c->o.inject.in_loop)
            sn__bench_hang(c);
        size_t before = res->n;
        rc = tests[t](c, err);
        c->hang_in_loop = false;
        if (!rc)
            rc = sn__bench_gather(c, err);
        if (rc)
            sn__bench_fail(c, err); /* the others may wait for us: end */
        if (job->rank == 0 && c->o.spec) {
            pthread_mutex_lock(&c->lock);
            expect_all(c, before);
            pthread_mutex_unlock(&c->lock);
        }
    }
done:
    atomic_store(&c->test_start, 0.0);
    sn__bench_watch_stop(c);
    if (!rc)
        timer_note(c, res);
close:
    if (sn__bench_clocks_restore(c, rc ? NULL : err) && !rc)
        rc = SN_ERUNTIME;
    c->be->close(c);
out:
    for (size_t i = 0; i < c->nlocal; i++)
        sn__bench_result_release(&c->local[i]);
    free(c->local);
    res->elapsed = sn_now() - t0;
    if (job->rank != 0) {
        /* the results live on rank 0; the others keep the job's facts */
        for (size_t i = 0; i < res->n; i++)
            sn__bench_result_release(&res->items[i]);
        res->n = 0;
    }
    sn_topo_free(c->topo);
    sn__bench_nvml_close(c);
    free(c->hold);
    pthread_mutex_destroy(&c->hold_lock);
    pthread_mutex_destroy(&c->where_lock);
    pthread_mutex_destroy(&c->lock);
    free(c);
    return rc;
}
