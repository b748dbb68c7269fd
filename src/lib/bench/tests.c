/* tests.c: the per-device tests (GEMM, STREAM, host copies) and the pair
 * tests (pairs in tournament rounds, the aggregate of a round at once),
 * each a set of timed sections of runner.c (bench-int.h). */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench-int.h"

/* ---- per-device tests ------------------------------------------------------
 */

struct gemm_arg {
    enum sn_bench_dtype dt;
    int size;
};

static int gemm_loop(struct sn__bench_ctx *c, void *p, int iters, double *t,
                     struct sn_error *err)
{
    struct gemm_arg *a = p;

    return c->be->gemm(c, a->dt, a->size, iters, t, err);
}

int sn__bench_test_compute(struct sn__bench_ctx *c, struct sn_error *err)
{
    const enum sn_bench_dtype *dts =
        c->o.ngemm_dtypes ? c->o.gemm_dtypes : c->be->gemm_dtypes;
    size_t ndt = c->o.ngemm_dtypes ? c->o.ngemm_dtypes : c->be->ngemm_dtypes;
    int rc = SN_OK;

    for (size_t i = 0; i < ndt && !rc; i++) {
        const char *why = c->be->gemm_unsupported(c, dts[i]);
        struct gemm_arg a = {dts[i], c->o.gemm_size};
        struct sn__bench_measure m = {gemm_loop, &a, C_NONE,      -1,
                                      false,     0,  c->o.warmup, c->o.iters};
        struct sn_bench_result *r;
        double n = c->o.gemm_size;

        if (why) {
            sn__bench_note(c, "compute %s skipped: %s",
                           sn_bench_dtype_name(dts[i]), why);
            continue;
        }
        if ((rc = sn__bench_section(c, err, "compute gemm %s %d",
                                    sn_bench_dtype_name(dts[i]),
                                    c->o.gemm_size)))
            break;
        r = sn__bench_result_new(c, SN_BENCH_COMPUTE, "gemm", "flops",
                                 "FLOP/s");
        sn_strlcpy(r->dtype, sn_bench_dtype_name(dts[i]), sizeof(r->dtype));
        r->gemm_m = r->gemm_n = r->gemm_k = c->o.gemm_size;
        r->threads = c->threads;
        m.work = 2.0 * n * n * n; /* multiply-adds count as 2 FLOPs */
        rc = sn__bench_measured(c, &m, r, err);
    }
    return rc;
}

struct stream_arg {
    enum sn__stream_kernel k;
    uint64_t bytes;
};

static int stream_loop(struct sn__bench_ctx *c, void *p, int iters, double *t,
                       struct sn_error *err)
{
    struct stream_arg *a = p;

    return c->be->stream(c, a->k, a->bytes, iters, t, err);
}

int sn__bench_test_memory(struct sn__bench_ctx *c, struct sn_error *err)
{
    static const char *const names[SN_K_COUNT] = {"copy", "scale", "add",
                                                  "triad"};
    /* arrays each kernel moves, counted as STREAM does (no write
     * allocate): copy and scale 2, add and triad 3 */
    static const int arrays[SN_K_COUNT] = {2, 2, 3, 3};
    uint64_t bytes = c->o.mem_bytes / 8 * 8;
    int rc = SN_OK;
    double llc =
        c->o.backend == SN_BENCH_CPU ? sn__bench_llc_bytes(c->o.fsroot) : 0;

    /* STREAM's rule: each array at least 4 times the caches, or the
     * figure is partly the cache's */
    if (llc > 0 && (double)bytes < 4 * llc)
        sn__bench_note(c,
                       "memory: arrays of %llu B are under 4 times the "
                       "last-level cache (%.0f B): the figures include cache",
                       (unsigned long long)bytes, llc);

    for (int k = 0; k < SN_K_COUNT && !rc; k++) {
        struct stream_arg a = {(enum sn__stream_kernel)k, bytes};
        struct sn__bench_measure m = {
            stream_loop, &a,        C_NONE,
            -1,          false,     (double)arrays[k] * (double)bytes,
            c->o.warmup, c->o.iters};
        struct sn_bench_result *r;

        if ((rc = sn__bench_section(c, err, "memory %s %llu B", names[k],
                                    (unsigned long long)bytes)))
            break;
        r = sn__bench_result_new(c, SN_BENCH_MEMORY, names[k], "bandwidth",
                                 "B/s");
        r->bytes = bytes;
        r->count = bytes / 8;
        sn_strlcpy(r->dtype, "fp64", sizeof(r->dtype));
        r->threads = c->threads;
        rc = sn__bench_measured(c, &m, r, err);
    }
    return rc;
}

