/* health.c: the node-health checks stored with a run (what `supernode
 * doctor` found on each host while the run was measured): one row per
 * check, appended in one transaction, read back in the order added. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

static bool status_known(const char *s)
{
    static const char *const known[] = {"PASS", "SKIP", "WARN", "FAIL"};

    for (size_t i = 0; i < SN_ARRAY_LEN(known); i++)
        if (!strcmp(s, known[i]))
            return true;
    return false;
}

/* How many checks the run holds: the next sequence number. */
static int health_count(struct sn_store *st, int64_t run, int64_t *count,
                        struct sn_error *err)
{
    return sn__store_query_int64(
        st, "SELECT count(*) FROM health WHERE run_id = ?1", run, count,
        "cannot read the run's health checks", err);
}

int sn__store_health_valid(const struct sn_store_health *h, size_t n,
                           struct sn_error *err)
{
    for (size_t i = 0; i < n; i++)
        if (!status_known(h[i].status))
            return sn_error_set(err, SN_EINPUT,
                                "health check %zu (%s on %s) has status "
                                "'%s' (expected PASS, SKIP, WARN or FAIL)",
                                i, h[i].name, h[i].host, h[i].status);
    if (n > SN_STORE_MAX_HEALTH)
        return sn_error_set(err, SN_EINPUT,
                            "%zu health checks (at most %d in a run)", n,
                            SN_STORE_MAX_HEALTH);
    return SN_OK;
}

int sn__store_health_insert(struct sn_store *st, int64_t run,
                            const struct sn_store_health *h, size_t n,
                            int64_t seq, struct sn_error *err)
{
    static const char sql[] =
        "INSERT INTO health (run_id, seq, host, name, status, subject,"
        " evidence, remedy) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
    sqlite3_stmt *s = NULL;
    int rc = n ? sn__store_prepare(st, sql, &s, err) : SN_OK;

    for (size_t i = 0; !rc && i < n; i++) {
        const char *text[] = {h[i].host,    h[i].name,     h[i].status,
                              h[i].subject, h[i].evidence, h[i].remedy};
        rc = sn__store_insert_row(st, s, run, seq + (int64_t)i, text,
                                  SN_ARRAY_LEN(text),
                                  "cannot add a health check", err);
    }
    sqlite3_finalize(s);
    return rc;
}

int sn_store_health_put(struct sn_store *st, int64_t run,
                        const struct sn_store_health *h, size_t n,
                        struct sn_error *err)
{
    int64_t have = 0;
    int rc;

    /* checked before the transaction: nothing is written for bad input */
    rc = sn__store_health_valid(h, n, err);
    if (rc)
        return rc;
    rc = sn__store_begin_open(st, run, "health checks", err);
    if (!rc)
        rc = health_count(st, run, &have, err);
    if (!rc && (n > SN_STORE_MAX_HEALTH ||
                (uint64_t)have + n > SN_STORE_MAX_HEALTH))
        rc = sn_error_set(err, SN_EINPUT,
                          "run %" PRId64 " would hold %" PRId64 " + %zu "
                          "health checks (at most %d)",
                          run, have, n, SN_STORE_MAX_HEALTH);
    if (!rc)
        rc = sn__store_health_insert(st, run, h, n, have, err);
    return sn__store_end(st, rc, err);
}

static char *col_dup(sqlite3_stmt *s, int col)
{
    const unsigned char *t = sqlite3_column_text(s, col);

    return sn_xstrdup_clean(t ? (const char *)t : "", SN_CLEAN_LINES);
}

int sn_store_health_get(struct sn_store *st, int64_t run,
                        struct sn_store_health **h, size_t *n,
                        struct sn_error *err)
{
    static const char sql[] =
        "SELECT host, name, status, subject, evidence, remedy"
        " FROM health WHERE run_id = ?1 ORDER BY seq";
    sqlite3_stmt *s = NULL;
    bool complete, capped = false;
    size_t cap = 0;
    int rc;

    *h = NULL;
    *n = 0;
    rc = sn__store_run_exists(st, run, &complete, err);
    if (!rc)
        rc = sn__store_prepare(st, sql, &s, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(s, 1, run);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        struct sn_store_health *x;
        if (*n >= SN_STORE_MAX_HEALTH) {
            rc = sn_error_set(err, SN_EINPUT,
                              "%s: run %" PRId64 " holds more than %d "
                              "health checks",
                              st->path, run, SN_STORE_MAX_HEALTH);
            capped = true;
            break;
        }
        SN_GROW(*h, cap, *n + 1);
        x = &(*h)[(*n)++];
        sn__store_col_text(s, 0, x->host, sizeof(x->host));
        sn__store_col_text(s, 1, x->name, sizeof(x->name));
        sn__store_col_text(s, 2, x->status, sizeof(x->status));
        sn__store_col_text(s, 3, x->subject, sizeof(x->subject));
        x->evidence = col_dup(s, 4);
        x->remedy = col_dup(s, 5);
    }
    if (capped)
        rc = SN_EINPUT; /* err says which cap */
    else if (rc == SQLITE_DONE)
        rc = SN_OK;
    else
        rc = STORE_FAIL(st, err, rc, "cannot read the health checks");
    sqlite3_finalize(s);
    if (rc) {
        sn_store_health_release(*h, *n);
        *h = NULL;
        *n = 0;
    }
    return rc;
}

void sn_store_health_release(struct sn_store_health *h, size_t n)
{
    for (size_t i = 0; h && i < n; i++) {
        free(h[i].evidence);
        free(h[i].remedy);
    }
    free(h);
}
