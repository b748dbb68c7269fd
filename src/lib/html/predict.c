/* predict.c (html): the HTML report's predictions section: busbw
 * against message size per collective and algorithm and the pair classes
 * (the collective model, as `sim coll` and `sim pairs`), and for a model
 * the layout search as a scatter, where the best layout's step time goes
 * (`sim train --search`) and the supernode-size sweep (`sweep`).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html-int.h"
#include "sn/coll.h"
#include "sn/pairs.h"
#include "sn/spec.h"
#include "sn/sweep.h"
#include "sn/train.h"
#include "sn/validate.h"

#define UNIT(v, k) sn_unit_format((v), (k), (char[48]){0}, 48)

/* Message sizes: 8 B to 2 GiB by x16 (nccl-tests' -b 8 -e 2G -f 16):
 * eight points per curve keep the knee and bound the work on large
 * designs (each point of each algorithm is one prediction). */
#define SIZE_MIN 8.0
#define SIZE_STEP 16.0
#define SIZES 8
/* The pair classes are found among at most this many ranks: every
 * relation (server, domain, network) shows within the first two domains
 * of the examples, and each pair is routed (16,256 pairs here; the
 * 1,024 ranks of an 8,192-NPU design took over a minute). */
#define PAIR_RANKS_MAX 128
#define PAIR_CLASSES_DRAWN 16
/* Layouts the scatter shows: the fastest of the search. */
#define SCATTER_MAX 200
#define SWEEP_MAX 8
#define GIB 1073741824.0

/* A series legend entry: marker and line in the series' style. */
static void legend_entry(struct sn_buf *b, double x, double y, size_t i,
                         const char *name)
{
    char cls[16];

    snprintf(cls, sizeof(cls), "s%zu", i % 7);
    sn__svg_line(b, x, y - 4, x + 22, y - 4, cls);
    snprintf(cls, sizeof(cls), "f%zu mk", i % 7);
    sn__svg_marker(b, x + 11, y - 4, (int)i, cls, NULL);
    sn__svg_text(b, x + 28, y, "start", "sm", name);
}

/* ---- collectives ------------------------------------------------------- */

static void coll_chart(struct sn_buf *b, struct sn_coll_model *m,
                       enum sn_coll_op op, uint32_t n)
{
    const struct sn_coll_op_info *info = sn_coll_op_info(op);
    struct sn_group g = {0, n, 1, NULL};
    double bytes[SIZES], bw[SN_ALGO_COUNT][SIZES], hi = 0, lo = INFINITY;
    bool has[SN_ALGO_COUNT] = {false};
    struct sn__svg_scale sx, sy;
    size_t nseries = 0;
    char cap[96], id[48];

    for (int a = SN_ALGO_RING; a < SN_ALGO_COUNT; a++)
        for (size_t i = 0; i < SIZES; i++) {
            struct sn_coll_result r;
            /* a whole number of 4-byte elements per rank (nccl-tests) */
            double count = floor(SIZE_MIN * pow(SIZE_STEP, (double)i) / 4);
            if (info->parted)
                count = floor(count / n) * n;
            bytes[i] = count * 4;
            bw[a][i] = NAN;
            if (count < 1 || sn_coll_predict(m, op, &g, bytes[i],
                                             (enum sn_coll_algo)a, &r, NULL))
                continue;
            bw[a][i] = r.busbw;
            has[a] = true;
            hi = fmax(hi, r.busbw);
            lo = fmin(lo, r.busbw);
        }
    if (!(hi > 0))
        return;
    lo = fmax(lo, hi * 1e-4); /* four decades show the curve's knee */
    sn__svg_nice_domain(&lo, &hi, true);
    sx = (struct sn__svg_scale){SIZE_MIN, SIZE_MIN * pow(SIZE_STEP, SIZES - 1),
                                90, 780, true};
    sy = (struct sn__svg_scale){lo, hi, 260, 20, true};
    snprintf(id, sizeof(id), "predict-coll-%s", info->name);
    snprintf(cap, sizeof(cap), "%s: busbw against message size, %u ranks",
             info->name, n);
    sn__html_figure_open(b, id, cap);
    sn__svg_open(b, 1000, 310, cap);
    sn__svg_axis_x(b, &sx, 260, 20, "message size", "B", true);
    sn__svg_axis_y(b, &sy, 90, 780, "busbw", "B/s", false);
    for (int a = SN_ALGO_RING; a < SN_ALGO_COUNT; a++) {
        double px[SIZES], py[SIZES];
        char cls[16], tip[96];
        if (!has[a])
            continue;
        for (size_t i = 0; i < SIZES; i++) {
            px[i] = sn__svg_map(&sx, bytes[i]);
            py[i] = isfinite(bw[a][i]) && bw[a][i] >= lo
                        ? sn__svg_map(&sy, bw[a][i])
                        : NAN;
        }
        snprintf(cls, sizeof(cls), "s%zu", nseries % 7);
        sn__svg_path(b, px, py, SIZES, cls);
        snprintf(cls, sizeof(cls), "f%zu mk", nseries % 7);
        for (size_t i = 0; i < SIZES; i++)
            if (isfinite(py[i])) {
                snprintf(tip, sizeof(tip), "%s %s at %s: %s",
                         sn_coll_algo_name((enum sn_coll_algo)a), info->name,
                         sn__svg_fmt(bytes[i], "B", true, (char[32]){0}, 32),
                         UNIT(bw[a][i], SN_UNIT_BANDWIDTH));
                sn__svg_marker(b, px[i], py[i], (int)nseries, cls, tip);
            }
        legend_entry(b, 800, 40 + 20 * (double)nseries, nseries,
                     sn_coll_algo_name((enum sn_coll_algo)a));
        nseries++;
    }
    sn__svg_close(b);
    sn__html_figure_close(b);
}

