/* cmd-baseline.c: `supernode baseline save|list|show|diff`: named
 * baselines of what each subject measured when all was well, with the
 * noise seen, and a run compared with one subject by subject. */
#include <assert.h>
#include <inttypes.h>
#include <math.h>
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
        cli_usage_error("baseline %s: unknown option '%s'", argv[1], a);
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
    if (o.format == SN_FORMAT_JSON) {
        struct sn_json j;
        sn_json_init(&j, &out, true);
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "schema", SN_SCHEMA_BASELINES);
        sn_json_key(&j, "baselines");
        sn_json_arr_begin(&j);
        for (size_t i = 0; i < n; i++) {
            sn_json_obj_begin(&j);
            sn_json_kstr(&j, "name", list[i].name);
            sn_json_kstr(&j, "created", list[i].created);
            sn_json_kstr(&j, "runs", list[i].runs);
            sn_json_kstr(&j, "spec_name", list[i].spec_name);
            sn_json_kstr(&j, "spec_hash", list[i].spec_hash);
            sn_json_kint(&j, "subjects", (long long)list[i].n);
            sn_json_obj_end(&j);
        }
        sn_json_arr_end(&j);
        sn_json_obj_end(&j);
        sn_buf_putc(&out, '\n');
    } else if (n == 0) {
        sn_buf_puts(&out, "no baselines yet (save one with 'supernode "
                          "baseline save NAME')\n");
    } else {
        struct sn_table t;
        sn_table_init(&t, "");
        sn_table_col(&t, "NAME", false);
        sn_table_col(&t, "CREATED", false);
        sn_table_col(&t, "RUNS", false);
        sn_table_col(&t, "SPEC", false);
        sn_table_col(&t, "SUBJECTS", true);
        for (size_t i = 0; i < n; i++) {
            sn_table_row(&t);
            sn_table_cell(&t, "%s", list[i].name);
            sn_table_cell(&t, "%s", list[i].created);
            sn_table_cell(&t, "%s", list[i].runs);
            sn_table_cell(&t, "%s",
                          list[i].spec_name[0] ? list[i].spec_name : "-");
            sn_table_cell(&t, "%zu", list[i].n);
        }
        sn_table_render(&t, &out);
        sn_table_release(&t);
    }
    cli_print(&out);
out:
    free(list);
    sn_buf_release(&out);
    sn_store_close(st);
    return rc;
}

static void entry_subject(const struct sn_baseline_entry *e, char *buf,
                          size_t size)
{
    struct sn_result r;

    memset(&r, 0, sizeof(r));
    r.subject = e->subject;
    r.a = e->a;
    r.b = e->b;
    sn_result_subject(&r, buf, size);
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
    if (o.format == SN_FORMAT_JSON) {
        struct sn_json j;
        char subj[64];
        sn_json_init(&j, &out, true);
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "schema", SN_SCHEMA_BASELINE);
        sn_json_kstr(&j, "name", b.name);
        sn_json_kstr(&j, "created", b.created);
        sn_json_kstr(&j, "runs", b.runs);
        sn_json_kstr(&j, "spec_name", b.spec_name);
        sn_json_kstr(&j, "spec_hash", b.spec_hash);
        sn_json_key(&j, "entries");
        sn_json_arr_begin(&j);
        for (size_t i = 0; i < b.n; i++) {
            const struct sn_baseline_entry *e = &b.entries[i];
            entry_subject(e, subj, sizeof(subj));
            sn_json_obj_begin(&j);
            sn_json_kstr(&j, "test", e->test);
            sn_json_kstr(&j, "params", e->params);
            sn_json_kstr(&j, "subject", subj);
            sn_json_kstr(&j, "unit", e->unit);
            sn_json_knum(&j, "center", e->center);
            sn_json_knum(&j, "noise", e->noise);
            sn_json_kint(&j, "samples", (long long)e->n);
            sn_json_kint(&j, "runs", e->runs);
            sn_json_obj_end(&j);
        }
        sn_json_arr_end(&j);
        sn_json_obj_end(&j);
        sn_buf_putc(&out, '\n');
    } else {
        struct sn_table t;
        sn_buf_printf(&out,
                      "baseline '%s': %zu subjects from run%s %s, "
                      "saved %s\n  spec %s (hash %s)\n\n",
                      b.name, b.n, strchr(b.runs, ',') ? "s" : "", b.runs,
                      b.created, b.spec_name[0] ? b.spec_name : "-",
                      b.spec_hash[0] ? b.spec_hash : "-");
        sn_table_init(&t, "");
        sn_table_col(&t, "TEST", false);
        sn_table_col(&t, "PARAMS", false);
        sn_table_col(&t, "SUBJECT", false);
        sn_table_col(&t, "CENTER", true);
        sn_table_col(&t, "NOISE", true);
        sn_table_col(&t, "SAMPLES", true);
        for (size_t i = 0; i < b.n; i++) {
            const struct sn_baseline_entry *e = &b.entries[i];
            char v[48], s[64];
            sn_table_row(&t);
            sn_table_cell(&t, "%s", e->test);
            sn_table_cell(&t, "%s", e->params[0] ? e->params : "-");
            entry_subject(e, s, sizeof(s));
            sn_table_cell(&t, "%s", s);
            sn_table_cell(
                &t, "%s",
                sn_unit_format_named(e->center, e->unit, v, sizeof(v)));
            sn_table_cell(&t, "%.2f%%",
                          e->center != 0 ? 100.0 * e->noise / fabs(e->center)
                                         : 0.0);
            sn_table_cell(&t, "%zu", e->n);
        }
        sn_table_render(&t, &out);
        sn_table_release(&t);
    }
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

/* Where the diff's rows go: a JSON array or a table. */
struct diff_print {
    bool json;
    struct sn_json j;
    struct sn_table t;
    struct sn_buf *out;
};

