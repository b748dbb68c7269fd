/* train.c (render): the predictions of `supernode sim train` as text
 * (memory, step time, throughput, goodput; or --search's ranked table and
 * --explain's layout) or the SN_SCHEMA_TRAIN and SN_SCHEMA_TRAIN_SEARCH
 * documents. The figures are the training model's (model/train*.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sn/goodput.h"
#include "sn/render.h"
#include "sn/spec.h"
#include "sn/train.h"
#include "sn/validate.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

/* How far a figure can be trusted: the band of its class beside the
 * tokens/s per GPU, and the known gaps the layout meets, with what each
 * is (docs/model.md, "Classes and bands", "Known gaps of the training
 * and serving models"). */
static void trust_text(const struct sn_render_train *w,
                       const struct sn_train_layout *l,
                       const struct sn_train_result *r, struct sn_buf *b)
{
    struct sn_band_pick band;
    unsigned gaps = sn_train_gaps(w->model, l, w->spec->accel->name,
                                  !w->software || w->software_assumed);
    char fig[32];

    sn_fmt_count((size_t)(r->tokens_per_s / w->gpus + 0.5), fig, sizeof(fig));
    sn_buf_printf(b, "\nhow far to trust it\n  tokens/s per GPU       %s (",
                  fig);
    sn_render_band_text(
        b, r->tokens_per_s / w->gpus, false,
        sn_train_band(w->model, w->spec->accel->name, &band) ? &band : NULL);
    sn_buf_printf(b, ")\n");
    for (size_t i = 0; i < sn_ngaps; i++)
        if (gaps & (1u << i))
            sn_buf_printf(b, "  known gap %-12s %s\n", sn_gaps[i].id,
                          sn_gaps[i].what);
}

/* "band" (its class and percentiles, the tokens/s per GPU at P10 and
 * P90) and "gaps" (ids) of a result. */
static void trust_json(struct sn_json *j, const struct sn_render_train *w,
                       const struct sn_train_layout *l,
                       const struct sn_train_result *r)
{
    struct sn_band_pick band;
    bool have = sn_train_band(w->model, w->spec->accel->name, &band);
    unsigned gaps = sn_train_gaps(w->model, l, w->spec->accel->name,
                                  !w->software || w->software_assumed);
    double tps = r->tokens_per_s / w->gpus;

    sn_render_trust_json(j, have ? &band : NULL, "tokens_per_s_per_gpu", tps,
                         gaps);
}

void sn_render_train_layout_line(const struct sn_train_layout *l,
                                 struct sn_buf *b)
{
    sn_buf_printf(b,
                  "tp %d  pp %d  dp %d  cp %d  ep %d  vpp %d  mbs %d  gbs %d"
                  "  seq %d  recompute %s  zero %d  sp %s  dtype %s",
                  l->tp, l->pp, l->dp, l->cp, l->ep, l->vpp, l->mbs, l->gbs,
                  l->seq, sn_recompute_name(l->recompute), l->zero,
                  l->sp ? "on" : "off", sn_dtype_name(l->dtype));
    if (l->ep > 1) /* expert TP, Megatron-Core's default tp when not given */
        sn_buf_printf(b, "  etp %d", l->etp > 0 ? l->etp : l->tp);
}

/* What bounds the step, with its figure: "bubble 23%". */
static const char *main_limit(const struct sn_train_result *r, char *buf,
                              size_t size)
{
    double comm = r->part[SN_PART_TP] + r->part[SN_PART_CP] +
                  r->part[SN_PART_EP] + r->part[SN_PART_PP] +
                  r->part[SN_PART_DP];

    switch (r->limit) {
    case SN_LIMIT_MEMORY:
        snprintf(buf, size, "memory (%.1f GiB over)",
                 (r->mem.total - r->mem.capacity) / GIB);
        break;
    case SN_LIMIT_BUBBLE:
        snprintf(buf, size, "bubble %.0f%%",
                 100 * r->part[SN_PART_BUBBLE] / r->step_time);
        break;
    case SN_LIMIT_COMM:
        snprintf(buf, size, "communication %.0f%%", 100 * comm / r->step_time);
        break;
    default:
        snprintf(buf, size, "compute");
        break;
    }
    return buf;
}

