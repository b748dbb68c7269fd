/* store.h: the results store: measured runs, their results with raw
 * samples and units, named baselines with the noise seen, and the findings
 * a check made, in one SQLite database (WAL, versioned schema with
 * migrations). The store records; it never interprets (diagnose.h does).
 *
 * Ownership: sn_store_open() returns a handle freed with sn_store_close().
 * Arrays filled by the read calls (runs, results, baselines, findings,
 * health checks) are
 * caller-owned and released with the matching _release() call; the
 * samples of a struct sn_result belong to the result.
 *
 * To change the schema: 1. append a migration to the table in
 * src/lib/store/schema.c (never edit a released one)  2. bump
 * SN_STORE_SCHEMA_VERSION  3. the read/write code  4. a migration test in
 * tests/unit/test-store.c  5. docs/check.md.
 */
#ifndef SN_STORE_H
#define SN_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sn/util.h"

#define SN_STORE_SCHEMA_VERSION 4

/* Caps on what one record may hold, checked before any allocation. */
#define SN_STORE_MAX_SAMPLES 100000
#define SN_STORE_MAX_RESULTS 10000000
#define SN_STORE_MAX_HEALTH 1000000

/* No rank (the second rank of a device result). */
#define SN_STORE_NO_RANK UINT32_MAX

/* ---- results
 * -------------------------------------------------------------------- */

/* Who a result is about. */
enum sn_subject {
    SN_SUBJECT_DEVICE, /* one accelerator: rank a */
    SN_SUBJECT_PAIR,   /* traffic between ranks a and b */
    SN_SUBJECT_GROUP,  /* a collective over b ranks from rank a */
};

#define SN_RESULT_TEST_MAX 48
#define SN_RESULT_PARAMS_MAX 96
#define SN_RESULT_UNIT_MAX 16

/* Which of a result's integer parameters apply (0 is a value for them). */
enum {
    SN_PARAM_INPLACE = 1 << 0,
    SN_PARAM_NUMA = 1 << 1,
    SN_PARAM_PINNED = 1 << 2,
    SN_PARAM_ROOT = 1 << 3,
};

/* One measured quantity for one subject: its samples and their summary.
 * Units are SI ("B/s", "s", "FLOP/s"); bandwidth is per direction. This
 * is the measured result: bench produces it (sn_bench_result_store), the
 * store keeps it, diagnose judges it.
 *
 * Parameters are typed; the "k=v" list that is stored and keys the
 * baseline is derived from them on write (sn_result_params_write) and
 * parsed back into them on read (sn_result_params_read). */
struct sn_result {
    char test[SN_RESULT_TEST_MAX];     /* "p2p.bw", "gemm", "allreduce" */
    char params[SN_RESULT_PARAMS_MAX]; /* "bytes=4194304", sorted keys;
                                          "" until written */
    /* the parameters; 0 or "" where they do not apply, and the integer
     * ones only where `has` says (SN_PARAM_*) */
    uint64_t bytes;                 /* message or buffer size */
    char dtype[16];                 /* "fp32", "bf16" */
    char redop[8];                  /* "sum" */
    int64_t gemm_m, gemm_n, gemm_k; /* GEMM shape */
    int inplace;                    /* 1 in-place, 0 out-of-place */
    int numa;                       /* host NUMA node of the host buffer */
    int pinned;                     /* 1 pinned, 0 pageable */
    int root;                       /* a rooted collective's root */
    unsigned has;
    char unit[SN_RESULT_UNIT_MAX];
    uint8_t subject;   /* enum sn_subject */
    bool lower_better; /* times and latencies */
    uint32_t a, b;     /* ranks (see enum sn_subject) */
    uint32_t round;    /* pairs measured at the same time
                          share a round; SN_STORE_NO_RANK
                          when measured alone */
    size_t nsamples;
    double *samples; /* owned by the result */
    struct sn_stats stats;
};

/* A growable, owned array of results. */
struct sn_results {
    struct sn_result *items;
    size_t n, cap;
};

void sn_results_init(struct sn_results *rs);
/* Fill r's typed parameters from its params string, as a result read
 * from a database or a file keeps them; unknown keys are skipped. */
void sn_result_params_read(struct sn_result *r);
/* Derive r's params string from its typed parameters when it has none:
 * "k=v" pairs in key order (bytes, dtype, inplace, k, m, n, numa, pinned,
 * redop, root). A string already there (read, or set by its producer) is
 * kept. The store calls it on every write (sn_results_add, the database,
 * the run document). */
