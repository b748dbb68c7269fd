/* diagnose-fixtures.h: what test-diagnose.c's cases stand on: two small
 * hand-built clusters (four hosts on two leaves; a two-spine fat tree),
 * pair results generated from a per-pair factor, the whole diagnosis of
 * a run on the leaves cluster, and baselines taken from results. Static
 * helpers for that one file (they CHECK into its harness), kept apart so
 * the cases read on their own. */
#ifndef SN_TEST_DIAGNOSE_FIXTURES_H
#define SN_TEST_DIAGNOSE_FIXTURES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sn/diagnose.h"
#include "sn/topo.h"

/* ---- topologies ---------------------------------------------------------- */

/* The test cluster: hosts 0,1 on leaf0, 2,3 on leaf1, one inter-switch
 * link. Each host: accelerator -- NIC (board), NIC -- leaf (AOC). Rates
 * per direction: hosts 12.5 MB/s, the inter-switch link isl_bw. */
struct leaves {
    struct sn_topo *t;
    uint32_t acc[4], nic[4], leaf[2];
    uint32_t host_link[4], board_link[4], isl;
};

static void build_leaves(struct leaves *c, double isl_bw)
{
    struct sn_node n;
    struct sn_error err;

    memset(c, 0, sizeof(*c));
    c->t = sn_topo_new(NULL);
    for (uint32_t i = 0; i < 4; i++) {
        memset(&n, 0, sizeof(n));
        n.kind = SN_NODE_ACCEL;
        n.supernode = i;
        n.rack = i / 2;
        n.unit = (uint16_t)(i % 2 + 1);
        n.rank = i;
        n.plane = SN_NONE16;
        c->acc[i] = sn_topo_add_node(c->t, &n);
        n.kind = SN_NODE_NIC;
        n.rank = SN_NONE;
        c->nic[i] = sn_topo_add_node(c->t, &n);
    }
    for (uint32_t s = 0; s < 2; s++) {
        memset(&n, 0, sizeof(n));
        n.kind = SN_NODE_SWITCH;
        n.role = SN_SW_LEAF;
        n.supernode = SN_NONE;
        n.rack = 2;
        n.unit = (uint16_t)(s + 1);
        n.index = s;
        n.rank = SN_NONE;
        n.plane = SN_NONE16;
        c->leaf[s] = sn_topo_add_node(c->t, &n);
    }
    for (uint32_t i = 0; i < 4; i++) {
        c->host_link[i] =
            sn_topo_add_link(c->t, c->nic[i], c->leaf[i / 2], SN_LINK_SCALE_OUT,
                             SN_MEDIUM_AOC, 12.5e6, 1e-6, 5);
        c->board_link[i] =
            sn_topo_add_link(c->t, c->acc[i], c->nic[i], SN_LINK_HOST,
                             SN_MEDIUM_BOARD, 63e9, 1e-7, 0.2);
    }
    c->isl = sn_topo_add_link(c->t, c->leaf[0], c->leaf[1], SN_LINK_SCALE_OUT,
                              SN_MEDIUM_COPPER, isl_bw, 1e-6, 1);
    CHECK(sn_topo_finish(c->t, &err) == SN_OK);
}

/* A two-tier fat tree: leaves A (hosts 0,1) and B (hosts 2,3), two
 * spines, each leaf on each spine: cross-leaf pairs have two ECMP paths. */
struct fat {
    struct sn_topo *t;
    uint32_t acc[4], leaf[2], spine[2];
    uint32_t up[2][2]; /* up[leaf][spine] */
};