struct host_arg {
    bool h2d, pinned;
    int numa;
    uint64_t bytes;
};

static int host_loop(struct sn__bench_ctx *c, void *p, int iters, double *t,
                     struct sn_error *err)
{
    struct host_arg *a = p;

    return c->be->hostcopy(c, a->h2d, a->pinned, a->numa, a->bytes, iters, t,
                           err);
}

static int test_host(struct sn__bench_ctx *c, bool h2d, struct sn_error *err)
{
    const char *name = h2d ? "h2d" : "d2h";
    int nn, rc = SN_OK;

    if (!c->be->hostcopy) {
        sn__bench_note(c, "%s skipped: the %s backend has no device memory",
                       name, c->be->name);
        return SN_OK;
    }
    nn = c->be->host_numa_nodes(c);
    for (int numa = 0; numa < nn && !rc; numa++) {
        for (int pinned = 1; pinned >= 0 && !rc; pinned--) {
            struct host_arg a = {h2d, pinned != 0, numa, c->o.host_bytes};
            struct sn__bench_measure m = {host_loop,   &a,
                                          C_NONE,      -1,
                                          false,       (double)c->o.host_bytes,
                                          c->o.warmup, c->o.iters};
            struct sn_bench_result *r;

            if ((rc = sn__bench_section(c, err, "%s numa %d %s", name, numa,
                                        pinned ? "pinned" : "pageable")))
                break;
            r = sn__bench_result_new(c, h2d ? SN_BENCH_H2D : SN_BENCH_D2H, name,
                                     "bandwidth", "B/s");
            r->numa = numa;
            r->pinned = pinned;
            r->bytes = c->o.host_bytes;
            rc = sn__bench_measured(c, &m, r, err);
        }
    }
    return rc;
}

/* ---- pair tests ------------------------------------------------------------
 */

struct p2p_arg {
    enum sn__p2p_mode mode;
    int peer;
    uint64_t bytes;
};

static int p2p_loop(struct sn__bench_ctx *c, void *p, int iters, double *t,
                    struct sn_error *err)
{
    struct p2p_arg *a = p;

    return c->be->p2p(c, a->mode, a->peer, a->bytes, iters, t, err);
}

/* One phase of a pair test for this rank, whose partner is peer (-1: this
 * rank sits the phase out). */
