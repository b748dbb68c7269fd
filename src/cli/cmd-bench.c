/* cmd-bench.c: `supernode bench TEST...`: the measurement engine as a
 * command, run under mpirun or srun with one rank per device. Rank 0
 * prints the tables and writes the JSON; progress goes to stderr when it
 * is a terminal. */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli-health.h"
#include "cli-nccl.h"
#include "cmd.h"

struct bench_cli {
    struct sn_bench_opts o;
    const char *json;
    const char *spec;
    int rank; /* once the job is joined */
    struct cli_progress progress;
    bool allow_colocated; /* --allow-colocated */
    struct sn_bench_placement place;
};

static void on_progress(void *ctx, const char *line)
{
    struct bench_cli *b = ctx;

    cli_progress_line(&b->progress, "bench", line);
}

/* The run is being cut short (called from the watchdog thread): write
 * what rank 0 has, marked incomplete, and say why. */
static void on_abort(void *ctx, const struct sn_bench_results *partial,
                     const struct sn_bench_abort *why)
{
    struct bench_cli *b = ctx;

    cli_progress_end(&b->progress);
    fprintf(stderr, "supernode: bench: %s\n", why->message);
    if (b->rank == 0) {
        struct sn_buf out;
        sn_buf_init(&out);
        sn_render_bench_text(partial, &out);
        cli_print(&out);
        if (b->json) {
            sn_buf_reset(&out);
            sn_render_bench_json(partial, &out);
            if (cli_write(b->json, &out) == SN_EXIT_OK)
                fprintf(stderr,
                        "supernode: bench: partial results "
                        "(marked incomplete) written to %s\n",
                        b->json);
        }
        sn_buf_release(&out);
    }
    fflush(stdout);
    fflush(stderr);
}

