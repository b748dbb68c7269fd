/* test-report-run.c: the HTML report's run and history sections, from a
 * real store in a temporary file: each part present when its data is and
 * absent otherwise, the numbers in the SVG those of the data, the
 * aggregated heatmap above 256 devices one cell per switch pair. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/lib/html/run-int.h"
#include "harness.h"
#include "sn/diagnose.h"
#include "sn/html.h"
#include "sn/render.h"
#include "sn/spec.h"
#include "sn/store.h"
#include "sn/topo.h"

/* copy into a char array field */
#define SCPY(dst, src) sn_strlcpy((dst), (src), sizeof(dst))

#define HALF_RUN "tests/fixtures/check/run-host0-half.json"

/* A store in a fresh temporary directory, a spec and its topology. */
struct fx {
    char dir[64];
    char path[96];
    struct sn_store *st;
    struct sn_spec spec;
    struct sn_topo *t;
    bool have_spec;
};

static bool fx_open(struct fx *f, const char *spec)
{
    struct sn_error err;

    memset(f, 0, sizeof(*f));
    snprintf(f->dir, sizeof(f->dir), "/tmp/sn-test-report-XXXXXX");
    if (!mkdtemp(f->dir))
        return false;
    snprintf(f->path, sizeof(f->path), "%s/results.db", f->dir);
    if (sn_store_open(f->path, &f->st, &err)) {
        printf("  %s\n", err.msg);
        return false;
    }
    if (spec) {
        if (sn_spec_load(spec, &f->spec, &err) ||
            sn_topo_build(&f->spec, &f->t, &err)) {
            printf("  %s\n", err.msg);
            return false;
        }
        f->have_spec = true;
    }
    return true;
}

static void fx_close(struct fx *f)
{
    char cmd[128];

    sn_store_close(f->st);
    sn_topo_free(f->t);
    if (f->have_spec)
        sn_spec_release(&f->spec);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
    if (f->dir[0] && system(cmd) != 0)
        printf("  cannot remove %s\n", f->dir);
}

/* Import a "supernode.run/1" file as a new run, with findings f (nf)
 * and health h (nh) instead of the file's; its id. */
static int64_t import(struct fx *fx, const char *file,
                      const struct sn_store_finding *f, size_t nf,
                      const struct sn_store_health *h, size_t nh)
{
    char *text = NULL;
    size_t len;
    struct sn_run run;
    struct sn_results rs;
    struct sn_store_finding *ff = NULL;
    struct sn_store_health *hh = NULL;
    size_t nff = 0, nhh = 0;
    struct sn_error err;
    int64_t id = 0;

    sn_results_init(&rs);
    if (sn_read_file(file, 1 << 24, &text, &len, &err) ||
        sn_store_run_parse(file, text, len, &run, &rs, &ff, &nff, &hh, &nhh,
                           &err) ||
        sn_store_run_put(fx->st, &run, rs.items, rs.n, f, nf, h, nh, &err))
        printf("  %s\n", err.msg);
    else
        id = run.id;
    free(text);
    sn_results_release(&rs);
    sn_store_findings_release(ff, nff);
    sn_store_health_release(hh, nhh);
    return id;
}

