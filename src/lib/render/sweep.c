/* sweep.c (render): `supernode sweep` as a table with its legend or a
 * JSON document: training (SN_SCHEMA_SWEEP: the best layout, goodput and
 * the plan at each value) and serving (SN_SCHEMA_SWEEP_INFER: the best
 * layout and batch within the latency limits at each value). */
#include <stdio.h>

#include "sn/model.h"
#include "sn/render.h"

/* The keys fixed at every point, a line each before the table. */
static void fixed_text(const struct sn_sweep *sw, struct sn_buf *b)
{
    for (size_t i = 0; i < sw->nfixed; i++)
        sn_buf_printf(b, "%s %s=%s\n", i ? "   " : "with", sw->fixed_keys[i],
                      sw->fixed_values[i]);
}

/* "key" and "fixed" of a sweep document. */
static void fixed_json(const struct sn_sweep *sw, struct sn_json *j)
{
    sn_json_kstr(j, "key", sw->key);
    sn_json_key(j, "fixed");
    sn_json_obj_begin(j);
    for (size_t i = 0; i < sw->nfixed; i++)
        sn_json_kstr(j, sw->fixed_keys[i], sw->fixed_values[i]);
    sn_json_obj_end(j);
}

/* The band's ends beside a figure per GPU, and the gaps' ids. */
static void trust_cells(struct sn_table *t, const struct sn_band_pick *band,
                        double per_gpu, unsigned gaps)
{
    struct sn_buf cell;
    char ids[64];

    sn_buf_init(&cell);
    sn_render_band_range(&cell, per_gpu, false, band);
    sn_table_cell(t, "%s", cell.data);
    sn_buf_release(&cell);
    sn_gaps_ids(gaps, ids, sizeof(ids));
    sn_table_cell(t, "%s", ids[0] ? ids : "-");
}

static void trust_legend(struct sn_buf *b, const struct sn_band_pick *band)
{
    if (!band)
        return;
    sn_buf_printf(b,
                  "band: P10-P90 of measured / predicted in the public runs "
                  "of the class (first row: %s, %d rows from %d sources",
                  band->label, band->rows, band->sources);
    if (band->fallback)
        sn_buf_printf(b, "; %s: %d rows from %d source%s", band->wanted,
                      band->wanted_rows, band->wanted_sources,
                      band->wanted_sources == 1 ? "" : "s");
    sn_buf_printf(b, "); gaps: docs/model.md\n");
}

static void trust_json(struct sn_json *j, const struct sn_band_pick *band,
                       double per_gpu, unsigned gaps)
{
    sn_render_trust_json(j, band, "per_gpu", per_gpu, gaps);
}

void sn_render_sweep_text(const struct sn_sweep *sw,
                          const struct sn_sweep_point *pts, size_t n,
                          struct sn_buf *b)
{
    const char *key = sw->key;
    struct sn_table t;
    bool grows = sn_sweep_grows_job(key);
    const char *const cols[] = {
        "",
        key,
        "accels",
        "job",
        "domain",
        "tp",
        "pp",
        "dp",
        "ep",
        "step s",
        "tokens/s",
        "per GPU",
        "MFU",
        "ETTR",
        "goodput",
        "effective/accel",
        grows ? "scaling" : "links",
        grows ? "links" : "switch chips",
        grows ? "switch chips" : "power kW",
        grows ? "power kW" : NULL,
        NULL,
    };
    const struct sn_band_pick *label = NULL;
    char as[320] = "";

