/* infer.c (report): the predictions of `supernode sim infer` as text
 * (memory, decode step parts, latency and throughput; the search's
 * throughput-latency front; disaggregated prefill and decode) or the
 * SN_SCHEMA_INFER document. The figures are the serving model's
 * (model/infer*.c). */
#include <stdio.h>

#include "sn/infer.h"
#include "sn/report.h"
#include "sn/spec.h"
#include "sn/validate.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

/* How far the output tokens/s per GPU can be trusted: the band of the
 * model's size class on its GPU generation, and the known gaps the
 * layout meets (docs/model.md, "Classes and bands", "Known gaps of the
 * training and serving models"). */
static void trust_text(const struct sn_report_infer *w,
                       const struct sn_infer_layout *l, double tps_gpu,
                       struct sn_buf *b)
{
    struct sn_band_pick band;
    unsigned gaps = sn_infer_gaps(w->model, l, w->spec->accel->name);

    sn_buf_printf(b, "\nhow far to trust it\n  output tokens/s/GPU    %.1f (",
                  tps_gpu);
    sn_report_band_text(
        b, tps_gpu, false,
        sn_infer_band(w->model, w->spec->accel->name, &band) ? &band : NULL);
    sn_buf_printf(b, ")\n");
    for (size_t i = 0; i < sn_ngaps; i++)
        if (gaps & (1u << i))
            sn_buf_printf(b, "  known gap %-12s %s\n", sn_gaps[i].id,
                          sn_gaps[i].what);
}

static void trust_json(struct sn_json *j, const struct sn_report_infer *w,
                       const struct sn_infer_layout *l, double tps_gpu)
{
    struct sn_band_pick band;
    bool have = sn_infer_band(w->model, w->spec->accel->name, &band);
    unsigned gaps = sn_infer_gaps(w->model, l, w->spec->accel->name);

    sn_report_band_json(j, "band", have ? &band : NULL);
    if (have) {
        sn_json_knum(j, "output_tokens_per_s_per_gpu_p10", tps_gpu * band.p10);
        sn_json_knum(j, "output_tokens_per_s_per_gpu_p90", tps_gpu * band.p90);
    }
    sn_json_key(j, "gaps");
    sn_json_arr_begin(j);
    for (size_t i = 0; i < sn_ngaps; i++)
        if (gaps & (1u << i))
            sn_json_str(j, sn_gaps[i].id);
    sn_json_arr_end(j);
}

static void layout_line(const struct sn_infer_layout *l, struct sn_buf *b)
{
    sn_buf_printf(b, "tp %d  ep %d  pp %d  attention %s%s", l->tp, l->ep, l->pp,
                  l->dp_attention ? "data-parallel" : "tensor-parallel",
                  l->tbo ? "  two-batch overlap" : "");
}

static void head(const struct sn_report_infer *w, struct sn_buf *b)
{
    const struct sn_infer_work *wk = w->work;

    sn_buf_printf(b,
                  "%s on %d x %s (%s, %d per scale-up domain)\n"
                  "requests: %d input, %d output tokens; weights %s, KV "
                  "cache %s\n",
                  w->model->display ? w->model->display : w->model->name,
                  w->gpus, w->spec->accel->name,
                  w->spec->name ? w->spec->name : "spec",
                  w->spec->scaleup.accelerators, wk->isl, wk->osl,
                  sn_dtype_name(wk->precision), sn_dtype_name(wk->kv));
    if (wk->mtp > 0)
        sn_buf_printf(b,
                      "speculative: %d tokens drafted a step by the MTP "
                      "module, each accepted at %.0f%%\n",
                      wk->mtp, 100 * SN_INFER_MTP_ACCEPT);
}

