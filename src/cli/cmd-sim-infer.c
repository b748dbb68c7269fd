/* cmd-sim-infer.c: `supernode sim infer [SPEC] --model NAME|FILE ...`:
 * serving one layout on a spec's cluster (memory, largest batch, TTFT,
 * TPOT, tokens/s per GPU and per user, decode step parts), the search's
 * throughput-latency front (--search), or disaggregated prefill/decode
 * (--disaggregate P:D), as text or JSON (SN_SCHEMA_INFER). Reached
 * through `supernode sim infer` (cmd-sim.c); its usage is in sim's help. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

#define GIB (1024.0 * 1024.0 * 1024.0)
#define FRONT_MAX 1000

struct infer_opts {
    const char *spec, *model;
    enum sn_format format;
    long long gpus, tp, ep, pp, concurrency, batch, top;
    bool dp_attention, search, tbo;
    struct cli_infer_req req;  /* requests, precisions, limits */
    long long prefill, decode; /* --disaggregate */
    struct cli_sets sets;
};

static int parse_split(const char *v, struct infer_opts *o)
{
    char *end;
    const char *colon = strchr(v, ':');
    long long p, d;

    if (!colon)
        return cli_usage_error("--disaggregate '%s': expected "
                               "PREFILL:DECODE GPUs, such as 8:24",
                               v);
    p = strtoll(v, &end, 10);
    if (end != colon || p < 1 || p > 10000000)
        return cli_usage_error("--disaggregate '%s': bad prefill count", v);
    d = strtoll(colon + 1, &end, 10);
    if (*end || d < 1 || d > 10000000)
        return cli_usage_error("--disaggregate '%s': bad decode count", v);
    o->prefill = p;
    o->decode = d;
    return SN_EXIT_OK;
}

/* One option at argv[*i] other than the numbers; *rc on error. */
static bool parse_other(int argc, char **argv, int *i, struct infer_opts *o,
                        int *rc)
{
    const char *v;

    if ((v = cli_opt_value(argc, argv, i, "--format", NULL, rc)))
        *rc = cli_parse_format(v, "text,table,json", &o->format) ? 2 : 0;
    else if ((v = cli_opt_value(argc, argv, i, "--model", NULL, rc)))
        o->model = v;
    else if ((v = cli_opt_value(argc, argv, i, "--disaggregate", NULL, rc)))
        *rc = parse_split(v, o);
    else if (*rc)
        return true;
    else if (!strcmp(argv[*i], "--dp-attention"))
        o->dp_attention = true;
    else if (!strcmp(argv[*i], "--search"))
        o->search = true;
    else if (!strcmp(argv[*i], "--tbo"))
        o->tbo = true;
    else
        return false;
    return true;
}

static int parse(int argc, char **argv, struct infer_opts *o)
{
    static const struct cli_num_opt nums[] = {
        {"--gpus", 1, 10000000, offsetof(struct infer_opts, gpus)},
        {"--tp", 1, 100000, offsetof(struct infer_opts, tp)},
        {"--ep", 1, 100000, offsetof(struct infer_opts, ep)},
        {"--pp", 1, 100000, offsetof(struct infer_opts, pp)},
        {"--concurrency", 1, 100000000,
         offsetof(struct infer_opts, concurrency)},
        {"--batch", 1, 100000000, offsetof(struct infer_opts, batch)},
        {"--top", 1, FRONT_MAX, offsetof(struct infer_opts, top)},
    };
    int rc = SN_EXIT_OK;

    memset(o, 0, sizeof(*o));
    o->format = SN_FORMAT_TABLE;
    cli_infer_req_init(&o->req);
    o->top = 20;
    for (int i = 1; i < argc; i++) {
        if (cli_set_opt(argc, argv, &i, &o->sets, &rc)) {
            if (rc)
                return rc;
            continue;
        }
        if (cli_infer_req_opt(argc, argv, &i, &o->req, &rc) ||
            cli_num_opt(argc, argv, &i, nums, SN_ARRAY_LEN(nums), o, &rc)) {
            if (rc)
                return rc;
            continue;
        }
        if (parse_other(argc, argv, &i, o, &rc)) {
            if (rc)
                return rc;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("sim infer: unknown option '%s' (see "
                                   "'supernode help sim')",
                                   argv[i]);
        } else if (o->spec) {
            return cli_usage_error("sim infer takes one SPEC (got '%s' and "
                                   "'%s')",
                                   o->spec, argv[i]);
        } else {
            o->spec = argv[i];
        }
    }
    if (o->concurrency && o->batch)
        return cli_usage_error("sim infer: --concurrency and --batch both "
                               "set the batch; give one");
    if (o->search && o->prefill)
        return cli_usage_error("sim infer: --search and --disaggregate: "
                               "give one");
    return SN_EXIT_OK;
}

