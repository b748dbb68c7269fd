/* cmd-sim-train.c: `supernode sim train [SPEC] --model NAME|FILE ...`: the
 * memory, step time, throughput, MFU/HFU and goodput of one training
 * layout on a spec's cluster, or (`--search`) the fastest layouts that
 * fit, as text or JSON (SN_SCHEMA_TRAIN, SN_SCHEMA_TRAIN_SEARCH).
 * Reached through `supernode sim train` (cmd-sim.c); its usage is in
 * sim's help. */
#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

#define GIB (1024.0 * 1024.0 * 1024.0)
#define TOP_MAX 1000

struct train_opts {
    const char *spec;
    const char *model;
    const char *output;
    enum sn_format format;
    long long gpus, tp, pp, dp, ep, etp, cp, mbs, gbs, seq, vpp, zero;
    int recompute;       /* -1: not given */
    int dtype;           /* -1: not given */
    int sp;              /* -1 not given, 0 off, 1 on */
    bool legacy;         /* 2021-22 Megatron-LM software */
    double moe_capacity; /* 0: forced-balanced routing */
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
            return cli_usage_error("sim train: unknown option '%s' (see "
                                   "'supernode help sim')",
                                   argv[i]);
        } else if (o->spec) {
            return cli_usage_error("sim train takes one SPEC (got '%s' and "
                                   "'%s')",
                                   o->spec, argv[i]);
        } else {
            o->spec = argv[i];
        }
    }
    if (o->explain && !o->search)
        return cli_usage_error("--explain K explains the K-th layout of "
                               "--search");
    if (o->explain > o->top)
        o->top = o->explain;
    return SN_EXIT_OK;
}

/* ---- rendering --------------------------------------------------------------
 */

static void layout_line(const struct sn_train_layout *l, struct sn_buf *b)
{
    sn_buf_printf(b,
                  "tp %d  pp %d  dp %d  cp %d  ep %d  vpp %d  mbs %d  gbs %d"
                  "  seq %d  recompute %s  zero %d  sp %s  dtype %s",
                  l->tp, l->pp, l->dp, l->cp, l->ep, l->vpp, l->mbs, l->gbs,
                  l->seq, sn_recompute_name(l->recompute), l->zero,
                  l->sp ? "on" : "off", sn_dtype_name(l->dtype));
    if (l->ep > 1) /* expert TP, Megatron-Core's default tp when not given */
        sn_buf_printf(b, "  etp %d", l->etp > 0 ? l->etp : l->tp);
}

static const char *main_limit(const struct sn_train_result *r, char *buf,
                              size_t size)
{
    double comm = r->part[SN_PART_TP] + r->part[SN_PART_CP] +
                  r->part[SN_PART_EP] + r->part[SN_PART_PP] +
                  r->part[SN_PART_DP];

    switch (r->limit) {
    case SN_LIMIT_MEMORY:
        snprintf(buf, size, "memory (%.1f GiB over)",
                 (r->mem.total - r->mem.capacity) / GIB);
        break;
    case SN_LIMIT_BUBBLE:
        snprintf(buf, size, "bubble %.0f%%",
                 100 * r->part[SN_PART_BUBBLE] / r->step_time);
        break;
    case SN_LIMIT_COMM:
        snprintf(buf, size, "communication %.0f%%", 100 * comm / r->step_time);
        break;
    default:
        snprintf(buf, size, "compute");
        break;
    }
    return buf;
}