void sn_result_params_write(struct sn_result *r);
/* Append a copy of r (its samples are copied, its params string written);
 * returns the new item. */
struct sn_result *sn_results_add(struct sn_results *rs,
                                 const struct sn_result *r);
void sn_results_release(struct sn_results *rs);
/* The subject as people read it without a topology: "rank3",
 * "rank0~rank2", "ranks0-7". */
char *sn_result_subject(const struct sn_result *r, char *buf, size_t size);
const char *sn_subject_name(enum sn_subject s); /* "device", "pair", ... */

/* ---- runs --------------------------------------------------------------- */

/* One run of the bench suite: when, where, who, with what, on which spec,
 * and whether it finished. Times are ISO 8601 UTC ("2026-11-29T10:00:00Z"). */
struct sn_run {
    int64_t id;
    char started[32];
    char finished[32]; /* "" until the run is complete */
    char host[64];
    char user[64];
    char tool[32];      /* supernode version */
    char versions[256]; /* libraries and drivers: "openmpi 4.1.4, ..." */
    char spec_name[128];
    char spec_hash[20]; /* 16 hex digits */
    char suite[16];     /* "quick", "full" */
    char backend[16];   /* "cpu", "cuda" */
    int ranks;
    bool complete;
    char verdict[8]; /* "PASS", "WARN", "FAIL" or "" */
    size_t nresults; /* filled by the read calls */
    size_t nfindings;
};

/* One finding as the store keeps it: what diagnose decided, in words. */
struct sn_store_finding {
    char severity[8]; /* "PASS", "WARN", "FAIL" */
    char kind[24];
    char subject[160];
    char label[160];
    char *summary; /* owned */
};

struct sn_store;

/* Open (creating when absent) the database at path, switch it to WAL,
 * and bring its schema up to SN_STORE_SCHEMA_VERSION with the migrations,
 * each in its own transaction. SN_EINPUT when the file is not a
 * supernode database or was written by a newer schema; SN_EIO when it
 * cannot be opened. *out is NULL on failure. */
int sn_store_open(const char *path, struct sn_store **out,
                  struct sn_error *err);

/* How a command uses the database. */
enum sn_store_mode {
    SN_STORE_WRITE, /* create when absent, migrate, write */
    SN_STORE_READ,  /* read only: never created (SN_ENOTFOUND when
                       absent); a file or directory this process cannot
                       write is opened read-only and left without -wal
                       and -shm files */
};

/* sn_store_open() for a mode. The application id is checked before the
 * schema version; a negative or unknown version, a file of another
 * application and a schema that does not match its version (a
 * half-applied migration) are SN_EINPUT, before any migration runs. */
int sn_store_open_mode(const char *path, enum sn_store_mode mode,
                       struct sn_store **out, struct sn_error *err);
void sn_store_close(struct sn_store *st);
/* How long a write waits in all for another process that holds the write
 * lock (an open sqlite3 session, a VACUUM, another check) before it fails
 * with SN_EIO: each try within SQLite's busy timeout, then a pause that
 * doubles. SN_STORE_WAIT seconds unless set. */
#define SN_STORE_WAIT 60.0
void sn_store_set_wait(struct sn_store *st, double seconds);
/* The path the database was opened at (owned by st). */
const char *sn_store_path(const struct sn_store *st);
/* The schema version of the open database. */
int sn_store_schema_version(struct sn_store *st);
/* The SQLite library's version, "3.40.1" (static storage). */
const char *sn_store_sqlite_version(void);

/* Now as ISO 8601 UTC, for struct sn_run times. Returns buf. */
char *sn_store_timestamp(char *buf, size_t size);

/* Record the start of a run (complete = false); run->id is set. Committed
 * at once, so a run that dies later stays visible as incomplete. */
int sn_store_run_begin(struct sn_store *st, struct sn_run *run,
                       struct sn_error *err);
/* Add results to a run, all or nothing (one transaction). */
int sn_store_add_results(struct sn_store *st, int64_t run,
                         const struct sn_result *res, size_t n,
                         struct sn_error *err);
/* Mark a run complete with its verdict ("" when not judged) and
 * findings, in one transaction; `finished` is set to now. */
