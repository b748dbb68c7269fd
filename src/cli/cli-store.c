/* cli-store.c: the results database path, run ids and value formatting
 * shared by `check`, `baseline` and `runs`. */
#include <errno.h>
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

void cli_run_events(struct sn_store *st, const struct sn_run *r,
                    const struct sn_store_health *h, size_t nh,
                    struct sn_buf *out)
{
    struct sn_render_run_events w;

    /* a run not finished: its events up to now */
    sn_render_run_events(st, r, h, nh, (double)time(NULL), &w);
    sn_render_run_events_text(&w, out);
    sn_render_run_events_release(&w);
}