static void memory_text(const struct sn_train_memory *m, struct sn_buf *b)
{
    struct sn_table t;
    const struct {
        const char *name;
        double v;
    } rows[] = {
        {"weights", m->weights},     {"gradients", m->gradients},
        {"optimizer", m->optimizer}, {"activations", m->activations},
        {"logits", m->logits},       {"buffers", m->buffers},
    };

    sn_table_init(&t, "  ");
    sn_table_col(&t, "", false);
    sn_table_col(&t, "GiB", true);
    for (size_t i = 0; i < SN_ARRAY_LEN(rows); i++) {
        sn_table_row(&t);
        sn_table_cell(&t, "%s", rows[i].name);
        sn_table_cell(&t, "%.2f", rows[i].v / GIB);
    }
    sn_table_row(&t);
    sn_table_cell(&t, "total");
    sn_table_cell(&t, "%.2f", m->total / GIB);
    sn_buf_printf(b, "memory per accelerator (pipeline stage %d)\n", m->stage);
    sn_table_render(&t, b);
    sn_table_release(&t);
    if (m->fits)
        sn_buf_printf(b, "  fits: %.2f of %.2f GiB HBM (%.2f GiB free)\n",
                      m->total / GIB, m->capacity / GIB,
                      (m->capacity - m->total) / GIB);
    else
        sn_buf_printf(b,
                      "  DOES NOT FIT: %.2f GiB needed, %.2f GiB of HBM, "
                      "%.2f GiB over\n",
                      m->total / GIB, m->capacity / GIB,
                      (m->total - m->capacity) / GIB);
}

static void step_text(const struct sn_train_result *r, enum sn_dtype dtype,
                      int gpus, struct sn_buf *b)
{
    struct sn_table t;
    char lim[64];
    const char *dt = sn_dtype_name(dtype);

    sn_table_init(&t, "  ");
    sn_table_col(&t, "", false);
    sn_table_col(&t, "seconds", true);
    sn_table_col(&t, "share", true);
    for (int p = 0; p < SN_PART_COUNT; p++) {
        sn_table_row(&t);
        sn_table_cell(&t, "%s", sn_train_part_name(p));
        sn_table_cell(&t, "%.4f", r->part[p]);
        sn_table_cell(&t, "%.1f%%", 100 * r->part[p] / r->step_time);
    }
    sn_table_row(&t);
    sn_table_cell(&t, "step");
    sn_table_cell(&t, "%.4f", r->step_time);
    sn_table_cell(&t, "100.0%%");
    sn_buf_printf(b, "\nstep time (%d micro-batches per pipeline)\n",
                  r->microbatches);
    sn_table_render(&t, b);
    sn_table_release(&t);
    sn_buf_printf(b,
                  "\nthroughput\n"
                  "  tokens/s               %.0f (%.1f per accelerator)\n"
                  "  model TFLOP/s per GPU  %.1f\n"
                  "  MFU                    %.1f%% of the %s peak, %.1f "
                  "TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, "
                  "no recompute)\n"
                  "  HFU                    %.1f%% (with recompute: "
                  "96-coefficient for full)\n"
                  "  limited by             %s\n",
                  r->tokens_per_s, r->tokens_per_s / gpus,
                  r->flops_per_gpu / 1e12, 100 * r->mfu, dt, r->peak / 1e12,
                  100 * r->hfu, main_limit(r, lim, sizeof(lim)));
    /* whether every GEMM's rate came from a measured kernel table
     * (sn/kernels.h) */
    sn_buf_printf(b, "  GEMM rates             %s\n",
                  r->kernels_extrapolated
                      ? "extrapolated (a shape or type outside the "
                        "measured kernel tables)"
                      : "from measured kernel tables");
}

static void goodput_text(const struct sn_goodput_result *g, const char *why,
                         struct sn_buf *b)
{
    char as[320];

    if (!g) {
        sn_buf_printf(b, "\ngoodput: not computed (%s)\n", why ? why : "");
        return;
    }
    sn_buf_printf(b,
                  "\ngoodput under failures\n"
                  "  job MTBF               %.2f h\n"
                  "  checkpoint write       %.1f s, restart %.1f s\n"
                  "  interval Young / Daly  %.1f / %.1f min\n"
                  "  waste                  checkpoints %.1f%%, rework "
                  "%.1f%%, restarts %.1f%%, supernodes out %.1f%%\n"
                  "  ETTR                   %.1f%%\n"
                  "  goodput                %.1f%% (spares %.1f%% of the "
                  "accelerators)\n",
                  g->mtbf / 3600, g->checkpoint_write, g->restart,
                  g->young / 60, g->daly / 60, 100 * g->waste_checkpoint,
                  100 * g->waste_rework, 100 * g->waste_restart,
                  100 * g->waste_supernode, 100 * g->ettr, 100 * g->goodput,
                  100 * g->spare_fraction);
    sn_goodput_assumption(g, as, sizeof(as));
    sn_buf_printf(b, "  assumes                %s\n", as);
}

