/* cmd-sim.c: `supernode sim`: predictions on a design's topology.
 *   sim coll  [SPEC]  one collective over a sweep of sizes, nccl-tests
 *                     columns plus the algorithm and the bottleneck
 *   sim pairs [SPEC]  what every accelerator pair should see
 * Both take links degraded or failed by ledger label, to show what a bad
 * cable costs and which pairs and collectives it touches. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

#define MAX_CHANGES 1024
#define MAX_ROWS 1000
#define MAX_BYTES (1ULL << 40) /* 1 TiB: far above any accelerator's HBM */
/* Pairs are listed one by one up to this many accelerators, then by
 * class (--all and --classes choose). */
#define PAIRS_LIST_MAX 32

struct sim_opts {
    const char *spec;
    enum sn_format format;
    struct sn_render_change changes[MAX_CHANGES];
    size_t nchanges;
    /* coll */
    int op;
    int algo;
    const char *group;
    long long ranks;
    uint64_t minb, maxb;
    long long factor;
    const char *dtype;
    /* pairs */
    int list; /* -1 classes, 1 every pair, 0 by size */
    struct cli_sets sets;
};

static int parse_change(struct sim_opts *o, const char *v, bool fail)
{
    struct sn_error err;
    struct sn_render_change *c;

    if (o->nchanges >= MAX_CHANGES)
        return cli_usage_error("more than %d --degrade/--fail", MAX_CHANGES);
    c = &o->changes[o->nchanges];
    if (fail) {
        c->label = v;
        c->health = 0;
    } else {
        const char *eq = strrchr(v, '=');
        static char labels[MAX_CHANGES][256];
        double h;
        if (!eq || eq == v || strlen(v) >= sizeof(labels[0]))
            return cli_usage_error("--degrade '%s': expected LABEL=FRACTION, "
                                   "such as L000123=0.5",
                                   v);
        if (sn_unit_parse(eq + 1, SN_UNIT_RATIO, true, &h, &err) ||
            !(h > 0 && h <= 1))
            return cli_usage_error("--degrade '%s': the fraction must be "
                                   "above 0 and at most 1 (use --fail for "
                                   "a dead link)",
                                   v);
        memcpy(labels[o->nchanges], v, (size_t)(eq - v));
        labels[o->nchanges][eq - v] = 0;
        c->label = labels[o->nchanges];
        c->health = h;
    }
    o->nchanges++;
    return SN_EXIT_OK;
}