int sn_store_run_finish(struct sn_store *st, int64_t run, const char *verdict,
                        const struct sn_store_finding *f, size_t nf,
                        struct sn_error *err);
struct sn_store_health;

/* Store a whole run (begin, results, health checks, finish) in one
 * transaction, as an import does; run->id is set. A complete run keeps
 * its `finished` time when it has one. h may be NULL (nh 0). */
int sn_store_run_put(struct sn_store *st, struct sn_run *run,
                     const struct sn_result *res, size_t n,
                     const struct sn_store_finding *f, size_t nf,
                     const struct sn_store_health *h, size_t nh,
                     struct sn_error *err);

/* Read one run. SN_ENOTFOUND when there is no run with that id. */
int sn_store_run_get(struct sn_store *st, int64_t id, struct sn_run *run,
                     struct sn_error *err);
/* The newest runs first, at most limit (0: all). *runs is caller-owned
 * (free()). */
int sn_store_runs_list(struct sn_store *st, size_t limit, struct sn_run **runs,
                       size_t *n, struct sn_error *err);
/* The id of the newest complete run; SN_ENOTFOUND when there is none. */
int sn_store_run_latest(struct sn_store *st, int64_t *id, struct sn_error *err);
/* The results of a run in the order they were added, with their raw
 * samples; out is caller-owned (sn_results_release()). */
int sn_store_results_get(struct sn_store *st, int64_t run,
                         struct sn_results *out, struct sn_error *err);
/* Which raw samples sn_store_results_read() decodes; the summary figures
 * (stats, n included) are read for every result. */
enum sn_store_samples {
    SN_STORE_SAMPLES_ALL,   /* every result's */
    SN_STORE_SAMPLES_NONE,  /* none: samples NULL, nsamples 0 */
    SN_STORE_SAMPLES_TIMES, /* those of results in seconds (unit "s"),
                               whose distributions a report draws */
};
/* sn_store_results_get() reading only the samples which names: a run of
 * 1,000 devices holds 500,000 results, and most readers want only their
 * summaries. */
int sn_store_results_read(struct sn_store *st, int64_t run,
                          enum sn_store_samples which, struct sn_results *out,
                          struct sn_error *err);
/* The findings stored with a run, strongest first as they were stored.
 * Release with sn_store_findings_release(). */
int sn_store_findings_get(struct sn_store *st, int64_t run,
                          struct sn_store_finding **f, size_t *n,
                          struct sn_error *err);
void sn_store_findings_release(struct sn_store_finding *f, size_t n);

/* ---- node health with a run ------------------------------------------------
 */

/* One check `supernode doctor` made on a host of the run (health.h), as
 * the store keeps it: every field a column, so that runs can be searched
 * by check, status or device. */
struct sn_store_health {
    char host[64];     /* the host it was made on */
    char name[48];     /* "pcie.link", "nvml.ecc" */
    char status[8];    /* "PASS", "SKIP", "WARN", "FAIL" */
    char subject[160]; /* the device or setting; "" for the node */
    char *evidence;    /* owned; never NULL once read */
    char *remedy;      /* owned; "" for a pass */
};

/* Add health checks to a run, after those it has, all or nothing (one
 * transaction). NULL evidence or remedy is stored as "". SN_ENOTFOUND for
 * a missing run; SN_EINPUT for a complete run (its record is final), a
 * status that is not one of the four, or more than SN_STORE_MAX_HEALTH
 * checks in the run. */
int sn_store_health_put(struct sn_store *st, int64_t run,
                        const struct sn_store_health *h, size_t n,
                        struct sn_error *err);
/* The health checks of a run in the order they were added (none: *n = 0).
 * SN_ENOTFOUND for a missing run. Release with sn_store_health_release(). */
int sn_store_health_get(struct sn_store *st, int64_t run,
                        struct sn_store_health **h, size_t *n,
                        struct sn_error *err);
void sn_store_health_release(struct sn_store_health *h, size_t n);
/* Append one check to a growable array (*cap its room): the strings are
 * copied, NULL subject, evidence or remedy become "". */
void sn_store_health_add(struct sn_store_health **rows, size_t *n, size_t *cap,
                         const char *host, const char *name, const char *status,
                         const char *subject, const char *evidence,
                         const char *remedy);
/* One host's checks as bytes for another process (check gathers every
 * host's over MPI): the tag SN_SCHEMA_HEALTH_PACK, the host, then
 * five NUL-terminated fields per check, appended to b. Checks past room
 * bytes are left out and one WARN check of doctor's own says how many. */
