/* cmd-sim-train.c: `supernode sim train [SPEC] --model NAME|FILE ...`: the
 * memory, step time, throughput, MFU/HFU and goodput of one training
 * layout on a spec's cluster, or (`--search`) the fastest layouts that
 * fit, as text or JSON (sn_render_train_*, src/lib/render/train.c).
 * Reached through `supernode sim train` (cmd-sim.c); its usage is in
 * sim's help. */
#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

#define TOP_MAX 1000

struct train_opts {
    const char *spec;
    const char *model;
    const char *output;
    enum sn_format format;
    long long gpus, tp, pp, dp, ep, etp, cp, mbs, gbs, seq, vpp, zero;
    int recompute;        /* -1: not given */
    int dtype;            /* -1: not given */
    int sp;               /* -1 not given, 0 off, 1 on */
    bool legacy;          /* 2021-22 Megatron-LM software */
    const char *software; /* --software NAME; NULL: the spec's, or none */
    double moe_capacity;  /* 0: forced-balanced routing */
    const char *kernels;  /* --kernels FILE: a measured kernel table */
    bool search;
    long long top;
    long long explain; /* 0: none; K: the K-th of the search */
    struct cli_sets sets;
};

static int pick(const char *opt, const char *v, const char *const *names,
                int *out)
{
    for (int i = 0; names[i]; i++) {
        if (!strcmp(v, names[i])) {
            *out = i;
            return SN_EXIT_OK;
        }
    }
    return cli_usage_error("%s: unknown value '%s'", opt, v);
}

static int parse(int argc, char **argv, struct train_opts *o)
{
    static const char *const rc_names[] = {"none", "selective", "full", NULL};
    static const struct cli_num_opt nums[] = {
        {"--gpus", 1, 10000000, offsetof(struct train_opts, gpus)},
        {"--tp", 1, 1024, offsetof(struct train_opts, tp)},
        {"--pp", 1, 100000, offsetof(struct train_opts, pp)},
        {"--dp", 1, 10000000, offsetof(struct train_opts, dp)},
        {"--ep", 1, 100000, offsetof(struct train_opts, ep)},
        {"--etp", 1, 1024, offsetof(struct train_opts, etp)},
        {"--cp", 1, 1024, offsetof(struct train_opts, cp)},
        {"--mbs", 1, 100000, offsetof(struct train_opts, mbs)},
        {"--gbs", 1, 100000000, offsetof(struct train_opts, gbs)},
        {"--seq", 1, 100000000, offsetof(struct train_opts, seq)},
        {"--vpp", 1, 1024, offsetof(struct train_opts, vpp)},
        {"--zero", 0, 3, offsetof(struct train_opts, zero)},
        {"--top", 1, TOP_MAX, offsetof(struct train_opts, top)},
        {"--explain", 1, TOP_MAX, offsetof(struct train_opts, explain)},
    };
    int rc = SN_EXIT_OK;

    memset(o, 0, sizeof(*o));
    o->format = SN_FORMAT_TABLE;
    o->recompute = o->dtype = o->sp = -1;
    o->zero = -1;
    o->top = 10;
    for (int i = 1; i < argc; i++) {
        const char *v;

        if (cli_set_opt(argc, argv, &i, &o->sets, &rc)) {
            if (rc)
                return rc;
            continue;
        }

        if (cli_num_opt(argc, argv, &i, nums, SN_ARRAY_LEN(nums), o, &rc)) {
            if (rc)
                return rc;
            continue;
        }
        if ((v = cli_opt_value(argc, argv, &i, "--format", NULL, &rc))) {
            if (cli_parse_format(v, "text,table,json", &o->format))
                return SN_EXIT_USAGE;
        } else if ((v = cli_opt_value(argc, argv, &i, "--model", NULL, &rc))) {
            o->model = v;
        } else if ((v = cli_opt_value(argc, argv, &i, "--software", NULL,
                                      &rc))) {
            const struct sn_train_software *sw;
            struct sn_error err;
            if (sn_train_software_find(v, &sw, &err))
                return cli_usage_error("--software: %s", err.msg);
            o->software = v;
        } else if ((v = cli_opt_value(argc, argv, &i, "--moe-capacity", NULL,
                                      &rc))) {
            /* a capacity factor: 1 (balanced) to 64 */
            if (sn_parse_double(v, &o->moe_capacity, NULL) ||
                !(o->moe_capacity >= 1 && o->moe_capacity <= 64))
                return cli_usage_error("--moe-capacity: '%s' (expected a "
                                       "factor from 1 to 64)",
                                       v);
        } else if ((v = cli_opt_value(argc, argv, &i, "--output", NULL, &rc))) {
            o->output = v;
        } else if ((v = cli_opt_value(argc, argv, &i, "--kernels", NULL,
                                      &rc))) {
            o->kernels = v;
        } else if ((v = cli_opt_value(argc, argv, &i, "--recompute", NULL,
                                      &rc))) {
            if (pick("--recompute", v, rc_names, &o->recompute))
                return SN_EXIT_USAGE;
        } else if ((v = cli_opt_value(argc, argv, &i, "--dtype", NULL, &rc))) {
            enum sn_dtype d;
            struct sn_error err;
            if (sn_dtype_parse(v, &d, &err))
                return cli_usage_error("--dtype: %s", err.msg);
            o->dtype = (int)d;
        } else if (rc) {
            return rc;
        } else if (!strcmp(argv[i], "--sp") || !strcmp(argv[i], "--no-sp")) {
            int want = !strcmp(argv[i], "--sp");
            if (o->sp >= 0 && o->sp != want)
                return cli_usage_error("sim train: --sp and --no-sp "
                                       "contradict each other; give one");
            o->sp = want;
        } else if (!strcmp(argv[i], "--search")) {
            o->search = true;
        } else if (!strcmp(argv[i], "--legacy")) {
            o->legacy = true;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_unknown_option("sim", argv[i], "sim train");
        } else if (o->spec) {
            return cli_usage_error("sim train takes one SPEC (got '%s' and "
                                   "'%s')",
                                   o->spec, argv[i]);
        } else {
            o->spec = argv[i];
        }
    }
    if (o->legacy && o->software)
        return cli_usage_error("sim train: --legacy and --software "
                               "contradict each other; give one (--legacy "
                               "is --software megatron-lm-2022)");
    if (o->explain && !o->search)
        return cli_usage_error("--explain K explains the K-th layout of "
                               "--search");
    if (o->explain > o->top)
        o->top = o->explain;
    return SN_EXIT_OK;
}

