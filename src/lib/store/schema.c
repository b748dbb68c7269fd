/* schema.c: opening the results database: WAL, the application id that
 * marks it as ours, and the schema migrations that bring any older file
 * up to SN_STORE_SCHEMA_VERSION. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store-int.h"

/* 'SNOD': PRAGMA application_id marks the file as a supernode database so
 * that a stray SQLite file is refused rather than altered. */
#define SN_STORE_APP_ID 0x534e4f44

/* Migration i brings the schema from version i to i + 1. Released
 * migrations are never edited: a new version appends one. */
static const char *const migrations[] = {
    /* 1: runs, results with raw samples, findings, baselines */
    "CREATE TABLE runs ("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  started TEXT NOT NULL,"
    "  finished TEXT,"
    "  host TEXT NOT NULL DEFAULT '',"
    "  user TEXT NOT NULL DEFAULT '',"
    "  tool TEXT NOT NULL DEFAULT '',"
    "  versions TEXT NOT NULL DEFAULT '',"
    "  spec_name TEXT NOT NULL DEFAULT '',"
    "  spec_hash TEXT NOT NULL DEFAULT '',"
    "  suite TEXT NOT NULL DEFAULT '',"
    "  backend TEXT NOT NULL DEFAULT '',"
    "  ranks INTEGER NOT NULL DEFAULT 0,"
    "  complete INTEGER NOT NULL DEFAULT 0,"
    "  verdict TEXT NOT NULL DEFAULT '');"
    "CREATE TABLE results ("
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  seq INTEGER NOT NULL,"
    "  test TEXT NOT NULL,"
    "  params TEXT NOT NULL,"
    "  unit TEXT NOT NULL,"
    "  subject INTEGER NOT NULL,"
    "  lower_better INTEGER NOT NULL,"
    "  rank_a INTEGER NOT NULL,"
    "  rank_b INTEGER NOT NULL,"
    "  round INTEGER NOT NULL,"
    "  n INTEGER NOT NULL,"
    "  median REAL, mean REAL, min REAL, max REAL, mad REAL, stddev REAL,"
    "  samples BLOB,"
    "  PRIMARY KEY (run_id, seq)) WITHOUT ROWID;"
    "CREATE TABLE findings ("
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  seq INTEGER NOT NULL,"
    "  severity TEXT NOT NULL,"
    "  kind TEXT NOT NULL,"
    "  subject TEXT NOT NULL,"
    "  label TEXT NOT NULL,"
    "  summary TEXT NOT NULL,"
    "  PRIMARY KEY (run_id, seq)) WITHOUT ROWID;"
    "CREATE TABLE baselines ("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  name TEXT NOT NULL UNIQUE,"
    "  created TEXT NOT NULL,"
    "  runs TEXT NOT NULL,"
    "  spec_name TEXT NOT NULL DEFAULT '',"
    "  spec_hash TEXT NOT NULL DEFAULT '');"
    "CREATE TABLE baseline_entries ("
    "  baseline_id INTEGER NOT NULL REFERENCES baselines(id)"
    "    ON DELETE CASCADE,"
    "  test TEXT NOT NULL,"
    "  params TEXT NOT NULL,"
    "  unit TEXT NOT NULL,"
    "  subject INTEGER NOT NULL,"
    "  lower_better INTEGER NOT NULL,"
    "  rank_a INTEGER NOT NULL,"
    "  rank_b INTEGER NOT NULL,"
    "  center REAL NOT NULL,"
    "  noise REAL NOT NULL,"
    "  n INTEGER NOT NULL,"
    "  runs INTEGER NOT NULL,"
    "  PRIMARY KEY (baseline_id, test, params, subject, rank_a, rank_b))"
    "  WITHOUT ROWID;",
    /* 2: how far a run's median strays between the baseline's runs */
    "ALTER TABLE baseline_entries ADD COLUMN drift REAL NOT NULL DEFAULT 0;",
    /* 3: what `supernode doctor` found on each host of a run, one row per
     * check, searchable by check and status */
    "CREATE TABLE health ("
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  seq INTEGER NOT NULL,"
    "  host TEXT NOT NULL,"
    "  name TEXT NOT NULL,"
    "  status TEXT NOT NULL,"
    "  subject TEXT NOT NULL,"
    "  evidence TEXT NOT NULL,"
    "  remedy TEXT NOT NULL,"
    "  PRIMARY KEY (run_id, seq)) WITHOUT ROWID;"
    "CREATE INDEX health_by_check ON health (name, status);",
    /* 4: what `supernode watch` saw: events (a rule starting to hold on a
     * subject, with the state of the moment as JSON, and when it stopped)
     * and the rules' slow state (EWMA and CUSUM figures per series), so
     * that an agent restarted goes on where it stopped. Times are seconds
     * since the epoch on the agent's clock. */
    "CREATE TABLE events ("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  host TEXT NOT NULL,"
    "  rule TEXT NOT NULL,"
    "  severity TEXT NOT NULL,"
    "  subject TEXT NOT NULL,"
    "  message TEXT NOT NULL,"
    "  value REAL,"
    "  started REAL NOT NULL,"
    "  resolved REAL,"
    "  state TEXT NOT NULL DEFAULT '{}');"
    "CREATE INDEX events_by_time ON events (started);"
    "CREATE INDEX events_by_subject ON events (subject, started);"
    "CREATE TABLE watch_state ("
    "  host TEXT NOT NULL,"
    "  key TEXT NOT NULL,"
    "  \"values\" TEXT NOT NULL,"
    "  updated REAL NOT NULL,"
    "  PRIMARY KEY (host, key)) WITHOUT ROWID;",
};

