/* bench.h: measurement. Compute, memory, host-device, pair and collective
 * tests run as one MPI job (one rank per device) on a backend (cpu:
 * OpenBLAS, STREAM-like kernels, MPI; cuda: cuBLASLt, CUDA kernels, NCCL),
 * every sample kept, robust statistics, nccl-tests metric definitions.
 *
 * Ownership: sn_bench_job_new() returns a heap object freed with
 * sn_bench_job_free(). sn_bench_run() fills a caller-owned struct
 * sn_bench_results that sn_bench_results_release() frees, samples
 * included. Nothing returned borrows from the options.
 *
 * Ranks: rank r of the job is the topology's accelerator rank r. On rank 0
 * the results hold every rank's results, gathered after each test; other
 * ranks hold none (they return the same code).
 *
 * To add a test: 1. enum sn_bench_test and its row in the name table in
 * src/lib/bench/names.c  2. its runner in runner.c beside the others
 * 3. the backend hooks it needs (struct sn__bench_backend in
 * src/lib/bench/bench-int.h)  4. its table in report.c
 * 5. docs/bench.md and docs/metrics.md  6. a case in tests/bench/suite.sh.
 */
#ifndef SN_BENCH_H
#define SN_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sn/model.h"
#include "sn/spec.h"
#include "sn/store.h"
#include "sn/util.h"

enum sn_bench_test {
    SN_BENCH_COMPUTE,   /* GEMM per device, per data type */
    SN_BENCH_MEMORY,    /* copy, scale, add, triad on device memory */
    SN_BENCH_H2D,       /* host to device, pinned and pageable, per NUMA */
    SN_BENCH_D2H,       /* device to host */
    SN_BENCH_PAIRS,     /* uni/bidirectional bandwidth, latency per pair */
    SN_BENCH_AGGREGATE, /* all pairs of a round at once vs isolated */
    SN_BENCH_COLL,      /* nccl-tests collectives over a size sweep */
    SN_BENCH_LATENCY,   /* small-message latency distributions */
    SN_BENCH_TEST_COUNT
};

enum sn_bench_backend {
    SN_BENCH_CPU,  /* always built */
    SN_BENCH_CUDA, /* built with HAVE_CUDA */
};

/* Data types by the names people use; nccl-tests' names are accepted
 * too ("float", "half", "bfloat16"). */
enum sn_bench_dtype {
    SN_DT_FP64,
    SN_DT_FP32,
    SN_DT_TF32, /* fp32 storage, tf32 tensor-core math (cuda GEMM) */
    SN_DT_BF16,
    SN_DT_FP16,
    SN_DT_FP8, /* e4m3 (cuda GEMM on compute capability 8.9+) */
    SN_DT_INT32,
    SN_DT_COUNT
};

enum sn_bench_redop { SN_REDOP_SUM, SN_REDOP_MAX, SN_REDOP_MIN };

/* Device and host state read before and after a test; fields that could
 * not be read are NaN (numbers) or empty (strings). */
struct sn_bench_state {
    double cpu_freq_hz; /* mean current frequency over the rank's CPUs */
    char governor[16];  /* cpufreq governor of the rank's first CPU */
    double cpu_temp_c;  /* hottest thermal zone */
    double sm_clock_hz; /* accelerator clocks (NVML) */
    double mem_clock_hz;
    double temp_c;      /* accelerator temperature */
    double power_w;     /* accelerator board power */
    uint64_t throttle;  /* NVML clocks event reasons bit mask */
    bool throttle_read; /* throttle holds NVML's answer (0 = none) */
    bool valid;         /* read at all */
};

/* One measured figure with its parameters, statistics and raw samples.
 * Samples are seconds per operation; the statistics are over the value
 * each sample gives in `unit` (work / seconds, or the seconds themselves
 * when unit is "s"). The headline value is stats.median. */
