/* cmd-sweep.c: `supernode sweep [SPEC] --set KEY=V1,V2,...`: re-plans
 * and re-predicts a design at every value of one parameter (throughput of
 * the best layout, goodput, links, switch chips, power) and marks the
 * value with the most goodput-weighted tokens per accelerator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

/* --set options: one varies, the others fix a key at every point */
#define SWEEP_MAX_SETS 16

struct sweep_opts {
    const char *spec;
    const char *sets[SWEEP_MAX_SETS];
    size_t nsets;
    const char *model;
    const char *output;
    enum sn_format format;
    long long gpus, gbs, seq;
    int dtype;
    bool dtype_given;
    bool infer;               /* --infer: a serving sweep */
    const char *kernels;      /* --kernels FILE: its kernel table */
    struct cli_infer_req req; /* its requests and limits */
};

/* Training's options and serving's do not mix: each belongs to one. */
static int check_mode(const struct sweep_opts *o)
{
    if (o->infer && !o->model)
        return cli_usage_error("sweep --infer needs --model NAME|FILE: the "
                               "model to serve (the spec's workload is a "
                               "training job)");
    if (o->infer && (o->gbs || o->seq || o->dtype_given))
        return cli_usage_error("sweep --infer: --gbs, --seq and --dtype are "
                               "training's; a serving sweep takes --isl, "
                               "--osl and --precision");
    if (!o->infer && o->kernels)
        return cli_usage_error("sweep: --kernels rates the serving "
                               "search's GEMMs: add --infer");
    if (!o->infer && o->req.given)
        return cli_usage_error("sweep: --isl, --osl, --mtp, --precision, "
                               "--kv-precision, --ttft and --tpot are "
                               "serving options: add --infer");
    return SN_EXIT_OK;
}

static int parse(int argc, char **argv, struct sweep_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->format = SN_FORMAT_TABLE;
    cli_infer_req_init(&o->req);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL, *name = NULL;
        int rc = SN_EXIT_OK;
        if (cli_infer_req_opt(argc, argv, &i, &o->req, &rc)) {
            if (rc)
                return rc;
            continue;
        }
        if (!strcmp(a, "--infer")) {
            o->infer = true;
            continue;
        }
        static const char *const with_value[] = {
            "--set", "--model", "--output", "--format",  "--gpus",
            "--gbs", "--seq",   "--dtype",  "--kernels", NULL,
        };
        for (size_t k = 0; with_value[k] && !name; k++) {
            size_t n = strlen(with_value[k]);
            if (!strncmp(a, with_value[k], n) && a[n] == '=') {
                name = with_value[k];
                v = a + n + 1;
            } else if (!strcmp(a, with_value[k])) {
                name = with_value[k];
                if (i + 1 >= argc)
                    return cli_usage_error("%s needs a value", name);
                v = argv[++i];
            }
        }
        if (!name) {
            if (a[0] == '-' && a[1])
                return cli_unknown_option("sweep", a, "sweep");
            if (o->spec)
                return cli_usage_error("sweep takes one SPEC (got '%s' and "
                                       "'%s')",
                                       o->spec, a);
            o->spec = a;
        } else if (!strcmp(name, "--set")) {
            if (o->nsets == SWEEP_MAX_SETS)
                return cli_usage_error("sweep: at most %d --set options",
                                       SWEEP_MAX_SETS);
            o->sets[o->nsets++] = v;
        } else if (!strcmp(name, "--model")) {
            o->model = v;
        } else if (!strcmp(name, "--output")) {
            o->output = v;
        } else if (!strcmp(name, "--kernels")) {
            o->kernels = v;
        } else if (!strcmp(name, "--format")) {
            if (cli_parse_format(v, "text,table,json", &o->format))
                return SN_EXIT_USAGE;
        } else if (!strcmp(name, "--gpus")) {
            if (cli_parse_long(name, v, 1, 10000000, &o->gpus))
                return SN_EXIT_USAGE;
        } else if (!strcmp(name, "--gbs")) {
            if (cli_parse_long(name, v, 1, 100000000, &o->gbs))
                return SN_EXIT_USAGE;
        } else if (!strcmp(name, "--seq")) {
            if (cli_parse_long(name, v, 1, 100000000, &o->seq))
                return SN_EXIT_USAGE;
        } else {
            enum sn_dtype d;
            struct sn_error err;
            if (sn_dtype_parse(v, &d, &err))
                return cli_usage_error("--dtype: %s", err.msg);
            o->dtype = (int)d;
            o->dtype_given = true;
        }
    }
    if (!o->nsets)
        return cli_usage_error("sweep needs --set KEY=V1,V2,... (see "
                               "'supernode help sweep')");
    return check_mode(o);
}

/* The comma that ends a value, skipping those inside a YAML flow list or
 * mapping ("supernode.dims=[4,4,4],[4,4,8]"); NULL at the last value. */
