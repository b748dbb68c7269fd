/* cmd-events.c: `supernode events list|show`: what `supernode watch`
 * stored: each rule that started to hold on a part, when it stopped, and
 * the state of the moment. */
#include <ctype.h>
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
            cli_unknown_option("events", argv[i], "events %s", argv[1]);
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
    if (o.format == SN_FORMAT_JSON)
        sn_render_events_json(ev, n, &out);
    else
        sn_render_events_text(ev, n, &out);
    cli_print(&out);
out:
    sn_store_events_release(ev, n);
    sn_buf_release(&out);
    sn_store_close(st);
    return rc;
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
    if (o.format == SN_FORMAT_JSON)
        sn_render_event_json(&ev, &out);
    else
        sn_render_event_text(&ev, &out);
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
