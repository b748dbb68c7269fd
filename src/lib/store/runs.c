/* runs.c: runs, their results (summaries and raw samples as a little-endian
 * float64 blob) and findings: the transactional writes and the reads. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* ---- samples as bytes: little-endian IEEE-754 doubles, whatever the
 * host's byte order, so a database file moves between machines ---- */

static void encode_samples(const double *x, size_t n, unsigned char *out)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, &x[i], sizeof(u));
        for (int k = 0; k < 8; k++)
            out[i * 8 + (size_t)k] = (unsigned char)(u >> (8 * k));
    }
}

static void decode_samples(const unsigned char *in, size_t n, double *x)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t u = 0;
        for (int k = 0; k < 8; k++)
            u |= (uint64_t)in[i * 8 + (size_t)k] << (8 * k);
        memcpy(&x[i], &u, sizeof(u));
    }
}

static int64_t rank_col(uint32_t r)
{
    return r == SN_STORE_NO_RANK ? -1 : (int64_t)r;
}

static uint32_t rank_from(sqlite3_int64 v)
{
    return v < 0 || v > (sqlite3_int64)UINT32_MAX - 1 ? SN_STORE_NO_RANK
                                                      : (uint32_t)v;
}

/* ---- writes ------------------------------------------------------------- */

static int insert_run(struct sn_store *st, struct sn_run *run,
                      struct sn_error *err)
{
    static const char sql[] =
        "INSERT INTO runs (started, finished, host, user, tool, versions,"
        " spec_name, spec_hash, suite, backend, ranks, complete, verdict)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)";
    sqlite3_stmt *s;
    int rc = sn__store_prepare(st, sql, &s, err);

    if (rc)
        return rc;
    if (!run->started[0])
        sn_store_timestamp(run->started, sizeof(run->started));
    sqlite3_bind_text(s, 1, run->started, -1, SQLITE_STATIC);
    if (run->finished[0])
        sqlite3_bind_text(s, 2, run->finished, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, run->host, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 4, run->user, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 5, run->tool, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 6, run->versions, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 7, run->spec_name, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 8, run->spec_hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 9, run->suite, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 10, run->backend, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 11, run->ranks);
    sqlite3_bind_int(s, 12, run->complete ? 1 : 0);
    sqlite3_bind_text(s, 13, run->verdict, -1, SQLITE_STATIC);
    rc = sqlite3_step(s);
    if (rc != SQLITE_DONE)
        rc = STORE_FAIL(st, err, rc, "cannot record the run");
    else
        rc = SN_OK;
    sqlite3_finalize(s);
    if (!rc)
        run->id = sqlite3_last_insert_rowid(st->db);
    return rc;
}

/* The next result sequence number of a run (results may come in
 * several batches). */
static int next_seq(struct sn_store *st, int64_t run, int64_t *seq,
                    struct sn_error *err)
{
    return sn__store_query_int64(
        st, "SELECT coalesce(max(seq) + 1, 0) FROM results WHERE run_id = ?1",
        run, seq, "cannot read the run's results", err);
}

int sn__store_run_exists(struct sn_store *st, int64_t run, bool *complete,
                         struct sn_error *err)
{
    sqlite3_stmt *s;
    int rc = sn__store_prepare(st, "SELECT complete FROM runs WHERE id = ?1",
                               &s, err);

    if (rc)
        return rc;
    sqlite3_bind_int64(s, 1, run);
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        *complete = sqlite3_column_int(s, 0) != 0;
        rc = SN_OK;
    } else if (rc == SQLITE_DONE) {
        rc = sn_error_set(err, SN_ENOTFOUND, "no run %" PRId64, run);
    } else {
        rc = STORE_FAIL(st, err, rc, "cannot read the run");
    }
    sqlite3_finalize(s);
    return rc;
}

int sn__store_begin_open(struct sn_store *st, int64_t run, const char *what,
                         struct sn_error *err)
{
    bool complete = false;
    int rc = sn__store_begin(st, err);