static int bad(struct bench_cli *b, const char *fmt, ...) SN_PRINTF(2, 3);
static int bad(struct bench_cli *b, const char *fmt, ...)
{
    va_list ap;

    if (b->rank != 0)
        return SN_EXIT_USAGE;
    fputs("supernode: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return SN_EXIT_USAGE;
}

static int parse_size(struct bench_cli *b, const char *opt, const char *v,
                      uint64_t *out)
{
    struct sn_error err;

    if (sn_unit_parse_size(v, out, &err))
        return bad(b, "%s: %s", opt, err.msg);
    /* 0 is what "not given" looks like inside: it would silently become
     * the backend's default */
    if (*out == 0)
        return bad(b,
                   "%s: a size of 0 bytes (give at least 1, such as 8 "
                   "or 1M)",
                   opt);
    return SN_EXIT_OK;
}

static int parse_int(struct bench_cli *b, const char *opt, const char *v,
                     long long min, long long max, int *out)
{
    struct sn_error err;
    long long x;

    if (sn_parse_long(v, min, max, &x, &err))
        return bad(b, "%s: %s", opt, err.msg);
    *out = (int)x;
    return SN_EXIT_OK;
}

/* KIND:rank=R[,test=T][,at=loop] */
static int parse_inject(struct bench_cli *b, const char *v)
{
    struct sn_bench_inject *in = &b->o.inject;
    char buf[128], *save = NULL, *kv;
    const char *colon = strchr(v, ':');
    size_t klen = colon ? (size_t)(colon - v) : strlen(v);
    struct sn_error err;

    if (klen == 4 && !strncmp(v, "hang", 4))
        in->fault = SN_FAULT_HANG;
    else if (klen == 7 && !strncmp(v, "corrupt", 7))
        in->fault = SN_FAULT_CORRUPT;
    else if (klen == 3 && !strncmp(v, "die", 3))
        in->fault = SN_FAULT_DIE;
    else
        return bad(b,
                   "--inject: unknown fault '%.40s' (expected "
                   "hang:rank=R, die:rank=R or corrupt:rank=R)",
                   v);
    in->rank = -1;
    sn_strlcpy(buf, colon ? colon + 1 : "", sizeof(buf));
    for (save = buf; (kv = sn_tok_next(&save, ','));) {
        long long x;
        if (sn_startswith(kv, "rank=")) {
            if (sn_parse_long(kv + 5, 0, 1 << 20, &x, &err))
                return bad(b, "--inject: rank: %s", err.msg);
            in->rank = (int)x;
        } else if (sn_startswith(kv, "test=")) {
            enum sn_bench_test t;
            if (sn_bench_test_parse(kv + 5, &t, &err))
                return bad(b, "--inject: %s", err.msg);
            in->test = (int)t;
        } else if (!strcmp(kv, "at=loop")) {
            in->in_loop = true;
        } else {
            return bad(b,
                       "--inject: unknown setting '%s' (expected "
                       "rank=R, test=T or at=loop)",
                       kv);
        }
    }
    if (in->rank < 0)
        return bad(b, "--inject: which rank? (%s:rank=R)",
                   in->fault == SN_FAULT_HANG  ? "hang"
                   : in->fault == SN_FAULT_DIE ? "die"
                                               : "corrupt");
    return SN_EXIT_OK;
}

static int parse_list(struct bench_cli *b, const char *opt, const char *v,
                      bool dtypes)
{
    char buf[256], *item, *next;
    struct sn_error err;

    if (strlen(v) >= sizeof(buf))
        return bad(b, "%s: a list longer than %zu characters", opt,
                   sizeof(buf) - 1);
    sn_strlcpy(buf, v, sizeof(buf));
    /* every item named: an empty list would mean "all", an empty item
     * is a typo */
    for (item = buf; item; item = next) {
        next = strchr(item, ',');
        if (next)
            *next++ = '\0';
        if (!*item)
            return bad(b,
                       "%s: an empty name in '%s' (expected a "
                       "comma-separated list)",
                       opt, v);
        if (dtypes) {
            enum sn_bench_dtype d;
            if (sn_bench_dtype_parse(item, &d, &err))
                return bad(b, "%s: %s", opt, err.msg);
            if (b->o.ngemm_dtypes < SN_DT_COUNT)
                b->o.gemm_dtypes[b->o.ngemm_dtypes++] = d;
        } else {
            enum sn_coll_op op;
            if (sn_coll_op_parse(item, &op, &err))
                return bad(b, "%s: %s", opt, err.msg);
            b->o.coll_ops |= 1u << op;
        }
    }
    return SN_EXIT_OK;
}

/* A TEST word: added once, in the order given. */
static int parse_test(struct bench_cli *b, const char *a)
{
    struct sn_bench_opts *o = &b->o;
    struct sn_error err;
    enum sn_bench_test t;
    bool dup = false;

    if (sn_bench_test_parse(a, &t, &err))
        return bad(b, "%s", err.msg);
    for (size_t k = 0; k < o->ntests; k++)
        dup |= o->tests[k] == t;
    if (!dup) {
        assert(o->ntests < SN_ARRAY_LEN(o->tests));
        o->tests[o->ntests++] = t;
    }
    return SN_EXIT_OK;
}

/* --lock-clocks[=SM:MEM] or --lock-clocks [SM:MEM]: the value is taken
 * when it starts with a digit (a TEST word never does); *used says
 * whether v was. */
static int parse_lock_clocks(struct bench_cli *b, const char *a, const char *v,
                             bool *used)
{
    const char *eq = strchr(a, '=');
    struct sn_error err;
    long long sm, mem;
    char buf[32], *colon;

    *used = false;
    b->o.lock_clocks = true;
    if (eq)
        v = eq + 1;
    else if (v && *v >= '0' && *v <= '9')
        *used = true;
    else
        return SN_EXIT_OK; /* the GPU's highest clocks */
    sn_strlcpy(buf, v, sizeof(buf));
    colon = strchr(buf, ':');
    if (colon)
        *colon = '\0';
    if (!colon || strlen(v) >= sizeof(buf) ||
        sn_parse_long(buf, 1, 100000, &sm, &err) ||
        sn_parse_long(colon + 1, 1, 100000, &mem, &err))
        return bad(b,
                   "--lock-clocks: '%s' is not SM:MEM in MHz (such as "
                   "1980:2619; without a value, the highest supported)",
                   v);
    b->o.lock_sm_mhz = (unsigned)sm;
    b->o.lock_mem_mhz = (unsigned)mem;
    return SN_EXIT_OK;
}

/* The options that take no value; *done says whether a was one.
 * check_given: -c 1: 1; -c 0 or --no-check: -1. */
static int parse_flag(struct bench_cli *b, const char *a, int *check_given,
                      bool *done)
{
    *done = true;
    if (!strcmp(a, "--isolated")) {
        b->o.isolated = true;
    } else if (!strcmp(a, "--allow-colocated")) {
        b->allow_colocated = true;
    } else if (!strcmp(a, "--no-check")) {
        if (*check_given > 0)
            return bad(b, "-c 1 and --no-check contradict each other; "
                          "give one");
        b->o.check = false;
        *check_given = -1;
    } else {
        *done = false;
    }
    return SN_EXIT_OK;
}

/* The options whose value is a size or a whole number in a range:
 * their names and where the value goes in struct sn_bench_opts. */
static const struct {
    const char *name, *alias;
    bool size; /* a size (uint64_t); else an int in min..max */
    long long min, max;
    size_t off;
} num_opts[] = {
    {"-b", "--minbytes", true, 0, 0, offsetof(struct sn_bench_opts, min_bytes)},
    {"-e", "--maxbytes", true, 0, 0, offsetof(struct sn_bench_opts, max_bytes)},
    {"-r", "--root", false, 0, 1 << 24, offsetof(struct sn_bench_opts, root)},
    {"-n", "--iters", false, 1, 10000000,
     offsetof(struct sn_bench_opts, iters)},
    {"-w", "--warmup", false, 0, 10000000,
     offsetof(struct sn_bench_opts, warmup)},
    {"--latency-iters", NULL, false, 1, 10000000,
     offsetof(struct sn_bench_opts, latency_iters)},
    {"--max-iters", NULL, false, 1, 10000000,
     offsetof(struct sn_bench_opts, max_iters)},
    {"--size", NULL, true, 0, 0, offsetof(struct sn_bench_opts, pair_bytes)},
    {"--lat-size", NULL, true, 0, 0, offsetof(struct sn_bench_opts, lat_bytes)},
    {"--mem-size", NULL, true, 0, 0, offsetof(struct sn_bench_opts, mem_bytes)},
    {"--host-size", NULL, true, 0, 0,
     offsetof(struct sn_bench_opts, host_bytes)},
    {"--gemm-size", NULL, false, 1, 65536,
     offsetof(struct sn_bench_opts, gemm_size)},
    {"--threads", NULL, false, 1, 4096,
     offsetof(struct sn_bench_opts, threads)},
};

/* A size or number option of num_opts; *done says whether a was one. */
static int parse_number(struct bench_cli *b, const char *a, const char *v,
                        bool *done)
{
    char *base = (char *)&b->o;

    for (size_t k = 0; k < SN_ARRAY_LEN(num_opts); k++) {
        if (strcmp(a, num_opts[k].name) &&
            (!num_opts[k].alias || strcmp(a, num_opts[k].alias)))
            continue;
        *done = true;
        if (num_opts[k].size)
            return parse_size(b, a, v, (uint64_t *)(base + num_opts[k].off));
        return parse_int(b, a, v, num_opts[k].min, num_opts[k].max,
                         (int *)(base + num_opts[k].off));
    }
    *done = false;
    return SN_EXIT_OK;
}

/* --until-ci: a percentage, with or without the sign: 1, 1%, 0.5 */
static int parse_until_ci(struct bench_cli *b, const char *v)
{
    struct sn_error err;
    char num[32];
    double pct;

    sn_strlcpy(num, v, sizeof(num));
    num[strcspn(num, "%")] = '\0';
    if (sn_parse_double(num, &pct, &err) || pct <= 0 || pct >= 100)
        return bad(b,
                   "--until-ci: '%s' is not a percentage above 0 "
                   "and below 100",
                   v);
    b->o.until_ci = pct / 100.0;
    return SN_EXIT_OK;
}

/* --fsroot: as doctor has it, a root that is not a directory is bad
 * input, not an empty machine */
static int parse_fsroot(struct bench_cli *b, const char *v)
{
    struct stat st;
    int rc = SN_EXIT_OK;

    if (stat(v, &st) != 0)
        rc = bad(b, "--fsroot %s: cannot use as root: %s", v, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        rc = bad(b,
                 "--fsroot %s: cannot use as root: not a "
                 "directory",
                 v);
    b->o.fsroot = v;
    return rc;
}

/* The options with a value of their own kind (not a plain size or
 * number); an option bench does not know is a usage error. */
static int parse_value(struct bench_cli *b, const char *a, const char *v,
                       int *check_given)
{
    struct sn_bench_opts *o = &b->o;
    struct sn_error err;
    int rc = SN_EXIT_OK;

    if (!strcmp(a, "--backend")) {
        if (sn_bench_backend_parse(v, &o->backend, &err))
            rc = bad(b, "%s", err.msg);
    } else if (!strcmp(a, "-f") || !strcmp(a, "--stepfactor")) {
        if (sn_parse_double(v, &o->step_factor, &err) || o->step_factor <= 1 ||
            o->step_factor > 1024)
            rc = bad(b, "%s: '%s' is not a step factor above 1", a, v);
    } else if (!strcmp(a, "-d") || !strcmp(a, "--datatype")) {
        if (sn_bench_dtype_parse(v, &o->coll_dtype, &err))
            rc = bad(b, "%s: %s", a, err.msg);
    } else if (!strcmp(a, "-o") || !strcmp(a, "--op")) {
        if (sn_bench_redop_parse(v, &o->redop, &err))
            rc = bad(b, "%s: %s", a, err.msg);
    } else if (!strcmp(a, "-c") || !strcmp(a, "--check")) {
        int on = 1;
        rc = parse_int(b, a, v, 0, 1, &on);
        if (!rc && on && *check_given < 0)
            return bad(b, "-c 1 and --no-check contradict each other; "
                          "give one");
        o->check = on != 0;
        *check_given = on ? 1 : -1;
    } else if (!strcmp(a, "--until-ci")) {
        rc = parse_until_ci(b, v);
    } else if (!strcmp(a, "--timeout")) {
        if (sn_unit_parse(v, SN_UNIT_TIME, true, &o->timeout, &err) ||
            o->timeout <= 0)
            rc = bad(b,
                     "--timeout: '%s' is not a duration such as 30 "
                     "or 5min",
                     v);
    } else if (!strcmp(a, "--dtypes")) {
        rc = parse_list(b, a, v, true);
    } else if (!strcmp(a, "--ops")) {
        rc = parse_list(b, a, v, false);
    } else if (!strcmp(a, "--json")) {
        b->json = v;
    } else if (!strcmp(a, "--spec")) {
        b->spec = v;
    } else if (!strcmp(a, "--fsroot")) {
        rc = parse_fsroot(b, v);
    } else if (!strcmp(a, "--nvml")) {
        o->nvml_library = cli_nvml_library(v);
    } else if (!strcmp(a, "--inject")) {
        rc = parse_inject(b, v);
    } else {
        char hint[80];
        rc = bad(b, "bench: unknown option '%s' (%s)", a,
                 cli_option_hint("bench", a, hint, sizeof(hint)));
    }
    return rc;
}

/* bench's arguments into b: TEST words, flags, and options with a
 * value; the first error ends the parse. */
static int parse_args(struct bench_cli *b, int argc, char **argv)
{
    int rc = SN_EXIT_OK;
    int check_given = 0; /* -c 1: 1; -c 0 or --no-check: -1 */

    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool done;

        if (a[0] != '-') {
            rc = parse_test(b, a);
            continue;
        }
        if (sn_startswith(a, "--lock-clocks") &&
            (a[13] == '\0' || a[13] == '=')) {
            bool used;
            rc = parse_lock_clocks(b, a, v, &used);
            i += used;
            continue;
        }
        rc = parse_flag(b, a, &check_given, &done);
        if (rc || done)
            continue;
        if (!v)
            return bad(b, "%s needs a value", a);
        rc = parse_number(b, a, v, &done);
        if (!rc && !done)
            rc = parse_value(b, a, v, &check_given);
        i++; /* the value */
    }
    return rc;
}

static int bench_run(int argc, char **argv)
{
    struct bench_cli b;
    struct sn_bench_job *job = NULL;
    struct sn_bench_results res;
    struct sn_error err;
    struct sn_buf out;
    struct sn_spec spec;
    char nccl_dir[512];
    bool have_spec = false;
    int rc, status = SN_EXIT_OK;

    if (argc > 1 && !strcmp(argv[1], "power"))
        return cli_bench_power(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "kernels"))
        return cli_bench_kernels(argc - 1, argv + 1);
    memset(&b, 0, sizeof(b));
    sn_bench_opts_init(&b.o);
    if (cli_nvml_library(NULL)) /* $SN_NVML_LIBRARY; --nvml wins */
        b.o.nvml_library = cli_nvml_library(NULL);
    sn_bench_results_init(&res);
    sn_buf_init(&out);
    b.rank = cli_launcher_rank();
    if ((rc = parse_args(&b, argc, argv)))
        return rc;
    if (!sn_bench_backend_available(b.o.backend)) {
        if (b.rank == 0)
            fprintf(stderr,
                    "supernode: bench: the %s backend is not "
                    "available: %s\n",
                    sn_bench_backend_name(b.o.backend),
                    sn_bench_backend_why(b.o.backend));
        return SN_EXIT_RUN;
    }
    if (b.spec) {
        /* every rank reads it: bad input ends every rank the same way */
        if (sn_spec_load(b.spec, &spec, &err))
            return b.rank == 0 ? cli_fail(&err) : sn_exit_code(err.code);
        have_spec = true;
        b.o.spec = &spec;
    }
    if ((rc = sn_bench_job_new(&job, &err))) {
        status = cli_fail(&err);
        goto out;
    }
    b.rank = sn_bench_job_rank(job);
    /* with --spec the figures are the design's only where the ranks sit
     * where it puts them: two ranks on one host read "% of sim 61496" */
    if (have_spec) {
        if ((status = cli_placement(job, &spec, b.allow_colocated, "bench",
                                    &b.place)))
            goto out;
        b.o.placement = &b.place;
    }
    /* an output that cannot be written is found before the measuring,
     * not after it; every rank leaves with rank 0's verdict */
    if (b.rank == 0 && b.json)
        status = cli_outputs_check(&b.json, 1);
    if ((rc = status = sn_bench_job_agree(job, status)))
        goto out;
    b.o.on_abort = on_abort;
    b.o.cb_ctx = &b;
    b.o.catch_signals = true;
    if (b.rank == 0)
        b.o.progress = on_progress;
    /* NCCL's own view of the run, read back by the cuda backend */
    if (b.o.backend == SN_BENCH_CUDA)
        b.o.nccl_dir = cli_nccl_dir(nccl_dir, sizeof(nccl_dir));
    rc = sn_bench_run(job, &b.o, &res, &err);
    cli_progress_end(&b.progress);
    if (rc) {
        /* every rank holds the same error: one says it */
        if (b.rank == 0)
            status = err.code == SN_EINPUT ? (cli_fail(&err), SN_EXIT_USAGE)
                                           : cli_fail(&err);
        else
            status = sn_exit_code(err.code);
        goto out;
    }
    if (b.rank == 0) {
        sn_render_bench_text(&res, &out);
        cli_print(&out);
        if (b.json) {
            sn_buf_reset(&out);
            sn_render_bench_json(&res, &out);
            status = cli_write(b.json, &out);
        }
        if (!status && sn_bench_wrong(&res) > 0) {
            fprintf(stderr,
                    "supernode: bench: %lld wrong elements in the "
                    "collectives' data\n",
                    sn_bench_wrong(&res));
            status = SN_EXIT_CHECK;
        }
    }
out:
    /* every rank leaves with rank 0's verdict on the data */
    if (job && !rc)
        status = sn_bench_job_agree(job, status);
    sn_buf_release(&out);
    sn_bench_results_release(&res);
    sn_bench_placement_release(&b.place);
    sn_bench_job_free(job);
    if (have_spec)
        sn_spec_release(&spec);
    return status;
}