static void memory_text(const struct sn_train_memory *m, struct sn_buf *b)
{
    struct sn_table t;
    const struct {
        const char *name;
        double v;
    } rows[] = {
        {"weights", m->weights},     {"gradients", m->gradients},
        {"optimizer", m->optimizer}, {"activations", m->activations},
        {"logits", m->logits},       {"buffers", m->buffers},
    };

    sn_table_init(&t, "  ");
    sn_table_col(&t, "", false);
    sn_table_col(&t, "GiB", true);
    for (size_t i = 0; i < SN_ARRAY_LEN(rows); i++) {
        sn_table_row(&t);
        sn_table_cell(&t, "%s", rows[i].name);
        sn_table_cell(&t, "%.2f", rows[i].v / GIB);
    }
    sn_table_row(&t);
    sn_table_cell(&t, "total");
    sn_table_cell(&t, "%.2f", m->total / GIB);
    sn_buf_printf(b, "memory per accelerator (pipeline stage %d)\n", m->stage);
    sn_table_render(&t, b);
    sn_table_release(&t);
    if (m->fits)
        sn_buf_printf(b, "  fits: %.2f of %.2f GiB HBM (%.2f GiB free)\n",
                      m->total / GIB, m->capacity / GIB,
                      (m->capacity - m->total) / GIB);
    else
        sn_buf_printf(b,
                      "  DOES NOT FIT: %.2f GiB needed, %.2f GiB of HBM, "
                      "%.2f GiB over\n",
                      m->total / GIB, m->capacity / GIB,
                      (m->total - m->capacity) / GIB);
}

static void step_text(const struct sn_train_result *r, enum sn_dtype dtype,
                      int gpus, struct sn_buf *b)
{
    struct sn_table t;
    char lim[64];
    const char *dt = sn_dtype_name(dtype);

    sn_table_init(&t, "  ");
    sn_table_col(&t, "", false);
    sn_table_col(&t, "seconds", true);
    sn_table_col(&t, "share", true);
    for (int p = 0; p < SN_PART_COUNT; p++) {
        sn_table_row(&t);
        sn_table_cell(&t, "%s", sn_train_part_name(p));
        sn_table_cell(&t, "%.4f", r->part[p]);
        sn_table_cell(&t, "%.1f%%", 100 * r->part[p] / r->step_time);
    }
    sn_table_row(&t);
    sn_table_cell(&t, "step");
    sn_table_cell(&t, "%.4f", r->step_time);
    sn_table_cell(&t, "100.0%%");
    sn_buf_printf(b, "\nstep time (%d micro-batches per pipeline)\n",
                  r->microbatches);
    sn_table_render(&t, b);
    sn_table_release(&t);
    sn_buf_printf(b,
                  "\nthroughput\n"
                  "  tokens/s               %.0f (%.1f per accelerator)\n"
                  "  model TFLOP/s per GPU  %.1f\n"
                  "  MFU                    %.1f%% of the %s peak, %.1f "
                  "TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, "
                  "no recompute)\n"
                  "  HFU                    %.1f%% (with recompute: "
                  "96-coefficient for full)\n"
                  "  limited by             %s\n",
                  r->tokens_per_s, r->tokens_per_s / gpus,
                  r->flops_per_gpu / 1e12, 100 * r->mfu, dt, r->peak / 1e12,
                  100 * r->hfu, main_limit(r, lim, sizeof(lim)));
}

static void goodput_text(const struct sn_goodput_result *g, bool have,
                         const char *why, struct sn_buf *b)
{
    char as[320];

    if (!have) {
        sn_buf_printf(b, "\ngoodput: not computed (%s)\n", why);
        return;
    }
    sn_buf_printf(b,
                  "\ngoodput under failures\n"
                  "  job MTBF               %.2f h\n"
                  "  checkpoint write       %.1f s, restart %.1f s\n"
                  "  interval Young / Daly  %.1f / %.1f min\n"
                  "  waste                  checkpoints %.1f%%, rework "
                  "%.1f%%, restarts %.1f%%, supernodes out %.1f%%\n"
                  "  ETTR                   %.1f%%\n"
                  "  goodput                %.1f%% (spares %.1f%% of the "
                  "accelerators)\n",
                  g->mtbf / 3600, g->checkpoint_write, g->restart,
                  g->young / 60, g->daly / 60, 100 * g->waste_checkpoint,
                  100 * g->waste_rework, 100 * g->waste_restart,
                  100 * g->waste_supernode, 100 * g->ettr, 100 * g->goodput,
                  100 * g->spare_fraction);
    sn_goodput_assumption(g, as, sizeof(as));
    sn_buf_printf(b, "  assumes                %s\n", as);
}

