/* infer.c (render): the predictions of `supernode sim infer` as text
 * (memory, decode step parts, latency and throughput; the search's
 * throughput-latency front; disaggregated prefill and decode) or the
 * SN_SCHEMA_INFER document. The figures are the serving model's
 * (model/infer*.c). */
#include <math.h>
#include <stdio.h>

#include "sn/infer.h"
#include "sn/render.h"
#include "sn/spec.h"
#include "sn/validate.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

/* How far the output tokens/s per GPU can be trusted: the band of the
 * model's size class on its GPU generation, and the known gaps the
 * layout meets (docs/model.md, "Classes and bands", "Known gaps of the
 * training and serving models"). */
static void trust_text(const struct sn_render_infer *w,
                       const struct sn_infer_layout *l, double tps_gpu,
                       struct sn_buf *b)
{
    struct sn_band_pick band;
    unsigned gaps =
        sn_infer_gaps(w->model, l, w->spec->accel->name,
                      w->load != NULL || (w->disagg && w->disagg->rate > 0));

    sn_buf_printf(b, "\nhow far to trust it\n  output tokens/s/GPU    %.1f (",
                  tps_gpu);
    sn_render_band_text(
        b, tps_gpu, false,
        sn_infer_band(w->model, w->spec->accel->name, &band) ? &band : NULL);
    sn_buf_printf(b, ")\n");
    for (size_t i = 0; i < sn_ngaps; i++)
        if (gaps & (1u << i))
            sn_buf_printf(b, "  known gap %-12s %s\n", sn_gaps[i].id,
                          sn_gaps[i].what);
}

static void trust_json(struct sn_json *j, const struct sn_render_infer *w,
                       const struct sn_infer_layout *l, double tps_gpu)
{
    struct sn_band_pick band;
    bool have = sn_infer_band(w->model, w->spec->accel->name, &band);
    unsigned gaps =
        sn_infer_gaps(w->model, l, w->spec->accel->name,
                      w->load != NULL || (w->disagg && w->disagg->rate > 0));

    sn_render_trust_json(j, have ? &band : NULL, "output_tokens_per_s_per_gpu",
                         tps_gpu, gaps);
}

static void layout_line(const struct sn_infer_layout *l, struct sn_buf *b)
{
    sn_buf_printf(b, "tp %d  ep %d  pp %d  attention %s%s", l->tp, l->ep, l->pp,
                  l->dp_attention ? "data-parallel" : "tensor-parallel",
                  l->tbo ? "  two-batch overlap" : "");
    if (l->redundant > 0)
        sn_buf_printf(b, "  %d redundant experts", l->redundant);
}

static void head(const struct sn_render_infer *w, struct sn_buf *b)
{
    const struct sn_infer_work *wk = w->work;

    sn_buf_put_esc(b, SN_ESC_TERM,
                   w->model->display ? w->model->display : w->model->name);
    sn_buf_printf(b, " on %d x ", w->gpus);
    sn_buf_put_esc(b, SN_ESC_TERM, w->spec->accel->name);
    sn_buf_puts(b, " (");
    sn_buf_put_esc(b, SN_ESC_TERM, w->spec->name ? w->spec->name : "spec");
    sn_buf_printf(b,
                  ", %d per scale-up domain)\n"
                  "requests: %d input, %d output tokens; weights %s, KV "
                  "cache %s\n",
                  w->spec->scaleup.accelerators, wk->isl, wk->osl,
                  sn_dtype_name(wk->precision), sn_dtype_name(wk->kv));
    if (wk->mtp > 0)
        sn_buf_printf(b,
                      "speculative: %d tokens drafted a step by the MTP "
                      "module, each accepted at %.0f%%\n",
                      wk->mtp, 100 * wk->accept);
}

static void limits_text(const struct sn_render_infer *w, double ttft,
                        double tpot, struct sn_buf *b);

/* The limits judged at the served percentile. */
static void served_limits_text(const struct sn_render_infer *w,
                               struct sn_buf *b)
{
    const struct sn_infer_served *s = w->served;