struct sn_bench_result {
    enum sn_bench_test test;
    char op[24];             /* gemm, copy, triad, h2d, uni, bidir, latency,
                                allreduce, aggregate, ... */
    enum sn_subject subject; /* the store's: device (rank), pair (rank ->
                                peer), group (nranks of them) */
    int rank;                /* the device, or the pair's source */
    int peer;                /* the pair's destination; -1 otherwise */
    int nranks;              /* ranks taking part */
    int round;               /* tournament round; -1 when not in rounds */
    char host[64];           /* host of rank */
    char peer_host[64];      /* host of peer, or empty */
    char device[96];         /* "NVIDIA H100 80GB HBM3 (0000:1b:00.0)" */
    /* parameters; -1 or empty where they do not apply */
    char dtype[12];
    char redop[8];
    uint64_t bytes; /* buffer or message size (nccl-tests size) */
    uint64_t count; /* elements */
    int64_t gemm_m, gemm_n, gemm_k;
    int threads;
    int numa;    /* host NUMA node of the host buffer */
    int pinned;  /* 1 pinned, 0 pageable */
    int inplace; /* 1 in-place, 0 out-of-place */
    int root;
    int concurrent; /* 1 measured with other pairs at once */
    /* what was measured */
    char metric[16]; /* flops, bandwidth, latency, time, aggregate */
    char unit[8];    /* FLOP/s, B/s, s */
    double work;     /* FLOPs or bytes per operation; 0 for times */
    struct sn_stats stats;
    double time;           /* median seconds per operation */
    double algbw, busbw;   /* coll: nccl-tests definitions, B/s; else 0 */
    double ref;            /* aggregate: sum of the isolated pairs, B/s */
    long long wrong;       /* elements found wrong; -1 when not checked */
    double expected;       /* design value in `unit` (--spec); 0 = none */
    char expected_src[48]; /* "catalog hbm_bw", "sim coll", ... */
    bool complete;         /* every planned sample was taken */
    int ci_met;            /* --until-ci: 1 reached, 0 stopped at the
                              cap; -1 when not asked for */
    struct sn_bench_state before, after;
    double *samples; /* seconds per operation, owned */
    size_t nsamples;
};

/* One rank of the job. */
struct sn_bench_rank {
    int rank;
    int local_rank; /* among the ranks of its host */
    char host[64];
    char device[96];
    /* --lock-clocks: the clocks this rank's GPU was held at, MHz; 0 when
     * its clocks were not locked */
    unsigned locked_sm_mhz, locked_mem_mhz;
};

/* Library and driver versions; empty strings where not applicable. */
struct sn_bench_versions {
    char tool[16];
    char mpi[160];
    char blas[160];
    char cuda_runtime[16];
    char cuda_driver[16];
    char driver[32]; /* the GPU driver (NVML), or empty */
    char nccl[16];
    char kernel[64];
};

/* How the clock behaves: the measured granularity (smallest non-zero step
 * between two reads) and the cost of one read, both seconds. */
struct sn_bench_timer {
    char name[48];
    double resolution; /* clock_getres() or the event resolution */
    double granularity;
    double overhead;
};

/* How a run sampled, as resolved from the options (defaults filled). */
struct sn_bench_sampling {
    int warmup, iters, latency_iters;
    double until_ci; /* fraction; 0 = off */
    int max_iters;   /* cap with until_ci */
    double timeout;  /* seconds per test */
    bool check;      /* collective data checked */
    bool isolated;   /* pairs one at a time */
};

/* Everything a run produced. On rank 0 it holds every rank's results. */
struct sn_bench_results {
    struct sn_bench_result *items;
    size_t n, cap;
    struct sn_bench_rank *ranks;
    int nranks;
    char backend[8];
    struct sn_bench_versions versions;
    struct sn_bench_timer timer;
    int mpi_thread_level; /* what MPI provided (MPI_THREAD_*) */
    bool complete;        /* false when the run was cut short */
    char abort_test[16];  /* the test that was running when it was */
    char abort_msg[512];
    char **notes; /* skipped tests and other remarks, owned */
    size_t nnotes;
    double started; /* seconds since the epoch */
    double elapsed; /* seconds */
    struct sn_bench_sampling sampling;
};

/* Test-only faults (documented as such in docs/bench.md): make one rank
 * hang, die (SIGKILL, as the OOM killer or a crash would end it) or
 * corrupt the data it checks, to prove the timeout, abort and
 * correctness paths. */
enum sn_bench_fault {
    SN_FAULT_NONE,
    SN_FAULT_HANG,
    SN_FAULT_CORRUPT,
    SN_FAULT_DIE
};

struct sn_bench_inject {
    enum sn_bench_fault fault;
    int rank;
    int test;     /* enum sn_bench_test, or -1 for any */
    bool in_loop; /* hang, die: inside a timed loop, not at the
                     start */
};