static int parse(int argc, char **argv, struct sim_opts *o, bool coll)
{
    const char *cmd = coll ? "sim coll" : "sim pairs";
    int rc = SN_EXIT_OK;

    memset(o, 0, sizeof(*o));
    o->format = SN_FORMAT_TABLE;
    o->op = -1;
    o->algo = SN_ALGO_AUTO;
    o->minb = 8;
    o->maxb = 16ULL << 30;
    o->factor = 2;
    o->dtype = "float";
    for (int i = 1; i < argc; i++) {
        const char *v;
        struct sn_error err;
        if (cli_set_opt(argc, argv, &i, &o->sets, &rc)) {
            if (rc)
                return rc;
        } else if ((v = cli_opt_value(argc, argv, &i, "--format", NULL, &rc))) {
            if (cli_parse_format(v, "text,table,json", &o->format))
                return SN_EXIT_USAGE;
        } else if ((v = cli_opt_value(argc, argv, &i, "--degrade", NULL,
                                      &rc))) {
            if ((rc = parse_change(o, v, false)))
                return rc;
        } else if ((v = cli_opt_value(argc, argv, &i, "--fail", NULL, &rc))) {
            if ((rc = parse_change(o, v, true)))
                return rc;
        } else if ((v = cli_opt_value(argc, argv, &i, "--ranks", "-n", &rc))) {
            if (cli_parse_long("--ranks", v, 2, 100000000, &o->ranks))
                return SN_EXIT_USAGE;
        } else if (coll &&
                   (v = cli_opt_value(argc, argv, &i, "--op", "-o", &rc))) {
            enum sn_coll_op op;
            if (sn_coll_op_parse(v, &op, &err))
                return cli_usage_error("%s", err.msg);
            o->op = op;
        } else if (coll &&
                   (v = cli_opt_value(argc, argv, &i, "--algo", "-a", &rc))) {
            enum sn_coll_algo algo;
            if (sn_coll_algo_parse(v, &algo, &err))
                return cli_usage_error("%s", err.msg);
            o->algo = algo;
        } else if (coll &&
                   (v = cli_opt_value(argc, argv, &i, "--group", "-g", &rc))) {
            o->group = v;
        } else if (coll && (v = cli_opt_value(argc, argv, &i, "--minbytes",
                                              "-b", &rc))) {
            if (sn_unit_parse_size(v, &o->minb, &err))
                return cli_usage_error("--minbytes: %s", err.msg);
        } else if (coll && (v = cli_opt_value(argc, argv, &i, "--maxbytes",
                                              "-e", &rc))) {
            if (sn_unit_parse_size(v, &o->maxb, &err))
                return cli_usage_error("--maxbytes: %s", err.msg);
        } else if (coll && (v = cli_opt_value(argc, argv, &i, "--stepfactor",
                                              "-f", &rc))) {
            if (cli_parse_long("--stepfactor", v, 2, 1024, &o->factor))
                return SN_EXIT_USAGE;
        } else if (coll &&
                   (v = cli_opt_value(argc, argv, &i, "--dtype", "-d", &rc))) {
            o->dtype = v;
        } else if (!coll && (!strcmp(argv[i], "--all") ||
                             !strcmp(argv[i], "--classes"))) {
            int want = !strcmp(argv[i], "--all") ? 1 : -1;
            /* opposite listings: the last one would silently win */
            if (o->list && o->list != want)
                return cli_usage_error("sim pairs: --all and --classes "
                                       "ask for opposite listings; give "
                                       "one");
            o->list = want;
        } else if (rc) {
            return rc;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_unknown_option("sim", argv[i], "%s", cmd);
        } else if (o->spec) {
            return cli_usage_error("%s takes one SPEC (got '%s' and '%s')", cmd,
                                   o->spec, argv[i]);
        } else {
            o->spec = argv[i];
        }
    }
    if (rc)
        return rc;
    if (coll) {
        if (o->op < 0)
            o->op = SN_COLL_ALLREDUCE;
        if (o->minb < 1 || o->maxb > MAX_BYTES || o->minb > o->maxb)
            return cli_usage_error("sizes must run from 1 byte to 1 TiB, "
                                   "-b no larger than -e");
        if (o->group && o->ranks)
            return cli_usage_error("sim coll: give --ranks or --group, not "
                                   "both");
    }
    return SN_EXIT_OK;
}

/* Load the spec, build the topology, make the nominal model and, when
 * links change, a second model on a second topology with the changes.
 * Each model reads its own topology's link health while it routes, so
 * the nominal one must not see the changes (a failed link once showed
 * in the "nominal" column). */
struct world {
    struct sn_spec spec;
    struct sn_topo *t, *changed;
    struct sn_coll_model *nominal, *m;
};

static int world_open(struct world *w, const struct sim_opts *o)
{
    struct sn_error err;
    int rc;

    memset(w, 0, sizeof(*w));
    if ((rc = cli_spec_load(o->spec, &o->sets, &w->spec)))
        return rc;
    if (sn_topo_build(&w->spec, &w->t, &err) ||
        sn_coll_model_new(w->t, &w->nominal, &err))
        return cli_fail(&err);
    if (!o->nchanges) {
        w->m = w->nominal;
        return SN_EXIT_OK;
    }
    if (sn_topo_build(&w->spec, &w->changed, &err))
        return cli_fail(&err);
    for (size_t i = 0; i < o->nchanges; i++) {
        uint32_t id;
        if (sn_topo_find_link(w->changed, o->changes[i].label, &id, &err) ||
            sn_topo_set_health(w->changed, id, o->changes[i].health, &err))
            return cli_fail(&err);
    }
    if (sn_coll_model_new(w->changed, &w->m, &err))
        return cli_fail(&err);
    return SN_EXIT_OK;
}

static void world_close(struct world *w)
{
    if (w->m != w->nominal)
        sn_coll_model_free(w->m);
    sn_coll_model_free(w->nominal);
    sn_topo_free(w->changed);
    sn_topo_free(w->t);
    sn_spec_release(&w->spec);
}

/* ---- sim coll
 * ---------------------------------------------------------------- */