static void memory_json(struct sn_json *j, const struct sn_train_memory *m)
{
    sn_json_obj_begin(j);
    sn_json_kint(j, "stage", m->stage);
    sn_json_knum(j, "weights_bytes", m->weights);
    sn_json_knum(j, "gradients_bytes", m->gradients);
    sn_json_knum(j, "optimizer_bytes", m->optimizer);
    sn_json_knum(j, "activations_bytes", m->activations);
    sn_json_knum(j, "logits_bytes", m->logits);
    sn_json_knum(j, "buffers_bytes", m->buffers);
    sn_json_knum(j, "total_bytes", m->total);
    sn_json_knum(j, "capacity_bytes", m->capacity);
    sn_json_kbool(j, "fits", m->fits);
    sn_json_knum(j, "over_bytes", m->fits ? 0 : m->total - m->capacity);
    sn_json_obj_end(j);
}

static void result_json(struct sn_json *j, const struct sn_train_result *r)
{
    sn_json_knum(j, "step_time_s", r->step_time);
    sn_json_knum(j, "tokens_per_s", r->tokens_per_s);
    sn_json_knum(j, "model_flops_per_gpu", r->flops_per_gpu);
    sn_json_knum(j, "mfu", r->mfu);
    sn_json_knum(j, "mfu_peak_flops", r->peak);
    sn_json_knum(j, "hfu", r->hfu);
    sn_json_knum(j, "model_flops_per_step", r->flops.model);
    sn_json_knum(j, "hardware_flops_per_step", r->flops.hw);
    sn_json_kint(j, "microbatches", r->microbatches);
    sn_json_kstr(j, "limit", sn_train_limit_name(r->limit));
    sn_json_key(j, "memory");
    memory_json(j, &r->mem);
    sn_json_key(j, "breakdown");
    sn_json_obj_begin(j);
    for (int p = 0; p < SN_PART_COUNT; p++)
        sn_json_knum(j, sn_train_part_name(p), r->part[p]);
    sn_json_obj_end(j);
}