    if (!rc)
        rc = sn__store_run_exists(st, run, &complete, err);
    if (!rc && complete)
        rc = sn_error_set(err, SN_EINPUT,
                          "run %" PRId64 " is complete; its %s are final", run,
                          what);
    return rc;
}

static int insert_results(struct sn_store *st, int64_t run,
                          const struct sn_result *res, size_t n,
                          struct sn_error *err)
{
    static const char sql[] =
        "INSERT INTO results (run_id, seq, test, params, unit, subject,"
        " lower_better, rank_a, rank_b, round, n, median, mean, min, max,"
        " mad, stddev, samples) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
        " ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)";
    sqlite3_stmt *s = NULL;
    unsigned char *blob = NULL;
    size_t blob_cap = 0;
    int64_t seq = 0;
    int rc;

    rc = next_seq(st, run, &seq, err);
    if (!rc)
        rc = sn__store_prepare(st, sql, &s, err);
    for (size_t i = 0; !rc && i < n; i++) {
        const struct sn_result *r = &res[i];
        struct sn_stats stats = r->stats;
        char params[SN_RESULT_PARAMS_MAX];
        if (r->nsamples > SN_STORE_MAX_SAMPLES) {
            rc = sn_error_set(err, SN_EINPUT,
                              "result %zu (%s) has %zu samples (at most %d)", i,
                              r->test, r->nsamples, SN_STORE_MAX_SAMPLES);
            break;
        }
        if (r->nsamples && stats.n != r->nsamples)
            sn_stats_compute(r->samples, r->nsamples, &stats);
        SN_GROW(blob, blob_cap, r->nsamples * 8 + 1);
        encode_samples(r->samples, r->nsamples, blob);
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, run);
        sqlite3_bind_int64(s, 2, seq + (int64_t)i);
        sqlite3_bind_text(s, 3, r->test, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 4,
                          sn__store_result_params(r, params, sizeof(params)),
                          -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(s, 5, r->unit, -1, SQLITE_STATIC);
        sqlite3_bind_int(s, 6, r->subject);
        sqlite3_bind_int(s, 7, r->lower_better ? 1 : 0);
        sqlite3_bind_int64(s, 8, rank_col(r->a));
        sqlite3_bind_int64(s, 9, rank_col(r->b));
        sqlite3_bind_int64(s, 10, rank_col(r->round));
        sqlite3_bind_int64(s, 11, (sqlite3_int64)stats.n);
        sqlite3_bind_double(s, 12, stats.median);
        sqlite3_bind_double(s, 13, stats.mean);
        sqlite3_bind_double(s, 14, stats.min);
        sqlite3_bind_double(s, 15, stats.max);
        sqlite3_bind_double(s, 16, stats.mad);
        sqlite3_bind_double(s, 17, stats.stddev);
        sqlite3_bind_blob(s, 18, blob, (int)(r->nsamples * 8), SQLITE_STATIC);
        rc = sqlite3_step(s);
        rc = rc == SQLITE_DONE ? SN_OK
                               : STORE_FAIL(st, err, rc, "cannot add a result");
    }
    sqlite3_finalize(s);
    free(blob);
    return rc;
}

static int insert_findings(struct sn_store *st, int64_t run,
                           const struct sn_store_finding *f, size_t n,
                           struct sn_error *err)
{
    static const char sql[] =
        "INSERT INTO findings (run_id, seq, severity, kind, subject, label,"
        " summary) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
    sqlite3_stmt *s = NULL;
    int rc = SN_OK;

    if (n)
        rc = sn__store_prepare(st, sql, &s, err);
    for (size_t i = 0; !rc && i < n; i++) {
        const char *text[] = {f[i].severity, f[i].kind, f[i].subject,
                              f[i].label, f[i].summary};
        rc = sn__store_insert_row(st, s, run, (int64_t)i, text,
                                  SN_ARRAY_LEN(text), "cannot add a finding",
                                  err);
    }
    sqlite3_finalize(s);
    return rc;
}