/* A group as a job places it, by name. */
static int group_by_name(const struct sn_topo *t, const char *name,
                         uint32_t **ranks, uint32_t *n, char *desc,
                         size_t dsize)
{
    static const char *const kinds[] = {"cluster", "domain", "node",
                                        "server",  "rail",   NULL};
    char kind[32];
    const char *colon = strchr(name, ':');
    long long k = 0;
    uint32_t *out = sn_xmalloc((t->naccel + 1) * sizeof(uint32_t));
    uint32_t cnt = 0;
    size_t klen = colon ? (size_t)(colon - name) : strlen(name);

    if (klen >= sizeof(kind))
        klen = sizeof(kind) - 1;
    memcpy(kind, name, klen);
    kind[klen] = 0;
    if (colon && cli_parse_long("--group", colon + 1, 0, 100000000, &k)) {
        free(out);
        return SN_EXIT_USAGE;
    }
    if (!strcmp(kind, "cluster")) {
        for (uint32_t r = 0; r < t->naccel; r++)
            out[cnt++] = r;
        snprintf(desc, dsize, "cluster");
    } else if (!strcmp(kind, "domain")) {
        for (uint32_t r = 0; r < t->naccel; r++)
            if (t->nodes[t->accel[r]].supernode == (uint32_t)k)
                out[cnt++] = r;
        snprintf(desc, dsize, "domain %lld", k);
    } else if (!strcmp(kind, "node") || !strcmp(kind, "server")) {
        /* the k-th server in rank order */
        uint32_t seen = 0, sn = SN_NONE, sv = SN_NONE;
        for (uint32_t r = 0; r < t->naccel; r++) {
            const struct sn_node *nd = &t->nodes[t->accel[r]];
            if (nd->supernode != sn || nd->server != sv) {
                if (sn != SN_NONE)
                    seen++;
                sn = nd->supernode;
                sv = nd->server;
            }
            if (seen == (uint32_t)k)
                out[cnt++] = r;
        }
        snprintf(desc, dsize, "node %lld", k);
    } else if (!strcmp(kind, "rail")) {
        /* the k-th accelerator of every server */
        uint32_t sn = SN_NONE, sv = SN_NONE, local = 0;
        for (uint32_t r = 0; r < t->naccel; r++) {
            const struct sn_node *nd = &t->nodes[t->accel[r]];
            if (nd->supernode != sn || nd->server != sv) {
                sn = nd->supernode;
                sv = nd->server;
                local = 0;
            }
            if (local++ == (uint32_t)k)
                out[cnt++] = r;
        }
        snprintf(desc, dsize, "rail %lld", k);
    } else {
        const char *s = sn_suggest(kind, kinds);
        free(out);
        if (s)
            return cli_usage_error("unknown group '%s' (did you mean "
                                   "'%s'?)",
                                   name, s);
        return cli_usage_error("unknown group '%s' (expected cluster, "
                               "domain[:K], node[:K] or rail[:K])",
                               name);
    }
    if (cnt < 2) {
        free(out);
        return cli_usage_error("group '%s' has %u rank%s in this design (a "
                               "collective needs 2)",
                               name, cnt, cnt == 1 ? "" : "s");
    }
    *ranks = out;
    *n = cnt;
    return SN_EXIT_OK;
}

/* The size and nccl-tests name of --dtype, or a usage error. */
static int coll_dtype(const char *dtype, int *size, const char **name)
{
    struct sn_error err;
    enum sn_coll_dtype dt;

    if (sn_coll_dtype_parse(dtype, &dt, &err))
        return cli_usage_error("--dtype: %s", err.msg);
    *size = (int)sn_coll_dtype_size(dt);
    *name = sn_coll_dtype_name(dt);
    return SN_EXIT_OK;
}

/* The ranks of the collective: --group's, the first --ranks, or the
 * whole cluster; desc says which. *ranks is the caller's to free. */
static int coll_group(const struct world *w, const struct sim_opts *o,
                      struct sn_group *g, uint32_t **ranks, uint32_t *n,
                      char *desc, size_t dsize)
{
    int rc;

    if (o->group) {
        rc = group_by_name(w->t, o->group, ranks, n, desc, dsize);
        if (rc)
            return rc;
        *g = (struct sn_group){0, *n, 1, *ranks};
        return SN_EXIT_OK;
    }
    *n = o->ranks ? (uint32_t)o->ranks : (uint32_t)w->t->naccel;
    if (*n > w->t->naccel)
        return cli_usage_error("--ranks %u: the design has %zu "
                               "accelerators",
                               *n, w->t->naccel);
    *g = (struct sn_group){0, *n, 1, NULL};
    snprintf(desc, dsize, o->ranks ? "first %u ranks" : "cluster", *n);
    return SN_EXIT_OK;
}

/* Predict the collective at each size of the sweep (-b, -e, -f) and add
 * its row, at most MAX_ROWS of them. */
