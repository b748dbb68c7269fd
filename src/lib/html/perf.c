/* perf.c (html): the run section's measured curves: collective
 * bus bandwidth against message size beside the model's prediction and
 * the baseline, latency distributions from the raw samples, and each
 * device's compute and memory rate against the accelerator's peak. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run-int.h"

#define MAX_FIGS 24 /* figures of one kind, at most */
#define PLOT_W 440.0
#define PLOT_H 270.0
#define PAD_L 70.0
#define PAD_R 30.0
#define PAD_T 34.0
#define PAD_B 46.0
#define BINS 24           /* latency histogram bins */
#define POOL_MAX 2000000u /* samples pooled for one distribution */
#define BARS_MAX 64       /* ranks drawn as bars; more as points */

/* One line of a plot: points in data units, NaN for none. */
struct series {
    const char *name;
    int color; /* the page's series colour: path "sN", marker "fN" */
    int shape;
    const double *x, *y;
    size_t n;
};

/* The results of one figure: indices into the run's results. */
struct fig {
    char key[SN_RESULT_TEST_MAX + SN_RESULT_PARAMS_MAX + 32];
    size_t *idx;
    size_t n, cap;
};

/* The key of a result in a figure: its test and parameters but bytes
 * (the x axis), and for groups their size. */
static void fig_key(const struct sn_result *x, bool no_bytes, char *out,
                    size_t size)
{
    char params[SN_RESULT_PARAMS_MAX], *p = params, *tok;
    struct sn_buf b = SN_BUF_INIT;

    sn_strlcpy(params, x->params, sizeof(params));
    sn_buf_puts(&b, x->test);
    while ((tok = sn_tok_next(&p, ',')) != NULL) {
        if (!*tok || (no_bytes && sn_startswith(tok, "bytes=")))
            continue;
        sn_buf_printf(&b, " %s", tok);
    }
    if (x->subject == SN_SUBJECT_GROUP)
        sn_buf_printf(&b, " over %u ranks", x->b);
    sn_strlcpy(out, b.len ? b.data : "", size);
    sn_buf_release(&b);
}

/* Sort the run's results that keep() accepts into figures by key; at
 * most MAX_FIGS figures. Returns their count. */
static size_t figs_collect(const struct sn__html_run *r,
                           bool (*keep)(const struct sn_result *),
                           bool no_bytes, struct fig *figs)
{
    size_t nf = 0;
    char key[sizeof(figs[0].key)];

    for (size_t i = 0; i < r->rs.n; i++) {
        const struct sn_result *x = &r->rs.items[i];
        size_t k;
        if (!keep(x))
            continue;
        fig_key(x, no_bytes, key, sizeof(key));
        for (k = 0; k < nf && strcmp(figs[k].key, key); k++)
            ;
        if (k == nf) {
            if (nf == MAX_FIGS)
                continue;
            memset(&figs[nf], 0, sizeof(figs[nf]));
            sn_strlcpy(figs[nf++].key, key, sizeof(key));
        }
        SN_GROW(figs[k].idx, figs[k].cap, figs[k].n + 1);
        figs[k].idx[figs[k].n++] = i;
    }
    return nf;
}

static void figs_release(struct fig *figs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(figs[i].idx);
}

void sn__html_axis_y(struct sn_buf *b, const struct sn__svg_scale *sy, double x,
                     double gx1, const char *title, const char *unit,
                     char *shown, size_t size)
{
    static const char *const prefix[] = {"", "k", "M", "G", "T", "P", "E"};
    struct sn__svg_scale s = *sy;
    double top = fmax(fabs(sy->d0), fabs(sy->d1)), f = 1;
    bool secs = !strcmp(unit, "s"); /* ticks keep "20 us" */
    size_t i = 0;
    char u[24], t[96];

    while (unit[0] && !secs && top / f >= 1000 && i < 6) {
        f *= 1000;
        i++;
    }
    s.d0 /= f;
    s.d1 /= f;
    snprintf(u, sizeof(u), "%s%s", prefix[i], unit);
    if (shown)
        sn_strlcpy(shown, u, size);
    if (title && unit[0] && !secs)
        snprintf(t, sizeof(t), "%s (%s)", title, u);
    sn__svg_axis_y(b, &s, x, gx1, title && unit[0] && !secs ? t : title,
                   secs ? unit : "", false);
}