    if (!(w->ttft_limit > 0) && !(w->tpot_limit > 0))
        return;
    sn_buf_printf(b, "\nlimits, judged at the served P%g (--slo-percentile)",
                  s->at);
    limits_text(w, s->ttft_at, s->tpot_at, b);
    if (s->saturated)
        sn_buf_printf(b, "  SATURATED: no limit holds while the queue "
                         "grows\n");
}

/* Served under a load: the latency percentiles and the throughput. */
static void served_text(const struct sn_render_infer *w, struct sn_buf *b)
{
    const struct sn_infer_served *s = w->served;
    const struct sn_infer_load *ld = w->load;

    if (!s)
        return;
    if (ld->rate > 0)
        sn_buf_printf(b,
                      "\nserved at %.3g requests/s per replica (Poisson, "
                      "%d requests)\n",
                      ld->rate, s->requests);
    else
        sn_buf_printf(b,
                      "\nserved at %d requests in flight per replica "
                      "(closed loop, %d requests)\n",
                      ld->concurrency, s->requests);
    sn_buf_printf(b,
                  "  TTFT P50/P90/P99       %.1f / %.1f / %.1f ms\n"
                  "  TPOT P50/P90/P99       %.2f / %.2f / %.2f ms\n"
                  "  output tokens/s/GPU    %.1f (%.3g requests/s per "
                  "replica)\n"
                  "  sequences in flight    %.1f a step on average\n",
                  1e3 * s->ttft[SN_INFER_P50], 1e3 * s->ttft[SN_INFER_P90],
                  1e3 * s->ttft[SN_INFER_P99], 1e3 * s->tpot[SN_INFER_P50],
                  1e3 * s->tpot[SN_INFER_P90], 1e3 * s->tpot[SN_INFER_P99],
                  s->output_tps_gpu, s->requests_per_s, s->mean_batch);
    if (s->saturated)
        sn_buf_printf(b, "  SATURATED: the replica serves fewer requests "
                         "than arrive; the queue grows without bound\n");
    served_limits_text(w, b);
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
                  "  runtime                %.2f GiB (workspaces, NCCL, "
                  "CUDA context)\n"
                  "  KV budget              %.2f GiB\n"
                  "  largest batch          %d sequences per replica\n",
                  r->weights_bytes / GIB, r->capacity / GIB,
                  r->kv_token_bytes / 1024, r->kv_seq_gpu / (1024 * 1024),
                  r->runtime_bytes / GIB, r->kv_budget / GIB, r->max_batch);
    /* a layout that does not fit serves nothing: no times, no rates */
    if (!r->fits) {
        sn_buf_printf(b, "  DOES NOT FIT: %s\n",
                      r->max_batch < 1 ? "no room for one sequence"
                                       : "the batch is above the largest");
        return;
    }
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
                  "  host step              %.3f ms (GPU %.3f ms)\n"
                  "  experts read           %.1f per MoE layer per GPU\n"
                  "\nlatency and throughput\n"
                  "  TTFT (idle replica)    %.1f ms, one prompt alone\n"
                  "  TPOT                   %.2f ms\n"
                  "  tokens/s per user      %.1f\n"
                  "  output tokens/s        %.0f per replica, %.1f per GPU "
                  "(prefill interleaved)\n"
                  "  decode tokens/s/GPU    %.1f (decode alone)\n"
                  "  prefill tokens/s/GPU   %.0f (input, full batching)\n",
                  1e3 * r->host_step_s, 1e3 * r->gpu_step_s, r->experts_hit,
                  1e3 * r->ttft_s, 1e3 * r->tpot_s, r->output_tps_user,
                  r->output_tps, r->output_tps_gpu, r->decode_tps_gpu,
                  r->prefill_tps_gpu);
    /* whether every GEMM's rate came from a measured kernel table
     * (sn/kernels.h), as the training report says it */
    sn_buf_printf(b, "  GEMM rates             %s\n",
                  r->kernels_extrapolated
                      ? "extrapolated (a shape or type outside the "
                        "measured kernel tables)"
                      : "from measured kernel tables");
}

