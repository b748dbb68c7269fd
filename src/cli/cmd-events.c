/* cmd-events.c: `supernode events list|show`: what `supernode watch`
 * stored: each rule that started to hold on a part, when it stopped, and
 * the state of the moment. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli-store.h"
#include "cmd.h"

extern const struct sn_cmd sn_cmd_events;

struct events_opts {
    const char *db;
    const char *id;
    const char *subject;
    double since;
    enum sn_format format;
    long long limit;
};

/* --since: an ISO 8601 UTC time ("2026-12-01T08:00:00Z", or a date), a
 * duration before now ("90m", "24h", "7d"), or seconds since the epoch. */
static int parse_since(const char *text, double *out)
{
    int y, mo, d, h = 0, mi = 0, s = 0, used = -1;
    struct tm tm;
    struct sn_error err;
    double v;
    size_t len = strlen(text);

    if (sscanf(text, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &y, &mo, &d, &h, &mi, &s,
               &used) != 6 ||
        used < 0 || text[used] != '\0') {
        used = -1;
        h = mi = s = 0;
        if (sscanf(text, "%4d-%2d-%2d%n", &y, &mo, &d, &used) != 3 ||
            used < 0 || text[used] != '\0')
            used = -1;
    }
    if (used > 0 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h >= 0 &&
        h < 24 && mi >= 0 && mi < 60 && s >= 0 && s < 61) {
        memset(&tm, 0, sizeof(tm));
        tm.tm_year = y - 1900;
        tm.tm_mon = mo - 1;
        tm.tm_mday = d;
        tm.tm_hour = h;
        tm.tm_min = mi;
        tm.tm_sec = s;
        *out = (double)timegm(&tm);
        return SN_EXIT_OK;
    }
    if (len > 1 && isalpha((unsigned char)text[len - 1]) &&
        !sn_unit_parse(text, SN_UNIT_TIME, false, &v, &err) && v >= 0) {
        *out = (double)time(NULL) - v;
        return SN_EXIT_OK;
    }
    if (!sn_parse_double(text, &v, &err) && v >= 0) {
        *out = v;
        return SN_EXIT_OK;
    }
    return cli_usage_error("--since '%s': expected a time such as "
                           "2026-12-01T08:00:00Z, a date, a duration before "
                           "now such as 24h or 7d, or seconds since the "
                           "epoch",
                           text);
}

static int parse_opts(int argc, char **argv, bool want_id,
                      struct events_opts *o)
{
    const char *v;
    int rc = SN_EXIT_OK;

    memset(o, 0, sizeof(*o));
    o->since = NAN;
    o->limit = 50;
    for (int i = 2; i < argc; i++) {
        if ((v = cli_opt_value(argc, argv, &i, "--db", NULL, &rc)))
            o->db = v;
        else if (!rc &&
                 (v = cli_opt_value(argc, argv, &i, "--subject", NULL, &rc)))
            o->subject = v;
        else if (!rc &&
                 (v = cli_opt_value(argc, argv, &i, "--since", NULL, &rc))) {
            if ((rc = parse_since(v, &o->since)))
                return rc;
        } else if (!rc &&
                   (v = cli_opt_value(argc, argv, &i, "--format", NULL, &rc))) {
            if (cli_parse_format(v, "table,json", &o->format))
                return SN_EXIT_USAGE;
        } else if (!rc &&
                   (v = cli_opt_value(argc, argv, &i, "--limit", NULL, &rc))) {
            if (cli_parse_long("--limit", v, 0, SN_STORE_EVENTS_MAX, &o->limit))
                return SN_EXIT_USAGE;
        } else if (rc) {
            return rc;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_usage_error("events %s: unknown option '%s'", argv[1], argv[i]);
            return cli_usage_hint(&sn_cmd_events);
        } else if (want_id && !o->id) {
            o->id = argv[i];
        } else {
            cli_usage_error("events %s: unexpected argument '%s'", argv[1],
                            argv[i]);
            return cli_usage_hint(&sn_cmd_events);
        }
    }
    if (want_id && !o->id) {
        cli_usage_error("events %s needs an event ID", argv[1]);
        return cli_usage_hint(&sn_cmd_events);
    }
    return SN_EXIT_OK;
}

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

