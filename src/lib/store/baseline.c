/* baseline.c: named baselines: what each subject measured when all was
 * well, pooled over one or more complete runs, with the noise seen. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* The key that says two results measure the same thing on the same
 * subject: test, parameters, subject kind and ranks. */
static int key_cmp(const char *ta, const char *pa, int sa, uint32_t aa,
                   uint32_t ba, const char *tb, const char *pb, int sb,
                   uint32_t ab, uint32_t bb)
{
    int c = strcmp(ta, tb);

    if (c)
        return c;
    c = strcmp(pa, pb);
    if (c)
        return c;
    if (sa != sb)
        return sa < sb ? -1 : 1;
    if (aa != ab)
        return aa < ab ? -1 : 1;
    if (ba != bb)
        return ba < bb ? -1 : 1;
    return 0;
}

static int result_cmp(const void *x, const void *y)
{
    const struct sn_result *a = *(const struct sn_result *const *)x;
    const struct sn_result *b = *(const struct sn_result *const *)y;

    return key_cmp(a->test, a->params, a->subject, a->a, a->b, b->test,
                   b->params, b->subject, b->a, b->b);
}

static int entry_cmp(const void *x, const void *y)
{
    const struct sn_baseline_entry *a = x, *b = y;

    return key_cmp(a->test, a->params, a->subject, a->a, a->b, b->test,
                   b->params, b->subject, b->a, b->b);
}

const struct sn_baseline_entry *sn_baseline_find(const struct sn_baseline *b,
                                                 const struct sn_result *r)
{
    struct sn_baseline_entry key;

    if (!b || !b->n)
        return NULL;
    memcpy(key.test, r->test, sizeof(key.test));
    memcpy(key.params, r->params, sizeof(key.params));
    key.subject = r->subject;
    key.a = r->a;
    key.b = r->b;
    return bsearch(&key, b->entries, b->n, sizeof(*b->entries), entry_cmp);
}

void sn_baseline_release(struct sn_baseline *b)
{
    if (!b)
        return;
    free(b->entries);
    memset(b, 0, sizeof(*b));
}

/* Names are what people type: letters, digits, '.', '_', '-'. */
static int check_name(const char *name, struct sn_error *err)
{
    size_t n = strlen(name);

    if (n == 0 || n >= sizeof(((struct sn_baseline *)0)->name))
        return sn_error_set(err, SN_EINPUT,
                            "baseline name '%.80s' must have 1 to 63 "
                            "characters",
                            name);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        if (!isalnum(c) && c != '.' && c != '_' && c != '-')
            return sn_error_set(err, SN_EINPUT,
                                "baseline name '%.80s' has '%c' (expected "
                                "letters, digits, '.', '_' or '-')",
                                name, c);
    }
    return SN_OK;
}

/* Pool the samples of one key (results[from..to)) into an entry. */
static void pool(struct sn_result *const *r, size_t from, size_t to,
                 struct sn_baseline_entry *e)
{
    size_t total = 0, k = 0;
    double *all;

    memset(e, 0, sizeof(*e));
    memcpy(e->test, r[from]->test, sizeof(e->test));
    memcpy(e->params, r[from]->params, sizeof(e->params));
    memcpy(e->unit, r[from]->unit, sizeof(e->unit));
    e->subject = r[from]->subject;
    e->lower_better = r[from]->lower_better;
    e->a = r[from]->a;
    e->b = r[from]->b;
    for (size_t i = from; i < to; i++)
        total += r[i]->nsamples ? r[i]->nsamples : 1;
    all = sn_xmalloc(total * sizeof(double));
    for (size_t i = from; i < to; i++) {
        if (r[i]->nsamples) {
            memcpy(all + k, r[i]->samples, r[i]->nsamples * sizeof(double));
            k += r[i]->nsamples;
        } else {
            all[k++] = r[i]->stats.median; /* a summary without samples */
        }
    }
    e->n = total;
    e->runs = (int)(to - from);
    e->center = sn_stats_median(all, total);
    e->noise = sn_stats_sigma(all, total);
    free(all);
}

/* Same test, parameters and kind of subject: the subjects whose run-to-run
 * drift is estimated together. */