/* Each limit given: met, or by how much it is broken. */
static void limits_text(const struct sn_render_infer *w, double ttft,
                        double tpot, struct sn_buf *b)
{
    const double lim[2] = {w->ttft_limit, w->tpot_limit}, got[2] = {ttft, tpot};
    static const char *const names[2] = {"TTFT", "TPOT"};

    if (!(lim[0] > 0) && !(lim[1] > 0))
        return;
    sn_buf_printf(b, w->served ? "\n" : "\nlimits\n");
    for (int i = 0; i < 2; i++) {
        if (!(lim[i] > 0))
            continue;
        if (got[i] <= lim[i])
            sn_buf_printf(b, "  %-22s %.2f ms, within %.2f ms\n", names[i],
                          1e3 * got[i], 1e3 * lim[i]);
        else
            sn_buf_printf(b,
                          "  %-22s %.2f ms: LIMIT BROKEN, %.2f ms over "
                          "%.2f ms (+%.1f%%)\n",
                          names[i], 1e3 * got[i], 1e3 * (got[i] - lim[i]),
                          1e3 * lim[i], 100 * (got[i] / lim[i] - 1));
    }
}

/* The search's points as a table, the front marked and the best named. */
static void front_text(const struct sn_render_infer *w, struct sn_buf *b)
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
        sn_buf_printf(b, "limits: TTFT %s, TPOT %s", a, b2);
        if (w->sserved)
            sn_buf_printf(b,
                          ", judged at the served P%g of the front's "
                          "first %zu layouts (simulated in %.3f s)",
                          w->percentile, w->sserved->simulated,
                          w->sserved->seconds);
        sn_buf_printf(b, "\n");
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
    if (st->best < 0 && w->sserved)
        sn_buf_printf(b, "no layout served meets the limits under the "
                         "load\n");
    else if (st->best < 0)
        sn_buf_printf(b, "no layout meets the limits\n");
    else
        trust_text(w, &w->points[st->best].layout,
                   w->points[st->best].result.output_tps_gpu, b);
}

static void side_fit(const char *side, const struct sn_infer_result *r,
                     struct sn_buf *b)
{
    sn_buf_printf(b,
                  "  %-8s weights %.2f GiB of %.2f GiB, largest batch %d%s\n",
                  side, r->weights_bytes / GIB, r->capacity / GIB, r->max_batch,
                  r->fits ? "" : ": DOES NOT FIT");
}

