/* check-scale.c: the speed of `check`'s own work at 1,000 devices:
 * localising a slow cable among the fabric's links from every pair of a
 * full tournament, and storing a run of 1,000 devices' results.
 *   check-scale localise SPEC     the slow cable: rank 417's NIC uplink
 *   check-scale store DIR         device results, then the pair matrix */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-common.h"
#include "sn/diagnose.h"
#include "sn/spec.h"
#include "sn/store.h"
#include "sn/topo.h"

static int localise(const char *path)
{
    struct sn_spec spec;
    struct sn_topo *t = NULL;
    struct sn_error err;
    struct sn_diag_pair *p;
    struct sn_diag_culprits cul;
    uint32_t bad = UINT32_MAX, victim = 417, nic = SN_NONE;
    size_t n = 0, np, nslow = 0, fabric = 0;
    double w0, c0, w1, c1;
    char label[256];

    if (sn_spec_load(path, &spec, &err) || sn_topo_build(&spec, &t, &err)) {
        fprintf(stderr, "check-scale: %s\n", err.msg);
        return 1;
    }
    /* the victim's NIC (its host link to a NIC) and the NIC's uplink */
    for (uint32_t k = t->adj_off[t->accel[victim]];
         k < t->adj_off[t->accel[victim] + 1]; k++) {
        const struct sn_link *l = &t->links[t->adj[k]];
        uint32_t o = l->a == t->accel[victim] ? l->b : l->a;
        if (t->nodes[o].kind == SN_NODE_NIC)
            nic = o;
    }
    for (uint32_t k = t->adj_off[nic];
         nic != SN_NONE && k < t->adj_off[nic + 1]; k++)
        if (t->links[t->adj[k]].cls == SN_LINK_SCALE_OUT)
            bad = t->adj[k];
    for (size_t i = 0; i < t->nlinks; i++)
        fabric += t->links[i].cls != SN_LINK_HOST;
    np = t->naccel * (t->naccel - 1) / 2;
    p = calloc(np, sizeof(*p));
    for (uint32_t a = 0; a < t->naccel; a++)
        for (uint32_t b = a + 1; b < t->naccel; b++, n++) {
            /* slow: the victim's pairs that leave its node, over the NIC */
            bool across =
                t->nodes[t->accel[a]].server != t->nodes[t->accel[b]].server ||
                t->nodes[t->accel[a]].supernode !=
                    t->nodes[t->accel[b]].supernode;
            p[n].a = a;
            p[n].b = b;
            p[n].slow = (a == victim || b == victim) && across;
            p[n].severity = p[n].slow ? SN_SEV_FAIL : SN_SEV_PASS;
            p[n].ratio = p[n].slow ? 0.5 : 1.0;
            nslow += p[n].slow;
        }
    w0 = sn_now();
    c0 = bench_cpu_now();
    if (sn_diag_localise(t, p, n, &cul, &err)) {
        fprintf(stderr, "check-scale: %s\n", err.msg);
        return 1;
    }
    w1 = sn_now();
    c1 = bench_cpu_now();
    printf("localise: %zu accelerators, %zu links (%zu fabric), %zu pairs "
           "(%zu slow): %.3f s wall, %.3f s CPU; ",
           t->naccel, t->nlinks, fabric, n, nslow, w1 - w0, c1 - c0);
    if (cul.n == 1 && cul.items[0].link == bad) {
        sn_topo_link_label(t, bad, label, sizeof(label));
        printf("named %s (confidence %.2f, %zu alternatives)\n", label,
               cul.items[0].confidence, cul.items[0].nalternatives);
    } else {
        printf("WRONG: %zu culprits\n", cul.n);
        return 1;
    }
    sn_diag_culprits_release(&cul);
    free(p);
    sn_topo_free(t);
    sn_spec_release(&spec);
    return 0;
}

static void fill(struct sn_result *r, const char *test, const char *params,
                 const char *unit, uint8_t subject, uint32_t a, uint32_t b,
                 double *s, size_t ns, double base)
{
    memset(r, 0, sizeof(*r));
    snprintf(r->test, sizeof(r->test), "%s", test);
    snprintf(r->params, sizeof(r->params), "%s", params);
    snprintf(r->unit, sizeof(r->unit), "%s", unit);
    r->subject = subject;
    r->a = a;
    r->b = b;
    r->round = SN_STORE_NO_RANK;
    r->lower_better = !strcmp(unit, "s");
    for (size_t k = 0; k < ns; k++)
        s[k] = base * (1.0 + 0.001 * (double)((a * 7 + b + k) % 11));
    r->samples = s;
    r->nsamples = ns;
    sn_stats_compute(s, ns, &r->stats);
}