static bool same_test(const struct sn_baseline_entry *a,
                      const struct sn_baseline_entry *b)
{
    return !strcmp(a->test, b->test) && !strcmp(a->params, b->params) &&
           a->subject == b->subject;
}

/* How far one run's median strays between runs, relative, for every
 * group of entries of the same test: each subject's per-run medians
 * against their mean, pooled over the group (robustly: 1.4826 x MAD),
 * scaled by sqrt(R / (R - 1)) for the mean the deviations are taken
 * from. Entries [from, to) of b are one test; per-run medians come from
 * the sorted results. */
static void estimate_drift(struct sn_baseline *b, struct sn_result *const *all,
                           size_t total)
{
    size_t ndev = 0, cap = 0;
    double *dev = NULL;

    for (size_t i = 0; i < b->n;) {
        size_t j = i + 1, k = 0;
        double sigma = 0.0;
        while (j < b->n && same_test(&b->entries[i], &b->entries[j]))
            j++;
        ndev = 0;
        /* walk the sorted results alongside the group's entries */
        for (size_t e = i; e < j; e++) {
            const struct sn_baseline_entry *en = &b->entries[e];
            double mean = 0.0;
            size_t from, nr = 0;
            while (k < total && (strcmp(all[k]->test, en->test) ||
                                 strcmp(all[k]->params, en->params) ||
                                 all[k]->subject != en->subject ||
                                 all[k]->a != en->a || all[k]->b != en->b))
                k++;
            from = k;
            while (k < total && !strcmp(all[k]->test, en->test) &&
                   !strcmp(all[k]->params, en->params) &&
                   all[k]->subject == en->subject && all[k]->a == en->a &&
                   all[k]->b == en->b) {
                mean += all[k]->stats.median;
                nr++;
                k++;
            }
            if (nr < 2 || mean == 0.0)
                continue;
            mean /= (double)nr;
            for (size_t r = from; r < from + nr; r++) {
                SN_GROW(dev, cap, ndev + 1);
                dev[ndev++] = all[r]->stats.median / mean - 1.0;
            }
        }
        if (ndev >= 2) {
            double runs = (double)b->entries[i].runs;
            sigma = sn_stats_sigma(dev, ndev);
            if (runs > 1)
                sigma *= sqrt(runs / (runs - 1.0));
        }
        for (size_t e = i; e < j; e++)
            b->entries[e].drift = sigma;
        i = j;
    }
    free(dev);
}