/* Why the run ends early, for the abort callback. */
struct sn_bench_abort {
    int rank;    /* rank reporting */
    int culprit; /* the rank found behind, or -1 */
    const char *test;
    const char *message;
};

struct sn_bench_opts {
    enum sn_bench_backend backend;
    /* tests to run, in order; none = all that the backend supports */
    enum sn_bench_test tests[SN_BENCH_TEST_COUNT];
    size_t ntests;
    /* sampling */
    int warmup;        /* untimed iterations before each section */
    int iters;         /* timed iterations (the first batch) */
    int latency_iters; /* for the latency test */
    double until_ci;   /* keep sampling until the 95% CI half-width is
                          under this fraction of the median; 0 = off */
    int max_iters;     /* cap on samples with until_ci */
    double timeout;    /* seconds per test before the job ends */
    /* sizes; 0 = the backend's default */
    uint64_t min_bytes, max_bytes; /* coll sweep (nccl-tests -b -e) */
    double step_factor;            /* -f */
    uint64_t pair_bytes;           /* pairs and aggregate message size */
    uint64_t lat_bytes;            /* latency message size (8) */
    uint64_t mem_bytes;            /* memory: bytes per array */
    uint64_t host_bytes;           /* h2d/d2h transfer size */
    int gemm_size;                 /* m = n = k */
    int threads;                   /* cpu threads per rank; 0 = affinity */
    /* test parameters */
    enum sn_bench_dtype gemm_dtypes[SN_DT_COUNT];
    size_t ngemm_dtypes; /* 0 = the backend's list */
    enum sn_bench_dtype coll_dtype;
    enum sn_bench_redop redop;
    int root;
    unsigned coll_ops; /* bit (1 << enum sn_coll_op); 0 = all */
    bool isolated;     /* pairs one at a time */
    bool check;        /* data correctness (default on) */
    /* where /proc and /sys are read from ("" = "/") */
    const char *fsroot;
    /* the NVML library the device state is read through (dlopen()ed;
     * the driver's "libnvidia-ml.so.1" by default; "" or NULL: none) */
    const char *nvml_library;
    /* expected values; NULL = none */
    const struct sn_spec *spec;
    /* where the ranks ran (sn_bench_job_placement); pairs of ranks that
     * share a host the spec separates get no expected value. NULL: not
     * checked */
    const struct sn_bench_placement *placement;
    /* cuda backend: a directory of this rank's where NCCL writes its
     * topology dump (nccl-topo.xml, rank 0) and debug log (nccl-<rank>.log)
     * for the run, read back into notes against the spec. The backend
     * sets NCCL_TOPO_DUMP_FILE, NCCL_DEBUG, NCCL_DEBUG_SUBSYS and
     * NCCL_DEBUG_FILE before NCCL starts, each only when the user has not
     * set it. NULL: none */
    const char *nccl_dir;
    struct sn_bench_inject inject;
    /* lock each rank's GPU clocks for the run (NVML, root) and restore
     * them at its end, on error and on a signal; sm_mhz, mem_mhz 0: the
     * highest the GPU supports. The GPU is the backend's device (cuda),
     * else the local_rank-th GPU NVML lists on the host. */
    bool lock_clocks;
    unsigned lock_sm_mhz, lock_mem_mhz;
    /* bench power: the sweep instead of the tests (one rank only) */
    const struct sn_bench_power_plan *power;
    /* callbacks, all optional. progress: one line per section (rank 0).
     * on_abort: the run is being cut short (a rank hung past the timeout,
     * or the job was signalled); partial holds the results gathered so
     * far, marked incomplete; after it returns the job ends with
     * MPI_Abort(3). Called from the watchdog thread. */
    void (*progress)(void *ctx, const char *line);
    void (*on_abort)(void *ctx, const struct sn_bench_results *partial,
                     const struct sn_bench_abort *why);
    void *cb_ctx;
    /* turn SIGTERM/SIGINT into on_abort (the CLI sets it) */
    bool catch_signals;
};

/* ---- power: GEMM throughput against power limits (bench power) -------- */

#define SN_BENCH_POWER_MAX 32 /* points in one sweep */
/* "within 5% of full performance": the design notes' trade of "a few
 * percent of performance for a fifth less power" (docs/bench.md) */
#define SN_BENCH_POWER_KNEE 0.95