/* ---- the run
 * ------------------------------------------------------------------ */

/* Goodput of the job on this spec: storage sets the checkpoint cost,
 * reliability the rest. *why says what is missing when it cannot. */
static int goodput(const struct sn_spec *spec, const struct sn_model_info *m,
                   int gpus, struct sn_goodput_result *g, bool *have, char *why,
                   size_t why_size, struct sn_error *err)
{
    struct sn_goodput_params p;
    struct sn_goodput_job job = {0};
    struct sn_error e;
    int rc;

    *have = false;
    sn_goodput_params_default(&p);
    rc = sn_goodput_parse(spec->file, sn_spec_section(spec, "reliability"), &p,
                          err);
    if (rc)
        return rc;
    job.accels = gpus;
    job.per_supernode = spec->scaleup.accelerators;
    job.per_node = spec->scaleup.per_node;
    job.nics_per_node = spec->scaleout.nics_per_node;
    job.scaleup_switches =
        spec->scaleup.switches_per_plane *
        (spec->scaleup.planes > 0 ? spec->scaleup.planes : 1);
    job.checkpoint_bytes = m->params * (spec->storage.bytes_per_param > 0
                                            ? spec->storage.bytes_per_param
                                            : 14);
    job.write_bw = spec->storage.write_bw;
    job.read_bw = spec->storage.read_bw;
    if (sn_goodput_compute(&p, &job, g, &e)) {
        snprintf(why, why_size, "%.200s", e.msg);
        return SN_OK;
    }
    *have = true;
    return SN_OK;
}

