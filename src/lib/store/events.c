/* events.c: what `supernode watch` keeps in the results database: the
 * events its rules raised (with the state of the moment and the time
 * they cleared) and the rules' slow state per series. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

static void bind_text(sqlite3_stmt *s, int col, const char *t)
{
    sqlite3_bind_text(s, col, t ? t : "", -1, SQLITE_STATIC);
}

static void bind_num(sqlite3_stmt *s, int col, double v)
{
    if (isfinite(v))
        sqlite3_bind_double(s, col, v);
    else
        sqlite3_bind_null(s, col);
}

int sn_store_event_add(struct sn_store *st, struct sn_store_event *ev,
                       struct sn_error *err)
{
    static const char sql[] =
        "INSERT INTO events (host, rule, severity, subject, message, value,"
        " started, resolved, state) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
        " ?9)";
    const char *state = ev->state && ev->state[0] ? ev->state : "{}";
    sqlite3_stmt *s = NULL;
    int rc;

    if (!isfinite(ev->started))
        return sn_error_set(err, SN_EINPUT,
                            "event %s on %s: a start time that is not a "
                            "number",
                            ev->rule, ev->subject);
    if (strlen(state) > SN_STORE_EVENT_STATE_MAX)
        return sn_error_set(err, SN_EINPUT,
                            "event %s on %s: its state is %zu bytes (at most "
                            "%d)",
                            ev->rule, ev->subject, strlen(state),
                            SN_STORE_EVENT_STATE_MAX);
    rc = sn__store_prepare(st, sql, &s, err);
    if (rc)
        return rc;
    bind_text(s, 1, ev->host);
    bind_text(s, 2, ev->rule);
    bind_text(s, 3, ev->severity);
    bind_text(s, 4, ev->subject);
    bind_text(s, 5, ev->message);
    bind_num(s, 6, ev->value);
    sqlite3_bind_double(s, 7, ev->started);
    bind_num(s, 8, ev->resolved);
    bind_text(s, 9, state);
    rc = sqlite3_step(s);
    if (rc == SQLITE_DONE) {
        ev->id = sqlite3_last_insert_rowid(st->db);
        rc = SN_OK;
    } else {
        rc = STORE_FAIL(st, err, rc, "cannot add an event");
    }
    sqlite3_finalize(s);
    return rc;
}

int sn_store_event_resolve(struct sn_store *st, int64_t id, double resolved,
                           struct sn_error *err)
{
    static const char sql[] = "UPDATE events SET resolved = ?2 WHERE id = ?1"
                              " AND resolved IS NULL";
    sqlite3_stmt *s = NULL;
    int64_t have = 0;
    int rc;

    rc = sn__store_query_int64(st, "SELECT count(*) FROM events WHERE id = ?1",
                               id, &have, "cannot read the events", err);
    if (rc)
        return rc;
    if (!have)
        return sn_error_set(err, SN_ENOTFOUND, "%s: no event %" PRId64,
                            st->path, id);
    rc = sn__store_prepare(st, sql, &s, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(s, 1, id);
    bind_num(s, 2, resolved);
    rc = sqlite3_step(s);
    rc = rc == SQLITE_DONE ? SN_OK
                           : STORE_FAIL(st, err, rc, "cannot resolve an event");
    sqlite3_finalize(s);
    return rc;
}

static double col_num(sqlite3_stmt *s, int col)
{
    return sqlite3_column_type(s, col) == SQLITE_NULL
               ? NAN
               : sqlite3_column_double(s, col);
}

/* The columns of EVENT_COLS into ev; the state is copied, capped and
 * cleaned of control characters (JSON escapes them: none is legal raw). */
#define EVENT_COLS                                                             \
    "id, host, rule, severity, subject, message, value, started, resolved,"    \
    " state"
