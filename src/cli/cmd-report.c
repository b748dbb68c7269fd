/* cmd-report.c: `supernode report [SPEC] -o FILE.html`: the design, the
 * model's predictions and stored runs as one self-contained HTML page
 * with inline SVG (sn_html_report). This file parses the options, loads
 * what they name, and writes the page whole or not at all.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli-store.h"
#include "cmd.h"
#include "sn/html.h"
#include "sn/train.h"

/* More runs than a page can show side by side. */
#define REPORT_RUNS_MAX 32

struct report_opts {
    const char *spec;
    const char *db;
    const char *baseline;
    const char *model;
    const char *output;
    const char *title;
    const char *power;
    long long gpus;
    int64_t runs[REPORT_RUNS_MAX];
    size_t nruns;
    struct cli_sets sets;
};

/* One option with a value, or 0 when argv[*i] is none of them. */
static int parse_value(int argc, char **argv, int *i, struct report_opts *o,
                       int *rc)
{
    static const struct {
        const char *name, *alias;
        size_t off;
    } strs[] = {
        {"--db", NULL, offsetof(struct report_opts, db)},
        {"--baseline", NULL, offsetof(struct report_opts, baseline)},
        {"--model", NULL, offsetof(struct report_opts, model)},
        {"--output", "-o", offsetof(struct report_opts, output)},
        {"--title", NULL, offsetof(struct report_opts, title)},
        {"--power", NULL, offsetof(struct report_opts, power)},
    };
    static const struct cli_num_opt nums[] = {
        {"--gpus", 1, 10000000, offsetof(struct report_opts, gpus)},
    };
    const char *v;

    for (size_t k = 0; k < SN_ARRAY_LEN(strs); k++) {
        if ((v = cli_opt_value(argc, argv, i, strs[k].name, strs[k].alias,
                               rc))) {
            *(const char **)((char *)o + strs[k].off) = v;
            return 1;
        }
        if (*rc)
            return 1;
    }
    if ((v = cli_opt_value(argc, argv, i, "--run", NULL, rc))) {
        if (o->nruns == REPORT_RUNS_MAX) {
            *rc = cli_usage_error("report: at most %d --run", REPORT_RUNS_MAX);
            return 1;
        }
        *rc = cli_parse_run_id("--run", v, &o->runs[o->nruns++]);
        return 1;
    }
    if (*rc)
        return 1;
    return cli_num_opt(argc, argv, i, nums, SN_ARRAY_LEN(nums), o, rc);
}

static int parse(int argc, char **argv, struct report_opts *o)
{
    int rc = SN_EXIT_OK;

    memset(o, 0, sizeof(*o));
    for (int i = 1; i < argc; i++) {
        if (cli_set_opt(argc, argv, &i, &o->sets, &rc) ||
            parse_value(argc, argv, &i, o, &rc)) {
            if (rc)
                return rc;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_unknown_option("report", argv[i], "report");
        } else if (o->spec) {
            return cli_usage_error("report takes one SPEC (got '%s' and "
                                   "'%s')",
                                   o->spec, argv[i]);
        } else {
            o->spec = argv[i];
        }
    }
    if (!o->output)
        return cli_usage_error("report: no output (give -o FILE.html)");
    if (o->baseline && !o->nruns)
        return cli_usage_error("report: --baseline compares runs (give "
                               "--run ID)");
    if (o->gpus && !o->model)
        return cli_usage_error("report: --gpus is the accelerators for "
                               "--model (give --model NAME|FILE)");
    return rc;
}

/* Everything one report holds between loading and writing. */
struct report_run {
    struct report_opts o;
    struct sn_spec spec;
    bool have_spec;
    struct sn_topo *topo;
    struct sn_train_model_file mf;
    struct sn_store *st;
    struct sn_bench_power_curve curve;
    struct sn_html_in in;
    /* the --set overrides split, for the size sweep */
    char set_keys[CLI_MAX_SETS][CLI_SET_KEY_MAX];
    const char *keys[CLI_MAX_SETS], *values[CLI_MAX_SETS];
};

/* bench power's curve from its JSON document (--power FILE). */
static int load_power(struct report_run *x)
{
    struct sn_error err;
    char *text = NULL;
    size_t len = 0;
    int rc;

    if (!x->o.power)
        return SN_EXIT_OK;
    if (sn_read_file(x->o.power, SN_FILE_MAX, &text, &len, &err))
        return cli_fail(&err);
    rc = sn_bench_power_parse(x->o.power, text, len, &x->curve, &err);
    free(text);
    if (rc)
        return cli_fail(&err);
    x->in.power = &x->curve;
    return SN_EXIT_OK;
}

/* The generation time printed on the page: SOURCE_DATE_EPOCH when set
 * (reproducible-builds.org), so the same inputs give the same bytes. */
static double report_time(void)
{
    const char *e = getenv("SOURCE_DATE_EPOCH");
    long long t;
    struct sn_error err;

    if (e && !sn_parse_long(e, 0, 253402300799LL, &t, &err))
        return (double)t;
    return (double)time(NULL);
}

/* The spec, its topology and the model. A spec is drawn when one is
 * named, for a model, and when nothing else is asked for (the built-in
 * design, as plan does). */