/* One point of the curve: the setting and what it gave. */
struct sn_bench_power_point {
    double limit_w;  /* power limit set, W (0 in a clock sweep) */
    unsigned sm_mhz; /* SM clock locked, MHz (0 in a limit sweep) */
    double flops;    /* GEMM FLOP/s */
    double power_w;  /* mean board power over the GEMM, W */
    double flops_per_w;
};

/* A sweep and its analysis (sn_bench_power_analyse). Indices are into
 * points, -1 when there is none. */
struct sn_bench_power_curve {
    char device[96];
    char dtype[12];
    int gemm_size;
    bool by_clocks;        /* points are locked SM clocks, not limits */
    unsigned mem_mhz;      /* memory clock held in a clock sweep */
    double limit_before_w; /* the limit found, put back after */
    double min_w, max_w;   /* the limit's constraints */
    struct sn_bench_power_point points[SN_BENCH_POWER_MAX];
    size_t n;
    int full; /* the highest throughput */
    int best; /* the most FLOP/s per W */
    int knee; /* the lowest setting within SN_BENCH_POWER_KNEE of full */
};

/* The throughput at one point (the GPU already set): FLOP/s and the
 * seconds it ran, over which the sweep reads the energy counter. */
typedef int (*sn_bench_power_measure_fn)(void *ctx,
                                         const struct sn_bench_power_point *at,
                                         double *flops, double *seconds,
                                         struct sn_error *err);

/* What bench power sweeps: limits_w (W), else steps limits evenly from
 * the GPU's highest allowed limit down to its lowest, or sm_mhz (a clock
 * sweep, memory at its highest clock). The GEMM is dtype at the
 * options' gemm_size, run for `seconds` per point; measure (NULL: the
 * backend's GEMM) stands in for it in tests. The curve goes to out. */
struct sn_bench_power_plan {
    double limits_w[SN_BENCH_POWER_MAX];
    size_t nlimits;
    int steps;
    unsigned sm_mhz[SN_BENCH_POWER_MAX];
    size_t nclocks;
    enum sn_bench_dtype dtype;
    int iters;      /* GEMM calls per timed run (10) */
    double seconds; /* timed runs per point until this long (1 s) */
    sn_bench_power_measure_fn measure;
    void *measure_ctx;
    struct sn_bench_power_curve *out;
};

/* Fill flops_per_w of every point, then full, best and knee. */
void sn_bench_power_analyse(struct sn_bench_power_curve *c);
/* A curve read back from its JSON document (the report's --power):
 * SN_EINPUT, located, when it is not one; analysed again from its
 * points. */
int sn_bench_power_parse(const char *file, const char *text, size_t len,
                         struct sn_bench_power_curve *c, struct sn_error *err);

struct sn_bench_job;

/* Defaults: cpu backend, all tests, 2 warm-up and 20 timed iterations,
 * 10000 latency iterations, no until-ci, 300 s timeout, check on. */
void sn_bench_opts_init(struct sn_bench_opts *o);

/* Join the MPI job: initialise MPI (requesting MPI_THREAD_MULTIPLE, which
 * the watchdog uses to find a hung rank) unless the caller already did,
 * then duplicate MPI_COMM_WORLD so bench traffic never mixes with the
 * caller's. A process started without mpirun is a job of one rank.
 * SN_ERUNTIME when MPI fails. */
int sn_bench_job_new(struct sn_bench_job **out, struct sn_error *err);
/* Leave the job; finalises MPI only when sn_bench_job_new initialised it.
 * NULL does nothing. */
void sn_bench_job_free(struct sn_bench_job *job);
int sn_bench_job_rank(const struct sn_bench_job *job);
/* Rank 0's value, on every rank (a collective call): how the ranks of a
 * job leave with one exit status. */
int sn_bench_job_agree(struct sn_bench_job *job, int value);
int sn_bench_job_size(const struct sn_bench_job *job);
/* End the whole job now with exit status code (MPI_Abort), from any
 * thread: what a caller does when this rank cannot go on and the others
 * would wait for it forever. Does not return. */
_Noreturn void sn_bench_job_abort(struct sn_bench_job *job, int code);
/* The host name this rank runs on (gethostname()). */
const char *sn_bench_job_host(const struct sn_bench_job *job);
/* Whether this rank is the lowest rank of those whose host has its host
 * name, so that work done once per host (its health checks) is done once
 * (a collective call). SN_ERUNTIME when MPI fails. */