static void disagg_text(const struct sn_render_infer *w, struct sn_buf *b)
{
    const struct sn_infer_disagg *d = w->disagg;

    head(w, b);
    if (w->dstats)
        sn_buf_printf(b,
                      "searched %zu prefill and decode layouts and batches, "
                      "%zu instance-size pairs, in %.3f s\n",
                      w->dstats->timed, w->dstats->splits, w->dstats->seconds);
    if (w->dstats && !w->dstats->found) {
        sn_buf_printf(b, "no disaggregated split meets the limits");
        if (w->dstats->fastest_ttft > 0 || w->dstats->fastest_tpot > 0)
            sn_buf_printf(b,
                          " (the fastest layouts that fit: TTFT %.1f ms, "
                          "TPOT %.2f ms)",
                          1e3 * w->dstats->fastest_ttft,
                          1e3 * w->dstats->fastest_tpot);
        sn_buf_printf(b, "\n");
        limits_text(w, w->dstats->fastest_ttft, w->dstats->fastest_tpot, b);
        return;
    }
    sn_buf_printf(b, "prefill: ");
    layout_line(&d->lp, b);
    sn_buf_printf(b, ", %d instance%s\ndecode:  ", d->prefill_instances,
                  d->prefill_instances == 1 ? "" : "s");
    layout_line(&d->ld, b);
    sn_buf_printf(b, ", %d instance%s", d->decode_instances,
                  d->decode_instances == 1 ? "" : "s");
    if (d->d.fits)
        sn_buf_printf(b, ", batch %d each", d->d.batch);
    sn_buf_printf(b, "\n");
    sn_buf_printf(b, "disaggregated: %d prefill GPUs, %d decode GPUs (%d:%d)\n",
                  d->prefill, d->decode, d->prefill, d->decode);
    if (!d->fits) {
        side_fit("prefill", &d->p, b);
        side_fit("decode", &d->d, b);
        sn_buf_printf(b, "  DOES NOT FIT: a side has no room for one "
                         "sequence or its batch\n");
        return;
    }
    sn_buf_printf(b,
                  "  prefill tokens/s/GPU   %.0f\n"
                  "  decode tokens/s/GPU    %.1f at batch %d\n"
                  "  requests/s             %.2f (%s-bound)\n"
                  "  output tokens/s/GPU    %.1f over all %d GPUs of both "
                  "pools\n"
                  "  balanced split         %.3f prefill GPUs per decode "
                  "GPU\n"
                  "  KV transfer            %.2f ms per request\n"
                  "  TTFT                   %.1f ms, TPOT %.2f ms\n",
                  d->p.prefill_tps_gpu, d->d.decode_tps_gpu, d->d.batch,
                  d->requests_per_s, d->bound, d->output_tps_gpu,
                  d->prefill + d->decode, d->balanced_ratio,
                  1e3 * d->kv_transfer_s, 1e3 * d->d.ttft_s, 1e3 * d->d.tpot_s);
    if (d->rate > 0)
        sn_buf_printf(b,
                      "  under %.3g requests/s  TTFT P%g %.1f ms: %.1f ms "
                      "queued for a prefill instance (M/D/%d), the prefill "
                      "and the KV transfer\n",
                      d->rate, d->percentile, 1e3 * d->d.ttft_s,
                      1e3 * d->prefill_wait_s, d->prefill_instances);
    trust_text(w, w->layout, d->output_tps_gpu, b);
    limits_text(w, d->d.ttft_s, d->d.tpot_s, b);
}

void sn_render_infer_text(const struct sn_render_infer *w, struct sn_buf *out)
{
    if (w->stats) {
        front_text(w, out);
        served_text(w, out);
    } else if (w->disagg) {
        disagg_text(w, out);
    } else {
        head(w, out);
        sn_buf_printf(out, "layout: ");
        layout_line(w->layout, out);
        sn_buf_printf(out, ", %d replicas\n", w->gpus / w->result->gpus);
        result_text(w->result, out);
        /* a layout that does not fit has no figure to trust or limit */
        if (w->result->fits) {
            trust_text(w, w->layout, w->result->output_tps_gpu, out);
            /* under a load the served percentile is judged instead */
            if (!w->served)
                limits_text(w, w->result->ttft_s, w->result->tpot_s, out);
        }
        served_text(w, out);
    }
}

void sn_render_infer_layout_json(struct sn_json *j,
                                 const struct sn_infer_layout *l)
{
    sn_json_key(j, "layout");
    sn_json_obj_begin(j);
    sn_json_kint(j, "tp", l->tp);
    sn_json_kint(j, "ep", l->ep);
    sn_json_kint(j, "pp", l->pp);
    sn_json_kbool(j, "dp_attention", l->dp_attention);
    sn_json_kbool(j, "tbo", l->tbo);
    sn_json_kint(j, "redundant_experts", l->redundant);
    sn_json_kint(j, "batch", l->batch);
    sn_json_obj_end(j);
}