/* Why a database this process must write cannot be written, into why
 * (size bytes): the file's or its directory's permissions, or a
 * read-only file system; false when it can be. SQLite says only
 * "attempt to write a readonly database" or "unable to open database
 * file" (it makes its journal beside the file), so a failed open for
 * writing asks here. */
static bool readonly_why(const char *path, char *why, size_t size)
{
    const char *slash = strrchr(path, '/');
    char *dir =
        slash ? sn_xstrndup(path, slash == path ? 1 : (size_t)(slash - path))
              : sn_xstrdup(".");
    struct stat sb;
    bool ro = true;

    if (access(path, W_OK) != 0 && errno != ENOENT) {
        if (errno == EROFS)
            snprintf(why, size, "it is on a read-only file system");
        else if (stat(path, &sb) == 0)
            snprintf(why, size,
                     "this user may not write the file (mode %03o, owner "
                     "uid %u)",
                     (unsigned)(sb.st_mode & 0777), (unsigned)sb.st_uid);
        else
            snprintf(why, size, "this user may not write the file: %s",
                     strerror(errno));
    } else if (access(dir, W_OK | X_OK) != 0) {
        if (errno == EROFS)
            snprintf(why, size, "it is on a read-only file system");
        else
            snprintf(why, size,
                     "this user may not write its directory '%s', where "
                     "SQLite keeps the database's journal",
                     dir);
    } else {
        ro = false;
    }
    free(dir);
    return ro;
}

int sn__store_fail(struct sn_store *st, struct sn_error *err, int rc,
                   const char *what, const char *file, int line)
{
    const char *base = strrchr(file, '/');
    const char *msg =
        st && st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc);
    int code;

    switch (rc & 0xff) {
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
    case SQLITE_FORMAT:
        code = SN_EINPUT;
        break;
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
    case SQLITE_PERM:
        code = SN_EIO;
        break;
    case SQLITE_NOMEM:
        code = SN_ENOMEM;
        break;
    default:
        code = SN_ERUNTIME;
        break;
    }
    /* SQLite's words for a file it may not write ("attempt to write a
     * readonly database", "unable to open database file") name neither
     * the file's permissions nor the directory's: said here */
    if ((code == SN_EIO && (rc & 0xff) != SQLITE_IOERR &&
         (rc & 0xff) != SQLITE_FULL) &&
        st && st->path) {
        char why[PATH_MAX + 128];
        if (readonly_why(st->path, why, sizeof(why)))
            return sn_error_set(err, code,
                                "%s: %s: read-only: %s; storing results "
                                "needs write access to the file and its "
                                "directory (%s:%d)",
                                st->path, what, why, base ? base + 1 : file,
                                line);
    }
    return sn_error_set(err, code, "%s: %s: %s (%s:%d)",
                        st && st->path ? st->path : "results database", what,
                        msg, base ? base + 1 : file, line);
}

int sn__store_exec(struct sn_store *st, const char *sql, const char *what,
                   struct sn_error *err)
{
    int rc = sqlite3_exec(st->db, sql, NULL, NULL, NULL);

    if (rc != SQLITE_OK)
        return STORE_FAIL(st, err, rc, what);
    return SN_OK;
}

int sn__store_prepare(struct sn_store *st, const char *sql, sqlite3_stmt **stmt,
                      struct sn_error *err)
{
    int rc = sqlite3_prepare_v2(st->db, sql, -1, stmt, NULL);