/* Mark a run complete; finished is the time it ended ("" or NULL: now). */
static int mark_finished(struct sn_store *st, int64_t run, const char *verdict,
                         const char *finished, struct sn_error *err)
{
    sqlite3_stmt *s;
    char now[32];
    int rc = sn__store_prepare(st,
                               "UPDATE runs SET complete = 1, finished = ?2,"
                               " verdict = ?3 WHERE id = ?1",
                               &s, err);

    if (rc)
        return rc;
    if (finished && finished[0])
        sn_strlcpy(now, finished, sizeof(now));
    else
        sn_store_timestamp(now, sizeof(now));
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_text(s, 2, now, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, verdict ? verdict : "", -1, SQLITE_STATIC);
    rc = sqlite3_step(s);
    rc = rc == SQLITE_DONE ? SN_OK
                           : STORE_FAIL(st, err, rc, "cannot finish the run");
    sqlite3_finalize(s);
    return rc;
}

int sn_store_run_begin(struct sn_store *st, struct sn_run *run,
                       struct sn_error *err)
{
    int rc;

    run->complete = false;
    run->finished[0] = '\0';
    rc = sn__store_begin(st, err);
    if (!rc)
        rc = insert_run(st, run, err);
    return sn__store_end(st, rc, err);
}

int sn_store_add_results(struct sn_store *st, int64_t run,
                         const struct sn_result *res, size_t n,
                         struct sn_error *err)
{
    int rc = sn__store_begin_open(st, run, "results", err);

    if (!rc)
        rc = insert_results(st, run, res, n, err);
    return sn__store_end(st, rc, err);
}

int sn_store_run_finish(struct sn_store *st, int64_t run, const char *verdict,
                        const struct sn_store_finding *f, size_t nf,
                        struct sn_error *err)
{
    bool complete = false;
    int rc = sn__store_begin(st, err);

    if (!rc)
        rc = sn__store_run_exists(st, run, &complete, err);
    if (!rc && complete)
        rc = sn_error_set(err, SN_EINPUT, "run %" PRId64 " is already complete",
                          run);
    if (!rc)
        rc = insert_findings(st, run, f, nf, err);
    if (!rc)
        rc = mark_finished(st, run, verdict, NULL, err);
    return sn__store_end(st, rc, err);
}

int sn_store_run_put(struct sn_store *st, struct sn_run *run,
                     const struct sn_result *res, size_t n,
                     const struct sn_store_finding *f, size_t nf,
                     const struct sn_store_health *h, size_t nh,
                     struct sn_error *err)
{
    int rc = sn__store_health_valid(h, nh, err);
    bool complete = run->complete;

    if (rc)
        return rc;
    rc = sn__store_begin(st, err);
    run->complete = false;
    if (!rc)
        rc = insert_run(st, run, err);
    if (!rc)
        rc = insert_results(st, run->id, res, n, err);
    if (!rc)
        rc = insert_findings(st, run->id, f, nf, err);
    if (!rc)
        rc = sn__store_health_insert(st, run->id, h, nh, 0, err);
    if (!rc && complete)
        rc = mark_finished(st, run->id, run->verdict, run->finished, err);
    rc = sn__store_end(st, rc, err);
    if (rc)
        run->id = 0;
    run->complete = complete;
    return rc;
}

/* ---- reads ------------------------------------------------------------- */

/* A run's results counted as max(seq) + 1: the writes number them from
 * 0 without gaps (next_seq), and the maximum is one look-up in the
 * primary key where count(*) reads every row (0.15 s for 500,000). */
#define RUN_COLS                                                               \
    "id, started, coalesce(finished, ''), host, user, tool, versions,"         \
    " spec_name, spec_hash, suite, backend, ranks, complete, verdict,"         \
    " (SELECT coalesce(max(seq) + 1, 0) FROM results"                          \
    "  WHERE run_id = runs.id),"                                               \
    " (SELECT count(*) FROM findings WHERE run_id = runs.id)"

