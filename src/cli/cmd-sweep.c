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
};

static int parse(int argc, char **argv, struct sweep_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->format = SN_FORMAT_TABLE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL, *name = NULL;
        static const char *const with_value[] = {
            "--set", "--model", "--output", "--format", "--gpus",
            "--gbs", "--seq",   "--dtype",  NULL,
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
                return cli_usage_error("sweep: unknown option '%s' (see "
                                       "'supernode help sweep')",
                                       a);
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
        }
    }
    if (!o->nsets)
        return cli_usage_error("sweep needs --set KEY=V1,V2,... (see "
                               "'supernode help sweep')");
    return SN_EXIT_OK;
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

static void text(const struct sn_sweep *sw, const struct sn_sweep_point *pts,
                 size_t n, struct sn_buf *b)
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
    char as[320] = "";

    for (size_t i = 0; i < sw->nfixed; i++)
        sn_buf_printf(b, "%s %s=%s\n", i ? "   " : "with", sw->fixed_keys[i],
                      sw->fixed_values[i]);
    sn_table_init(&t, "");
    for (size_t c = 0; cols[c]; c++)
        sn_table_col(&t, cols[c], c >= 2);
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
}

static void json(const struct sn_sweep *sw, const struct sn_sweep_point *pts,
                 size_t n, struct sn_buf *b)
{
    struct sn_json j;

    sn_json_init(&j, b, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_SWEEP);
    sn_json_kstr(&j, "key", sw->key);
    sn_json_key(&j, "fixed");
    sn_json_obj_begin(&j);
    for (size_t i = 0; i < sw->nfixed; i++)
        sn_json_kstr(&j, sw->fixed_keys[i], sw->fixed_values[i]);
    sn_json_obj_end(&j);
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
        cli_layout_json(&j, l, 0);
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
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);
    sn_json_obj_end(&j);
    sn_buf_putc(b, '\n');
}

static int sweep_run(int argc, char **argv)
{
    struct sweep_opts o;
    struct sn_sweep s;
    struct sn_sweep_point *pts = NULL;
    struct sn_train_model_file mf;
    struct sn_error err;
    struct sn_buf out;
    char *sets[SWEEP_MAX_SETS] = {0}, *keys[SWEEP_MAX_SETS];
    char **values = NULL, *key = NULL;
    const char *fixed_keys[SWEEP_MAX_SETS], *fixed_values[SWEEP_MAX_SETS];
    size_t counts[SWEEP_MAX_SETS], n = 0, nfixed = 0, varied;
    int rc;

    sn_buf_init(&out);
    rc = parse(argc, argv, &o);
    if (rc)
        goto out;
    values = sn_xcalloc(o.nsets * SN_SWEEP_MAX_VALUES, sizeof(*values));
    varied = o.nsets;
    for (size_t i = 0; i < o.nsets; i++) {
        sets[i] = sn_xstrdup(o.sets[i]);
        if ((rc = split(sets[i], &keys[i], values + i * SN_SWEEP_MAX_VALUES,
                        &counts[i])))
            goto out;
        if (counts[i] < 2)
            continue;
        if (varied < o.nsets) {
            rc = cli_usage_error("sweep varies one key: %s and %s both "
                                 "have several values",
                                 keys[varied], keys[i]);
            goto out;
        }
        varied = i;
    }
    if (varied == o.nsets) {
        if (o.nsets > 1) {
            rc = cli_usage_error("sweep varies one key: give it several "
                                 "values (--set KEY=V1,V2,...)");
            goto out;
        }
        varied = 0;
    }
    for (size_t i = 0; i < o.nsets; i++) {
        if (i == varied)
            continue;
        fixed_keys[nfixed] = keys[i];
        fixed_values[nfixed++] = values[i * SN_SWEEP_MAX_VALUES];
    }
    key = keys[varied];
    n = counts[varied];
    memset(&s, 0, sizeof(s));
    s.spec_path = o.spec;
    s.key = key;
    s.values = (const char *const *)(values + varied * SN_SWEEP_MAX_VALUES);
    s.nvalues = n;
    s.fixed_keys = fixed_keys;
    s.fixed_values = fixed_values;
    s.nfixed = nfixed;
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
    pts = sn_xcalloc(n, sizeof(*pts));
    if (sn_sweep_run(&s, pts, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    {
        /* every value refused: the sweep itself is bad input */
        size_t ok = 0;
        for (size_t i = 0; i < n; i++)
            ok += pts[i].ok;
        if (!ok) {
            rc = cli_usage_error("sweep: %s", pts[0].error);
            goto out;
        }
    }
    if (o.format == SN_FORMAT_JSON)
        json(&s, pts, n, &out);
    else
        text(&s, pts, n, &out);
    if (o.output)
        rc = cli_write(o.output, &out);
    else
        cli_print(&out);
out:
    free(pts);
    for (size_t i = 0; i < SWEEP_MAX_SETS; i++)
        free(sets[i]);
    free(values);
    sn_buf_release(&out);
    return rc;
}

const struct sn_cmd sn_cmd_sweep = {
    "sweep",
    "[SPEC] [--set KEY=V]... --set KEY=V1,V2,... [--model NAME|FILE] "
    "[--gpus N] [--gbs N] "
    "[--seq N] [--dtype bf16|fp16|fp8] [--format table|json] "
    "[--output FILE]",
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
    "The model is the spec's workload unless --model names one.\n",
    sweep_run,
};