static void event_read(sqlite3_stmt *s, struct sn_store_event *ev)
{
    const unsigned char *t = sqlite3_column_text(s, 9);
    size_t len = t ? strlen((const char *)t) : 0;

    memset(ev, 0, sizeof(*ev));
    ev->id = sqlite3_column_int64(s, 0);
    sn__store_col_text(s, 1, ev->host, sizeof(ev->host));
    sn__store_col_text(s, 2, ev->rule, sizeof(ev->rule));
    sn__store_col_text(s, 3, ev->severity, sizeof(ev->severity));
    sn__store_col_text(s, 4, ev->subject, sizeof(ev->subject));
    sn__store_col_text(s, 5, ev->message, sizeof(ev->message));
    ev->value = col_num(s, 6);
    ev->started = col_num(s, 7);
    ev->resolved = col_num(s, 8);
    if (len > SN_STORE_EVENT_STATE_MAX)
        len = SN_STORE_EVENT_STATE_MAX;
    ev->state = sn_xmalloc(len + 1);
    sn_str_clean(ev->state, len + 1, t ? (const char *)t : "", 0);
}

int sn_store_events_list(struct sn_store *st,
                         const struct sn_store_events_filter *f,
                         struct sn_store_event **ev, size_t *n,
                         struct sn_error *err)
{
    static const char sql[] = "SELECT " EVENT_COLS " FROM events"
                              " WHERE (?1 IS NULL OR started >= ?1)"
                              " AND (?2 = '' OR instr(subject, ?2) > 0)"
                              " AND (?3 = '' OR host = ?3)"
                              " AND (?4 = 0 OR resolved IS NULL)"
                              " ORDER BY started DESC, id DESC LIMIT ?5";
    size_t limit = f && f->limit && f->limit < SN_STORE_EVENTS_MAX
                       ? f->limit
                       : SN_STORE_EVENTS_MAX;
    sqlite3_stmt *s = NULL;
    size_t cap = 0;
    int rc;

    *ev = NULL;
    *n = 0;
    rc = sn__store_prepare(st, sql, &s, err);
    if (rc)
        return rc;
    bind_num(s, 1, f ? f->since : NAN);
    bind_text(s, 2, f ? f->subject : NULL);
    bind_text(s, 3, f ? f->host : NULL);
    sqlite3_bind_int(s, 4, f && f->open);
    sqlite3_bind_int64(s, 5, (sqlite3_int64)limit);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        SN_GROW(*ev, cap, *n + 1);
        event_read(s, &(*ev)[(*n)++]);
    }
    rc = rc == SQLITE_DONE ? SN_OK
                           : STORE_FAIL(st, err, rc, "cannot read the events");
    sqlite3_finalize(s);
    if (rc) {
        sn_store_events_release(*ev, *n);
        *ev = NULL;
        *n = 0;
    }
    return rc;
}

int sn_store_event_get(struct sn_store *st, int64_t id,
                       struct sn_store_event *ev, struct sn_error *err)
{
    static const char sql[] = "SELECT " EVENT_COLS " FROM events WHERE id = ?1";
    sqlite3_stmt *s = NULL;
    int rc;

    memset(ev, 0, sizeof(*ev));
    rc = sn__store_prepare(st, sql, &s, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(s, 1, id);
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        event_read(s, ev);
        rc = SN_OK;
    } else if (rc == SQLITE_DONE) {
        rc = sn_error_set(err, SN_ENOTFOUND, "%s: no event %" PRId64, st->path,
                          id);
    } else {
        rc = STORE_FAIL(st, err, rc, "cannot read an event");
    }
    sqlite3_finalize(s);
    return rc;
}

void sn_store_events_release(struct sn_store_event *ev, size_t n)
{
    for (size_t i = 0; ev && i < n; i++)
        free(ev[i].state);
    free(ev);
}

/* ---- slow state ---------------------------------------------------------
 * The values are kept as text, "%.17g" numbers separated by spaces: exact
 * (17 significant digits round-trip a double), readable with the sqlite3
 * shell, and the same on every machine. */