static void read_run(sqlite3_stmt *s, struct sn_run *r)
{
    memset(r, 0, sizeof(*r));
    r->id = sqlite3_column_int64(s, 0);
    sn__store_col_text(s, 1, r->started, sizeof(r->started));
    sn__store_col_text(s, 2, r->finished, sizeof(r->finished));
    sn__store_col_text(s, 3, r->host, sizeof(r->host));
    sn__store_col_text(s, 4, r->user, sizeof(r->user));
    sn__store_col_text(s, 5, r->tool, sizeof(r->tool));
    sn__store_col_text(s, 6, r->versions, sizeof(r->versions));
    sn__store_col_text(s, 7, r->spec_name, sizeof(r->spec_name));
    sn__store_col_text(s, 8, r->spec_hash, sizeof(r->spec_hash));
    sn__store_col_text(s, 9, r->suite, sizeof(r->suite));
    sn__store_col_text(s, 10, r->backend, sizeof(r->backend));
    r->ranks = sqlite3_column_int(s, 11);
    r->complete = sqlite3_column_int(s, 12) != 0;
    sn__store_col_text(s, 13, r->verdict, sizeof(r->verdict));
    r->nresults = (size_t)sqlite3_column_int64(s, 14);
    r->nfindings = (size_t)sqlite3_column_int64(s, 15);
}

int sn_store_run_get(struct sn_store *st, int64_t id, struct sn_run *run,
                     struct sn_error *err)
{
    sqlite3_stmt *s;
    int rc = sn__store_prepare(
        st, "SELECT " RUN_COLS " FROM runs WHERE id = ?1", &s, err);

    if (rc)
        return rc;
    sqlite3_bind_int64(s, 1, id);
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        read_run(s, run);
        rc = SN_OK;
    } else if (rc == SQLITE_DONE) {
        rc = sn_error_set(err, SN_ENOTFOUND,
                          "no run %" PRId64 " (see 'supernode runs list')", id);
    } else {
        rc = STORE_FAIL(st, err, rc, "cannot read the run");
    }
    sqlite3_finalize(s);
    return rc;
}

int sn_store_runs_list(struct sn_store *st, size_t limit, struct sn_run **runs,
                       size_t *n, struct sn_error *err)
{
    sqlite3_stmt *s;
    size_t cap = 0;
    int rc;

    *runs = NULL;
    *n = 0;
    rc = sn__store_prepare(
        st, "SELECT " RUN_COLS " FROM runs ORDER BY id DESC LIMIT ?1", &s, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(s, 1, limit ? (sqlite3_int64)limit : -1);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        SN_GROW(*runs, cap, *n + 1);
        read_run(s, &(*runs)[(*n)++]);
    }
    rc = rc == SQLITE_DONE ? SN_OK
                           : STORE_FAIL(st, err, rc, "cannot list the runs");
    sqlite3_finalize(s);
    if (rc) {
        free(*runs);
        *runs = NULL;
        *n = 0;
    }
    return rc;
}

int sn_store_run_latest(struct sn_store *st, int64_t *id, struct sn_error *err)
{
    sqlite3_stmt *s;
    int rc = sn__store_prepare(
        st, "SELECT max(id) FROM runs WHERE complete = 1", &s, err);

    if (rc)
        return rc;
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL) {
        *id = sqlite3_column_int64(s, 0);
        rc = SN_OK;
    } else if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
        rc = sn_error_set(err, SN_ENOTFOUND,
                          "%s: no complete run yet (run 'supernode check' "
                          "first)",
                          st->path);
    } else {
        rc = STORE_FAIL(st, err, rc, "cannot read the runs");
    }
    sqlite3_finalize(s);
    return rc;
}

/* The results a run holds, to reserve the array once: max(seq) + 1, as
 * the writes number them from 0 (an index lookup, where count(*) reads
 * every row), capped as the reading is. A hint only: the rows decide. */