/* The report's run and history sections for runs (n) of the store. */
static char *render(struct fx *fx, const int64_t *runs, size_t n,
                    const char *baseline)
{
    struct sn_html_in in = {0};
    struct sn_buf b = SN_BUF_INIT;
    struct sn_error err;

    in.spec = fx->have_spec ? &fx->spec : NULL;
    in.topo = fx->t;
    in.store = fx->st;
    in.runs = runs;
    in.nruns = n;
    in.baseline = baseline;
    in.now = 1796000000;
    if (sn__html_run(&b, &in, &err) || sn__html_history(&b, &in, &err)) {
        printf("  %s\n", err.msg);
        sn_buf_release(&b);
        return NULL;
    }
    return sn_buf_detach(&b, NULL);
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;

    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* The text between the first start and the next end after it (owned). */
static char *between(const char *hay, const char *start, const char *end)
{
    const char *a = strstr(hay, start), *b;

    if (!a || !(b = strstr(a, end)))
        return sn_xstrdup("");
    return sn_xstrndup(a, (size_t)(b - a));
}

static void test_no_store_or_no_run_writes_nothing(void)
{
    struct sn_html_in in = {0};
    struct sn_buf b = SN_BUF_INIT;
    struct sn_error err;
    struct fx fx;
    int64_t id = 1;

    in.runs = &id;
    in.nruns = 1;
    CHECK(sn__html_run(&b, &in, &err) == 0);
    CHECK(sn__html_history(&b, &in, &err) == 0);
    CHECK(b.len == 0);
    REQUIRE(fx_open(&fx, NULL));
    in.store = fx.st;
    in.nruns = 0;
    CHECK(sn__html_run(&b, &in, &err) == 0);
    CHECK(sn__html_history(&b, &in, &err) == 0); /* an empty store */
    CHECK(b.len == 0);
    in.nruns = 1; /* a run that is not there is an error */
    CHECK(sn__html_run(&b, &in, &err) == SN_ENOTFOUND);
    sn_buf_release(&b);
    fx_close(&fx);
}

static void test_run_shows_the_parts_it_has_data_for(void)
{
    struct fx fx;
    int64_t id;
    char *html;

    REQUIRE(fx_open(&fx, "examples/cpu-cluster.yaml"));
    id = import(&fx, HALF_RUN, NULL, 0, NULL, 0);
    REQUIRE(id > 0);
    html = render(&fx, &id, 1, NULL);
    REQUIRE(html);
    CHECK_CONTAINS(html, "<section id=\"run1\">");
    CHECK_CONTAINS(html, "<figure id=\"run1-pairs\">");
    CHECK_CONTAINS(html, "<figure id=\"run1-lat0\">"); /* pairs.latency */
    CHECK_CONTAINS(html, "<figure id=\"run1-dev0\">"); /* memory.triad */
    CHECK_CONTAINS(html, "pairs.uni");
    /* 12 ordered pairs of 4 hosts, one cell each */
    {
        char *heat = between(html, "<g class=\"heat\"", "</g>");
        CHECK(count(heat, "<rect") == 12);
        free(heat);
    }
    /* two leaf switches: grouped, labelled, one separator each way */
    CHECK(count(html, "<line x1=\"") > 0);
    /* what the run does not have, it does not show */
    CHECK(strstr(html, "run1-coll") == NULL);
    CHECK(strstr(html, "run1-findings") == NULL);
    CHECK(strstr(html, "run1-health") == NULL);
    CHECK(strstr(html, "run1-events") == NULL);
    CHECK(strstr(html, "id=\"history\"") == NULL); /* one run */
    free(html);
    fx_close(&fx);
}

/* The pair result with the lowest share of its design value: its index,
 * the share in *share. */
static size_t worst_pair(struct fx *fx, int64_t id, struct sn_results *rs,
                         double *share)
{
    struct sn_error err;
    double *e;
    size_t w = 0;

    *share = INFINITY;
    if (sn_store_results_get(fx->st, id, rs, &err))
        return 0;
    e = calloc(rs->n + 1, sizeof(double));
    if (sn_diag_expect(fx->t, "cpu", rs, e, NULL, &err) == SN_OK)
        for (size_t i = 0; i < rs->n; i++) {
            const struct sn_result *r = &rs->items[i];
            if (!strcmp(r->test, "pairs.uni") && isfinite(e[i]) &&
                r->stats.median / e[i] < *share) {
                *share = r->stats.median / e[i];
                w = i;
            }
        }
    free(e);
    return w;
}

static void test_degraded_pair_share_is_in_its_cell_title(void)
{
    struct fx fx;
    struct sn_results rs;
    int64_t id;
    double share;
    size_t w;
    char *html, want[96];

    REQUIRE(fx_open(&fx, "examples/cpu-cluster.yaml"));
    id = import(&fx, HALF_RUN, NULL, 0, NULL, 0);
    REQUIRE(id > 0);
    sn_results_init(&rs);
    w = worst_pair(&fx, id, &rs, &share);
    REQUIRE(isfinite(share));
    /* host 0's link at half rate: its pairs near half */
    CHECK(share > 0.3 && share < 0.7);
    CHECK(rs.items[w].a == 0 || rs.items[w].b == 0);
    html = render(&fx, &id, 1, NULL);
    REQUIRE(html);
    snprintf(want, sizeof(want), "<title>rank %u \u2192 %u: %.1f%% (",
             rs.items[w].a, rs.items[w].b, 100 * share);
    CHECK_CONTAINS(html, want);
    /* and first in the list that reads without colour */
    {
        char *low = between(html, "<p class=\"worst\">Lowest: ", "</p>");
        CHECK_CONTAINS(low, want + strlen("<title>"));
        free(low);
    }
    sn_results_release(&rs);
    free(html);
    fx_close(&fx);
}

/* The scale-out cable of host h's NIC in the topology (its leaf uplink). */
static uint32_t nic_cable(const struct sn_topo *t, uint32_t rank)
{
    for (uint32_t l = 0; l < t->nlinks; l++) {
        const struct sn_link *k = &t->links[l];
        if (k->cls != SN_LINK_SCALE_OUT)
            continue;
        for (int e = 0; e < 2; e++) {
            uint32_t nic = e ? k->b : k->a;
            if (t->nodes[nic].kind != SN_NODE_NIC ||
                t->nodes[nic].supernode != t->nodes[t->accel[rank]].supernode)
                continue;
            return l;
        }
    }
    return SN_NONE;
}

static void test_link_finding_draws_its_cable_red_with_its_label(void)
{
    struct fx fx;
    struct sn_store_finding f[2];
    int64_t id;
    uint32_t l;
    char label[256], *html, *items;

    REQUIRE(fx_open(&fx, "examples/cpu-cluster.yaml"));
    l = nic_cable(fx.t, 0);
    REQUIRE(l != SN_NONE);
    sn_topo_link_label(fx.t, l, label, sizeof(label));
    memset(f, 0, sizeof(f));
    SCPY(f[0].severity, "FAIL");
    SCPY(f[0].kind, "link");
    sn_topo_link_id(fx.t, l, f[0].subject, sizeof(f[0].subject));
    sn_strlcpy(f[0].label, label, sizeof(f[0].label));
    f[0].summary = "3 slow pairs at 0.50 of the design <explained>";
    SCPY(f[1].severity, "WARN");
    SCPY(f[1].kind, "device");
    SCPY(f[1].subject, "rank2");
    f[1].summary = "memory below peers";
    id = import(&fx, HALF_RUN, f, 2, NULL, 0);
    REQUIRE(id > 0);
    html = render(&fx, &id, 1, NULL);
    REQUIRE(html);
    items = between(html, "<ol class=\"findings\">", "</ol>");
    CHECK(count(items, "<li>") == 2);
    /* in order: the link first */
    CHECK(strstr(items, "FAIL") < strstr(items, "WARN"));
    CHECK_CONTAINS(items, "&lt;explained&gt;"); /* escaped */
    /* one picture: the cable red, its label under it */
    CHECK(count(items, "<svg") == 1);
    CHECK(count(items, "class=\"bad\" stroke-width=\"4\"") == 1);
    CHECK_CONTAINS(items, label);
    free(items);
    free(html);
    fx_close(&fx);
}

static void test_health_per_host_and_events_while_the_run_ran(void)
{
    struct fx fx;
    struct sn_store_health h[3];
    struct sn_store_event ev[2];
    struct sn_error err;
    int64_t id;
    char *html, *tab;

    REQUIRE(fx_open(&fx, "examples/cpu-cluster.yaml"));
    memset(h, 0, sizeof(h));
    memset(ev, 0, sizeof(ev));
    for (int i = 0; i < 3; i++) {
        SCPY(h[i].host, i < 2 ? "h0" : "h1");
        SCPY(h[i].name, i == 1 ? "pcie.link" : "nvml.ecc");
        SCPY(h[i].status, i == 1 ? "FAIL" : "PASS");
        h[i].evidence = i == 1 ? "x8 of x16" : "";
        h[i].remedy = i == 1 ? "reseat the card" : "";
    }
    id = import(&fx, HALF_RUN, NULL, 0, h, 3);
    REQUIRE(id > 0);
    /* the run: 2026-11-29T10:30:00Z to 10:30:30Z */
    SCPY(ev[0].host, "h1");
    SCPY(ev[0].rule, "link_degraded");
    SCPY(ev[0].severity, "warning");
    SCPY(ev[0].message, "eth0 at 10 of 100 Mb/s");
    ev[0].started = 1795948200.0 + 10; /* during */
    ev[0].resolved = NAN;
    ev[1] = ev[0];
    SCPY(ev[1].message, "long before");
    ev[1].started = 1795948200.0 - 86400;
    ev[1].resolved = 1795948200.0 - 80000;
    CHECK(sn_store_event_add(fx.st, &ev[0], &err) == SN_OK);
    CHECK(sn_store_event_add(fx.st, &ev[1], &err) == SN_OK);
    html = render(&fx, &id, 1, NULL);
    REQUIRE(html);
    tab = between(html, "<figure id=\"run1-health\">", "</figure>");
    CHECK(count(tab, "<tr class=\"host\">") == 2);
    CHECK_CONTAINS(tab, "1 FAIL");
    CHECK_CONTAINS(tab, "reseat the card");
    CHECK(strstr(tab, "nvml.ecc") == NULL); /* passed: counted only */
    free(tab);
    tab = between(html, "<figure id=\"run1-events\">", "</figure>");
    CHECK_CONTAINS(tab, "eth0 at 10 of 100 Mb/s");
    CHECK_CONTAINS(tab, "holding");
    CHECK(strstr(tab, "long before") == NULL);
    free(tab);
    free(html);
    fx_close(&fx);
}

/* A result of test (params "bytes=N") for ranks a, b with three samples
 * around v. */
static void add(struct sn_results *rs, const char *test, uint8_t subject,
                uint32_t a, uint32_t b, uint64_t bytes, double v)
{
    struct sn_result r;
    double s[3] = {v * 0.999, v, v * 1.001};

    memset(&r, 0, sizeof(r));
    sn_strlcpy(r.test, test, sizeof(r.test));
    snprintf(r.params, sizeof(r.params), "bytes=%llu",
             (unsigned long long)bytes);
    sn_strlcpy(r.unit, "B/s", sizeof(r.unit));
    r.subject = subject;
    r.a = a;
    r.b = b;
    r.round = SN_STORE_NO_RANK;
    r.samples = s;
    r.nsamples = 3;
    sn_result_params_read(&r);
    sn_stats_compute(s, 3, &r.stats);
    sn_results_add(rs, &r);
}

/* Store results as a complete run of spec name with ranks ranks. */
static int64_t put(struct fx *fx, const char *name, int ranks,
                   const char *started, struct sn_results *rs)
{
    struct sn_run run;
    struct sn_error err;

    memset(&run, 0, sizeof(run));
    sn_strlcpy(run.spec_name, name, sizeof(run.spec_name));
    sn_strlcpy(run.started, started, sizeof(run.started));
    sn_strlcpy(run.finished, started, sizeof(run.finished));
    SCPY(run.host, "h0");
    SCPY(run.suite, "quick");
    SCPY(run.backend, "cuda");
    run.ranks = ranks;
    run.complete = true;
    if (sn_store_run_put(fx->st, &run, rs->items, rs->n, NULL, 0, NULL, 0,
                         &err)) {
        printf("  %s\n", err.msg);
        return 0;
    }
    return run.id;
}

static void test_above_256_devices_one_cell_per_switch_pair_worst_shown(void)
{
    /* rail fat tree of 127 DGX nodes: leaves by scalable unit and rail;
     * 0~300 and 8~308 join the same two leaves, 1~2 and 600~1000 others */
    static const uint32_t pr[4][2] = {{0, 300}, {8, 308}, {1, 2}, {600, 1000}};
    static const double share[4] = {0.95, 0.4, 0.9, 0.8};
    struct fx fx;
    struct sn_results rs;
    struct sn_error err;
    double e[4];
    int64_t id;
    char *html, *heat, want[128];

    REQUIRE(fx_open(&fx, "examples/dgx-h100-superpod-4su.yaml"));
    REQUIRE(fx.t->naccel > REP_HEAT_MAX_RANKS);
    sn_results_init(&rs);
    for (int i = 0; i < 4; i++)
        add(&rs, "pairs.bidir", SN_SUBJECT_PAIR, pr[i][0], pr[i][1], 1 << 22,
            1);
    REQUIRE(sn_diag_expect(fx.t, "cuda", &rs, e, NULL, &err) == SN_OK);
    sn_results_release(&rs);
    for (int i = 0; i < 4; i++) {
        REQUIRE(isfinite(e[i]) && e[i] > 0);
        add(&rs, "pairs.bidir", SN_SUBJECT_PAIR, pr[i][0], pr[i][1], 1 << 22,
            e[i] * share[i]);
    }
    id = put(&fx, "dgx-h100-superpod-4su", (int)fx.t->naccel,
             "2026-12-01T00:00:00Z", &rs);
    REQUIRE(id > 0);
    html = render(&fx, &id, 1, NULL);
    REQUIRE(html);
    heat = between(html, "<g class=\"heat\"", "</g>");
    /* three switch pairs, each drawn both ways (bidirectional) */
    CHECK(count(heat, "<rect") == 6);
    CHECK(count(heat, "2 pairs; worst rank 8 \u2192 308: 40.0% (") == 2);
    CHECK(count(heat, "1 pairs; worst rank 0 \u2192 300") == 0);
    CHECK_CONTAINS(heat, "1 pairs; worst rank 1 \u2192 2: 90.0% (");
    CHECK_CONTAINS(html, "one cell per pair of switches");
    snprintf(want, sizeof(want), "Lowest: rank 8 \u2192 308: 40.0%%");
    CHECK_CONTAINS(html, want);
    free(heat);
    free(html);
    sn_results_release(&rs);
    fx_close(&fx);
}

static void test_collective_curves_with_baseline_and_history(void)
{
    static const uint64_t sizes[3] = {1 << 20, 1 << 22, 1 << 24};
    static const char *const when[3] = {
        "2026-12-01T00:00:00Z", "2026-12-02T00:00:00Z", "2026-12-03T00:00:00Z"};
    struct fx fx;
    struct sn_error err;
    int64_t ids[3];
    char *html, *fig, want[96], v[32];

    REQUIRE(fx_open(&fx, NULL));
    for (int k = 0; k < 3; k++) {
        struct sn_results rs;
        sn_results_init(&rs);
        for (int i = 0; i < 3; i++)
            add(&rs, "coll.allreduce.busbw", SN_SUBJECT_GROUP, 0, 2, sizes[i],
                1e9 * (i + 1) * (1 + 0.1 * k));
        ids[k] = put(&fx, "two", 2, when[k], &rs);
        sn_results_release(&rs);
        REQUIRE(ids[k] > 0);
    }
    REQUIRE(sn_store_baseline_save(fx.st, "good", ids, 2, false, &err) == 0);
    html = render(&fx, &ids[2], 1, "good");
    REQUIRE(html);
    fig = between(html, "<figure id=\"run3-coll0\">", "</figure>");
    CHECK_CONTAINS(fig, "over 2 ranks");
    /* measured at 4 MiB: 2 GB/s x 1.2; the baseline of runs 1 and 2 */
    snprintf(want, sizeof(want), "4 MiB: %s measured",
             sn_unit_format_named(2.4e9, "B/s", v, sizeof(v)));
    CHECK_CONTAINS(fig, want);
    CHECK_CONTAINS(fig, "baseline</title>");
    CHECK(strstr(fig, "model") == NULL); /* no spec: no model */
    free(fig);
    fig = between(html, "<section id=\"history\">", "</section>");
    CHECK_CONTAINS(fig, "coll.allreduce.busbw bytes=4194304");
    CHECK(count(fig, "<svg") == 3); /* one small multiple per size */
    CHECK(count(fig, "(this report&#39;s run)") +
              count(fig, "(this report's run)") ==
          3);
    CHECK(count(fig, "class=\"lim\"") == 3); /* the baseline's line */
    free(fig);
    free(html);
    fx_close(&fx);
}

static void test_a_hostile_rank_draws_no_heatmap_and_escapes_names(void)
{
    struct fx fx;
    struct sn_results rs;
    int64_t id;
    char *html;

    REQUIRE(fx_open(&fx, NULL));
    sn_results_init(&rs);
    add(&rs, "pairs.bidir", SN_SUBJECT_PAIR, 0, 4000000000u, 1 << 20, 1e9);
    add(&rs, "coll.<b>x</b>.busbw", SN_SUBJECT_GROUP, 0, 2, 1 << 20, 1e9);
    id = put(&fx, "two", 2, "2026-12-01T00:00:00Z", &rs);
    REQUIRE(id > 0);
    html = render(&fx, &id, 1, NULL);
    REQUIRE(html);
    CHECK(strstr(html, "run1-pairs") == NULL); /* not 4e9 ranks drawn */
    CHECK(strstr(html, "<b>x</b>") == NULL);
    CHECK_CONTAINS(html, "coll.&lt;b&gt;x&lt;/b&gt;.busbw");
    free(html);
    sn_results_release(&rs);
    fx_close(&fx);
}

static const struct sn_test cases[] = {
    T(test_no_store_or_no_run_writes_nothing),
    T(test_run_shows_the_parts_it_has_data_for),
    T(test_degraded_pair_share_is_in_its_cell_title),
    T(test_link_finding_draws_its_cable_red_with_its_label),
    T(test_health_per_host_and_events_while_the_run_ran),
    T(test_above_256_devices_one_cell_per_switch_pair_worst_shown),
    T(test_collective_curves_with_baseline_and_history),
    T(test_a_hostile_rank_draws_no_heatmap_and_escapes_names),
};

SN_TEST_MAIN(cases)