int sn__bench_pair_phase(struct sn__bench_ctx *c, enum sn_bench_test test,
                         enum sn__bench_phase ph, int peer, int round,
                         bool concurrent, int lat_iters, struct sn_error *err)
{
    int me = c->job->rank;
    bool lo = peer > me;
    struct p2p_arg a = {SN_P2P_SEND, peer, c->o.pair_bytes};
    struct sn__bench_measure m = {
        p2p_loop,    &a,        C_FROM, peer, false, (double)c->o.pair_bytes,
        c->o.warmup, c->o.iters};
    struct sn_bench_result *r = NULL;
    bool mine;

    if (peer < 0)
        return SN_OK;
    switch (ph) {
    case PH_UNI_LO:
    case PH_UNI_HI:
        mine = (ph == PH_UNI_LO) == lo; /* this side sends */
        a.mode = mine ? SN_P2P_SEND : SN_P2P_RECV;
        m.source = mine;
        if (mine)
            r = sn__bench_result_new(c, test, "uni", "bandwidth", "B/s");
        break;
    case PH_BIDIR:
        a.mode = SN_P2P_BIDIR;
        m.how = C_MAX_PEER;
        r = sn__bench_result_new(c, test, "bidir", "bandwidth", "B/s");
        break;
    case PH_LAT_LO:
    case PH_LAT_HI:
        mine = (ph == PH_LAT_LO) == lo; /* this side starts the ping */
        a.mode = mine ? SN_P2P_PING : SN_P2P_PONG;
        a.bytes = c->o.lat_bytes;
        m.source = mine;
        m.work = 0;
        m.iters = lat_iters;
        m.warmup =
            c->o.warmup > lat_iters / 100 ? c->o.warmup : lat_iters / 100;
        if (mine)
            r = sn__bench_result_new(c, test, "latency", "latency", "s");
        break;
    default:
        return SN_OK;
    }
    if (r) {
        sn__bench_pair_subject(c, r, peer, round, concurrent);
        r->bytes = a.bytes;
    }
    return sn__bench_measured(c, &m, r, err);
}

int sn__bench_test_pairs(struct sn__bench_ctx *c, struct sn_error *err)
{
    int n = c->job->size, me = c->job->rank, rc = SN_OK;
    int *partner = sn_xcalloc((size_t)n, sizeof(*partner));
    static const char *const ph_names[PH_N] = {"uni low->high", "uni high->low",
                                               "bidir", "latency low->high",
                                               "latency high->low"};
    int lat_iters = c->o.latency_iters / 10 > c->o.iters
                        ? c->o.latency_iters / 10
                        : c->o.iters;

    if (n < 2) {
        sn__bench_note(
            c, "pairs skipped: it needs two ranks or more (mpirun -np N)");
        goto out;
    }
    if ((rc = c->be->reserve(c, c->o.pair_bytes, err)))
        goto out;
    for (int round = 0; round < sn_bench_rounds(n) && !rc; round++) {
        sn_bench_tournament(n, round, partner);
        if (!c->o.isolated) {
            for (int ph = 0; ph < PH_N && !rc; ph++) {
                if ((rc = sn__bench_section(c, err, "pairs round %d/%d %s",
                                            round + 1, sn_bench_rounds(n),
                                            ph_names[ph])))
                    break;
                rc = sn__bench_pair_phase(c, SN_BENCH_PAIRS,
                                          (enum sn__bench_phase)ph, partner[me],
                                          round, true, lat_iters, err);
            }
            continue;
        }
        /* isolated: the pairs of the round one after the other */
        for (int a = 0; a < n && !rc; a++) {
            int b = partner[a];
            if (b < a)
                continue;
            for (int ph = 0; ph < PH_N && !rc; ph++) {
                if ((rc = sn__bench_section(c, err, "pairs %d-%d %s", a, b,
                                            ph_names[ph])))
                    break;
                rc = sn__bench_pair_phase(c, SN_BENCH_PAIRS,
                                          (enum sn__bench_phase)ph,
                                          me == a   ? b
                                          : me == b ? a
                                                    : -1,
                                          round, false, lat_iters, err);
            }
        }
    }
out:
    free(partner);
    return rc;
}

struct agg_arg {
    int peer;
    uint64_t bytes;
};

/* All pairs of a round exchange at once; each iteration starts from a
 * barrier so the exchanges overlap, and a rank without a partner only
 * takes part in the barriers. */
static int agg_loop(struct sn__bench_ctx *c, void *p, int iters, double *t,
                    struct sn_error *err)
{
    struct agg_arg *a = p;
    int rc = SN_OK;

    for (int i = 0; i < iters && !rc; i++) {
        if ((rc = SN_MPI(MPI_Barrier(c->job->comm), err)))
            break;
        if (a->peer >= 0)
            rc = c->be->p2p(c, SN_P2P_BIDIR, a->peer, a->bytes, 1, &t[i], err);
        else
            t[i] = 0;
        sn__tick(c, i);
    }
    return rc;
}