static int write_baseline(struct sn_store *st, const struct sn_baseline *b,
                          bool replace, struct sn_error *err)
{
    static const char ins_entry[] =
        "INSERT INTO baseline_entries (baseline_id, test, params, unit,"
        " subject, lower_better, rank_a, rank_b, center, noise, n, runs,"
        " drift) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
        " ?13)";
    sqlite3_stmt *s = NULL;
    int64_t id;
    int rc;

    rc = sn__store_begin(st, err);
    if (rc)
        return rc;
    if (replace) {
        rc = sn__store_prepare(st, "DELETE FROM baselines WHERE name = ?1", &s,
                               err);
        if (!rc) {
            sqlite3_bind_text(s, 1, b->name, -1, SQLITE_STATIC);
            rc = sqlite3_step(s);
            rc = rc == SQLITE_DONE
                     ? SN_OK
                     : STORE_FAIL(st, err, rc, "cannot replace the baseline");
        }
        sqlite3_finalize(s);
        s = NULL;
    }
    if (!rc)
        rc = sn__store_prepare(st,
                               "INSERT INTO baselines (name, created, runs,"
                               " spec_name, spec_hash)"
                               " VALUES (?1, ?2, ?3, ?4, ?5)",
                               &s, err);
    if (!rc) {
        sqlite3_bind_text(s, 1, b->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 2, b->created, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 3, b->runs, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 4, b->spec_name, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 5, b->spec_hash, -1, SQLITE_STATIC);
        rc = sqlite3_step(s);
        if (rc == SQLITE_CONSTRAINT)
            rc = sn_error_set(err, SN_EINPUT,
                              "baseline '%s' exists (use --force to "
                              "replace it)",
                              b->name);
        else if (rc != SQLITE_DONE)
            rc = STORE_FAIL(st, err, rc, "cannot save the baseline");
        else
            rc = SN_OK;
    }
    sqlite3_finalize(s);
    s = NULL;
    id = sqlite3_last_insert_rowid(st->db);
    if (!rc)
        rc = sn__store_prepare(st, ins_entry, &s, err);
    for (size_t i = 0; !rc && i < b->n; i++) {
        const struct sn_baseline_entry *e = &b->entries[i];
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, id);
        sqlite3_bind_text(s, 2, e->test, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 3, e->params, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 4, e->unit, -1, SQLITE_STATIC);
        sqlite3_bind_int(s, 5, e->subject);
        sqlite3_bind_int(s, 6, e->lower_better ? 1 : 0);
        sqlite3_bind_int64(s, 7, e->a == SN_STORE_NO_RANK ? -1 : (int64_t)e->a);
        sqlite3_bind_int64(s, 8, e->b == SN_STORE_NO_RANK ? -1 : (int64_t)e->b);
        sqlite3_bind_double(s, 9, e->center);
        sqlite3_bind_double(s, 10, e->noise);
        sqlite3_bind_int64(s, 11, (sqlite3_int64)e->n);
        sqlite3_bind_int(s, 12, e->runs);
        sqlite3_bind_double(s, 13, e->drift);
        rc = sqlite3_step(s);
        rc = rc == SQLITE_DONE
                 ? SN_OK
                 : STORE_FAIL(st, err, rc, "cannot save the baseline");
    }
    sqlite3_finalize(s);
    return sn__store_end(st, rc, err);
}

int sn_store_baseline_save(struct sn_store *st, const char *name,
                           const int64_t *runs, size_t nruns, bool replace,
                           struct sn_error *err)
{
    struct sn_results *rs = NULL;
    struct sn_result **all = NULL;
    struct sn_baseline b;
    struct sn_run run;
    size_t total = 0, k = 0, cap = 0;
    int rc;

    memset(&b, 0, sizeof(b));
    rc = check_name(name, err);
    if (rc)
        return rc;
    if (nruns == 0 || nruns > SN_BASELINE_MAX_RUNS)
        return sn_error_set(err, SN_EINPUT,
                            "a baseline takes 1 to %d runs, not %zu",
                            SN_BASELINE_MAX_RUNS, nruns);
    sn_strlcpy(b.name, name, sizeof(b.name));
    sn_store_timestamp(b.created, sizeof(b.created));
    rs = sn_xcalloc(nruns, sizeof(*rs));
    for (size_t i = 0; i < nruns; i++) {
        char id[24];
        rc = sn_store_run_get(st, runs[i], &run, err);
        if (rc)
            goto out;
        if (!run.complete) {
            rc = sn_error_set(err, SN_EINPUT,
                              "run %" PRId64 " is not complete; a baseline "
                              "needs finished runs",
                              runs[i]);
            goto out;
        }
        for (size_t j = 0; j < i; j++)
            if (runs[j] == runs[i]) {
                rc = sn_error_set(err, SN_EINPUT,
                                  "run %" PRId64 " is given twice", runs[i]);
                goto out;
            }
        if (i == 0) {
            sn_strlcpy(b.spec_name, run.spec_name, sizeof(b.spec_name));
            sn_strlcpy(b.spec_hash, run.spec_hash, sizeof(b.spec_hash));
        } else if (strcmp(b.spec_hash, run.spec_hash) != 0) {
            rc = sn_error_set(err, SN_EINPUT,
                              "runs %" PRId64 " and %" PRId64 " were made "
                              "on different specs (%s, %s); a baseline "
                              "describes one cluster",
                              runs[0], runs[i], b.spec_hash, run.spec_hash);
            goto out;
        }
        snprintf(id, sizeof(id), "%s%" PRId64, i ? "," : "", runs[i]);
        if (strlen(b.runs) + strlen(id) < sizeof(b.runs))
            sn_strlcpy(b.runs + strlen(b.runs), id,
                       sizeof(b.runs) - strlen(b.runs));
        rc = sn_store_results_get(st, runs[i], &rs[i], err);
        if (rc)
            goto out;
        total += rs[i].n;
    }
    if (total == 0) {
        rc = sn_error_set(err, SN_EINPUT, "run %s has no results", b.runs);
        goto out;
    }
    all = sn_xmalloc(total * sizeof(*all));
    for (size_t i = 0; i < nruns; i++)
        for (size_t j = 0; j < rs[i].n; j++)
            all[k++] = &rs[i].items[j];
    qsort(all, total, sizeof(*all), result_cmp);
    for (size_t i = 0; i < total;) {
        size_t j = i + 1;
        while (j < total && result_cmp(&all[i], &all[j]) == 0)
            j++;
        SN_GROW(b.entries, cap, b.n + 1);
        pool(all, i, j, &b.entries[b.n++]);
        i = j;
    }
    estimate_drift(&b, all, total);
    rc = write_baseline(st, &b, replace, err);
out:
    free(all);
    for (size_t i = 0; rs && i < nruns; i++)
        sn_results_release(&rs[i]);
    free(rs);
    sn_baseline_release(&b);
    return rc;
}

