/* bench-int.h: what the bench module's files share: the MPI job, the run
 * context, the backend interface and the watchdog. Library-internal. */
#ifndef SN_BENCH_INT_H
#define SN_BENCH_INT_H

#if !defined(SN_MODULE_bench) && !defined(SN_TESTS)
#error "private to src/lib/bench (tests/layers/table)"
#endif

#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>

#include "sn/bench.h"

/* Tags on the control communicator. */
enum { SN_TAG_QUERY = 101, SN_TAG_REPLY = 102, SN_TAG_FAIL = 103 };

struct sn_bench_job {
    MPI_Comm comm; /* data traffic: a duplicate of MPI_COMM_WORLD */
    MPI_Comm ctl;  /* watchdog queries, never used by tests */
    int rank, size;
    int local_rank, local_size;
    int thread_level;
    bool we_initialized; /* finalise on free */
    char host[64];
};

/* What a rank is doing, for the watchdog and for a hung-rank query. */
struct sn__bench_where {
    uint32_t section; /* global sync points passed (same on all ranks) */
    int32_t iter;     /* iteration within the timed loop, -1 outside */
    char label[80];   /* "coll allreduce 1048576 B out-of-place" */
};

struct sn__bench_ctx;
struct sn__hw_nvml;       /* ../hw/hw-int.h */
struct sn__hw_clock_hold; /* ../hw/hw-int.h */
struct nvmlDevice_st;     /* NVML's device handle (nvmlDevice_t) */

enum sn__stream_kernel {
    SN_K_COPY,  /* c = a        2 arrays moved */
    SN_K_SCALE, /* b = q c      2 */
    SN_K_ADD,   /* c = a + b    3 */
    SN_K_TRIAD, /* a = b + q c  3 */
    SN_K_COUNT
};

enum sn__p2p_mode {
    SN_P2P_SEND,  /* send `bytes`, wait for a 1-element ack; timed here */
    SN_P2P_RECV,  /* the other side of SEND */
    SN_P2P_BIDIR, /* send and receive `bytes` at once; timed on both */
    SN_P2P_PING,  /* ping-pong initiator; sample = round trip / 2 */
    SN_P2P_PONG,  /* ping-pong responder */
};

/* A backend: device setup and the timed loops. Every loop function runs
 * `iters` iterations and writes seconds per iteration into t[0..iters),
 * calling sn__tick() each iteration. Buffers are the backend's. */
struct sn__bench_backend {
    const char *name;
    /* defaults when the options leave a size at 0 */
    uint64_t mem_bytes, pair_bytes, host_bytes, min_bytes, max_bytes;
    int gemm_size;
    const enum sn_bench_dtype *gemm_dtypes;
    size_t ngemm_dtypes;
    /* open: this rank's device (no communication: a rank without a
     * device must not leave the others waiting); connect (optional): the
     * collective set-up every rank takes part in, once all opened */
    int (*open)(struct sn__bench_ctx *c, struct sn_error *err);
    int (*connect)(struct sn__bench_ctx *c, struct sn_error *err);
    void (*close)(struct sn__bench_ctx *c);
    /* optional: the clock behind the samples when it is not the host's */
    void (*timer)(struct sn__bench_ctx *c, struct sn_bench_timer *t);
    void (*versions)(struct sn__bench_ctx *c, struct sn_bench_versions *v);
    void (*state)(struct sn__bench_ctx *c, struct sn_bench_state *st);
    /* NULL when the backend cannot; the reason goes in a note */
    const char *(*gemm_unsupported)(struct sn__bench_ctx *c,
                                    enum sn_bench_dtype dt);
    int (*gemm)(struct sn__bench_ctx *c, enum sn_bench_dtype dt, int size,
                int iters, double *t, struct sn_error *err);
    int (*stream)(struct sn__bench_ctx *c, enum sn__stream_kernel k,
                  uint64_t bytes, int iters, double *t, struct sn_error *err);
    /* host <-> device; NULL on backends without device memory */
    int (*host_numa_nodes)(struct sn__bench_ctx *c);
    int (*hostcopy)(struct sn__bench_ctx *c, bool h2d, bool pinned, int numa,
                    uint64_t bytes, int iters, double *t, struct sn_error *err);
    /* point-to-point between this rank and peer */
    int (*p2p)(struct sn__bench_ctx *c, enum sn__p2p_mode mode, int peer,
               uint64_t bytes, int iters, double *t, struct sn_error *err);
    /* one collective of `count` elements per rank buffer (the nccl-tests
     * count), timed per iteration on this rank */
    int (*coll)(struct sn__bench_ctx *c, enum sn_coll_op op,
                enum sn_bench_dtype dt, enum sn_bench_redop redop, int root,
                uint64_t count, bool inplace, int iters, double *t,
                struct sn_error *err);
    /* optional: false for variants the backend cannot run (NCCL has no
     * in-place alltoall or sendrecv); NULL = all */
    bool (*coll_variant_ok)(enum sn_coll_op op, bool inplace);
    /* one more collective on fresh data, then count wrong elements here;
     * corrupt flips one output element first (test-only fault) */
    int (*coll_check)(struct sn__bench_ctx *c, enum sn_coll_op op,
                      enum sn_bench_dtype dt, enum sn_bench_redop redop,
                      int root, uint64_t count, bool inplace, bool corrupt,
                      long long *wrong, struct sn_error *err);
    /* make sure buffers hold at least `bytes` per buffer */
    int (*reserve)(struct sn__bench_ctx *c, uint64_t bytes,
                   struct sn_error *err);
    /* optional: bytes of memory this rank's device has, once open (0:
     * unknown); NULL for a backend whose buffers are host memory */
    uint64_t (*device_memory)(struct sn__bench_ctx *c);
    /* largest message one transfer may move (0: no limit) */
    uint64_t max_message;
};

