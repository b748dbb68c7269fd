/* expect.c: what the design says each stored result should be: the
 * results' words (test, unit, subject, round) as the measurements
 * sn_expect_design() (net/expect.c) answers for, bench --spec alike. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag-int.h"
#include "sn/expect.h"

/* The concurrency group of a pair result: pairs of one round run at
 * once, in bench's phases (uni low to high, uni high to low, bidir both
 * ways). A pair measured alone (no round; an aggregate's pair alone,
 * which runs from older versions stored with its round) is its own
 * group. */
static uint32_t pair_group(const struct sn_result *r)
{
    uint32_t phase;

    if (r->round == SN_STORE_NO_RANK || !strcmp(r->test, "aggregate.isolated"))
        return SN_EXPECT_ALONE;
    if (sn_startswith(r->test, "pairs.bidir"))
        phase = 2;
    else
        phase = r->a < r->b ? 0 : 1;
    return (r->round * 4 + phase + 1) & 0x7fffffffu;
}

/* A collective's result, "coll.<op>.busbw" of a group of r->b ranks from
 * rank r->a: its operation, or -1. */
static int coll_op(const struct sn_result *r)
{
    const char *op_start = r->test + 5, *op_end;
    char name[32];
    enum sn_coll_op op;
    struct sn_error err;

    if (!sn_startswith(r->test, "coll."))
        return -1;
    op_end = strchr(op_start, '.');
    if (!op_end || strcmp(op_end, ".busbw") ||
        (size_t)(op_end - op_start) >= sizeof(name))
        return -1;
    memcpy(name, op_start, (size_t)(op_end - op_start));
    name[op_end - op_start] = '\0';
    if (sn_coll_op_parse(name, &op, &err))
        return -1;
    return (int)op;
}

/* What was measured, in the words of sn_expect_design(). */
static void ask(const struct sn_topo *t, const struct sn_result *r,
                struct sn_expect *x)
{
    int op;

    memset(x, 0, sizeof(*x));
    x->a = r->a;
    x->b = r->b;
    if (r->subject == SN_SUBJECT_DEVICE && r->a < t->naccel) {
        if (sn_startswith(r->test, "compute.") && !strcmp(r->unit, "FLOP/s")) {
            x->kind = SN_EXPECT_GEMM;
            sn_strlcpy(x->dtype, r->dtype, sizeof(x->dtype));
        } else if (sn_startswith(r->test, "memory.") &&
                   !strcmp(r->unit, "B/s")) {
            x->kind = SN_EXPECT_MEMORY;
        }
    } else if (r->subject == SN_SUBJECT_PAIR && !strcmp(r->unit, "B/s")) {
        x->kind = SN_EXPECT_PAIR;
        x->group = pair_group(r);
    } else if (r->subject == SN_SUBJECT_GROUP && !strcmp(r->unit, "B/s") &&
               (op = coll_op(r)) >= 0) {
        x->kind = SN_EXPECT_COLL_BUSBW;
        x->op = (enum sn_coll_op)op;
        x->bytes = (double)r->bytes;
    }
}

int sn_diag_expect(const struct sn_topo *t, const char *backend,
                   const struct sn_results *rs, double *expected,
                   const char **source, struct sn_error *err)
{
    struct sn_expect *x = sn_xcalloc(rs->n + 1, sizeof(*x));
    bool device = backend && !strcmp(backend, "cuda");
    int rc;

    for (size_t i = 0; i < rs->n; i++)
        ask(t, &rs->items[i], &x[i]);
    rc = sn_expect_design(t->spec, t, device, x, rs->n, err);
    for (size_t i = 0; i < rs->n; i++) {
        expected[i] = rc ? NAN : x[i].value;
        if (source)
            source[i] = rc ? NULL : x[i].source;
    }
    free(x);
    return rc;
}
