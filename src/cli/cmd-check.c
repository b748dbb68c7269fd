/* cmd-check.c: `supernode check --spec SPEC`: the acceptance check. Runs
 * the bench suite as one MPI job (every rank runs this command), stores
 * the run, and on rank 0 judges it against the design, a baseline and
 * peers, localises slow pairs to cables, prints the findings and writes
 * JSON and JUnit. `--run ID` and `--results FILE` judge a run measured
 * before, without MPI. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli-health.h"
#include "cli-nccl.h"
#include "cli-store.h"
#include "cmd.h"
#include "sn/bench.h"
#include "sn/diagnose.h"
#include "sn/health.h"

extern const struct sn_cmd sn_cmd_check;

/* The probes' deadline (cli-health.h): a probe stuck in the driver would
 * hold every rank in the gather, and the bench's watchdog is not running
 * yet. */
#define CHECK_DOCTOR_TIMEOUT CLI_HEALTH_TIMEOUT

struct check_cli {
    const char *spec_path;
    const char *suite;
    const char *baseline;
    const char *db;
    const char *json;
    const char *junit;
    const char *results; /* --results FILE */
    int64_t run_id;      /* --run ID */
    bool no_store;
    bool no_doctor;       /* --no-doctor */
    bool verbose;         /* --verbose: every node-health SKIP listed */
    bool allow_colocated; /* --allow-colocated */
    struct sn_bench_placement place; /* where the ranks ran */
    long long doctor_timeout;        /* --doctor-timeout seconds */
    long long db_wait;               /* --db-wait seconds, -1: the store's */
    struct cli_health_opts hopts;    /* --fsroot, --nvml, --matrix */
    long long iters;                 /* 0: the suite's */
    enum sn_bench_backend backend;
    enum sn_bench_test tests[SN_BENCH_TEST_COUNT];
    size_t ntests;
    int rank;
    const char *nccl_log; /* --nccl-log FILE: judge NCCL's log, no run */
    /* the node-health checks: how to probe, and on rank 0 what every
     * host's checks found */
    struct sn_health_config hcfg;
    struct sn_health_node node;
    struct sn_health_matrix *matrix;
    struct sn_store_health *health;
    size_t nhealth;
    /* while measuring */
    struct sn_store *st;
    int64_t stored_run;
    struct cli_progress progress;
    /* rank 0, measuring: a write to the store failed, so the run goes to
     * a file `runs import` takes (spool_run) */
    bool measuring;
    bool store_lost;
    struct sn_run begun; /* the run as recorded before measuring */
};