/* The data interval of the series' finite points. */
static void series_range(const struct series *s, size_t ns, bool y, double *lo,
                         double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t k = 0; k < ns; k++)
        for (size_t i = 0; i < s[k].n; i++) {
            double v = y ? s[k].y[i] : s[k].x[i];
            if (isfinite(v)) {
                *lo = fmin(*lo, v);
                *hi = fmax(*hi, v);
            }
        }
}

/* A marker's words: "4 MiB: 41.9 GB/s measured". */
static void point_title(char *buf, size_t size, double x, double y,
                        const char *xunit, bool xbin, const char *yunit,
                        const char *name)
{
    char a[32], v[32];

    sn__svg_fmt(x, xunit, xbin, a, sizeof(a));
    sn_unit_format_named(y, yunit, v, sizeof(v));
    snprintf(buf, size, "%s: %s %s", a, v, name);
}

/* Axes and the series' lines and markers, a key at the top. */
static void plot_series(struct sn_buf *b, const struct series *s, size_t ns,
                        const char *xtitle, const char *xunit, bool xlog,
                        const char *ytitle, const char *yunit)
{
    struct sn__svg_scale sx = {0, 1, PAD_L, PLOT_W - PAD_R, xlog};
    struct sn__svg_scale sy = {0, 1, PLOT_H - PAD_B, PAD_T, false};
    double lo, hi, *px, *py;
    size_t most = 1;
    char title[160], pc[8], mc[16];

    for (size_t k = 0; k < ns; k++)
        most = s[k].n > most ? s[k].n : most;
    px = sn_xmalloc(most * sizeof(double));
    py = sn_xmalloc(most * sizeof(double));

    series_range(s, ns, false, &sx.d0, &sx.d1);
    series_range(s, ns, true, &lo, &hi);
    if (sx.d0 >= sx.d1) {
        sx.d0 = xlog ? sx.d0 / 2 : sx.d0 - 1;
        sx.d1 = xlog ? sx.d1 * 2 : sx.d1 + 1;
    }
    sy.d1 = hi > 0 ? hi : 1;
    sn__svg_nice_domain(&sx.d0, &sx.d1, xlog);
    sn__svg_nice_domain(&sy.d0, &sy.d1, false);
    sn__svg_axis_x(b, &sx, PLOT_H - PAD_B, PAD_T, xtitle, xunit,
                   !strcmp(xunit, "B"));
    sn__html_axis_y(b, &sy, PAD_L, PLOT_W - PAD_R, ytitle, yunit, NULL, 0);
    for (size_t k = 0; k < ns; k++) {
        size_t n = s[k].n;
        snprintf(pc, sizeof(pc), "s%d", s[k].color);
        snprintf(mc, sizeof(mc), "f%d mk", s[k].color);
        for (size_t i = 0; i < n; i++) {
            px[i] = isfinite(s[k].x[i]) ? sn__svg_map(&sx, s[k].x[i]) : NAN;
            py[i] = isfinite(s[k].y[i]) ? sn__svg_map(&sy, s[k].y[i]) : NAN;
        }
        sn__svg_path(b, px, py, n, pc);
        for (size_t i = 0; i < n; i++) {
            if (isnan(px[i]) || isnan(py[i]))
                continue;
            point_title(title, sizeof(title), s[k].x[i], s[k].y[i], xunit,
                        !strcmp(xunit, "B"), yunit, s[k].name);
            sn__svg_marker(b, px[i], py[i], s[k].shape, mc, title);
        }
        /* the key: marker and name, left to right */
        sn__svg_marker(b, PAD_L + 8 + 120.0 * (double)k, 12, s[k].shape, mc,
                       s[k].name);
        sn__svg_text_fit(b, PAD_L + 16 + 120.0 * (double)k, 16, 100, 11,
                         "start", "lg", s[k].name);
    }
    free(px);
    free(py);
}