static size_t results_hint(struct sn_store *st, int64_t run)
{
    int64_t n = 0;

    if (next_seq(st, run, &n, NULL) || n < 0)
        return 0;
    return n > SN_STORE_MAX_RESULTS ? SN_STORE_MAX_RESULTS : (size_t)n;
}

/* The raw text of the previous row's test, params and unit: the results
 * of one test come one after another, and cleaning 1.5 million strings
 * was a tenth of reading a run of 1,000 devices. A repeat is copied from
 * the previous result, cleaned as it was. */
struct text_memo {
    char raw[3][SN_RESULT_PARAMS_MAX];
    int len[3]; /* -1: nothing held (text this long is cleaned anew) */
};

/* Whether column col (0..2) of the row holds the previous row's text;
 * remembers it for the next row when it does not. */
static bool same_text(sqlite3_stmt *s, int col, struct text_memo *m)
{
    const unsigned char *t = sqlite3_column_text(s, col);
    int n = sqlite3_column_bytes(s, col);

    if (t && n == m->len[col] && !memcmp(t, m->raw[col], (size_t)n))
        return true;
    m->len[col] = -1;
    if (t && n >= 0 && (size_t)n < sizeof(m->raw[col])) {
        memcpy(m->raw[col], t, (size_t)n);
        m->len[col] = n;
    }
    return false;
}

/* Fill d from the row at s: the summary always, the raw samples as which
 * asks; prev is the result read before (NULL for the first). SN_EINPUT
 * when the row holds more samples than the cap. */
static int read_result(sqlite3_stmt *s, enum sn_store_samples which,
                       const struct sn_result *prev, struct text_memo *m,
                       struct sn_result *d)
{
    size_t ns;

    memset(d, 0, sizeof(*d));
    if (same_text(s, 0, m) && prev)
        memcpy(d->test, prev->test, sizeof(d->test));
    else
        sn__store_col_text(s, 0, d->test, sizeof(d->test));
    if (same_text(s, 1, m) && prev) {
        /* the same string: the same typed parameters */
        memcpy(d->params, prev->params, sizeof(d->params));
        memcpy(d->dtype, prev->dtype, sizeof(d->dtype));
        memcpy(d->redop, prev->redop, sizeof(d->redop));
        d->bytes = prev->bytes;
        d->gemm_m = prev->gemm_m;
        d->gemm_n = prev->gemm_n;
        d->gemm_k = prev->gemm_k;
        d->inplace = prev->inplace;
        d->numa = prev->numa;
        d->pinned = prev->pinned;
        d->root = prev->root;
        d->has = prev->has;
    } else {
        sn__store_col_text(s, 1, d->params, sizeof(d->params));
        sn_result_params_read(d);
    }
    if (same_text(s, 2, m) && prev)
        memcpy(d->unit, prev->unit, sizeof(d->unit));
    else
        sn__store_col_text(s, 2, d->unit, sizeof(d->unit));
    d->subject = (uint8_t)sqlite3_column_int(s, 3);
    d->lower_better = sqlite3_column_int(s, 4) != 0;
    d->a = rank_from(sqlite3_column_int64(s, 5));
    d->b = rank_from(sqlite3_column_int64(s, 6));
    d->round = rank_from(sqlite3_column_int64(s, 7));
    d->stats.n = (size_t)sqlite3_column_int64(s, 8);
    d->stats.median = sqlite3_column_double(s, 9);
    d->stats.mean = sqlite3_column_double(s, 10);
    d->stats.min = sqlite3_column_double(s, 11);
    d->stats.max = sqlite3_column_double(s, 12);
    d->stats.mad = sqlite3_column_double(s, 13);
    d->stats.stddev = sqlite3_column_double(s, 14);
    if (which == SN_STORE_SAMPLES_NONE ||
        (which == SN_STORE_SAMPLES_TIMES && strcmp(d->unit, "s")))
        return SN_OK; /* the blob is never decoded */
    ns = (size_t)sqlite3_column_bytes(s, 15) / 8;
    if (ns > SN_STORE_MAX_SAMPLES)
        return SN_EINPUT;
    if (ns) {
        d->samples = sn_xmalloc(ns * sizeof(double));
        decode_samples(sqlite3_column_blob(s, 15), ns, d->samples);
        d->nsamples = ns;
    }
    return SN_OK;
}