int sn_bench_job_host_first(struct sn_bench_job *job, bool *first,
                            struct sn_error *err);

/* Where the ranks of a job run against where the spec puts them. Every
 * rank is the spec's accelerator of the same index (ranks in the
 * supernode, node, local-index order of the topology); its node is
 * rank / per_node. With the spec's hosts: each rank's host is its node's;
 * without: the ranks of one node share a host and nodes do not (mpirun's
 * order). Caller-owned; zero-initialised is releasable. */
struct sn_bench_placement {
    size_t mismatches; /* ranks off their place */
    bool colocated;    /* ranks of different nodes share a host */
    char what[640];    /* the first few, in words */
    int nranks;
    int *host_of; /* per rank: an index of its host name */
    int *node_of; /* per rank: its node in the spec */
};
/* Learn every rank's host and hold it against spec (a collective call;
 * the verdict on every rank, the words on rank 0). SN_OK with
 * p->mismatches set; SN_ERUNTIME when MPI fails. */
int sn_bench_job_placement(struct sn_bench_job *job, const struct sn_spec *spec,
                           struct sn_bench_placement *p, struct sn_error *err);
/* Whether ranks a and b share a host that the spec gives them apart. */
bool sn_bench_placement_colocated(const struct sn_bench_placement *p, int a,
                                  int b);
void sn_bench_placement_release(struct sn_bench_placement *p);

/* The most bytes one rank may give sn_bench_job_gather(). */
#define SN_BENCH_GATHER_MAX ((size_t)1 << 20)

/* Gather len bytes of data from every rank to rank 0 (a collective call:
 * every rank calls it, with its own data, len 0 for none). On rank 0, *all
 * holds the ranks' bytes one after the other in rank order, with a NUL
 * after the last, and *offs the job size + 1 offsets into it: rank r's
 * bytes are all[offs[r]] up to all[offs[r + 1]]. Both are heap arrays the
 * caller frees; NULL on the other ranks and on failure. When a rank has
 * more than SN_BENCH_GATHER_MAX bytes nothing is gathered and every rank
 * returns SN_EINPUT (rank 0's message names the rank); SN_ERUNTIME when
 * MPI fails. */
int sn_bench_job_gather(struct sn_bench_job *job, const void *data, size_t len,
                        char **all, size_t **offs, struct sn_error *err);

/* Run the tests in opts on every rank of the job (all ranks call it with
 * the same options). Fills *res (caller-owned; release it) on every rank,
 * with the results on rank 0. Returns SN_OK, SN_EINPUT for options that
 * cannot run (a pair test on one rank is a note, not an error),
 * SN_ENOTSUP for a backend not built, SN_ERUNTIME for MPI/device
 * failures. A hang does not return: see on_abort. */
int sn_bench_run(struct sn_bench_job *job, const struct sn_bench_opts *opts,
                 struct sn_bench_results *res, struct sn_error *err);

void sn_bench_results_init(struct sn_bench_results *res);
void sn_bench_results_release(struct sn_bench_results *res);
/* Deep copy (samples and notes included) into a released *dst. */
void sn_bench_results_copy(struct sn_bench_results *dst,
                           const struct sn_bench_results *src);

/* Elements found wrong over every result (0 when nothing was wrong or
 * nothing was checked). */
long long sn_bench_wrong(const struct sn_bench_results *res);

/* ---- histograms (the statistics are util.h's struct sn_stats) ------- */

/* Histogram with 4 bins per octave: bin b holds values in
 * [2^((b0+b)/4), 2^((b0+b+1)/4)) of `scale` units (1e-9 for seconds in
 * ns). Fills at most nbins counts; returns the bins used and the first
 * bin's lower edge in *first_edge (in the values' unit). */
size_t sn_bench_histogram(const double *x, size_t n, double scale,
                          uint64_t *counts, size_t nbins, double *first_edge);

/* ---- schedules ---------------------------------------------------------- */

/* Rounds a tournament of n ranks needs: n - 1 when n is even, n when odd
 * (one rank sits out each round). */
int sn_bench_rounds(int n);
/* partner[r] in round `round` (0-based) of the circle-method tournament,
 * or -1 for the rank that sits out. Over all rounds every unordered pair
 * meets exactly once. */
void sn_bench_tournament(int n, int round, int *partner);

/* ---- against the design ------------------------------------------------ */