/* What one `sim infer` run holds. */
struct infer_run {
    struct infer_opts o;
    struct sn_spec spec;
    struct sn_train_env env;
    struct sn_train_model_file mf;
    const struct sn_model_info *m;
    struct sn_infer_layout l;
    struct sn_infer_work w;
    struct sn_infer_limits lim;
    int gpus;
};

static int setup(struct infer_run *x, int argc, char **argv)
{
    struct sn_error err;
    int rc, total, replica;

    if ((rc = parse(argc, argv, &x->o)))
        return rc;
    if ((rc = cli_spec_load(x->o.spec, &x->o.sets, &x->spec)))
        return rc;
    if (x->o.model) {
        if (sn_train_model_resolve(&x->spec.catalog, x->o.model, &x->mf, &err))
            return cli_fail(&err);
        x->m = &x->mf.info;
    } else if (x->spec.workload.model) {
        x->m = x->spec.workload.model;
    } else {
        return cli_usage_error("sim infer: no model (give --model NAME|FILE "
                               "or workload.model in the spec)");
    }
    total = sn_spec_total_accels(&x->spec);
    x->gpus = x->o.gpus ? (int)x->o.gpus : total;
    if (x->o.prefill)
        x->gpus = (int)(x->o.prefill + x->o.decode);
    if (x->gpus > total)
        return cli_usage_error("%d GPUs are more than the spec's %d "
                               "accelerators",
                               x->gpus, total);
    if (sn_train_env_init(&x->env, &x->spec, &err))
        return cli_fail(&err);
    cli_infer_req_work(&x->o.req, &x->w, &x->lim);
    x->l.tp = x->o.tp ? (int)x->o.tp : 1;
    x->l.ep = x->o.ep ? (int)x->o.ep : 1;
    x->l.pp = x->o.pp ? (int)x->o.pp : 1;
    x->l.dp_attention = x->o.dp_attention;
    x->l.tbo = x->o.tbo;
    replica = x->l.tp * x->l.pp;
    if (x->o.batch)
        x->l.batch = (int)x->o.batch;
    else if (x->o.concurrency) /* spread over the replicas */
        x->l.batch =
            (int)((x->o.concurrency * replica + x->gpus - 1) / x->gpus);
    return SN_EXIT_OK;
}

static void layout_line(const struct sn_infer_layout *l, struct sn_buf *b)
{
    sn_buf_printf(b, "tp %d  ep %d  pp %d  attention %s%s", l->tp, l->ep, l->pp,
                  l->dp_attention ? "data-parallel" : "tensor-parallel",
                  l->tbo ? "  two-batch overlap" : "");
}

