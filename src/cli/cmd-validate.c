/* cmd-validate.c: `supernode validate FILE.csv`: predicts every measured
 * training run of a CSV (the columns of training-public.csv) and prints
 * predicted against measured per row, the median and mean absolute
 * percentage error, the worst rows, a per-source breakdown and the rank
 * correlation of layouts within each (source, model, GPU count). Rows
 * that cannot be predicted are listed with the reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

struct validate_opts {
    const char *file;
    const char *output;
    enum sn_format format;
};

static int parse(int argc, char **argv, struct validate_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->format = SN_FORMAT_TABLE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (!strncmp(a, "--format=", 9)) {
            v = a + 9;
        } else if (!strcmp(a, "--format") || !strcmp(a, "-f")) {
            if (i + 1 >= argc)
                return cli_usage_error("--format needs a value");
            v = argv[++i];
        }
        if (v) {
            if (cli_parse_format(v, "text,table,json", &o->format))
                return SN_EXIT_USAGE;
            continue;
        }
        if (!strncmp(a, "--output=", 9)) {
            o->output = a + 9;
        } else if (!strcmp(a, "--output") || !strcmp(a, "-o")) {
            if (i + 1 >= argc)
                return cli_usage_error("--output needs a value");
            o->output = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("validate: unknown option '%s' (see "
                                   "'supernode help validate')",
                                   a);
        } else if (o->file) {
            return cli_usage_error("validate takes one FILE.csv (got '%s' "
                                   "and '%s')",
                                   o->file, a);
        } else {
            o->file = a;
        }
    }
    if (!o->file)
        return cli_usage_error("validate needs a FILE.csv (see 'supernode "
                               "help validate')");
    return SN_EXIT_OK;
}

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

static void text(const struct sn_validate_report *rep, struct sn_buf *b)
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

    sn_buf_printf(b,
                  "\n%zu of %zu rows predicted; absolute error: median "
                  "%.2f%%, mean %.2f%%\n",
                  rep->npredicted, rep->nrows, rep->median_abs_pct,
                  rep->mean_abs_pct);
    if (rep->nworst) {
        sn_buf_printf(b, "worst rows:");
        for (size_t w = 0; w < rep->nworst; w++) {
            const struct sn_validate_row *r = &rep->rows[rep->worst[w]];
            sn_buf_printf(b, "%s line %d %s %+.1f%%", w ? "," : "", r->line,
                          r->model, r->error_pct);
        }
        sn_buf_printf(b, "\n");
    }

    sn_table_init(&t, "");
    sn_table_col(&t, "source", false);
    sn_table_col(&t, "rows", true);
    sn_table_col(&t, "predicted", true);
    sn_table_col(&t, "median |err|", true);
    sn_table_col(&t, "mean |err|", true);
    for (size_t s = 0; s < rep->nsources; s++) {
        const struct sn_validate_source *x = &rep->sources[s];
        short_source(x->source, src, sizeof(src));
        sn_table_row(&t);
        sn_table_cell(&t, "%s", src);
        sn_table_cell(&t, "%zu", x->n);
        sn_table_cell(&t, "%zu", x->predicted);
        sn_table_cell(&t, "%.2f%%", x->median_abs_pct);
        sn_table_cell(&t, "%.2f%%", x->mean_abs_pct);
    }
    sn_buf_printf(b, "\nby source\n");
    sn_table_render(&t, b);
    sn_table_release(&t);

    if (rep->ngroups) {
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
}

static void json(const struct sn_validate_report *rep, struct sn_buf *b)
{
    struct sn_json j;

    sn_json_init(&j, b, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_VALIDATE);
    sn_json_kstr(&j, "file", rep->file);
    sn_json_key(&j, "rows");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < rep->nrows; i++) {
        const struct sn_validate_row *r = &rep->rows[i];
        const struct sn_train_layout *l = &r->layout;
        sn_json_obj_begin(&j);
        sn_json_kint(&j, "line", r->line);
        sn_json_kstr(&j, "source", r->source);
        sn_json_kstr(&j, "model", r->model);
        sn_json_kstr(&j, "gpu", r->gpu);
        sn_json_kint(&j, "gpus", r->gpus);
        sn_json_kstr(&j, "metric", r->metric);
        sn_json_knum(&j, "measured", r->measured);
        if (r->predicted_ok) {
            sn_json_kstr(&j, "system", r->system);
            sn_json_knum(&j, "predicted", r->predicted);
            sn_json_knum(&j, "error_pct", r->error_pct);
            sn_json_knum(&j, "step_time_s", r->result.step_time);
            sn_report_train_layout_json(&j, l, SN_REPORT_LAYOUT_PRECISION);
            sn_json_kstr(&j, "assumed", r->assumed);
            sn_json_key(&j, "reason");
            sn_json_null(&j);
        } else {
            sn_json_key(&j, "predicted");
            sn_json_null(&j);
            sn_json_key(&j, "error_pct");
            sn_json_null(&j);
            sn_json_kstr(&j, "reason", r->reason);
        }
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);
    sn_json_key(&j, "summary");
    sn_json_obj_begin(&j);
    sn_json_kint(&j, "rows", (long long)rep->nrows);
    sn_json_kint(&j, "predicted", (long long)rep->npredicted);
    sn_json_knum(&j, "median_abs_error_pct", rep->median_abs_pct);
    sn_json_knum(&j, "mean_abs_error_pct", rep->mean_abs_pct);
    sn_json_key(&j, "worst");
    sn_json_arr_begin(&j);
    for (size_t w = 0; w < rep->nworst; w++) {
        const struct sn_validate_row *r = &rep->rows[rep->worst[w]];
        sn_json_obj_begin(&j);
        sn_json_kint(&j, "line", r->line);
        sn_json_kstr(&j, "model", r->model);
        sn_json_knum(&j, "error_pct", r->error_pct);
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);
    sn_json_key(&j, "sources");
    sn_json_arr_begin(&j);
    for (size_t s = 0; s < rep->nsources; s++) {
        const struct sn_validate_source *x = &rep->sources[s];
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "source", x->source);
        sn_json_kint(&j, "rows", (long long)x->n);
        sn_json_kint(&j, "predicted", (long long)x->predicted);
        sn_json_knum(&j, "median_abs_error_pct", x->median_abs_pct);
        sn_json_knum(&j, "mean_abs_error_pct", x->mean_abs_pct);
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);
    sn_json_key(&j, "groups");
    sn_json_arr_begin(&j);
    for (size_t g = 0; g < rep->ngroups; g++) {
        const struct sn_validate_group *x = &rep->groups[g];
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "source", x->source);
        sn_json_kstr(&j, "model", x->model);
        sn_json_kint(&j, "gpus", x->gpus);
        sn_json_kint(&j, "layouts", (long long)x->n);
        sn_json_knum(&j, "spearman", x->spearman);
        sn_json_knum(&j, "top_measured", x->top_measured);
        sn_json_knum(&j, "best_measured", x->best_measured);
        sn_json_knum(&j, "top_gap_pct", x->top_gap_pct);
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);
    sn_json_obj_end(&j);
    sn_json_obj_end(&j);
    sn_buf_putc(b, '\n');
}

static int validate_run(int argc, char **argv)
{
    struct validate_opts o;
    struct sn_validate_report rep;
    struct sn_error err;
    struct sn_buf out;
    char *data = NULL;
    size_t len = 0;
    bool have = false;
    int rc;

    sn_buf_init(&out);
    rc = parse(argc, argv, &o);
    if (rc)
        goto out;
    if (sn_read_file(o.file, SN_FILE_MAX, &data, &len, &err) ||
        sn_validate_csv(o.file, data, len, &rep, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    have = true;
    if (o.format == SN_FORMAT_JSON)
        json(&rep, &out);
    else
        text(&rep, &out);
    if (o.output)
        rc = cli_write(o.output, &out);
    else
        cli_print(&out);
    /* a model or GPU the tool does not know: the row named, with what to
     * add, and exit 2, so a script sees the file was not all checked */
    for (size_t i = 0; !rc && i < rep.nrows; i++)
        if (rep.rows[i].unknown)
            fprintf(stderr, "supernode: %s:%d: %s\n", o.file, rep.rows[i].line,
                    rep.rows[i].reason);
    for (size_t i = 0; !rc && i < rep.nrows; i++)
        if (rep.rows[i].unknown)
            rc = SN_EXIT_USAGE;
