/* events.c (render): the watch agent's stored events as `supernode
 * events` shows them: the list as a table or an SN_SCHEMA_EVENTS
 * document, one event with the state of the moment as text or an
 * SN_SCHEMA_EVENT document. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sn/render.h"
#include "sn/store.h"

/* Seconds since the epoch as ISO 8601 UTC; "-" for none. */
static const char *when(double t, char *buf, size_t size)
{
    struct tm tm;
    time_t s;

    if (!isfinite(t) || t < 0 || t > 253402300799.0) /* past 9999 */
        return "-";
    s = (time_t)t;
    gmtime_r(&s, &tm);
    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

/* A parsed node written back as JSON: what a database holds is written
 * anew rather than copied, so the output is JSON whatever the file was
 * made to hold (YAML's parser reads JSON; an unquoted scalar that is a
 * number, true, false or null keeps its type). */
static void json_node(struct sn_json *j, const struct sn_yaml *y)
{
    char *end;
    double v;

    if (y->type == SN_YAML_MAP) {
        sn_json_obj_begin(j);
        for (size_t i = 0; i < y->n; i++) {
            sn_json_key(j, y->keys[i]->value);
            json_node(j, y->items[i]);
        }
        sn_json_obj_end(j);
    } else if (y->type == SN_YAML_SEQ) {
        sn_json_arr_begin(j);
        for (size_t i = 0; i < y->n; i++)
            json_node(j, y->items[i]);
        sn_json_arr_end(j);
    } else if (!y->quoted && !strcmp(y->value, "null")) {
        sn_json_null(j);
    } else if (!y->quoted &&
               (!strcmp(y->value, "true") || !strcmp(y->value, "false"))) {
        sn_json_bool(j, y->value[0] == 't');
    } else if (!y->quoted && y->value[0] &&
               (v = strtod(y->value, &end), *end == '\0') && isfinite(v)) {
        sn_json_num(j, v);
    } else {
        sn_json_str(j, y->value);
    }
}

/* The state as JSON where it parses, else as a string. */
static void json_state(struct sn_json *j, const char *state)
{
    struct sn_yaml_doc doc;
    struct sn_error err;
    bool parsed = !sn_yaml_parse("state", state, strlen(state), &doc, &err);

    sn_json_key(j, "state");
    if (parsed && doc.root && doc.root->type == SN_YAML_MAP)
        json_node(j, doc.root);
    else
        sn_json_str(j, state);
    if (parsed)
        sn_yaml_doc_release(&doc);
}

static void event_json(struct sn_json *j, const struct sn_store_event *e,
                       bool state)
{
    char a[32], b[32];

    sn_json_obj_begin(j);
    sn_json_kint(j, "id", (long long)e->id);
    sn_json_kstr(j, "host", e->host);
    sn_json_kstr(j, "rule", e->rule);
    sn_json_kstr(j, "severity", e->severity);
    sn_json_kstr(j, "subject", e->subject);
    sn_json_kstr(j, "message", e->message);
    sn_json_knum(j, "value", e->value);
    sn_json_kstr(j, "started", when(e->started, a, sizeof(a)));
    if (isfinite(e->resolved))
        sn_json_kstr(j, "resolved", when(e->resolved, b, sizeof(b)));
    else {
        sn_json_key(j, "resolved");
        sn_json_null(j);
    }
    if (state)
        json_state(j, e->state);
    sn_json_obj_end(j);
}

static void list_table(const struct sn_store_event *ev, size_t n,
                       struct sn_buf *out)
{
    struct sn_table t;
    char a[32], b[32];

    sn_table_init(&t, "");
    sn_table_col(&t, "ID", true);
    sn_table_col(&t, "STARTED", false);
    sn_table_col(&t, "RESOLVED", false);
    sn_table_col(&t, "SEVERITY", false);
    sn_table_col(&t, "RULE", false);
    sn_table_col(&t, "SUBJECT", false);
    sn_table_col(&t, "HOST", false);
    for (size_t i = 0; i < n; i++) {
        sn_table_row(&t);
        sn_table_cell(&t, "%" PRId64, ev[i].id);
        sn_table_cell(&t, "%s", when(ev[i].started, a, sizeof(a)));
        sn_table_cell(&t, "%s",
                      isfinite(ev[i].resolved)
                          ? when(ev[i].resolved, b, sizeof(b))
                          : "holding");
        sn_table_cell(&t, "%s", ev[i].severity);
        sn_table_cell(&t, "%s", ev[i].rule);
        sn_table_cell(&t, "%s", ev[i].subject);
        sn_table_cell(&t, "%s", ev[i].host[0] ? ev[i].host : "-");
    }
    sn_table_render(&t, out);
    sn_table_release(&t);
}

void sn_render_events_json(const struct sn_store_event *ev, size_t n,
                           struct sn_buf *out)
{
    struct sn_json j;

    sn_json_init(&j, out, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_EVENTS);
    sn_json_key(&j, "events");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < n; i++)
        event_json(&j, &ev[i], false);
    sn_json_arr_end(&j);
    sn_json_obj_end(&j);
    sn_buf_putc(out, '\n');
}

