/* cmd-validate.c: `supernode validate FILE.csv`: predicts every measured
 * training run of a CSV (the columns of training-public.csv) and prints
 * predicted against measured per row, the median and mean absolute
 * percentage error, the worst rows, a per-source breakdown and the rank
 * correlation of layouts within each (source, model, GPU count). Rows
 * that cannot be predicted are listed with the reason. The tables and
 * the document are sn_render_validate_* (src/lib/render/validate.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

#define VALIDATE_MAX_FILES 16

struct validate_opts {
    const char *file;
    const char *files[VALIDATE_MAX_FILES]; /* --bands: every file */
    int nfiles;
    bool bands;
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
        } else if (!strcmp(a, "--bands")) {
            o->bands = true;
        } else if (a[0] == '-' && a[1]) {
            return cli_unknown_option("validate", a, "validate");
        } else if (o->nfiles == VALIDATE_MAX_FILES) {
            return cli_usage_error("validate --bands: at most %d files",
                                   VALIDATE_MAX_FILES);
        } else {
            o->files[o->nfiles++] = a;
            o->file = o->files[0];
        }
    }
    if (o->bands && o->format != SN_FORMAT_TABLE)
        return cli_usage_error("validate --bands writes C source, not "
                               "--format json");
    for (int i = 0; o->bands && i < o->nfiles; i++)
        for (int k = 0; k < i; k++)
            if (!strcmp(o->files[i], o->files[k]))
                return cli_usage_error("validate --bands: '%s' given twice "
                                       "(its rows would count twice)",
                                       o->files[i]);
    if (o->nfiles > 1 && !o->bands)
        return cli_usage_error("validate takes one FILE.csv (got '%s' "
                               "and '%s'; several only with --bands)",
                               o->files[0], o->files[1]);
    if (!o->file)
        return cli_usage_error("validate needs a FILE.csv (see 'supernode "
                               "help validate')");
    return SN_EXIT_OK;
}

/* --bands: every file validated, the classes and bands over all their
 * rows, the table as C source (src/lib/model/bands.c). A file with no
 * predicted row makes no band and is refused. */
static int bands_run(const struct validate_opts *o)
{
    struct sn_validate_report reps[VALIDATE_MAX_FILES];
    struct sn_validate_row **rows = NULL;
    struct sn_validate_class *cls = NULL;
    struct sn_error err;
    struct sn_buf out;
    size_t n = 0, ncls = 0;
    int have = 0, rc = SN_EXIT_OK;

    sn_buf_init(&out);
    for (int f = 0; f < o->nfiles; f++) {
        char *data = NULL;
        size_t len = 0;
        if (sn_read_file(o->files[f], SN_FILE_MAX, &data, &len, &err) ||
            sn_validate_csv(o->files[f], data, len, &reps[f], &err)) {
            free(data);
            rc = cli_fail(&err);
            goto out;
        }
        free(data);
        have++;
        if (!reps[f].npredicted) {
            fprintf(stderr,
                    "supernode: %s: no row could be predicted: no "
                    "band comes from it\n",
                    o->files[f]);
            rc = SN_EXIT_CHECK;
            goto out;
        }
        n += reps[f].nrows;
    }
    rows = sn_xcalloc(n ? n : 1, sizeof(*rows));
    n = 0;
    for (int f = 0; f < have; f++)
        for (size_t i = 0; i < reps[f].nrows; i++)
            rows[n++] = &reps[f].rows[i];
    sn_validate_classify(rows, n, &cls, &ncls);
    sn_validate_bands_c(rows, n, &out);
    if (o->output)
        rc = cli_write(o->output, &out);
    else
        cli_print(&out);
out:
    for (int f = 0; f < have; f++)
        sn_validate_report_release(&reps[f]);
    free(cls);
    free(rows);
    sn_buf_release(&out);
    return rc;
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
    if (o.bands) {
        rc = bands_run(&o);
        goto out;
    }
    if (sn_read_file(o.file, SN_FILE_MAX, &data, &len, &err) ||
        sn_validate_csv(o.file, data, len, &rep, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    have = true;
    if (o.format == SN_FORMAT_JSON)
        sn_render_validate_json(&rep, &out);
    else
        sn_render_validate_text(&rep, &out);
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
    /* nothing compared: not a pass (exit 1, as a check that failed) */
    if (!rc && !rep.npredicted) {
        fprintf(stderr,
                "supernode: %s: no row could be predicted (each "
                "row's reason is in the table)\n",
                o.file);
        rc = SN_EXIT_CHECK;
    }
out:
    if (have)
        sn_validate_report_release(&rep);
    free(data);
    sn_buf_release(&out);
    return rc;
}

const struct sn_cmd sn_cmd_validate = {
    "validate",
    "FILE.csv [--format table|json] [--output FILE] | --bands FILE.csv...",
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
    "its isl column and predicted by the serving model (sim infer).\n"
    "\n"
    "Every predicted row is classed (training: dense or MoE, GPU\n"
    "generation, software stack, host CPU; serving: model size, GPU\n"
    "generation, runtime, host CPU) and each source and class gets its\n"
    "rows, median and P90 |error|, signed mean error (+: the model is\n"
    "optimistic) and share of optimistic rows. Each row also gets a\n"
    "leave-one-source-out band: P10-P90 of measured / predicted over the\n"
    "other sources' rows of its class (docs/model.md, 'Classes and\n"
    "bands'). When no row can be predicted the exit status is 1.\n"
    "\n"
    "--bands FILE.csv... validates every file and writes the band table\n"
    "that sim train, sim infer and sweep print beside their figures, as\n"
    "the C source of src/lib/model/bands.c.\n",
    validate_run,
};
