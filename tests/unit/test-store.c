/* test-store.c: the results store: schema and migrations, WAL, runs,
 * results with raw samples, findings, baselines with their noise, and a
 * writer killed with SIGKILL in the middle of a transaction. */
/* covers: store */
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "health-fixtures.h"
#include "sn/store.h"
#include "store-fixtures.h"

/* Runs sql on the file at path behind the store's back, with SQLite
 * itself; SQLite's code (SQLITE_OK when it ran). */
static int behind(const char *path, const char *sql)
{
    sqlite3 *db;
    int rc = sqlite3_open(path, &db);

    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    return rc;
}

/* A pair bandwidth result with samples base, base+1, ... */
static struct sn_result pair_result(uint32_t a, uint32_t b, double *buf,
                                    size_t n, double base)
{
    struct sn_result r;

    memset(&r, 0, sizeof(r));
    snprintf(r.test, sizeof(r.test), "p2p.bw");
    snprintf(r.params, sizeof(r.params), "bytes=4194304");
    snprintf(r.unit, sizeof(r.unit), "B/s");
    r.subject = SN_SUBJECT_PAIR;
    r.a = a;
    r.b = b;
    r.round = 0;
    for (size_t i = 0; i < n; i++)
        buf[i] = base + (double)i;
    r.samples = buf;
    r.nsamples = n;
    sn_stats_compute(buf, n, &r.stats);
    return r;
}

static struct sn_run test_run(const char *hash)
{
    struct sn_run run;

    memset(&run, 0, sizeof(run));
    snprintf(run.host, sizeof(run.host), "node0");
    snprintf(run.user, sizeof(run.user), "ops");
    snprintf(run.tool, sizeof(run.tool), "supernode 0.1.0");
    snprintf(run.spec_name, sizeof(run.spec_name), "cpu-cluster");
    snprintf(run.spec_hash, sizeof(run.spec_hash), "%s", hash);
    snprintf(run.suite, sizeof(run.suite), "quick");
    snprintf(run.backend, sizeof(run.backend), "cpu");
    run.ranks = 4;
    return run;
}

/* Store one complete run of `pairs` pair results, 5 samples each, the
 * samples of result k starting at base + 10 k. */
static int64_t put_run(struct sn_store *st, const char *hash, size_t pairs,
                       double base)
{
    struct sn_results rs;
    struct sn_run run = test_run(hash);
    struct sn_error err;
    double buf[5];
    int rc;

    sn_results_init(&rs);
    for (size_t k = 0; k < pairs; k++) {
        struct sn_result r =
            pair_result(0, (uint32_t)k + 1, buf, 5, base + 10.0 * (double)k);
        sn_results_add(&rs, &r);
    }
    run.complete = true;
    snprintf(run.verdict, sizeof(run.verdict), "PASS");
    rc = sn_store_run_put(st, &run, rs.items, rs.n, NULL, 0, NULL, 0, &err);
    sn_results_release(&rs);
    if (rc)
        printf("  put_run: %s\n", err.msg);
    return rc ? -1 : run.id;
}

static void test_stats_median_mad_closed_form(void)
{
    double x[] = {5, 1, 4, 2, 3, 100};
    struct sn_stats st;

    sn_stats_compute(x, 6, &st);
    /* sorted 1 2 3 4 5 100: median 3.5; deviations 2.5 1.5 .5 .5 1.5
     * 96.5: MAD 1.5; the outlier moves neither */
    CHECK_NEAR(st.median, 3.5, 1e-12);
    CHECK_NEAR(st.mad, 1.5, 1e-12);
    CHECK_NEAR(st.mean, 115.0 / 6.0, 1e-12);
    CHECK(st.min == 1 && st.max == 100 && st.n == 6);
    CHECK(x[0] == 5); /* the input is not reordered */
    /* type 7: p90 at h = 4.5, between 5 and 100; the 95% interval of
     * the median of six is [x(1), x(6)] */
    CHECK_NEAR(st.p90, 52.5, 1e-12);
    CHECK(st.ci_lo == 1 && st.ci_hi == 100);
    sn_stats_compute(x, 0, &st);
    CHECK(st.n == 0 && st.median == 0 && st.p90 == 0 && isnan(st.ci_lo));
}

static void test_result_params_derived_on_write_and_read_back(void)
{
    struct sn_result r, back;
    struct sn_results rs;

    /* a host transfer from NUMA node 0, pageable: 0 is a value */
    memset(&r, 0, sizeof(r));
    r.bytes = 4096;
    r.numa = 0;
    r.pinned = 0;
    r.has = SN_PARAM_NUMA | SN_PARAM_PINNED;
    sn_results_init(&rs);
    sn_results_add(&rs, &r);
    CHECK_STR(rs.items[0].params, "bytes=4096,numa=0,pinned=0");
    /* a GEMM and a collective: keys in order, read back typed */
    memset(&r, 0, sizeof(r));
    r.bytes = 1048576;
    snprintf(r.dtype, sizeof(r.dtype), "bf16");
    snprintf(r.redop, sizeof(r.redop), "sum");
    r.gemm_m = 8;
    r.gemm_n = 16;
    r.gemm_k = 32;
    r.inplace = 1;
    r.root = 3;
    r.has = SN_PARAM_INPLACE | SN_PARAM_ROOT;
    sn_result_params_write(&r);
    CHECK_STR(r.params,
              "bytes=1048576,dtype=bf16,inplace=1,k=32,m=8,n=16,redop=sum,"
              "root=3");
    memset(&back, 0, sizeof(back));
    memcpy(back.params, r.params, sizeof(back.params));
    sn_result_params_read(&back);
    CHECK(back.bytes == 1048576 && !strcmp(back.dtype, "bf16") &&
          !strcmp(back.redop, "sum"));
    CHECK(back.gemm_m == 8 && back.gemm_n == 16 && back.gemm_k == 32);
    CHECK(back.has == (SN_PARAM_INPLACE | SN_PARAM_ROOT) && back.inplace == 1 &&
          back.root == 3);
    /* nothing applies: no parameters at all */
    memset(&r, 0, sizeof(r));
    sn_results_add(&rs, &r);
    CHECK_STR(rs.items[1].params, "");
    /* a string its producer wrote is kept as it is */
    snprintf(r.params, sizeof(r.params), "bytes=8,x=y");
    sn_results_add(&rs, &r);
    CHECK_STR(rs.items[2].params, "bytes=8,x=y");
    sn_results_release(&rs);
}