out:
    if (have)
        sn_validate_report_release(&rep);
    free(data);
    sn_buf_release(&out);
    return rc;
}

const struct sn_cmd sn_cmd_validate = {
    "validate",
    "FILE.csv [--format table|json] [--output FILE]",
    "predict published training runs and compare with what was measured",
    "Each row of FILE.csv (the columns of training-public.csv: source,\n"
    "model, params_B, layers, hidden, heads, seq, vocab, gpu, n_gpus, tp,\n"
    "pp, dp, other_parallel, micro_batch, global_batch, recompute,\n"
    "measured_metric, measured_value, notes) is predicted with its stated\n"
    "configuration on the built-in system its gpu column names (DGX A100,\n"
    "DGX H100, HGX H800/H200, DGX B200/B300, GB200/GB300 NVL72, MI300X,\n"
    "Gaudi 3; NIC counts written as '8x200G' or '400G per GPU' override the\n"
    "system's). Output: predicted against measured per row, the median and\n"
    "mean absolute percentage error, the worst rows, a breakdown by source,\n"
    "and for sources that measured several layouts of one model on one GPU\n"
    "count, the Spearman rank correlation and how far the predicted best is\n"
    "from the measured best. What a row leaves out (micro-batch, recompute,\n"
    "vocabulary) is assumed and said so; rows that cannot be predicted are\n"
    "listed with the reason. A row naming a model or GPU the tool does not\n"
    "know is also reported on stderr as FILE:LINE with what to add, and\n"
    "the exit status is then 2.\n"
    "\n"
    "The MoE training columns (precision, cp, vpp, ep, etp; dp derived\n"
    "when blank) and the serving file's (inference-public.csv: precision,\n"
    "kv_precision, tp, ep, pp, dp_attention, mode, isl, osl, concurrency;\n"
    "metrics output, prefill and decode tokens/s per GPU or per user,\n"
    "ttft_s, tpot_ms) are read by header name; a serving file is known by\n"
    "its isl column and predicted by the serving model (sim infer).\n",
    validate_run,
};