static bool is_coll(const struct sn_result *x)
{
    return x->subject == SN_SUBJECT_GROUP && sn_startswith(x->test, "coll.") &&
           !strcmp(x->unit, "B/s");
}

static const struct sn__html_run *sort_run;

static int by_bytes(const void *pa, const void *pb)
{
    uint64_t a = sort_run->rs.items[*(const size_t *)pa].bytes;
    uint64_t b = sort_run->rs.items[*(const size_t *)pb].bytes;

    return a < b ? -1 : a > b;
}

/* One collective: measured busbw per size, the model's, the baseline's. */
static void coll_figure(struct sn_buf *b, const struct sn__html_run *r,
                        struct fig *f, size_t k)
{
    size_t n = f->n;
    double *x = sn_xcalloc(n + 1, sizeof(double));
    double *y = sn_xcalloc(3 * (n + 1), sizeof(double));
    struct series s[3] = {
        {"measured", 0, 0, x, y, n},
        {"model", 1, 1, x, y + n + 1, n},
        {"baseline", 2, 2, x, y + 2 * (n + 1), n},
    };
    size_t ns = 1;
    char id[64], what[32], cap[320];

    sort_run = r;
    qsort(f->idx, n, sizeof(*f->idx), by_bytes);
    for (size_t i = 0; i < n; i++) {
        const struct sn_result *res = &r->rs.items[f->idx[i]];
        const struct sn_baseline_entry *e =
            r->have_bl ? sn_baseline_find(&r->bl, res) : NULL;
        x[i] = (double)res->bytes;
        y[i] = res->stats.median;
        y[n + 1 + i] = r->expected[f->idx[i]];
        y[2 * (n + 1) + i] = e ? e->center : NAN;
    }
    /* the model and the baseline only where they have a value */
    for (int k2 = 1; k2 < 3; k2++) {
        bool any = false;
        for (size_t i = 0; i < n; i++)
            any = any || isfinite(s[k2].y[i]);
        if (any)
            s[ns++] = s[k2];
    }
    snprintf(what, sizeof(what), "coll%zu", k);
    snprintf(cap, sizeof(cap),
             "%.170s: bus bandwidth (nccl-tests' busbw) against message size: "
             "measured%s%s",
             f->key, ns > 1 && s[1].y == y + n + 1 ? ", the model's" : "",
             s[ns - 1].y == y + 2 * (n + 1) ? ", the baseline's" : "");
    sn__html_figure_open(b, sn__html_run_anchor(r, what, id, sizeof(id)), cap);
    sn__svg_open(b, PLOT_W, PLOT_H, f->key);
    plot_series(b, s, ns, "message size", "B", true, "busbw", "B/s");
    sn__svg_close(b);
    sn__html_figure_close(b);
    free(x);
    free(y);
}

/* Every figure of the results keep() accepts, drawn by draw(). */
static void figs_each(struct sn_buf *b, const struct sn__html_run *r,
                      bool (*keep)(const struct sn_result *), bool no_bytes,
                      void (*draw)(struct sn_buf *, const struct sn__html_run *,
                                   struct fig *, size_t))
{
    struct fig figs[MAX_FIGS];
    size_t n = figs_collect(r, keep, no_bytes, figs);

    for (size_t k = 0; k < n; k++)
        draw(b, r, &figs[k], k);
    figs_release(figs, n);
}

void sn__html_run_colls(struct sn_buf *b, const struct sn__html_run *r)
{
    figs_each(b, r, is_coll, true, coll_figure);
}

static bool is_latency(const struct sn_result *x)
{
    return !strcmp(x->unit, "s") && x->nsamples > 0;
}

static int dbl_cmp(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;

    return a < b ? -1 : a > b;
}

/* Every positive sample of the figure's results, at most POOL_MAX (an
 * even stride over them beyond), sorted. */