static void test_store_keeps_typed_parameters_of_repeated_rows(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_results rs, back;
    struct sn_run run = test_run("00000000000000bb");
    struct sn_error err;
    double buf[5];
    struct sn_result r = pair_result(0, 1, buf, 5, 1.0);

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    sn_results_init(&rs);
    r.params[0] = '\0';
    r.bytes = 8;
    r.gemm_k = 4;
    r.root = 0;
    r.has = SN_PARAM_ROOT;
    sn_results_add(&rs, &r);
    r.b = 2; /* a second row with the same parameters */
    sn_results_add(&rs, &r);
    run.complete = true;
    REQUIRE(sn_store_run_put(st, &run, rs.items, rs.n, NULL, 0, NULL, 0,
                             &err) == SN_OK);
    sn_results_init(&back);
    REQUIRE(sn_store_results_get(st, run.id, &back, &err) == SN_OK);
    REQUIRE(back.n == 2);
    for (size_t i = 0; i < 2; i++) {
        CHECK_STR(back.items[i].params, "bytes=8,k=4,root=0");
        CHECK(back.items[i].bytes == 8 && back.items[i].gemm_k == 4);
        CHECK(back.items[i].has == SN_PARAM_ROOT && back.items[i].root == 0);
    }
    sn_results_release(&back);
    sn_results_release(&rs);
    sn_store_close(st);
    fx_store_release(NULL, path, dir);
}

static void test_store_creates_schema_at_current_version_in_wal(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    char wal[600];

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    CHECK(sn_store_schema_version(st) == SN_STORE_SCHEMA_VERSION);
    CHECK(put_run(st, "00000000000000aa", 1, 1.0) > 0);
    snprintf(wal, sizeof(wal), "%s-wal", path);
    CHECK(access(wal, F_OK) == 0);
    sn_store_close(st);
    /* reopening migrates nothing and keeps the data */
    REQUIRE(sn_store_open(path, &st, &err) == SN_OK);
    CHECK(sn_store_schema_version(st) == SN_STORE_SCHEMA_VERSION);
    fx_store_release(st, path, dir);
}