    if (rc != SQLITE_OK) {
        *stmt = NULL;
        return STORE_FAIL(st, err, rc, "cannot prepare a query");
    }
    return SN_OK;
}

/* The busy timeout of one attempt: SQLite's own handler sleeps and
 * tries again within it. */
#define STORE_BUSY_MS 10000

int sn__store_begin(struct sn_store *st, struct sn_error *err)
{
    double start = sn_now(), left;
    int pause = 250, rc, tries = 0;

    /* another process holding the write lock (an open sqlite3 session, a
     * VACUUM, a second check, a slow file system) is waited for: each
     * attempt within the busy timeout, then a pause that doubles up to
     * 4 s, bounded in all by st->wait */
    for (;;) {
        left = st->wait - (sn_now() - start);
        sqlite3_busy_timeout(st->db, left * 1000 >= STORE_BUSY_MS
                                         ? STORE_BUSY_MS
                                     : left > 0 ? (int)(left * 1000)
                                                : 0);
        rc = sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
        tries++;
        if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
            break;
        left = st->wait - (sn_now() - start);
        if (left <= 0)
            break;
        sqlite3_sleep(left * 1000 < pause ? (int)(left * 1000) + 1 : pause);
        pause = pause * 2 > 4000 ? 4000 : pause * 2;
    }
    sqlite3_busy_timeout(st->db, STORE_BUSY_MS);
    if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
        return sn_error_set(err, SN_EIO,
                            "%s: another process holds the write lock: "
                            "waited %.0f s, %d tries (SQLite: %s)",
                            st->path ? st->path : "results database",
                            sn_now() - start, tries, sqlite3_errstr(rc));
    if (rc != SQLITE_OK)
        return STORE_FAIL(st, err, rc, "cannot start a transaction");
    return SN_OK;
}

const char *sn_store_path(const struct sn_store *st)
{
    return st ? st->path : NULL;
}

void sn_store_set_wait(struct sn_store *st, double seconds)
{
    if (st)
        st->wait = seconds > 0 ? seconds : 0;
}

int sn__store_commit(struct sn_store *st, struct sn_error *err)
{
    return sn__store_exec(st, "COMMIT", "cannot commit", err);
}

void sn__store_rollback(struct sn_store *st)
{
    if (!sqlite3_get_autocommit(st->db))
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

int sn__store_end(struct sn_store *st, int rc, struct sn_error *err)
{
    if (!rc)
        rc = sn__store_commit(st, err);
    if (rc)
        sn__store_rollback(st);
    return rc;
}

int sn__store_query_int64(struct sn_store *st, const char *sql, int64_t run,
                          int64_t *out, const char *what, struct sn_error *err)
{
    sqlite3_stmt *s;
    int rc = sn__store_prepare(st, sql, &s, err);

    if (rc)
        return rc;
    sqlite3_bind_int64(s, 1, run);
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(s, 0);
        rc = SN_OK;
    } else {
        rc = STORE_FAIL(st, err, rc, what);
    }
    sqlite3_finalize(s);
    return rc;
}

int sn__store_insert_row(struct sn_store *st, sqlite3_stmt *s, int64_t run,
                         int64_t seq, const char *const *text, size_t ntext,
                         const char *what, struct sn_error *err)
{
    int rc;

    sqlite3_reset(s);
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, seq);
    for (size_t k = 0; k < ntext; k++)
        sqlite3_bind_text(s, 3 + (int)k, text[k] ? text[k] : "", -1,
                          SQLITE_STATIC);
    rc = sqlite3_step(s);
    return rc == SQLITE_DONE ? SN_OK : STORE_FAIL(st, err, rc, what);
}

void sn__store_col_text(sqlite3_stmt *s, int col, char *buf, size_t size)
{
    const unsigned char *t = sqlite3_column_text(s, col);

    /* what a database holds was written by anyone: cleaned as it is read
     * (files made before strings were cleaned at their edges, or changed
     * by hand) */
    sn_str_clean(buf, size, t ? (const char *)t : "", 0);
}

static int pragma_int(struct sn_store *st, const char *sql, int *out,
                      struct sn_error *err)
{
    sqlite3_stmt *s;
    int rc = sn__store_prepare(st, sql, &s, err);

    if (rc)
        return rc;
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int(s, 0);
        rc = SN_OK;
    } else {
        rc = STORE_FAIL(st, err, rc, "cannot read the schema version");
    }
    sqlite3_finalize(s);
    return rc;
}

