/* cmd-sim-infer.c: `supernode sim infer [SPEC] --model NAME|FILE ...`:
 * serving one layout on a spec's cluster (memory, largest batch, TTFT,
 * TPOT, tokens/s per GPU and per user, decode step parts), the search's
 * throughput-latency front (--search), disaggregated prefill/decode
 * (--disaggregate P:D) or the search of its split (--search
 * --disaggregate), as text or JSON (sn_render_infer_*,
 * src/lib/render/infer.c). Reached through `supernode sim infer`
 * (cmd-sim.c); its usage is in sim's help. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

#define FRONT_MAX 1000

struct infer_opts {
    const char *spec, *model;
    const char *kernels; /* --kernels FILE: a measured kernel table */
    enum sn_format format;
    long long gpus, tp, ep, pp, concurrency, batch, top, redundant;
    bool dp_attention, search, tbo;
    bool disagg_search;        /* --search --disaggregate: the split searched */
    struct cli_infer_req req;  /* requests, precisions, limits */
    long long prefill, decode; /* --disaggregate */
    struct cli_sets sets;
    /* the runtime and the load: --runtime, --host-cpu, --rate,
     * --requests, --seed (--concurrency above) */
    enum sn_infer_runtime runtime;
    enum sn_infer_cpu cpu;
    double rate, pct; /* --slo-percentile */
    long long requests, seed;
};

/* --runtime, --host-cpu, --rate, --requests, --seed: the runtime's host
 * and the load (sn_infer_serve); true when argv[*i] was one. */
static bool parse_load(int argc, char **argv, int *i, struct infer_opts *o,
                       int *rc)
{
    static const struct cli_num_opt nums[] = {
        {"--requests", 1, 20000, offsetof(struct infer_opts, requests)},
        {"--seed", 1, 1000000000, offsetof(struct infer_opts, seed)},
    };
    const char *v;

    if (cli_num_opt(argc, argv, i, nums, SN_ARRAY_LEN(nums), o, rc))
        return true;
    if ((v = cli_opt_value(argc, argv, i, "--runtime", NULL, rc))) {
        if (sn_infer_runtime_parse(v, &o->runtime))
            *rc = cli_usage_error("--runtime '%s': expected trtllm, vllm "
                                  "or sglang",
                                  v);
    } else if ((v = cli_opt_value(argc, argv, i, "--host-cpu", NULL, rc))) {
        if (sn_infer_cpu_parse(v, &o->cpu))
            *rc = cli_usage_error("--host-cpu '%s': expected x86, grace or "
                                  "auto",
                                  v);
    } else if ((v = cli_opt_value(argc, argv, i, "--slo-percentile", NULL,
                                  rc))) {
        if (sn_parse_double(v, &o->pct, NULL) || !(o->pct >= 1) ||
            o->pct > 99.9)
            *rc = cli_usage_error("--slo-percentile '%s': expected a "
                                  "percentile from 1 to 99.9, such as 99",
                                  v);
    } else if ((v = cli_opt_value(argc, argv, i, "--rate", NULL, rc))) {
        if (sn_parse_double(v, &o->rate, NULL) || !(o->rate > 0) ||
            o->rate > 1e9)
            *rc = cli_usage_error("--rate '%s': expected requests per "
                                  "second above 0, such as 2.5",
                                  v);
    } else {
        return *rc != 0;
    }
    return true;
}

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
    else if ((v = cli_opt_value(argc, argv, i, "--kernels", NULL, rc)))
        o->kernels = v;
    else if (!strcmp(argv[*i], "--disaggregate") &&
             (*i + 1 >= argc || !strchr(argv[*i + 1], ':')))
        o->disagg_search = true; /* no P:D: the split is searched */
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
        {"--redundant-experts", 0, 100000,
         offsetof(struct infer_opts, redundant)},
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
            parse_load(argc, argv, &i, o, &rc) ||
            cli_num_opt(argc, argv, &i, nums, SN_ARRAY_LEN(nums), o, &rc)) {
            if (rc)
                return rc;
            continue;
        }
        if (parse_other(argc, argv, &i, o, &rc)) {
            if (rc)
                return rc;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_unknown_option("sim", argv[i], "sim infer");
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
        return cli_usage_error("sim infer: --search --disaggregate searches "
                               "the prefill:decode split; give --disaggregate "
                               "P:D without --search, or --search "
                               "--disaggregate without P:D");
    if (o->rate > 0 && (o->concurrency || o->batch))
        return cli_usage_error("sim infer: --rate is an open load, "
                               "--concurrency a closed one and --batch a "
                               "fixed batch: give one");
    if ((o->rate > 0 && o->prefill) ||
        (o->concurrency && (o->prefill || o->disagg_search)))
        return cli_usage_error("sim infer: --rate and --concurrency serve "
                               "aggregated replicas, or --rate the search "
                               "of a split (--search --disaggregate), not "
                               "--disaggregate P:D");
    if ((o->requests || o->seed || o->pct > 0) &&
        !(o->rate > 0 || o->concurrency))
        return cli_usage_error("sim infer: --requests, --seed and "
                               "--slo-percentile need a load (--rate or "
                               "--concurrency)");
    if ((o->requests || o->seed) && o->disagg_search)
        return cli_usage_error("sim infer: --requests and --seed set the "
                               "batcher's simulation; --search "
                               "--disaggregate queues prompts with a "
                               "fixed stream");
    if (o->req.mtp > 0 && !(o->req.accept > 0))
        return cli_usage_error("--mtp %lld: give the drafts' acceptance "
                               "with --accept R (natural text accepts more "
                               "than random benchmark prompts)",
                               o->req.mtp);
    if (o->disagg_search && !o->search)
        return cli_usage_error("--disaggregate: expected PREFILL:DECODE GPUs, "
                               "such as 8:24 (or --search --disaggregate to "
                               "search the split)");
    if (o->search && (o->tp || o->ep || o->pp || o->batch || o->redundant ||
                      o->dp_attention || o->tbo))
        return cli_usage_error("sim infer: --search chooses the layout and "
                               "batch; give --tp, --ep, --pp, --batch, "
                               "--redundant-experts, --dp-attention and "
                               "--tbo without it");
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
    struct sn_infer_load load;       /* per replica; zero: no load */
    struct sn_kernel_table *kernels; /* --kernels, or NULL */
    int gpus;
};