static void head(const struct infer_run *x, struct sn_buf *b)
{
    sn_buf_printf(b,
                  "%s on %d x %s (%s, %d per scale-up domain)\n"
                  "requests: %d input, %d output tokens; weights %s, KV "
                  "cache %s\n",
                  x->m->display ? x->m->display : x->m->name, x->gpus,
                  x->spec.accel->name, x->spec.name ? x->spec.name : "spec",
                  x->spec.scaleup.accelerators, x->w.isl, x->w.osl,
                  sn_dtype_name(x->w.precision), sn_dtype_name(x->w.kv));
    if (x->w.mtp > 0)
        sn_buf_printf(b,
                      "speculative: %d tokens drafted a step by the MTP "
                      "module, each accepted at %.0f%%\n",
                      x->w.mtp, 100 * SN_INFER_MTP_ACCEPT);
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

static void json_head(struct sn_json *j, const struct infer_run *x,
                      const char *mode)
{
    sn_json_obj_begin(j);
    sn_json_kstr(j, "schema", SN_SCHEMA_INFER);
    sn_json_kstr(j, "mode", mode);
    sn_json_kstr(j, "spec", x->spec.name);
    sn_json_kstr(j, "model", x->m->name);
    sn_json_kstr(j, "accelerator", x->spec.accel->name);
    sn_json_kint(j, "gpus", x->gpus);
    sn_json_kint(j, "scaleup_domain", x->spec.scaleup.accelerators);
    sn_json_kint(j, "isl", x->w.isl);
    sn_json_kint(j, "osl", x->w.osl);
    sn_json_kstr(j, "precision", sn_dtype_name(x->w.precision));
    sn_json_kstr(j, "kv_precision", sn_dtype_name(x->w.kv));
    sn_json_kint(j, "mtp", x->w.mtp);
}

static int run_layout(struct infer_run *x, struct sn_buf *out, bool *fits)
{
    struct sn_infer_result r;
    struct sn_error err;

    if (sn_infer_check(x->m, &x->env.sys, &x->l, &x->w, x->gpus, &err) ||
        sn_infer_predict(x->m, &x->env.sys, &x->l, &x->w, &r, &err))
        return cli_fail(&err);
    *fits = r.fits;
    if (x->o.format == SN_FORMAT_JSON) {
        struct sn_json j;
        sn_json_init(&j, out, true);
        json_head(&j, x, "layout");
        sn_report_infer_layout_json(&j, &x->l);
        sn_report_infer_result_json(&j, &r);
        sn_json_obj_end(&j);
        sn_buf_putc(out, '\n');
        return SN_EXIT_OK;
    }
    head(x, out);
    sn_buf_printf(out, "layout: ");
    layout_line(&x->l, out);
    sn_buf_printf(out, ", %d replicas\n", x->gpus / r.gpus);
    result_text(&r, out);
    return SN_EXIT_OK;
}

static void front_text(const struct infer_run *x,
                       const struct sn_infer_point *p, size_t n,
                       const struct sn_infer_search_stats *st, struct sn_buf *b)
{
    struct sn_table t;
    static const char *const cols[] = {
        "",        "tp",      "ep",         "pp",        "dp-attn", "batch",
        "TTFT ms", "TPOT ms", "tok/s/user", "tok/s/GPU", "GiB",     NULL};

    head(x, b);
    sn_buf_printf(b,
                  "searched %zu layouts and batches in %.3f s; %zu on the "
                  "throughput-latency front\n",
                  st->timed, st->seconds, st->pareto);
    if (x->lim.ttft > 0 || x->lim.tpot > 0) {
        char a[32] = "none", b2[32] = "none";
        if (x->lim.ttft > 0)
            snprintf(a, sizeof(a), "%.0f ms", 1e3 * x->lim.ttft);
        if (x->lim.tpot > 0)
            snprintf(b2, sizeof(b2), "%.1f ms", 1e3 * x->lim.tpot);
        sn_buf_printf(b, "limits: TTFT %s, TPOT %s\n", a, b2);
    }
    sn_table_init(&t, " ");
    for (size_t c = 0; cols[c]; c++)
        sn_table_col(&t, cols[c], c > 0);
    for (size_t i = 0; i < n; i++) {
        const struct sn_infer_layout *l = &p[i].layout;
        const struct sn_infer_result *r = &p[i].result;
        sn_table_row(&t);
        sn_table_cell(&t, "%s%s", (long)i == st->best ? "best" : "",
                      p[i].pareto ? "*" : "");
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
}

static int run_search(struct infer_run *x, struct sn_buf *out, bool *found)
{
    struct sn_infer_search_stats st;
    struct sn_infer_point *p;
    struct sn_error err;
    size_t n = 0;

    p = sn_xcalloc((size_t)x->o.top, sizeof(*p));
    if (sn_infer_search(x->m, &x->env.sys, x->gpus, &x->w, &x->lim, p,
                        (size_t)x->o.top, &n, &st, &err)) {
        free(p);
        return cli_fail(&err);
    }
    *found = st.best >= 0;
    if (x->o.format == SN_FORMAT_JSON) {
        struct sn_json j;
        sn_json_init(&j, out, true);
        json_head(&j, x, "search");
        sn_json_knum(&j, "ttft_limit_s", x->lim.ttft);
        sn_json_knum(&j, "tpot_limit_s", x->lim.tpot);
        sn_json_kint(&j, "timed", (long long)st.timed);
        sn_json_kint(&j, "pareto", (long long)st.pareto);
        sn_json_kint(&j, "best", st.best);
        sn_json_key(&j, "points");
        sn_json_arr_begin(&j);
        for (size_t i = 0; i < n; i++) {
            sn_json_obj_begin(&j);
            sn_json_kbool(&j, "pareto", p[i].pareto);
            sn_json_kbool(&j, "meets_limits", p[i].meets);
            sn_report_infer_layout_json(&j, &p[i].layout);
            sn_report_infer_result_json(&j, &p[i].result);
            sn_json_obj_end(&j);
        }
        sn_json_arr_end(&j);
        sn_json_obj_end(&j);
        sn_buf_putc(out, '\n');
    } else {
        front_text(x, p, n, &st, out);
    }
    free(p);
    return SN_EXIT_OK;
}

static int run_disagg(struct infer_run *x, struct sn_buf *out)
{
    struct sn_infer_disagg d;
    struct sn_error err;
    struct sn_infer_layout lp = x->l;

    lp.batch = 0;
    if (sn_infer_disaggregate(x->m, &x->env.sys, &lp, &x->l, &x->w,
                              (int)x->o.prefill, (int)x->o.decode, &d, &err))
        return cli_fail(&err);
    if (x->o.format == SN_FORMAT_JSON) {
        struct sn_json j;
        sn_json_init(&j, out, true);
        json_head(&j, x, "disaggregated");
        sn_report_infer_layout_json(&j, &x->l);
        sn_json_kint(&j, "prefill_gpus", d.prefill);
        sn_json_kint(&j, "decode_gpus", d.decode);
        sn_json_knum(&j, "requests_per_s", d.requests_per_s);
        sn_json_knum(&j, "output_tokens_per_s_per_gpu", d.output_tps_gpu);
        sn_json_knum(&j, "balanced_prefill_per_decode", d.balanced_ratio);
        sn_json_knum(&j, "kv_transfer_s", d.kv_transfer_s);
        sn_json_kstr(&j, "bound", d.bound);
        sn_json_knum(&j, "prefill_tokens_per_s_per_gpu", d.p.prefill_tps_gpu);
        sn_report_infer_result_json(&j, &d.d);
        sn_json_obj_end(&j);
        sn_buf_putc(out, '\n');
        return SN_EXIT_OK;
    }
    head(x, out);
    sn_buf_printf(out, "layout: ");
    layout_line(&x->l, out);
    sn_buf_printf(out,
                  "\ndisaggregated: %d prefill GPUs, %d decode GPUs\n"
                  "  prefill tokens/s/GPU   %.0f\n"
                  "  decode tokens/s/GPU    %.1f at batch %d\n"
                  "  requests/s             %.2f (%s-bound)\n"
                  "  output tokens/s/GPU    %.1f over all GPUs\n"
                  "  balanced split         %.3f prefill GPUs per decode "
                  "GPU\n"
                  "  KV transfer            %.2f ms per request\n"
                  "  TTFT                   %.1f ms, TPOT %.2f ms\n",
                  d.prefill, d.decode, d.p.prefill_tps_gpu, d.d.decode_tps_gpu,
                  d.d.batch, d.requests_per_s, d.bound, d.output_tps_gpu,
                  d.balanced_ratio, 1e3 * d.kv_transfer_s, 1e3 * d.d.ttft_s,
                  1e3 * d.d.tpot_s);
    return SN_EXIT_OK;
}

/* `supernode sim infer ...` (argv[0] is "infer"), dispatched from
 * cmd-sim.c: returns the exit status, prints the report or the error. */
int sn_cli_sim_infer(int argc, char **argv);

int sn_cli_sim_infer(int argc, char **argv)
{
    struct infer_run x = {0};
    struct sn_buf out = SN_BUF_INIT;
    bool ok = true;
    int rc;

    rc = setup(&x, argc, argv);
    if (rc)
        goto out;
    if (x.o.search)
        rc = run_search(&x, &out, &ok);
    else if (x.o.prefill)
        rc = run_disagg(&x, &out);
    else
        rc = run_layout(&x, &out, &ok);
    if (rc)
        goto out;
    cli_print(&out);
    /* a layout that does not fit, or no layout within the limits, is a
     * finding: exit 1, as a failed check */
    if (!ok)
        rc = SN_EXIT_CHECK;
out:
    sn_train_env_release(&x.env);
    sn_spec_release(&x.spec);
    sn_buf_release(&out);
    return rc;
}