static char *value_end(char *p)
{
    int depth = 0;

    for (; *p; p++) {
        if (*p == '[' || *p == '{')
            depth++;
        else if ((*p == ']' || *p == '}') && depth > 0)
            depth--;
        else if (*p == ',' && !depth)
            return p;
    }
    return NULL;
}

/* Split "key=v1,v2,..." in place. */
static int split(char *set, char **key, char **values, size_t *n)
{
    char *eq = strchr(set, '='), *p;

    if (!eq || eq == set || !eq[1])
        return cli_usage_error("--set '%s': expected KEY=V1,V2,...", set);
    *eq = '\0';
    *key = set;
    *n = 0;
    for (p = eq + 1; p;) {
        char *c = value_end(p);
        if (c)
            *c = '\0';
        if (!*p)
            return cli_usage_error("--set %s: an empty value", set);
        if (*n >= SN_SWEEP_MAX_VALUES)
            return cli_usage_error("--set %s: more than %d values", set,
                                   SN_SWEEP_MAX_VALUES);
        values[(*n)++] = p;
        p = c ? c + 1 : NULL;
    }
    return SN_EXIT_OK;
}

/* What one sweep holds: the --set options split in place, the values of
 * the varied key and the fixed ones. */
struct sweep_sets {
    char *sets[SWEEP_MAX_SETS], *keys[SWEEP_MAX_SETS];
    char **values;
    const char *fixed_keys[SWEEP_MAX_SETS], *fixed_values[SWEEP_MAX_SETS];
    size_t counts[SWEEP_MAX_SETS];
};

/* Split the --set options into the varied key with its values and the
 * fixed ones, into s. */
static int sweep_keys(const struct sweep_opts *o, struct sweep_sets *x,
                      struct sn_sweep *s)
{
    size_t nfixed = 0, varied = o->nsets;
    int rc;

    x->values = sn_xcalloc(o->nsets * SN_SWEEP_MAX_VALUES, sizeof(*x->values));
    for (size_t i = 0; i < o->nsets; i++) {
        x->sets[i] = sn_xstrdup(o->sets[i]);
        if ((rc = split(x->sets[i], &x->keys[i],
                        x->values + i * SN_SWEEP_MAX_VALUES, &x->counts[i])))
            return rc;
        if (x->counts[i] < 2)
            continue;
        if (varied < o->nsets)
            return cli_usage_error("sweep varies one key: %s and %s both "
                                   "have several values",
                                   x->keys[varied], x->keys[i]);
        varied = i;
    }
    if (varied == o->nsets) {
        if (o->nsets > 1)
            return cli_usage_error("sweep varies one key: give it several "
                                   "values (--set KEY=V1,V2,...)");
        varied = 0;
    }
    for (size_t i = 0; i < o->nsets; i++) {
        if (i == varied)
            continue;
        x->fixed_keys[nfixed] = x->keys[i];
        x->fixed_values[nfixed++] = x->values[i * SN_SWEEP_MAX_VALUES];
    }
    s->key = x->keys[varied];
    s->values = (const char *const *)(x->values + varied * SN_SWEEP_MAX_VALUES);
    s->nvalues = x->counts[varied];
    s->fixed_keys = x->fixed_keys;
    s->fixed_values = x->fixed_values;
    s->nfixed = nfixed;
    return SN_EXIT_OK;
}

static int run_train(const struct sweep_opts *o, const struct sn_sweep *s,
                     struct sn_buf *out)
{
    struct sn_sweep_point *pts = sn_xcalloc(s->nvalues, sizeof(*pts));
    struct sn_error err;
    size_t ok = 0;
    int rc = SN_EXIT_OK;