static int bad(const struct check_cli *c, const char *fmt, ...) SN_PRINTF(2, 3);
static int bad(const struct check_cli *c, const char *fmt, ...)
{
    va_list ap;

    if (c->rank != 0)
        return SN_EXIT_USAGE;
    fputs("supernode: check: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return SN_EXIT_USAGE;
}

static int parse_tests(struct check_cli *c, const char *list)
{
    char *copy = sn_xstrdup(list), *next;
    struct sn_error err;
    int rc = SN_EXIT_OK;

    /* every test named: an empty list would mean the suite's, an empty
     * item is a typo */
    for (char *t = copy; t; t = next) {
        enum sn_bench_test x;
        next = strchr(t, ',');
        if (next)
            *next++ = '\0';
        if (!*t) {
            rc = bad(c,
                     "--tests: an empty name in '%s' (expected a "
                     "comma-separated list such as compute,pairs)",
                     list);
            break;
        }
        if (sn_bench_test_parse(t, &x, &err)) {
            rc = bad(c, "--tests: %s", err.msg);
            break;
        }
        if (c->ntests < SN_BENCH_TEST_COUNT)
            c->tests[c->ntests++] = x;
    }
    free(copy);
    return rc;
}

static int parse_args(struct check_cli *c, int argc, char **argv)
{
    struct sn_error err;

    c->suite = "quick";
    c->doctor_timeout = CHECK_DOCTOR_TIMEOUT;
    c->db_wait = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = !strcmp(a, "--spec") || !strcmp(a, "--suite") ||
                     !strcmp(a, "--baseline") || !strcmp(a, "--db") ||
                     !strcmp(a, "--json") || !strcmp(a, "--junit") ||
                     !strcmp(a, "--run") || !strcmp(a, "--results") ||
                     !strcmp(a, "--backend") || !strcmp(a, "--tests") ||
                     !strcmp(a, "--iters") || !strcmp(a, "--fsroot") ||
                     !strcmp(a, "--nvml") || !strcmp(a, "--matrix") ||
                     !strcmp(a, "--doctor-timeout") ||
                     !strcmp(a, "--nccl-log") || !strcmp(a, "--db-wait");
        if (takes && !v)
            return bad(c, "%s needs a value", a);
        if (!strcmp(a, "--spec"))
            c->spec_path = v;
        else if (!strcmp(a, "--suite"))
            c->suite = v;
        else if (!strcmp(a, "--baseline"))
            c->baseline = v;
        else if (!strcmp(a, "--db"))
            c->db = v;
        else if (!strcmp(a, "--json"))
            c->json = v;
        else if (!strcmp(a, "--junit"))
            c->junit = v;
        else if (!strcmp(a, "--results"))
            c->results = v;
        else if (!strcmp(a, "--nccl-log"))
            c->nccl_log = v;
        else if (!strcmp(a, "--fsroot"))
            c->hopts.fsroot = v;
        else if (!strcmp(a, "--nvml"))
            c->hopts.nvml = v;
        else if (!strcmp(a, "--matrix"))
            c->hopts.matrix = v;
        else if (!strcmp(a, "--db-wait")) {
            if (sn_parse_long(v, 0, 86400, &c->db_wait, &err))
                return bad(c, "--db-wait: %s", err.msg);
        } else if (!strcmp(a, "--doctor-timeout")) {
            if (sn_parse_long(v, 1, 86400, &c->doctor_timeout, &err))
                return bad(c, "--doctor-timeout: %s", err.msg);
        } else if (!strcmp(a, "--run")) {
            long long id;
            if (sn_parse_long(v, 1, INT64_MAX, &id, &err))
                return bad(c, "--run: %s", err.msg);
            c->run_id = id;
        } else if (!strcmp(a, "--backend")) {
            if (sn_bench_backend_parse(v, &c->backend, &err))
                return bad(c, "--backend: %s", err.msg);
        } else if (!strcmp(a, "--tests")) {
            if (parse_tests(c, v))
                return SN_EXIT_USAGE;
        } else if (!strcmp(a, "--iters")) {
            if (sn_parse_long(v, 1, 100000, &c->iters, &err))
                return bad(c, "--iters: %s", err.msg);
        } else if (!strcmp(a, "--no-store")) {
            c->no_store = true;
            continue;
        } else if (!strcmp(a, "--no-doctor")) {
            c->no_doctor = true;
            continue;
        } else if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
            c->verbose = true;
            continue;
        } else if (!strcmp(a, "--allow-colocated")) {
            c->allow_colocated = true;
            continue;
        } else {
            if (c->rank == 0) {
                cli_usage_error("check: unknown argument '%s'", a);
                cli_usage_hint(&sn_cmd_check);
            }
            return SN_EXIT_USAGE;
        }
        i++;
    }
    if (!c->spec_path && !c->nccl_log)
        return bad(c, "--spec SPEC is required (the design the run is "
                      "judged against)");
    if (strcmp(c->suite, "quick") && strcmp(c->suite, "full"))
        return bad(c, "--suite: unknown suite '%s' (expected quick or full)",
                   c->suite);
    if (c->run_id && c->results)
        return bad(c, "--run and --results both name the run to judge; "
                      "give one");
    if ((c->hopts.fsroot || c->hopts.nvml || c->hopts.matrix ||
         c->doctor_timeout != CHECK_DOCTOR_TIMEOUT) &&
        (c->no_doctor || c->run_id || c->results))
        return bad(c, "--fsroot, --nvml, --matrix and --doctor-timeout "
                      "point the node-health checks made while measuring "
                      "(not with --no-doctor, --run or --results)");
    return SN_EXIT_OK;
}

/* ---- the run record
 * ------------------------------------------------------------ */

static void run_record(const struct check_cli *c, const struct sn_spec *spec,
                       const struct sn_bench_results *res, struct sn_run *run)
{
    const char *user = getenv("USER");
    char host[64] = "";

    memset(run, 0, sizeof(*run));
    if (!user || !*user)
        user = getenv("LOGNAME");
    /* the environment's and the machine's words, cleaned */
    sn_str_clean(run->user, sizeof(run->user), user ? user : "", 0);
    if (res && res->nranks > 0)
        sn_strlcpy(run->host, res->ranks[0].host, sizeof(run->host));
    else if (gethostname(host, sizeof(host) - 1) == 0)
        sn_str_clean(run->host, sizeof(run->host), host, 0);
    snprintf(run->tool, sizeof(run->tool), "supernode %s", SN_VERSION);
    if (res) {
        const struct sn_bench_versions *v = &res->versions;
        struct sn_buf b;
        sn_buf_init(&b);
        sn_buf_printf(&b, "%s", v->mpi);
        if (v->blas[0])
            sn_buf_printf(&b, "; %s", v->blas);
        if (v->cuda_runtime[0])
            sn_buf_printf(&b, "; cuda %s", v->cuda_runtime);
        if (v->driver[0])
            sn_buf_printf(&b, "; driver %s", v->driver);
        if (v->nccl[0])
            sn_buf_printf(&b, "; nccl %s", v->nccl);
        if (v->kernel[0])
            sn_buf_printf(&b, "; kernel %s", v->kernel);
        sn_strlcpy(run->versions, b.len ? b.data : "", sizeof(run->versions));
        sn_buf_release(&b);
        run->ranks = res->nranks;
        sn_strlcpy(run->backend, res->backend, sizeof(run->backend));
    }
    sn_strlcpy(run->spec_name, spec->name ? spec->name : "",
               sizeof(run->spec_name));
    snprintf(run->spec_hash, sizeof(run->spec_hash), "%016" PRIx64, spec->hash);
    sn_strlcpy(run->suite, c->suite, sizeof(run->suite));
    sn_store_timestamp(run->started, sizeof(run->started));
}