static void goodput_json(struct sn_json *j, const struct sn_goodput_result *g,
                         bool have)
{
    sn_json_key(j, "goodput");
    if (!have) {
        sn_json_null(j);
        return;
    }
    sn_json_obj_begin(j);
    sn_json_knum(j, "mtbf_s", g->mtbf);
    sn_json_knum(j, "checkpoint_write_s", g->checkpoint_write);
    sn_json_knum(j, "restart_s", g->restart);
    sn_json_knum(j, "young_interval_s", g->young);
    sn_json_knum(j, "daly_interval_s", g->daly);
    sn_json_knum(j, "ettr", g->ettr);
    sn_json_knum(j, "spare_fraction", g->spare_fraction);
    sn_json_knum(j, "goodput", g->goodput);
    sn_json_knum(j, "waste_supernodes_out", g->waste_supernode);
    sn_json_kstr(j, "fault_domain",
                 g->domain == SN_FAULT_JOB ? "job" : "supernode");
    if (g->spares < 0)
        sn_json_kstr(j, "spares", "unlimited");
    else
        sn_json_kint(j, "spares", g->spares);
    sn_json_knum(j, "repair_s", g->repair);
    sn_json_key(j, "failures_per_hour");
    sn_json_obj_begin(j);
    for (int c = 0; c < SN_FAIL_COUNT; c++)
        sn_json_knum(j, sn_fail_class_name(c), g->rate[c]);
    sn_json_obj_end(j);
    sn_json_obj_end(j);
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

static void head(struct sn_buf *b, const struct sn_spec *spec,
                 const struct sn_model_info *m, int gpus)
{
    sn_buf_printf(b, "%s on %d x %s (%s, %d per scale-up domain)\n",
                  m->display ? m->display : m->name, gpus, spec->accel->name,
                  spec->name ? spec->name : "spec", spec->scaleup.accelerators);
}

static void search_text(const struct sn_train_candidate *top, size_t n,
                        const struct sn_train_search_stats *st,
                        struct sn_buf *b)
{
    struct sn_table t;
    static const char *const cols[] = {
        "#",         "tp",   "pp",     "dp",       "cp",  "ep",  "vpp", "mbs",
        "recompute", "zero", "step s", "tokens/s", "MFU", "GiB", NULL};
    char lim[64];
    bool moe = false;

    sn_buf_printf(b,
                  "searched %llu layouts that pass the rules, %llu fit in "
                  "memory, in %.3f s\n",
                  (unsigned long long)st->enumerated,
                  (unsigned long long)st->fitting, st->seconds);
    if (!n) {
        sn_buf_printf(b, "no layout fits\n");
        return;
    }
    /* expert TP only for MoE listings: after ep */
    for (size_t i = 0; i < n; i++)
        moe = moe || top[i].layout.ep > 1;
    sn_table_init(&t, "");
    for (size_t c = 0; cols[c]; c++) {
        sn_table_col(&t, cols[c], c != 9);
        if (moe && !strcmp(cols[c], "ep"))
            sn_table_col(&t, "etp", true);
    }
    sn_table_col(&t, "limited by", false);
    for (size_t i = 0; i < n; i++) {
        const struct sn_train_layout *l = &top[i].layout;
        const struct sn_train_result *r = &top[i].result;
        sn_table_row(&t);
        sn_table_cell(&t, "%zu", i + 1);
        sn_table_cell(&t, "%d", l->tp);
        sn_table_cell(&t, "%d", l->pp);
        sn_table_cell(&t, "%d", l->dp);
        sn_table_cell(&t, "%d", l->cp);
        sn_table_cell(&t, "%d", l->ep);
        if (moe)
            sn_table_cell(&t, "%d", l->etp > 0 ? l->etp : l->tp);
        sn_table_cell(&t, "%d", l->vpp);
        sn_table_cell(&t, "%d", l->mbs);
        sn_table_cell(&t, "%s", sn_recompute_name(l->recompute));
        sn_table_cell(&t, "%d", l->zero);
        sn_table_cell(&t, "%.3f", r->step_time);
        sn_table_cell(&t, "%.0f", r->tokens_per_s);
        sn_table_cell(&t, "%.1f%%", 100 * r->mfu);
        sn_table_cell(&t, "%.1f", r->mem.total / GIB);
        sn_table_cell(&t, "%s", main_limit(r, lim, sizeof(lim)));
    }
    sn_table_render(&t, b);
    sn_table_release(&t);
}

static void explain_text(const struct sn_train_candidate *c, size_t k,
                         const struct sn_train_candidate *best, int gpus,
                         struct sn_buf *b)
{
    sn_buf_printf(b, "\nlayout #%zu: ", k);
    layout_line(&c->layout, b);
    sn_buf_printf(b, "\n");
    memory_text(&c->result.mem, b);
    step_text(&c->result, c->layout.dtype, gpus, b);
    if (k > 1) {
        sn_buf_printf(b, "\nagainst #1 (%.3f s), where the %.3f s go:\n",
                      best->result.step_time,
                      c->result.step_time - best->result.step_time);
        for (int p = 0; p < SN_PART_COUNT; p++) {
            double d = c->result.part[p] - best->result.part[p];
            if (fabs(d) >= 0.0005 * best->result.step_time)
                sn_buf_printf(b, "  %-10s %+.4f s\n", sn_train_part_name(p), d);
        }
    }
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

static void min_fit_text(int n, int step, struct sn_buf *b)
{
    if (n > 0)
        sn_buf_printf(b,
                      "the smallest accelerator count with a layout that "
                      "fits: %d (searched in multiples of %d)\n",
                      n, step);
    else
        sn_buf_printf(b,
                      "no accelerator count up to %d has a layout that "
                      "fits\n",
                      MAX_CLUSTER);
}

/* What one `sim train` run holds between its steps. */
struct train_run {
    struct train_opts o;
    struct sn_spec spec;
    struct sn_train_env env;
    struct sn_train_model_file mf;
    const struct sn_model_info *m;
    struct sn_train *t;
    struct sn_train_opts so;
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
    if (sn_train_new(x->m, &x->env.sys, &x->t, &err))
        return cli_fail(&err);
    if (x->o.legacy)
        sn_train_opts_legacy(&x->so);
    else
        sn_train_opts_default(&x->so);
    x->so.moe_capacity = x->o.moe_capacity;
    if ((rc = make_layout(&x->o, x->m, x->gpus, &x->l)))
        return rc;
    if (goodput(&x->spec, x->m, x->gpus, &x->g, &x->have_g, x->why,
                sizeof(x->why), &err))
        return cli_fail(&err);
    return SN_EXIT_OK;
}

/* The search's JSON (SN_SCHEMA_TRAIN_SEARCH). */
static void search_json(const struct train_run *x,
                        const struct sn_train_candidate *top, size_t ntop,
                        const struct sn_train_search_stats *st, int min_gpus,
                        struct sn_buf *out)
{
    struct sn_json j;

    sn_json_init(&j, out, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_TRAIN_SEARCH);
    sn_json_kstr(&j, "model", x->m->name);
    sn_json_kstr(&j, "accelerator", x->spec.accel->name);
    sn_json_kint(&j, "gpus", x->gpus);
    sn_json_kint(&j, "enumerated", (long long)st->enumerated);
    sn_json_kint(&j, "fitting", (long long)st->fitting);
    if (!ntop)
        sn_json_kint(&j, "min_accelerators", min_gpus);
    sn_json_key(&j, "layouts");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < ntop; i++) {
        sn_json_obj_begin(&j);
        sn_json_kint(&j, "rank", (long long)i + 1);
        sn_report_train_layout_json(&j, &top[i].layout, SN_REPORT_LAYOUT_ALL);
        result_json(&j, &top[i].result);
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);
    sn_json_obj_end(&j);
    sn_buf_putc(out, '\n');
}

/* The search's text: the head, the ranked table, and --explain's layout;
 * a usage error when --explain names a rank past those that fit. */
static int search_report(const struct train_run *x,
                         const struct sn_train_candidate *top, size_t ntop,
                         const struct sn_train_search_stats *st, int min_gpus,
                         struct sn_buf *out)
{
    const struct sn_train_layout *l = &x->l;

    head(out, &x->spec, x->m, x->gpus);
    sn_buf_printf(out,
                  "global batch %d x %d tokens, %s; MFU against the "
                  "dense %s peak, %.1f TFLOP/s\n",
                  l->gbs, l->seq, sn_dtype_name(l->dtype),
                  sn_dtype_name(l->dtype),
                  sn_train_peak(&x->env.sys, l->dtype) / 1e12);
    search_text(top, ntop, st, out);
    if (!ntop)
        min_fit_text(min_gpus, x->spec.scaleup.per_node, out);
    if (x->o.explain) {
        if ((size_t)x->o.explain > ntop)
            return cli_usage_error("--explain %lld: only %zu layouts "
                                   "fit",
                                   x->o.explain, ntop);
        assert(x->o.explain >= 1);
        explain_text(&top[x->o.explain - 1], (size_t)x->o.explain, &top[0],
                     x->gpus, out);
    }
    return SN_EXIT_OK;
}

/* --search: rank the layouts that fit, or find the count at which one
 * does; *fits says whether any did. */
static int run_search(struct train_run *x, struct sn_buf *out, bool *fits)
{
    struct sn_train_search s;
    struct sn_train_candidate *top = NULL;
    struct sn_train_search_stats st;
    struct sn_error err;
    size_t ntop = 0;
    int rc = SN_EXIT_OK, min_gpus = 0;

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
    if (!ntop && (rc = min_fit(x->t, &s, &x->so, &x->spec, &min_gpus)))
        goto out;
    if (x->o.format == SN_FORMAT_JSON)
        search_json(x, top, ntop, &st, min_gpus, out);
    else
        rc = search_report(x, top, ntop, &st, min_gpus, out);
    *fits = ntop > 0;
out:
    free(top);
    return rc;
}

/* The single layout's JSON (SN_SCHEMA_TRAIN). */
static void layout_report_json(const struct train_run *x,
                               const struct sn_train_result *r, int min_gpus,
                               struct sn_buf *out)
{
    struct sn_json j;

    sn_json_init(&j, out, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_TRAIN);
    sn_json_kstr(&j, "spec", x->spec.name);
    sn_json_kstr(&j, "model", x->m->name);
    sn_json_knum(&j, "params", sn_train_params(x->m, NULL));
    sn_json_kstr(&j, "accelerator", x->spec.accel->name);
    sn_json_kint(&j, "gpus", x->gpus);
    sn_json_kint(&j, "scaleup_domain", x->spec.scaleup.accelerators);
    sn_report_train_layout_json(&j, &x->l, SN_REPORT_LAYOUT_ALL);
    if (r->mem.fits) {
        result_json(&j, r);
        goodput_json(&j, &x->g, x->have_g);
    } else {
        /* a layout that does not fit has no step time: its memory
         * and the count at which some layout fits, nothing else */
        sn_json_kbool(&j, "fits", false);
        sn_json_kint(&j, "min_accelerators", min_gpus);
        sn_json_key(&j, "memory");
        memory_json(&j, &r->mem);
    }
    sn_json_obj_end(&j);
    sn_buf_putc(out, '\n');
}

/* The single layout's text. */
static void layout_report_text(const struct train_run *x,
                               const struct sn_train_result *r, int min_gpus,
                               struct sn_buf *out)
{
    head(out, &x->spec, x->m, x->gpus);
    sn_buf_printf(out, "layout: ");
    layout_line(&x->l, out);
    sn_buf_printf(out, "\n\n");
    memory_text(&r->mem, out);
    if (r->mem.fits) {
        step_text(r, x->l.dtype, x->gpus, out);
        goodput_text(&x->g, x->have_g, x->why, out);
    } else {
        sn_buf_printf(out, "\nno step time, throughput or goodput: "
                           "the layout does not fit\n");
        min_fit_text(min_gpus, x->spec.scaleup.per_node, out);
    }
}

/* One layout: predict it, or when it does not fit find the count at
 * which one does; *fits says whether it did. */
static int run_layout(struct train_run *x, struct sn_buf *out, bool *fits)
{
    struct sn_train_result r;
    struct sn_error err;
    int rc, min_gpus = 0;

    if (sn_train_check(x->m, &x->l, x->gpus, &err) ||
        sn_train_predict(x->t, &x->l, &x->so, &r, &err))
        return cli_fail(&err);
    if (!r.mem.fits) {
        struct sn_train_search s;
        sn_train_search_default(&s);
        s.gbs = x->l.gbs;
        s.seq = x->l.seq;
        s.dtype = x->l.dtype;
        if ((rc = min_fit(x->t, &s, &x->so, &x->spec, &min_gpus)))
            return rc;
    }
    if (x->o.format == SN_FORMAT_JSON)
        layout_report_json(x, &r, min_gpus, out);
    else
        layout_report_text(x, &r, min_gpus, out);
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
    sn_train_env_release(&x.env);
    sn_spec_release(&x.spec);
    sn_buf_release(&out);
    return rc;
}