const struct sn_cmd sn_cmd_bench = {
    "bench",
    "[TEST...] [--backend cpu|cuda] [-b MIN -e MAX -f F] [-n ITERS] "
    "[--until-ci PCT] [--spec SPEC] [--json FILE]",
    "measure compute, memory, links and collectives (run under mpirun)",
    "Run one rank per device: mpirun -np N supernode bench [TEST...].\n"
    "Tests: compute memory h2d d2h pairs aggregate coll latency (default: "
    "all).\n"
    "\n"
    "  --backend cpu|cuda    cpu: OpenBLAS, STREAM kernels, MPI; cuda: "
    "cuBLASLt, NCCL\n"
    "  -b, -e SIZE           collective sweep from/to (8, 1K, 16M), as "
    "nccl-tests\n"
    "  -f FACTOR             step factor of the sweep (4)\n"
    "  -d TYPE               collective data type (fp32; fp64, int32, "
    "bf16, fp16)\n"
    "  -o sum|max|min        reduction; -r ROOT for broadcast and reduce\n"
    "  --ops LIST            collectives (allreduce,allgather,"
    "reducescatter,\n"
    "                        alltoall,broadcast,reduce,sendrecv)\n"
    "  --dtypes LIST         GEMM types (cpu: fp64,fp32; cuda: fp64,fp32,"
    "tf32,\n"
    "                        bf16,fp16,fp8)\n"
    "  -n ITERS, -w WARMUP   timed and warm-up iterations per section (20, "
    "2)\n"
    "  --latency-iters N     samples per latency distribution (10000)\n"
    "  --until-ci PCT        sample until the median's 95% CI is within "
    "PCT\n"
    "  --max-iters N         cap on samples with --until-ci (1000)\n"
    "  --isolated            pairs one at a time instead of tournament "
    "rounds\n"
    "  --size SIZE           pair message size; --lat-size SIZE (8)\n"
    "  --mem-size SIZE       memory test bytes per array; --host-size for "
    "h2d/d2h\n"
    "  --gemm-size N         GEMM m = n = k; --threads N per rank (cpu)\n"
    "  -c 0|1, --no-check    collective data check (on)\n"
    "  --timeout TIME        per test; a hung rank ends the job, exit 3 "
    "(300)\n"
    "  --json FILE           results as JSON (schema " SN_SCHEMA_BENCH ")\n"
    "  --allow-colocated     with --spec: run though ranks share hosts the\n"
    "                        spec gives them apart (their pairs get no design\n"
    "                        value); else exit 2 naming them\n"
    "  --spec SPEC           each figure beside the design's value and the\n"
    "                        efficiency (catalog peaks)\n"
    "  --fsroot DIR          read /proc and /sys under DIR\n"
    "  --nvml LIB|none       the NVML library the device state (clocks,\n"
    "                        temperature, power, throttle reasons) is read\n"
    "                        through; default $SN_NVML_LIBRARY or the\n"
    "                        driver's libnvidia-ml.so.1\n"
    "  --lock-clocks [SM:MEM] lock each rank's GPU clocks (MHz; default\n"
    "                        the highest supported) for the run, restored\n"
    "                        at its end, on error and on SIGINT/SIGTERM "
    "(root)\n"
    "  --inject FAULT        test-only: hang:rank=R[,test=T][,at=loop],\n"
    "                        die:rank=R[,test=T][,at=loop] or "
    "corrupt:rank=R\n"
    "\n"
    "supernode bench power [--limits W,W...|--steps N|--clocks MHZ,...]\n"
    "    [--dtype T] [--gemm-size N] [-n ITERS] [--seconds S] [--backend B]\n"
    "    [--json FILE]:\n"
    "  GEMM throughput and power at each power limit (or locked SM clock),\n"
    "  put back after: the efficiency curve, its best point and the lowest\n"
    "  limit within 5% of full performance (one GPU, root; docs/bench.md)\n"
    "\n"
    "supernode bench kernels [--scale N] [-n ITERS] [--output FILE]:\n"
    "  GEMM rates over the kernel table's shapes (each dimension / N), the\n"
    "  table file sim train --kernels reads (cpu backend; docs/model.md)\n"
    "\n"
    "Exit status: 0 ok, 1 wrong data, 2 bad usage, 3 runtime failure or "
    "timeout.\n"
    "Metric definitions: docs/metrics.md.\n",
    bench_run,
};