static int load_design(struct report_run *x)
{
    struct sn_error err;
    int rc, total;

    if (!x->o.spec && !x->o.model && (x->o.nruns || x->o.db || x->o.power))
        return SN_EXIT_OK;
    if ((rc = cli_spec_load(x->o.spec, &x->o.sets, &x->spec)))
        return rc;
    x->have_spec = true;
    if (sn_topo_build(&x->spec, &x->topo, &err))
        return cli_fail(&err);
    x->in.spec = &x->spec;
    x->in.topo = x->topo;
    x->in.spec_path = x->o.spec ? x->o.spec : SN_SPEC_DEFAULT_NAME;
    for (int i = 0; i < x->o.sets.n; i++) {
        /* cli_spec_load has split each already: no error here */
        if ((rc = cli_set_split(x->o.sets.v[i], x->set_keys[i], &x->values[i])))
            return rc;
        x->keys[i] = x->set_keys[i];
    }
    x->in.set_keys = x->keys;
    x->in.set_values = x->values;
    x->in.nsets = (size_t)x->o.sets.n;
    if (!x->o.model)
        return SN_EXIT_OK;
    if (sn_train_model_resolve(&x->spec.catalog, x->o.model, &x->mf, &err))
        return cli_fail(&err);
    total = sn_spec_total_accels(&x->spec);
    if (x->o.gpus > total)
        return cli_usage_error("--gpus %lld is more than the spec's %d "
                               "accelerators",
                               x->o.gpus, total);
    x->in.model = &x->mf.info;
    x->in.gpus = (int)x->o.gpus;
    return SN_EXIT_OK;
}

/* The store, and the runs and baseline named checked before any drawing,
 * so a wrong id is a usage error naming it. */
static int load_store(struct report_run *x)
{
    struct sn_error err;
    int rc;

    if (!x->o.db && !x->o.nruns)
        return SN_EXIT_OK;
    if ((rc = cli_store_open(x->o.db, CLI_DB_READ, &x->st)))
        return rc;
    for (size_t i = 0; i < x->o.nruns; i++) {
        struct sn_run r;
        memset(&r, 0, sizeof(r));
        if (sn_store_run_get(x->st, x->o.runs[i], &r, &err))
            return cli_fail(&err);
    }
    if (x->o.baseline) {
        struct sn_baseline b;
        memset(&b, 0, sizeof(b));
        rc = sn_store_baseline_get(x->st, x->o.baseline, &b, &err);
        sn_baseline_release(&b);
        if (rc)
            return cli_fail(&err);
    }
    x->in.store = x->st;
    x->in.runs = x->o.runs;
    x->in.nruns = x->o.nruns;
    x->in.baseline = x->o.baseline;
    return SN_EXIT_OK;
}

static int report_main(int argc, char **argv)
{
    struct report_run x;
    struct sn_buf page = SN_BUF_INIT;
    struct sn_error err;
    int rc;

    memset(&x, 0, sizeof(x));
    sn_error_clear(&err);
    if ((rc = parse(argc, argv, &x.o)))
        goto out;
    /* a path that cannot be written fails before the work, not after */
    if ((rc = cli_outputs_check((const char *const[]){x.o.output}, 1)))
        goto out;
    if ((rc = load_design(&x)) || (rc = load_store(&x)) ||
        (rc = load_power(&x)))
        goto out;
    x.in.title = x.o.title;
    x.in.now = report_time();
    if (sn_html_report(&x.in, &page, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    rc = cli_write(x.o.output, &page);
out:
    sn_buf_release(&page);
    if (x.st)
        sn_store_close(x.st);
    sn_topo_free(x.topo);
    if (x.have_spec)
        sn_spec_release(&x.spec);
    return rc;
}

const struct sn_cmd sn_cmd_report = {
    "report",
    "[SPEC] [--set KEY=VALUE]... [--db PATH] [--run ID]... "
    "[--baseline NAME] [--model NAME|FILE] [--gpus N] [--power FILE.json] "
    "[--title TEXT] -o FILE.html",
    "the design, predictions and runs as one HTML page with pictures",
    "Writes one self-contained HTML file (inline SVG and CSS, nothing\n"
    "fetched from the network; light and dark themes; printable) with a\n"
    "section for each thing given:\n"
    "  design       from SPEC (the built-in design when nothing else is\n"
    "               asked for): topology by tiers with repeated units\n"
    "               collapsed, rack elevations with power and coolant per\n"
    "               rack, power and cooling, cables by medium and length\n"
    "  predictions  busbw against message size per collective and\n"
    "               algorithm, pair classes; with --model the layout\n"
    "               search, where the step time goes and the size sweep\n"
    "  runs         each --run from the store: pair bandwidth heatmap,\n"
    "               collectives against the model and --baseline, findings\n"
    "  power        with --power: bench power's curve, throughput and\n"
    "               efficiency against the power limit or SM clock\n"
    "  history      with --db: per test, the runs and baselines over time\n\n"
    "  --set KEY=VALUE     override one value of the spec (as plan)\n"
    "  --db PATH           the results database (default\n"
    "                      $XDG_DATA_HOME/supernode/results.db)\n"
    "  --run ID            a stored run to show (repeat for several)\n"
    "  --baseline NAME     the baseline the runs are compared with\n"
    "  --model NAME|FILE   a catalog model or a model file, for the\n"
    "                      training predictions\n"
    "  --gpus N            accelerators for --model (default: all)\n"
    "  --power FILE.json   a curve from 'bench power --json FILE.json'\n"
    "  --title TEXT        the page title (default: the spec's name)\n"
    "  -o, --output FILE   the HTML file (required; '-' for standard\n"
    "                      output)\n\n"
    "The page prints the generation time, taken from SOURCE_DATE_EPOCH when\n"
    "set so the same inputs give the same bytes. The file is written whole\n"
    "or not at all. Exit status: 0 written, 2 bad spec, model, run id or\n"
    "arguments, 3 the store or the file could not be read or written.\n",
    report_main,
};