static int events_list(int argc, char **argv)
{
    struct events_opts o;
    struct sn_store *st = NULL;
    struct sn_store_event *ev = NULL;
    struct sn_store_events_filter f;
    size_t n = 0;
    struct sn_error err;
    struct sn_buf out;
    int rc;

    rc = parse_opts(argc, argv, false, &o);
    if (rc)
        return rc;
    rc = cli_store_open(o.db, CLI_DB_LIST, &st);
    if (rc)
        return rc;
    f = (struct sn_store_events_filter){
        .since = o.since, .subject = o.subject, .limit = (size_t)o.limit};
    sn_buf_init(&out);
    if (st && sn_store_events_list(st, &f, &ev, &n, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    if (o.format == SN_FORMAT_JSON) {
        struct sn_json j;
        sn_json_init(&j, &out, true);
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "schema", SN_SCHEMA_EVENTS);
        sn_json_key(&j, "events");
        sn_json_arr_begin(&j);
        for (size_t i = 0; i < n; i++)
            event_json(&j, &ev[i], false);
        sn_json_arr_end(&j);
        sn_json_obj_end(&j);
        sn_buf_putc(&out, '\n');
    } else if (n == 0) {
        sn_buf_puts(&out, "no events (run 'supernode watch --db PATH' to "
                          "keep them)\n");
    } else {
        list_table(ev, n, &out);
    }
    cli_print(&out);
out:
    sn_store_events_release(ev, n);
    sn_buf_release(&out);
    sn_store_close(st);
    return rc;
}

static void show_text(const struct sn_store_event *e, struct sn_buf *out)
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

static int events_show(int argc, char **argv)
{
    struct events_opts o;
    struct sn_store *st = NULL;
    struct sn_store_event ev = {0};
    struct sn_error err;
    struct sn_buf out;
    int64_t id;
    int rc;

    rc = parse_opts(argc, argv, true, &o);
    if (rc)
        return rc;
    rc = cli_parse_run_id("events show", o.id, &id);
    if (rc)
        return rc;
    rc = cli_store_open(o.db, CLI_DB_READ, &st);
    if (rc)
        return rc;
    sn_buf_init(&out);
    if (sn_store_event_get(st, id, &ev, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    if (o.format == SN_FORMAT_JSON) {
        struct sn_json j;
        sn_json_init(&j, &out, true);
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "schema", SN_SCHEMA_EVENT);
        sn_json_key(&j, "event");
        event_json(&j, &ev, true);
        sn_json_obj_end(&j);
        sn_buf_putc(&out, '\n');
    } else {
        show_text(&ev, &out);
    }
    cli_print(&out);
out:
    free(ev.state);
    sn_buf_release(&out);
    sn_store_close(st);
    return rc;
}

static int events_run(int argc, char **argv)
{
    static const struct cli_sub subs[] = {{"list", events_list},
                                          {"show", events_show}};

    return cli_subcommand(&sn_cmd_events, subs, SN_ARRAY_LEN(subs), argc, argv);
}

const struct sn_cmd sn_cmd_events = {
    "events",
    "list|show ID [--db PATH] [--since T] [--subject S] [--format "
    "table|json] [--limit N]",
    "list the events `supernode watch` stored, show one with its state",
    "  events list          the newest events first (--limit N, default 50;\n"
    "                       0 for all): when each rule started to hold on\n"
    "                       which part, and when it stopped\n"
    "  events show ID       one event with the state of the moment (clocks,\n"
    "                       temperatures, power, the flow of its loop)\n"
    "  --since T            from T on: 2026-12-01T08:00:00Z, a date, a\n"
    "                       duration before now (24h, 7d) or epoch seconds\n"
    "  --subject S          subjects containing S (\"gpu 0000:17\", "
    "\"branch\")\n"
    "  --db PATH            the results database (default\n"
    "                       $XDG_DATA_HOME/supernode/results.db)\n",
    events_run,
};