static void test_store_refuses_foreign_and_newer_files(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    FILE *f;

    REQUIRE(fx_store_fresh(&dir, &path, NULL));
    /* someone else's SQLite database is left alone */
    REQUIRE(behind(path, "CREATE TABLE t (x)") == SQLITE_OK);
    CHECK(sn_store_open(path, &st, &err) == SN_EINPUT);
    CHECK(st == NULL);
    CHECK_CONTAINS(err.msg, "not a supernode results database");
    unlink(path);
    /* a text file is not a database */
    f = fopen(path, "w");
    REQUIRE(f);
    fputs("these are not the pages you are looking for\n", f);
    for (int i = 0; i < 100; i++)
        fputs("0123456789abcdef0123456789abcdef0123456789abcdef\n", f);
    fclose(f);
    CHECK(sn_store_open(path, &st, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "not a supernode results database");
    unlink(path);
    /* a schema from the future is refused, not downgraded */
    REQUIRE(sn_store_open(path, &st, &err) == SN_OK);
    sn_store_close(st);
    REQUIRE(behind(path, "PRAGMA user_version = 99") == SQLITE_OK);
    CHECK(sn_store_open(path, &st, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "schema version 99 is newer");
    fx_store_release(NULL, path, dir);
}

static void test_store_migrates_an_empty_marked_file(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;

    REQUIRE(fx_store_fresh(&dir, &path, NULL));
    /* version 0 with our application id: an interrupted first migration;
     * opening finishes it */
    REQUIRE(behind(path, "PRAGMA application_id = 1397641028") == SQLITE_OK);
    REQUIRE(sn_store_open(path, &st, &err) == SN_OK);
    CHECK(sn_store_schema_version(st) == SN_STORE_SCHEMA_VERSION);
    fx_store_release(st, path, dir);
}

static void test_store_refuses_negative_and_unknown_versions(void)
{
    static const char *const versions[] = {"-1",       "-3", "-120",
                                           "-1000000", "5",  "2147483647"};
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    char sql[64];

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    REQUIRE(put_run(st, "00000000000000aa", 1, 1.0) > 0);
    sn_store_close(st);
    for (size_t i = 0; i < SN_ARRAY_LEN(versions); i++) {
        snprintf(sql, sizeof(sql), "PRAGMA user_version = %s", versions[i]);
        behind(path, sql);
        st = NULL;
        /* refused before any migration runs: a version indexes the
         * table of migrations */
        CHECK(sn_store_open(path, &st, &err) == SN_EINPUT);
        CHECK(st == NULL);
        if (versions[i][0] == '-')
            CHECK_CONTAINS(err.msg, "not a supernode results database");
        else
            CHECK_CONTAINS(err.msg, "is newer than this supernode knows");
        CHECK(sn_store_open_mode(path, SN_STORE_READ, &st, &err) == SN_EINPUT);
    }
    /* the application id first: another application's file is refused
     * whatever its version */
    behind(path, "PRAGMA application_id = 7; PRAGMA user_version = -1");
    CHECK(sn_store_open(path, &st, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "application id 0x7");
    fx_store_release(NULL, path, dir);
}

static void test_store_half_applied_schema_is_bad_input(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    sn_store_close(st);
    /* version 1 says: no drift column, no health table; both are there */
    behind(path, "PRAGMA user_version = 1");
    CHECK(sn_store_open(path, &st, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "does not match its version 1");
    CHECK(st == NULL);
    /* nothing was changed: the version is still 1 */
    behind(path, "PRAGMA user_version = 4");
    REQUIRE(sn_store_open(path, &st, &err) == SN_OK);
    CHECK(sn_store_schema_version(st) == SN_STORE_SCHEMA_VERSION);
    fx_store_release(st, path, dir);
}

static void test_store_read_mode_never_creates(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_run *runs = NULL;
    size_t n = 9;
    char side[600];

    REQUIRE(fx_store_fresh(&dir, &path, NULL));
    CHECK(sn_store_open_mode(path, SN_STORE_READ, &st, &err) == SN_ENOTFOUND);
    CHECK_CONTAINS(err.msg, "no results database there");
    CHECK(access(path, F_OK) != 0);
    CHECK(sn_store_open_mode("", SN_STORE_WRITE, &st, &err) == SN_EINPUT);
    /* a file there is read, and closing leaves no -wal or -shm */
    REQUIRE(sn_store_open(path, &st, &err) == SN_OK);
    REQUIRE(put_run(st, "00000000000000aa", 1, 1.0) > 0);
    sn_store_close(st);
    REQUIRE(sn_store_open_mode(path, SN_STORE_READ, &st, &err) == SN_OK);
    CHECK(sn_store_runs_list(st, 0, &runs, &n, &err) == SN_OK && n == 1);
    free(runs);
    sn_store_close(st);
    snprintf(side, sizeof(side), "%s-wal", path);
    CHECK(access(side, F_OK) != 0);
    snprintf(side, sizeof(side), "%s-shm", path);
    CHECK(access(side, F_OK) != 0);
    /* a directory is not a database */
    CHECK(sn_store_open_mode(dir, SN_STORE_READ, &st, &err) == SN_EINPUT);
    fx_store_release(NULL, path, dir);
}

static void test_store_migrates_version_1_keeping_its_data(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_baseline b;
    int64_t id;

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    id = put_run(st, "0123456789abcdef", 3, 10.0);
    REQUIRE(sn_store_baseline_save(st, "old", &id, 1, false, &err) == SN_OK);
    sn_store_close(st);
    /* take the file back to version 1: no drift column, no health */
    REQUIRE(behind(path, "ALTER TABLE baseline_entries DROP COLUMN drift;"
                         "DROP INDEX health_by_check; DROP TABLE health;"
                         "DROP TABLE events; DROP TABLE watch_state;"
                         "PRAGMA user_version = 1") == SQLITE_OK);
    REQUIRE(sn_store_open(path, &st, &err) == SN_OK);
    CHECK(sn_store_schema_version(st) == SN_STORE_SCHEMA_VERSION);
    REQUIRE(sn_store_baseline_get(st, "old", &b, &err) == SN_OK);
    CHECK(b.n == 3 && b.entries[0].drift == 0.0);
    CHECK_NEAR(b.entries[0].center, 12.0, 1e-12);
    sn_baseline_release(&b);
    fx_store_release(st, path, dir);
}

/* Does the file at path have a schema object of this type and name? Read
 * with SQLite itself, not through the store. */
static bool schema_has(const char *path, const char *type, const char *name)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    bool found = false;

    if (sqlite3_open(path, &db) == SQLITE_OK &&
        sqlite3_prepare_v2(db,
                           "SELECT count(*) FROM sqlite_schema"
                           " WHERE type = ?1 AND name = ?2",
                           -1, &s, NULL) == SQLITE_OK) {
        sqlite3_bind_text(s, 1, type, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 2, name, -1, SQLITE_STATIC);
        found = sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int(s, 0) > 0;
    }
    sqlite3_finalize(s);
    sqlite3_close(db);
    return found;
}

static void test_store_migrates_version_2_adding_health(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_store_health h, *got = NULL;
    struct sn_run run = test_run("0123456789abcdef");
    size_t n = 9;
    int64_t old;

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    old = put_run(st, "0123456789abcdef", 2, 10.0);
    REQUIRE(old > 0);
    sn_store_close(st);
    /* take the file back to version 2, as the last release left it: no
     * health table */
    REQUIRE(behind(path, "DROP INDEX health_by_check; DROP TABLE health;"
                         "DROP TABLE events; DROP TABLE watch_state;"
                         "PRAGMA user_version = 2") == SQLITE_OK);
    REQUIRE(!schema_has(path, "table", "health"));
    REQUIRE(sn_store_open(path, &st, &err) == SN_OK);
    CHECK(sn_store_schema_version(st) == SN_STORE_SCHEMA_VERSION);
    CHECK(schema_has(path, "table", "health"));
    CHECK(schema_has(path, "index", "health_by_check"));
    /* the old run is there, with no health checks; a new one takes some */
    REQUIRE(sn_store_health_get(st, old, &got, &n, &err) == SN_OK);
    CHECK(n == 0 && got == NULL);
    REQUIRE(sn_store_run_begin(st, &run, &err) == SN_OK);
    h = fx_store_health("node0", "cpu.governor", "WARN", "", "powersave", NULL);
    CHECK(sn_store_health_put(st, run.id, &h, 1, &err) == SN_OK);
    REQUIRE(sn_store_health_get(st, run.id, &got, &n, &err) == SN_OK);
    CHECK(n == 1);
    sn_store_health_release(got, n);
    fx_store_release(st, path, dir);
}

static void test_store_health_round_trips_in_order_as_columns(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_run run = test_run("0123456789abcdef");
    struct sn_store_health h[3], *got = NULL;
    size_t n = 0;
    sqlite3 *db;
    sqlite3_stmt *s = NULL;

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    REQUIRE(sn_store_run_begin(st, &run, &err) == SN_OK);
    h[0] = fx_store_health("node0", "pcie.link", "FAIL",
                           "0000:17:00.0 gpu 10de:2330",
                           "8.0 GT/s x8 of 32.0 GT/s x16", "reseat the card");
    h[1] = fx_store_health("node0", "cpu.governor", "PASS", "", "performance",
                           NULL);
    h[2] = fx_store_health("node1", "pcie.link", "PASS",
                           "0000:17:00.0 gpu 10de:2330",
                           "32.0 GT/s x16 of 32.0 GT/s x16", "");
    REQUIRE(sn_store_health_put(st, run.id, h, 2, &err) == SN_OK);
    /* a second batch (another host) goes after the first */
    REQUIRE(sn_store_health_put(st, run.id, &h[2], 1, &err) == SN_OK);
    REQUIRE(sn_store_health_get(st, run.id, &got, &n, &err) == SN_OK);
    REQUIRE(n == 3);
    CHECK_STR(got[0].host, "node0");
    CHECK_STR(got[0].name, "pcie.link");
    CHECK_STR(got[0].status, "FAIL");
    CHECK_STR(got[0].subject, "0000:17:00.0 gpu 10de:2330");
    CHECK_STR(got[0].evidence, "8.0 GT/s x8 of 32.0 GT/s x16");
    CHECK_STR(got[0].remedy, "reseat the card");
    CHECK_STR(got[1].remedy, ""); /* NULL stored as "" */
    CHECK_STR(got[1].subject, "");
    CHECK_STR(got[2].host, "node1");
    sn_store_health_release(got, n);
    sn_store_close(st);
    /* the fields are columns: a query finds the failed links directly */
    REQUIRE(sqlite3_open(path, &db) == SQLITE_OK);
    REQUIRE(sqlite3_prepare_v2(db,
                               "SELECT host, subject FROM health WHERE"
                               " name = 'pcie.link' AND status = 'FAIL'",
                               -1, &s, NULL) == SQLITE_OK);
    REQUIRE(sqlite3_step(s) == SQLITE_ROW);
    CHECK_STR((const char *)sqlite3_column_text(s, 0), "node0");
    CHECK(sqlite3_step(s) == SQLITE_DONE);
    sqlite3_finalize(s);
    sqlite3_close(db);
    fx_store_release(NULL, path, dir);
}

static void test_store_health_put_refuses_bad_input_whole(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_run run = test_run("0123456789abcdef");
    struct sn_store_health h[2], *got = NULL;
    size_t n = 7;
    int64_t done;

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    REQUIRE(sn_store_run_begin(st, &run, &err) == SN_OK);
    h[0] = fx_store_health("node0", "nvml.ecc", "PASS", "gpu0", "0", "");
    h[1] = fx_store_health("node0", "nvml.xid", "pass", "gpu0", "none", "");
    /* a status in the wrong words: refused, and the good check with it */
    CHECK(sn_store_health_put(st, run.id, h, 2, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "status 'pass'");
    REQUIRE(sn_store_health_get(st, run.id, &got, &n, &err) == SN_OK);
    CHECK(n == 0);
    sn_store_health_release(got, n);
    /* no such run */
    CHECK(sn_store_health_put(st, run.id + 100, h, 1, &err) == SN_ENOTFOUND);
    CHECK(sn_store_health_get(st, run.id + 100, &got, &n, &err) ==
          SN_ENOTFOUND);
    CHECK(got == NULL && n == 0);
    /* a complete run's record is final */
    done = put_run(st, "0123456789abcdef", 1, 1.0);
    REQUIRE(done > 0);
    CHECK(sn_store_health_put(st, done, h, 1, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "complete");
    fx_store_release(st, path, dir);
}

static void test_store_run_put_keeps_health_or_nothing(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_run run = test_run("0123456789abcdef");
    struct sn_run *runs = NULL;
    struct sn_store_health h[2], *got = NULL;
    size_t n = 0;

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    h[0] = fx_store_health("node0", "pcie.aer", "WARN", "0000:17:00.0",
                           "3 correctable", "watch it");
    h[1] = fx_store_health("node1", "kernel.log", "SKIP", "", "needs root", "");
    run.complete = true;
    /* an import carries its checks: stored whole with the complete run */
    REQUIRE(sn_store_run_put(st, &run, NULL, 0, NULL, 0, h, 2, &err) == SN_OK);
    REQUIRE(sn_store_health_get(st, run.id, &got, &n, &err) == SN_OK);
    REQUIRE(n == 2);
    CHECK_STR(got[0].evidence, "3 correctable");
    CHECK_STR(got[1].host, "node1");
    sn_store_health_release(got, n);
    /* a bad status: no run at all */
    snprintf(h[1].status, sizeof(h[1].status), "OK");
    run.id = 0;
    CHECK(sn_store_run_put(st, &run, NULL, 0, NULL, 0, h, 2, &err) ==
          SN_EINPUT);
    CHECK(run.id == 0);
    REQUIRE(sn_store_runs_list(st, 0, &runs, &n, &err) == SN_OK);
    CHECK(n == 1);
    free(runs);
    fx_store_release(st, path, dir);
}

static void test_store_round_trips_results_with_samples(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_run run = test_run("0123456789abcdef"), got;
    struct sn_results rs;
    struct sn_result r[2];
    double s0[3] = {1.0 / 3.0, 2.5e10, -0.0}, s1[1] = {4e-6};
    char subj[64];

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    memset(r, 0, sizeof(r));
    r[0] = pair_result(2, 3, s0, 0, 0);
    r[0].samples = s0;
    r[0].nsamples = 3;
    r[0].round = 7;
    r[1].subject = SN_SUBJECT_DEVICE;
    snprintf(r[1].test, sizeof(r[1].test), "latency");
    snprintf(r[1].unit, sizeof(r[1].unit), "s");
    r[1].lower_better = true;
    r[1].a = 5;
    r[1].b = SN_STORE_NO_RANK;
    r[1].round = SN_STORE_NO_RANK;
    r[1].samples = s1;
    r[1].nsamples = 1;
    REQUIRE(sn_store_run_begin(st, &run, &err) == SN_OK);
    CHECK(run.id > 0);
    REQUIRE(sn_store_add_results(st, run.id, r, 2, &err) == SN_OK);
    REQUIRE(sn_store_results_get(st, run.id, &rs, &err) == SN_OK);
    REQUIRE(rs.n == 2);
    /* samples come back bit for bit, summaries computed on the way in */
    CHECK(rs.items[0].nsamples == 3);
    CHECK(memcmp(rs.items[0].samples, s0, sizeof(s0)) == 0);
    CHECK(rs.items[0].stats.n == 3);
    CHECK_NEAR(rs.items[0].stats.median, 1.0 / 3.0, 1e-15);
    CHECK(rs.items[0].round == 7 && rs.items[0].a == 2 && rs.items[0].b == 3);
    CHECK_STR(rs.items[0].params, "bytes=4194304");
    CHECK_STR(sn_result_subject(&rs.items[0], subj, sizeof(subj)),
              "rank2~rank3");
    CHECK(rs.items[1].lower_better && rs.items[1].b == SN_STORE_NO_RANK);
    CHECK(rs.items[1].round == SN_STORE_NO_RANK);
    CHECK(rs.items[1].samples[0] == 4e-6);
    CHECK_STR(sn_result_subject(&rs.items[1], subj, sizeof(subj)), "rank5");
    sn_results_release(&rs);
    REQUIRE(sn_store_run_get(st, run.id, &got, &err) == SN_OK);
    CHECK_STR(got.spec_hash, "0123456789abcdef");
    CHECK_STR(got.host, "node0");
    CHECK(got.ranks == 4 && got.nresults == 2);
    CHECK(sn_store_run_get(st, run.id + 1, &got, &err) == SN_ENOTFOUND);
    fx_store_release(st, path, dir);
}

static void test_store_run_is_incomplete_until_finished(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_run run = test_run("0123456789abcdef"), got;
    struct sn_store_finding f[2];
    struct sn_store_finding *ff = NULL;
    size_t nf = 0;
    double buf[5];
    struct sn_result r = pair_result(0, 1, buf, 5, 100);
    int64_t latest = 0;

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    REQUIRE(sn_store_run_begin(st, &run, &err) == SN_OK);
    REQUIRE(sn_store_add_results(st, run.id, &r, 1, &err) == SN_OK);
    REQUIRE(sn_store_run_get(st, run.id, &got, &err) == SN_OK);
    CHECK(!got.complete && got.finished[0] == '\0');
    /* an unfinished run is no baseline and not the latest complete one */
    CHECK(sn_store_run_latest(st, &latest, &err) == SN_ENOTFOUND);
    CHECK(sn_store_baseline_save(st, "b", &run.id, 1, false, &err) ==
          SN_EINPUT);
    CHECK_CONTAINS(err.msg, "not complete");
    memset(f, 0, sizeof(f));
    snprintf(f[0].severity, sizeof(f[0].severity), "FAIL");
    snprintf(f[0].kind, sizeof(f[0].kind), "link");
    snprintf(f[0].label, sizeof(f[0].label), "net.leaf0.p1~net.leaf1.p0");
    f[0].summary = "slow";
    snprintf(f[1].severity, sizeof(f[1].severity), "WARN");
    REQUIRE(sn_store_run_finish(st, run.id, "FAIL", f, 2, &err) == SN_OK);
    REQUIRE(sn_store_run_get(st, run.id, &got, &err) == SN_OK);
    CHECK(got.complete && got.finished[0] != '\0');
    CHECK_STR(got.verdict, "FAIL");
    CHECK(got.nfindings == 2);
    CHECK(sn_store_run_latest(st, &latest, &err) == SN_OK);
    CHECK(latest == run.id);
    REQUIRE(sn_store_findings_get(st, run.id, &ff, &nf, &err) == SN_OK);
    REQUIRE(nf == 2);
    CHECK_STR(ff[0].label, "net.leaf0.p1~net.leaf1.p0");
    CHECK_STR(ff[0].summary, "slow");
    CHECK_STR(ff[1].severity, "WARN");
    CHECK_STR(ff[1].summary, "");
    sn_store_findings_release(ff, nf);
    /* a finished run's results are final */
    CHECK(sn_store_add_results(st, run.id, &r, 1, &err) == SN_EINPUT);
    CHECK(sn_store_run_finish(st, run.id, "PASS", NULL, 0, &err) == SN_EINPUT);
    fx_store_release(st, path, dir);
}

/* Another process holding the write lock is waited for, with pauses,
 * for the wait the store was given and no longer; then SN_EIO saying so,
 * and a write after the lock is gone succeeds. */
static void test_store_write_waits_for_a_held_lock_then_fails(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_run run = test_run("0123456789abcdef");
    sqlite3 *other = NULL;
    double t0;

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    REQUIRE(sqlite3_open(path, &other) == SQLITE_OK);
    REQUIRE(sqlite3_exec(other, "BEGIN IMMEDIATE; CREATE TABLE hold (x)", NULL,
                         NULL, NULL) == SQLITE_OK);
    sn_store_set_wait(st, 1.2);
    t0 = sn_now();
    CHECK(sn_store_run_begin(st, &run, &err) == SN_EIO);
    CHECK(sn_now() - t0 >= 1.2 && sn_now() - t0 < 5);
    CHECK_CONTAINS(err.msg, "another process holds the write lock");
    CHECK(run.id == 0);
    sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(other);
    CHECK(sn_store_run_begin(st, &run, &err) == SN_OK);
    CHECK(run.id > 0);
    fx_store_release(st, path, dir);
}

static void test_store_add_results_is_all_or_nothing(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_run run = test_run("0123456789abcdef");
    struct sn_results rs;
    double buf[5];
    struct sn_result r[3];

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    REQUIRE(sn_store_run_begin(st, &run, &err) == SN_OK);
    r[0] = pair_result(0, 1, buf, 5, 100);
    r[1] = r[0];
    r[2] = r[0];
    /* the third claims more samples than a result may hold */
    r[2].nsamples = (size_t)SN_STORE_MAX_SAMPLES + 1;
    CHECK(sn_store_add_results(st, run.id, r, 3, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "samples");
    REQUIRE(sn_store_results_get(st, run.id, &rs, &err) == SN_OK);
    CHECK(rs.n == 0);
    sn_results_release(&rs);
    /* and a good batch afterwards lands whole */
    CHECK(sn_store_add_results(st, run.id, r, 2, &err) == SN_OK);
    REQUIRE(sn_store_results_get(st, run.id, &rs, &err) == SN_OK);
    CHECK(rs.n == 2);
    sn_results_release(&rs);
    fx_store_release(st, path, dir);
}

static void test_store_lists_runs_newest_first(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_run *runs = NULL;
    size_t n = 0;
    int64_t ids[3];

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    for (int i = 0; i < 3; i++)
        ids[i] = put_run(st, "0123456789abcdef", (size_t)i + 1, 1.0);
    REQUIRE(sn_store_runs_list(st, 0, &runs, &n, &err) == SN_OK);
    REQUIRE(n == 3);
    CHECK(runs[0].id == ids[2] && runs[2].id == ids[0]);
    CHECK(runs[0].nresults == 3 && runs[2].nresults == 1);
    free(runs);
    REQUIRE(sn_store_runs_list(st, 2, &runs, &n, &err) == SN_OK);
    CHECK(n == 2);
    free(runs);
    fx_store_release(st, path, dir);
}

static void test_store_baseline_pools_runs_with_their_noise(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_baseline b;
    struct sn_baseline *list = NULL;
    size_t nl = 0;
    int64_t ids[2];
    double buf[5];
    struct sn_result probe;
    const struct sn_baseline_entry *e;

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    /* pair k of run 1: samples 100+10k .. 104+10k; run 2 the same +2 */
    ids[0] = put_run(st, "0123456789abcdef", 2, 100.0);
    ids[1] = put_run(st, "0123456789abcdef", 2, 102.0);
    REQUIRE(sn_store_baseline_save(st, "accept", ids, 2, false, &err) == SN_OK);
    REQUIRE(sn_store_baseline_get(st, "accept", &b, &err) == SN_OK);
    CHECK(b.n == 2);
    CHECK_STR(b.runs, "1,2");
    CHECK_STR(b.spec_hash, "0123456789abcdef");
    probe = pair_result(0, 2, buf, 5, 0);
    e = sn_baseline_find(&b, &probe);
    REQUIRE(e);
    /* pooled: 110..114 and 112..116 = 110 111 112 112 113 113 114 114 115
     * 116: median 113; |dev| 3 2 1 1 0 0 1 1 2 3: MAD 1 */
    CHECK_NEAR(e->center, 113.0, 1e-12);
    CHECK_NEAR(e->noise, SN_STATS_MAD_TO_SIGMA * 1.0, 1e-12);
    CHECK(e->n == 10 && e->runs == 2);
    /* drift: per-run medians 102 and 104 (the other pair 112 and 114)
     * stray +/-1 from their mean; pooled |dev| 1/103 twice and 1/113
     * twice: MAD (1/103 + 1/113) / 2, times sqrt(2 / 1) for two runs */
    CHECK_NEAR(e->drift,
               SN_STATS_MAD_TO_SIGMA * 0.5 * (1.0 / 103 + 1.0 / 113) *
                   sqrt(2.0),
               1e-9);
    probe.b = 9;
    CHECK(sn_baseline_find(&b, &probe) == NULL);
    sn_baseline_release(&b);
    /* the name is taken until replaced */
    CHECK(sn_store_baseline_save(st, "accept", ids, 1, false, &err) ==
          SN_EINPUT);
    CHECK_CONTAINS(err.msg, "exists");
    CHECK(sn_store_baseline_save(st, "accept", ids, 1, true, &err) == SN_OK);
    REQUIRE(sn_store_baseline_get(st, "accept", &b, &err) == SN_OK);
    CHECK_STR(b.runs, "1");
    sn_baseline_release(&b);
    REQUIRE(sn_store_baselines_list(st, &list, &nl, &err) == SN_OK);
    CHECK(nl == 1 && list[0].n == 2);
    free(list);
    fx_store_release(st, path, dir);
}

static void test_store_baseline_refuses_bad_input(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_baseline b;
    int64_t ids[3];

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    ids[0] = put_run(st, "0123456789abcdef", 1, 1.0);
    ids[1] = put_run(st, "fedcba9876543210", 1, 1.0);
    ids[2] = 999;
    CHECK(sn_store_baseline_save(st, "x", ids, 2, false, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "different specs");
    CHECK(sn_store_baseline_save(st, "x", &ids[2], 1, false, &err) ==
          SN_ENOTFOUND);
    CHECK(sn_store_baseline_save(st, "a b", ids, 1, false, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "has ' '");
    CHECK(sn_store_baseline_save(st, "", ids, 1, false, &err) == SN_EINPUT);
    ids[1] = ids[0];
    CHECK(sn_store_baseline_save(st, "x", ids, 2, false, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "twice");
    REQUIRE(sn_store_baseline_save(st, "acceptance", ids, 1, false, &err) ==
            SN_OK);
    CHECK(sn_store_baseline_get(st, "acceptence", &b, &err) == SN_ENOTFOUND);
    CHECK_CONTAINS(err.msg, "did you mean 'acceptance'?");
    fx_store_release(st, path, dir);
}

/* ---- several processes opening a new file at once ----------------------- */

#define OPENERS 8

static void test_store_new_file_opened_by_many_processes_at_once(void)
{
    char *dir, *path;
    pid_t pids[OPENERS];
    int go[2], ok = 0;
    struct sn_store *st = NULL;
    struct sn_error err;

    REQUIRE(fx_store_fresh(&dir, &path, NULL));
    REQUIRE(pipe(go) == 0);
    fflush(stdout);
    /* every child waits on the pipe, then all open the same new file and
     * store a run: each must find the schema made exactly once */
    for (int i = 0; i < OPENERS; i++) {
        pids[i] = fork();
        REQUIRE(pids[i] >= 0);
        if (pids[i] == 0) {
            char c;
            int64_t id;
            close(go[1]);
            if (read(go[0], &c, 1) != 0)
                _exit(3);
            if (sn_store_open(path, &st, &err)) {
                fprintf(stderr, "  opener %d: %s\n", i, err.msg);
                _exit(1);
            }
            id = put_run(st, "0123456789abcdef", 3, 100.0 * i);
            sn_store_close(st);
            _exit(id > 0 ? 0 : 2);
        }
    }
    close(go[0]);
    close(go[1]); /* end of file: every child goes at once */
    for (int i = 0; i < OPENERS; i++) {
        int status = 0;
        waitpid(pids[i], &status, 0);
        ok += WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    CHECK(ok == OPENERS);
    REQUIRE(sn_store_open(path, &st, &err) == SN_OK);
    CHECK(sn_store_schema_version(st) == SN_STORE_SCHEMA_VERSION);
    {
        struct sn_run *runs = NULL;
        size_t n = 0;
        REQUIRE(sn_store_runs_list(st, 0, &runs, &n, &err) == SN_OK);
        CHECK(n == OPENERS);
        free(runs);
    }
    fx_store_release(st, path, dir);
}

/* ---- SIGKILL in the middle of a transaction ---------------------------- */

/* Results the killed writer tries to store: many, with 16 samples each,
 * far more than SQLite's page cache holds, so pages spill into the WAL
 * while the transaction is still open. */
#define KILL_RESULTS 400000

static void child_writes_big_run(const char *path, int fd)
{
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_run run = test_run("0123456789abcdef");
    struct sn_result *r = sn_xcalloc(KILL_RESULTS, sizeof(*r));
    double samples[16];

    for (int i = 0; i < 16; i++)
        samples[i] = 1e9 + i;
    for (size_t i = 0; i < KILL_RESULTS; i++) {
        r[i] = pair_result((uint32_t)(i % 1000), (uint32_t)(i / 1000), samples,
                           16, 1e9);
    }
    if (sn_store_open(path, &st, &err) || sn_store_run_begin(st, &run, &err))
        _exit(2);
    if (write(fd, "B", 1) != 1)
        _exit(2);
    sn_store_add_results(st, run.id, r, KILL_RESULTS, &err);
    /* reaching here means the parent was too late */
    if (write(fd, "D", 1) != 1)
        _exit(2);
    _exit(0);
}

static long file_size(const char *path)
{
    struct stat sb;

    return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

static void test_store_survives_sigkill_mid_transaction(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_run *runs = NULL;
    size_t n = 0;
    int64_t ids[3];
    int fds[2], status = 0;
    char c = 0, wal[600];
    pid_t pid;
    sqlite3 *db;
    sqlite3_stmt *s;
    double t0;
    long wal_before, wal_size = 0;
    bool done = false;

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    for (int i = 0; i < 3; i++)
        ids[i] = put_run(st, "0123456789abcdef", 50, 1000.0 * (i + 1));
    sn_store_close(st);
    snprintf(wal, sizeof(wal), "%s-wal", path);
    wal_before = file_size(wal);
    REQUIRE(pipe(fds) == 0);
    fflush(stdout);
    pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        child_writes_big_run(path, fds[1]);
    }
    close(fds[1]);
    /* wait for the child to start its big transaction, then for the WAL
     * to grow by 8 MiB (pages spilled from the open transaction), then
     * kill it before it can commit */
    REQUIRE(read(fds[0], &c, 1) == 1 && c == 'B');
    t0 = sn_now();
    while (sn_now() - t0 < 60) {
        wal_size = file_size(wal);
        if (wal_size > wal_before + (8L << 20))
            break;
        usleep(2000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    /* the child must not have committed */
    if (read(fds[0], &c, 1) == 1 && c == 'D')
        done = true;
    close(fds[0]);
    CHECK(!done);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    CHECK(wal_size > wal_before + (8L << 20));
    /* integrity_check is ok */
    REQUIRE(sqlite3_open(path, &db) == SQLITE_OK);
    REQUIRE(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, NULL) ==
            SQLITE_OK);
    REQUIRE(sqlite3_step(s) == SQLITE_ROW);
    CHECK_STR((const char *)sqlite3_column_text(s, 0), "ok");
    sqlite3_finalize(s);
    sqlite3_close(db);
    /* the earlier runs are intact, sample for sample; the killed run is
     * there, incomplete, without a single result */
    REQUIRE(sn_store_open(path, &st, &err) == SN_OK);
    REQUIRE(sn_store_runs_list(st, 0, &runs, &n, &err) == SN_OK);
    CHECK(n == 4);
    if (n == 4) {
        CHECK(!runs[0].complete && runs[0].nresults == 0);
        for (int i = 0; i < 3; i++) {
            struct sn_results rs;
            const struct sn_run *r = &runs[3 - i];
            CHECK(r->id == ids[i] && r->complete && r->nresults == 50);
            REQUIRE(sn_store_results_get(st, r->id, &rs, &err) == SN_OK);
            for (size_t k = 0; k < rs.n; k++) {
                double want = 1000.0 * (i + 1) + 10.0 * (double)k;
                CHECK(rs.items[k].nsamples == 5);
                CHECK(rs.items[k].samples[0] == want);
                CHECK(rs.items[k].samples[4] == want + 4);
            }
            sn_results_release(&rs);
        }
    }
    free(runs);
    fx_store_release(st, path, dir);
}

static void test_health_pack_round_trips_and_caps(void)
{
    struct sn_store_health *rows = NULL, *back = NULL;
    size_t n = 0, cap = 0, nb = 0, bcap = 0;
    struct sn_buf b;
    struct sn_error err;

    sn_store_health_add(&rows, &n, &cap, "h0", "pcie.link", "FAIL",
                        "0000:17:00.0", "x8 of x16", "reseat the card");
    sn_store_health_add(&rows, &n, &cap, "h0", "nvml.ecc", "PASS", NULL, NULL,
                        NULL);
    sn_buf_init(&b);
    sn_store_health_pack(rows, n, "h0", 4096, &b);
    REQUIRE(sn_store_health_unpack(b.data, b.len, &back, &nb, &bcap, &err) ==
            SN_OK);
    REQUIRE(nb == 2);
    CHECK_STR(back[0].host, "h0");
    CHECK_STR(back[0].subject, "0000:17:00.0");
    CHECK_STR(back[0].evidence, "x8 of x16");
    CHECK_STR(back[1].status, "PASS");
    CHECK_STR(back[1].remedy, "");
    /* a cap below the second check: it is left out, and said */
    sn_store_health_release(back, nb);
    back = NULL;
    nb = bcap = 0;
    b.len = 0;
    sn_store_health_pack(rows, n, "h0", 90, &b);
    REQUIRE(sn_store_health_unpack(b.data, b.len, &back, &nb, &bcap, &err) ==
            SN_OK);
    REQUIRE(nb == 2);
    CHECK_STR(back[1].name, "doctor");
    CHECK(strstr(back[1].evidence, "1 of 2 checks left out") != NULL);
    /* bytes that are not a pack, or cut short: refused */
    CHECK(sn_store_health_unpack("garbage", 8, &back, &nb, &bcap, &err) ==
          SN_EINPUT);
    CHECK(sn_store_health_unpack(b.data, b.len - 1, &back, &nb, &bcap, &err) ==
          SN_EINPUT);
    CHECK(sn_store_health_unpack(NULL, 0, &back, &nb, &bcap, &err) == SN_OK);
    sn_store_health_release(back, nb);
    sn_store_health_release(rows, n);
    sn_buf_release(&b);
}

static void test_result_params_read_fills_typed_fields(void)
{
    struct sn_result r;

    memset(&r, 0, sizeof(r));
    snprintf(r.params, sizeof(r.params), "bytes=67108864,dtype=bf16,k=8");
    sn_result_params_read(&r);
    CHECK(r.bytes == 67108864u);
    CHECK_STR(r.dtype, "bf16");
    snprintf(r.params, sizeof(r.params), "m=8,n=8");
    sn_result_params_read(&r);
    CHECK(r.bytes == 0 && r.dtype[0] == '\0');
}

static void test_store_migrates_version_3_adding_events(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_store_event ev = {0}, *got = NULL;
    struct sn_store_events_filter f = {.since = NAN};
    size_t n = 9;
    int64_t old;

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    old = put_run(st, "0123456789abcdef", 2, 10.0);
    REQUIRE(old > 0);
    sn_store_close(st);
    /* version 3, as the release before `watch` left it */
    REQUIRE(behind(path, "DROP TABLE events; DROP TABLE watch_state;"
                         "PRAGMA user_version = 3") == SQLITE_OK);
    REQUIRE(!schema_has(path, "table", "events"));
    REQUIRE(sn_store_open(path, &st, &err) == SN_OK);
    CHECK(sn_store_schema_version(st) == 4);
    CHECK(schema_has(path, "table", "events"));
    CHECK(schema_has(path, "table", "watch_state"));
    CHECK(schema_has(path, "index", "events_by_subject"));
    REQUIRE(sn_store_events_list(st, &f, &got, &n, &err) == SN_OK);
    CHECK(n == 0);
    sn_store_events_release(got, n);
    snprintf(ev.rule, sizeof(ev.rule), "gpu_xid");
    ev.started = 100;
    ev.resolved = NAN;
    CHECK(sn_store_event_add(st, &ev, &err) == SN_OK);
    CHECK(ev.id == 1);
    fx_store_release(st, path, dir);
}

static struct sn_store_event event_of(const char *host, const char *rule,
                                      const char *subject, double started,
                                      const char *state)
{
    struct sn_store_event ev;

    memset(&ev, 0, sizeof(ev));
    snprintf(ev.host, sizeof(ev.host), "%s", host);
    snprintf(ev.rule, sizeof(ev.rule), "%s", rule);
    snprintf(ev.severity, sizeof(ev.severity), "warning");
    snprintf(ev.subject, sizeof(ev.subject), "%s", subject);
    snprintf(ev.message, sizeof(ev.message), "%s on %s", rule, subject);
    ev.value = 1.5;
    ev.started = started;
    ev.resolved = NAN;
    ev.state = (char *)state;
    return ev;
}

static void test_store_events_filter_resolve_and_get(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_store_event a, b, c, one, *got = NULL;
    struct sn_store_events_filter f = {.since = NAN};
    size_t n = 0;

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    a = event_of("n0", "coolant_flow_low", "branch CPU1", 1000, NULL);
    b = event_of("n0", "gpu_thermal_creep", "gpu 0000:17:00.0", 2000,
                 "{\"temp_c\":71.5}");
    c = event_of("n1", "gpu_xid", "gpu 0000:17:00.0", 3000, "{}");
    REQUIRE(sn_store_event_add(st, &a, &err) == SN_OK);
    REQUIRE(sn_store_event_add(st, &b, &err) == SN_OK);
    REQUIRE(sn_store_event_add(st, &c, &err) == SN_OK);
    CHECK(a.id < b.id && b.id < c.id);
    /* newest first, all of them */
    REQUIRE(sn_store_events_list(st, &f, &got, &n, &err) == SN_OK);
    REQUIRE(n == 3);
    CHECK(got[0].id == c.id && got[2].id == a.id);
    CHECK_STR(got[2].state, "{}");
    CHECK(isnan(got[0].resolved));
    sn_store_events_release(got, n);
    /* since and subject (a part of it) */
    f.since = 1500;
    f.subject = "0000:17";
    REQUIRE(sn_store_events_list(st, &f, &got, &n, &err) == SN_OK);
    CHECK(n == 2);
    sn_store_events_release(got, n);
    f.host = "n0";
    REQUIRE(sn_store_events_list(st, &f, &got, &n, &err) == SN_OK);
    REQUIRE(n == 1);
    CHECK_STR(got[0].rule, "gpu_thermal_creep");
    sn_store_events_release(got, n);
    /* resolving keeps the first time; an open list leaves it out */
    CHECK(sn_store_event_resolve(st, b.id, 2500, &err) == SN_OK);
    CHECK(sn_store_event_resolve(st, b.id, 2600, &err) == SN_OK);
    CHECK(sn_store_event_resolve(st, 999, 2600, &err) == SN_ENOTFOUND);
    REQUIRE(sn_store_event_get(st, b.id, &one, &err) == SN_OK);
    CHECK(one.resolved == 2500);
    CHECK(one.value == 1.5);
    CHECK_STR(one.state, "{\"temp_c\":71.5}");
    CHECK_STR(one.subject, "gpu 0000:17:00.0");
    free(one.state);
    f = (struct sn_store_events_filter){.since = NAN, .open = true};
    REQUIRE(sn_store_events_list(st, &f, &got, &n, &err) == SN_OK);
    CHECK(n == 2);
    sn_store_events_release(got, n);
    f.limit = 1;
    REQUIRE(sn_store_events_list(st, &f, &got, &n, &err) == SN_OK);
    CHECK(n == 1);
    sn_store_events_release(got, n);
    CHECK(sn_store_event_get(st, 999, &one, &err) == SN_ENOTFOUND);
    CHECK_CONTAINS(err.msg, "no event 999");
    /* a start that is no time is refused */
    a.started = NAN;
    CHECK(sn_store_event_add(st, &a, &err) == SN_EINPUT);
    fx_store_release(st, path, dir);
}

static void test_store_watch_state_round_trips_exactly(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_error err;
    struct sn_store_watch_state s[2], *got = NULL;
    size_t n = 0;

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    memset(s, 0, sizeof(s));
    snprintf(s[0].key, sizeof(s[0].key), "creep/gpu 0000:17:00.0");
    s[0].values[0] = 0.1 + 0.2; /* not a short decimal: exactness shows */
    s[0].values[1] = -3e-300;
    s[0].values[2] = NAN;
    s[0].n = 3;
    s[0].updated = 1234.5;
    snprintf(s[1].key, sizeof(s[1].key), "drift/bmc/Inlet1");
    s[1].n = 0;
    REQUIRE(sn_store_watch_state_put(st, "n0", s, 2, &err) == SN_OK);
    s[0].values[0] = 7;
    REQUIRE(sn_store_watch_state_put(st, "n0", s, 1, &err) == SN_OK);
    REQUIRE(sn_store_watch_state_put(st, "n1", s, 1, &err) == SN_OK);
    sn_store_close(st);
    REQUIRE(sn_store_open(path, &st, &err) == SN_OK);
    REQUIRE(sn_store_watch_state_get(st, "n0", &got, &n, &err) == SN_OK);
    REQUIRE(n == 2);
    CHECK_STR(got[0].key, "creep/gpu 0000:17:00.0");
    CHECK(got[0].n == 3);
    CHECK(got[0].values[0] == 7);
    CHECK(got[0].values[1] == -3e-300);
    CHECK(isnan(got[0].values[2]));
    CHECK(got[0].updated == 1234.5);
    CHECK(got[1].n == 0);
    free(got);
    /* a row changed by hand into something else is named */
    REQUIRE(behind(path, "UPDATE watch_state SET \"values\" = '1 x'"
                         " WHERE key = 'drift/bmc/Inlet1'") == SQLITE_OK);
    CHECK(sn_store_watch_state_get(st, "n0", &got, &n, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "drift/bmc/Inlet1");
    CHECK(got == NULL && n == 0);
    fx_store_release(st, path, dir);
}

static const struct sn_test cases[] = {
    T(test_health_pack_round_trips_and_caps),
    T(test_result_params_read_fills_typed_fields),
    T(test_stats_median_mad_closed_form),
    T(test_result_params_derived_on_write_and_read_back),
    T(test_store_keeps_typed_parameters_of_repeated_rows),
    T(test_store_creates_schema_at_current_version_in_wal),
    T(test_store_refuses_foreign_and_newer_files),
    T(test_store_migrates_an_empty_marked_file),
    T(test_store_migrates_version_1_keeping_its_data),
    T(test_store_refuses_negative_and_unknown_versions),
    T(test_store_half_applied_schema_is_bad_input),
    T(test_store_read_mode_never_creates),
    T(test_store_migrates_version_2_adding_health),
    T(test_store_migrates_version_3_adding_events),
    T(test_store_events_filter_resolve_and_get),
    T(test_store_watch_state_round_trips_exactly),
    T(test_store_health_round_trips_in_order_as_columns),
    T(test_store_health_put_refuses_bad_input_whole),
    T(test_store_run_put_keeps_health_or_nothing),
    T(test_store_round_trips_results_with_samples),
    T(test_store_run_is_incomplete_until_finished),
    T(test_store_write_waits_for_a_held_lock_then_fails),
    T(test_store_add_results_is_all_or_nothing),
    T(test_store_lists_runs_newest_first),
    T(test_store_baseline_pools_runs_with_their_noise),
    T(test_store_baseline_refuses_bad_input),
    T(test_store_new_file_opened_by_many_processes_at_once),
    T(test_store_survives_sigkill_mid_transaction),
};

SN_TEST_MAIN(cases)