/* The cluster's load (--rate or --concurrency, --requests, --seed,
 * --slo-percentile). */
static struct sn_infer_load cluster_load(const struct infer_run *x)
{
    struct sn_infer_load ld = {0};

    ld.rate = x->o.rate;
    ld.concurrency = (int)x->o.concurrency;
    ld.requests = (int)x->o.requests;
    ld.seed = (uint64_t)x->o.seed;
    ld.percentile = x->o.pct;
    return ld;
}

/* The load per replica: --rate and --concurrency spread evenly over the
 * replicas of the layout (the concurrency is also its batch). */
static void load_of(struct infer_run *x, struct sn_infer_layout *l)
{
    struct sn_infer_load c = cluster_load(x);

    sn_infer_load_per_replica(&c, x->gpus, l, &x->load);
}

static bool loaded(const struct infer_run *x)
{
    return x->o.rate > 0 || x->o.concurrency;
}

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
    /* a measured table replaces the generation's shipped one */
    if (x->o.kernels) {
        if (sn_kernels_load(x->o.kernels, &x->kernels, &err)) {
            sn_error_prefix(&err, "--kernels");
            return cli_fail(&err);
        }
        x->env.sys.kernels = x->kernels;
    }
    cli_infer_req_work(&x->o.req, &x->w, &x->lim);
    x->w.runtime = x->o.runtime;
    x->w.cpu = x->o.cpu;
    x->l.tp = x->o.tp ? (int)x->o.tp : 1;
    x->l.ep = x->o.ep ? (int)x->o.ep : 1;
    x->l.pp = x->o.pp ? (int)x->o.pp : 1;
    x->l.dp_attention = x->o.dp_attention;
    x->l.tbo = x->o.tbo;
    x->l.redundant = (int)x->o.redundant;
    replica = x->l.tp * x->l.pp;
    if (x->o.batch)
        x->l.batch = (int)x->o.batch;
    else if (x->o.concurrency) /* spread over the replicas */
        x->l.batch =
            (int)((x->o.concurrency * replica + x->gpus - 1) / x->gpus);
    return SN_EXIT_OK;
}

/* The report of w, the run's common parts filled in, as --format asks. */
static void render(const struct infer_run *x, struct sn_render_infer *w,
                   struct sn_buf *out)
{
    w->spec = &x->spec;
    w->model = x->m;
    w->gpus = x->gpus;
    w->work = &x->w;
    w->layout = &x->l;
    w->ttft_limit = x->lim.ttft;
    w->tpot_limit = x->lim.tpot;
    w->percentile = x->o.pct > 0 ? x->o.pct : SN_INFER_SLO_PERCENTILE;
    if (x->o.format == SN_FORMAT_JSON)
        sn_render_infer_json(w, out);
    else
        sn_render_infer_text(w, out);
}