int sn_store_results_read(struct sn_store *st, int64_t run,
                          enum sn_store_samples which, struct sn_results *out,
                          struct sn_error *err)
{
    static const char sql[] =
        "SELECT test, params, unit, subject, lower_better, rank_a, rank_b,"
        " round, n, median, mean, min, max, mad, stddev, samples"
        " FROM results WHERE run_id = ?1 ORDER BY seq";
    sqlite3_stmt *s;
    bool complete, capped = false;
    struct text_memo memo = {.len = {-1, -1, -1}};
    int rc;

    sn_results_init(out);
    rc = sn__store_run_exists(st, run, &complete, err);
    if (!rc)
        rc = sn__store_prepare(st, sql, &s, err);
    if (rc)
        return rc;
    SN_GROW(out->items, out->cap, results_hint(st, run));
    sqlite3_bind_int64(s, 1, run);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        /* read in place: a result is some 300 bytes, 500,000 of them a
         * run of 1,000 devices, so no copy through a local */
        if (out->n >= SN_STORE_MAX_RESULTS) {
            capped = true;
            break;
        }
        SN_GROW(out->items, out->cap, out->n + 1);
        if (read_result(s, which, out->n ? &out->items[out->n - 1] : NULL,
                        &memo, &out->items[out->n])) {
            out->n++;
            capped = true;
            break;
        }
        out->n++;
    }
    if (capped)
        rc = sn_error_set(err, SN_EINPUT,
                          "%s: run %" PRId64 " holds more than this "
                          "supernode reads (%d results of at most %d "
                          "samples)",
                          st->path, run, SN_STORE_MAX_RESULTS,
                          SN_STORE_MAX_SAMPLES);
    else if (rc == SQLITE_DONE)
        rc = SN_OK;
    else
        rc = STORE_FAIL(st, err, rc, "cannot read the results");
    sqlite3_finalize(s);
    if (rc)
        sn_results_release(out);
    return rc;
}

int sn_store_results_get(struct sn_store *st, int64_t run,
                         struct sn_results *out, struct sn_error *err)
{
    return sn_store_results_read(st, run, SN_STORE_SAMPLES_ALL, out, err);
}

int sn_store_findings_get(struct sn_store *st, int64_t run,
                          struct sn_store_finding **f, size_t *n,
                          struct sn_error *err)
{
    sqlite3_stmt *s;
    size_t cap = 0;
    int rc;

    *f = NULL;
    *n = 0;
    rc = sn__store_prepare(st,
                           "SELECT severity, kind, subject, label, summary"
                           " FROM findings WHERE run_id = ?1 ORDER BY seq",
                           &s, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(s, 1, run);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        struct sn_store_finding *x;
        const unsigned char *sum;
        SN_GROW(*f, cap, *n + 1);
        x = &(*f)[(*n)++];
        sn__store_col_text(s, 0, x->severity, sizeof(x->severity));
        sn__store_col_text(s, 1, x->kind, sizeof(x->kind));
        sn__store_col_text(s, 2, x->subject, sizeof(x->subject));
        sn__store_col_text(s, 3, x->label, sizeof(x->label));
        sum = sqlite3_column_text(s, 4);
        x->summary =
            sn_xstrdup_clean(sum ? (const char *)sum : "", SN_CLEAN_LINES);
    }
    rc = rc == SQLITE_DONE ? SN_OK
                           : STORE_FAIL(st, err, rc, "cannot read findings");
    sqlite3_finalize(s);
    if (rc) {
        sn_store_findings_release(*f, *n);
        *f = NULL;
        *n = 0;
    }
    return rc;
}

void sn_store_findings_release(struct sn_store_finding *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(f[i].summary);
    free(f);
}