static int fig_colls(struct sn_buf *b, const struct sn_html_in *in,
                     struct sn_coll_model *m)
{
    static const enum sn_coll_op ops[] = {SN_COLL_ALLREDUCE, SN_COLL_ALLGATHER,
                                          SN_COLL_REDUCESCATTER,
                                          SN_COLL_ALLTOALL};

    sn_buf_puts(b, "<h3>Collectives</h3>\n<p class=\"note\">The model's "
                   "busbw (nccl-tests' definition) for every algorithm that "
                   "applies, over all ranks, as <code>supernode sim coll"
                   "</code> predicts it.</p>\n");
    for (size_t i = 0; i < SN_ARRAY_LEN(ops); i++)
        coll_chart(b, m, ops[i], (uint32_t)in->topo->naccel);
    return SN_OK;
}

/* ---- pair classes -------------------------------------------------------- */

static int fig_pairs(struct sn_buf *b, const struct sn_html_in *in,
                     struct sn_coll_model *m, struct sn_error *err)
{
    struct sn_pair_classes cl = {0};
    uint32_t n = (uint32_t)in->topo->naccel;
    struct sn__svg_scale sx;
    double hi = 0, lo = 0;
    size_t drawn;
    char cap[128];
    int rc;

    if (n > PAIR_RANKS_MAX)
        n = PAIR_RANKS_MAX;
    if (n < 2)
        return SN_OK;
    if ((rc = sn_pairs_classes(m, n, &cl, err)))
        return rc;
    drawn = cl.n < PAIR_CLASSES_DRAWN ? cl.n : PAIR_CLASSES_DRAWN;
    for (size_t k = 0; k < drawn; k++)
        hi = fmax(hi, cl.items[k].example.uni_bw);
    sn__svg_nice_domain(&lo, &hi, false);
    sx = (struct sn__svg_scale){0, hi, 330, 900, false};
    snprintf(cap, sizeof(cap),
             "Pair classes: %zu classes of %s pairs among the first %u "
             "ranks",
             cl.n, sn_fmt_count((size_t)cl.pairs, (char[32]){0}, 32), n);
    sn__html_figure_open(b, "predict-pairs", cap);
    sn__svg_open(b, 1000, 64 + 26 * (double)drawn, "pair classes");
    sn__svg_axis_x(b, &sx, 20 + 26 * (double)drawn, 14, "one-way bandwidth",
                   "B/s", false);
    for (size_t k = 0; k < drawn; k++) {
        const struct sn_pair_class *c = &cl.items[k];
        double y = 16 + 26 * (double)k;
        char lbl[160], val[64];
        snprintf(lbl, sizeof(lbl), "%s, %llu pairs, e.g. %u\xe2\x86\x92%u",
                 sn_pair_relation_name(c->rel), (unsigned long long)c->count,
                 c->example.src, c->example.dst);
        sn__svg_text_fit(b, 322, y + 13, 316, 12, "end", "lbl", lbl);
        snprintf(val, sizeof(val), "%s, %s, %u hops",
                 UNIT(c->example.uni_bw, SN_UNIT_BANDWIDTH),
                 UNIT(c->example.latency, SN_UNIT_TIME), c->example.hops);
        sn__svg_rect(b, 330, y, sn__svg_map(&sx, c->example.uni_bw) - 330, 18,
                     "f0", NULL, val);
        sn__svg_text(b, 336, y + 13, "start", "bt inv", val);
    }
    sn__svg_close(b);
    if (cl.n > drawn)
        sn_buf_printf(b,
                      "<p class=\"note\">%zu more classes not drawn "
                      "(<code>supernode sim pairs</code> lists them).</p>\n",
                      cl.n - drawn);
    sn__html_figure_close(b);
    sn_pair_classes_release(&cl);
    return SN_OK;
}