void sn_render_infer_result_json(struct sn_json *j,
                                 const struct sn_infer_result *r)
{
    sn_json_key(j, "result");
    sn_json_obj_begin(j);
    sn_json_kint(j, "replica_gpus", r->gpus);
    sn_json_knum(j, "weights_bytes", r->weights_bytes);
    sn_json_knum(j, "kv_bytes_per_token", r->kv_token_bytes);
    sn_json_knum(j, "kv_bytes_per_sequence_gpu", r->kv_seq_gpu);
    sn_json_knum(j, "runtime_bytes", r->runtime_bytes);
    sn_json_knum(j, "kv_budget_bytes", r->kv_budget);
    sn_json_knum(j, "capacity_bytes", r->capacity);
    sn_json_kint(j, "max_batch", r->max_batch);
    sn_json_kint(j, "batch", r->batch);
    sn_json_kbool(j, "fits", r->fits);
    /* a layout that does not fit serves nothing: its times and rates
     * are null, never figures */
    sn_json_knum(j, "experts_read", r->fits ? r->experts_hit : NAN);
    sn_json_knum(j, "ttft_s", r->fits ? r->ttft_s : NAN);
    sn_json_knum(j, "tpot_s", r->fits ? r->tpot_s : NAN);
    sn_json_knum(j, "step_s", r->fits ? r->step_s : NAN);
    sn_json_knum(j, "gpu_step_s", r->fits ? r->gpu_step_s : NAN);
    sn_json_knum(j, "host_step_s", r->fits ? r->host_step_s : NAN);
    sn_json_knum(j, "output_tokens_per_s", r->fits ? r->output_tps : NAN);
    sn_json_knum(j, "output_tokens_per_s_per_gpu",
                 r->fits ? r->output_tps_gpu : NAN);
    sn_json_knum(j, "output_tokens_per_s_per_user",
                 r->fits ? r->output_tps_user : NAN);
    sn_json_knum(j, "decode_tokens_per_s_per_gpu",
                 r->fits ? r->decode_tps_gpu : NAN);
    sn_json_knum(j, "prefill_tokens_per_s_per_gpu",
                 r->fits ? r->prefill_tps_gpu : NAN);
    sn_json_kbool(j, "kernels_extrapolated", r->kernels_extrapolated);
    sn_json_key(j, "decode_step");
    sn_json_obj_begin(j);
    for (int p = 0; p < SN_INFER_PART_COUNT; p++)
        sn_json_knum(j, sn_infer_part_name(p), r->fits ? r->part[p] : NAN);
    sn_json_obj_end(j);
    sn_json_obj_end(j);
}

static void search_json(const struct sn_render_infer *w, struct sn_json *j)
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
        sn_render_infer_layout_json(j, &w->points[i].layout);
        sn_render_infer_result_json(j, &w->points[i].result);
        trust_json(j, w, &w->points[i].layout,
                   w->points[i].result.output_tps_gpu);
        sn_json_obj_end(j);
    }
    sn_json_arr_end(j);
}

static void disagg_json(const struct sn_render_infer *w, struct sn_json *j)
{
    const struct sn_infer_disagg *d = w->disagg;
    bool found = !w->dstats || w->dstats->found;

    sn_json_knum(j, "ttft_limit_s", w->ttft_limit);
    sn_json_knum(j, "tpot_limit_s", w->tpot_limit);
    if (w->dstats) {
        sn_json_kint(j, "timed", (long long)w->dstats->timed);
        sn_json_kint(j, "splits", (long long)w->dstats->splits);
        sn_json_kbool(j, "found", found);
        if (!found) {
            sn_json_knum(j, "fastest_ttft_s", w->dstats->fastest_ttft);
            sn_json_knum(j, "fastest_tpot_s", w->dstats->fastest_tpot);
            return;
        }
    }
    sn_render_infer_layout_json(j, &d->ld);
    sn_json_key(j, "prefill_layout");
    sn_json_obj_begin(j);
    sn_json_kint(j, "tp", d->lp.tp);
    sn_json_kint(j, "ep", d->lp.ep);
    sn_json_kint(j, "pp", d->lp.pp);
    sn_json_kbool(j, "dp_attention", d->lp.dp_attention);
    sn_json_kbool(j, "tbo", d->lp.tbo);
    sn_json_obj_end(j);
    sn_json_kint(j, "prefill_gpus", d->prefill);
    sn_json_kint(j, "decode_gpus", d->decode);
    sn_json_kint(j, "prefill_instances", d->prefill_instances);
    sn_json_kint(j, "decode_instances", d->decode_instances);
    sn_json_kbool(j, "fits", d->fits);
    sn_json_knum(j, "requests_per_s", d->fits ? d->requests_per_s : NAN);
    /* per GPU of both pools: prefill + decode GPUs */
    sn_json_knum(j, "output_tokens_per_s_per_gpu",
                 d->fits ? d->output_tps_gpu : NAN);
    sn_json_knum(j, "balanced_prefill_per_decode",
                 d->fits ? d->balanced_ratio : NAN);
    sn_json_knum(j, "kv_transfer_s", d->kv_transfer_s);
    if (d->rate > 0) {
        sn_json_knum(j, "rate", d->rate);
        sn_json_knum(j, "slo_percentile", d->percentile);
        sn_json_knum(j, "prefill_wait_s", d->prefill_wait_s);
    }
    if (d->bound)
        sn_json_kstr(j, "bound", d->bound);
    sn_json_knum(j, "prefill_tokens_per_s_per_gpu",
                 d->p.fits ? d->p.prefill_tps_gpu : NAN);
    sn_render_infer_result_json(j, &d->d);
    trust_json(j, w, w->layout, d->output_tps_gpu);
}

