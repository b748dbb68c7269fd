/* validate.c (render): `supernode validate`'s comparison of predicted
 * with measured runs as tables (per row, the error summary, by source,
 * the layout ranking) or the SN_SCHEMA_VALIDATE document. The figures are
 * the validator's (model/validate*.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sn/render.h"
#include "sn/validate.h"

/* A source cell shortened for the table: up to the first comma or
 * parenthesis, at most 40 characters. */
static void short_source(const char *s, char *out, size_t size)
{
    size_t n = strcspn(s, ",(");

    while (n > 0 && s[n - 1] == ' ')
        n--;
    if (n > 40)
        n = 40;
    if (n >= size)
        n = size - 1;
    /* not inside a character */
    while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
        n--;
    memcpy(out, s, n);
    out[n] = '\0';
}

/* A percentage cell, "-" when there is no figure (no row predicted). */
static void pct_cell(struct sn_table *t, const char *fmt, double v)
{
    if (isfinite(v))
        sn_table_cell(t, fmt, v);
    else
        sn_table_cell(t, "-");
}

/* The statistics columns shared by the source and class tables. */
static void stats_cols(struct sn_table *t)
{
    sn_table_col(t, "median |err|", true);
    sn_table_col(t, "P90 |err|", true);
    sn_table_col(t, "signed mean", true);
    sn_table_col(t, "optimistic", true);
}

static void stats_cells(struct sn_table *t, const struct sn_validate_stats *st)
{
    pct_cell(t, "%.2f%%", st->median_abs_pct);
    pct_cell(t, "%.2f%%", st->p90_abs_pct);
    pct_cell(t, "%+.2f%%", st->signed_mean_pct);
    pct_cell(t, "%.0f%%", st->optimistic_share * 100);
}

/* Per class of each dimension: rows, sources and the error figures. */
static void classes_text(const struct sn_validate_report *rep, struct sn_buf *b)
{
    struct sn_table t;

    if (!rep->nclasses)
        return;
    sn_table_init(&t, "");
    sn_table_col(&t, "dimension", false);
    sn_table_col(&t, "class", false);
    sn_table_col(&t, "rows", true);
    sn_table_col(&t, "sources", true);
    stats_cols(&t);
    for (size_t c = 0; c < rep->nclasses; c++) {
        const struct sn_validate_class *x = &rep->classes[c];
        sn_table_row(&t);
        sn_table_cell(&t, "%s", x->dim_name);
        sn_table_cell(&t, "%s", sn_validate_class_label(x->name));
        sn_table_cell(&t, "%zu", x->st.n);
        sn_table_cell(&t, "%zu", x->st.sources);
        stats_cells(&t, &x->st);
    }
    sn_buf_printf(b, "\nby class (signed: + when the model is optimistic, "
                     "faster than measured)\n");
    sn_table_render(&t, b);
    sn_table_release(&t);
    sn_buf_printf(b,
                  "leave-one-source-out bands: %zu of %zu predicted rows "
                  "have one from other sources' rows of their class; %zu "
                  "measured within its P10-P90\n",
                  rep->nbanded, rep->npredicted, rep->ncovered);
}

/* Predicted against measured, a row per row of the file. */
static void rows_text(const struct sn_validate_report *rep, struct sn_buf *b)
{
    struct sn_table t;
    char src[48];

    sn_table_init(&t, "");
    sn_table_col(&t, "line", true);
    sn_table_col(&t, "source", false);
    sn_table_col(&t, "model", false);
    sn_table_col(&t, "gpus", true);
    sn_table_col(&t, "system", false);
    sn_table_col(&t, "metric", false);
    sn_table_col(&t, "measured", true);
    sn_table_col(&t, "predicted", true);
    sn_table_col(&t, "error", true);
    sn_table_col(&t, "note", false);
    for (size_t i = 0; i < rep->nrows; i++) {
        const struct sn_validate_row *r = &rep->rows[i];
        short_source(r->source, src, sizeof(src));
        sn_table_row(&t);
        sn_table_cell(&t, "%d", r->line);
        sn_table_cell(&t, "%s", src);
        sn_table_cell(&t, "%s", r->model);
        sn_table_cell(&t, "%d", r->gpus);
        sn_table_cell(&t, "%s", r->system[0] ? r->system : "-");
        sn_table_cell(&t, "%s", r->metric);
        sn_table_cell(&t, "%.4g", r->measured);
        if (r->predicted_ok) {
            sn_table_cell(&t, "%.4g", r->predicted);
            sn_table_cell(&t, "%+.1f%%", r->error_pct);
            sn_table_cell(&t, "%s%s", r->assumed[0] ? "assumed " : "",
                          r->assumed);
        } else {
            sn_table_cell(&t, "-");
            sn_table_cell(&t, "-");
            sn_table_cell(&t, "not predicted: %s", r->reason);
        }
    }
    sn_table_render(&t, b);
    sn_table_release(&t);
}