/* ---- measuring
 * ----------------------------------------------------------------- */

/* A write to the store failed while measuring (the lock held past the
 * wait, the disk full, an I/O error): said once; from here the run goes
 * to a spool file at the end, never lost. */
static void store_failed(struct check_cli *c, const struct sn_error *err)
{
    if (!c->store_lost) {
        struct sn_buf t = SN_BUF_INIT;
        /* a message quoting a path from input: the terminal's escaper */
        sn_buf_put_esc(&t, SN_ESC_TERM, err->msg);
        fprintf(stderr, "supernode: check: cannot store the run: %s\n",
                t.data ? t.data : "");
        sn_buf_release(&t);
    }
    c->store_lost = true;
}

static void on_progress(void *ctx, const char *line)
{
    struct check_cli *c = ctx;

    cli_progress_line(&c->progress, "check", line);
}

static int spool_run(struct check_cli *c, const struct sn_run *run,
                     const struct sn_results *rs,
                     const struct sn_store_finding *f, size_t nf);

/* A rank hung or the job was signalled (the watchdog thread calls this):
 * keep what rank 0 has in the stored run, which stays incomplete, or,
 * when the store cannot take it, in a spool file as an incomplete run. */
static void on_abort(void *ctx, const struct sn_bench_results *partial,
                     const struct sn_bench_abort *why)
{
    struct check_cli *c = ctx;
    struct sn_results rs;
    struct sn_error err;
    struct sn_run run;

    cli_progress_end(&c->progress);
    fprintf(stderr, "supernode: check: %s\n", why->message);
    if (c->rank != 0 || !c->measuring)
        return;
    sn_results_init(&rs);
    for (size_t i = 0; i < partial->n; i++)
        sn_bench_result_store(&partial->items[i], partial->nranks, &rs);
    if (!c->store_lost &&
        sn_store_add_results(c->st, c->stored_run, rs.items, rs.n, &err))
        store_failed(c, &err);
    if (!c->store_lost) {
        fprintf(stderr,
                "supernode: check: run %" PRId64 " keeps %zu results, "
                "marked incomplete\n",
                c->stored_run, rs.n);
    } else {
        run = c->begun;
        run.id = 0;
        run.complete = false;
        spool_run(c, &run, &rs, NULL, 0);
    }
    sn_results_release(&rs);
}

/* The slowest accelerator-facing link decides the pair message size: a
 * message should take about 100 ms on it, long enough that the clock and
 * the scheduler are small beside it, short enough for a quick check. */
static uint64_t pair_bytes_for(const struct sn_topo *t)
{
    double slowest = INFINITY;
    uint64_t bytes = 64 << 10;

    for (size_t i = 0; i < t->nlinks; i++) {
        const struct sn_link *l = &t->links[i];
        if (l->cls != SN_LINK_HOST && l->bw > 0 && l->bw < slowest)
            slowest = l->bw;
    }
    if (!isfinite(slowest))
        return 0; /* no fabric: the backend's default */
    while (bytes < (256u << 20) && (double)bytes * 2 <= slowest * 0.1)
        bytes *= 2;
    return bytes;
}

static void suite_opts(const struct check_cli *c, const struct sn_topo *t,
                       const struct sn_spec *spec, struct sn_bench_opts *o)
{
    sn_bench_opts_init(o);
    o->backend = c->backend;
    o->spec = spec;
    if (c->ntests) {
        memcpy(o->tests, c->tests, c->ntests * sizeof(c->tests[0]));
        o->ntests = c->ntests;
    }
    o->pair_bytes = pair_bytes_for(t);
    if (!strcmp(c->suite, "quick")) {
        /* the acceptance essentials, each at one size: compute and
         * memory per device, every pair, one all-reduce */
        if (!c->ntests) {
            o->tests[o->ntests++] = SN_BENCH_COMPUTE;
            o->tests[o->ntests++] = SN_BENCH_MEMORY;
            o->tests[o->ntests++] = SN_BENCH_PAIRS;
            o->tests[o->ntests++] = SN_BENCH_COLL;
        }
        o->warmup = 1;
        o->iters = 10;
        o->latency_iters = 1000;
        o->coll_ops = 1u << SN_COLL_ALLREDUCE;
        o->min_bytes = o->max_bytes =
            o->pair_bytes ? o->pair_bytes : (uint64_t)1 << 20;
        /* the memory arrays keep bench's default, 4 times the
         * last-level cache (STREAM's rule): smaller ones measure cache */
        if (c->backend == SN_BENCH_CPU)
            o->gemm_size = 512;
    }
    if (c->iters)
        o->iters = (int)c->iters;
}

/* ---- node health
 * ----------------------------------------------------------------- */

/* Past the deadline this rank says why on its own (rank 0 is waiting in
 * the gather) and ends the job; the stored run stays incomplete, as with
 * a hung test. */
