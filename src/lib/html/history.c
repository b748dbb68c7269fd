/* history.c (html): the HTML report's history section: for each
 * test the stored runs of one spec in the order they ran, one value per
 * run (the median over the test's subjects of their medians), beside the
 * baseline's value, as small multiples. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run-int.h"
#include "sn/store.h"

#define HIST_RUNS 60            /* newest runs shown, at most */
#define HIST_TESTS 24           /* tests (small multiples), at most */
#define HIST_RESULTS_MAX 200000 /* runs with more results are left out */
#define W 340.0
#define H 190.0
#define PL 64.0
#define PR 12.0
#define PT 30.0
#define PB 36.0

/* One test's values: per run, and the baseline's. */
struct hist_test {
    char test[SN_RESULT_TEST_MAX];
    char params[SN_RESULT_PARAMS_MAX];
    char unit[SN_RESULT_UNIT_MAX];
    double *value; /* per run (oldest first), NaN: not measured */
    double baseline;
};

struct hist {
    struct sn_run *runs; /* oldest first */
    size_t nruns, skipped;
    struct hist_test tests[HIST_TESTS];
    size_t ntests;
    int64_t shown; /* the run the report shows, highlighted; 0 none */
};

/* The test of (test, params, unit), added when there is room; NULL. */
static struct hist_test *test_of(struct hist *h, const char *test,
                                 const char *params, const char *unit)
{
    struct hist_test *t;

    for (size_t i = 0; i < h->ntests; i++) {
        t = &h->tests[i];
        if (!strcmp(t->test, test) && !strcmp(t->params, params) &&
            !strcmp(t->unit, unit))
            return t;
    }
    if (h->ntests == HIST_TESTS)
        return NULL;
    t = &h->tests[h->ntests++];
    sn_strlcpy(t->test, test, sizeof(t->test));
    sn_strlcpy(t->params, params, sizeof(t->params));
    sn_strlcpy(t->unit, unit, sizeof(t->unit));
    t->value = sn_xmalloc((h->nruns + 1) * sizeof(double));
    for (size_t i = 0; i < h->nruns; i++)
        t->value[i] = NAN;
    t->baseline = NAN;
    return t;
}

/* Run k's value of each test: the median of its subjects' medians. */
static int run_values(struct sn_store *st, struct hist *h, size_t k,
                      struct sn_error *err)
{
    struct sn_results rs;
    double *v[HIST_TESTS] = {NULL};
    size_t n[HIST_TESTS] = {0}, cap[HIST_TESTS] = {0};
    int rc;

    sn_results_init(&rs);
    rc = sn_store_results_read(st, h->runs[k].id, SN_STORE_SAMPLES_NONE, &rs,
                               err);
    for (size_t i = 0; !rc && i < rs.n; i++) {
        const struct sn_result *r = &rs.items[i];
        struct hist_test *t = test_of(h, r->test, r->params, r->unit);
        size_t j = t ? (size_t)(t - h->tests) : 0;
        if (!t)
            continue;
        SN_GROW(v[j], cap[j], n[j] + 1);
        v[j][n[j]++] = r->stats.median;
    }
    for (size_t j = 0; j < h->ntests; j++) {
        if (n[j])
            h->tests[j].value[k] = sn_stats_median(v[j], n[j]);
        free(v[j]);
    }
    sn_results_release(&rs);
    return rc;
}

/* The baseline's value of each test: the median of its entries' centres. */
static void baseline_values(struct sn_store *st, const char *name,
                            struct hist *h)
{
    struct sn_baseline bl;
    struct sn_error err;
    double *v;
    size_t n;

    if (!name || !name[0] || sn_store_baseline_get(st, name, &bl, &err))
        return;
    v = sn_xmalloc((bl.n + 1) * sizeof(double));
    for (size_t k = 0; k < h->ntests; k++) {
        struct hist_test *t = &h->tests[k];
        n = 0;
        for (size_t i = 0; i < bl.n; i++)
            if (!strcmp(bl.entries[i].test, t->test) &&
                !strcmp(bl.entries[i].params, t->params) &&
                !strcmp(bl.entries[i].unit, t->unit))
                v[n++] = bl.entries[i].center;
        if (n)
            t->baseline = sn_stats_median(v, n);
    }
    free(v);
    sn_baseline_release(&bl);
}

/* The complete runs of the spec the report is about (its first run's,
 * else the newest run's), at most HIST_RUNS, oldest first. */
static int hist_runs(const struct sn_html_in *in, struct hist *h,
                     struct sn_error *err)
{
    struct sn_run *all = NULL, shown;
    size_t n = 0, keep = 0;
    const char *spec = NULL;
    int rc = sn_store_runs_list(in->store, 0, &all, &n, err);

    if (rc)
        return rc;
    if (in->nruns &&
        sn_store_run_get(in->store, in->runs[0], &shown, err) == SN_OK) {
        spec = shown.spec_name;
        h->shown = shown.id;
    } else if (n) {
        spec = all[0].spec_name;
    }
    h->runs = sn_xcalloc(HIST_RUNS + 1, sizeof(*h->runs));
    for (size_t i = 0; i < n && keep < HIST_RUNS; i++) {
        if (!all[i].complete || strcmp(all[i].spec_name, spec))
            continue;
        if (all[i].nresults > HIST_RESULTS_MAX) {
            h->skipped++;
            continue;
        }
        h->runs[keep++] = all[i];
    }
    for (size_t i = 0; i < keep / 2; i++) { /* oldest first */
        struct sn_run t = h->runs[i];
        h->runs[i] = h->runs[keep - 1 - i];
        h->runs[keep - 1 - i] = t;
    }
    h->nruns = keep;
    free(all);
    return SN_OK;
}

/* The y interval: from zero (or the least value when negative) to the
 * greatest value or the baseline. */
