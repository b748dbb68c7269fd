/* stored.c: bench results as store results (what `check` stores and
 * judges): the test's name and parameters, the subject's ranks, the
 * round of pairs measured at once, and samples as values in the result's
 * unit, a collective's times as nccl-tests bus bandwidth. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/bench.h"

static void add_param(struct sn_buf *b, const char *key, const char *fmt, ...)
    SN_PRINTF(3, 4);
static void add_param(struct sn_buf *b, const char *key, const char *fmt, ...)
{
    va_list ap;

    if (b->len)
        sn_buf_putc(b, ',');
    sn_buf_printf(b, "%s=", key);
    va_start(ap, fmt);
    sn_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

/* The parameters that say what was measured, as "k=v" in key order. */
static void bench_params(const struct sn_bench_result *r, char *out,
                         size_t size)
{
    struct sn_buf b;

    sn_buf_init(&b);
    if (r->bytes > 0)
        add_param(&b, "bytes", "%llu", (unsigned long long)r->bytes);
    if (r->dtype[0])
        add_param(&b, "dtype", "%s", r->dtype);
    if (r->test == SN_BENCH_COLL && r->inplace >= 0)
        add_param(&b, "inplace", "%d", r->inplace);
    if (r->gemm_k > 0)
        add_param(&b, "k", "%lld", (long long)r->gemm_k);
    if (r->gemm_m > 0)
        add_param(&b, "m", "%lld", (long long)r->gemm_m);
    if (r->gemm_n > 0)
        add_param(&b, "n", "%lld", (long long)r->gemm_n);
    if (r->test == SN_BENCH_H2D || r->test == SN_BENCH_D2H) {
        if (r->numa >= 0)
            add_param(&b, "numa", "%d", r->numa);
        if (r->pinned >= 0)
            add_param(&b, "pinned", "%d", r->pinned);
    }
    if (r->redop[0])
        add_param(&b, "redop", "%s", r->redop);
    if (r->test == SN_BENCH_COLL && r->root >= 0)
        add_param(&b, "root", "%d", r->root);
    sn_strlcpy(out, b.len ? b.data : "", size);
    sn_buf_release(&b);
}

void sn_bench_result_store(const struct sn_bench_result *r, int nranks,
                           struct sn_results *out)
{
    struct sn_result x;
    enum sn_coll_op op;
    bool busbw = false;
    struct sn_error err;

    memset(&x, 0, sizeof(x));
    snprintf(x.test, sizeof(x.test), "%s.%s", sn_bench_test_name(r->test),
             r->op);
    bench_params(r, x.params, sizeof(x.params));
    /* what the design's expectations read, typed */
    x.bytes = r->bytes;
    sn_strlcpy(x.dtype, r->dtype, sizeof(x.dtype));
    sn_strlcpy(x.unit, r->unit, sizeof(x.unit));
    switch (r->subject) {
    case SN_SUBJ_RANK:
        x.subject = SN_SUBJECT_DEVICE;
        x.a = (uint32_t)r->rank;
        x.b = SN_STORE_NO_RANK;
        break;
    case SN_SUBJ_PAIR:
        x.subject = SN_SUBJECT_PAIR;
        x.a = (uint32_t)r->rank;
        x.b = (uint32_t)r->peer;
        break;
    default:
        x.subject = SN_SUBJECT_GROUP;
        x.a = 0;
        x.b = (uint32_t)(r->nranks > 0 ? r->nranks : nranks);
        break;
    }
    /* a round only for pairs measured at once: --isolated pairs and an
     * aggregate's pairs alone shared their links with nobody */
    x.round =
        r->round >= 0 && r->concurrent ? (uint32_t)r->round : SN_STORE_NO_RANK;
    if (r->test == SN_BENCH_COLL && !strcmp(r->unit, "s") && r->bytes > 0 &&
        sn_coll_op_parse(r->op, &op, &err) == SN_OK) {
        busbw = true;
        sn_strlcpy(x.unit, "B/s", sizeof(x.unit));
        snprintf(x.test, sizeof(x.test), "coll.%s.busbw", r->op);
    }
    x.lower_better = !strcmp(x.unit, "s");
    x.samples = sn_xmalloc((r->nsamples ? r->nsamples : 1) * sizeof(double));
    for (size_t i = 0; i < r->nsamples; i++) {
        double t = r->samples[i];
        if (busbw)
            x.samples[x.nsamples++] =
                sn_coll_busbw(op, x.b, (double)r->bytes, t);
        else if (r->work > 0 && strcmp(x.unit, "s"))
            x.samples[x.nsamples++] = t > 0 ? r->work / t : 0;
        else
            x.samples[x.nsamples++] = t;
    }
    sn_stats_compute(x.samples, x.nsamples, &x.stats);
    if (x.nsamples)
        sn_results_add(out, &x);
    free(x.samples);
}