void sn_render_train_layout_json(struct sn_json *j,
                                 const struct sn_train_layout *l, unsigned what)
{
    sn_json_key(j, "layout");
    sn_json_obj_begin(j);
    sn_json_kint(j, "tp", l->tp);
    sn_json_kint(j, "pp", l->pp);
    sn_json_kint(j, "dp", l->dp);
    sn_json_kint(j, "cp", l->cp);
    sn_json_kint(j, "ep", l->ep);
    if (l->ep > 1)
        sn_json_kint(j, "etp", l->etp > 0 ? l->etp : l->tp);
    sn_json_kint(j, "vpp", l->vpp);
    sn_json_kint(j, "mbs", l->mbs);
    sn_json_kint(j, "gbs", l->gbs);
    if (what & SN_RENDER_LAYOUT_SEQ)
        sn_json_kint(j, "seq", l->seq);
    sn_json_kstr(j, "recompute", sn_recompute_name(l->recompute));
    sn_json_kint(j, "zero", l->zero);
    if (what & SN_RENDER_LAYOUT_PRECISION) {
        sn_json_kbool(j, "sp", l->sp);
        sn_json_kstr(j, "dtype", sn_dtype_name(l->dtype));
    }
    sn_json_obj_end(j);
}

static void memory_json(struct sn_json *j, const struct sn_train_memory *m)
{
    sn_json_obj_begin(j);
    sn_json_kint(j, "stage", m->stage);
    sn_json_knum(j, "weights_bytes", m->weights);
    sn_json_knum(j, "gradients_bytes", m->gradients);
    sn_json_knum(j, "optimizer_bytes", m->optimizer);
    sn_json_knum(j, "activations_bytes", m->activations);
    sn_json_knum(j, "logits_bytes", m->logits);
    sn_json_knum(j, "buffers_bytes", m->buffers);
    sn_json_knum(j, "total_bytes", m->total);
    sn_json_knum(j, "capacity_bytes", m->capacity);
    sn_json_kbool(j, "fits", m->fits);
    sn_json_knum(j, "over_bytes", m->fits ? 0 : m->total - m->capacity);
    sn_json_obj_end(j);
}

static void result_json(struct sn_json *j, const struct sn_train_result *r)
{
    sn_json_knum(j, "step_time_s", r->step_time);
    sn_json_knum(j, "tokens_per_s", r->tokens_per_s);
    sn_json_knum(j, "model_flops_per_gpu", r->flops_per_gpu);
    sn_json_knum(j, "mfu", r->mfu);
    sn_json_knum(j, "mfu_peak_flops", r->peak);
    sn_json_knum(j, "hfu", r->hfu);
    sn_json_knum(j, "model_flops_per_step", r->flops.model);
    sn_json_knum(j, "hardware_flops_per_step", r->flops.hw);
    sn_json_kint(j, "microbatches", r->microbatches);
    sn_json_kstr(j, "limit", sn_train_limit_name(r->limit));
    sn_json_kbool(j, "kernels_extrapolated", r->kernels_extrapolated);
    sn_json_key(j, "memory");
    memory_json(j, &r->mem);
    sn_json_key(j, "breakdown");
    sn_json_obj_begin(j);
    for (int p = 0; p < SN_PART_COUNT; p++)
        sn_json_knum(j, sn_train_part_name(p), r->part[p]);
    sn_json_obj_end(j);
}