static void build_fat(struct fat *c)
{
    struct sn_node n;
    struct sn_error err;

    memset(c, 0, sizeof(*c));
    c->t = sn_topo_new(NULL);
    for (uint32_t i = 0; i < 4; i++) {
        memset(&n, 0, sizeof(n));
        n.kind = SN_NODE_ACCEL;
        n.supernode = i;
        n.rank = i;
        n.index = 0;
        n.plane = SN_NONE16;
        c->acc[i] = sn_topo_add_node(c->t, &n);
    }
    for (uint32_t s = 0; s < 4; s++) {
        memset(&n, 0, sizeof(n));
        n.kind = SN_NODE_SWITCH;
        n.role = s < 2 ? SN_SW_LEAF : SN_SW_SPINE;
        n.supernode = SN_NONE;
        n.rack = 9;
        n.unit = (uint16_t)(s + 1);
        n.index = s % 2;
        n.rank = SN_NONE;
        n.plane = SN_NONE16;
        if (s < 2)
            c->leaf[s] = sn_topo_add_node(c->t, &n);
        else
            c->spine[s - 2] = sn_topo_add_node(c->t, &n);
    }
    /* accelerators straight on the leaves (a NIC-less test fabric) */
    for (uint32_t i = 0; i < 4; i++)
        sn_topo_add_link(c->t, c->acc[i], c->leaf[i / 2], SN_LINK_SCALE_OUT,
                         SN_MEDIUM_MMF, 50e9, 1e-6, 10);
    for (uint32_t l = 0; l < 2; l++)
        for (uint32_t s = 0; s < 2; s++)
            c->up[l][s] = sn_topo_add_link(c->t, c->leaf[l], c->spine[s],
                                           SN_LINK_SCALE_OUT, SN_MEDIUM_SMF,
                                           50e9, 1e-6, 100);
    CHECK(sn_topo_finish(c->t, &err) == SN_OK);
}

/* ---- results ------------------------------------------------------------- */

/* Rounds of the 4-rank tournament the bench runs. */
static const uint32_t rounds4[3][2][2] = {
    {{0, 3}, {1, 2}}, {{0, 2}, {1, 3}}, {{0, 1}, {2, 3}}};

/* What a generated pair result measures, and the spread of its samples
 * (+/- that share, deterministic). */
struct pair_test {
    const char *test, *params, *unit;
    bool lower_better;
    double spread;
};

/* one-way bandwidth, both ways at once (+/- 0.3%), latency (+/- 1%) */
static const struct pair_test uni = {"pairs.uni", "bytes=1048576", "B/s", false,
                                     0.003};
static const struct pair_test bidir = {"pairs.bidir", "bytes=1048576", "B/s",
                                       false, 0.003};
static const struct pair_test latency = {"pairs.latency", "bytes=8", "s", true,
                                         0.01};

/* Results of test for every ordered pair, in tournament rounds; pair
 * (a, b) reaches base x factor(a, b), 8 samples with the test's spread. */
static void results_by(struct sn_results *rs, const struct pair_test *pt,
                       double base, double (*factor)(uint32_t a, uint32_t b))
{
    for (uint32_t rd = 0; rd < 3; rd++)
        for (uint32_t p = 0; p < 2; p++)
            for (uint32_t d = 0; d < 2; d++) {
                struct sn_result r;
                double s[8];
                uint32_t a = rounds4[rd][p][d], b = rounds4[rd][p][1 - d];
                memset(&r, 0, sizeof(r));
                snprintf(r.test, sizeof(r.test), "%s", pt->test);
                snprintf(r.params, sizeof(r.params), "%s", pt->params);
                snprintf(r.unit, sizeof(r.unit), "%s", pt->unit);
                r.subject = SN_SUBJECT_PAIR;
                r.lower_better = pt->lower_better;
                r.a = a;
                r.b = b;
                r.round = rd;
                for (int k = 0; k < 8; k++)
                    s[k] =
                        base * factor(a, b) *
                        (1.0 + pt->spread * (double)((k * 5 + a + b) % 3 - 1));
                r.samples = s;
                r.nsamples = 8;
                sn_stats_compute(s, 8, &r.stats);
                sn_results_add(rs, &r);
            }
}

static double all_well(uint32_t a, uint32_t b)
{
    (void)a;
    (void)b;
    return 1.0;
}

static double host0_half(uint32_t a, uint32_t b)
{
    return a == 0 || b == 0 ? 0.5 : 1.0;
}

static double host3_eighty(uint32_t a, uint32_t b)
{
    return a == 3 || b == 3 ? 0.8 : 1.0;
}

static double cross_forty(uint32_t a, uint32_t b)
{
    return a / 2 != b / 2 ? 0.4 : 1.0;
}

static double everything_forty(uint32_t a, uint32_t b)
{
    (void)a;
    (void)b;
    return 0.4;
}