struct expiry {
    long long seconds;
    const char *host;
    struct sn_bench_job *job;
};

static void health_expired(void *ctx)
{
    struct expiry *x = ctx;

    fprintf(stderr,
            "supernode: check: the node-health checks on %s did not "
            "finish within %lld s (a probe stuck in the driver?); "
            "ending the job (run 'supernode doctor' there, or check "
            "with --no-doctor)\n",
            x->host, x->seconds);
    fflush(stderr);
    sn_bench_job_abort(x->job, SN_EXIT_RUN);
}

/* sn_health_run() under the deadline. */
static int health_run_bounded(struct check_cli *c, struct sn_bench_job *job,
                              struct sn_health_report *rep,
                              struct sn_error *err)
{
    struct expiry x = {c->doctor_timeout, sn_bench_job_host(job), job};

    return cli_health_run_bounded(&c->hcfg, rep, c->doctor_timeout,
                                  health_expired, &x, err);
}

/* Append rank's packed checks (sn_store_health_pack) to c->health. */
static int health_unpack(struct check_cli *c, size_t *cap, int rank,
                         const char *p, size_t len, struct sn_error *err)
{
    if (sn_store_health_unpack(p, len, &c->health, &c->nhealth, cap, err))
        return sn_error_set(err, SN_ERUNTIME,
                            "check: rank %d sent node-health checks that "
                            "cannot be read",
                            rank);
    return SN_OK;
}

/* The node-health checks of every host, once per host: the first rank of
 * each runs them, rank 0 gathers them, stores them with the run and keeps
 * them for the report. Every rank calls it (collective calls inside);
 * returns this rank's exit status. */
static int check_health(struct check_cli *c, struct sn_bench_job *job)
{
    const char *host = sn_bench_job_host(job);
    struct sn_health_report rep;
    struct sn_store_health *mine = NULL;
    size_t nmine = 0, cap = 0, hcap = 0, *offs = NULL;
    struct sn_buf pack;
    struct sn_error err;
    char *all = NULL;
    bool first = false;
    int rc, status = SN_EXIT_OK;

    sn_health_report_init(&rep);
    sn_buf_init(&pack);
    if ((rc = sn_bench_job_host_first(job, &first, &err))) {
        status = c->rank == 0 ? cli_fail(&err) : sn_exit_code(err.code);
        goto out;
    }
    if (first) {
        rc = health_run_bounded(c, job, &rep, &err);
        cli_health_rows(&rep, host, &mine, &nmine, &cap);
        /* what the probes found before they stopped stays; that they
         * stopped is said, and the measurements still count */
        if (rc)
            sn_store_health_add(&mine, &nmine, &cap, host, "doctor", "WARN",
                                NULL, err.msg,
                                "run 'supernode doctor' on the host to see "
                                "why");
        /* what does not fit the gather's cap is left out, and said (a
         * node has about a hundred checks, far below it) */
        sn_store_health_pack(mine, nmine, host, SN_BENCH_GATHER_MAX - 4096,
                             &pack);
    }
    if ((rc = sn_bench_job_gather(job, pack.data, pack.len, &all, &offs,
                                  &err))) {
        status = c->rank == 0 ? cli_fail(&err) : sn_exit_code(err.code);
        goto out;
    }
    if (c->rank != 0)
        goto out;
    for (int r = 0; r < sn_bench_job_size(job) && !status; r++)
        if (health_unpack(c, &hcap, r, all + offs[r], offs[r + 1] - offs[r],
                          &err))
            status = cli_fail(&err);
    if (!status && c->st && c->stored_run && !c->store_lost && c->nhealth &&
        sn_store_health_put(c->st, c->stored_run, c->health, c->nhealth, &err))
        store_failed(c, &err); /* kept in c->health for the spool */
out:
    free(all);
    free(offs);
    sn_buf_release(&pack);
    sn_store_health_release(mine, nmine);
    sn_health_report_release(&rep);
    return status;
}

/* Point the probes (every rank, before the job: a bad option or spec
 * ends every rank the same way, before anything is measured). */
static int health_prepare(struct check_cli *c, const struct sn_spec *spec)
{
    struct sn_error err;

    sn_health_config_init(&c->hcfg);
    if (cli_health_setup(&c->hopts, &c->hcfg, &c->matrix, &err))
        goto fail;
    c->hcfg.matrix = c->matrix;
    /* the design's expectations of a node, by the rule doctor --spec
     * uses: its `node:` section over the defaults the rest of the spec
     * gives (accelerators per node from the scale-up section); a design
     * of CPU ranks says node: {accelerators: 0} */
    if (sn_health_node_from_spec(spec, &c->node, &err))
        goto fail;
    c->hcfg.node = &c->node;
    return SN_EXIT_OK;
fail:
    return c->rank == 0 ? cli_fail(&err) : sn_exit_code(err.code);
}

/* ---- judging
 * --------------------------------------------------------------------- */

/* Write the whole run (results, findings, node health) as a "supernode.run"
 * document that `runs import` stores later: beside the database, else in
 * the working directory; written atomically. Says where it went. Returns
 * an exit status. */