    fixed_text(sw, b);
    sn_table_init(&t, "");
    for (size_t c = 0; cols[c]; c++)
        sn_table_col(&t, cols[c], c >= 2);
    sn_table_col(&t, "per GPU band", true);
    sn_table_col(&t, "gaps", false);
    for (size_t i = 0; i < n; i++) {
        const struct sn_sweep_point *p = &pts[i];
        const struct sn_train_layout *l = &p->best.layout;
        const struct sn_train_result *r = &p->best.result;
        sn_table_row(&t);
        sn_table_cell(&t, "%s", p->best_value ? "*" : "");
        sn_table_cell(&t, "%s", p->value);
        if (!p->ok && !p->accels) {
            sn_table_cell(&t, "-");
            continue;
        }
        sn_table_cell(&t, "%d", p->design_accels);
        sn_table_cell(&t, "%d", p->accels);
        sn_table_cell(&t, "%d", p->domain);
        if (!p->have_best) {
            sn_table_cell(&t, "-");
            continue;
        }
        sn_table_cell(&t, "%d", l->tp);
        sn_table_cell(&t, "%d", l->pp);
        sn_table_cell(&t, "%d", l->dp);
        sn_table_cell(&t, "%d", l->ep);
        sn_table_cell(&t, "%.3f", r->step_time);
        sn_table_cell(&t, "%.0f", r->tokens_per_s);
        sn_table_cell(&t, "%.1f", p->tokens_per_accel);
        sn_table_cell(&t, "%.1f%%", 100 * r->mfu);
        if (p->have_goodput) {
            sn_table_cell(&t, "%.1f%%", 100 * p->goodput.ettr);
            sn_table_cell(&t, "%.1f%%", 100 * p->goodput.goodput);
        } else {
            sn_table_cell(&t, "-");
            sn_table_cell(&t, "-");
        }
        sn_table_cell(&t, "%.1f", p->effective_per_accel);
        if (grows)
            sn_table_cell(&t, "%.1f%%", 100 * p->scaling);
        if (p->have_goodput && !as[0])
            sn_goodput_assumption(&p->goodput, as, sizeof(as));
        sn_table_cell(&t, "%zu", p->links);
        sn_table_cell(&t, "%zu", p->switch_chips);
        sn_table_cell(&t, "%.1f", p->power_w / 1e3);
        trust_cells(&t, p->have_band ? &p->band : NULL, p->tokens_per_accel,
                    p->gaps);
        if (p->have_band && !label)
            label = &p->band;
    }
    sn_table_render(&t, b);
    sn_table_release(&t);
    for (size_t i = 0; i < n; i++)
        if (!pts[i].ok)
            sn_buf_printf(b, "%s=%s: %s\n", key, pts[i].value, pts[i].error);
    if (grows)
        sn_buf_printf(b, "no sweet spot: a sweep of supernodes grows the job, "
                         "and its throughput per accelerator can only fall; "
                         "scaling is effective/accel against the first "
                         "row\n");
    else
        sn_buf_printf(b, "* the sweet spot: most tokens/s per accelerator of "
                         "the design after goodput (ETTR and spare "
                         "supernodes)\n");
    sn_buf_printf(b, "per GPU: tokens/s per accelerator of the job; "
                     "effective/accel: x goodput, per accelerator of the "
                     "design\n");
    if (as[0])
        sn_buf_printf(b, "goodput assumes: %s\n", as);
    trust_legend(b, label);
}

void sn_render_sweep_json(const struct sn_sweep *sw,
                          const struct sn_sweep_point *pts, size_t n,
                          struct sn_buf *b)
{
    struct sn_json j;

    sn_json_init(&j, b, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_SWEEP);
    fixed_json(sw, &j);
    sn_json_key(&j, "points");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < n; i++) {
        const struct sn_sweep_point *p = &pts[i];
        const struct sn_train_layout *l = &p->best.layout;
        const struct sn_train_result *r = &p->best.result;
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "value", p->value);
        sn_json_kbool(&j, "best", p->best_value);
        if (!p->ok) {
            sn_json_kstr(&j, "error", p->error);
            sn_json_obj_end(&j);
            continue;
        }
        sn_json_kint(&j, "accelerators", p->design_accels);
        sn_json_kint(&j, "job_accelerators", p->accels);
        sn_json_kint(&j, "scaleup_domain", p->domain);
        sn_render_train_layout_json(&j, l, 0);
        sn_json_knum(&j, "step_time_s", r->step_time);
        sn_json_knum(&j, "tokens_per_s", r->tokens_per_s);
        sn_json_knum(&j, "tokens_per_s_per_accelerator", p->tokens_per_accel);
        sn_json_knum(&j, "mfu", r->mfu);
        if (p->have_goodput) {
            sn_json_knum(&j, "ettr", p->goodput.ettr);
            sn_json_knum(&j, "goodput", p->goodput.goodput);
            sn_json_knum(&j, "checkpoint_interval_s", p->goodput.interval);
        }
        sn_json_knum(&j, "effective_tokens_per_s_per_accelerator",
                     p->effective_per_accel);
        if (sn_sweep_grows_job(sw->key))
            sn_json_knum(&j, "scaling", p->scaling);
        sn_json_kint(&j, "links", (long long)p->links);
        sn_json_kint(&j, "switch_chips", (long long)p->switch_chips);
        sn_json_knum(&j, "power_w", p->power_w);
        sn_json_knum(&j, "facility_power_w", p->facility_w);
        trust_json(&j, p->have_band ? &p->band : NULL, p->tokens_per_accel,
                   p->gaps);
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);
    sn_json_obj_end(&j);
    sn_buf_putc(b, '\n');
}

