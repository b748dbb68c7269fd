/* cmd-baseline.c: `supernode baseline save|list|show|diff`: named
 * baselines of what each subject measured when all was well, with the
 * noise seen, and a run compared with one subject by subject. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-store.h"
#include "cmd.h"
#include "sn/diagnose.h"

extern const struct sn_cmd sn_cmd_baseline;

struct bl_opts {
    const char *db;
    const char *name;
    int64_t runs[SN_BASELINE_MAX_RUNS];
    size_t nruns;
    bool force;
    enum sn_format format;
};

static int parse_opts(int argc, char **argv, const char *formats,
                      bool want_name, bool runs_ok, size_t max_runs,
                      struct bl_opts *o)
{
    memset(o, 0, sizeof(*o));
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--db") || !strcmp(a, "--run") ||
            !strcmp(a, "--format")) {
            if (i + 1 >= argc)
                return cli_usage_error("%s needs a value", a);
            if (!strcmp(a, "--db")) {
                o->db = argv[++i];
            } else if (!strcmp(a, "--format")) {
                if (!formats)
                    goto unknown;
                if (cli_parse_format(argv[++i], formats, &o->format))
                    return SN_EXIT_USAGE;
            } else {
                if (!runs_ok)
                    goto unknown;
                if (o->nruns >= max_runs)
                    return cli_usage_error("baseline %s takes at most %zu "
                                           "--run",
                                           argv[1], max_runs);
                if (cli_parse_run_id("--run", argv[++i], &o->runs[o->nruns++]))
                    return SN_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--force") &&
                   (!strcmp(argv[1], "save") || !strcmp(argv[1], "diff"))) {
            o->force = true;
        } else if (a[0] == '-' && a[1]) {
            goto unknown;
        } else if (want_name && !o->name) {
            o->name = a;
        } else {
            cli_usage_error("baseline %s: unexpected argument '%s'", argv[1],
                            a);
            return cli_usage_hint(&sn_cmd_baseline);
        }
        continue;
    unknown:
        cli_unknown_option("baseline", a, "baseline %s", argv[1]);
        return cli_usage_hint(&sn_cmd_baseline);
    }
    if (want_name && !o->name) {
        cli_usage_error("baseline %s needs a NAME", argv[1]);
        return cli_usage_hint(&sn_cmd_baseline);
    }
    return SN_EXIT_OK;
}

static int bl_save(int argc, char **argv)
{
    struct bl_opts o;
    struct sn_store *st = NULL;
    struct sn_baseline b;
    struct sn_error err;
    int rc;

    rc = parse_opts(argc, argv, NULL, true, true, SN_BASELINE_MAX_RUNS, &o);
    if (rc)
        return rc;
    rc = cli_store_open(o.db, CLI_DB_WRITE, &st);
    if (rc)
        return rc;
    /* without --run: the newest complete run and the runs like it */
    if (o.nruns == 0 && sn_store_baseline_candidates(st, SN_BASELINE_MIN_RUNS,
                                                     o.runs, &o.nruns, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    /* a sound baseline: enough runs, no FAIL among them, all alike;
     * --force overrides that and says what it overrode */
    if (sn_store_baseline_vet(st, o.runs, o.nruns, SN_BASELINE_MIN_RUNS,
                              &err)) {
        if (!o.force) {
            fprintf(stderr,
                    "supernode: baseline save: %s (run 'supernode check' "
                    "until %d runs agree, or --force)\n",
                    err.msg, SN_BASELINE_MIN_RUNS);
            rc = SN_EXIT_USAGE;
            goto out;
        }
        fprintf(stderr, "supernode: baseline save: --force overrides: %s\n",
                err.msg);
    }
    if (sn_store_baseline_save(st, o.name, o.runs, o.nruns, o.force, &err) ||
        sn_store_baseline_get(st, o.name, &b, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    printf("baseline '%s': %zu subjects from run%s %s\n", b.name, b.n,
           o.nruns == 1 ? "" : "s", b.runs);
    sn_baseline_release(&b);
out:
    sn_store_close(st);
    return rc;
}

static int bl_list(int argc, char **argv)
{
    struct bl_opts o;
    struct sn_store *st = NULL;
    struct sn_baseline *list = NULL;
    size_t n = 0;
    struct sn_error err;
    struct sn_buf out;
    int rc;

    rc = parse_opts(argc, argv, "table,json", false, false, 0, &o);
    if (rc)
        return rc;
    rc = cli_store_open(o.db, CLI_DB_LIST, &st);
    if (rc)
        return rc;
    sn_buf_init(&out);
    if (st && sn_store_baselines_list(st, &list, &n, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    if (o.format == SN_FORMAT_JSON)
        sn_render_baselines_json(list, n, &out);
    else
        sn_render_baselines_text(list, n, &out);
    cli_print(&out);
out:
    free(list);
    sn_buf_release(&out);
    sn_store_close(st);
    return rc;
}

static int bl_show(int argc, char **argv)
{
    struct bl_opts o;
    struct sn_store *st = NULL;
    struct sn_baseline b;
    struct sn_error err;
    struct sn_buf out;
    int rc;

    rc = parse_opts(argc, argv, "table,json", true, false, 0, &o);
    if (rc)
        return rc;
    rc = cli_store_open(o.db, CLI_DB_READ, &st);
    if (rc)
        return rc;
    if (sn_store_baseline_get(st, o.name, &b, &err)) {
        rc = cli_fail(&err);
        sn_store_close(st);
        return rc;
    }
    sn_buf_init(&out);
    if (o.format == SN_FORMAT_JSON)
        sn_render_baseline_json(&b, &out);
    else
        sn_render_baseline_text(&b, &out);
    cli_print(&out);
    sn_buf_release(&out);
    sn_baseline_release(&b);
    sn_store_close(st);
    return SN_EXIT_OK;
}

/* The baseline, the run to compare (the latest unless --run) and its
 * results; a run not like the baseline is refused unless --force. */
static int diff_load(struct sn_store *st, struct bl_opts *o,
                     struct sn_baseline *b, struct sn_results *rs)
{
    struct sn_run run;
    struct sn_error err;

    if (sn_store_baseline_get(st, o->name, b, &err) ||
        (!o->nruns && sn_store_run_latest(st, &o->runs[0], &err)) ||
        sn_store_results_get(st, o->runs[0], rs, &err))
        return cli_fail(&err);
    /* like with like: a quick run against a full one's baseline, or a
     * cpu run against a cuda one, tells nothing (--force compares) */
    if (sn_store_run_get(st, o->runs[0], &run, &err))
        return cli_fail(&err);
    if (sn_store_baseline_like(st, b, &run, &err)) {
        if (!o->force)
            return cli_fail(&err);
        fprintf(stderr,
                "supernode: baseline diff: --force compares: "
                "%s\n",
                err.msg);
    }
    return SN_EXIT_OK;
}

static int bl_diff(int argc, char **argv)
{
    struct bl_opts o;
    struct sn_store *st = NULL;
    struct sn_baseline b;
    struct sn_results rs;
    struct sn_diag_config cfg;
    struct sn_buf out;
    struct sn_render_diff_row *rows = NULL;
    struct sn_render_diff d;
    size_t fails = 0;
    int rc;

    memset(&b, 0, sizeof(b));
    memset(&d, 0, sizeof(d));
    sn_results_init(&rs);
    sn_diag_config_default(&cfg);
    rc = parse_opts(argc, argv, "table,json", true, true, 1, &o);
    if (rc)
        return rc;
    rc = cli_store_open(o.db, CLI_DB_READ, &st);
    if (rc)
        return rc;
    sn_buf_init(&out);
    if ((rc = diff_load(st, &o, &b, &rs)))
        goto out;
    rows = sn_xcalloc(rs.n ? rs.n : 1, sizeof(*rows));
    for (size_t i = 0; i < rs.n; i++) {
        struct sn_render_diff_row *x = &rows[d.n];
        x->r = &rs.items[i];
        x->e = sn_baseline_find(&b, x->r);
        if (!x->e) {
            d.unmatched++;
            continue;
        }
        sn_diag_vs_baseline(&cfg, x->r, x->e, &x->cmp);
        fails += x->cmp.severity == SN_SEV_FAIL;
        d.n++;
    }
    d.baseline = &b;
    d.run = o.runs[0];
    d.rows = rows;
    if (o.format == SN_FORMAT_JSON)
        sn_render_baseline_diff_json(&d, &out);
    else
        sn_render_baseline_diff_text(&d, &out);
    cli_print(&out);
    rc = fails ? SN_EXIT_CHECK : SN_EXIT_OK;
out:
    free(rows);
    sn_buf_release(&out);
    sn_results_release(&rs);
    sn_baseline_release(&b);
    sn_store_close(st);
    return rc;
}

static int baseline_run(int argc, char **argv)
{
    static const struct cli_sub subs[] = {{"save", bl_save},
                                          {"list", bl_list},
                                          {"show", bl_show},
                                          {"diff", bl_diff}};

    return cli_subcommand(&sn_cmd_baseline, subs, SN_ARRAY_LEN(subs), argc,
                          argv);
}

const struct sn_cmd sn_cmd_baseline = {
    "baseline",
    "save NAME [--run ID]... [--force] | list | show NAME | "
    "diff NAME [--run ID] [--force]  [--db PATH] [--format table|json]",
    "keep what the cluster measured when all was well, compare with it",
    "  baseline save NAME     from the newest complete runs (the newest and\n"
    "                         the ones like it), or from the runs given with\n"
    "                         --run (up to 16, samples pooled so that\n"
    "                         run-to-run noise is part of the baseline): at\n"
    "                         least 3 complete runs of one suite, backend and\n"
    "                         rank count, none with a FAIL, none imported\n"
    "                         twice; --force overrides that (and says what)\n"
    "                         and replaces a baseline of that name\n"
    "  baseline list          every baseline\n"
    "  baseline show NAME     its subjects: centre (median), noise (robust\n"
    "                         standard deviation), samples\n"
    "  baseline diff NAME     the newest complete run (or --run ID) against\n"
    "                         it, subject by subject, with the noise interval\n"
    "                         'supernode check --baseline' uses; exit 1 when "
    "a\n"
    "                         subject fails; the run must be of the "
    "baseline's\n"
    "                         suite, backend and rank count (--force compares\n"
    "                         anyway)\n"
    "  --db PATH              the results database (default\n"
    "                         $XDG_DATA_HOME/supernode/results.db)\n",
    baseline_run,
};