static int baseline_names(struct sn_store *st, char ***names, size_t *n)
{
    struct sn_baseline *list = NULL;
    size_t nl = 0;
    int rc = sn_store_baselines_list(st, &list, &nl, NULL);

    *names = NULL;
    *n = 0;
    if (rc)
        return rc;
    *names = sn_xcalloc(nl + 1, sizeof(char *));
    for (size_t i = 0; i < nl; i++)
        (*names)[i] = sn_xstrdup(list[i].name);
    *n = nl;
    free(list);
    return SN_OK;
}

static int not_found(struct sn_store *st, const char *name,
                     struct sn_error *err)
{
    char **names = NULL;
    size_t n = 0;
    const char *near = NULL;
    int rc;

    if (baseline_names(st, &names, &n) == SN_OK)
        near = sn_suggest(name, (const char *const *)names);
    if (near)
        rc = sn_error_set(err, SN_ENOTFOUND,
                          "no baseline '%.80s' (did you mean '%s'?)", name,
                          near);
    else
        rc = sn_error_set(err, SN_ENOTFOUND,
                          "no baseline '%.80s' (see 'supernode baseline "
                          "list')",
                          name);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

int sn_store_baseline_get(struct sn_store *st, const char *name,
                          struct sn_baseline *out, struct sn_error *err)
{
    static const char sql_head[] =
        "SELECT id, name, created, runs, spec_name, spec_hash"
        " FROM baselines WHERE name = ?1";
    static const char sql_entries[] =
        "SELECT test, params, unit, subject, lower_better, rank_a, rank_b,"
        " center, noise, n, runs, drift FROM baseline_entries"
        " WHERE baseline_id = ?1";
    sqlite3_stmt *s;
    size_t cap = 0;
    int rc;