extern const struct sn__bench_backend sn__bench_cpu;
/* The backend for a kind, or NULL when it is not built in. */
const struct sn__bench_backend *sn__bench_backend_for(enum sn_bench_backend b);

/* The run: one per sn_bench_run() call. */
struct sn__bench_ctx {
    struct sn_bench_job *job;
    struct sn_bench_opts o; /* resolved: no zeros left */
    const struct sn__bench_backend *be;
    void *bs;                     /* the backend's state */
    struct sn_bench_results *res; /* rank 0: all results */
    pthread_mutex_t lock;         /* guards res against the watchdog */
    /* this rank's results of the current test, gathered at its end */
    struct sn_bench_result *local;
    size_t nlocal, local_cap;
    char device[96];
    int threads; /* cpu threads of this rank */
    double t0;   /* sn_now() when the run began */
    /* rank 0, with --spec: the design's topology for the expectations
     * of pairs and collectives (sn_expect_design), built on first use */
    struct sn_topo *topo;
    bool topo_tried;
    /* NVML, opened on first use with o.nvml_library (state.c) */
    struct sn__hw_nvml *nvml;
    bool nvml_tried;
    /* the device's PCI bus id for NVML, "" when the backend has none */
    char pci[32];
    /* what this rank changed on its GPU (clocks.c), undone by the run's
     * end or by the watchdog's abort (fire), under hold_lock */
    struct sn__hw_clock_hold *hold;
    pthread_mutex_t hold_lock;
    /* watchdog */
    _Atomic uint32_t section;
    _Atomic int32_t iter;
    pthread_mutex_t where_lock;
    char label[80];
    char test[16];
    _Atomic double test_start; /* sn_now() at the test's start */
    _Atomic int stop;          /* watchdog: end */
    _Atomic int aborting;
    pthread_t watchdog;
    bool watchdog_running;
    int sigpipe[2];
    bool hang_in_loop; /* test-only: hang at iteration 2 */
};

/* Record the iteration a loop is at; the test-only in-loop hang (or
 * death) fires here. Cheap: one relaxed store and a predictable branch. */
void sn__bench_hang(struct sn__bench_ctx *c);
static inline void sn__tick(struct sn__bench_ctx *c, int i)
{
    atomic_store_explicit(&c->iter, i, memory_order_relaxed);
    if (c->hang_in_loop && i == 2)
        sn__bench_hang(c);
}

/* job.c: sync points, gathering, watchdog */
void sn__bench_where(struct sn__bench_ctx *c, const char *fmt, ...)
    SN_PRINTF(2, 3);
int sn__bench_sync(struct sn__bench_ctx *c, struct sn_error *err);
int sn__bench_gather(struct sn__bench_ctx *c, struct sn_error *err);
/* A rank failed mid-run (device or MPI error): the other ranks may wait
 * for it forever, so the job ends like a timeout, naming the rank and the
 * test; rank 0 writes what it has. Does not return. */