/* Apply the migrations the file still needs, each with its version bump
 * in one transaction: a crash between two leaves a consistent file at the
 * last finished version. The version is read again inside each
 * transaction: two processes opening a new file at once (two checks
 * started together) would otherwise both apply the first migration, and
 * the second would fail on tables the first made. */
static int migrate(struct sn_store *st, int from, struct sn_error *err)
{
    char sql[96];
    int rc = SN_OK, v = 0;

    /* up to date: no write lock, so that readers never wait for one */
    if (from >= (int)SN_ARRAY_LEN(migrations))
        return SN_OK;
    for (;;) {
        rc = sn__store_begin(st, err);
        if (rc)
            return rc;
        rc = pragma_int(st, "PRAGMA user_version", &v, err);
        if (!rc && v >= (int)SN_ARRAY_LEN(migrations)) {
            rc = sn__store_commit(st, err);
            break;
        }
        /* the table is indexed by the file's number: one that changed
         * since it was checked must not pick a string outside it */
        if (!rc && v < 0)
            rc = sn_error_set(err, SN_EINPUT,
                              "%s: not a supernode results database "
                              "(schema version %d)",
                              st->path, v);
        if (!rc) {
            int sqlrc = sqlite3_exec(st->db, migrations[v], NULL, NULL, NULL);
            /* SQL that fails on the file's own tables: the file holds
             * part of a later schema (a migration applied by hand, or a
             * foreign change), not what its version says */
            if (sqlrc == SQLITE_ERROR)
                rc = sn_error_set(err, SN_EINPUT,
                                  "%s: the schema does not match its "
                                  "version %d (a half-applied or foreign "
                                  "change: %s); restore the file from a "
                                  "copy",
                                  st->path, v, sqlite3_errmsg(st->db));
            else if (sqlrc != SQLITE_OK)
                rc = STORE_FAIL(st, err, sqlrc, "cannot migrate the schema");
        }
        if (!rc) {
            snprintf(sql, sizeof(sql),
                     "PRAGMA application_id = %d; PRAGMA user_version = %d",
                     SN_STORE_APP_ID, v + 1);
            rc = sn__store_exec(st, sql, "cannot migrate the schema", err);
        }
        if (!rc)
            rc = sn__store_commit(st, err);
        if (rc)
            break;
    }
    if (rc)
        sn__store_rollback(st);
    return rc;
}

/* Put the file in WAL mode (it stays so). Switching a new file needs it
 * alone, and SQLite answers "locked" at once rather than waiting while
 * another process reads it (several checks opening a new file together):
 * wait and try again, as long as the busy timeout would, until one of
 * them has switched it. */
static int use_wal(struct sn_store *st, struct sn_error *err)
{
    sqlite3_stmt *s = NULL;
    char mode[16] = "";
    int rc = SQLITE_OK;

    for (int tries = 0; tries < 200; tries++) {
        rc = sqlite3_prepare_v2(st->db, "PRAGMA journal_mode = WAL", -1, &s,
                                NULL);
        if (rc == SQLITE_OK) {
            rc = sqlite3_step(s);
            if (rc == SQLITE_ROW) {
                sn__store_col_text(s, 0, mode, sizeof(mode));
                /* still another mode: someone held the file */
                rc = sn_strcaseeq(mode, "wal") ? SQLITE_OK : SQLITE_BUSY;
            }
        }
        sqlite3_finalize(s);
        s = NULL;
        if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
            break;
        sqlite3_sleep(50); /* 200 x 50 ms: the 10 s busy timeout */
    }
    if (rc == SQLITE_BUSY && mode[0])
        return sn_error_set(err, SN_EIO,
                            "%s: cannot switch to WAL mode (it stays in "
                            "'%s' mode; another process holds the file, or "
                            "the file system does not support WAL)",
                            st->path, mode);
    if (rc != SQLITE_OK)
        return STORE_FAIL(st, err, rc, "cannot configure the database");
    return SN_OK;
}

/* Is there any table in the file (a database that is not ours)? */
static int has_tables(struct sn_store *st, bool *out, struct sn_error *err)
{
    int n = 0;
    int rc = pragma_int(st, "SELECT count(*) FROM sqlite_schema", &n, err);

    *out = n > 0;
    return rc;
}

/* path as an SQLite URI ("file:" and the path, with the characters a URI
 * gives meaning to escaped), and the query. */