/* A layout from the options, defaults filled in. */
static int make_layout(const struct train_opts *o,
                       const struct sn_model_info *m, int gpus,
                       struct sn_train_layout *l)
{
    memset(l, 0, sizeof(*l));
    l->tp = o->tp ? (int)o->tp : 1;
    l->pp = o->pp ? (int)o->pp : 1;
    l->cp = o->cp ? (int)o->cp : 1;
    l->ep = o->ep ? (int)o->ep : 1;
    l->etp = (int)o->etp; /* 0: tp */
    l->vpp = o->vpp ? (int)o->vpp : 1;
    l->mbs = o->mbs ? (int)o->mbs : 1;
    l->seq = o->seq ? (int)o->seq : (m->seq > 0 ? m->seq : 2048);
    if (o->dp)
        l->dp = (int)o->dp;
    else if (gpus % (l->tp * l->pp * l->cp) == 0)
        l->dp = gpus / (l->tp * l->pp * l->cp);
    else
        return cli_usage_error("--gpus %d is not a multiple of tp x pp x cp "
                               "= %d",
                               gpus, l->tp * l->pp * l->cp);
    /* default batch: about 4M tokens whatever the job's size
     * (sn_train_default_gbs); a layout given here that it does not divide
     * into whole micro-batches of every DP rank rounds it up to them */
    if (o->gbs) {
        l->gbs = (int)o->gbs;
    } else {
        long long unit = (long long)l->mbs * l->dp;
        long long want = sn_train_default_gbs(gpus, l->seq);
        l->gbs = (int)(((want + unit - 1) / unit) * unit);
    }
    l->recompute =
        o->recompute >= 0 ? (enum sn_recompute)o->recompute : SN_RECOMPUTE_NONE;
    l->dtype = o->dtype >= 0 ? (enum sn_dtype)o->dtype : SN_DTYPE_BF16;
    l->sp = o->sp >= 0 ? o->sp == 1 : l->tp > 1;
    l->zero = o->zero >= 0 ? (int)o->zero : (l->dp * l->cp > 1 ? 1 : 0);
    return SN_EXIT_OK;
}

/* `supernode sim train ...` (argv[0] is "train"), dispatched from
 * cmd-sim.c: returns the exit status, prints the report or the error. */
int sn_cli_sim_train(int argc, char **argv);

/* the most accelerators a spec's cluster holds (docs/spec.md, Limits) */
#define MAX_CLUSTER 10000000

/* The smallest accelerator count (a multiple of the spec's node) at which
 * a layout of search s fits: not fitting is a result, and this is the
 * figure that makes it one. */
static int min_fit(struct sn_train *t, const struct sn_train_search *s,
                   const struct sn_train_opts *so, const struct sn_spec *spec,
                   int *n)
{
    struct sn_error err;
    int step = spec->scaleup.per_node > 0 ? spec->scaleup.per_node : 1;

    if (sn_train_min_accels(t, s, so, step, MAX_CLUSTER, n, &err))
        return cli_fail(&err);
    return SN_EXIT_OK;
}

/* What one `sim train` run holds between its steps. */
struct train_run {
    struct train_opts o;
    struct sn_spec spec;
    struct sn_train_env env;
    struct sn_train_model_file mf;
    const struct sn_model_info *m;
    struct sn_train *t;
    struct sn_kernel_table *kernels; /* --kernels, or NULL */
    struct sn_train_opts so;
    const struct sn_train_software *sw; /* NULL: --legacy, or assumed */
    bool assumed;                       /* no software given */
    struct sn_train_layout l;
    struct sn_goodput_result g;
    bool have_g;
    char why[256];
    int gpus;
};

/* The model: --model's name or file, else the spec's workload.model. */
static int resolve_model(struct train_run *x)
{
    struct sn_error err;

    if (x->o.model) {
        if (sn_train_model_resolve(&x->spec.catalog, x->o.model, &x->mf, &err))
            return cli_fail(&err);
        x->m = &x->mf.info;
    } else if (x->spec.workload.model) {
        x->m = x->spec.workload.model;
    } else {
        return cli_usage_error("sim train: no model (give --model NAME|FILE "
                               "or workload.model in the spec)");
    }
    return SN_EXIT_OK;
}