/* Set expected and expected_src of results r[0 .. n) of one job of
 * job_size ranks on backend to what the design expects of them
 * (sn_expect_design, expect.h: the values check judges against): spec's
 * catalog; pairs, aggregates and collectives on topology t (NULL: the
 * catalog's values only); pairs of ranks that placement (may be NULL)
 * finds colocated get none. A pair result's round and concurrent say
 * which pairs shared its links. Results the design says nothing of are
 * left as they were. Errors: sn_expect_design()'s (results unchanged). */
int sn_bench_expect(const struct sn_spec *spec, const struct sn_topo *t,
                    enum sn_bench_backend backend,
                    const struct sn_bench_placement *placement, int job_size,
                    struct sn_bench_result *r, size_t n, struct sn_error *err);

/* ---- as store results ---------------------------------------------------- */

/* Append r, a result of a job of nranks ranks, to out as a store result
 * (nothing for a result without samples): test "<test>.<op>", the
 * parameters typed (the store derives the "k=v" list from them), the
 * subject's ranks, the round only for pairs measured at
 * once (SN_STORE_NO_RANK otherwise), samples as values in the result's
 * unit (work / time), and a collective's times as nccl-tests bus
 * bandwidth ("coll.<op>.busbw", B/s). The samples are copied. */
void sn_bench_result_store(const struct sn_bench_result *r, int nranks,
                           struct sn_results *out);

/* ---- names ------------------------------------------------------------- */

const char *sn_bench_test_name(enum sn_bench_test t);
/* SN_EINPUT with a suggestion when the name is unknown. */
int sn_bench_test_parse(const char *name, enum sn_bench_test *out,
                        struct sn_error *err);
const char *sn_bench_dtype_name(enum sn_bench_dtype d);
/* nccl-tests' name of a type ("float", "bfloat16"). */
const char *sn_bench_dtype_nccl_name(enum sn_bench_dtype d);
size_t sn_bench_dtype_size(enum sn_bench_dtype d);
int sn_bench_dtype_parse(const char *name, enum sn_bench_dtype *out,
                         struct sn_error *err);
const char *sn_bench_redop_name(enum sn_bench_redop op);
int sn_bench_redop_parse(const char *name, enum sn_bench_redop *out,
                         struct sn_error *err);
const char *sn_bench_backend_name(enum sn_bench_backend b);
int sn_bench_backend_parse(const char *name, enum sn_bench_backend *out,
                           struct sn_error *err);
/* True when the backend can be used: cpu always; cuda when the build had
 * CUDA and its plugin (supernode-cuda.so beside the executable) loads. */
bool sn_bench_backend_available(enum sn_bench_backend b);
/* Why a backend is not available (a line for messages), or "". */
const char *sn_bench_backend_why(enum sn_bench_backend b);
/* The libraries backend b was built with, without starting MPI or a job:
 * MPI and BLAS (cpu), CUDA runtime, NCCL and cuBLASLt (cuda, when its
 * plugin loads). SN_ENOTSUP with the reason when the backend is not
 * there. */
int sn_bench_backend_versions(enum sn_bench_backend b,
                              struct sn_bench_versions *v,
                              struct sn_error *err);

/* ---- kernel tables (`bench kernels`) -----------------------------------
 */

#define SN_BENCH_KERNELS_MAX_ITERS 1000

/* What `bench kernels` measures: the shipped reference table's shapes,
 * each dimension divided by `scale` (a CPU runs GPU shapes too slowly),
 * `iters` timed samples of each after a warm-up, on `backend`. */
struct sn_bench_kernels_opts {
    enum sn_bench_backend backend;
    int scale; /* 1 to 1024; default 8 */
    int iters; /* 1 to SN_BENCH_KERNELS_MAX_ITERS; default 5 */
};

void sn_bench_kernels_opts_init(struct sn_bench_kernels_opts *o);

/* Measures the kernel table (sn/kernels.h) on this machine: one row per
 * reference shape at the median sample's FLOP/s, for `sim train
 * --kernels` (sn_kernels_format writes it). The cpu backend only
 * (SN_ENOTSUP otherwise); SN_EINPUT for options out of range. The table
 * is the caller's, freed with sn_kernels_free(). */
struct sn_kernel_table;
int sn_bench_kernels(const struct sn_bench_kernels_opts *o,
                     struct sn_kernel_table **out, struct sn_error *err);

#endif