static void goodput_json(struct sn_json *j, const struct sn_goodput_result *g)
{
    sn_json_key(j, "goodput");
    if (!g) {
        sn_json_null(j);
        return;
    }
    sn_json_obj_begin(j);
    sn_json_knum(j, "mtbf_s", g->mtbf);
    sn_json_knum(j, "checkpoint_write_s", g->checkpoint_write);
    sn_json_knum(j, "restart_s", g->restart);
    sn_json_knum(j, "young_interval_s", g->young);
    sn_json_knum(j, "daly_interval_s", g->daly);
    sn_json_knum(j, "ettr", g->ettr);
    sn_json_knum(j, "spare_fraction", g->spare_fraction);
    sn_json_knum(j, "goodput", g->goodput);
    sn_json_knum(j, "waste_supernodes_out", g->waste_supernode);
    sn_json_kstr(j, "fault_domain",
                 g->domain == SN_FAULT_JOB ? "job" : "supernode");
    if (g->spares < 0)
        sn_json_kstr(j, "spares", "unlimited");
    else
        sn_json_kint(j, "spares", g->spares);
    sn_json_knum(j, "repair_s", g->repair);
    sn_json_key(j, "failures_per_hour");
    sn_json_obj_begin(j);
    for (int c = 0; c < SN_FAIL_COUNT; c++)
        sn_json_knum(j, sn_fail_class_name(c), g->rate[c]);
    sn_json_obj_end(j);
    sn_json_obj_end(j);
}

/* "MODEL on N x ACCEL (SPEC, D per scale-up domain)" */
static void head(const struct sn_render_train *w, struct sn_buf *b)
{
    const struct sn_model_info *m = w->model;
    const struct sn_spec *spec = w->spec;

    sn_buf_put_esc(b, SN_ESC_TERM, m->display ? m->display : m->name);
    sn_buf_printf(b, " on %d x ", w->gpus);
    sn_buf_put_esc(b, SN_ESC_TERM, spec->accel->name);
    sn_buf_puts(b, " (");
    sn_buf_put_esc(b, SN_ESC_TERM, spec->name ? spec->name : "spec");
    sn_buf_printf(b, ", %d per scale-up domain)\n", spec->scaleup.accelerators);
}

static void min_fit_text(const struct sn_render_train *w, struct sn_buf *b)
{
    if (w->min_gpus > 0)
        sn_buf_printf(b,
                      "the smallest accelerator count with a layout that "
                      "fits: %d (searched in multiples of %d)\n",
                      w->min_gpus, w->spec->scaleup.per_node);
    else
        sn_buf_printf(b,
                      "no accelerator count up to %d has a layout that "
                      "fits\n",
                      w->max_gpus);
}

/* The ranked table of the layouts that fit (etp after ep for MoE). */
static void search_table(const struct sn_render_train *w,
                         const struct sn_train_candidate *top, size_t n,
                         struct sn_buf *b)
{
    struct sn_band_pick band;
    bool have = sn_train_band(w->model, w->spec->accel->name, &band);
    struct sn_table t;
    static const char *const cols[] = {
        "#",         "tp",   "pp",     "dp",       "cp",  "ep",  "vpp", "mbs",
        "recompute", "zero", "step s", "tokens/s", "MFU", "GiB", NULL};
    char lim[64];
    bool moe = false;

    for (size_t i = 0; i < n; i++)
        moe = moe || top[i].layout.ep > 1;
    sn_table_init(&t, "");
    for (size_t c = 0; cols[c]; c++) {
        sn_table_col(&t, cols[c], c != 9);
        if (moe && !strcmp(cols[c], "ep"))
            sn_table_col(&t, "etp", true);
    }
    sn_table_col(&t, "limited by", false);
    sn_table_col(&t, "tok/s/GPU band", true);
    sn_table_col(&t, "gaps", false);
    for (size_t i = 0; i < n; i++) {
        struct sn_buf cell;
        char gaps[64];
        const struct sn_train_layout *l = &top[i].layout;
        const struct sn_train_result *r = &top[i].result;
        sn_table_row(&t);
        sn_table_cell(&t, "%zu", i + 1);
        sn_table_cell(&t, "%d", l->tp);
        sn_table_cell(&t, "%d", l->pp);
        sn_table_cell(&t, "%d", l->dp);
        sn_table_cell(&t, "%d", l->cp);
        sn_table_cell(&t, "%d", l->ep);
        if (moe)
            sn_table_cell(&t, "%d", l->etp > 0 ? l->etp : l->tp);
        sn_table_cell(&t, "%d", l->vpp);
        sn_table_cell(&t, "%d", l->mbs);
        sn_table_cell(&t, "%s", sn_recompute_name(l->recompute));
        sn_table_cell(&t, "%d", l->zero);
        sn_table_cell(&t, "%.3f", r->step_time);
        sn_table_cell(&t, "%.0f", r->tokens_per_s);
        sn_table_cell(&t, "%.1f%%", 100 * r->mfu);
        sn_table_cell(&t, "%.1f", r->mem.total / GIB);
        sn_table_cell(&t, "%s", main_limit(r, lim, sizeof(lim)));
        sn_buf_init(&cell);
        if (have) {
            /* "2,900-3,600": the band's ends only; its class is said once
             * under the table */
            sn_render_band_range(&cell, r->tokens_per_s / w->gpus, false,
                                 &band);
            sn_table_cell(&t, "%s", cell.data);
        } else {
            sn_table_cell(&t, "-");
        }
        sn_buf_release(&cell);
        sn_gaps_ids(sn_train_gaps(w->model, l, w->spec->accel->name,
                                  !w->software || w->software_assumed),
                    gaps, sizeof(gaps));
        sn_table_cell(&t, "%s", gaps[0] ? gaps : "-");
    }
    sn_table_render(&t, b);
    sn_table_release(&t);
    if (have)
        sn_buf_printf(b,
                      "band: P10-P90 of measured / predicted for %s%s (%d "
                      "rows from %d sources); gaps: docs/model.md\n",
                      band.label, band.fallback ? " (its parent class)" : "",
                      band.rows, band.sources);
}