/* The diff's head: the JSON document up to its subjects, or the text's
 * first line and the table's columns. */
static void diff_head(struct diff_print *p, const struct sn_baseline *b,
                      int64_t run)
{
    static const char *const cols[] = {"TEST",     "PARAMS",  "SUBJECT",
                                       "BASELINE", "NOW",     "CHANGE",
                                       "Z",        "VERDICT", NULL};

    if (p->json) {
        sn_json_init(&p->j, p->out, true);
        sn_json_obj_begin(&p->j);
        sn_json_kstr(&p->j, "schema", SN_SCHEMA_BASELINE_DIFF);
        sn_json_kstr(&p->j, "baseline", b->name);
        sn_json_kint(&p->j, "run", run);
        sn_json_key(&p->j, "subjects");
        sn_json_arr_begin(&p->j);
        return;
    }
    sn_buf_printf(p->out,
                  "run %" PRId64 " against baseline '%s' (runs "
                  "%s)\n\n",
                  run, b->name, b->runs);
    /* the figures right-aligned, the words and the verdict left */
    for (size_t c = 0; cols[c]; c++)
        sn_table_col(&p->t, cols[c], c >= 3 && c <= 6);
}

/* One result against its baseline entry. */
static void diff_row(struct diff_print *p, const struct sn_result *r,
                     const struct sn_baseline_entry *e,
                     const struct sn_diag_cmp *c)
{
    char s[64], v0[48], v1[48];
    double change =
        e->center != 0 ? (r->stats.median - e->center) / e->center : 0.0;

    sn_result_subject(r, s, sizeof(s));
    if (p->json) {
        sn_json_obj_begin(&p->j);
        sn_json_kstr(&p->j, "test", r->test);
        sn_json_kstr(&p->j, "params", r->params);
        sn_json_kstr(&p->j, "subject", s);
        sn_json_kstr(&p->j, "unit", r->unit);
        sn_json_knum(&p->j, "baseline", e->center);
        sn_json_knum(&p->j, "noise", c->noise);
        sn_json_knum(&p->j, "now", r->stats.median);
        sn_json_knum(&p->j, "change", change);
        sn_json_knum(&p->j, "z", c->z);
        sn_json_kstr(&p->j, "verdict", sn_severity_name(c->severity));
        sn_json_obj_end(&p->j);
        return;
    }
    sn_table_row(&p->t);
    sn_table_cell(&p->t, "%s", r->test);
    sn_table_cell(&p->t, "%s", r->params[0] ? r->params : "-");
    sn_table_cell(&p->t, "%s", s);
    sn_table_cell(&p->t, "%s",
                  sn_unit_format_named(e->center, r->unit, v0, sizeof(v0)));
    sn_table_cell(
        &p->t, "%s",
        sn_unit_format_named(r->stats.median, r->unit, v1, sizeof(v1)));
    sn_table_cell(&p->t, "%+.1f%%",
                  e->center != 0
                      ? 100.0 * (r->stats.median - e->center) / e->center
                      : 0.0);
    sn_table_cell(&p->t, "%+.1f", c->z);
    sn_table_cell(&p->t, "%s", sn_severity_name(c->severity));
}

/* The diff's end: the JSON closed, or the table and the counts. */
static void diff_tail(struct diff_print *p, const size_t sev[3],
                      size_t unmatched)
{
    if (p->json) {
        sn_json_arr_end(&p->j);
        sn_json_kint(&p->j, "not_in_baseline", (long long)unmatched);
        sn_json_obj_end(&p->j);
        sn_buf_putc(p->out, '\n');
        return;
    }
    sn_table_render(&p->t, p->out);
    sn_buf_printf(p->out, "\n%zu PASS, %zu WARN, %zu FAIL", sev[0], sev[1],
                  sev[2]);
    if (unmatched)
        sn_buf_printf(p->out, "; %zu results not in the baseline", unmatched);
    sn_buf_putc(p->out, '\n');
}

static int bl_diff(int argc, char **argv)
{
    struct bl_opts o;
    struct sn_store *st = NULL;
    struct sn_baseline b;
    struct sn_results rs;
    struct sn_diag_config cfg;
    struct sn_buf out;
    struct diff_print p;
    size_t sev[3] = {0, 0, 0}, unmatched = 0;
    int rc;

    memset(&b, 0, sizeof(b));
    memset(&p, 0, sizeof(p));
    sn_results_init(&rs);
    sn_diag_config_default(&cfg);
    rc = parse_opts(argc, argv, "table,json", true, true, 1, &o);
    if (rc)
        return rc;
    rc = cli_store_open(o.db, CLI_DB_READ, &st);
    if (rc)
        return rc;
    sn_buf_init(&out);
    sn_table_init(&p.t, "");
    if ((rc = diff_load(st, &o, &b, &rs)))
        goto out;
    p.json = o.format == SN_FORMAT_JSON;
    p.out = &out;
    diff_head(&p, &b, o.runs[0]);
    for (size_t i = 0; i < rs.n; i++) {
        const struct sn_result *r = &rs.items[i];
        const struct sn_baseline_entry *e = sn_baseline_find(&b, r);
        struct sn_diag_cmp c;
        if (!e) {
            unmatched++;
            continue;
        }
        sn_diag_vs_baseline(&cfg, r, e, &c);
        assert((unsigned)c.severity < SN_ARRAY_LEN(sev));
        sev[c.severity]++;
        diff_row(&p, r, e, &c);
    }
    diff_tail(&p, sev, unmatched);
    cli_print(&out);
    rc = sev[SN_SEV_FAIL] ? SN_EXIT_CHECK : SN_EXIT_OK;
out:
    sn_table_release(&p.t);
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
