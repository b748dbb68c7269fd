/* cli-store.c: the results database path, run ids and value formatting
 * shared by `check`, `baseline` and `runs`. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli-store.h"
#include "cmd.h"

/* mkdir -p for the directory part of path. */
static int make_parents(const char *path)
{
    char *dir = sn_xstrdup(path);
    int rc = 0;

    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0755) && errno != EEXIST) {
            fprintf(stderr, "supernode: %s: cannot create: %s\n", dir,
                    strerror(errno));
            rc = -1;
            break;
        }
        *p = '/';
    }
    free(dir);
    return rc;
}

int cli_store_open(const char *path, enum cli_db use, struct sn_store **st)
{
    struct sn_buf b;
    struct sn_error err;
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    struct stat sb;
    int rc;

    *st = NULL;
    sn_buf_init(&b);
    if (path) {
        sn_buf_puts(&b, path);
    } else {
        /* XDG base directory spec: $XDG_DATA_HOME, default
         * $HOME/.local/share; a relative value is ignored */
        if (xdg && xdg[0] == '/')
            sn_buf_printf(&b, "%s/supernode/results.db", xdg);
        else if (home && home[0])
            sn_buf_printf(&b, "%s/.local/share/supernode/results.db", home);
        else {
            sn_buf_release(&b);
            return cli_usage_error("no results database: set HOME or "
                                   "XDG_DATA_HOME, or give --db PATH");
        }
        /* the default place, before anything was stored there: a list is
         * empty, anything else is not there yet; nothing is created */
        if (use != CLI_DB_WRITE && stat(b.data, &sb) != 0 && errno == ENOENT) {
            rc = use == CLI_DB_LIST
                     ? SN_EXIT_OK
                     : cli_usage_error("%s: no results database yet "
                                       "(nothing stored: run 'supernode "
                                       "check' first)",
                                       b.data);
            sn_buf_release(&b);
            return rc;
        }
        if (use == CLI_DB_WRITE && make_parents(b.data)) {
            sn_buf_release(&b);
            return SN_EXIT_RUN;
        }
    }
    rc = sn_store_open_mode(
        b.data, use == CLI_DB_WRITE ? SN_STORE_WRITE : SN_STORE_READ, st, &err);
    sn_buf_release(&b);
    if (rc)
        return cli_fail(&err);
    return SN_EXIT_OK;
}

int cli_parse_run_id(const char *opt, const char *text, int64_t *id)
{
    long long v;

    if (cli_parse_long(opt, text, 1, INT64_MAX, &v))
        return SN_EXIT_USAGE;
    *id = (int64_t)v;
    return SN_EXIT_OK;
}

/* "2026-11-29T10:00:00Z" as Unix time; NaN when it is not one. */
static double utc_seconds(const char *text)
{
    struct tm tm;
    const char *end;

    memset(&tm, 0, sizeof(tm));
    end = text[0] ? strptime(text, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
    return end && !*end ? (double)timegm(&tm) : NAN;
}

/* Events of host that held between from and to, as lines of out. */
static size_t host_events(struct sn_store *st, const char *host, double from,
                          double to, struct sn_buf *out)
{
    struct sn_store_events_filter f = {.since = NAN, .host = host};
    struct sn_store_event *ev = NULL;
    struct sn_error err;
    size_t n = 0, shown = 0;

    if (sn_store_events_list(st, &f, &ev, &n, &err))
        return 0;
    for (size_t i = 0; i < n; i++) {
        const struct sn_store_event *e = &ev[i];
        if (e->started > to || (!isnan(e->resolved) && e->resolved < from))
            continue;
        if (!shown++ && out->len == 0)
            sn_buf_puts(out, "\nwatch events on its hosts while it ran:\n");
        /* the message names the subject */
        sn_buf_printf(out, "  %-8s %s  %s  %s (event %lld%s)\n", e->severity,
                      e->host, e->rule, e->message, (long long)e->id,
                      isnan(e->resolved) ? ", holding" : "");
    }
    sn_store_events_release(ev, n);
    return shown;
}

void cli_run_events(struct sn_store *st, const struct sn_run *r,
                    const struct sn_store_health *h, size_t nh,
                    struct sn_buf *out)
{
    double from = utc_seconds(r->started), to = utc_seconds(r->finished);
    struct sn_buf part = SN_BUF_INIT;

    if (isnan(from))
        return;
    if (isnan(to)) /* not finished: up to now */
        to = (double)time(NULL);
    if (r->host[0])
        host_events(st, r->host, from, to, &part);
    for (size_t i = 0; i < nh; i++) {
        bool seen = !strcmp(h[i].host, r->host);
        for (size_t k = 0; k < i && !seen; k++)
            seen = !strcmp(h[k].host, h[i].host);
        if (!seen && h[i].host[0])
            host_events(st, h[i].host, from, to, &part);
    }
    if (part.len)
        sn_buf_append(out, part.data, part.len);
    sn_buf_release(&part);
}