void sn_store_health_pack(const struct sn_store_health *rows, size_t n,
                          const char *host, size_t room, struct sn_buf *b);
/* Append the checks of one packed buffer (len 0: none) to *rows.
 * SN_EINPUT when the bytes are not a pack (rows read before stay). */
int sn_store_health_unpack(const char *p, size_t len,
                           struct sn_store_health **rows, size_t *n,
                           size_t *cap, struct sn_error *err);

/* ---- a run as a document
 * ------------------------------------------------------ */

/* Write a run with its results (raw samples included when samples is true),
 * findings and node-health checks (h may be NULL) as one
 * SN_SCHEMA_RUN JSON object into j; with rs NULL, only the run's own
 * fields and counts. */
void sn_store_run_json(struct sn_json *j, const struct sn_run *run,
                       const struct sn_results *rs,
                       const struct sn_store_finding *f, size_t nf,
                       const struct sn_store_health *h, size_t nh,
                       bool samples);
/* Read an SN_SCHEMA_RUN document (what sn_store_run_json() writes)
 * from text named file; "health" is optional (documents written before it
 * have none). Errors are located ("file:line:col: ..."), SN_EINPUT; on
 * failure every output is left empty. The caller releases rs with
 * sn_results_release(), *f with sn_store_findings_release() and *h with
 * sn_store_health_release(). */
int sn_store_run_parse(const char *file, const char *text, size_t len,
                       struct sn_run *run, struct sn_results *rs,
                       struct sn_store_finding **f, size_t *nf,
                       struct sn_store_health **h, size_t *nh,
                       struct sn_error *err);

/* ---- baselines
 * ------------------------------------------------------------------------ */

/* What one subject measured when all was well, with the noise seen: the
 * median of the samples of every run behind it, the robust standard
 * deviation of those samples, and how far one run's median strays from
 * run to run (relative; estimated over every subject of the same test,
 * 0 when the baseline has one run). */
struct sn_baseline_entry {
    char test[SN_RESULT_TEST_MAX];
    char params[SN_RESULT_PARAMS_MAX];
    char unit[SN_RESULT_UNIT_MAX];
    uint8_t subject;
    bool lower_better;
    uint32_t a, b;
    double center;
    double noise;
    double drift; /* relative standard deviation of a run's
                     median between runs */
    size_t n;     /* samples behind it */
    int runs;     /* runs behind it */
};

struct sn_baseline {
    int64_t id;
    char name[64];
    char created[32];
    char runs[128]; /* source run ids, "3,4,5" */
    char spec_name[128];
    char spec_hash[20];
    struct sn_baseline_entry *entries; /* owned, sorted by key */
    size_t n;
};

#define SN_BASELINE_MAX_RUNS 16
/* Runs a baseline needs by default: one run's noise is no estimate of
 * run-to-run noise (a lone run let the next check FAIL at z -24.9) */
#define SN_BASELINE_MIN_RUNS 3

/* Whether runs make a sound baseline: at least min_runs of them, none
 * with a FAIL verdict, all of one suite, backend and rank count, none a
 * second import of another (same start and host). SN_OK when they do;
 * SN_EINPUT with every reason in err (one sentence) when not. The checks
 * sn_store_baseline_save() always makes (complete, one spec, no id twice)
 * are its own. */
int sn_store_baseline_vet(struct sn_store *st, const int64_t *runs,
                          size_t nruns, size_t min_runs, struct sn_error *err);
/* The newest complete runs that make a baseline with the newest one:
 * same spec, suite, backend and ranks, no FAIL, not duplicates; at most
 * max of them into runs[], newest first, *n how many. SN_ENOTFOUND when
 * there is no complete run. */
int sn_store_baseline_candidates(struct sn_store *st, size_t max, int64_t *runs,
                                 size_t *n, struct sn_error *err);
/* Whether run may be compared with baseline b: the same suite, backend
 * and rank count as the baseline's first source run. SN_OK, or SN_EINPUT
 * saying what differs. */
int sn_store_baseline_like(struct sn_store *st, const struct sn_baseline *b,
                           const struct sn_run *run, struct sn_error *err);

/* Save a baseline named name from complete runs (their samples pooled per
 * subject). SN_EINPUT for a bad name, runs of different specs or a name
 * that exists when replace is false; SN_ENOTFOUND for a missing run. */