/* The requests, the limits and the instance, before the table. */
static void infer_head(const struct sn_sweep_infer *si, struct sn_buf *b)
{
    const struct sn_model_info *m = si->sweep.model;
    const struct sn_infer_work *w = &si->work;
    char ttft[32] = "none", tpot[32] = "none";

    if (si->limits.ttft > 0)
        snprintf(ttft, sizeof(ttft), "%.0f ms", 1e3 * si->limits.ttft);
    if (si->limits.tpot > 0)
        snprintf(tpot, sizeof(tpot), "%.1f ms", 1e3 * si->limits.tpot);
    sn_buf_printf(b,
                  "serving %s: %d input, %d output tokens a request; "
                  "weights %s, KV cache %s\n",
                  m->display ? m->display : m->name, w->isl, w->osl,
                  sn_dtype_name(w->precision), sn_dtype_name(w->kv));
    if (w->mtp > 0)
        sn_buf_printf(b,
                      "speculative: %d tokens drafted a step by the MTP "
                      "module, each accepted at %.0f%%\n",
                      w->mtp, 100 * w->accept);
    if (si->sweep.gpus > 0)
        sn_buf_printf(b, "instance: %d accelerators", si->sweep.gpus);
    else
        sn_buf_printf(b, "instance: one scale-up domain, replicated over "
                         "the others");
    sn_buf_printf(b, "; limits: TTFT %s, TPOT %s\n", ttft, tpot);
}

static void infer_row(struct sn_table *t, const struct sn_sweep_infer_point *p)
{
    const struct sn_infer_layout *l = &p->best.layout;
    const struct sn_infer_result *r = &p->best.result;

    sn_table_row(t);
    sn_table_cell(t, "%s", p->best_value ? "*" : "");
    sn_table_cell(t, "%s", p->value);
    if (!p->ok && !p->accels) {
        sn_table_cell(t, "-");
        return;
    }
    sn_table_cell(t, "%d", p->design_accels);
    sn_table_cell(t, "%d", p->accels);
    sn_table_cell(t, "%d", p->domain);
    sn_table_cell(t, "%zu", p->switch_chips);
    if (!p->have_best) {
        sn_table_cell(t, "%s", p->ok && p->timed ? "none meets" : "none fits");
        return;
    }
    sn_table_cell(t, "%d", l->tp);
    sn_table_cell(t, "%d", l->ep);
    sn_table_cell(t, "%d", l->pp);
    sn_table_cell(t, "%s%s", l->dp_attention ? "dp" : "tp",
                  l->tbo ? "+tbo" : "");
    sn_table_cell(t, "%d", l->batch);
    sn_table_cell(t, "%.1f", 1e3 * r->ttft_s);
    sn_table_cell(t, "%.2f", 1e3 * r->tpot_s);
    sn_table_cell(t, "%.1f", r->output_tps_user);
    sn_table_cell(t, "%.1f", r->output_tps_gpu);
    trust_cells(t, p->have_band ? &p->band : NULL, r->output_tps_gpu, p->gaps);
}