static int coll_sweep(struct sn_render_coll *p, const struct world *w,
                      const struct sim_opts *o, const struct sn_group *g,
                      uint32_t n, int ts)
{
    struct sn_coll_result r, rn;
    struct sn_error err;
    size_t rows = 0;
    const struct sn_coll_op_info *info = sn_coll_op_info(o->op);
    int root = info->rooted ? 0 : -1;

    assert(ts > 0 && o->factor > 1);
    for (uint64_t size = o->minb; size <= o->maxb && rows < MAX_ROWS;
         size = size * (uint64_t)o->factor) {
        uint64_t count = size / (uint64_t)ts;
        double bytes;
        /* nccl-tests: all-gather, reduce-scatter and all-to-all buffers
         * hold a whole number of elements per rank */
        if (info->parted)
            count = count / n * n;
        if (!count)
            continue;
        bytes = (double)count * ts;
        if (sn_coll_predict(w->m, o->op, g, bytes, o->algo, &r, &err) ||
            (p->nchanges &&
             sn_coll_predict(w->nominal, o->op, g, bytes, o->algo, &rn, &err)))
            return cli_fail(&err);
        rows++;
        sn_render_coll_row(p, bytes, count, root, &r, &rn);
        if (size > UINT64_MAX / (uint64_t)o->factor)
            break;
    }
    return SN_EXIT_OK;
}

static int coll_run(int argc, char **argv)
{
    struct sim_opts o;
    struct world w;
    struct sn_group g;
    struct sn_buf out;
    struct sn_render_coll p = {0};
    uint32_t *ranks = NULL, n = 0;
    char desc[64] = "";
    int ts = 0, rc;

    sn_buf_init(&out);
    memset(&w, 0, sizeof(w));
    rc = parse(argc, argv, &o, true);
    if (rc)
        goto out;
    if ((rc = coll_dtype(o.dtype, &ts, &p.type)))
        goto out;
    rc = world_open(&w, &o);
    if (rc)
        goto out;
    rc = coll_group(&w, &o, &g, &ranks, &n, desc, sizeof(desc));
    if (rc)
        goto out;
    p.t = w.t;
    p.spec = w.spec.name;
    p.changes = o.changes;
    p.nchanges = o.nchanges;
    p.op = o.op;
    p.algo = o.algo;
    p.group = desc;
    p.ranks = n;
    p.json = o.format == SN_FORMAT_JSON;
    sn_render_coll_begin(&p, &out);
    if ((rc = coll_sweep(&p, &w, &o, &g, n, ts)))
        goto out;
    sn_render_coll_end(&p);
    cli_print(&out);
out:
    sn_render_coll_release(&p);
    sn_buf_release(&out);
    free(ranks);
    world_close(&w);
    return rc;
}

/* ---- sim pairs
 * ------------------------------------------------------------------ */

static enum sn_pair_relation rel_of(const struct world *w, uint32_t a,
                                    uint32_t b)
{
    const struct sn_node *x = &w->t->nodes[w->t->accel[a]];
    const struct sn_node *y = &w->t->nodes[w->t->accel[b]];

    if (x->supernode == y->supernode && x->server == y->server)
        return SN_REL_SERVER;
    return x->supernode == y->supernode ? SN_REL_DOMAIN : SN_REL_NETWORK;
}

/* Every ordered pair of the first n ranks, one row each. */
static int pairs_every(struct sn_render_pairs *p, const struct world *w,
                       uint32_t n)
{
    struct sn_error err;

    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = 0; b < n; b++) {
            struct sn_pair pair, pn;
            if (a == b)
                continue;
            if (sn_pairs_predict(w->m, a, b, &pair, &err) ||
                (p->nchanges && sn_pairs_predict(w->nominal, a, b, &pn, &err)))
                return cli_fail(&err);
            sn_render_pairs_row(p, &pair, &pn, rel_of(w, a, b), 1);
        }
    return SN_EXIT_OK;
}

/* One row per class of equal pairs, with its count and first pair. */
static int pairs_by_class(struct sn_render_pairs *p, const struct world *w,
                          const struct sn_pair_classes *cl)
{
    struct sn_error err;

    for (size_t k = 0; k < cl->n; k++) {
        const struct sn_pair_class *c = &cl->items[k];
        struct sn_pair pn;
        if (p->nchanges && sn_pairs_predict(w->nominal, c->example.src,
                                            c->example.dst, &pn, &err))
            return cli_fail(&err);
        sn_render_pairs_row(p, &c->example, &pn, c->rel, c->count);
    }
    return SN_EXIT_OK;
}