int sn__bench_test_aggregate(struct sn__bench_ctx *c, struct sn_error *err)
{
    int n = c->job->size, me = c->job->rank, rc = SN_OK;
    int *partner = sn_xcalloc((size_t)n, sizeof(*partner));
    uint64_t bytes = c->o.pair_bytes;

    if (n < 2) {
        sn__bench_note(c,
                       "aggregate skipped: it needs two ranks or more (mpirun "
                       "-np N)");
        goto out;
    }
    if ((rc = c->be->reserve(c, bytes, err)))
        goto out;
    for (int round = 0; round < sn_bench_rounds(n) && !rc; round++) {
        double iso = 0, iso_sum = 0;
        int npairs = 0;
        struct agg_arg aa;
        struct sn__bench_measure m;
        struct sn_bench_result *r = NULL;

        sn_bench_tournament(n, round, partner);
        /* each pair alone: the reference, timed exactly as the round at
         * once below (a barrier of every rank before each iteration, the
         * slowest rank's time), so that the ratio shows contention and
         * nothing else: back-to-back iterations would add the two sides'
         * skew to every sample and make the pair alone look slower */
        for (int a = 0; a < n && !rc; a++) {
            int b = partner[a];
            struct agg_arg pa = {-1, bytes};
            struct sn__bench_measure pm = {
                agg_loop, &pa,           C_MAX_ALL,   -1,
                false,    (double)bytes, c->o.warmup, c->o.iters};
            struct sn_bench_result *pr = NULL;
            if (b < a)
                continue;
            npairs++;
            if ((rc = sn__bench_section(c, err,
                                        "aggregate round %d/%d: %d-%d alone",
                                        round + 1, sn_bench_rounds(n), a, b)))
                break;
            if (me == a || me == b) {
                pa.peer = me == a ? b : a;
                pr = sn__bench_result_new(c, SN_BENCH_AGGREGATE, "isolated",
                                          "bandwidth", "B/s");
                sn__bench_pair_subject(c, pr, pa.peer, round, false);
                pr->bytes = bytes;
            }
            if ((rc = sn__bench_measured(c, &pm, pr, err)))
                break;
            if (me == a)
                iso = 2.0 * pr->stats.median; /* both directions */
        }
        if (rc || (rc = SN_MPI(MPI_Allreduce(&iso, &iso_sum, 1, MPI_DOUBLE,
                                             MPI_SUM, c->job->comm),
                               err)))
            break;
        /* every pair of the round at once */
        if ((rc = sn__bench_section(c, err,
                                    "aggregate round %d/%d: %d pairs at once",
                                    round + 1, sn_bench_rounds(n), npairs)))
            break;
        aa.peer = partner[me];
        aa.bytes = bytes;
        memset(&m, 0, sizeof(m));
        m.fn = agg_loop;
        m.arg = &aa;
        m.how = C_MAX_ALL;
        m.work = 2.0 * npairs * (double)bytes;
        m.warmup = c->o.warmup;
        m.iters = c->o.iters;
        if (me == 0) {
            r = sn__bench_result_new(c, SN_BENCH_AGGREGATE, "aggregate",
                                     "aggregate", "B/s");
            r->subject = SN_SUBJECT_GROUP;
            r->nranks = 2 * npairs;
            r->round = round;
            r->concurrent = 1;
            r->bytes = bytes;
            r->ref = iso_sum;
        }
        rc = sn__bench_measured(c, &m, r, err);
    }
out:
    free(partner);
    return rc;
}

int sn__bench_test_h2d(struct sn__bench_ctx *c, struct sn_error *err)
{
    return test_host(c, true, err);
}

int sn__bench_test_d2h(struct sn__bench_ctx *c, struct sn_error *err)
{
    return test_host(c, false, err);
}
