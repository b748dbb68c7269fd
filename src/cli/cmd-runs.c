/* cmd-runs.c: `supernode runs list|show|import`: the runs in the results
 * database, one run with its results and findings, and runs measured
 * elsewhere brought in from their SN_SCHEMA_RUN documents. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-store.h"
#include "cmd.h"

extern const struct sn_cmd sn_cmd_runs;

struct runs_opts {
    const char *db;
    const char *arg; /* ID or FILE */
    enum sn_format format;
    long long limit;
};

static int parse_opts(int argc, char **argv, const char *allowed, bool want_arg,
                      struct runs_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->limit = 20;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--db") || !strcmp(a, "--format") ||
            !strcmp(a, "--limit")) {
            if (i + 1 >= argc)
                return cli_usage_error("%s needs a value", a);
            if (!strcmp(a, "--db"))
                o->db = argv[++i];
            else if (!strcmp(a, "--format")) {
                if (cli_parse_format(argv[++i], allowed, &o->format))
                    return SN_EXIT_USAGE;
            } else if (cli_parse_long("--limit", argv[++i], 0, 1000000000,
                                      &o->limit))
                return SN_EXIT_USAGE;
        } else if (a[0] == '-' && a[1]) {
            cli_unknown_option("runs", a, "runs %s", argv[1]);
            return cli_usage_hint(&sn_cmd_runs);
        } else if (want_arg && !o->arg) {
            o->arg = a;
        } else {
            cli_usage_error("runs %s: unexpected argument '%s'", argv[1], a);
            return cli_usage_hint(&sn_cmd_runs);
        }
    }
    if (want_arg && !o->arg) {
        cli_usage_error("runs %s needs %s", argv[1],
                        strcmp(argv[1], "import") ? "a run ID" : "a FILE");
        return cli_usage_hint(&sn_cmd_runs);
    }
    return SN_EXIT_OK;
}

static int runs_list(int argc, char **argv)
{
    struct runs_opts o;
    struct sn_store *st = NULL;
    struct sn_run *runs = NULL;
    size_t n = 0;
    struct sn_error err;
    struct sn_buf out;
    int rc;

    rc = parse_opts(argc, argv, "table,json", false, &o);
    if (rc)
        return rc;
    rc = cli_store_open(o.db, CLI_DB_LIST, &st);
    if (rc)
        return rc;
    sn_buf_init(&out);
    if (st && sn_store_runs_list(st, (size_t)o.limit, &runs, &n, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    if (o.format == SN_FORMAT_JSON)
        sn_render_runs_json(runs, n, &out);
    else
        sn_render_runs_text(runs, n, &out);
    cli_print(&out);
out:
    free(runs);
    sn_buf_release(&out);
    sn_store_close(st);
    return rc;
}

/* A run with everything stored of it: what show reads and import
 * writes. */
struct run_whole {
    struct sn_run run;
    struct sn_results rs;
    struct sn_store_finding *f;
    size_t nf;
    struct sn_store_health *h;
    size_t nh;
};

static void whole_init(struct run_whole *w)
{
    memset(w, 0, sizeof(*w));
    sn_results_init(&w->rs);
}

static void whole_release(struct run_whole *w)
{
    sn_store_health_release(w->h, w->nh);
    sn_store_findings_release(w->f, w->nf);
    sn_results_release(&w->rs);
}

static int runs_show(int argc, char **argv)
{
    struct runs_opts o;
    struct sn_store *st = NULL;
    struct run_whole w;
    struct sn_render_run whole = {&w.run, &w.rs, NULL, 0, NULL, 0};
    struct sn_error err;
    struct sn_buf out;
    int64_t id;
    int rc;

    whole_init(&w);
    rc = parse_opts(argc, argv, "table,json", true, &o);
    if (!rc)
        rc = cli_parse_run_id("runs show", o.arg, &id);
    if (rc)
        return rc;
    rc = cli_store_open(o.db, CLI_DB_READ, &st);
    if (rc)
        return rc;
    sn_buf_init(&out);
    if (sn_store_run_get(st, id, &w.run, &err) ||
        sn_store_results_get(st, id, &w.rs, &err) ||
        sn_store_findings_get(st, id, &w.f, &w.nf, &err) ||
        sn_store_health_get(st, id, &w.h, &w.nh, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    whole.f = w.f;
    whole.nf = w.nf;
    whole.h = w.h;
    whole.nh = w.nh;
    if (o.format == SN_FORMAT_JSON) {
        sn_render_run_json(&whole, &out);
    } else {
        sn_render_run_text(&whole, &out);
        cli_run_events(st, &w.run, w.h, w.nh, &out);
    }
    cli_print(&out);
out:
    whole_release(&w);
    sn_buf_release(&out);
    sn_store_close(st);
    return rc;
}

static int runs_import(int argc, char **argv)
{
    struct runs_opts o;
    struct sn_store *st = NULL;
    struct run_whole w;
    size_t len = 0;
    struct sn_error err;
    char *text = NULL;
    int rc;

    whole_init(&w);
    rc = parse_opts(argc, argv, "table", true, &o);
    if (rc)
        return rc;
    if (sn_read_file(o.arg, SN_YAML_MAX_BYTES, &text, &len, &err) ||
        sn_store_run_parse(o.arg, text, len, &w.run, &w.rs, &w.f, &w.nf, &w.h,
                           &w.nh, &err)) {
        free(text);
        return cli_fail(&err);
    }
    free(text);
    rc = cli_store_open(o.db, CLI_DB_WRITE, &st);
    if (rc)
        goto out;
    if (sn_store_run_put(st, &w.run, w.rs.items, w.rs.n, w.f, w.nf, w.h, w.nh,
                         &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    printf("run %" PRId64 ": imported %zu results from %s\n", w.run.id, w.rs.n,
           o.arg);
out:
    whole_release(&w);
    sn_store_close(st);
    return rc;
}

static int runs_run(int argc, char **argv)
{
    static const struct cli_sub subs[] = {
        {"list", runs_list}, {"show", runs_show}, {"import", runs_import}};

    return cli_subcommand(&sn_cmd_runs, subs, SN_ARRAY_LEN(subs), argc, argv);
}

const struct sn_cmd sn_cmd_runs = {
    "runs",
    "list|show ID|import FILE [--db PATH] [--format table|json] "
    "[--limit N]",
    "list the stored runs, show one, import one measured elsewhere",
    "  runs list            the newest runs first (--limit N, default 20;\n"
    "                       0 for all)\n"
    "  runs show ID         one run: when, where, who, versions, spec, its\n"
    "                       results (median, spread, samples), findings and\n"
    "                       node health (what doctor found on each host);\n"
    "                       --format json writes a \"" SN_SCHEMA_RUN "\"\n"
    "                       document with every raw sample and check\n"
    "  runs import FILE     store a \"" SN_SCHEMA_RUN
    "\" document as a new run\n"
    "  --db PATH            the results database (default\n"
    "                       $XDG_DATA_HOME/supernode/results.db)\n",
    runs_run,
};