/* Time one whole run (begin, results, finish) into a fresh database. */
static int store_one(const char *dir, const char *name,
                     const struct sn_results *rs)
{
    char path[512];
    struct sn_store *st;
    struct sn_error err;
    struct sn_run run;
    double w0, c0, w1, c1;

    snprintf(path, sizeof(path), "%s/%s.db", dir, name);
    remove(path);
    if (sn_store_open(path, &st, &err)) {
        fprintf(stderr, "check-scale: %s\n", err.msg);
        return 1;
    }
    memset(&run, 0, sizeof(run));
    snprintf(run.spec_name, sizeof(run.spec_name), "check-1k");
    run.ranks = 1000;
    w0 = sn_now();
    c0 = bench_cpu_now();
    if (sn_store_run_begin(st, &run, &err) ||
        sn_store_add_results(st, run.id, rs->items, rs->n, &err) ||
        sn_store_run_finish(st, run.id, "PASS", NULL, 0, &err)) {
        fprintf(stderr, "check-scale: %s\n", err.msg);
        return 1;
    }
    w1 = sn_now();
    c1 = bench_cpu_now();
    sn_store_close(st);
    printf("store %s: %zu results of %zu samples: %.3f s wall, %.3f s "
           "CPU\n",
           name, rs->n, rs->n ? rs->items[0].nsamples : 0, w1 - w0, c1 - c0);
    return 0;
}

static int store(const char *dir)
{
    static const char *const dev[][3] = {
        {"compute.gemm", "dtype=fp64,k=8192,m=8192,n=8192", "FLOP/s"},
        {"compute.gemm", "dtype=fp32,k=8192,m=8192,n=8192", "FLOP/s"},
        {"compute.gemm", "dtype=tf32,k=8192,m=8192,n=8192", "FLOP/s"},
        {"compute.gemm", "dtype=bf16,k=8192,m=8192,n=8192", "FLOP/s"},
        {"compute.gemm", "dtype=fp8,k=8192,m=8192,n=8192", "FLOP/s"},
        {"memory.copy", "bytes=1073741824,dtype=fp64", "B/s"},
        {"memory.scale", "bytes=1073741824,dtype=fp64", "B/s"},
        {"memory.add", "bytes=1073741824,dtype=fp64", "B/s"},
        {"memory.triad", "bytes=1073741824,dtype=fp64", "B/s"},
        {"h2d.h2d", "bytes=268435456,numa=0,pinned=1", "B/s"},
        {"h2d.h2d", "bytes=268435456,numa=0,pinned=0", "B/s"},
        {"d2h.d2h", "bytes=268435456,numa=0,pinned=1", "B/s"},
        {"d2h.d2h", "bytes=268435456,numa=0,pinned=0", "B/s"},
    };
    struct sn_results rs;
    double s[20];
    int rc;

    sn_results_init(&rs);
    for (uint32_t d = 0; d < 1000; d++)
        for (size_t k = 0; k < SN_ARRAY_LEN(dev); k++) {
            struct sn_result r;
            fill(&r, dev[k][0], dev[k][1], dev[k][2], SN_SUBJECT_DEVICE, d,
                 SN_STORE_NO_RANK, s, 20, 1e12);
            sn_results_add(&rs, &r);
        }
    rc = store_one(dir, "devices", &rs);
    /* every ordered pair: uni, bidir, latency, as a full tournament */
    for (uint32_t a = 0; a < 1000 && !rc; a++)
        for (uint32_t b = 0; b < 1000; b++) {
            struct sn_result r;
            if (a == b)
                continue;
            fill(&r, "pairs.uni", "bytes=268435456", "B/s", SN_SUBJECT_PAIR, a,
                 b, s, 20, 4e10);
            sn_results_add(&rs, &r);
            fill(&r, "pairs.bidir", "bytes=268435456", "B/s", SN_SUBJECT_PAIR,
                 a, b, s, 20, 4e10);
            sn_results_add(&rs, &r);
            fill(&r, "pairs.latency", "bytes=8", "s", SN_SUBJECT_PAIR, a, b, s,
                 20, 2e-6);
            sn_results_add(&rs, &r);
        }
    if (!rc)
        rc = store_one(dir, "devices-and-pairs", &rs);
    sn_results_release(&rs);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "localise"))
        return localise(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "store"))
        return store(argv[2]);
    fprintf(stderr, "usage: check-scale localise SPEC | store DIR\n");
    return 2;
}
