/* stored.c: bench results as store results (what `check` stores and
 * judges): the test's name and typed parameters, the subject's ranks, the
 * round of pairs measured at once, and samples as values in the result's
 * unit, a collective's times as nccl-tests bus bandwidth. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/bench.h"

/* The parameters that say what was measured, typed: the store derives
 * the "k=v" list from them. In-place and root are a collective's, NUMA
 * node and pinning a host transfer's. */
static void bench_params(const struct sn_bench_result *r, struct sn_result *x)
{
    x->bytes = r->bytes;
    sn_strlcpy(x->dtype, r->dtype, sizeof(x->dtype));
    sn_strlcpy(x->redop, r->redop, sizeof(x->redop));
    x->gemm_m = r->gemm_m > 0 ? r->gemm_m : 0;
    x->gemm_n = r->gemm_n > 0 ? r->gemm_n : 0;
    x->gemm_k = r->gemm_k > 0 ? r->gemm_k : 0;
    if (r->test == SN_BENCH_COLL && r->inplace >= 0) {
        x->inplace = r->inplace;
        x->has |= SN_PARAM_INPLACE;
    }
    if (r->test == SN_BENCH_COLL && r->root >= 0) {
        x->root = r->root;
        x->has |= SN_PARAM_ROOT;
    }
    if (r->test == SN_BENCH_H2D || r->test == SN_BENCH_D2H) {
        if (r->numa >= 0) {
            x->numa = r->numa;
            x->has |= SN_PARAM_NUMA;
        }
        if (r->pinned >= 0) {
            x->pinned = r->pinned;
            x->has |= SN_PARAM_PINNED;
        }
    }
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
    bench_params(r, &x);
    sn_strlcpy(x.unit, r->unit, sizeof(x.unit));
    x.subject = (uint8_t)r->subject;
    switch (r->subject) {
    case SN_SUBJECT_DEVICE:
        x.a = (uint32_t)r->rank;
        x.b = SN_STORE_NO_RANK;
        break;
    case SN_SUBJECT_PAIR:
        x.a = (uint32_t)r->rank;
        x.b = (uint32_t)r->peer;
        break;
    default:
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