int sn_store_baseline_save(struct sn_store *st, const char *name,
                           const int64_t *runs, size_t nruns, bool replace,
                           struct sn_error *err);
/* Read a baseline by name; SN_ENOTFOUND (with a did-you-mean) when
 * absent. Release with sn_baseline_release(). */
int sn_store_baseline_get(struct sn_store *st, const char *name,
                          struct sn_baseline *out, struct sn_error *err);
/* Every baseline, by name, without entries (n holds their count). *out
 * is caller-owned (free()). */
int sn_store_baselines_list(struct sn_store *st, struct sn_baseline **out,
                            size_t *n, struct sn_error *err);
void sn_baseline_release(struct sn_baseline *b);
/* The entry for a result's subject, or NULL. */
const struct sn_baseline_entry *sn_baseline_find(const struct sn_baseline *b,
                                                 const struct sn_result *r);

/* ---- watch events and slow state ------------------------------------ */
/* What `supernode watch` saw (issue 15): an event is a rule starting to
 * hold on a subject, kept with the state of the moment (JSON) and the
 * time it stopped; the slow state is a few numbers per series (an EWMA
 * baseline, a CUSUM sum) that the rules carry from one interval to the
 * next and over a restart. Times are seconds since the epoch on the
 * agent's clock (simulated in tests). */

#define SN_STORE_EVENTS_MAX 100000     /* rows one list returns at most */
#define SN_STORE_EVENT_STATE_MAX 65536 /* bytes of an event's state JSON */
#define SN_STORE_WATCH_VALUES 8        /* numbers of one slow-state key */
#define SN_STORE_WATCH_KEYS_MAX 100000 /* keys one host keeps at most */

struct sn_store_event {
    int64_t id;
    char host[64];
    char rule[64];
    char severity[16];
    char subject[128];
    char message[256];
    double value;    /* the figure the rule compared; NaN: none */
    double started;  /* when the rule started to hold */
    double resolved; /* when it stopped; NaN while it holds */
    char *state;     /* JSON object, owned by the event */
};

/* Store ev (its id is ignored and set to the new row's). state NULL is
 * stored as "{}". SN_EINPUT for a state over SN_STORE_EVENT_STATE_MAX
 * bytes or a non-finite start. */
int sn_store_event_add(struct sn_store *st, struct sn_store_event *ev,
                       struct sn_error *err);
/* Mark event id resolved at time resolved (an event resolved already
 * keeps its first time). SN_ENOTFOUND when there is no such event. */
int sn_store_event_resolve(struct sn_store *st, int64_t id, double resolved,
                           struct sn_error *err);
/* Which events to list: started at or after since (NaN: any), subject
 * containing subject and of host (NULL or "": any), only those still
 * holding (open), at most limit (0: SN_STORE_EVENTS_MAX), newest first. */
struct sn_store_events_filter {
    double since;
    const char *subject;
    const char *host;
    bool open;
    size_t limit;
};
/* The events f selects into *ev (caller-owned, released with
 * sn_store_events_release()), *n how many. */
int sn_store_events_list(struct sn_store *st,
                         const struct sn_store_events_filter *f,
                         struct sn_store_event **ev, size_t *n,
                         struct sn_error *err);
/* One event by id into *ev (release with sn_store_events_release(ev, 1)
 * on a caller's copy, or free ev->state). SN_ENOTFOUND when absent. */
int sn_store_event_get(struct sn_store *st, int64_t id,
                       struct sn_store_event *ev, struct sn_error *err);
/* Free the states of n events and then the array itself. */
void sn_store_events_release(struct sn_store_event *ev, size_t n);

/* One key of the slow state: up to SN_STORE_WATCH_VALUES numbers. */
struct sn_store_watch_state {
    char key[128];
    double values[SN_STORE_WATCH_VALUES];
    size_t n;
    double updated;
};
/* Write (insert or replace) the n keys of host in one transaction. */
int sn_store_watch_state_put(struct sn_store *st, const char *host,
                             const struct sn_store_watch_state *s, size_t n,
                             struct sn_error *err);
/* Every key of host into *s (caller-owned, free()), *n how many. A row
 * whose values cannot be read is SN_EINPUT naming the key. */
int sn_store_watch_state_get(struct sn_store *st, const char *host,
                             struct sn_store_watch_state **s, size_t *n,
                             struct sn_error *err);

#endif