/* ---- the model: layout search, step time, size sweep --------------------- */

/* Whether candidate i is on the Pareto front of (memory low, MFU high):
 * no other layout needs no more memory and reaches a higher MFU. */
static bool pareto(const struct sn_train_candidate *c, size_t n, size_t i)
{
    for (size_t k = 0; k < n; k++)
        if (k != i && c[k].result.mem.total <= c[i].result.mem.total &&
            c[k].result.mfu > c[i].result.mfu)
            return false;
    return true;
}

static int front_cmp(const void *a, const void *b)
{
    const double *x = a, *y = b;

    return (x[0] > y[0]) - (x[0] < y[0]);
}

static void fig_search(struct sn_buf *b, const struct sn_train_candidate *c,
                       size_t n, const struct sn_train_search_stats *st)
{
    double mlo = INFINITY, mhi = 0, flo = 0, fhi = 0, (*front)[2];
    struct sn__svg_scale sx, sy;
    size_t nf = 0;
    char cap[160], tip[160];

    for (size_t i = 0; i < n; i++) {
        mlo = fmin(mlo, c[i].result.mem.total / GIB);
        mhi = fmax(mhi, c[i].result.mem.total / GIB);
        fhi = fmax(fhi, 100 * c[i].result.mfu);
    }
    mlo = 0;
    sn__svg_nice_domain(&mlo, &mhi, false);
    sn__svg_nice_domain(&flo, &fhi, false);
    sx = (struct sn__svg_scale){mlo, mhi, 90, 960, false};
    sy = (struct sn__svg_scale){flo, fhi, 300, 20, false};
    snprintf(cap, sizeof(cap),
             "Layout search: the %zu fastest of %llu "
             "layouts that fit (%llu pass the rules), MFU against memory",
             n, (unsigned long long)st->fitting,
             (unsigned long long)st->enumerated);
    sn__html_figure_open(b, "predict-search", cap);
    sn__svg_open(b, 1000, 366, "layout search");
    sn__svg_axis_x(b, &sx, 300, 20, "memory per accelerator", "GiB", false);
    sn__svg_axis_y(b, &sy, 90, 960, "MFU", "%", false);
    front = sn_xcalloc(n + 1, sizeof(*front));
    for (size_t i = n; i-- > 0;) {
        const struct sn_train_layout *l = &c[i].layout;
        double x = sn__svg_map(&sx, c[i].result.mem.total / GIB);
        double y = sn__svg_map(&sy, 100 * c[i].result.mfu);
        bool on = pareto(c, n, i);
        snprintf(tip, sizeof(tip),
                 "#%zu tp %d pp %d dp %d cp %d ep %d mbs %d: MFU %.1f%%, "
                 "%.1f GiB, step %.3f s",
                 i + 1, l->tp, l->pp, l->dp, l->cp, l->ep, l->mbs,
                 100 * c[i].result.mfu, c[i].result.mem.total / GIB,
                 c[i].result.step_time);
        sn__svg_marker(b, x, y, on ? 1 : 0, on ? "f1 mk" : "f0 mk", tip);
        if (on) {
            front[nf][0] = x;
            front[nf++][1] = y;
        }
    }
    qsort(front, nf, sizeof(*front), front_cmp);
    {
        double fx[SCATTER_MAX], fy[SCATTER_MAX];
        for (size_t k = 0; k < nf && k < SCATTER_MAX; k++) {
            fx[k] = front[k][0];
            fy[k] = front[k][1];
        }
        sn__svg_path(b, fx, fy, nf < SCATTER_MAX ? nf : SCATTER_MAX, "front");
    }
    free(front);
    {
        /* the chosen layout: the fastest, ringed and labelled */
        double x = sn__svg_map(&sx, c[0].result.mem.total / GIB);
        double y = sn__svg_map(&sy, 100 * c[0].result.mfu);
        const struct sn_train_layout *l = &c[0].layout;
        sn_buf_printf(b,
                      "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"8\" "
                      "class=\"pick\"/>\n",
                      x, y);
        snprintf(tip, sizeof(tip), "chosen: tp %d pp %d dp %d, MFU %.1f%%",
                 l->tp, l->pp, l->dp, 100 * c[0].result.mfu);
        sn__svg_text(b, x > 700 ? x - 12 : x + 12, y < 40 ? y + 20 : y - 10,
                     x > 700 ? "end" : "start", "hd", tip);
    }
    sn__svg_marker(b, 100, 352, 0, "f0 mk", NULL);
    sn__svg_text(b, 110, 356, "start", "sm", "a layout");
    sn__svg_marker(b, 200, 352, 1, "f1 mk", NULL);
    sn__svg_text(b, 210, 356, "start", "sm", "on the Pareto front (dashed)");
    sn_buf_puts(b, "<circle cx=\"430\" cy=\"352\" r=\"6\" "
                   "class=\"pick\"/>\n");
    sn__svg_text(b, 442, 356, "start", "sm", "chosen: the fastest");
    sn__svg_close(b);
    sn__html_figure_close(b);
}