/* The error by source, and the layout ranking where a source measured
 * several layouts of one model on one GPU count. */
static void sources_text(const struct sn_validate_report *rep, struct sn_buf *b)
{
    struct sn_table t;
    char src[48];

    sn_table_init(&t, "");
    sn_table_col(&t, "source", false);
    sn_table_col(&t, "rows", true);
    sn_table_col(&t, "predicted", true);
    stats_cols(&t);
    sn_table_col(&t, "mean |err|", true);
    for (size_t s = 0; s < rep->nsources; s++) {
        const struct sn_validate_source *x = &rep->sources[s];
        short_source(x->source, src, sizeof(src));
        sn_table_row(&t);
        sn_table_cell(&t, "%s", src);
        sn_table_cell(&t, "%zu", x->n);
        sn_table_cell(&t, "%zu", x->predicted);
        stats_cells(&t, &x->st);
        pct_cell(&t, "%.2f%%", x->mean_abs_pct);
    }
    sn_buf_printf(b, "\nby source\n");
    sn_table_render(&t, b);
    sn_table_release(&t);
    if (!rep->ngroups)
        return;
    sn_table_init(&t, "");
    sn_table_col(&t, "source", false);
    sn_table_col(&t, "model", false);
    sn_table_col(&t, "gpus", true);
    sn_table_col(&t, "layouts", true);
    sn_table_col(&t, "spearman", true);
    sn_table_col(&t, "predicted best vs measured best", true);
    for (size_t g = 0; g < rep->ngroups; g++) {
        const struct sn_validate_group *x = &rep->groups[g];
        short_source(x->source, src, sizeof(src));
        sn_table_row(&t);
        sn_table_cell(&t, "%s", src);
        sn_table_cell(&t, "%s", x->model);
        sn_table_cell(&t, "%d", x->gpus);
        sn_table_cell(&t, "%zu", x->n);
        sn_table_cell(&t, "%.3f", x->spearman);
        sn_table_cell(&t, "%+.1f%%", x->top_gap_pct);
    }
    sn_buf_printf(b, "\nlayout ranking (same source, model and GPU "
                     "count)\n");
    sn_table_render(&t, b);
    sn_table_release(&t);
}

void sn_render_validate_text(const struct sn_validate_report *rep,
                             struct sn_buf *out)
{
    rows_text(rep, out);
    if (rep->npredicted)
        sn_buf_printf(out,
                      "\n%zu of %zu rows predicted; absolute error: median "
                      "%.2f%%, mean %.2f%%\n",
                      rep->npredicted, rep->nrows, rep->median_abs_pct,
                      rep->mean_abs_pct);
    else
        sn_buf_printf(out,
                      "\n0 of %zu rows predicted: no error to report (each "
                      "row's reason is above)\n",
                      rep->nrows);
    if (rep->nworst) {
        sn_buf_printf(out, "worst rows:");
        for (size_t w = 0; w < rep->nworst; w++) {
            const struct sn_validate_row *r = &rep->rows[rep->worst[w]];
            sn_buf_printf(out, "%s line %d ", w ? "," : "", r->line);
            sn_buf_put_esc(out, SN_ESC_TERM, r->model);
            sn_buf_printf(out, " %+.1f%%", r->error_pct);
        }
        sn_buf_printf(out, "\n");
    }
    sources_text(rep, out);
    classes_text(rep, out);
}

static void stats_json(struct sn_json *j, const struct sn_validate_stats *st)
{
    sn_json_kint(j, "rows", (long long)st->n);
    sn_json_kint(j, "sources", (long long)st->sources);
    sn_json_knum(j, "median_abs_error_pct", st->median_abs_pct);
    sn_json_knum(j, "p90_abs_error_pct", st->p90_abs_pct);
    sn_json_knum(j, "signed_mean_error_pct", st->signed_mean_pct);
    sn_json_knum(j, "optimistic_share", st->optimistic_share);
}

/* A band as the documents give it: its class, rows and sources, the
 * percentiles of measured / predicted, and whether a parent stood in. */