void sn_render_sweep_infer_text(const struct sn_sweep_infer *si,
                                const struct sn_sweep_infer_point *pts,
                                size_t n, struct sn_buf *b)
{
    const struct sn_sweep *sw = &si->sweep;
    struct sn_table t;
    const char *const cols[] = {
        "",        sw->key,      "accels",    "instance", "domain", "switches",
        "tp",      "ep",         "pp",        "attn",     "batch",  "TTFT ms",
        "TPOT ms", "tok/s/user", "tok/s/GPU", "band",     "gaps",   NULL,
    };
    const struct sn_band_pick *label = NULL;

    fixed_text(sw, b);
    infer_head(si, b);
    sn_table_init(&t, "");
    for (size_t c = 0; cols[c]; c++)
        sn_table_col(&t, cols[c], c >= 2);
    for (size_t i = 0; i < n; i++) {
        infer_row(&t, &pts[i]);
        if (pts[i].have_band && !label)
            label = &pts[i].band;
    }
    sn_table_render(&t, b);
    sn_table_release(&t);
    for (size_t i = 0; i < n; i++) {
        if (!pts[i].ok)
            sn_buf_printf(b, "%s=%s: %s\n", sw->key, pts[i].value,
                          pts[i].error);
        else if (!pts[i].have_best)
            sn_buf_printf(b, "%s=%s: %s\n", sw->key, pts[i].value, pts[i].none);
    }
    sn_buf_printf(b,
                  "* the sweet spot: the most output tokens/s per "
                  "accelerator within the limits; values within %.0f%% of "
                  "it count as equal and the smallest scale-up domain among "
                  "them is marked (then fewer switch chips, then the "
                  "first)\n",
                  100 * SN_SWEEP_INFER_FLAT);
    sn_buf_printf(b, "tok/s/GPU: output tokens/s per accelerator, prefill "
                     "interleaved; attn: attention tensor- or data-parallel "
                     "(+tbo: two-batch overlap); batch: sequences per "
                     "replica\n");
    trust_legend(b, label);
}

/* One point of the serving document. */
static void infer_point_json(struct sn_json *j,
                             const struct sn_sweep_infer_point *p)
{
    sn_json_obj_begin(j);
    sn_json_kstr(j, "value", p->value);
    sn_json_kbool(j, "best", p->best_value);
    if (!p->ok) {
        sn_json_kstr(j, "error", p->error);
        sn_json_obj_end(j);
        return;
    }
    sn_json_kint(j, "accelerators", p->design_accels);
    sn_json_kint(j, "instance_accelerators", p->accels);
    sn_json_kint(j, "scaleup_domain", p->domain);
    sn_json_kint(j, "switch_chips", (long long)p->switch_chips);
    sn_json_kint(j, "timed", (long long)p->timed);
    sn_json_kbool(j, "meets_limits", p->have_best);
    if (p->have_best) {
        sn_render_infer_layout_json(j, &p->best.layout);
        sn_render_infer_result_json(j, &p->best.result);
        trust_json(j, p->have_band ? &p->band : NULL,
                   p->best.result.output_tps_gpu, p->gaps);
    } else {
        sn_json_kstr(j, "none", p->none);
        sn_json_knum(j, "fastest_tpot_s", p->fastest_tpot);
        sn_json_knum(j, "fastest_ttft_s", p->fastest_ttft);
    }
    sn_json_obj_end(j);
}

void sn_render_sweep_infer_json(const struct sn_sweep_infer *si,
                                const struct sn_sweep_infer_point *pts,
                                size_t n, struct sn_buf *b)
{
    const struct sn_infer_work *w = &si->work;
    struct sn_json j;

    sn_json_init(&j, b, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_SWEEP_INFER);
    fixed_json(&si->sweep, &j);
    sn_json_kstr(&j, "model", si->sweep.model->name);
    sn_json_kint(&j, "instance_accelerators", si->sweep.gpus);
    sn_json_kint(&j, "isl", w->isl);
    sn_json_kint(&j, "osl", w->osl);
    sn_json_kstr(&j, "precision", sn_dtype_name(w->precision));
    sn_json_kstr(&j, "kv_precision", sn_dtype_name(w->kv));
    sn_json_kint(&j, "mtp", w->mtp);
    sn_json_knum(&j, "ttft_limit_s", si->limits.ttft);
    sn_json_knum(&j, "tpot_limit_s", si->limits.tpot);
    sn_json_knum(&j, "flat", SN_SWEEP_INFER_FLAT);
    sn_json_key(&j, "points");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < n; i++)
        infer_point_json(&j, &pts[i]);
    sn_json_arr_end(&j);
    sn_json_obj_end(&j);
    sn_buf_putc(b, '\n');
}