void sn__bench_fail(struct sn__bench_ctx *c, const struct sn_error *err);
int sn__bench_watch_start(struct sn__bench_ctx *c, struct sn_error *err);
void sn__bench_watch_stop(struct sn__bench_ctx *c);
int sn__bench_mpi_error(int rc, const char *call, const char *file, int line,
                        struct sn_error *err);
#define SN_MPI(call, err)                                                      \
    sn__bench_mpi_error((call), #call, __FILE__, __LINE__, (err))

/* results.c */
struct sn_bench_result *sn__bench_local_add(struct sn__bench_ctx *c);
void sn__bench_result_init(struct sn_bench_result *r);
void sn__bench_result_release(struct sn_bench_result *r);
/* Set samples (copied), work and unit, and compute the statistics. */
void sn__bench_result_samples(struct sn_bench_result *r, const double *t,
                              size_t n, double work, const char *metric,
                              const char *unit);
void sn__bench_results_add(struct sn_bench_results *res,
                           const struct sn_bench_result *r);
void sn__bench_results_note(struct sn_bench_results *res, const char *fmt, ...)
    SN_PRINTF(2, 3);
/* Serialise results for MPI (same binary on every rank). */
void sn__bench_pack(const struct sn_bench_result *r, size_t n,
                    struct sn_buf *out);
int sn__bench_unpack(const char *data, size_t len, struct sn_bench_results *res,
                     struct sn_error *err);

/* state.c: device and host state, under fsroot */
void sn__bench_state_cpu(const char *fsroot, struct sn_bench_state *st);
void sn__bench_cpu_model(const char *fsroot, char *buf, size_t size);
void sn__bench_kernel_version(char *buf, size_t size);
/* Bytes of the largest cache level CPU 0 reports, or 0 when unknown. */
double sn__bench_llc_bytes(const char *fsroot);
/* Bytes of physical memory of this host (not of --fsroot: what this
 * process allocates from), and this process's address-space limit
 * (UINT64_MAX when unlimited). */
uint64_t sn__bench_host_memory(void);
uint64_t sn__bench_address_limit(void);
/* The device state and the driver version through NVML (the hardware
 * layer, opened on first use); false when the library or device is
 * absent. sn__bench_nvml_close ends the context's use of it. */
bool sn__bench_nvml_state(struct sn__bench_ctx *c, const char *pci_bus_id,
                          struct sn_bench_state *st);
bool sn__bench_nvml_driver(struct sn__bench_ctx *c, char *buf, size_t size);
void sn__bench_nvml_close(struct sn__bench_ctx *c);
/* The context's NVML (opened on first use), or NULL. */
struct sn__hw_nvml *sn__bench_nvml(struct sn__bench_ctx *c);

/* clocks.c: this rank's GPU held for the run */
/* Lock the rank's GPU clocks as c->o asks (nothing when it does not).
 * SN_EINPUT for clocks the GPU does not support (the message lists the
 * ones it does), SN_ERUNTIME when NVML refuses (not root: said so),
 * SN_ENOTSUP without NVML, a GPU or the entry points. */
int sn__bench_clocks_lock(struct sn__bench_ctx *c, struct sn_error *err);
/* Undo what the rank holds; safe from the watchdog thread and more than
 * once. Once the run is aborting the hold stays locked after it, so that
 * nothing sets the GPU again. SN_ERUNTIME when NVML refused a step (every
 * step is tried). */
int sn__bench_clocks_restore(struct sn__bench_ctx *c, struct sn_error *err);
/* The NVML library and this rank's GPU: the backend's device by PCI bus
 * id (cuda), else the local_rank-th GPU NVML lists; the hold made ready.
 * SN_ENOTSUP without NVML or a GPU, SN_ERUNTIME when NVML fails. */
int sn__bench_gpu(struct sn__bench_ctx *c, struct sn__hw_nvml **n,
                  struct nvmlDevice_st **dev, struct sn_error *err);
/* The clocks the rank's GPU is held at, MHz (0: not locked). */
void sn__bench_clocks_held(struct sn__bench_ctx *c, unsigned *sm_mhz,
                           unsigned *mem_mhz);

/* power.c: the sweep on GPU dev of NVML n, what it changes recorded in
 * hold under lock: each point set, measured with fn (a warm-up call, then
 * a timed one over which the energy counter gives the power), the GPU
 * put back at the end, on error too; then the curve analysed. SN_EINPUT
 * for a plan the GPU's constraints refuse, SN_ERUNTIME / SN_ENOTSUP when
 * NVML refuses (not root: said so), fn's errors. */
int sn__bench_power_sweep(struct sn__hw_nvml *n, struct nvmlDevice_st *dev,
                          struct sn__hw_clock_hold *hold, pthread_mutex_t *lock,
                          const struct sn_bench_power_plan *plan,
                          sn_bench_power_measure_fn fn, void *ctx,
                          struct sn_bench_power_curve *c, struct sn_error *err);
/* bench power in a run (c->o.power): the sweep on this rank's GPU with
 * the backend's GEMM (or the plan's measure). One rank only. */
int sn__bench_power_run(struct sn__bench_ctx *c, struct sn_error *err);

/* timer.c */
void sn__bench_timer_probe(struct sn_bench_timer *t);

/* runner.c: timed sections with warm-up and --until-ci */
typedef int (*sn__bench_loop_fn)(struct sn__bench_ctx *c, void *arg, int iters,
                                 double *t, struct sn_error *err);

/* ---- timed sections and the tests (runner.c, tests.c) -------------------- */

/* How the ranks of a timed section put their samples together. */
enum sn__bench_combine {
    C_NONE,     /* this rank's samples only */
    C_FROM,     /* the pair's source sends its samples to the other side */
    C_MAX_PEER, /* per iteration, the slower side of the pair */
    C_MAX_ALL,  /* per iteration, the slowest rank (nccl-tests -I) */
};

/* One timed section: the loop, how to combine, how many samples. */
struct sn__bench_measure {
    sn__bench_loop_fn fn;
    void *arg;
    enum sn__bench_combine how;
    int peer;
    bool source; /* C_FROM: this side holds the samples */
    double work; /* per sample, for the CI on the value; 0 = times */
    int warmup, iters;
};

/* The phases of a pair test, in the order they run. */
enum sn__bench_phase {
    PH_UNI_LO,
    PH_UNI_HI,
    PH_BIDIR,
    PH_LAT_LO,
    PH_LAT_HI,
    PH_N
};

/* A section everyone enters together: label it, tell the user (rank 0),
 * and synchronise. Returns sn__bench_sync()'s code. */
int sn__bench_section(struct sn__bench_ctx *c, struct sn_error *err,
                      const char *fmt, ...) SN_PRINTF(3, 4);
/* A note in the results (rank 0; the others say nothing). */
void sn__bench_note(struct sn__bench_ctx *c, const char *fmt, ...)
    SN_PRINTF(2, 3);
/* A new result of this rank on test (owned by the context). */
struct sn_bench_result *sn__bench_result_new(struct sn__bench_ctx *c,
                                             enum sn_bench_test test,
                                             const char *op, const char *metric,
                                             const char *unit);
/* Make r a pair result with peer, measured in round, at once with the
 * round's other pairs or not. */
void sn__bench_pair_subject(struct sn__bench_ctx *c, struct sn_bench_result *r,
                            int peer, int round, bool concurrent);
/* Take m's samples into r (NULL: this rank keeps none) around the
 * backend's state. Errors: the loop's and MPI's. */
int sn__bench_measured(struct sn__bench_ctx *c,
                       const struct sn__bench_measure *m,
                       struct sn_bench_result *r, struct sn_error *err);
/* One phase of a pair test for this rank, whose partner is peer (-1:
 * this rank sits the phase out). */
int sn__bench_pair_phase(struct sn__bench_ctx *c, enum sn_bench_test test,
                         enum sn__bench_phase ph, int peer, int round,
                         bool concurrent, int lat_iters, struct sn_error *err);
/* The tests of tests.c, one per enum sn_bench_test but the collectives
 * and latency (runner.c): each runs on every rank. */
int sn__bench_test_compute(struct sn__bench_ctx *c, struct sn_error *err);
int sn__bench_test_memory(struct sn__bench_ctx *c, struct sn_error *err);
int sn__bench_test_h2d(struct sn__bench_ctx *c, struct sn_error *err);
int sn__bench_test_d2h(struct sn__bench_ctx *c, struct sn_error *err);
int sn__bench_test_pairs(struct sn__bench_ctx *c, struct sn_error *err);
int sn__bench_test_aggregate(struct sn__bench_ctx *c, struct sn_error *err);

#endif