void sn_render_band_json(struct sn_json *j, const char *key,
                         const struct sn_band_pick *b)
{
    sn_json_key(j, key);
    if (!b) {
        sn_json_null(j);
        return;
    }
    sn_json_obj_begin(j);
    sn_json_kstr(j, "class", b->cls);
    sn_json_kstr(j, "label", b->label);
    sn_json_kint(j, "rows", b->rows);
    sn_json_kint(j, "sources", b->sources);
    sn_json_knum(j, "p10", b->p10);
    sn_json_knum(j, "p50", b->p50);
    sn_json_knum(j, "p90", b->p90);
    sn_json_kstr(j, "wanted", b->wanted);
    sn_json_kint(j, "wanted_rows", b->wanted_rows);
    sn_json_kbool(j, "fallback", b->fallback);
    sn_json_obj_end(j);
}

void sn_render_trust_json(struct sn_json *j, const struct sn_band_pick *b,
                          const char *figure, double value, unsigned gaps)
{
    char key[96];

    sn_render_band_json(j, "band", b);
    if (b) {
        snprintf(key, sizeof(key), "%s_p10", figure);
        sn_json_knum(j, key, value * b->p10);
        snprintf(key, sizeof(key), "%s_p90", figure);
        sn_json_knum(j, key, value * b->p90);
    }
    sn_json_key(j, "gaps");
    sn_json_arr_begin(j);
    for (size_t i = 0; i < sn_ngaps; i++)
        if (gaps & (1u << i))
            sn_json_str(j, sn_gaps[i].id);
    sn_json_arr_end(j);
}

static void row_json(struct sn_json *j, const struct sn_validate_row *r)
{
    sn_json_obj_begin(j);
    sn_json_kint(j, "line", r->line);
    sn_json_kstr(j, "source", r->source);
    sn_json_kstr(j, "model", r->model);
    sn_json_kstr(j, "gpu", r->gpu);
    sn_json_kint(j, "gpus", r->gpus);
    sn_json_kstr(j, "metric", r->metric);
    sn_json_knum(j, "measured", r->measured);
    if (r->predicted_ok) {
        sn_json_kstr(j, "system", r->system);
        sn_json_knum(j, "predicted", r->predicted);
        sn_json_knum(j, "error_pct", r->error_pct);
        sn_json_knum(j, "step_time_s", r->result.step_time);
        sn_render_train_layout_json(j, &r->layout, SN_RENDER_LAYOUT_PRECISION);
        sn_json_kstr(j, "assumed", r->assumed);
        sn_json_knum(j, "signed_error_pct", r->signed_pct);
        sn_json_kbool(j, "optimistic", r->signed_pct > 0);
        sn_json_key(j, "classes");
        sn_json_obj_begin(j);
        for (int d = 0; d < SN_VDIM_COUNT; d++)
            sn_json_kstr(j,
                         d == SN_VDIM_ARCH  ? (r->infer ? "size" : "arch")
                         : d == SN_VDIM_GEN ? "generation"
                         : d == SN_VDIM_STACK
                             ? (r->infer ? "runtime" : "software")
                             : "host",
                         r->cls[d]);
        sn_json_kstr(j, "source_key", r->source_key);
        sn_json_obj_end(j);
        sn_render_band_json(j, "loso_band", r->band_ok ? &r->band : NULL);
        if (r->band_ok)
            sn_json_kbool(j, "in_band", r->in_band);
        sn_json_key(j, "reason");
        sn_json_null(j);
    } else {
        sn_json_key(j, "predicted");
        sn_json_null(j);
        sn_json_key(j, "error_pct");
        sn_json_null(j);
        sn_json_kstr(j, "reason", r->reason);
    }
    sn_json_obj_end(j);
}

/* "summary": the counts and errors, the worst rows, the sources and the
 * layout-ranking groups. */