static int spool_run(struct check_cli *c, const struct sn_run *run,
                     const struct sn_results *rs,
                     const struct sn_store_finding *f, size_t nf)
{
    struct sn_render_run whole = {run, rs, f, nf, c->health, c->nhealth};
    const char *db = c->st ? sn_store_path(c->st) : c->db;
    struct sn_buf doc, path;
    char stamp[32];
    size_t k = 0;
    int rc = SN_EXIT_RUN;

    sn_buf_init(&doc);
    sn_buf_init(&path);
    sn_render_run_json(&whole, &doc);
    for (const char *p = run->started; *p && k + 1 < sizeof(stamp); p++)
        if (*p != '-' && *p != ':')
            stamp[k++] = *p;
    stamp[k] = '\0';
    for (int where = 0; where < 2 && rc; where++) {
        sn_buf_reset(&path);
        if (where == 0 && db && db[0])
            sn_buf_printf(&path, "%s.run-%s-%ld.json", db, stamp,
                          (long)getpid());
        else if (where == 1)
            sn_buf_printf(&path, "supernode-run-%s-%ld.json", stamp,
                          (long)getpid());
        else
            continue;
        rc = cli_write(path.data, &doc);
    }
    if (!rc) {
        fprintf(stderr,
                "supernode: check: the run (%zu results) is kept in %s: "
                "store it with 'supernode runs import \"%s\"%s%s%s'\n",
                rs->n, path.data, path.data, c->db ? " --db \"" : "",
                c->db ? c->db : "", c->db ? "\"" : "");
        if (c->stored_run)
            fprintf(stderr,
                    "supernode: check: run %" PRId64 " in the database "
                    "stays incomplete\n",
                    c->stored_run);
    } else {
        fprintf(stderr, "supernode: check: the run could not be kept: "
                        "its results are lost\n");
    }
    sn_buf_release(&path);
    sn_buf_release(&doc);
    return rc;
}

