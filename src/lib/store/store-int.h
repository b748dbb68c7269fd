/* store-int.h: what the files of the store module share: the handle and
 * the one layer that turns SQLite's codes into ours. */
#ifndef SN_STORE_INT_H
#define SN_STORE_INT_H

#if !defined(SN_MODULE_store) && !defined(SN_TESTS)
#error "private to src/lib/store (tests/layers/table)"
#endif

#include <sqlite3.h>

#include "sn/store.h"

struct sn_store {
    sqlite3 *db;
    char *path;
    double wait; /* seconds a write waits for another writer, in all */
};

/* Turn an SQLite failure into an sn_error naming the database, what was
 * being done and where in our code: "results.db: cannot add results:
 * database is locked (runs.c:120)". Returns our code. */
int sn__store_fail(struct sn_store *st, struct sn_error *err, int rc,
                   const char *what, const char *file, int line);
#define STORE_FAIL(st, err, rc, what)                                          \
    sn__store_fail((st), (err), (rc), (what), __FILE__, __LINE__)

/* Run SQL without results; our code on failure. */
int sn__store_exec(struct sn_store *st, const char *sql, const char *what,
                   struct sn_error *err);
/* Prepare one statement; our code on failure (*stmt NULL). */
int sn__store_prepare(struct sn_store *st, const char *sql, sqlite3_stmt **stmt,
                      struct sn_error *err);
/* BEGIN IMMEDIATE / COMMIT / ROLLBACK. */
int sn__store_begin(struct sn_store *st, struct sn_error *err);
int sn__store_commit(struct sn_store *st, struct sn_error *err);
void sn__store_rollback(struct sn_store *st);
/* End the transaction a write began: COMMIT when rc is SN_OK, else (or
 * when the commit fails) ROLLBACK; returns rc or the commit's code. */
int sn__store_end(struct sn_store *st, int rc, struct sn_error *err);
/* The integer of the one row of a query whose ?1 is the run; what
 * names it in the error. */
int sn__store_query_int64(struct sn_store *st, const char *sql, int64_t run,
                          int64_t *out, const char *what, struct sn_error *err);
/* Insert one row with the prepared INSERT s whose parameters are ?1 the
 * run, ?2 seq and ?3.. the ntext strings (NULL binds ""); what names
 * the row in the error. */
int sn__store_insert_row(struct sn_store *st, sqlite3_stmt *s, int64_t run,
                         int64_t seq, const char *const *text, size_t ntext,
                         const char *what, struct sn_error *err);

/* Does run exist (SN_ENOTFOUND when not), and is it complete? */
int sn__store_run_exists(struct sn_store *st, int64_t run, bool *complete,
                         struct sn_error *err);
/* Begin a write to a run that exists and is not complete; what names
 * what a complete run's are ("results"): "run N is complete; its
 * results are final" (SN_EINPUT). The caller ends it (sn__store_end). */
int sn__store_begin_open(struct sn_store *st, int64_t run, const char *what,
                         struct sn_error *err);

/* Health checks: every status one of PASS, SKIP, WARN, FAIL (SN_EINPUT
 * naming the first that is not); insert them as rows seq, seq + 1, ...
 * of run inside the caller's transaction. */
int sn__store_health_valid(const struct sn_store_health *h, size_t n,
                           struct sn_error *err);
int sn__store_health_insert(struct sn_store *st, int64_t run,
                            const struct sn_store_health *h, size_t n,
                            int64_t seq, struct sn_error *err);

/* Copy a text column into a fixed buffer ("" for NULL). */
void sn__store_col_text(sqlite3_stmt *s, int col, char *buf, size_t size);

/* r's params string as written (sn_result_params_write on a copy) into
 * buf; returns buf. */
const char *sn__store_result_params(const struct sn_result *r, char *buf,
                                    size_t size);

#endif