static int run_layout(struct infer_run *x, struct sn_buf *out, bool *fits)
{
    struct sn_infer_result r;
    struct sn_infer_served sv;
    struct sn_render_infer w = {0};
    struct sn_error err;

    if (sn_infer_check(x->m, &x->env.sys, &x->l, &x->w, x->gpus, &err) ||
        sn_infer_predict(x->m, &x->env.sys, &x->l, &x->w, &r, &err))
        return cli_fail(&err);
    /* limits hold with or without --search: a layout that breaks one
     * is a finding, as one that does not fit */
    *fits = r.fits && sn_infer_meets(&r, &x->lim, NULL, NULL);
    w.result = &r;
    if (loaded(x) && r.fits) {
        struct sn_infer_layout ls = x->l;
        load_of(x, &ls);
        if (sn_infer_serve(x->m, &x->env.sys, &ls, &x->w, &x->load, &sv, &err))
            return cli_fail(&err);
        w.load = &x->load;
        w.served = &sv;
        /* under a load the limits are the served percentile's */
        *fits = sn_infer_served_meets(&sv, &x->lim, NULL, NULL);
    }
    render(x, &w, out);
    return SN_EXIT_OK;
}

static int run_search(struct infer_run *x, struct sn_buf *out, bool *found)
{
    struct sn_infer_search_stats st;
    struct sn_infer_served_search ss;
    struct sn_infer_point *p;
    struct sn_render_infer w = {0};
    struct sn_error err;
    struct sn_infer_load c = cluster_load(x);
    size_t n = 0;
    int rc;

    p = sn_xcalloc((size_t)x->o.top, sizeof(*p));
    if (loaded(x))
        rc =
            sn_infer_search_served(x->m, &x->env.sys, x->gpus, &x->w, &x->lim,
                                   &c, p, (size_t)x->o.top, &n, &st, &ss, &err);
    else
        rc = sn_infer_search(x->m, &x->env.sys, x->gpus, &x->w, &x->lim, p,
                             (size_t)x->o.top, &n, &st, &err);
    if (rc) {
        free(p);
        return cli_fail(&err);
    }
    *found = st.best >= 0;
    w.stats = &st;
    if (loaded(x)) {
        w.sserved = &ss;
        if (st.best >= 0) {
            x->load = ss.load;
            w.load = &x->load;
            w.served = &ss.served;
        }
    }
    w.points = p;
    w.npoints = n;
    render(x, &w, out);
    free(p);
    return SN_EXIT_OK;
}

static int run_disagg(struct infer_run *x, struct sn_buf *out, bool *ok)
{
    struct sn_infer_disagg d;
    struct sn_render_infer w = {0};
    struct sn_error err;
    struct sn_infer_layout lp = x->l;

    lp.batch = 0;
    if (sn_infer_disaggregate(x->m, &x->env.sys, &lp, &x->l, &x->w,
                              (int)x->o.prefill, (int)x->o.decode, &d, &err))
        return cli_fail(&err);
    *ok = d.fits && sn_infer_meets(&d.d, &x->lim, NULL, NULL);
    w.disagg = &d;
    render(x, &w, out);
    return SN_EXIT_OK;
}

static int run_disagg_search(struct infer_run *x, struct sn_buf *out, bool *ok)
{
    struct sn_infer_disagg d;
    struct sn_infer_disagg_stats st;
    struct sn_render_infer w = {0};
    struct sn_error err;

    if (sn_infer_disagg_search_rate(x->m, &x->env.sys, x->gpus, &x->w, &x->lim,
                                    x->o.rate, x->o.pct, &d, &st, &err))
        return cli_fail(&err);
    *ok = st.found;
    w.disagg = &d;
    w.dstats = &st;
    render(x, &w, out);
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
    if (x.o.search && x.o.disagg_search)
        rc = run_disagg_search(&x, &out, &ok);
    else if (x.o.search)
        rc = run_search(&x, &out, &ok);
    else if (x.o.prefill)
        rc = run_disagg(&x, &out, &ok);
    else
        rc = run_layout(&x, &out, &ok);
    if (rc)
        goto out;
    cli_print(&out);
    /* a layout that does not fit or breaks a limit, or no layout within
     * the limits, is a finding: exit 1, as a failed check */
    if (!ok)
        rc = SN_EXIT_CHECK;
out:
    sn_kernels_free(x.kernels);
    sn_train_env_release(&x.env);
    sn_spec_release(&x.spec);
    sn_buf_release(&out);
    return rc;
}