static void fig_step(struct sn_buf *b, const struct sn_train_candidate *best)
{
    const struct sn_train_result *r = &best->result;
    struct sn__svg_scale s = {0, r->step_time, 20, 980, false};
    double x = 20;
    size_t shown = 0, parts = 0;
    char cap[128];

    snprintf(cap, sizeof(cap),
             "Where the chosen layout's step of %.3f s "
             "goes",
             r->step_time);
    sn__html_figure_open(b, "predict-step", cap);
    for (int p = 0; p < SN_PART_COUNT; p++)
        parts += r->part[p] > 0;
    sn__svg_open(b, 1000, 56 + 16 * (double)((parts + 1) / 2), "step time");
    for (int p = 0; p < SN_PART_COUNT; p++) {
        char cls[16], lbl[96];
        double w;
        if (!(r->part[p] > 0))
            continue;
        w = sn__svg_map(&s, r->part[p]) - 20;
        snprintf(cls, sizeof(cls), "f%zu", shown % 7);
        snprintf(lbl, sizeof(lbl), "%s %s (%.1f%%)",
                 sn_train_part_name((enum sn_train_part)p),
                 UNIT(r->part[p], SN_UNIT_TIME),
                 100 * r->part[p] / r->step_time);
        sn__svg_rect(b, x, 10, w, 26, cls, NULL, lbl);
        /* the legend under the bar: colour, name, value; two columns */
        sn__svg_rect(b, 20 + 480 * (double)(shown % 2),
                     50 + 16 * (double)(shown / 2), 12, 12, cls, NULL, NULL);
        sn__svg_text_fit(b, 38 + 480 * (double)(shown % 2),
                         60 + 16 * (double)(shown / 2), 440, 12, "start", "lbl",
                         lbl);
        x += w;
        shown++;
    }
    sn__svg_close(b);
    sn__html_figure_close(b);
}

/* How far the chosen layout's figure can be trusted: its class's band
 * and the known gaps it meets (docs/model.md), under the figures. */