static void summary_json(struct sn_json *j,
                         const struct sn_validate_report *rep)
{
    sn_json_key(j, "summary");
    sn_json_obj_begin(j);
    sn_json_kint(j, "rows", (long long)rep->nrows);
    sn_json_kint(j, "predicted", (long long)rep->npredicted);
    sn_json_knum(j, "median_abs_error_pct", rep->median_abs_pct);
    sn_json_knum(j, "mean_abs_error_pct", rep->mean_abs_pct);
    sn_json_key(j, "worst");
    sn_json_arr_begin(j);
    for (size_t w = 0; w < rep->nworst; w++) {
        const struct sn_validate_row *r = &rep->rows[rep->worst[w]];
        sn_json_obj_begin(j);
        sn_json_kint(j, "line", r->line);
        sn_json_kstr(j, "model", r->model);
        sn_json_knum(j, "error_pct", r->error_pct);
        sn_json_obj_end(j);
    }
    sn_json_arr_end(j);
    sn_json_key(j, "sources");
    sn_json_arr_begin(j);
    for (size_t s = 0; s < rep->nsources; s++) {
        const struct sn_validate_source *x = &rep->sources[s];
        sn_json_obj_begin(j);
        sn_json_kstr(j, "source", x->source);
        sn_json_kint(j, "rows", (long long)x->n);
        sn_json_kint(j, "predicted", (long long)x->predicted);
        sn_json_knum(j, "median_abs_error_pct", x->median_abs_pct);
        sn_json_knum(j, "mean_abs_error_pct", x->mean_abs_pct);
        sn_json_knum(j, "p90_abs_error_pct", x->st.p90_abs_pct);
        sn_json_knum(j, "signed_mean_error_pct", x->st.signed_mean_pct);
        sn_json_knum(j, "optimistic_share", x->st.optimistic_share);
        sn_json_obj_end(j);
    }
    sn_json_arr_end(j);
    sn_json_key(j, "classes");
    sn_json_arr_begin(j);
    for (size_t c = 0; c < rep->nclasses; c++) {
        const struct sn_validate_class *x = &rep->classes[c];
        sn_json_obj_begin(j);
        sn_json_kstr(j, "dimension", x->dim_name);
        sn_json_kstr(j, "class", x->name);
        stats_json(j, &x->st);
        sn_json_obj_end(j);
    }
    sn_json_arr_end(j);
    sn_json_key(j, "loso");
    sn_json_obj_begin(j);
    sn_json_kint(j, "banded", (long long)rep->nbanded);
    sn_json_kint(j, "in_band", (long long)rep->ncovered);
    sn_json_obj_end(j);
    sn_json_key(j, "groups");
    sn_json_arr_begin(j);
    for (size_t g = 0; g < rep->ngroups; g++) {
        const struct sn_validate_group *x = &rep->groups[g];
        sn_json_obj_begin(j);
        sn_json_kstr(j, "source", x->source);
        sn_json_kstr(j, "model", x->model);
        sn_json_kint(j, "gpus", x->gpus);
        sn_json_kint(j, "layouts", (long long)x->n);
        sn_json_knum(j, "spearman", x->spearman);
        sn_json_knum(j, "top_measured", x->top_measured);
        sn_json_knum(j, "best_measured", x->best_measured);
        sn_json_knum(j, "top_gap_pct", x->top_gap_pct);
        sn_json_obj_end(j);
    }
    sn_json_arr_end(j);
    sn_json_obj_end(j);
}

void sn_render_validate_json(const struct sn_validate_report *rep,
                             struct sn_buf *out)
{
    struct sn_json j;

    sn_json_init(&j, out, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_VALIDATE);
    sn_json_kstr(&j, "file", rep->file);
    sn_json_key(&j, "rows");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < rep->nrows; i++)
        row_json(&j, &rep->rows[i]);
    sn_json_arr_end(&j);
    summary_json(&j, rep);
    sn_json_obj_end(&j);
    sn_buf_putc(out, '\n');
}

/* One end of a band to two significant digits (the percentiles of a
 * few dozen residuals are not known closer): whole numbers with
 * separators from 100 up. */
static void band_end(double v, char *buf, size_t size)
{
    if (v >= 100 && v < 1e15) {
        double unit = pow(10, floor(log10(v)) - 1);
        sn_fmt_count((size_t)(round(v / unit) * unit + 0.5), buf, size);
    } else {
        snprintf(buf, size, "%.2g", v);
    }
}

void sn_render_band_range(struct sn_buf *out, double v, bool lower_better,
                          const struct sn_band_pick *b)
{
    char lo[32], hi[32];

    if (!b || !isfinite(v)) {
        sn_buf_printf(out, "-");
        return;
    }
    /* a time is divided by measured / predicted: its band's low end
     * comes from the high ratio */
    band_end(lower_better ? v / b->p90 : v * b->p10, lo, sizeof(lo));
    band_end(lower_better ? v / b->p10 : v * b->p90, hi, sizeof(hi));
    sn_buf_printf(out, "%s-%s", lo, hi);
}

void sn_render_band_text(struct sn_buf *out, double v, bool lower_better,
                         const struct sn_band_pick *b)
{
    if (!b || !isfinite(v)) {
        sn_buf_printf(out, "no band");
        return;
    }
    sn_buf_printf(out, "band ");
    sn_render_band_range(out, v, lower_better, b);
    sn_buf_printf(out, ", %s, %d rows from %d sources", b->label, b->rows,
                  b->sources);
    if (b->fallback)
        sn_buf_printf(out, "; %s: %d rows from %d source%s", b->wanted,
                      b->wanted_rows, b->wanted_sources,
                      b->wanted_sources == 1 ? "" : "s");
}