    memset(out, 0, sizeof(*out));
    rc = sn__store_prepare(st, sql_head, &s, err);
    if (rc)
        return rc;
    sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        out->id = sqlite3_column_int64(s, 0);
        sn__store_col_text(s, 1, out->name, sizeof(out->name));
        sn__store_col_text(s, 2, out->created, sizeof(out->created));
        sn__store_col_text(s, 3, out->runs, sizeof(out->runs));
        sn__store_col_text(s, 4, out->spec_name, sizeof(out->spec_name));
        sn__store_col_text(s, 5, out->spec_hash, sizeof(out->spec_hash));
        rc = SN_OK;
    } else if (rc == SQLITE_DONE) {
        rc = SN_ENOTFOUND;
    } else {
        rc = STORE_FAIL(st, err, rc, "cannot read the baseline");
    }
    sqlite3_finalize(s);
    if (rc == SN_ENOTFOUND)
        return not_found(st, name, err);
    if (rc)
        return rc;
    rc = sn__store_prepare(st, sql_entries, &s, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(s, 1, out->id);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        struct sn_baseline_entry *e;
        sqlite3_int64 a, b;
        if (out->n >= SN_STORE_MAX_RESULTS) {
            rc = SQLITE_TOOBIG;
            break;
        }
        SN_GROW(out->entries, cap, out->n + 1);
        e = &out->entries[out->n++];
        memset(e, 0, sizeof(*e));
        sn__store_col_text(s, 0, e->test, sizeof(e->test));
        sn__store_col_text(s, 1, e->params, sizeof(e->params));
        sn__store_col_text(s, 2, e->unit, sizeof(e->unit));
        e->subject = (uint8_t)sqlite3_column_int(s, 3);
        e->lower_better = sqlite3_column_int(s, 4) != 0;
        a = sqlite3_column_int64(s, 5);
        b = sqlite3_column_int64(s, 6);
        e->a = a < 0 || a >= UINT32_MAX ? SN_STORE_NO_RANK : (uint32_t)a;
        e->b = b < 0 || b >= UINT32_MAX ? SN_STORE_NO_RANK : (uint32_t)b;
        e->center = sqlite3_column_double(s, 7);
        e->noise = sqlite3_column_double(s, 8);
        e->n = (size_t)sqlite3_column_int64(s, 9);
        e->runs = sqlite3_column_int(s, 10);
        e->drift = sqlite3_column_double(s, 11);
    }
    rc = rc == SQLITE_DONE
             ? SN_OK
             : STORE_FAIL(st, err, rc, "cannot read the baseline");
    sqlite3_finalize(s);
    if (rc) {
        sn_baseline_release(out);
        return rc;
    }
    /* the primary key orders by (test, params, subject, ranks) but with
     * SQLite's collation of signed ranks; sort with ours for lookups */
    qsort(out->entries, out->n, sizeof(*out->entries), entry_cmp);
    return SN_OK;
}

int sn_store_baselines_list(struct sn_store *st, struct sn_baseline **out,
                            size_t *n, struct sn_error *err)
{
    sqlite3_stmt *s;
    size_t cap = 0;
    int rc;

    *out = NULL;
    *n = 0;
    rc = sn__store_prepare(st,
                           "SELECT id, name, created, runs, spec_name,"
                           " spec_hash, (SELECT count(*) FROM"
                           " baseline_entries WHERE baseline_id ="
                           " baselines.id) FROM baselines ORDER BY name",
                           &s, err);
    if (rc)
        return rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        struct sn_baseline *b;
        SN_GROW(*out, cap, *n + 1);
        b = &(*out)[(*n)++];
        memset(b, 0, sizeof(*b));
        b->id = sqlite3_column_int64(s, 0);
        sn__store_col_text(s, 1, b->name, sizeof(b->name));
        sn__store_col_text(s, 2, b->created, sizeof(b->created));
        sn__store_col_text(s, 3, b->runs, sizeof(b->runs));
        sn__store_col_text(s, 4, b->spec_name, sizeof(b->spec_name));
        sn__store_col_text(s, 5, b->spec_hash, sizeof(b->spec_hash));
        b->n = (size_t)sqlite3_column_int64(s, 6);
    }
    rc = rc == SQLITE_DONE
             ? SN_OK
             : STORE_FAIL(st, err, rc, "cannot list the baselines");
    sqlite3_finalize(s);
    if (rc) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

/* Two runs that are one run imported twice: the same start and host. */
static bool same_run(const struct sn_run *a, const struct sn_run *b)
{
    return !strcmp(a->started, b->started) && !strcmp(a->host, b->host);
}

static bool alike(const struct sn_run *a, const struct sn_run *b)
{
    return !strcmp(a->spec_hash, b->spec_hash) && !strcmp(a->suite, b->suite) &&
           !strcmp(a->backend, b->backend) && a->ranks == b->ranks;
}

