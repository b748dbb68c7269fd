/* report-1000.c: the speed of `supernode report` on a stored run of 1,000
 * devices: the full pair matrix (499,500 pairs, bidirectional, measured
 * in the 999 rounds of a round-robin tournament as check measures them)
 * with rank 417's network cable at half rate, GEMM and STREAM on every
 * device, and the cable's finding.
 *   report-1000 make DB SPEC   store the run (once; one transaction)
 *   report-1000 run DB SPEC OUT  time the report of run 1 into OUT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench-common.h"
#include "sn/diagnose.h"
#include "sn/html.h"
#include "sn/spec.h"
#include "sn/store.h"
#include "sn/topo.h"

#define NSAMPLES 5
#define VICTIM 417u

/* Append a result of test for a, b with NSAMPLES samples near v. */
static void add(struct sn_results *rs, const char *test, const char *unit,
                uint8_t subject, uint32_t a, uint32_t b, uint32_t round,
                const char *params, double v)
{
    struct sn_result r;
    double s[NSAMPLES];

    memset(&r, 0, sizeof(r));
    snprintf(r.test, sizeof(r.test), "%s", test);
    snprintf(r.params, sizeof(r.params), "%s", params);
    snprintf(r.unit, sizeof(r.unit), "%s", unit);
    r.subject = subject;
    r.a = a;
    r.b = b;
    r.round = round;
    for (int i = 0; i < NSAMPLES; i++) /* +-0.4 %, deterministic */
        s[i] = v * (1 + 0.002 * ((int)((a * 7 + b * 13 + i * 3) % 5) - 2));
    r.samples = s;
    r.nsamples = NSAMPLES;
    sn_result_params_read(&r);
    sn_stats_compute(s, NSAMPLES, &r.stats);
    sn_results_add(rs, &r);
}

/* Whether ranks a and b sit in different servers (the pair uses the
 * network, so rank VICTIM's slow cable slows it). */
static bool across(const struct sn_topo *t, uint32_t a, uint32_t b)
{
    const struct sn_node *x = &t->nodes[t->accel[a]],
                         *y = &t->nodes[t->accel[b]];

    return x->server != y->server || x->supernode != y->supernode;
}

/* The tournament's pairs (circle method: n - 1 rounds of n / 2 pairs),
 * stored at the design's value, the victim's network pairs at half. */
static void pairs(const struct sn_topo *t, struct sn_results *rs,
                  struct sn_error *err)
{
    uint32_t n = (uint32_t)t->naccel;
    size_t first = rs->n;
    double *e;

    for (uint32_t round = 0; round + 1 < n; round++)
        for (uint32_t k = 0; k < n / 2; k++) {
            uint32_t a = k == 0 ? n - 1 : (round + k) % (n - 1);
            uint32_t b = (round + n - 1 - k) % (n - 1);
            add(rs, "pairs.bidir", "B/s", SN_SUBJECT_PAIR, a < b ? a : b,
                a < b ? b : a, round, "bytes=67108864", 1);
        }
    e = calloc(rs->n + 1, sizeof(double));
    if (sn_diag_expect(t, "cuda", rs, e, NULL, err))
        fprintf(stderr, "report-1000: %s\n", err->msg);
    for (size_t i = first; i < rs->n; i++) {
        struct sn_result *r = &rs->items[i];
        bool slow = (r->a == VICTIM || r->b == VICTIM) && across(t, r->a, r->b);
        double v = (isfinite(e[i]) ? e[i] : 4e10) * (slow ? 0.5 : 0.97);
        for (size_t j = 0; j < r->nsamples; j++)
            r->samples[j] *= v;
        sn_stats_compute(r->samples, r->nsamples, &r->stats);
    }
    free(e);
}

/* The victim's network cable: its NIC's scale-out link. */
static uint32_t victim_cable(const struct sn_topo *t)
{
    uint32_t v = t->accel[VICTIM];

    for (uint32_t k = t->adj_off[v]; k < t->adj_off[v + 1]; k++) {
        const struct sn_link *l = &t->links[t->adj[k]];
        uint32_t nic = l->a == v ? l->b : l->a;
        if (t->nodes[nic].kind != SN_NODE_NIC)
            continue;
        for (uint32_t j = t->adj_off[nic]; j < t->adj_off[nic + 1]; j++)
            if (t->links[t->adj[j]].cls == SN_LINK_SCALE_OUT)
                return t->adj[j];
    }
    return SN_NONE;
}