/* --explain K: the K-th layout in full, and where its time goes against
 * the first. */
static void explain_text(const struct sn_train_candidate *c, size_t k,
                         const struct sn_train_candidate *best, int gpus,
                         struct sn_buf *b)
{
    sn_buf_printf(b, "\nlayout #%zu: ", k);
    sn_render_train_layout_line(&c->layout, b);
    sn_buf_printf(b, "\n");
    memory_text(&c->result.mem, b);
    step_text(&c->result, c->layout.dtype, gpus, b);
    if (k > 1) {
        sn_buf_printf(b, "\nagainst #1 (%.3f s), where the %.3f s go:\n",
                      best->result.step_time,
                      c->result.step_time - best->result.step_time);
        for (int p = 0; p < SN_PART_COUNT; p++) {
            double d = c->result.part[p] - best->result.part[p];
            if (fabs(d) >= 0.0005 * best->result.step_time)
                sn_buf_printf(b, "  %-10s %+.4f s\n", sn_train_part_name(p), d);
        }
    }
}

/* The software line: the profile, or the assumption and the band's
 * other end when the user gave none. */
static void software_text(const struct sn_render_train *w, struct sn_buf *b)
{
    /* the figure the plain one is compared with: the layout's, or the
     * search's first */
    const struct sn_train_result *r =
        w->result ? w->result : (w->ntop ? &w->top[0].result : NULL);

    if (!w->software)
        return;
    sn_buf_printf(b, "software: %s%s (host CPU %s)\n", w->software,
                  w->software_assumed ? ", assumed: none given (--software "
                                        "or the spec's software: section)"
                                      : "",
                  w->host_cpu ? w->host_cpu : "not modelled");
    if (w->software_assumed && w->plain && r && r->mem.fits &&
        w->plain->step_time > 0)
        sn_buf_printf(b,
                      "  on the plain eager stack: %.0f tokens/s (%+.1f%% "
                      "against %s below)\n",
                      w->plain->tokens_per_s,
                      100 * (w->plain->tokens_per_s / r->tokens_per_s - 1),
                      w->result ? "the figures" : "the first layout");
}

static void search_text(const struct sn_render_train *w, struct sn_buf *b)
{
    const struct sn_train_layout *l = w->layout;
    const struct sn_train_search_stats *st = w->stats;

    head(w, b);
    software_text(w, b);
    sn_buf_printf(b,
                  "global batch %d x %d tokens, %s; MFU against the "
                  "dense %s peak, %.1f TFLOP/s\n",
                  l->gbs, l->seq, sn_dtype_name(l->dtype),
                  sn_dtype_name(l->dtype), w->peak / 1e12);
    sn_buf_printf(b,
                  "searched %llu layouts that pass the rules, %llu fit in "
                  "memory, in %.3f s\n",
                  (unsigned long long)st->enumerated,
                  (unsigned long long)st->fitting, st->seconds);
    if (!w->ntop) {
        sn_buf_printf(b, "no layout fits\n");
        min_fit_text(w, b);
        return;
    }
    search_table(w, w->top, w->ntop, b);
    if (w->explain >= 1 && w->explain <= w->ntop)
        explain_text(&w->top[w->explain - 1], w->explain, &w->top[0], w->gpus,
                     b);
}