static int pairs_run(int argc, char **argv)
{
    struct sim_opts o;
    struct world w;
    struct sn_pair_classes cl;
    struct sn_error err;
    struct sn_buf out;
    struct sn_render_pairs p = {0};
    uint32_t n;
    int rc;

    sn_buf_init(&out);
    memset(&w, 0, sizeof(w));
    memset(&cl, 0, sizeof(cl));
    rc = parse(argc, argv, &o, false);
    if (rc)
        goto out;
    rc = world_open(&w, &o);
    if (rc)
        goto out;
    n = o.ranks ? (uint32_t)o.ranks : (uint32_t)w.t->naccel;
    if (n > w.t->naccel) {
        rc = cli_usage_error("--ranks %u: the design has %zu accelerators", n,
                             w.t->naccel);
        goto out;
    }
    p.every = o.list > 0 || (o.list == 0 && n <= PAIRS_LIST_MAX);
    if (o.list > 0 && n > 4096) {
        rc = cli_usage_error("--all lists every pair up to 4096 ranks (%u "
                             "asked); use --classes or --ranks",
                             n);
        goto out;
    }
    if (!p.every && sn_pairs_classes(w.m, n, &cl, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    p.t = w.t;
    p.spec = w.spec.name;
    p.changes = o.changes;
    p.nchanges = o.nchanges;
    p.ranks = n;
    p.json = o.format == SN_FORMAT_JSON;
    sn_render_pairs_begin(&p, &out);
    rc = p.every ? pairs_every(&p, &w, n) : pairs_by_class(&p, &w, &cl);
    if (rc)
        goto out;
    sn_render_pairs_end(&p);
    cli_print(&out);
out:
    sn_pair_classes_release(&cl);
    sn_render_pairs_release(&p);
    sn_buf_release(&out);
    world_close(&w);
    return rc;
}

/* ---- dispatch
 * -------------------------------------------------------------------- */

int sn_cli_sim_train(int argc, char **argv); /* cmd-sim-train.c */
int sn_cli_sim_infer(int argc, char **argv); /* cmd-sim-infer.c */

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} subs[] = {{"coll", coll_run},
            {"pairs", pairs_run},
            {"train", sn_cli_sim_train},
            {"infer", sn_cli_sim_infer}};

static int sim_run(int argc, char **argv)
{
    const char *names[SN_ARRAY_LEN(subs) + 1];
    const char *s;

    if (argc < 2)
        return cli_usage_error(
            "sim needs a subcommand: coll, pairs, train or infer (see "
            "'supernode help sim')");
    for (size_t i = 0; i < SN_ARRAY_LEN(subs); i++) {
        if (!strcmp(argv[1], subs[i].name))
            return subs[i].run(argc - 1, argv + 1);
        names[i] = subs[i].name;
    }
    names[SN_ARRAY_LEN(subs)] = NULL;
    s = sn_suggest(argv[1], names);
    if (s)
        return cli_usage_error("unknown sim subcommand '%s' (did you mean "
                               "'%s'?)",
                               argv[1], s);
    return cli_usage_error(
        "unknown sim subcommand '%s' (expected coll, train, infer or "
        "pairs)",
        argv[1]);
}

const struct sn_cmd sn_cmd_sim = {
    "sim",
    "coll|pairs|train|infer [SPEC] [options]",
    "predict pair bandwidth, collectives, training and serving on a design",
    "Every sim command takes --set KEY=VALUE (repeated), as plan does.\n"
    "\n"
    "sim coll [SPEC] [--op OP] [--ranks N | --group GROUP] [-b MIN] [-e MAX]\n"
    "         [-f FACTOR] [--dtype T] [--algo A] [--degrade LABEL=FRACTION]\n"
    "         [--fail LABEL] [--format table|json]\n"
    "  One collective over a sweep of sizes (nccl-tests' -b/-e/-f; default\n"
    "  8 B to 16 GiB by 2), with nccl-tests' columns and definitions (size,\n"
    "  count, type, redop, root, time_us, algbw, busbw), the algorithm and\n"
    "  protocol chosen, the bottleneck link class and its efficiency.\n"
    "  OP: allreduce (default), allgather, reducescatter, alltoall,\n"
    "  broadcast, reduce, sendrecv. ALGO: auto (default: the lowest\n"
    "  predicted time, as NCCL's tuner picks), ring, tree, nvls, hier (in\n"
    "  each domain, then on each rail), hier3 (in each domain, on each rail\n"
    "  under each leaf, then across them), direct. GROUP: cluster\n"
    "  (default), domain[:K] (one scale-up domain), node[:K] (one server),\n"
    "  rail[:K] (accelerator K of every server).\n"
    "  T: float (default), half, bfloat16, double, int8, uint8, int32,\n"
    "  uint32, int64, uint64, fp8e4m3, fp8e5m2.\n"
    "\n"
    "sim pairs [SPEC] [--ranks N] [--all | --classes] [--degrade ...]\n"
    "          [--fail ...] [--format table|json]\n"
    "  Unidirectional and bidirectional bandwidth and latency expected for\n"
    "  every ordered accelerator pair from its routes; one row per pair up\n"
    "  to 32 accelerators (--all: up to 4096), else one row per class of\n"
    "  equal pairs with its count and first pair.\n"
    "\n"
    "LABEL is a link's label or ledger id as 'supernode plan --ledger'\n"
    "prints them; --degrade sets the link to FRACTION of its rate (0.5 or\n"
    "50%), --fail takes it out. Both repeat; the output then shows the\n"
    "nominal values beside and marks the pairs that are lower.\n"
    "\n"
    "sim train [SPEC] --model NAME|FILE [--gpus N] [--tp N --pp N --dp N\n"
    "          --ep N --etp N --cp N --mbs N --gbs N --seq N --vpp N\n"
    "          --recompute none|selective|full --zero 0..3 --sp|--no-sp\n"
    "          --dtype bf16|fp16|fp8] [--moe-capacity F]\n"
    "          [--software NAME | --legacy] [--kernels FILE]\n"
    "          [--search [--top K] [--explain K]] [--format table|json]\n"
    "          [--output FILE]\n"
    "  One training step of a transformer: memory per accelerator against\n"
    "  HBM (weights, gradients, optimizer under ZeRO, activations, logits,\n"
    "  buffers), step time with its breakdown (compute, exposed TP/CP/EP/\n"
    "  PP/DP communication, bubble, optimizer), tokens/s, TFLOP/s per GPU,\n"
    "  MFU and HFU, and with storage bandwidth the Young/Daly checkpoint\n"
    "  interval and ETTR. --search ranks every layout that fits, --explain K\n"
    "  shows where the K-th one's time goes. Defaults: every accelerator,\n"
    "  tp/pp/cp 1, mbs 1, about 4M tokens a step, the distributed\n"
    "  optimizer, SP with tp > 1, bf16; no --software: megatron-core\n"
    "  assumed, the plain stack's figure beside. MoE layers fold ep x etp\n"
    "  over the tp x cp x dp ranks of a stage, routing forced-balanced (or\n"
    "  padded to --moe-capacity). --kernels FILE: a measured kernel table\n"
    "  (bench kernels). MFU is against the dense peak of --dtype; a layout\n"
    "  that does not fit exits 1. docs/model.md has the model.\n"
    "\n"
    "sim infer [SPEC] --model NAME|FILE [--gpus N] [--tp N --ep N --pp N\n"
    "          --dp-attention --tbo --redundant-experts R] [--isl N --osl N]\n"
    "          [--concurrency N | --batch N | --rate R] [--ttft T --tpot T]\n"
    "          [--slo-percentile P]\n"
    "          [--precision P --kv-precision P] [--mtp K --accept R]\n"
    "          [--cuda-graphs S] [--max-tokens N] [--kernels F]\n"
    "          [--runtime R --host-cpu x86|grace] [--disaggregate P:D |\n"
    "          --search [--disaggregate] [--top K]] [--format table|json]\n"
    "  Serving: memory, TTFT, TPOT, tokens/s per GPU and user.\n"
    "  Layouts as runtimes run them; limits hold with or without\n"
    "  --search (broken: exit 1), under a load at the served P90\n"
    "  (--slo-percentile). --tbo, --mtp, --rate, --kernels:\n"
    "  docs/model.md. --search: the front; --disaggregate: the P:D\n"
    "  split, searched with --search (queued under --rate).\n"
    "\n"
    "SPEC defaults to the built-in design. JSON: " SN_SCHEMA_COLL
    ",\n" SN_SCHEMA_PAIRS ", " SN_SCHEMA_TRAIN ", " SN_SCHEMA_TRAIN_SEARCH
    ",\n" SN_SCHEMA_INFER ".\n",
    sim_run,
};