static char *uri_of(const char *path, const char *query)
{
    struct sn_buf b;

    sn_buf_init(&b);
    sn_buf_puts(&b, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (*p == '%' || *p == '?' || *p == '#' || *p <= 0x20 || *p >= 0x7f)
            sn_buf_printf(&b, "%%%02X", *p);
        else
            sn_buf_putc(&b, (char)*p);
    }
    sn_buf_printf(&b, "?%s", query);
    return sn_buf_detach(&b, NULL);
}

/* Can this process write path and the directory beside it (where SQLite
 * keeps the -wal and -shm files)? */
static bool writable(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir;
    bool ok;

    if (access(path, W_OK) != 0)
        return false;
    dir = slash ? sn_xstrndup(path, slash == path ? 1 : (size_t)(slash - path))
                : sn_xstrdup(".");
    ok = access(dir, W_OK | X_OK) == 0;
    free(dir);
    return ok;
}

/* Does a -wal file with committed pages sit beside path? */
static bool wal_has_pages(const char *path)
{
    struct sn_buf b;
    struct stat st;
    bool yes;

    sn_buf_init(&b);
    sn_buf_printf(&b, "%s-wal", path);
    yes = stat(b.data, &st) == 0 && st.st_size > 0;
    sn_buf_release(&b);
    return yes;
}

/* Check what path names before SQLite opens it, and how to open it:
 * *ro (read-only, for a reader that may not write there) and *uri (the
 * URI to open then, the caller's to free). */
static int open_plan(const char *path, enum sn_store_mode mode, bool *ro,
                     char **uri, struct sn_error *err)
{
    struct stat sb;
    bool exists;
    int e;

    /* "" is SQLite's private temporary database: nothing would be kept */
    if (!*path)
        return sn_error_set(err, SN_EINPUT, "an empty results database path");
    exists = stat(path, &sb) == 0;
    e = errno;
    if (!exists && (e == ENAMETOOLONG || e == ENOTDIR || e == ELOOP))
        /* a path that can name no file is bad input, not an I/O error */
        return sn_error_set(err, SN_EINPUT, "%s: cannot open: %s", path,
                            strerror(e));
    if (exists && !S_ISREG(sb.st_mode))
        /* a FIFO would block the open, a device is not a database */
        return sn_error_set(err, SN_EINPUT,
                            "%s: not a supernode results database (not a "
                            "regular file)",
                            path);
    if (mode != SN_STORE_READ)
        return SN_OK;
    /* a command that reads never creates a database (a mistyped
     * --db would leave an empty one behind) */
    if (!exists)
        return sn_error_set(err, e == ENOENT ? SN_ENOTFOUND : SN_EINPUT,
                            "%s: no results database there: %s", path,
                            strerror(e));
    /* what this process may not write is opened read-only; with no
     * writer's pages in a -wal beside it, as immutable, so that SQLite
     * creates no -wal and -shm (it could not remove them again, and in
     * a read-only directory could not create them at all) */
    if (!writable(path)) {
        *ro = true;
        *uri = uri_of(path,
                      wal_has_pages(path) ? "mode=ro" : "mode=ro&immutable=1");
    }
    return SN_OK;
}

/* The file's identity (application id, schema version, whether it has
 * tables) read in one snapshot: read one by one, a process creating the
 * file at the same moment could commit between them, and its half-seen
 * schema look like a foreign database. */
static int read_identity(struct sn_store *st, const char *path, int *app,
                         int *version, bool *tables, struct sn_error *err)
{
    int rc;

    rc = sn__store_exec(st, "BEGIN", "cannot start a transaction", err);
    if (!rc)
        rc = pragma_int(st, "PRAGMA application_id", app, err);
    if (!rc)
        rc = pragma_int(st, "PRAGMA user_version", version, err);
    if (!rc)
        rc = has_tables(st, tables, err);
    if (!rc)
        rc = sn__store_exec(st, "COMMIT", "cannot end a transaction", err);
    if (rc) {
        sn__store_rollback(st);
        if (err && err->code == SN_EINPUT)
            rc = sn_error_set(err, SN_EINPUT,
                              "%s: not a supernode results database", path);
    }
    return rc;
}

/* Refuse a file that is not ours or is newer than this build; a
 * read-only one must not need migrating. */