static double *pool_samples(const struct sn__html_run *r, const struct fig *f,
                            size_t *n)
{
    size_t total = 0, stride, k = 0, m = 0;
    double *v;

    for (size_t i = 0; i < f->n; i++)
        total += r->rs.items[f->idx[i]].nsamples;
    stride = total / POOL_MAX + 1;
    v = sn_xmalloc((total / stride + 2) * sizeof(double));
    for (size_t i = 0; i < f->n; i++) {
        const struct sn_result *x = &r->rs.items[f->idx[i]];
        for (size_t j = 0; j < x->nsamples; j++, k++)
            if (k % stride == 0 && x->samples[j] > 0 && isfinite(x->samples[j]))
                v[m++] = x->samples[j];
    }
    qsort(v, m, sizeof(*v), dbl_cmp);
    *n = m;
    return v;
}

/* A quantile of sorted v (nearest rank). */
static double quantile(const double *v, size_t n, double q)
{
    size_t i = (size_t)ceil(q * (double)n);

    return v[i ? i - 1 : 0];
}

/* A vertical marker line at value v with its words. */
static void mark(struct sn_buf *b, const struct sn__svg_scale *sx, double v,
                 const char *name, const char *cls, double dy)
{
    char t[64], a[32];

    sn__svg_line(b, sn__svg_map(sx, v), PAD_T, sn__svg_map(sx, v),
                 PLOT_H - PAD_B, cls);
    snprintf(t, sizeof(t), "%s %s", name,
             sn__svg_fmt(v, "s", false, a, sizeof(a)));
    sn__svg_text(b, sn__svg_map(sx, v) + 3, PAD_T + 10 + dy, "start", "tk", t);
}

/* One latency test: a histogram of its samples on a log scale. */
static void latency_figure(struct sn_buf *b, const struct sn__html_run *r,
                           struct fig *f, size_t k)
{
    size_t n, count[BINS] = {0}, top = 1;
    double *v = pool_samples(r, f, &n);
    struct sn__svg_scale sx = {0, 1, PAD_L, PLOT_W - PAD_R, true};
    struct sn__svg_scale sy = {0, 1, PLOT_H - PAD_B, PAD_T, false};
    char id[64], what[32], cap[400], t[160], a[32], c[32];

    if (!n) {
        free(v);
        return;
    }
    sx.d0 = v[0];
    sx.d1 = v[n - 1] > v[0] ? v[n - 1] : v[0] * 2;
    sn__svg_nice_domain(&sx.d0, &sx.d1, true);
    for (size_t i = 0; i < n; i++) {
        double p = log10(v[i] / sx.d0) / log10(sx.d1 / sx.d0);
        size_t bin = p >= 1 ? BINS - 1 : (size_t)(p * BINS);
        top = ++count[bin] > top ? count[bin] : top;
    }
    sy.d1 = (double)top;
    sn__svg_nice_domain(&sy.d0, &sy.d1, false);
    snprintf(what, sizeof(what), "lat%zu", k);
    snprintf(
        cap, sizeof(cap),
        "%.170s: distribution of %s raw samples of %zu results; median %s, "
        "99th percentile %s",
        f->key, sn_fmt_count(n, c, sizeof(c)), f->n,
        sn__svg_fmt(quantile(v, n, 0.5), "s", false, a, sizeof(a)),
        sn__svg_fmt(quantile(v, n, 0.99), "s", false, t, sizeof(t)));
    sn__html_figure_open(b, sn__html_run_anchor(r, what, id, sizeof(id)), cap);
    sn__svg_open(b, PLOT_W, PLOT_H, f->key);
    sn__svg_axis_x(b, &sx, PLOT_H - PAD_B, PAD_T, "latency", "s", false);
    sn__svg_axis_y(b, &sy, PAD_L, PLOT_W - PAD_R, "samples", "", false);
    for (size_t i = 0; i < BINS; i++) {
        double lo = sx.d0 * pow(sx.d1 / sx.d0, (double)i / BINS);
        double hi = sx.d0 * pow(sx.d1 / sx.d0, (double)(i + 1) / BINS);
        double x0 = sn__svg_map(&sx, lo), x1 = sn__svg_map(&sx, hi);
        if (!count[i])
            continue;
        snprintf(t, sizeof(t), "%s to %s: %zu samples",
                 sn__svg_fmt(lo, "s", false, a, sizeof(a)),
                 sn__svg_fmt(hi, "s", false, c, sizeof(c)), count[i]);
        sn__svg_rect(b, x0, sn__svg_map(&sy, (double)count[i]), x1 - x0 - 0.5,
                     sn__svg_map(&sy, 0) - sn__svg_map(&sy, (double)count[i]),
                     "f0", NULL, t);
    }
    mark(b, &sx, quantile(v, n, 0.5), "median", "ax", 0);
    mark(b, &sx, quantile(v, n, 0.99), "p99", "lim", 14);
    sn__svg_close(b);
    sn__html_figure_close(b);
    free(v);
}