static void served_json(const struct sn_render_infer *w, struct sn_json *j)
{
    const struct sn_infer_served *s = w->served;
    static const char *const pct[] = {"p50", "p90", "p99"};

    sn_json_key(j, "served");
    sn_json_obj_begin(j);
    sn_json_knum(j, "rate_per_replica", w->load->rate);
    sn_json_kint(j, "concurrency_per_replica", w->load->concurrency);
    sn_json_kint(j, "requests", s->requests);
    sn_json_key(j, "ttft_s");
    sn_json_obj_begin(j);
    for (int p = 0; p < SN_INFER_PCT_COUNT; p++)
        sn_json_knum(j, pct[p], s->ttft[p]);
    sn_json_obj_end(j);
    sn_json_key(j, "tpot_s");
    sn_json_obj_begin(j);
    for (int p = 0; p < SN_INFER_PCT_COUNT; p++)
        sn_json_knum(j, pct[p], s->tpot[p]);
    sn_json_obj_end(j);
    sn_json_knum(j, "output_tokens_per_s_per_gpu", s->output_tps_gpu);
    sn_json_knum(j, "requests_per_s", s->requests_per_s);
    sn_json_knum(j, "mean_batch", s->mean_batch);
    sn_json_kbool(j, "saturated", s->saturated);
    sn_json_knum(j, "slo_percentile", s->at);
    sn_json_knum(j, "ttft_at_percentile_s", s->ttft_at);
    sn_json_knum(j, "tpot_at_percentile_s", s->tpot_at);
    if (w->ttft_limit > 0 || w->tpot_limit > 0)
        sn_json_kbool(j, "meets_limits",
                      !s->saturated &&
                          !(w->ttft_limit > 0 && s->ttft_at > w->ttft_limit) &&
                          !(w->tpot_limit > 0 && s->tpot_at > w->tpot_limit));
    sn_json_obj_end(j);
}

void sn_render_infer_json(const struct sn_render_infer *w, struct sn_buf *out)
{
    const struct sn_infer_work *wk = w->work;
    struct sn_json j;

    sn_json_init(&j, out, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_INFER);
    sn_json_kstr(&j, "mode",
                 w->stats    ? "search"
                 : w->dstats ? "disaggregated-search"
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
    sn_json_knum(&j, "accept", wk->accept);
    sn_json_kstr(&j, "runtime", sn_infer_runtime_name(wk->runtime));
    if (w->stats) {
        search_json(w, &j);
    } else if (w->disagg) {
        disagg_json(w, &j);
    } else {
        sn_json_knum(&j, "ttft_limit_s", w->ttft_limit);
        sn_json_knum(&j, "tpot_limit_s", w->tpot_limit);
        sn_render_infer_layout_json(&j, w->layout);
        sn_render_infer_result_json(&j, w->result);
        trust_json(&j, w, w->layout, w->result->output_tps_gpu);
    }
    if (w->served)
        served_json(w, &j);
    sn_json_obj_end(&j);
    sn_buf_putc(out, '\n');
}