static void result_text(const struct sn_infer_result *r, struct sn_buf *b)
{
    struct sn_table t;

    sn_buf_printf(b,
                  "\nmemory per accelerator\n"
                  "  weights                %.2f GiB of %.2f GiB HBM\n"
                  "  KV cache per token     %.1f KiB (whole model)\n"
                  "  KV per sequence        %.1f MiB on one accelerator "
                  "(input + output tokens)\n"
                  "  KV budget              %.2f GiB\n"
                  "  largest batch          %d sequences per replica\n",
                  r->weights_bytes / GIB, r->capacity / GIB,
                  r->kv_token_bytes / 1024, r->kv_seq_gpu / (1024 * 1024),
                  r->kv_budget / GIB, r->max_batch);
    if (!r->fits)
        sn_buf_printf(b, "  DOES NOT FIT: %s\n",
                      r->max_batch < 1 ? "no room for one sequence"
                                       : "the batch is above the largest");
    sn_table_init(&t, "  ");
    sn_table_col(&t, "", false);
    sn_table_col(&t, "ms", true);
    sn_table_col(&t, "share", true);
    for (int p = 0; p < SN_INFER_PART_COUNT; p++) {
        sn_table_row(&t);
        sn_table_cell(&t, "%s", sn_infer_part_name(p));
        sn_table_cell(&t, "%.3f", 1e3 * r->part[p]);
        sn_table_cell(&t, "%.1f%%", 100 * r->part[p] / r->step_s);
    }
    sn_table_row(&t);
    sn_table_cell(&t, "step");
    sn_table_cell(&t, "%.3f", 1e3 * r->step_s);
    sn_table_cell(&t, "100.0%%");
    sn_buf_printf(b, "\ndecode step, batch %d per replica of %d GPUs\n",
                  r->batch, r->gpus);
    sn_table_render(&t, b);
    sn_table_release(&t);
    sn_buf_printf(b,
                  "  experts read           %.1f per MoE layer per GPU\n"
                  "\nlatency and throughput\n"
                  "  TTFT                   %.1f ms\n"
                  "  TPOT                   %.2f ms\n"
                  "  tokens/s per user      %.1f\n"
                  "  output tokens/s        %.0f per replica, %.1f per GPU "
                  "(prefill interleaved)\n"
                  "  decode tokens/s/GPU    %.1f (decode alone)\n"
                  "  prefill tokens/s/GPU   %.0f (input, full batching)\n",
                  r->experts_hit, 1e3 * r->ttft_s, 1e3 * r->tpot_s,
                  r->output_tps_user, r->output_tps, r->output_tps_gpu,
                  r->decode_tps_gpu, r->prefill_tps_gpu);
}

/* The search's points as a table, the front marked and the best named. */
static void front_text(const struct sn_report_infer *w, struct sn_buf *b)
{
    struct sn_table t;
    static const char *const cols[] = {
        "",        "tp",      "ep",         "pp",        "dp-attn", "batch",
        "TTFT ms", "TPOT ms", "tok/s/user", "tok/s/GPU", "GiB",     NULL};
    const struct sn_infer_search_stats *st = w->stats;

    head(w, b);
    sn_buf_printf(b,
                  "searched %zu layouts and batches in %.3f s; %zu on the "
                  "throughput-latency front\n",
                  st->timed, st->seconds, st->pareto);
    if (w->ttft_limit > 0 || w->tpot_limit > 0) {
        char a[32] = "none", b2[32] = "none";
        if (w->ttft_limit > 0)
            snprintf(a, sizeof(a), "%.0f ms", 1e3 * w->ttft_limit);
        if (w->tpot_limit > 0)
            snprintf(b2, sizeof(b2), "%.1f ms", 1e3 * w->tpot_limit);
        sn_buf_printf(b, "limits: TTFT %s, TPOT %s\n", a, b2);
    }
    sn_table_init(&t, " ");
    for (size_t c = 0; cols[c]; c++)
        sn_table_col(&t, cols[c], c > 0);
    for (size_t i = 0; i < w->npoints; i++) {
        const struct sn_infer_layout *l = &w->points[i].layout;
        const struct sn_infer_result *r = &w->points[i].result;
        sn_table_row(&t);
        sn_table_cell(&t, "%s%s", (long)i == st->best ? "best" : "",
                      w->points[i].pareto ? "*" : "");
        sn_table_cell(&t, "%d", l->tp);
        sn_table_cell(&t, "%d", l->ep);
        sn_table_cell(&t, "%d", l->pp);
        sn_table_cell(&t, "%s", l->dp_attention ? "yes" : "no");
        sn_table_cell(&t, "%d", l->batch);
        sn_table_cell(&t, "%.1f", 1e3 * r->ttft_s);
        sn_table_cell(&t, "%.2f", 1e3 * r->tpot_s);
        sn_table_cell(&t, "%.1f", r->output_tps_user);
        sn_table_cell(&t, "%.1f", r->output_tps_gpu);
        sn_table_cell(&t, "%.1f",
                      (r->weights_bytes + r->kv_seq_gpu * r->batch /
                                              (l->dp_attention ? l->tp : 1)) /
                          GIB);
    }
    sn_table_render(&t, b);
    sn_table_release(&t);
    sn_buf_printf(b, "* on the front (no point has both more tokens/s per "
                     "GPU and per user)\n");
    if (st->best < 0)
        sn_buf_printf(b, "no layout meets the limits\n");
    else
        trust_text(w, &w->points[st->best].layout,
                   w->points[st->best].result.output_tps_gpu, b);
}