static int judge(struct check_cli *c, const struct sn_spec *spec,
                 const struct sn_topo *t, struct sn_store *st,
                 const struct sn_run *run, const struct sn_results *rs,
                 int64_t store_as)
{
    double *expected = sn_xcalloc(rs->n + 1, sizeof(double));
    const char **source = sn_xcalloc(rs->n + 1, sizeof(char *));
    struct sn_baseline bl;
    bool have_bl = false;
    struct sn_diag_input in;
    struct sn_diag_report *rep = NULL;
    struct sn_store_finding *sf = NULL;
    struct sn_error err;
    struct sn_buf out;
    int rc = SN_EXIT_OK, spool_rc = SN_EXIT_OK;

    sn_buf_init(&out);
    memset(&bl, 0, sizeof(bl));
    if (c->baseline) {
        if (sn_store_baseline_get(st, c->baseline, &bl, &err)) {
            rc = cli_fail(&err);
            goto out;
        }
        have_bl = true;
        if (bl.spec_hash[0] && strcmp(bl.spec_hash, run->spec_hash))
            fprintf(stderr,
                    "supernode: check: note: baseline '%s' was taken on "
                    "spec %s (hash %s), this run on %s (hash %s)\n",
                    bl.name, bl.spec_name, bl.spec_hash, run->spec_name,
                    run->spec_hash);
    }
    if (sn_diag_expect(t, run->backend, rs, expected, source, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    /* pairs of ranks that shared a host the spec separates never crossed
     * the designed links (--allow-colocated) */
    for (size_t i = 0; c->place.colocated && i < rs->n; i++) {
        const struct sn_result *r = &rs->items[i];
        if (r->subject == SN_SUBJECT_PAIR &&
            sn_bench_placement_colocated(&c->place, (int)r->a, (int)r->b)) {
            expected[i] = NAN;
            source[i] = sn_expect_colocated_note;
        }
    }
    memset(&in, 0, sizeof(in));
    in.topo = t;
    in.results = rs;
    in.expected = expected;
    in.expected_source = source;
    in.baseline = have_bl ? &bl : NULL;
    in.health = c->health;
    in.nhealth = c->nhealth;
    if (sn_diag_run(&in, &rep, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    if (store_as || c->measuring) {
        sf = sn_xcalloc(rep->n + 1, sizeof(*sf));
        for (size_t i = 0; i < rep->n; i++) {
            const struct sn_finding *f = &rep->findings[i];
            sn_strlcpy(sf[i].severity, sn_severity_name(f->severity),
                       sizeof(sf[i].severity));
            sn_strlcpy(sf[i].kind, sn_finding_kind_name(f->kind),
                       sizeof(sf[i].kind));
            sn_strlcpy(sf[i].subject, f->subject, sizeof(sf[i].subject));
            sn_strlcpy(sf[i].label, f->label, sizeof(sf[i].label));
            sf[i].summary = f->evidence;
        }
    }
    if (store_as &&
        sn_store_run_finish(st, store_as, sn_severity_name(rep->verdict), sf,
                            rep->n, &err)) {
        /* the verdict and --json/--junit still come; a recorded run is
         * still in its file or the store, so its exit says it failed */
        if (c->measuring)
            store_failed(c, &err);
        else
            spool_rc = cli_fail(&err);
        store_as = 0;
    }
    if (c->measuring && c->store_lost) {
        /* the measurement outlives the store: the whole judged run in a
         * file, and --json and --junit below as always */
        struct sn_run done = *run;
        done.id = 0;
        done.complete = true;
        if (c->begun.started[0]) /* when the measuring began */
            sn_strlcpy(done.started, c->begun.started, sizeof(done.started));
        sn_strlcpy(done.verdict, sn_severity_name(rep->verdict),
                   sizeof(done.verdict));
        sn_store_timestamp(done.finished, sizeof(done.finished));
        spool_rc = spool_run(c, &done, rs, sf, rep->n);
        store_as = 0;
    }
    if (store_as || (run->id && !c->store_lost))
        sn_render_run_line(store_as ? store_as : run->id, spec->name, run,
                           &out);
    sn_render_diag_text(rep, c->verbose, &out);
    if (st)
        cli_run_events(st, run, c->health, c->nhealth, &out);
    cli_print(&out);
    if (c->json || c->junit) {
        /* both or neither: a failed JUnit write leaves the JSON as it
         * was */
        struct sn_buf js, ju;
        struct sn_output outs[2];
        size_t n = 0;
        sn_buf_init(&js);
        sn_buf_init(&ju);
        if (c->json) {
            sn_render_diag_json(rep,
                                store_as        ? store_as
                                : c->store_lost ? 0
                                                : run->id,
                                spec->name, &js);
            outs[n++] = (struct sn_output){c->json, js.data, js.len};
        }
        if (c->junit) {
            sn_render_diag_junit(rep, spec->name, &ju);
            outs[n++] = (struct sn_output){c->junit, ju.data, ju.len};
        }
        rc = cli_write_set(outs, n);
        sn_buf_release(&ju);
        sn_buf_release(&js);
        if (rc)
            goto out;
    }
    /* a run kept in neither the store nor a spool file, or a recorded
     * run that could not be stored, is a runtime failure whatever its
     * verdict */
    rc = spool_rc                      ? spool_rc
         : rep->verdict == SN_SEV_FAIL ? SN_EXIT_CHECK
                                       : SN_EXIT_OK;
out:
    free(sf);
    sn_diag_report_free(rep);
    sn_baseline_release(&bl);
    sn_buf_release(&out);
    free(expected);
    free(source);
    return rc;
}

/* What a recorded run judged here differs in from the design it is
 * judged against: said, never silent. */
static void run_notes(const struct sn_spec *spec, const struct sn_topo *t,
                      const struct sn_run *run)
{
    char hash[20];

    if ((uint64_t)run->ranks > t->naccel)
        fprintf(stderr,
                "supernode: check: note: the run has %d ranks, the spec %zu "
                "accelerators\n",
                run->ranks, t->naccel);
    /* another design than the one it was measured on: allowed (a spec
     * revised since), but its expectations may not be the run's */
    snprintf(hash, sizeof(hash), "%016" PRIx64, spec->hash);
    if (run->spec_hash[0] && strcmp(run->spec_hash, hash))
        fprintf(stderr,
                "supernode: check: note: the run was measured on spec '%s' "
                "(hash %s) and is judged against '%s' (hash %s): the design "
                "may not be the one it ran on\n",
                run->spec_name[0] ? run->spec_name : "-", run->spec_hash,
                spec->name ? spec->name : "-", hash);
}

/* Judge a stored run (--run) or one read from a file (--results): no
 * MPI, no measurement. */
static int check_recorded(struct check_cli *c, const struct sn_spec *spec,
                          const struct sn_topo *t)
{
    struct sn_store *st = NULL;
    struct sn_run run;
    struct sn_results rs;
    struct sn_store_finding *f = NULL;
    size_t nf = 0, len = 0;
    struct sn_error err;
    char *text = NULL;
    int64_t store_as = 0;
    int rc, store_rc = SN_EXIT_OK;

    sn_results_init(&rs);
    if (c->results) {
        if (sn_read_file(c->results, SN_YAML_MAX_BYTES, &text, &len, &err) ||
            sn_store_run_parse(c->results, text, len, &run, &rs, &f, &nf,
                               &c->health, &c->nhealth, &err)) {
            free(text);
            return cli_fail(&err);
        }
        free(text);
        sn_store_findings_release(f, nf);
    }
    if (c->results && c->no_store && !c->baseline) {
        run_notes(spec, t, &run);
        rc = judge(c, spec, t, NULL, &run, &rs, 0);
        goto out;
    }
    /* a stored run judged again, or a file judged against a baseline
     * only, reads the database; a file stored as a new run writes it */
    rc = cli_store_open(
        c->db, c->results && !c->no_store ? CLI_DB_WRITE : CLI_DB_READ, &st);
    if (rc)
        goto out;
    if (c->db_wait >= 0)
        sn_store_set_wait(st, (double)c->db_wait);
    if (c->run_id &&
        (sn_store_run_get(st, c->run_id, &run, &err) ||
         sn_store_results_get(st, c->run_id, &rs, &err) ||
         sn_store_health_get(st, c->run_id, &c->health, &c->nhealth, &err))) {
        rc = cli_fail(&err);
        goto out;
    }
    if (c->results && !c->no_store) {
        /* the file's run becomes a stored run, judged here */
        run.complete = false;
        run.verdict[0] = '\0';
        if (sn_store_run_put(st, &run, rs.items, rs.n, NULL, 0, c->health,
                             c->nhealth, &err)) {
            /* the run is still in its file; it is judged and --json and
             * --junit written all the same, and the exit says it was not
             * stored */
            store_rc = cli_fail(&err);
            fprintf(stderr,
                    "supernode: check: not stored; the run stays "
                    "in %s\n",
                    c->results);
        } else {
            store_as = run.id;
        }
    }
    run_notes(spec, t, &run);
    rc = judge(c, spec, t, st, &run, &rs, store_as);
    if (store_rc && rc != SN_EXIT_USAGE)
        rc = store_rc;
out:
    sn_results_release(&rs);
    sn_store_close(st);
    return rc;
}

static int check_measure(struct check_cli *c, const struct sn_spec *spec,
                         const struct sn_topo *t)
{
    struct sn_bench_job *job = NULL;
    struct sn_bench_opts o;
    struct sn_bench_results res;
    struct sn_results rs;
    struct sn_run run;
    struct sn_error err;
    int rc, status = SN_EXIT_OK;

    sn_bench_results_init(&res);
    sn_results_init(&rs);
    if (!sn_bench_backend_available(c->backend)) {
        if (c->rank == 0)
            fprintf(stderr,
                    "supernode: check: the %s backend is not "
                    "available: %s\n",
                    sn_bench_backend_name(c->backend),
                    sn_bench_backend_why(c->backend));
        return SN_EXIT_RUN;
    }
    if ((rc = sn_bench_job_new(&job, &err)))
        return cli_fail(&err);
    c->rank = sn_bench_job_rank(job);
    if ((size_t)sn_bench_job_size(job) > t->naccel) {
        status = bad(c,
                     "the job has %d ranks but the spec %zu "
                     "accelerators (one rank per accelerator)",
                     sn_bench_job_size(job), t->naccel);
        goto agree;
    }
    /* the ranks where the spec puts them, or every figure would blame
     * the wrong part (two ranks on one host read as a slow fabric) */
    if ((status =
             cli_placement(job, spec, c->allow_colocated, "check", &c->place)))
        goto agree;
    /* outputs that cannot be written are found before the measuring,
     * not after it */
    if (c->rank == 0) {
        const char *outs[] = {c->json, c->junit};
        status = cli_outputs_check(outs, SN_ARRAY_LEN(outs));
        if (status)
            goto agree;
    }
    /* rank 0 records the run before measuring: a run that dies stays in
     * the store, marked incomplete */
    if (c->rank == 0 && (!c->no_store || c->baseline))
        status = cli_store_open(c->db, c->no_store ? CLI_DB_READ : CLI_DB_WRITE,
                                &c->st);
    if (c->st && c->db_wait >= 0)
        sn_store_set_wait(c->st, (double)c->db_wait);
    c->measuring = c->rank == 0 && !c->no_store;
    if (c->measuring && !status) {
        run_record(c, spec, NULL, &run);
        run.ranks = sn_bench_job_size(job);
        sn_strlcpy(run.backend, sn_bench_backend_name(c->backend),
                   sizeof(run.backend));
        /* a store that cannot take the run now does not stop the
         * measuring: the run is kept in a file at the end */
        if (sn_store_run_begin(c->st, &run, &err))
            store_failed(c, &err);
        else
            c->stored_run = run.id;
        c->begun = run;
    }
agree:
    /* every rank goes on only if rank 0 could record the run */
    status = sn_bench_job_agree(job, status);
    if (status)
        goto out;
    /* the nodes before the measurements: the probes do not disturb them,
     * and what they find is stored even if the run dies */
    if (!c->no_doctor) {
        status = sn_bench_job_agree(job, check_health(c, job));
        if (status)
            goto out;
    }
    suite_opts(c, t, spec, &o);
    o.on_abort = on_abort;
    o.cb_ctx = c;
    o.catch_signals = true;
    if (c->rank == 0)
        o.progress = on_progress;
    rc = sn_bench_run(job, &o, &res, &err);
    cli_progress_end(&c->progress);
    if (rc) {
        status = c->rank == 0 ? cli_fail(&err) : sn_exit_code(err.code);
        goto out;
    }
    if (c->rank == 0) {
        for (size_t i = 0; i < res.n; i++)
            sn_bench_result_store(&res.items[i], res.nranks, &rs);
        run_record(c, spec, &res, &run);
        run.id = c->stored_run;
        if (c->measuring && !c->store_lost &&
            sn_store_add_results(c->st, c->stored_run, rs.items, rs.n, &err))
            store_failed(c, &err);
        for (size_t i = 0; i < res.nnotes; i++)
            fprintf(stderr, "supernode: check: note: %s\n", res.notes[i]);
        status = judge(c, spec, t, c->st, &run, &rs,
                       c->store_lost ? 0 : c->stored_run);
    }
    status = sn_bench_job_agree(job, status);
out:
    sn_results_release(&rs);
    sn_bench_results_release(&res);
    sn_store_close(c->st);
    c->st = NULL;
    sn_bench_job_free(job);
    return status;
}

static int check_run(int argc, char **argv)
{
    struct check_cli c;
    struct sn_spec spec;
    struct sn_topo *t = NULL;
    struct sn_error err;
    int rc;

    memset(&c, 0, sizeof(c));
    c.rank = cli_launcher_rank();
    if ((rc = parse_args(&c, argc, argv)))
        return rc;
    if (c.nccl_log) /* NCCL's choices against the spec; nothing measured */
        return cli_nccl_log(c.nccl_log, c.spec_path, SN_FORMAT_TABLE, c.json);
    /* every rank reads the spec: bad input ends every rank the same way */
    if (sn_spec_load(c.spec_path, &spec, &err))
        return c.rank == 0 ? cli_fail(&err) : sn_exit_code(err.code);
    if (sn_topo_build(&spec, &t, &err)) {
        rc = c.rank == 0 ? cli_fail(&err) : sn_exit_code(err.code);
        goto out;
    }
    if (c.run_id || c.results) {
        rc = check_recorded(&c, &spec, t);
    } else {
        if (!c.no_doctor && (rc = health_prepare(&c, &spec)))
            goto out;
        rc = check_measure(&c, &spec, t);
    }
out:
    sn_bench_placement_release(&c.place);
    sn_store_health_release(c.health, c.nhealth);
    sn_health_matrix_free(c.matrix);
    sn_topo_free(t);
    sn_spec_release(&spec);
    return rc;
}

const struct sn_cmd sn_cmd_check = {
    "check",
    "--spec SPEC [--suite quick|full] [--baseline NAME] [--db PATH] "
    "[--json FILE] [--junit FILE] [--run ID | --results FILE] "
    "[--no-doctor | --fsroot DIR --nvml LIB|none --matrix FILE] | "
    "--nccl-log FILE [--spec SPEC] [--json FILE]",
    "acceptance check: measure, store, judge, name the device or cable",
    "Run under mpirun with one rank per accelerator, ranks in the spec's\n"
    "order (mpirun -np N supernode check --spec SPEC). Runs the node-health\n"
    "checks of 'supernode doctor' once on every host, measures the suite,\n"
    "stores the run with both, then judges every result against the\n"
    "design, the baseline and its peers, localises slow pairs to the links\n"
    "that explain them, and prints the findings, strongest first, each with\n"
    "its evidence and the next step, and each host's health. A doctor FAIL\n"
    "is a finding; its WARNs are shown, not findings. Exit 1 on any FAIL.\n\n"
    "  --suite quick|full    quick: GEMM, memory, every pair, one\n"
    "                        all-reduce; full: every test the backend has\n"
    "  --baseline NAME       also compare with this baseline\n"
    "  --db PATH             results database (default\n"
    "                        $XDG_DATA_HOME/supernode/results.db)\n"
    "  --json FILE           findings as \"" SN_SCHEMA_CHECK "\" JSON\n"
    "  --junit FILE          verdicts as JUnit XML for CI\n"
    "  --backend cpu|cuda    the bench backend (cpu)\n"
    "  --tests LIST          only these bench tests "
    "(compute,memory,pairs,...)\n"
    "  --iters N             timed iterations per measurement\n"
    "  --run ID              judge a stored run again (no measuring)\n"
    "  --results FILE        judge a \"" SN_SCHEMA_RUN
    "\" document, stored as\n"
    "                        a new run unless --no-store\n"
    "  --no-store            do not record the run\n"
    "  --db-wait S           how long a write waits for another process\n"
    "                        holding the database (default 60); past it\n"
    "                        the run is kept in a file for 'runs import'\n"
    "  --no-doctor           skip the node-health checks\n"
    "  -v, --verbose         list every node-health SKIP (else counted)\n"
    "  --allow-colocated     run though ranks share hosts the spec gives\n"
    "                        them apart (else exit 2 naming them): their\n"
    "                        pairs get no design value, and a finding says so\n"
    "  --fsroot DIR          the checks read sysfs and procfs under DIR\n"
    "  --nvml LIB|none       the NVML library they load (none: no GPU\n"
    "                        checks; default $SN_NVML_LIBRARY or the\n"
    "                        driver's)\n"
    "  --matrix FILE         allowed version combinations (YAML)\n"
    "                        (as 'supernode doctor' has them)\n"
    "  --doctor-timeout S    end the job when a host's checks take longer\n"
    "                        (a probe stuck in the driver; default 300)\n"
    "  --nccl-log FILE       judge an NCCL_DEBUG=INFO log instead of a run:\n"
    "                        network, transport per peer, GPUDirect RDMA,\n"
    "                        NVLS, channels against the spec (nccl.log.*)\n",
    check_run,
};