static void values_text(const struct sn_store_watch_state *s, struct sn_buf *b)
{
    sn_buf_reset(b);
    for (size_t k = 0; k < s->n && k < SN_STORE_WATCH_VALUES; k++)
        sn_buf_printf(b, "%s%.17g", k ? " " : "", s->values[k]);
    if (!b->data)
        sn_buf_puts(b, "");
}

int sn_store_watch_state_put(struct sn_store *st, const char *host,
                             const struct sn_store_watch_state *s, size_t n,
                             struct sn_error *err)
{
    static const char sql[] =
        "INSERT OR REPLACE INTO watch_state (host, key, \"values\", updated)"
        " VALUES (?1, ?2, ?3, ?4)";
    sqlite3_stmt *q = NULL;
    struct sn_buf b;
    int rc;

    if (n > SN_STORE_WATCH_KEYS_MAX)
        return sn_error_set(err, SN_EINPUT,
                            "%zu slow-state keys (at most %d a host)", n,
                            SN_STORE_WATCH_KEYS_MAX);
    sn_buf_init(&b);
    rc = sn__store_begin(st, err);
    if (!rc)
        rc = sn__store_prepare(st, sql, &q, err);
    for (size_t i = 0; !rc && i < n; i++) {
        values_text(&s[i], &b);
        sqlite3_reset(q);
        bind_text(q, 1, host);
        bind_text(q, 2, s[i].key);
        bind_text(q, 3, b.data);
        sqlite3_bind_double(q, 4, isfinite(s[i].updated) ? s[i].updated : 0);
        rc = sqlite3_step(q);
        rc = rc == SQLITE_DONE
                 ? SN_OK
                 : STORE_FAIL(st, err, rc, "cannot keep the watch state");
    }
    sqlite3_finalize(q);
    sn_buf_release(&b);
    return sn__store_end(st, rc, err);
}

/* Parse "%.17g" numbers separated by spaces into x; "nan" and "inf" as
 * strtod reads them. */
static int values_parse(const char *text, struct sn_store_watch_state *x)
{
    const char *p = text;

    x->n = 0;
    while (*p) {
        char *end;
        double v;
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        if (x->n >= SN_STORE_WATCH_VALUES)
            return -1;
        v = strtod(p, &end);
        if (end == p || (*end && *end != ' '))
            return -1;
        x->values[x->n++] = v;
        p = end;
    }
    return 0;
}

int sn_store_watch_state_get(struct sn_store *st, const char *host,
                             struct sn_store_watch_state **out, size_t *n,
                             struct sn_error *err)
{
    static const char sql[] = "SELECT key, \"values\", updated FROM"
                              " watch_state WHERE host = ?1 ORDER BY key";
    sqlite3_stmt *s = NULL;
    size_t cap = 0;
    int rc, bad = SN_OK;

    *out = NULL;
    *n = 0;
    rc = sn__store_prepare(st, sql, &s, err);
    if (rc)
        return rc;
    bind_text(s, 1, host);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(s, 1);
        struct sn_store_watch_state *x;
        if (*n >= SN_STORE_WATCH_KEYS_MAX) {
            bad = sn_error_set(err, SN_EINPUT,
                               "%s: more than %d slow-state keys for %s",
                               st->path, SN_STORE_WATCH_KEYS_MAX, host);
            break;
        }
        SN_GROW(*out, cap, *n + 1);
        x = &(*out)[(*n)++];
        memset(x, 0, sizeof(*x));
        sn__store_col_text(s, 0, x->key, sizeof(x->key));
        x->updated = col_num(s, 2);
        if (values_parse(t ? (const char *)t : "", x)) {
            bad = sn_error_set(err, SN_EINPUT,
                               "%s: the watch state of %s key '%s' cannot be "
                               "read (at most %d numbers)",
                               st->path, host, x->key, SN_STORE_WATCH_VALUES);
            break;
        }
    }
    if (bad)
        rc = bad;
    else if (rc == SQLITE_DONE)
        rc = SN_OK;
    else
        rc = STORE_FAIL(st, err, rc, "cannot read the watch state");
    sqlite3_finalize(s);
    if (rc) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return rc;
}