static int check_identity(const char *path, int app, int version, bool tables,
                          bool ro, struct sn_error *err)
{
    /* the application id first: a file that is not ours is refused
     * whatever its version says */
    if (app != 0 && app != SN_STORE_APP_ID)
        return sn_error_set(err, SN_EINPUT,
                            "%s: not a supernode results database "
                            "(application id %#x)",
                            path, (unsigned)app);
    if ((app == 0 && (tables || version != 0)) || version < 0)
        return sn_error_set(err, SN_EINPUT,
                            "%s: not a supernode results database%s", path,
                            version < 0 ? " (a negative schema version)" : "");
    if (version > SN_STORE_SCHEMA_VERSION)
        return sn_error_set(err, SN_EINPUT,
                            "%s: schema version %d is newer than this "
                            "supernode knows (%d); use a newer supernode",
                            path, version, SN_STORE_SCHEMA_VERSION);
    if (ro && version != SN_STORE_SCHEMA_VERSION)
        return sn_error_set(err, SN_EINPUT,
                            "%s: schema version %d needs migrating to %d, "
                            "which a read-only database cannot be (run a "
                            "command that writes to it with write access "
                            "once)",
                            path, version, SN_STORE_SCHEMA_VERSION);
    return SN_OK;
}

int sn_store_open_mode(const char *path, enum sn_store_mode mode,
                       struct sn_store **out, struct sn_error *err)
{
    struct sn_store *st = sn_xcalloc(1, sizeof(*st));
    int rc, sqlrc, app = 0, version = 0;
    int flags = SQLITE_OPEN_FULLMUTEX; /* serialized: a bench watchdog
                                        * thread may store partial results */
    bool tables = false, ro = false;
    char *uri = NULL;

    *out = NULL;
    st->path = sn_xstrdup(path);
    rc = open_plan(path, mode, &ro, &uri, err);
    if (rc)
        goto out;
    if (ro)
        flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
    else
        flags |= SQLITE_OPEN_READWRITE |
                 (mode == SN_STORE_WRITE ? SQLITE_OPEN_CREATE : 0);
    sqlrc = sqlite3_open_v2(uri ? uri : path, &st->db, flags, NULL);
    if (sqlrc != SQLITE_OK) {
        rc = sn_error_set(err, SN_EIO, "%s: cannot open: %s", path,
                          st->db ? sqlite3_errmsg(st->db)
                                 : sqlite3_errstr(sqlrc));
        goto out;
    }
    /* another writer (a second check) is waited for rather than failed:
     * SN_STORE_WAIT in all for a write (sn__store_begin), the busy
     * timeout for anything else */
    st->wait = SN_STORE_WAIT;
    sqlite3_busy_timeout(st->db, STORE_BUSY_MS);
    sqlite3_extended_result_codes(st->db, 0);
    rc = read_identity(st, path, &app, &version, &tables, err);
    if (!rc)
        rc = check_identity(path, app, version, tables, ro, err);
    if (rc || ro)
        goto out;
    /* WAL: readers never block the writer, and a killed writer leaves the
     * last committed state; synchronous NORMAL is safe against process
     * crashes in WAL mode (sqlite.org/wal.html) */
    rc = use_wal(st, err);
    if (!rc)
        rc = sn__store_exec(st,
                            "PRAGMA synchronous = NORMAL;"
                            "PRAGMA foreign_keys = ON;",
                            "cannot configure the database", err);
    if (rc)
        goto out;
    rc = migrate(st, version, err);
out:
    free(uri);
    /* an I/O failure of a database opened for writing that this process
     * may not write: said as such (SQLite's words name neither) */
    if (rc == SN_EIO && mode != SN_STORE_READ) {
        char why[PATH_MAX + 128];
        if (readonly_why(path, why, sizeof(why)))
            rc = sn_error_set(err, SN_EIO,
                              "%s: read-only: %s; storing results needs "
                              "write access to the file and its directory",
                              path, why);
    }
    if (rc) {
        sn_store_close(st);
        return rc;
    }
    *out = st;
    return SN_OK;
}

int sn_store_open(const char *path, struct sn_store **out, struct sn_error *err)
{
    return sn_store_open_mode(path, SN_STORE_WRITE, out, err);
}

void sn_store_close(struct sn_store *st)
{
    if (!st)
        return;
    if (st->db)
        sqlite3_close_v2(st->db);
    free(st->path);
    free(st);
}

int sn_store_schema_version(struct sn_store *st)
{
    int v = -1;

    if (pragma_int(st, "PRAGMA user_version", &v, NULL))
        return -1;
    return v;
}

char *sn_store_timestamp(char *buf, size_t size)
{
    time_t now = time(NULL);
    struct tm tm;

    gmtime_r(&now, &tm);
    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

const char *sn_store_sqlite_version(void)
{
    return sqlite3_libversion();
}