static void y_domain(const struct hist *h, const struct hist_test *t,
                     struct sn__svg_scale *sy)
{
    sy->d0 = 0;
    sy->d1 = isfinite(t->baseline) ? t->baseline : 0;
    for (size_t i = 0; i < h->nruns; i++)
        if (isfinite(t->value[i])) {
            sy->d0 = fmin(sy->d0, t->value[i]);
            sy->d1 = fmax(sy->d1, t->value[i]);
        }
    if (sy->d1 <= sy->d0)
        sy->d1 = sy->d0 + 1;
    sn__svg_nice_domain(&sy->d0, &sy->d1, false);
}

/* The runs along the bottom: every step-th run's id. */
static void run_axis(struct sn_buf *b, const struct hist *h, const double *x)
{
    size_t step = (h->nruns + 7) / 8;
    char id[32];

    sn__svg_line(b, PL, H - PB, W - PR, H - PB, "ax");
    for (size_t i = 0; i < h->nruns; i += step ? step : 1) {
        snprintf(id, sizeof(id), "%lld", (long long)h->runs[i].id);
        sn__svg_line(b, x[i], H - PB, x[i], H - PB + 4, "ax");
        sn__svg_text(b, x[i], H - PB + 15, "middle", "tk", id);
    }
    sn__svg_text(b, (PL + W - PR) / 2, H - 4, "middle", "at",
                 "run (oldest to newest)");
}

/* One test's small multiple. */
static void hist_plot(struct sn_buf *b, const struct hist *h,
                      const struct hist_test *t)
{
    struct sn__svg_scale sy = {0, 1, H - PB, PT, false};
    double *x = sn_xmalloc((h->nruns + 1) * sizeof(double));
    double *y = sn_xmalloc((h->nruns + 1) * sizeof(double));
    char name[SN_RESULT_TEST_MAX + SN_RESULT_PARAMS_MAX + 2], v[32];
    char title[320], u[24], head[sizeof(name) + 32];

    snprintf(name, sizeof(name), "%s%s%s", t->test, t->params[0] ? " " : "",
             t->params);
    y_domain(h, t, &sy);
    for (size_t i = 0; i < h->nruns; i++) {
        x[i] = PL + (W - PL - PR) * ((double)i + 0.5) / (double)h->nruns;
        y[i] = isfinite(t->value[i]) ? sn__svg_map(&sy, t->value[i]) : NAN;
    }
    sn__svg_open(b, W, H, name);
    sn__html_axis_y(b, &sy, PL, W - PR, NULL, t->unit, u, sizeof(u));
    if (strcmp(t->unit, "s")) /* the axis's unit beside the name */
        snprintf(head, sizeof(head), "%s (%s)%s%s", t->test, u,
                 t->params[0] ? " " : "", t->params); /* unit kept */
    else
        sn_strlcpy(head, name, sizeof(head));
    /* bold glyphs are wider than the toolkit assumes: fit as 15 px */
    sn__svg_text_fit(b, 4, 14, W - 8, 15, "start", "hd", head);
    run_axis(b, h, x);
    if (isfinite(t->baseline)) {
        double by = sn__svg_map(&sy, t->baseline);
        sn__svg_line(b, PL, by, W - PR, by, "lim");
        snprintf(title, sizeof(title), "baseline %s",
                 sn_unit_format_named(t->baseline, t->unit, v, sizeof(v)));
        sn__svg_text(b, PL + 4, by - 4, "start", "tk", title);
    }
    sn__svg_path(b, x, y, h->nruns, "s0");
    for (size_t i = 0; i < h->nruns; i++) {
        bool me = h->runs[i].id == h->shown;
        if (isnan(y[i]))
            continue;
        snprintf(title, sizeof(title), "run %lld, %s: %s%s",
                 (long long)h->runs[i].id, h->runs[i].started,
                 sn_unit_format_named(t->value[i], t->unit, v, sizeof(v)),
                 me ? " (this report's run)" : "");
        sn__svg_marker(b, x[i], y[i], me ? 1 : 0, me ? "f5 mk" : "f0 mk",
                       title);
    }
    sn__svg_close(b);
    free(x);
    free(y);
}

static void hist_release(struct hist *h)
{
    for (size_t i = 0; i < h->ntests; i++)
        free(h->tests[i].value);
    free(h->runs);
}

int sn__html_history(struct sn_buf *b, const struct sn_html_in *in,
                     struct sn_error *err)
{
    struct hist h;
    char cap[400];
    int rc;

    if (!in->store)
        return SN_OK;
    memset(&h, 0, sizeof(h));
    rc = hist_runs(in, &h, err);
    for (size_t k = 0; !rc && k < h.nruns; k++)
        rc = run_values(in->store, &h, k, err);
    if (rc || h.nruns < 2 || !h.ntests)
        goto out;
    baseline_values(in->store, in->baseline, &h);
    sn__html_section_open(b, "history", "History");
    snprintf(cap, sizeof(cap),
             "Each test over the %zu complete runs of spec %s, oldest first: "
             "the median over its subjects of their medians%s%s",
             h.nruns, h.runs[0].spec_name,
             in->baseline ? ", the baseline's as a dashed line" : "",
             h.skipped ? "; runs of more than 200,000 results left out" : "");
    sn__html_figure_open(b, "history-tests", cap);
    sn_buf_puts(b, "<div style=\"display:flex;flex-wrap:wrap;gap:8px 16px\">"
                   "\n");
    for (size_t k = 0; k < h.ntests; k++)
        hist_plot(b, &h, &h.tests[k]);
    sn_buf_puts(b, "</div>\n");
    sn__html_figure_close(b);
    sn__html_section_close(b);
out:
    hist_release(&h);
    return rc;
}
