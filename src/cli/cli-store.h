/* cli-store.h: what `check`, `baseline` and `runs` share: where the results
 * database lives, run ids as people type them, measured values with their
 * units. */
#ifndef SN_CLI_STORE_H
#define SN_CLI_STORE_H

#include <stdint.h>

#include "sn/store.h"

/* What a command does with the results database. */
enum cli_db {
    CLI_DB_WRITE, /* stores: created when absent */
    CLI_DB_READ,  /* reads: never created; absent is an error */
    CLI_DB_LIST,  /* lists: never created; the default database not yet
                     there is an empty list (*st NULL) */
};

/* Open the results database: path when given (--db), else
 * $XDG_DATA_HOME/supernode/results.db, else
 * ~/.local/share/supernode/results.db (its directory created for a
 * writer). A reader opens it read-only where this process cannot write
 * it. Prints the error and returns an exit status; *st is NULL on
 * failure, and for CLI_DB_LIST when the default database is not there. */
int cli_store_open(const char *path, enum cli_db use, struct sn_store **st);
/* Parse a run id (a positive whole number) given to option opt; prints
 * and returns SN_EXIT_USAGE when it is not one. */
int cli_parse_run_id(const char *opt, const char *text, int64_t *id);

/* The watch events that held on the hosts of run r (its own, and those
 * of its node health h) while it ran, up to now when it has not
 * finished, appended to out as a section of text
 * (sn_render_run_events_text()); nothing when there are none. */
void cli_run_events(struct sn_store *st, const struct sn_run *r,
                    const struct sn_store_health *h, size_t nh,
                    struct sn_buf *out);

#endif