void sn__html_run_latency(struct sn_buf *b, const struct sn__html_run *r)
{
    figs_each(b, r, is_latency, false, latency_figure);
}

static bool is_device(const struct sn_result *x)
{
    return x->subject == SN_SUBJECT_DEVICE &&
           ((sn_startswith(x->test, "compute.") &&
             !strcmp(x->unit, "FLOP/s")) ||
            (sn_startswith(x->test, "memory.") && !strcmp(x->unit, "B/s")));
}

/* One device test: each rank's rate and the accelerator's peak. */
static void device_figure(struct sn_buf *b, const struct sn__html_run *r,
                          struct fig *f, size_t k)
{
    const char *unit = r->rs.items[f->idx[0]].unit;
    double *x = sn_xcalloc(f->n + 1, sizeof(double));
    double *y = sn_xcalloc(f->n + 1, sizeof(double));
    double *pk = sn_xcalloc(f->n + 1, sizeof(double));
    double *tmp = sn_xcalloc(f->n + 1, sizeof(double));
    double peak = NAN, med;
    struct series s[2] = {{"measured", 0, 0, x, y, f->n},
                          {"peak", 5, 1, x, pk, f->n}};
    char id[64], what[32], cap[400], a[32], c[32];

    for (size_t i = 0; i < f->n; i++) {
        const struct sn_result *res = &r->rs.items[f->idx[i]];
        x[i] = (double)res->a;
        y[i] = res->stats.median;
        pk[i] = r->expected[f->idx[i]];
        if (isfinite(pk[i]))
            peak = isfinite(peak) ? fmax(peak, pk[i]) : pk[i];
    }
    memcpy(tmp, y, f->n * sizeof(double)); /* the median sorts */
    med = sn_stats_median(tmp, f->n);
    snprintf(what, sizeof(what), "dev%zu", k);
    if (isfinite(peak))
        snprintf(cap, sizeof(cap),
                 "%.170s per rank against the accelerator's peak %s: median "
                 "%s, %.1f%% of it",
                 f->key, sn_unit_format_named(peak, unit, a, sizeof(a)),
                 sn_unit_format_named(med, unit, c, sizeof(c)),
                 100 * med / peak);
    else
        snprintf(cap, sizeof(cap),
                 "%.170s per rank: median %s (no peak: no spec given, "
                 "or the design has none for it, as for host memory)",
                 f->key, sn_unit_format_named(med, unit, c, sizeof(c)));
    sn__html_figure_open(b, sn__html_run_anchor(r, what, id, sizeof(id)), cap);
    sn__svg_open(b, PLOT_W, PLOT_H, f->key);
    plot_series(b, s, isfinite(peak) ? 2 : 1, "rank", "", false,
                sn_startswith(f->key, "compute.") ? "compute" : "memory", unit);
    sn__svg_close(b);
    sn__html_figure_close(b);
    free(x);
    free(y);
    free(pk);
    free(tmp);
}

void sn__html_run_devices(struct sn_buf *b, const struct sn__html_run *r)
{
    figs_each(b, r, is_device, false, device_figure);
}
