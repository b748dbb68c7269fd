/* health.c: the node-health checks stored with a run (what `supernode
 * doctor` found on each host while the run was measured): one row per
 * check, appended in one transaction, read back in the order added; and
 * their wire form between the ranks of `check`. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/schema.h"
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
    if (!rc &&
        (n > SN_STORE_MAX_HEALTH || (uint64_t)have + n > SN_STORE_MAX_HEALTH))
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

void sn_store_health_add(struct sn_store_health **rows, size_t *n, size_t *cap,
                         const char *host, const char *name, const char *status,
                         const char *subject, const char *evidence,
                         const char *remedy)
{
    struct sn_store_health *r;

    SN_GROW(*rows, *cap, *n + 1);
    r = &(*rows)[(*n)++];
    memset(r, 0, sizeof(*r));
    sn_strlcpy(r->host, host, sizeof(r->host));
    sn_strlcpy(r->name, name, sizeof(r->name));
    sn_strlcpy(r->status, status, sizeof(r->status));
    sn_strlcpy(r->subject, subject ? subject : "", sizeof(r->subject));
    r->evidence = sn_xstrdup(evidence ? evidence : "");
    r->remedy = sn_xstrdup(remedy ? remedy : "");
}

/* ---- the wire form of one host's checks -----------------------------------
 */

/* NUL-terminated fields (no field holds a NUL): the tag, the host, then
 * five per check. */
#define HEALTH_FIELDS 5

static void pack_field(struct sn_buf *b, const char *s)
{
    if (!s)
        s = "";
    sn_buf_append(b, s, strlen(s) + 1);
}

static size_t pack_size(const struct sn_store_health *h)
{
    return strlen(h->name) + strlen(h->status) + strlen(h->subject) +
           strlen(h->evidence) + strlen(h->remedy) + HEALTH_FIELDS;
}

static void pack_check(struct sn_buf *b, const struct sn_store_health *h)
{
    pack_field(b, h->name);
    pack_field(b, h->status);
    pack_field(b, h->subject);
    pack_field(b, h->evidence);
    pack_field(b, h->remedy);
}

void sn_store_health_pack(const struct sn_store_health *rows, size_t n,
                          const char *host, size_t room, struct sn_buf *b)
{
    size_t used, k;
    char why[160];

    pack_field(b, SN_SCHEMA_HEALTH_PACK);
    pack_field(b, host);
    used = b->len;
    for (k = 0; k < n && used + pack_size(&rows[k]) <= room; k++) {
        used += pack_size(&rows[k]);
        pack_check(b, &rows[k]);
    }
    if (k < n) {
        struct sn_store_health *note = NULL;
        size_t nn = 0, cap = 0;
        snprintf(why, sizeof(why),
                 "%zu of %zu checks left out: more than %zu bytes", n - k, n,
                 room);
        /* a check of doctor's own, about the probes, not the node */
        sn_store_health_add(&note, &nn, &cap, host, "doctor", "WARN", NULL, why,
                            "run 'supernode doctor' on the host for all of "
                            "them");
        pack_check(b, note);
        sn_store_health_release(note, nn);
    }
}

int sn_store_health_unpack(const char *p, size_t len,
                           struct sn_store_health **rows, size_t *n,
                           size_t *cap, struct sn_error *err)
{
    const char *end = p + len, *f[HEALTH_FIELDS], *host;

    if (!len)
        return SN_OK;
    /* every field is terminated, so strlen() stays inside */
    if (end[-1] != '\0' || strcmp(p, SN_SCHEMA_HEALTH_PACK))
        goto bad;
    p += strlen(p) + 1;
    if (p >= end)
        goto bad;
    host = p;
    p += strlen(p) + 1;
    while (p < end) {
        for (int k = 0; k < HEALTH_FIELDS; k++) {
            if (p >= end)
                goto bad;
            f[k] = p;
            p += strlen(p) + 1;
        }
        sn_store_health_add(rows, n, cap, host, f[0], f[1], f[2], f[3], f[4]);
    }
    return SN_OK;
bad:
    return sn_error_set(err, SN_EINPUT,
                        "node-health checks that cannot be read");
}