int sn_store_baseline_vet(struct sn_store *st, const int64_t *runs,
                          size_t nruns, size_t min_runs, struct sn_error *err)
{
    struct sn_run *r;
    struct sn_buf why;
    int rc = SN_OK;

    if (nruns > SN_BASELINE_MAX_RUNS)
        return sn_error_set(err, SN_EINPUT,
                            "a baseline takes at most %d runs, not %zu",
                            SN_BASELINE_MAX_RUNS, nruns);
    r = sn_xcalloc(nruns + 1, sizeof(*r));
    for (size_t i = 0; i < nruns; i++)
        if ((rc = sn_store_run_get(st, runs[i], &r[i], err)))
            goto out;
    sn_buf_init(&why);
    if (nruns < min_runs)
        sn_buf_printf(&why,
                      "%s%zu run%s where a baseline needs %zu (the "
                      "noise between runs is what it measures)",
                      why.len ? "; " : "", nruns, nruns == 1 ? "" : "s",
                      min_runs);
    for (size_t i = 0; i < nruns; i++) {
        if (!strcmp(r[i].verdict, "FAIL"))
            sn_buf_printf(&why, "%srun %" PRId64 " found a FAIL",
                          why.len ? "; " : "", r[i].id);
        if (i &&
            (strcmp(r[i].suite, r[0].suite) ||
             strcmp(r[i].backend, r[0].backend) || r[i].ranks != r[0].ranks))
            sn_buf_printf(&why,
                          "%srun %" PRId64 " is %s/%s on %d ranks, run %" PRId64
                          " %s/%s on %d",
                          why.len ? "; " : "", r[i].id, r[i].suite,
                          r[i].backend, r[i].ranks, r[0].id, r[0].suite,
                          r[0].backend, r[0].ranks);
        for (size_t j = 0; j < i; j++)
            if (same_run(&r[i], &r[j]))
                sn_buf_printf(&why,
                              "%sruns %" PRId64 " and %" PRId64 " are one run "
                              "imported twice (started %s on %s)",
                              why.len ? "; " : "", r[j].id, r[i].id,
                              r[i].started, r[i].host);
    }
    if (why.len)
        rc = sn_error_set(err, SN_EINPUT, "not a sound baseline: %s", why.data);
    sn_buf_release(&why);
out:
    free(r);
    return rc;
}

int sn_store_baseline_candidates(struct sn_store *st, size_t max, int64_t *runs,
                                 size_t *n, struct sn_error *err)
{
    struct sn_run *all = NULL, newest;
    const struct sn_run **picked;
    size_t nall = 0;
    int rc;

    *n = 0;
    if ((rc = sn_store_run_latest(st, &runs[0], err)) ||
        (rc = sn_store_run_get(st, runs[0], &newest, err)))
        return rc;
    *n = 1;
    if ((rc = sn_store_runs_list(st, 0, &all, &nall, err)))
        return rc;
    /* the runs taken so far, newest first: a later one that is one of
     * them imported again is left out */
    picked = sn_xcalloc(max + 1, sizeof(*picked));
    picked[0] = &newest;
    for (size_t i = 0; i < nall && *n < max; i++) {
        const struct sn_run *r = &all[i];
        bool dup = false;
        if (r->id == newest.id || !r->complete || !alike(r, &newest) ||
            !strcmp(r->verdict, "FAIL"))
            continue;
        for (size_t m = 0; m < *n && !dup; m++)
            dup = same_run(picked[m], r);
        if (dup)
            continue;
        picked[*n] = r;
        runs[(*n)++] = r->id;
    }
    free(picked);
    free(all);
    return SN_OK;
}

int sn_store_baseline_like(struct sn_store *st, const struct sn_baseline *b,
                           const struct sn_run *run, struct sn_error *err)
{
    struct sn_run src;
    long long first = atoll(b->runs);
    int rc;

    if (first <= 0)
        return SN_OK;
    if ((rc = sn_store_run_get(st, first, &src, err))) {
        /* its runs may have been removed: nothing to compare with */
        sn_error_clear(err);
        return SN_OK;
    }
    if (strcmp(src.suite, run->suite) || strcmp(src.backend, run->backend) ||
        src.ranks != run->ranks)
        return sn_error_set(err, SN_EINPUT,
                            "run %" PRId64 " (%s suite, %s backend, %d ranks) "
                            "is not like baseline '%s' (%s, %s, %d ranks): "
                            "compare like with like",
                            run->id, run->suite, run->backend, run->ranks,
                            b->name, src.suite, src.backend, src.ranks);
    return SN_OK;
}