/* Parse, load the spec and model, and build everything both the search
 * and the single layout need: the accelerator count, the training
 * system, the software options, the layout and the goodput. */
static int setup(struct train_run *x, int argc, char **argv)
{
    struct sn_error err;
    int rc, total;

    if ((rc = parse(argc, argv, &x->o)))
        return rc;
    if ((rc = cli_spec_load(x->o.spec, &x->o.sets, &x->spec)))
        return rc;
    if ((rc = resolve_model(x)))
        return rc;
    total = sn_spec_total_accels(&x->spec);
    x->gpus = x->o.gpus ? (int)x->o.gpus : total;
    if (x->gpus > total)
        return cli_usage_error("--gpus %d is more than the spec's %d "
                               "accelerators",
                               x->gpus, total);
    if (sn_train_env_init(&x->env, &x->spec, &err))
        return cli_fail(&err);
    /* a measured table replaces the generation's shipped one */
    if (x->o.kernels) {
        if (sn_kernels_load(x->o.kernels, &x->kernels, &err)) {
            sn_error_prefix(&err, "--kernels");
            return cli_fail(&err);
        }
        x->env.sys.kernels = x->kernels;
    }
    if (sn_train_new(x->m, &x->env.sys, &x->t, &err))
        return cli_fail(&err);
    if (x->o.legacy)
        sn_train_opts_legacy(&x->so);
    else
        sn_train_opts_default(&x->so);
    x->so.moe_capacity = x->o.moe_capacity;
    if (x->o.software) {
        if (sn_train_software_find(x->o.software, &x->sw, &err))
            return cli_usage_error("--software: %s", err.msg);
        sn_train_software_apply(x->sw, &x->so);
    } else if (!x->o.legacy &&
               sn_train_software_parse(x->spec.file,
                                       sn_spec_section(&x->spec, "software"),
                                       &x->sw, &x->so, &err)) {
        return cli_fail(&err);
    }
    /* none given: the figure is the best recipe's, said as an
     * assumption, with the plain stack's beside it (the band) */
    x->assumed = !x->sw && !x->o.legacy;
    if ((rc = make_layout(&x->o, x->m, x->gpus, &x->l)))
        return rc;
    /* the published recipes run expert TP 1 where they do not say */
    if (!x->o.etp && x->sw && x->sw->etp_default > 0 && x->m->experts > 1)
        x->l.etp = x->sw->etp_default;
    if (goodput(&x->spec, x->m, x->gpus, &x->g, &x->have_g, x->why,
                sizeof(x->why), &err))
        return cli_fail(&err);
    return SN_EXIT_OK;
}

/* The report of w, the run's common parts filled in, as --format asks. */
static void render(const struct train_run *x, struct sn_render_train *w,
                   struct sn_buf *out)
{
    w->spec = &x->spec;
    w->model = x->m;
    w->gpus = x->gpus;
    w->layout = &x->l;
    w->max_gpus = MAX_CLUSTER;
    w->software = x->so.software;
    w->software_assumed = x->assumed;
    w->host_cpu = x->env.sys.host_launch > 0 ? x->env.sys.host_cpu : NULL;
    if (x->o.format == SN_FORMAT_JSON)
        sn_render_train_json(w, out);
    else
        sn_render_train_text(w, out);
}

/* --search: rank the layouts that fit, or find the count at which one
 * does; *fits says whether any did. */