static void disagg_text(const struct sn_report_infer *w, struct sn_buf *b)
{
    const struct sn_infer_disagg *d = w->disagg;

    head(w, b);
    sn_buf_printf(b, "layout: ");
    layout_line(w->layout, b);
    sn_buf_printf(b,
                  "\ndisaggregated: %d prefill GPUs, %d decode GPUs\n"
                  "  prefill tokens/s/GPU   %.0f\n"
                  "  decode tokens/s/GPU    %.1f at batch %d\n"
                  "  requests/s             %.2f (%s-bound)\n"
                  "  output tokens/s/GPU    %.1f over all GPUs\n"
                  "  balanced split         %.3f prefill GPUs per decode "
                  "GPU\n"
                  "  KV transfer            %.2f ms per request\n"
                  "  TTFT                   %.1f ms, TPOT %.2f ms\n",
                  d->prefill, d->decode, d->p.prefill_tps_gpu,
                  d->d.decode_tps_gpu, d->d.batch, d->requests_per_s, d->bound,
                  d->output_tps_gpu, d->balanced_ratio, 1e3 * d->kv_transfer_s,
                  1e3 * d->d.ttft_s, 1e3 * d->d.tpot_s);
    trust_text(w, w->layout, d->output_tps_gpu, b);
}

void sn_report_infer_text(const struct sn_report_infer *w, struct sn_buf *out)
{
    if (w->stats) {
        front_text(w, out);
    } else if (w->disagg) {
        disagg_text(w, out);
    } else {
        head(w, out);
        sn_buf_printf(out, "layout: ");
        layout_line(w->layout, out);
        sn_buf_printf(out, ", %d replicas\n", w->gpus / w->result->gpus);
        result_text(w->result, out);
        trust_text(w, w->layout, w->result->output_tps_gpu, out);
    }
}

void sn_report_infer_layout_json(struct sn_json *j,
                                 const struct sn_infer_layout *l)
{
    sn_json_key(j, "layout");
    sn_json_obj_begin(j);
    sn_json_kint(j, "tp", l->tp);
    sn_json_kint(j, "ep", l->ep);
    sn_json_kint(j, "pp", l->pp);
    sn_json_kbool(j, "dp_attention", l->dp_attention);
    sn_json_kbool(j, "tbo", l->tbo);
    sn_json_kint(j, "batch", l->batch);
    sn_json_obj_end(j);
}

void sn_report_infer_result_json(struct sn_json *j,
                                 const struct sn_infer_result *r)
{
    sn_json_key(j, "result");
    sn_json_obj_begin(j);
    sn_json_kint(j, "replica_gpus", r->gpus);
    sn_json_knum(j, "weights_bytes", r->weights_bytes);
    sn_json_knum(j, "kv_bytes_per_token", r->kv_token_bytes);
    sn_json_knum(j, "kv_bytes_per_sequence_gpu", r->kv_seq_gpu);
    sn_json_knum(j, "kv_budget_bytes", r->kv_budget);
    sn_json_knum(j, "capacity_bytes", r->capacity);
    sn_json_kint(j, "max_batch", r->max_batch);
    sn_json_kint(j, "batch", r->batch);
    sn_json_kbool(j, "fits", r->fits);
    sn_json_knum(j, "experts_read", r->experts_hit);
    sn_json_knum(j, "ttft_s", r->ttft_s);
    sn_json_knum(j, "tpot_s", r->tpot_s);
    sn_json_knum(j, "step_s", r->step_s);
    sn_json_knum(j, "output_tokens_per_s", r->output_tps);
    sn_json_knum(j, "output_tokens_per_s_per_gpu", r->output_tps_gpu);
    sn_json_knum(j, "output_tokens_per_s_per_user", r->output_tps_user);
    sn_json_knum(j, "decode_tokens_per_s_per_gpu", r->decode_tps_gpu);
    sn_json_knum(j, "prefill_tokens_per_s_per_gpu", r->prefill_tps_gpu);
    sn_json_key(j, "decode_step");
    sn_json_obj_begin(j);
    for (int p = 0; p < SN_INFER_PART_COUNT; p++)
        sn_json_knum(j, sn_infer_part_name(p), r->part[p]);
    sn_json_obj_end(j);
    sn_json_obj_end(j);
}