/* Run the whole diagnosis on the leaves cluster: expectations from the
 * topology, an optional baseline. */
static struct sn_diag_report *diagnose(struct leaves *c,
                                       const struct sn_results *rs,
                                       const struct sn_baseline *bl)
{
    double *e = sn_xcalloc(rs->n + 1, sizeof(double));
    const char **src = sn_xcalloc(rs->n + 1, sizeof(char *));
    struct sn_diag_input in;
    struct sn_diag_report *rep = NULL;
    struct sn_error err;

    if (sn_diag_expect(c->t, "cpu", rs, e, src, &err) != SN_OK)
        printf("  expect: %s\n", err.msg);
    memset(&in, 0, sizeof(in));
    in.topo = c->t;
    in.results = rs;
    in.expected = e;
    in.expected_source = src;
    in.baseline = bl;
    if (sn_diag_run(&in, &rep, &err) != SN_OK)
        printf("  diagnose: %s\n", err.msg);
    free(e);
    free(src);
    return rep;
}

static size_t count_kind(const struct sn_diag_report *r, enum sn_finding_kind k)
{
    size_t n = 0;

    for (size_t i = 0; i < r->n; i++)
        n += r->findings[i].kind == k;
    return n;
}

/* rs initialised with one run of pair results on the leaves cluster: 95%
 * of the hosts' 12.5 MB/s, pair (a, b) scaled by factor(a, b). */
static void leaves_run(struct sn_results *rs,
                       double (*factor)(uint32_t a, uint32_t b))
{
    sn_results_init(rs);
    results_by(rs, &uni, 0.95 * 12.5e6, factor);
}

/* The leaves cluster with isl_bw, one run on it (leaves_run) and its
 * diagnosis without a baseline (NULL when it failed, said why). */
static struct sn_diag_report *
leaves_diagnose(struct leaves *c, double isl_bw, struct sn_results *rs,
                double (*factor)(uint32_t a, uint32_t b))
{
    build_leaves(c, isl_bw);
    leaves_run(rs, factor);
    return diagnose(c, rs, NULL);
}

/* Frees what a leaves case holds: its report (may be NULL), its results
 * and its cluster. */
static void leaves_release(struct leaves *c, struct sn_results *rs,
                           struct sn_diag_report *rep)
{
    sn_diag_report_free(rep);
    sn_results_release(rs);
    sn_topo_free(c->t);
}

/* ---- baselines ----------------------------------------------------------- */

/* A baseline from results (one run's samples). */
static void baseline_from(const struct sn_results *rs, struct sn_baseline *b)
{
    memset(b, 0, sizeof(*b));
    b->entries = sn_xcalloc(rs->n, sizeof(*b->entries));
    for (size_t i = 0; i < rs->n; i++) {
        struct sn_baseline_entry *e = &b->entries[b->n++];
        const struct sn_result *r = &rs->items[i];
        double tmp[64];
        memcpy(e->test, r->test, sizeof(e->test));
        memcpy(e->params, r->params, sizeof(e->params));
        memcpy(e->unit, r->unit, sizeof(e->unit));
        e->subject = r->subject;
        e->a = r->a;
        e->b = r->b;
        e->center = r->stats.median;
        memcpy(tmp, r->samples, r->nsamples * sizeof(double));
        e->noise = sn_stats_sigma(tmp, r->nsamples);
        e->n = r->nsamples;
        e->runs = 1;
    }
}

static int entry_order(const void *x, const void *y)
{
    const struct sn_baseline_entry *a = x, *b = y;
    int c = strcmp(a->test, b->test);

    if (c)
        return c;
    c = strcmp(a->params, b->params);
    if (c)
        return c;
    if (a->subject != b->subject)
        return a->subject < b->subject ? -1 : 1;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return (a->b > b->b) - (a->b < b->b);
}

/* The baseline taken from the results healthy, its entries in the
 * order the store keeps them. */
static void baseline_sorted(const struct sn_results *healthy,
                            struct sn_baseline *bl)
{
    baseline_from(healthy, bl);
    qsort(bl->entries, bl->n, sizeof(*bl->entries), entry_order);
}

#endif
