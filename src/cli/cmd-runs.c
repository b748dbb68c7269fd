/* cmd-runs.c: `supernode runs list|show|import`: the runs in the results
 * database, one run with its results and findings, and runs measured
 * elsewhere brought in from their SN_SCHEMA_RUN documents. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-store.h"
#include "cmd.h"
#include "sn/diagnose.h"

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
            cli_usage_error("runs %s: unknown option '%s'", argv[1], a);
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

static const char *run_state(const struct sn_run *r)
{
    return r->complete ? "complete" : "incomplete";
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
    if (o.format == SN_FORMAT_JSON) {
        struct sn_json j;
        sn_json_init(&j, &out, true);
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "schema", SN_SCHEMA_RUNS);
        sn_json_key(&j, "runs");
        sn_json_arr_begin(&j);
        for (size_t i = 0; i < n; i++)
            sn_store_run_json(&j, &runs[i], NULL, NULL, 0, NULL, 0, false);
        sn_json_arr_end(&j);
        sn_json_obj_end(&j);
        sn_buf_putc(&out, '\n');
    } else if (n == 0) {
        sn_buf_puts(&out, "no runs yet (run 'supernode check' first)\n");
    } else {
        struct sn_table t;
        sn_table_init(&t, "");
        sn_table_col(&t, "ID", true);
        sn_table_col(&t, "STARTED", false);
        sn_table_col(&t, "SPEC", false);
        sn_table_col(&t, "SUITE", false);
        sn_table_col(&t, "RANKS", true);
        sn_table_col(&t, "RESULTS", true);
        sn_table_col(&t, "STATE", false);
        sn_table_col(&t, "VERDICT", false);
        for (size_t i = 0; i < n; i++) {
            sn_table_row(&t);
            sn_table_cell(&t, "%" PRId64, runs[i].id);
            sn_table_cell(&t, "%s", runs[i].started);
            sn_table_cell(&t, "%s",
                          runs[i].spec_name[0] ? runs[i].spec_name : "-");
            sn_table_cell(&t, "%s", runs[i].suite[0] ? runs[i].suite : "-");
            sn_table_cell(&t, "%d", runs[i].ranks);
            sn_table_cell(&t, "%zu", runs[i].nresults);
            sn_table_cell(&t, "%s", run_state(&runs[i]));
            sn_table_cell(&t, "%s", runs[i].verdict[0] ? runs[i].verdict : "-");
        }
        sn_table_render(&t, &out);
        sn_table_release(&t);
    }
    cli_print(&out);
out:
    free(runs);
    sn_buf_release(&out);
    sn_store_close(st);
    return rc;
}

static void show_text(const struct sn_run *r, const struct sn_results *rs,
                      const struct sn_store_finding *f, size_t nf,
                      const struct sn_store_health *h, size_t nh,
                      struct sn_buf *out)
{
    struct sn_table t;

    sn_buf_printf(out, "run %" PRId64 ": %s, %s\n", r->id, run_state(r),
                  r->verdict[0] ? r->verdict : "not judged");
    sn_buf_printf(out, "  started   %s\n", r->started);
    sn_buf_printf(out, "  finished  %s\n", r->finished[0] ? r->finished : "-");
    sn_buf_printf(out, "  where     %s (user %s)\n", r->host[0] ? r->host : "-",
                  r->user[0] ? r->user : "-");
    sn_buf_printf(out, "  spec      %s (hash %s)\n",
                  r->spec_name[0] ? r->spec_name : "-",
                  r->spec_hash[0] ? r->spec_hash : "-");
    sn_buf_printf(out, "  suite     %s on %s, %d ranks\n",
                  r->suite[0] ? r->suite : "-",
                  r->backend[0] ? r->backend : "-", r->ranks);
    sn_buf_printf(out, "  versions  %s%s%s\n", r->tool,
                  r->versions[0] ? ", " : "", r->versions);
    sn_buf_putc(out, '\n');
    if (rs->n == 0) {
        sn_buf_puts(out, "no results\n");
    } else {
        sn_table_init(&t, "");
        sn_table_col(&t, "TEST", false);
        sn_table_col(&t, "PARAMS", false);
        sn_table_col(&t, "SUBJECT", false);
        sn_table_col(&t, "MEDIAN", true);
        sn_table_col(&t, "SPREAD", true);
        sn_table_col(&t, "N", true);
        for (size_t i = 0; i < rs->n; i++) {
            const struct sn_result *x = &rs->items[i];
            char v[48], s[64];
            double spread = x->stats.median != 0
                                ? SN_STATS_MAD_TO_SIGMA * x->stats.mad /
                                      fabs(x->stats.median)
                                : 0;
            sn_table_row(&t);
            sn_table_cell(&t, "%s", x->test);
            sn_table_cell(&t, "%s", x->params[0] ? x->params : "-");
            sn_table_cell(&t, "%s", sn_result_subject(x, s, sizeof(s)));
            sn_table_cell(
                &t, "%s",
                sn_unit_format_named(x->stats.median, x->unit, v, sizeof(v)));
            sn_table_cell(&t, "%.1f%%", 100.0 * spread);
            sn_table_cell(&t, "%zu", x->stats.n);
        }
        sn_table_render(&t, out);
        sn_table_release(&t);
    }
    if (nf) {
        sn_buf_puts(out, "\nfindings:\n");
        for (size_t i = 0; i < nf; i++)
            sn_buf_printf(out, "  %-4s %s%s%s\n", f[i].severity, f[i].summary,
                          f[i].label[0] ? " : " : "", f[i].label);
    }
    if (nh) {
        sn_buf_putc(out, '\n');
        sn_diag_render_health(h, nh, true, true, out);
    }
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
    if (o.format == SN_FORMAT_JSON) {
        struct sn_json j;
        sn_json_init(&j, &out, true);
        sn_store_run_json(&j, &w.run, &w.rs, w.f, w.nf, w.h, w.nh, true);
        sn_buf_putc(&out, '\n');
    } else {
        show_text(&w.run, &w.rs, w.f, w.nf, w.h, w.nh, &out);
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