static int make(const char *db, const char *path)
{
    struct sn_spec spec = {0};
    struct sn_topo *t = NULL;
    struct sn_store *st = NULL;
    struct sn_results rs;
    struct sn_run run;
    struct sn_store_finding f;
    struct sn_error err;
    double w0 = sn_now(), w1;
    int rc = 1;

    sn_results_init(&rs);
    if (sn_spec_load(path, &spec, &err) || sn_topo_build(&spec, &t, &err) ||
        sn_store_open(db, &st, &err))
        goto out;
    for (uint32_t a = 0; a < t->naccel; a++) {
        add(&rs, "compute.gemm", "FLOP/s", SN_SUBJECT_DEVICE, a,
            SN_STORE_NO_RANK, SN_STORE_NO_RANK, "dtype=bf16", 7.2e14);
        add(&rs, "memory.triad", "B/s", SN_SUBJECT_DEVICE, a, SN_STORE_NO_RANK,
            SN_STORE_NO_RANK, "bytes=1073741824", 2.9e12);
    }
    pairs(t, &rs, &err);
    memset(&run, 0, sizeof(run));
    memset(&f, 0, sizeof(f));
    snprintf(run.spec_name, sizeof(run.spec_name), "%s", spec.name);
    snprintf(run.started, sizeof(run.started), "2026-12-05T12:00:00Z");
    snprintf(run.finished, sizeof(run.finished), "2026-12-05T12:20:00Z");
    snprintf(run.host, sizeof(run.host), "node000");
    snprintf(run.suite, sizeof(run.suite), "full");
    snprintf(run.backend, sizeof(run.backend), "cuda");
    snprintf(run.verdict, sizeof(run.verdict), "FAIL");
    run.ranks = (int)t->naccel;
    run.complete = true;
    snprintf(f.severity, sizeof(f.severity), "FAIL");
    snprintf(f.kind, sizeof(f.kind), "link");
    snprintf(f.subject, sizeof(f.subject), "rank%u", VICTIM);
    if (victim_cable(t) != SN_NONE)
        sn_topo_link_label(t, victim_cable(t), f.label, sizeof(f.label));
    f.summary = "the 992 network pairs of rank 417 at 0.50 of the design";
    w1 = sn_now(); /* the results made and valued; the store's write */
    if (sn_store_run_put(st, &run, rs.items, rs.n, &f, 1, NULL, 0, &err))
        goto out;
    printf("stored run %lld: %zu results in %.1f s (%.1f s the store's "
           "write, the rest design values)\n",
           (long long)run.id, rs.n, sn_now() - w0, sn_now() - w1);
    rc = 0;
out:
    if (rc)
        fprintf(stderr, "report-1000: %s\n", err.msg);
    sn_results_release(&rs);
    sn_store_close(st);
    sn_topo_free(t);
    sn_spec_release(&spec);
    return rc;
}

/* Open the store, load the spec, build the topology, write the report of
 * run 1 to out: the work `supernode report SPEC --db DB --run 1` does. */
static int run(const char *db, const char *path, const char *out)
{
    struct sn_spec spec = {0};
    struct sn_topo *t = NULL;
    struct sn_store *st = NULL;
    struct sn_html_in in = {0};
    struct sn_buf b = SN_BUF_INIT;
    struct sn_error err;
    int64_t id = 1;
    double w0 = sn_now(), c0 = bench_cpu_now();
    int rc = 1;

    if (sn_store_open_mode(db, SN_STORE_READ, &st, &err) ||
        sn_spec_load(path, &spec, &err) || sn_topo_build(&spec, &t, &err))
        goto out;
    in.spec = &spec;
    in.topo = t;
    in.spec_path = path;
    in.store = st;
    in.runs = &id;
    in.nruns = 1;
    in.now = 1796472000;
    if (sn_html_report(&in, &b, &err) ||
        sn_write_file_atomic(out, b.data, b.len, &err))
        goto out;
    printf("report: %zu bytes (%.2f MB) in %.3f s wall, %.3f s CPU\n", b.len,
           (double)b.len / 1e6, sn_now() - w0, bench_cpu_now() - c0);
    rc = 0;
out:
    if (rc)
        fprintf(stderr, "report-1000: %s\n", err.msg);
    sn_buf_release(&b);
    sn_store_close(st);
    sn_topo_free(t);
    sn_spec_release(&spec);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "make"))
        return make(argv[2], argv[3]);
    if (argc == 5 && !strcmp(argv[1], "run"))
        return run(argv[2], argv[3], argv[4]);
    fprintf(stderr, "usage: report-1000 make DB SPEC | run DB SPEC OUT\n");
    return 2;
}