void sn_render_events_text(const struct sn_store_event *ev, size_t n,
                           struct sn_buf *out)
{
    if (n == 0)
        sn_buf_puts(out, "no events (run 'supernode watch --db PATH' to "
                         "keep them)\n");
    else
        list_table(ev, n, out);
}

void sn_render_event_json(const struct sn_store_event *e, struct sn_buf *out)
{
    struct sn_json j;

    sn_json_init(&j, out, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_EVENT);
    sn_json_key(&j, "event");
    event_json(&j, e, true);
    sn_json_obj_end(&j);
    sn_buf_putc(out, '\n');
}

void sn_render_event_text(const struct sn_store_event *e, struct sn_buf *out)
{
    char a[32], b[32];

    sn_buf_printf(out, "event %" PRId64 ": %s on %s, %s, %s\n", e->id, e->rule,
                  e->subject, e->severity,
                  isfinite(e->resolved) ? "resolved" : "holding");
    sn_buf_printf(out, "  host      %s\n", e->host[0] ? e->host : "-");
    sn_buf_printf(out, "  started   %s\n", when(e->started, a, sizeof(a)));
    sn_buf_printf(out, "  resolved  %s\n", when(e->resolved, b, sizeof(b)));
    if (isfinite(e->value))
        sn_buf_printf(out, "  value     %s\n",
                      sn_fmt_double(e->value, 6, a, sizeof(a)));
    sn_buf_printf(out, "  message   %s\n", e->message);
    sn_buf_printf(out, "  state     %s\n", e->state);
}

/* ---- the events of a run's hosts (`check`, `runs show`, the report) --- */

/* "2026-11-29T10:00:00Z" as Unix time; NaN when it is not one. */
static double iso_time(const char *s)
{
    struct tm tm;
    int n = 0;

    memset(&tm, 0, sizeof(tm));
    if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &tm.tm_year, &tm.tm_mon,
               &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 ||
        s[n] != '\0')
        return NAN;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    return (double)timegm(&tm);
}

/* Append to w the events of host that held between from and to; a host
 * whose events cannot be read adds none. */
static void host_events(struct sn_store *st, const char *host, double from,
                        double to, struct sn_render_run_events *w)
{
    struct sn_store_events_filter f = {.since = NAN, .host = host};
    struct sn_store_event *ev = NULL;
    struct sn_error err;
    size_t n = 0;

    if (!host[0] || sn_store_events_list(st, &f, &ev, &n, &err))
        return;
    for (size_t i = 0; i < n; i++) {
        struct sn_store_event *e = &ev[i];
        if (e->started > to || (!isnan(e->resolved) && e->resolved < from))
            continue;
        SN_GROW(w->ev, w->cap, w->n + 1);
        w->ev[w->n++] = *e; /* its state moves with it */
        e->state = NULL;
    }
    sn_store_events_release(ev, n);
}

void sn_render_run_events(struct sn_store *st, const struct sn_run *r,
                          const struct sn_store_health *h, size_t nh,
                          double now, struct sn_render_run_events *w)
{
    double from = iso_time(r->started), to = iso_time(r->finished);

    memset(w, 0, sizeof(*w));
    if (isnan(from))
        return;
    if (isnan(to)) /* not finished: up to now */
        to = now;
    host_events(st, r->host, from, to, w);
    for (size_t i = 0; i < nh; i++) {
        bool seen = !strcmp(h[i].host, r->host);
        for (size_t k = 0; k < i && !seen; k++)
            seen = !strcmp(h[k].host, h[i].host);
        if (!seen)
            host_events(st, h[i].host, from, to, w);
    }
}

void sn_render_run_events_release(struct sn_render_run_events *w)
{
    sn_store_events_release(w->ev, w->n);
    memset(w, 0, sizeof(*w));
}

void sn_render_run_events_text(const struct sn_render_run_events *w,
                               struct sn_buf *out)
{
    if (!w->n)
        return;
    sn_buf_puts(out, "\nwatch events on its hosts while it ran:\n");
    for (size_t i = 0; i < w->n; i++) {
        const struct sn_store_event *e = &w->ev[i];
        /* the message names the subject */
        sn_buf_printf(out, "  %-8s %s  %s  %s (event %lld%s)\n", e->severity,
                      e->host, e->rule, e->message, (long long)e->id,
                      isnan(e->resolved) ? ", holding" : "");
    }
}