static void search_json(const struct sn_report_infer *w, struct sn_json *j)
{
    sn_json_knum(j, "ttft_limit_s", w->ttft_limit);
    sn_json_knum(j, "tpot_limit_s", w->tpot_limit);
    sn_json_kint(j, "timed", (long long)w->stats->timed);
    sn_json_kint(j, "pareto", (long long)w->stats->pareto);
    sn_json_kint(j, "best", w->stats->best);
    sn_json_key(j, "points");
    sn_json_arr_begin(j);
    for (size_t i = 0; i < w->npoints; i++) {
        sn_json_obj_begin(j);
        sn_json_kbool(j, "pareto", w->points[i].pareto);
        sn_json_kbool(j, "meets_limits", w->points[i].meets);
        sn_report_infer_layout_json(j, &w->points[i].layout);
        sn_report_infer_result_json(j, &w->points[i].result);
        trust_json(j, w, &w->points[i].layout,
                   w->points[i].result.output_tps_gpu);
        sn_json_obj_end(j);
    }
    sn_json_arr_end(j);
}

static void disagg_json(const struct sn_report_infer *w, struct sn_json *j)
{
    const struct sn_infer_disagg *d = w->disagg;

    sn_report_infer_layout_json(j, w->layout);
    sn_json_kint(j, "prefill_gpus", d->prefill);
    sn_json_kint(j, "decode_gpus", d->decode);
    sn_json_knum(j, "requests_per_s", d->requests_per_s);
    sn_json_knum(j, "output_tokens_per_s_per_gpu", d->output_tps_gpu);
    sn_json_knum(j, "balanced_prefill_per_decode", d->balanced_ratio);
    sn_json_knum(j, "kv_transfer_s", d->kv_transfer_s);
    sn_json_kstr(j, "bound", d->bound);
    sn_json_knum(j, "prefill_tokens_per_s_per_gpu", d->p.prefill_tps_gpu);
    sn_report_infer_result_json(j, &d->d);
    trust_json(j, w, w->layout, d->output_tps_gpu);
}

void sn_report_infer_json(const struct sn_report_infer *w, struct sn_buf *out)
{
    const struct sn_infer_work *wk = w->work;
    struct sn_json j;

    sn_json_init(&j, out, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_INFER);
    sn_json_kstr(&j, "mode",
                 w->stats    ? "search"
                 : w->disagg ? "disaggregated"
                             : "layout");
    sn_json_kstr(&j, "spec", w->spec->name);
    sn_json_kstr(&j, "model", w->model->name);
    sn_json_kstr(&j, "accelerator", w->spec->accel->name);
    sn_json_kint(&j, "gpus", w->gpus);
    sn_json_kint(&j, "scaleup_domain", w->spec->scaleup.accelerators);
    sn_json_kint(&j, "isl", wk->isl);
    sn_json_kint(&j, "osl", wk->osl);
    sn_json_kstr(&j, "precision", sn_dtype_name(wk->precision));
    sn_json_kstr(&j, "kv_precision", sn_dtype_name(wk->kv));
    sn_json_kint(&j, "mtp", wk->mtp);
    if (w->stats) {
        search_json(w, &j);
    } else if (w->disagg) {
        disagg_json(w, &j);
    } else {
        sn_report_infer_layout_json(&j, w->layout);
        sn_report_infer_result_json(&j, w->result);
        trust_json(&j, w, w->layout, w->result->output_tps_gpu);
    }
    sn_json_obj_end(&j);
    sn_buf_putc(out, '\n');
}
