/* expect.c: bench's results in the words of sn_expect_design()
 * (net/expect.c), the one owner of what the design expects, which
 * check asks too. */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sn/bench.h"
#include "sn/expect.h"

/* The concurrency group of a pair result measured with the other pairs
 * of its round: one per round and phase (uni low to high, uni high to
 * low, bidir), as runner.c's pair_phase() runs them. */
static uint32_t pair_group(const struct sn_bench_result *r)
{
    uint32_t phase = !strcmp(r->op, "bidir") ? 2 : r->rank < r->peer ? 0 : 1;

    assert(r->round >= 0);
    return (uint32_t)r->round * 4 + phase + 1;
}

/* What r measured; partner has room for an aggregate's round of
 * job_size ranks. */
static void ask(const struct sn_bench_placement *placement, int job_size,
                const struct sn_bench_result *r, int *partner,
                struct sn_expect *x)
{
    struct sn_error err;

    memset(x, 0, sizeof(*x));
    x->a = (uint32_t)r->rank;
    x->b = (uint32_t)r->peer;
    if (r->test == SN_BENCH_COMPUTE) {
        x->kind = SN_EXPECT_GEMM;
        sn_strlcpy(x->dtype, r->dtype, sizeof(x->dtype));
    } else if (r->test == SN_BENCH_MEMORY) {
        x->kind = SN_EXPECT_MEMORY;
    } else if (r->subject == SN_SUBJECT_PAIR && !strcmp(r->unit, "B/s")) {
        /* pairs measured at once share their links; alone (--isolated,
         * an aggregate's pair alone) they do not */
        x->kind = SN_EXPECT_PAIR;
        x->group =
            r->concurrent && r->round >= 0 ? pair_group(r) : SN_EXPECT_ALONE;
        x->colocated = placement && sn_bench_placement_colocated(
                                        placement, r->rank, r->peer);
    } else if (r->test == SN_BENCH_AGGREGATE && r->round >= 0) {
        x->kind = SN_EXPECT_AGGREGATE;
        x->b = (uint32_t)job_size;
        sn_bench_tournament(job_size, r->round, partner);
        x->partner = partner;
    } else if (r->test == SN_BENCH_COLL &&
               sn_coll_op_parse(r->op, &x->op, &err) == SN_OK) {
        x->kind = SN_EXPECT_COLL_TIME;
        x->a = 0;
        x->b = (uint32_t)r->nranks;
        x->bytes = (double)r->bytes;
    } else if (!strcmp(r->unit, "s")) {
        x->kind = SN_EXPECT_LATENCY;
    }
}

int sn_bench_expect(const struct sn_spec *spec, const struct sn_topo *t,
                    enum sn_bench_backend backend,
                    const struct sn_bench_placement *placement, int job_size,
                    struct sn_bench_result *r, size_t n, struct sn_error *err)
{
    struct sn_expect *x = sn_xcalloc(n + 1, sizeof(*x));
    size_t naggr = 0, room = job_size > 0 ? (size_t)job_size : 0;
    int *partners, rc;

    for (size_t i = 0; i < n; i++)
        naggr += r[i].test == SN_BENCH_AGGREGATE;
    /* each aggregate result keeps its round's partners while asked */
    partners = sn_xcalloc(naggr * room + 1, sizeof(int));
    naggr = 0;
    for (size_t i = 0; i < n; i++) {
        int *p = partners + naggr * room;
        naggr += r[i].test == SN_BENCH_AGGREGATE;
        ask(placement, job_size, &r[i], p, &x[i]);
    }
    rc = sn_expect_design(spec, t, backend == SN_BENCH_CUDA, x, n, err);
    for (size_t i = 0; i < n && !rc; i++) {
        if (!(x[i].value > 0))
            continue;
        r[i].expected = x[i].value;
        sn_strlcpy(r[i].expected_src, x[i].source, sizeof(r[i].expected_src));
    }
    free(partners);
    free(x);
    return rc;
}