static void trust_html(struct sn_buf *b, const struct sn_html_in *in,
                       const struct sn_train_candidate *best, int accels)
{
    struct sn_band_pick band;
    struct sn_buf t;
    double tps = best->result.tokens_per_s / accels;
    unsigned gaps =
        sn_train_gaps(in->model, &best->layout, in->spec->accel->name,
                      !sn_spec_section(in->spec, "software"));
    bool any = false;

    sn_buf_init(&t);
    sn_buf_printf(&t, "%.0f tokens/s per accelerator (", tps);
    sn_render_band_text(
        &t, tps, false,
        sn_train_band(in->model, in->spec->accel->name, &band) ? &band : NULL);
    sn_buf_printf(&t, ")");
    sn_buf_puts(b, "<p class=\"note\">The chosen layout: ");
    sn__html_escape(b, t.data);
    sn_buf_puts(b, "; the band is P10-P90 of measured / predicted over the "
                   "public runs of its class. Known gaps it meets "
                   "(docs/model.md):");
    for (size_t i = 0; i < sn_ngaps; i++) {
        if (!(gaps & (1u << i)))
            continue;
        sn_buf_printf(b, "%s <b>%s</b> ", any ? ";" : "", sn_gaps[i].id);
        sn__html_escape(b, sn_gaps[i].what);
        any = true;
    }
    sn_buf_puts(b, any ? ".</p>\n" : " none.</p>\n");
    sn_buf_release(&t);
}

static int search(struct sn_buf *b, const struct sn_html_in *in,
                  struct sn_error *err)
{
    struct sn_train_env env = {0};
    struct sn_train *t = NULL;
    struct sn_train_opts so;
    const struct sn_train_software *sw;
    struct sn_train_search s;
    struct sn_train_search_stats st;
    struct sn_train_candidate *top = sn_xcalloc(SCATTER_MAX, sizeof(*top));
    size_t ntop = 0;
    int rc, total = sn_spec_total_accels(in->spec);

    sn_train_opts_default(&so);
    /* the spec's software: section, as sim train and sweep read it */
    if ((rc = sn_train_software_parse(in->spec->file,
                                      sn_spec_section(in->spec, "software"),
                                      &sw, &so, err)))
        goto out;
    sn_train_search_default(&s);
    s.accels = in->gpus > 0 && in->gpus <= total ? in->gpus : total;
    s.seq = in->model->seq > 0 ? in->model->seq : 4096;
    s.gbs = sn_train_default_gbs(s.accels, s.seq);
    if ((rc = sn_train_env_init(&env, in->spec, err)) ||
        (rc = sn_train_new(in->model, &env.sys, &t, err)) ||
        (rc = sn_train_search_run(t, &s, &so, top, SCATTER_MAX, &ntop, &st,
                                  err)))
        goto out;
    sn_buf_puts(b, "<h3>Training ");
    sn__html_escape(b,
                    in->model->display ? in->model->display : in->model->name);
    sn_buf_printf(b, " on %d accelerators</h3>\n", s.accels);
    if (!ntop) {
        sn_buf_puts(b, "<p class=\"note\">No layout fits in memory "
                       "(<code>supernode sim train --search</code> finds "
                       "the smallest count that does).</p>\n");
        goto out;
    }
    fig_search(b, top, ntop, &st);
    fig_step(b, &top[0]);
    trust_html(b, in, &top[0], s.accels);
out:
    free(top);
    sn_train_free(t);
    sn_train_env_release(&env);
    return rc;
}

/* The supernode sizes swept: the node's accelerators doubled up to the
 * design's domain, and the design's own; at most SWEEP_MAX. */
static size_t sweep_values(const struct sn_spec *spec, char (*buf)[16],
                           const char **values)
{
    int node = spec->scaleup.per_node > 0 ? spec->scaleup.per_node : 1;
    int own = spec->scaleup.accelerators, n = 0;

    /* up to the design's own: a fabric built for one size rarely takes
     * a larger domain (the switch ports run out) */
    for (int v = node; v < own && n < SWEEP_MAX - 1; v *= 2) {
        snprintf(buf[n], 16, "%d", v);
        values[n] = buf[n];
        n++;
    }
    snprintf(buf[n], 16, "%d", own);
    values[n] = buf[n];
    return (size_t)n + 1;
}