static int run_search(struct train_run *x, struct sn_buf *out, bool *fits)
{
    struct sn_train_search s;
    struct sn_train_candidate *top = NULL;
    struct sn_train_result plain;
    struct sn_train_search_stats st;
    struct sn_error err;
    struct sn_render_train w = {0};
    size_t ntop = 0;
    int rc = SN_EXIT_OK;

    sn_train_search_default(&s);
    s.accels = x->gpus;
    /* the search's batch is the default for the job's size, not the
     * one rounded to the data-parallel width of tp = pp = 1 (that
     * grew with the cluster: 33M tokens at 4,096 GPUs) */
    s.gbs = x->o.gbs ? (int)x->o.gbs : sn_train_default_gbs(x->gpus, x->l.seq);
    x->l.gbs = s.gbs;
    s.seq = x->l.seq;
    s.dtype = x->l.dtype;
    if (x->o.recompute >= 0) {
        s.fixed_recompute = true;
        s.recompute = (enum sn_recompute)x->o.recompute;
    }
    if (x->o.zero >= 0) {
        s.fixed_zero = true;
        s.zero = (int)x->o.zero;
    }
    top = sn_xcalloc((size_t)x->o.top, sizeof(*top));
    if (sn_train_search_run(x->t, &s, &x->so, top, (size_t)x->o.top, &ntop, &st,
                            &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    assert(ntop <= (size_t)x->o.top);
    if (!ntop && (rc = min_fit(x->t, &s, &x->so, &x->spec, &w.min_gpus)))
        goto out;
    if (x->o.explain && (size_t)x->o.explain > ntop &&
        x->o.format != SN_FORMAT_JSON) {
        rc = cli_usage_error("--explain %lld: only %zu layouts fit",
                             x->o.explain, ntop);
        goto out;
    }
    /* none given: the first layout on the plain stack beside it, at the
     * same pessimistic bound the search ranks and lists */
    if (x->assumed && ntop) {
        struct sn_train_opts po = x->so;
        sn_train_software_apply(sn_train_software_plain(), &po);
        if (sn_train_predict_bound(x->t, &top[0].layout, &po, &plain, &err)) {
            rc = cli_fail(&err);
            goto out;
        }
        w.plain = &plain;
    }
    w.stats = &st;
    w.top = top;
    w.ntop = ntop;
    w.explain = (size_t)x->o.explain;
    w.peak = sn_train_peak(&x->env.sys, x->l.dtype);
    render(x, &w, out);
    *fits = ntop > 0;
out:
    free(top);
    return rc;
}

/* One layout: predict it, or when it does not fit find the count at
 * which one does; *fits says whether it did. */
static int run_layout(struct train_run *x, struct sn_buf *out, bool *fits)
{
    struct sn_train_result r, plain;
    struct sn_error err;
    struct sn_render_train w = {0};
    int rc;

    if (sn_train_check(x->m, &x->l, x->gpus, &err) ||
        sn_train_predict(x->t, &x->l, &x->so, &r, &err))
        return cli_fail(&err);
    if (!r.mem.fits) {
        struct sn_train_search s;
        sn_train_search_default(&s);
        s.gbs = x->l.gbs;
        s.seq = x->l.seq;
        s.dtype = x->l.dtype;
        if ((rc = min_fit(x->t, &s, &x->so, &x->spec, &w.min_gpus)))
            return rc;
    }
    if (x->assumed && r.mem.fits) {
        struct sn_train_opts po = x->so;
        sn_train_software_apply(sn_train_software_plain(), &po);
        if (sn_train_predict(x->t, &x->l, &po, &plain, &err))
            return cli_fail(&err);
        w.plain = &plain;
    }
    w.result = &r;
    w.goodput = x->have_g ? &x->g : NULL;
    w.goodput_why = x->why;
    render(x, &w, out);
    *fits = r.mem.fits;
    return SN_EXIT_OK;
}

int sn_cli_sim_train(int argc, char **argv)
{
    struct train_run x = {0}; /* zeroed: every part releasable */
    struct sn_buf out = SN_BUF_INIT;
    bool fits = true;
    int rc;

    rc = setup(&x, argc, argv);
    if (rc)
        goto out;
    rc = x.o.search ? run_search(&x, &out, &fits) : run_layout(&x, &out, &fits);
    if (rc)
        goto out;
    if (x.o.output)
        rc = cli_write(x.o.output, &out);
    else
        cli_print(&out);
    /* not fitting is a finding: exit 1, as a failed check */
    if (!rc && !fits)
        rc = SN_EXIT_CHECK;
out:
    sn_train_free(x.t);
    sn_kernels_free(x.kernels);
    sn_train_env_release(&x.env);
    sn_spec_release(&x.spec);
    sn_buf_release(&out);
    return rc;
}