    if (sn_sweep_run(s, pts, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    /* every value refused: the sweep itself is bad input */
    for (size_t i = 0; i < s->nvalues; i++)
        ok += pts[i].ok;
    if (!ok) {
        rc = cli_usage_error("sweep: %s", pts[0].error);
        goto out;
    }
    if (o->format == SN_FORMAT_JSON)
        sn_render_sweep_json(s, pts, s->nvalues, out);
    else
        sn_render_sweep_text(s, pts, s->nvalues, out);
out:
    free(pts);
    return rc;
}

/* The serving sweep; *met false when no value meets the limits. */
static int run_infer(const struct sweep_opts *o, const struct sn_sweep *s,
                     struct sn_buf *out, bool *met)
{
    struct sn_sweep_infer si = {.sweep = *s};
    struct sn_sweep_infer_point *pts = sn_xcalloc(s->nvalues, sizeof(*pts));
    struct sn_kernel_table *kernels = NULL;
    struct sn_error err;
    size_t ok = 0;
    int rc = SN_EXIT_OK;

    cli_infer_req_work(&o->req, &si.work, &si.limits);
    /* a measured kernel table in place of the shipped ones */
    if (o->kernels && sn_kernels_load(o->kernels, &kernels, &err)) {
        sn_error_prefix(&err, "--kernels");
        rc = cli_fail(&err);
        goto out;
    }
    si.kernels = kernels;
    if (sn_sweep_infer_run(&si, pts, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    *met = false;
    for (size_t i = 0; i < s->nvalues; i++) {
        ok += pts[i].ok;
        *met |= pts[i].have_best;
    }
    if (!ok) {
        rc = cli_usage_error("sweep: %s", pts[0].error);
        goto out;
    }
    if (o->format == SN_FORMAT_JSON)
        sn_render_sweep_infer_json(&si, pts, s->nvalues, out);
    else
        sn_render_sweep_infer_text(&si, pts, s->nvalues, out);
out:
    sn_kernels_free(kernels);
    free(pts);
    return rc;
}

static int sweep_run(int argc, char **argv)
{
    struct sweep_opts o;
    struct sweep_sets x = {0};
    struct sn_sweep s = {0};
    struct sn_train_model_file mf;
    struct sn_error err;
    struct sn_buf out;
    bool met = true;
    int rc;

    sn_buf_init(&out);
    if ((rc = parse(argc, argv, &o)) || (rc = sweep_keys(&o, &x, &s)))
        goto out;
    s.spec_path = o.spec;
    s.gpus = (int)o.gpus;
    s.gbs = (int)o.gbs;
    s.seq = (int)o.seq;
    s.dtype = (enum sn_dtype)o.dtype;
    if (o.model) {
        if (sn_train_model_resolve(sn_catalog_builtin(), o.model, &mf, &err)) {
            rc = cli_fail(&err);
            goto out;
        }
        s.model = &mf.info;
    }
    rc = o.infer ? run_infer(&o, &s, &out, &met) : run_train(&o, &s, &out);
    if (rc)
        goto out;
    if (o.output)
        rc = cli_write(o.output, &out);
    else
        cli_print(&out);
    /* no value meets the serving limits: a finding, as sim infer's */
    if (!rc && !met)
        rc = SN_EXIT_CHECK;
out:
    for (size_t i = 0; i < SWEEP_MAX_SETS; i++)
        free(x.sets[i]);
    free(x.values);
    sn_buf_release(&out);
    return rc;
}

const struct sn_cmd sn_cmd_sweep = {
    "sweep",
    "[SPEC] [--set KEY=V]... --set KEY=V1,V2,... [--model NAME|FILE] "
    "[--gpus N] [--gbs N] "
    "[--seq N] [--dtype bf16|fp16|fp8] [--infer [--isl N --osl N] "
    "[--precision bf16|fp8|fp4 --kv-precision fp8|bf16] [--ttft T] "
    "[--tpot T] [--kernels FILE]] [--format table|json] [--output FILE]",
    "re-plan and re-predict a design over the values of one parameter",
    "For every value of KEY (a dotted spec key, as 'spec check --set'),\n"
    "the design is re-validated, re-built and re-planned, and training is\n"
    "re-predicted: the fastest layout that fits (the layout search), its\n"
    "step time, tokens/s and MFU; goodput under failures (the spec's\n"
    "reliability and storage sections); links, switch chips and power from\n"
    "the plan. The value with the most goodput-weighted tokens/s per\n"
    "accelerator is marked: for the size of the scale-up domain, the sweet\n"
    "spot between what tighter coupling gains and what a larger fault\n"
    "domain costs. Example:\n"
    "  supernode sweep --set supernode.accelerators=8,16,32,64\n"
    "Further --set options with one value fix a key at every point, applied\n"
    "in order before the varied one: a one-tier switched fabric cannot\n"
    "grow past its chip's radix, so to sweep beyond it\n"
    "  supernode sweep --set supernode.tiers=2 \\\n"
    "      --set supernode.accelerators=8,16,32,64,72,128,256\n"
    "Every design runs the same job: --gpus N, else as many accelerators\n"
    "as the spec has (with the fixed keys) before the varied one; a sweep\n"
    "of 'supernodes' varies the job itself. Each design gets the\n"
    "supernodes the job needs, no more.\n"
    "The model is the spec's workload unless --model names one.\n"
    "With --infer the sweep serves --model instead of training it: at each\n"
    "value the serving search of 'sim infer --search' (layouts and batch\n"
    "sizes, with its --isl, --osl, --mtp, --precision and --kv-precision)\n"
    "finds the most output tokens/s per accelerator within --ttft and\n"
    "--tpot, on one scale-up domain (replicated over the others) or on\n"
    "--gpus N; --kernels FILE rates its GEMMs by a measured kernel table\n"
    "(sim infer's). A value where the weights do not fit or nothing meets the\n"
    "limits is a row that says so; the sweet spot is the most tokens/s per\n"
    "accelerator, values within 1% of it counting as equal, won by the\n"
    "smallest domain. Exit 1 when no value meets the limits. Example:\n"
    "  supernode sweep examples/cloudmatrix-384.yaml \\\n"
    "      --set supernode.accelerators=8,16,32,72,144,384 \\\n"
    "      --model deepseek-r1 --infer --tpot 50ms\n",
    sweep_run,
};