static void fig_sweep(struct sn_buf *b, const struct sn_html_in *in)
{
    struct sn_sweep s = {0};
    struct sn_sweep_point *pts = NULL;
    const char *values[SWEEP_MAX];
    char buf[SWEEP_MAX][16];
    double x[SWEEP_MAX], y[SWEEP_MAX], lo = 0, hi = 0, dlo, dhi;
    struct sn__svg_scale sx, sy;
    struct sn_error err;
    size_t nv = sweep_values(in->spec, buf, values), ok = 0;

    if (nv < 2)
        return;
    s.spec_path =
        in->spec_path && !sn_streq(in->spec_path, SN_SPEC_DEFAULT_NAME)
            ? in->spec_path
            : NULL;
    s.key = "supernode.accelerators";
    s.fixed_keys = in->set_keys;
    s.fixed_values = in->set_values;
    s.nfixed = in->nsets;
    s.values = values;
    s.nvalues = nv;
    s.model = in->model;
    s.gpus = in->gpus;
    pts = sn_xcalloc(nv, sizeof(*pts));
    if (sn_sweep_run(&s, pts, &err)) {
        sn_buf_puts(b, "<p class=\"note\">No size sweep: ");
        sn__html_escape(b, err.msg);
        sn_buf_puts(b, "</p>\n");
        free(pts);
        return;
    }
    for (size_t i = 0; i < nv; i++) {
        x[i] = y[i] = NAN;
        if (pts[i].ok && pts[i].have_best) {
            hi = fmax(hi, pts[i].tokens_per_accel);
            ok++;
        }
    }
    if (!ok) {
        free(pts);
        return;
    }
    sn__svg_nice_domain(&lo, &hi, false);
    dlo = pts[0].domain > 0 ? pts[0].domain : 1;
    dhi = pts[nv - 1].domain > dlo ? pts[nv - 1].domain : dlo * 2;
    sx = (struct sn__svg_scale){dlo, dhi, 90, 780, true};
    sy = (struct sn__svg_scale){lo, hi, 270, 20, false};
    sn__html_figure_open(b, "predict-sweep",
                         "Supernode size: throughput per accelerator, with "
                         "goodput");
    sn__svg_open(b, 1000, 320, "supernode size sweep");
    sn__svg_axis_x(b, &sx, 270, 20, "accelerators per supernode", "", false);
    sn__svg_axis_y(b, &sy, 90, 780, "tokens/s per accelerator", "", false);
    for (int series = 0; series < 2; series++) {
        char cls[16], tip[128];
        for (size_t i = 0; i < nv; i++) {
            const struct sn_sweep_point *p = &pts[i];
            double v = series ? p->effective_per_accel : p->tokens_per_accel;
            x[i] = y[i] = NAN;
            if (!p->ok || !p->have_best)
                continue;
            x[i] = sn__svg_map(&sx, p->domain);
            y[i] = sn__svg_map(&sy, v);
        }
        snprintf(cls, sizeof(cls), "s%d", series);
        sn__svg_path(b, x, y, nv, cls);
        snprintf(cls, sizeof(cls), "f%d mk", series);
        for (size_t i = 0; i < nv; i++) {
            const struct sn_sweep_point *p = &pts[i];
            if (!isfinite(x[i]))
                continue;
            snprintf(tip, sizeof(tip),
                     "%d per supernode: %.0f tokens/s, "
                     "%.0f with goodput %.1f%%",
                     p->domain, p->tokens_per_accel, p->effective_per_accel,
                     p->have_goodput ? 100 * p->goodput.goodput : 100.0);
            sn__svg_marker(b, x[i], y[i], series, cls, tip);
            if (series && p->best_value) {
                sn_buf_printf(b,
                              "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"9\" "
                              "class=\"pick\"/>\n",
                              x[i], y[i]);
                snprintf(tip, sizeof(tip), "sweet spot: %d (%.0f tokens/s)",
                         p->domain, p->effective_per_accel);
                sn__svg_text(b, x[i], y[i] + 24, "middle", "hd", tip);
            }
        }
    }
    legend_entry(b, 800, 40, 0, "tokens/s");
    legend_entry(b, 800, 60, 1, "with goodput");
    sn__svg_close(b);
    sn__html_figure_close(b);
    free(pts);
}

int sn__html_predict(struct sn_buf *b, const struct sn_html_in *in,
                     struct sn_error *err)
{
    struct sn_coll_model *m = NULL;
    int rc;

    if (!in->topo || !in->spec)
        return SN_OK;
    if ((rc = sn_coll_model_new(in->topo, &m, err)))
        return rc;
    sn__html_section_open(b, "predict", "Predictions");
    if ((rc = fig_colls(b, in, m)) || (rc = fig_pairs(b, in, m, err)))
        goto out;
    if (in->model) {
        if ((rc = search(b, in, err)))
            goto out;
        fig_sweep(b, in);
    }
    sn__html_section_close(b);
out:
    sn_coll_model_free(m);
    return rc;
}