static void layout_text(const struct sn_render_train *w, struct sn_buf *b)
{
    const struct sn_train_result *r = w->result;

    head(w, b);
    software_text(w, b);
    sn_buf_printf(b, "layout: ");
    sn_render_train_layout_line(w->layout, b);
    sn_buf_printf(b, "\n\n");
    memory_text(&r->mem, b);
    if (r->mem.fits) {
        step_text(r, w->layout->dtype, w->gpus, b);
        trust_text(w, w->layout, r, b);
        goodput_text(w->goodput, w->goodput_why, b);
    } else {
        sn_buf_printf(b, "\nno step time, throughput or goodput: "
                         "the layout does not fit\n");
        min_fit_text(w, b);
    }
}

void sn_render_train_text(const struct sn_render_train *w, struct sn_buf *out)
{
    if (w->stats)
        search_text(w, out);
    else
        layout_text(w, out);
}

/* "software": {"profile", "assumed", "host_cpu", ["plain_tokens_per_s"]} */
static void software_json(const struct sn_render_train *w, struct sn_json *j)
{
    if (!w->software)
        return;
    sn_json_key(j, "software");
    sn_json_obj_begin(j);
    sn_json_kstr(j, "profile", w->software);
    sn_json_kbool(j, "assumed", w->software_assumed);
    if (w->host_cpu)
        sn_json_kstr(j, "host_cpu", w->host_cpu);
    if (w->software_assumed && w->plain && w->plain->mem.fits)
        sn_json_knum(j, "plain_tokens_per_s", w->plain->tokens_per_s);
    sn_json_obj_end(j);
}

static void search_json(const struct sn_render_train *w, struct sn_json *j)
{
    sn_json_kstr(j, "schema", SN_SCHEMA_TRAIN_SEARCH);
    sn_json_kstr(j, "model", w->model->name);
    sn_json_kstr(j, "accelerator", w->spec->accel->name);
    sn_json_kint(j, "gpus", w->gpus);
    sn_json_kint(j, "enumerated", (long long)w->stats->enumerated);
    sn_json_kint(j, "fitting", (long long)w->stats->fitting);
    software_json(w, j);
    if (!w->ntop)
        sn_json_kint(j, "min_accelerators", w->min_gpus);
    sn_json_key(j, "layouts");
    sn_json_arr_begin(j);
    for (size_t i = 0; i < w->ntop; i++) {
        sn_json_obj_begin(j);
        sn_json_kint(j, "rank", (long long)i + 1);
        sn_render_train_layout_json(j, &w->top[i].layout, SN_RENDER_LAYOUT_ALL);
        result_json(j, &w->top[i].result);
        trust_json(j, w, &w->top[i].layout, &w->top[i].result);
        sn_json_obj_end(j);
    }
    sn_json_arr_end(j);
}

static void layout_json(const struct sn_render_train *w, struct sn_json *j)
{
    const struct sn_train_result *r = w->result;

    sn_json_kstr(j, "schema", SN_SCHEMA_TRAIN);
    sn_json_kstr(j, "spec", w->spec->name);
    sn_json_kstr(j, "model", w->model->name);
    sn_json_knum(j, "params", sn_train_params(w->model, NULL));
    sn_json_kstr(j, "accelerator", w->spec->accel->name);
    sn_json_kint(j, "gpus", w->gpus);
    sn_json_kint(j, "scaleup_domain", w->spec->scaleup.accelerators);
    sn_render_train_layout_json(j, w->layout, SN_RENDER_LAYOUT_ALL);
    software_json(w, j);
    if (r->mem.fits) {
        result_json(j, r);
        trust_json(j, w, w->layout, r);
        goodput_json(j, w->goodput);
    } else {
        /* a layout that does not fit has no step time: its memory and
         * the count at which some layout fits, nothing else */
        sn_json_kbool(j, "fits", false);
        sn_json_kint(j, "min_accelerators", w->min_gpus);
        sn_json_key(j, "memory");
        memory_json(j, &r->mem);
    }
}

void sn_render_train_json(const struct sn_render_train *w, struct sn_buf *out)
{
    struct sn_json j;

    sn_json_init(&j, out, true);
    sn_json_obj_begin(&j);
    if (w->stats)
        search_json(w, &j);
    else
        layout_json(w, &j);
    sn_json_obj_end(&j);
    sn_buf_putc(out, '\n');
}
