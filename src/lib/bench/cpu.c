/* cpu.c: the cpu backend, always built: GEMM through OpenBLAS, STREAM-like
 * kernels on a pool of threads, pair tests over MPI point-to-point and
 * collectives through MPI. Host clock, one sample per iteration. */
#include <cblas.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "bench-int.h"
#include "pattern.h"

_Static_assert(SN_PAT_SENDRECV == (int)SN_COLL_SENDRECV &&
                   SN_PAT_ALLTOALL == (int)SN_COLL_ALLTOALL &&
                   SN_PAT_MIN == (int)SN_REDOP_MIN,
               "pattern.h numbers the collectives as model.h does");

/* STREAM's scalar (stream.c: "scalar = 3.0") */
#define STREAM_SCALAR 3.0

struct pool;

struct cpu {
    /* STREAM arrays and the threads that sweep them */
    double *a, *b, *c;
    uint64_t nelem;
    int nthreads;
    pthread_t *tid;
    pthread_barrier_t start, done;
    int kernel; /* enum sn__stream_kernel, or -1 to quit, -2 to init */
    /* GEMM operands */
    void *ga, *gb, *gc;
    size_t gbytes;
    /* point-to-point and collective buffers */
    char *sbuf, *rbuf;
    uint64_t cap;
};

static const enum sn_bench_dtype cpu_gemm_dtypes[] = {SN_DT_FP64, SN_DT_FP32};

/* An allocation sized by the options failed at run time. */
static int out_of_memory(struct sn_error *err, const char *what, int n,
                         uint64_t bytes)
{
    return sn_error_set(err, SN_ENOMEM,
                        "cannot allocate the %s (%d x %llu bytes): out of "
                        "memory (a memory limit on this process, or other "
                        "work on the host)",
                        what, n, (unsigned long long)bytes);
}

static int affinity_cpus(void)
{
    cpu_set_t set;

    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return 1;
    return CPU_COUNT(&set) > 0 ? CPU_COUNT(&set) : 1;
}

/* The part of [0, n) that thread t of nt sweeps. */
static void chunk(uint64_t n, int t, int nt, uint64_t *lo, uint64_t *hi)
{
    *lo = n * (uint64_t)t / (uint64_t)nt;
    *hi = n * (uint64_t)(t + 1) / (uint64_t)nt;
}

static void sweep(struct cpu *s, int kernel, int t)
{
    uint64_t lo, hi;
    double *restrict a = s->a, *restrict b = s->b, *restrict c = s->c;
    const double q = STREAM_SCALAR;

    chunk(s->nelem, t, s->nthreads, &lo, &hi);
    switch (kernel) {
    case -2: /* first touch by the thread that will sweep the pages */
        for (uint64_t i = lo; i < hi; i++) {
            a[i] = 1.0;
            b[i] = 2.0;
            c[i] = 0.0;
        }
        break;
    case SN_K_COPY:
        for (uint64_t i = lo; i < hi; i++)
            c[i] = a[i];
        break;
    case SN_K_SCALE:
        for (uint64_t i = lo; i < hi; i++)
            b[i] = q * c[i];
        break;
    case SN_K_ADD:
        for (uint64_t i = lo; i < hi; i++)
            c[i] = a[i] + b[i];
        break;
    case SN_K_TRIAD:
        for (uint64_t i = lo; i < hi; i++)
            a[i] = b[i] + q * c[i];
        break;
    }
}

struct worker_arg {
    struct cpu *s;
    int t;
};

static void *worker(void *p)
{
    struct worker_arg *w = p;
    struct cpu *s = w->s;
    int t = w->t;

    free(w);
    for (;;) {
        pthread_barrier_wait(&s->start);
        if (s->kernel == -1)
            break;
        sweep(s, s->kernel, t);
        pthread_barrier_wait(&s->done);
    }
    return NULL;
}

/* Run a kernel on every thread; the calling thread is thread 0. */
static void run_kernel(struct cpu *s, int kernel)
{
    s->kernel = kernel;
    if (s->nthreads > 1)
        pthread_barrier_wait(&s->start);
    sweep(s, kernel, 0);
    if (s->nthreads > 1)
        pthread_barrier_wait(&s->done);
}

static int cpu_open(struct sn__bench_ctx *c, struct sn_error *err)
{
    struct cpu *s = sn_xcalloc(1, sizeof(*s));
    char model[80];

    s->nthreads = c->o.threads > 0 ? c->o.threads : affinity_cpus();
    c->threads = s->nthreads;
    c->bs = s;
    openblas_set_num_threads(s->nthreads);
    if (s->nthreads > 1) {
        pthread_barrier_init(&s->start, NULL, (unsigned)s->nthreads);
        pthread_barrier_init(&s->done, NULL, (unsigned)s->nthreads);
        s->tid = sn_xcalloc((size_t)s->nthreads, sizeof(*s->tid));
        for (int t = 1; t < s->nthreads; t++) {
            struct worker_arg *w = sn_xmalloc(sizeof(*w));
            w->s = s;
            w->t = t;
            if (pthread_create(&s->tid[t], NULL, worker, w) != 0) {
                free(w);
                s->nthreads = t; /* the pool is what started */
                return sn_error_set(err, SN_ERUNTIME,
                                    "bench: cannot start thread %d of %d", t,
                                    c->threads);
            }
        }
    }
    sn__bench_cpu_model(c->o.fsroot, model, sizeof(model));
    snprintf(c->device, sizeof(c->device), "%.72s (%d thread%s)", model,
             s->nthreads, s->nthreads == 1 ? "" : "s");
    return SN_OK;
}

static void cpu_close(struct sn__bench_ctx *c)
{
    struct cpu *s = c->bs;

    if (!s)
        return;
    if (s->nthreads > 1 && s->tid) {
        s->kernel = -1;
        pthread_barrier_wait(&s->start);
        for (int t = 1; t < s->nthreads; t++)
            pthread_join(s->tid[t], NULL);
        pthread_barrier_destroy(&s->start);
        pthread_barrier_destroy(&s->done);
    }
    free(s->tid);
    free(s->a);
    free(s->b);
    free(s->c);
    free(s->ga);
    free(s->gb);
    free(s->gc);
    free(s->sbuf);
    free(s->rbuf);
    free(s);
    c->bs = NULL;
}

static void cpu_versions(struct sn__bench_ctx *c, struct sn_bench_versions *v)
{
    const char *cfg = openblas_get_config();

    (void)c;
    snprintf(v->blas, sizeof(v->blas), "%s", cfg ? cfg : "OpenBLAS");
}

static void cpu_state(struct sn__bench_ctx *c, struct sn_bench_state *st)
{
    sn__bench_state_cpu(c->o.fsroot, st);
}

static const char *cpu_gemm_unsupported(struct sn__bench_ctx *c,
                                        enum sn_bench_dtype dt)
{
    (void)c;
    if (dt == SN_DT_FP64 || dt == SN_DT_FP32)
        return NULL;
    return "the cpu backend's GEMM (OpenBLAS) takes fp64 and fp32";
}

static int cpu_gemm(struct sn__bench_ctx *c, enum sn_bench_dtype dt, int size,
                    int iters, double *t, struct sn_error *err)
{
    struct cpu *s = c->bs;
    size_t n = (size_t)size, es = dt == SN_DT_FP64 ? 8 : 4;
    size_t bytes = n * n * es;

    if (s->gbytes != bytes) {
        free(s->ga);
        free(s->gb);
        free(s->gc);
        /* sized from the options: a failure is said, not an abort (the
         * sizes were capped against memory before, so it is rare) */
        s->ga = malloc(bytes);
        s->gb = malloc(bytes);
        s->gc = calloc(1, bytes);
        s->gbytes = bytes;
        if (!s->ga || !s->gb || !s->gc) {
            free(s->ga);
            free(s->gb);
            free(s->gc);
            s->ga = s->gb = s->gc = NULL;
            s->gbytes = 0;
            return out_of_memory(err, "GEMM operands", 3, bytes);
        }
        /* values in [0, 1): no denormals, no overflow */
        for (size_t i = 0; i < n * n; i++) {
            double v = (double)((i * 2654435761u) % 1000u) / 1000.0;
            if (es == 8) {
                ((double *)s->ga)[i] = v;
                ((double *)s->gb)[i] = 1.0 - v;
            } else {
                ((float *)s->ga)[i] = (float)v;
                ((float *)s->gb)[i] = (float)(1.0 - v);
            }
        }
    }
    for (int i = 0; i < iters; i++) {
        double t0 = sn_now();
        if (dt == SN_DT_FP64)
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, size, size,
                        size, 1.0, s->ga, size, s->gb, size, 0.0, s->gc, size);
        else
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, size, size,
                        size, 1.0f, s->ga, size, s->gb, size, 0.0f, s->gc,
                        size);
        t[i] = sn_now() - t0;
        sn__tick(c, i);
    }
    return SN_OK;
}

static int cpu_stream(struct sn__bench_ctx *c, enum sn__stream_kernel k,
                      uint64_t bytes, int iters, double *t,
                      struct sn_error *err)
{
    struct cpu *s = c->bs;
    uint64_t n = bytes / sizeof(double);

    if (s->nelem != n) {
        free(s->a);
        free(s->b);
        free(s->c);
        s->a = malloc(n * sizeof(double));
        s->b = malloc(n * sizeof(double));
        s->c = malloc(n * sizeof(double));
        s->nelem = n;
        if (!s->a || !s->b || !s->c) {
            free(s->a);
            free(s->b);
            free(s->c);
            s->a = s->b = s->c = NULL;
            s->nelem = 0;
            return out_of_memory(err, "STREAM arrays", 3, n * sizeof(double));
        }
        run_kernel(s, -2);
    }
    for (int i = 0; i < iters; i++) {
        double t0 = sn_now();
        run_kernel(s, (int)k);
        t[i] = sn_now() - t0;
        sn__tick(c, i);
    }
    return SN_OK;
}

static int cpu_reserve(struct sn__bench_ctx *c, uint64_t bytes,
                       struct sn_error *err)
{
    struct cpu *s = c->bs;

    if (bytes > (uint64_t)INT32_MAX)
        return sn_error_set(err, SN_EINPUT,
                            "bench: %llu-byte buffers are beyond what one "
                            "MPI call moves here (2 GiB)",
                            (unsigned long long)bytes);
    if (bytes <= s->cap)
        return SN_OK;
    free(s->sbuf);
    free(s->rbuf);
    s->sbuf = calloc(1, bytes);
    s->rbuf = calloc(1, bytes);
    s->cap = bytes;
    if (!s->sbuf || !s->rbuf) {
        free(s->sbuf);
        free(s->rbuf);
        s->sbuf = s->rbuf = NULL;
        s->cap = 0;
        return out_of_memory(err, "message buffers", 2, bytes);
    }
    return SN_OK;
}

static int cpu_p2p(struct sn__bench_ctx *c, enum sn__p2p_mode mode, int peer,
                   uint64_t bytes, int iters, double *t, struct sn_error *err)
{
    struct cpu *s = c->bs;
    MPI_Comm comm = c->job->comm;
    int n = (int)bytes, rc = MPI_SUCCESS, tag = 7;
    char ack = 0;

    if ((rc = cpu_reserve(c, bytes ? bytes : 1, err)))
        return rc;
    rc = MPI_SUCCESS;
    for (int i = 0; i < iters && rc == MPI_SUCCESS; i++) {
        double t0 = sn_now();
        MPI_Request rq[2];
        switch (mode) {
        case SN_P2P_SEND:
            rc = MPI_Send(s->sbuf, n, MPI_BYTE, peer, tag, comm);
            if (rc == MPI_SUCCESS)
                rc = MPI_Recv(&ack, 0, MPI_BYTE, peer, tag, comm,
                              MPI_STATUS_IGNORE);
            t[i] = sn_now() - t0;
            break;
        case SN_P2P_RECV:
            rc = MPI_Recv(s->rbuf, n, MPI_BYTE, peer, tag, comm,
                          MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS)
                rc = MPI_Send(&ack, 0, MPI_BYTE, peer, tag, comm);
            t[i] = sn_now() - t0;
            break;
        case SN_P2P_BIDIR:
            MPI_Irecv(s->rbuf, n, MPI_BYTE, peer, tag, comm, &rq[0]);
            MPI_Isend(s->sbuf, n, MPI_BYTE, peer, tag, comm, &rq[1]);
            rc = MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
            t[i] = sn_now() - t0;
            break;
        case SN_P2P_PING:
            rc = MPI_Send(s->sbuf, n, MPI_BYTE, peer, tag, comm);
            if (rc == MPI_SUCCESS)
                rc = MPI_Recv(s->rbuf, n, MPI_BYTE, peer, tag, comm,
                              MPI_STATUS_IGNORE);
            t[i] = (sn_now() - t0) / 2; /* half the round trip */
            break;
        case SN_P2P_PONG:
            rc = MPI_Recv(s->rbuf, n, MPI_BYTE, peer, tag, comm,
                          MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS)
                rc = MPI_Send(s->sbuf, n, MPI_BYTE, peer, tag, comm);
            t[i] = (sn_now() - t0) / 2;
            break;
        }
        sn__tick(c, i);
    }
    return SN_MPI(rc, err);
}

static MPI_Datatype mpi_type(enum sn_bench_dtype dt)
{
    switch (dt) {
    case SN_DT_FP64:
        return MPI_DOUBLE;
    case SN_DT_FP32:
        return MPI_FLOAT;
    case SN_DT_INT32:
        return MPI_INT32_T;
    default:
        return MPI_DATATYPE_NULL;
    }
}

static MPI_Op mpi_op(enum sn_bench_redop op)
{
    return op == SN_REDOP_MAX   ? MPI_MAX
           : op == SN_REDOP_MIN ? MPI_MIN
                                : MPI_SUM;
}

/* One collective as the bench times it. count is the nccl-tests count:
 * elements of the per-rank buffer for allreduce, broadcast, reduce and
 * sendrecv, of the whole (gathered / scattered / exchanged) buffer for
 * allgather, reducescatter and alltoall. */
static int one_coll(struct sn__bench_ctx *c, enum sn_coll_op op,
                    MPI_Datatype dt, MPI_Op mop, int root, int count,
                    bool inplace)
{
    struct cpu *s = c->bs;
    MPI_Comm comm = c->job->comm;
    int n = c->job->size, r = c->job->rank, part = count / n;
    void *in = inplace ? MPI_IN_PLACE : s->sbuf;

    switch (op) {
    case SN_COLL_ALLREDUCE:
        return MPI_Allreduce(in, s->rbuf, count, dt, mop, comm);
    case SN_COLL_ALLGATHER:
        return MPI_Allgather(in, part, dt, s->rbuf, part, dt, comm);
    case SN_COLL_REDUCESCATTER:
        return MPI_Reduce_scatter_block(in, s->rbuf, part, dt, mop, comm);
    case SN_COLL_ALLTOALL:
        return MPI_Alltoall(in, part, dt, s->rbuf, part, dt, comm);
    case SN_COLL_BROADCAST:
        /* MPI has one buffer: in-place and out-of-place are the same */
        return MPI_Bcast(s->rbuf, count, dt, root, comm);
    case SN_COLL_REDUCE:
        /* MPI_IN_PLACE is for the root only */
        return MPI_Reduce(inplace && r == root ? MPI_IN_PLACE : s->sbuf,
                          s->rbuf, count, dt, mop, root, comm);
    case SN_COLL_SENDRECV:
        if (inplace)
            return MPI_Sendrecv_replace(s->rbuf, count, dt, (r + 1) % n, 9,
                                        (r - 1 + n) % n, 9, comm,
                                        MPI_STATUS_IGNORE);
        return MPI_Sendrecv(s->sbuf, count, dt, (r + 1) % n, 9, s->rbuf, count,
                            dt, (r - 1 + n) % n, 9, comm, MPI_STATUS_IGNORE);
    default:
        return MPI_ERR_OP;
    }
}

static int coll_args(struct sn__bench_ctx *c, enum sn_bench_dtype dt,
                     uint64_t count, MPI_Datatype *t, struct sn_error *err)
{
    int rc;

    *t = mpi_type(dt);
    if (*t == MPI_DATATYPE_NULL)
        return sn_error_set(err, SN_EINPUT,
                            "the cpu backend's collectives take fp64, fp32 "
                            "or int32, not %s",
                            sn_bench_dtype_name(dt));
    if (count > (uint64_t)INT32_MAX / 8)
        return sn_error_set(err, SN_EINPUT,
                            "bench: %llu elements are beyond one MPI call",
                            (unsigned long long)count);
    if ((rc = cpu_reserve(c, count * sn_bench_dtype_size(dt), err)))
        return rc;
    return SN_OK;
}

static int cpu_coll(struct sn__bench_ctx *c, enum sn_coll_op op,
                    enum sn_bench_dtype dt, enum sn_bench_redop redop, int root,
                    uint64_t count, bool inplace, int iters, double *t,
                    struct sn_error *err)
{
    MPI_Datatype mt;
    MPI_Op mop = mpi_op(redop);
    int rc = coll_args(c, dt, count, &mt, err);

    if (rc)
        return rc;
    for (int i = 0; i < iters; i++) {
        double t0 = sn_now();
        rc = one_coll(c, op, mt, mop, root, (int)count, inplace);
        t[i] = sn_now() - t0;
        if (rc != MPI_SUCCESS)
            return SN_MPI(rc, err);
        sn__tick(c, i);
    }
    return SN_OK;
}

static double get(const char *buf, enum sn_bench_dtype dt, uint64_t i)
{
    switch (dt) {
    case SN_DT_FP64:
        return ((const double *)buf)[i];
    case SN_DT_FP32:
        return ((const float *)buf)[i];
    default:
        return ((const int32_t *)buf)[i];
    }
}

static void put(char *buf, enum sn_bench_dtype dt, uint64_t i, double v)
{
    switch (dt) {
    case SN_DT_FP64:
        ((double *)buf)[i] = v;
        break;
    case SN_DT_FP32:
        ((float *)buf)[i] = (float)v;
        break;
    default:
        ((int32_t *)buf)[i] = (int32_t)v;
        break;
    }
}

static int cpu_coll_check(struct sn__bench_ctx *c, enum sn_coll_op op,
                          enum sn_bench_dtype dt, enum sn_bench_redop redop,
                          int root, uint64_t count, bool inplace, bool corrupt,
                          long long *wrong, struct sn_error *err)
{
    struct cpu *s = c->bs;
    int n = c->job->size, r = c->job->rank, rc;
    uint64_t part = count / (uint64_t)n, nout = 0;
    MPI_Datatype mt;
    char *in;
    const double sentinel = -1; /* never a pattern value */

    *wrong = 0;
    if ((rc = coll_args(c, dt, count, &mt, err)))
        return rc;
    /* inputs: in place they sit where the output goes */
    in = inplace ? s->rbuf : s->sbuf;
    for (uint64_t i = 0; i < count; i++) {
        put(s->rbuf, dt, i, sentinel);
        put(s->sbuf, dt, i, sentinel);
    }
    switch (op) {
    case SN_COLL_ALLGATHER:
        for (uint64_t i = 0; i < part; i++)
            put(inplace ? s->rbuf : s->sbuf, dt,
                (inplace ? (uint64_t)r * part : 0) + i,
                sn_pattern((uint32_t)r, i));
        break;
    case SN_COLL_BROADCAST:
        if (r == root)
            for (uint64_t i = 0; i < count; i++)
                put(s->rbuf, dt, i, sn_pattern((uint32_t)r, i));
        break;
    case SN_COLL_REDUCE:
        for (uint64_t i = 0; i < count; i++)
            put(inplace && r == root ? s->rbuf : s->sbuf, dt, i,
                sn_pattern((uint32_t)r, i));
        break;
    default:
        for (uint64_t i = 0; i < count; i++)
            put(in, dt, i, sn_pattern((uint32_t)r, i));
        break;
    }
    rc = one_coll(c, op, mt, mpi_op(redop), root, (int)count, inplace);
    if (rc != MPI_SUCCESS)
        return SN_MPI(rc, err);
    nout = sn_pattern_outputs((int)op, n, r, root, count);
    if (corrupt && nout > 0)
        put(s->rbuf, dt, nout / 2, get(s->rbuf, dt, nout / 2) + 1000);
    for (uint64_t i = 0; i < nout; i++)
        if (get(s->rbuf, dt, i) !=
            sn_pattern_expected((int)op, (int)redop, n, r, root, count, i))
            (*wrong)++;
    return SN_OK;
}

const struct sn__bench_backend sn__bench_cpu = {
    .name = "cpu",
    .mem_bytes = (uint64_t)64 << 20,
    .pair_bytes = (uint64_t)16 << 20,
    .host_bytes = 0,
    .min_bytes = 8,
    .max_bytes = (uint64_t)16 << 20,
    .gemm_size = 2048,
    .gemm_dtypes = cpu_gemm_dtypes,
    .ngemm_dtypes = SN_ARRAY_LEN(cpu_gemm_dtypes),
    .open = cpu_open,
    .close = cpu_close,
    .versions = cpu_versions,
    .state = cpu_state,
    .gemm_unsupported = cpu_gemm_unsupported,
    .gemm = cpu_gemm,
    .stream = cpu_stream,
    .host_numa_nodes = NULL,
    .hostcopy = NULL,
    .p2p = cpu_p2p,
    .coll = cpu_coll,
    .coll_check = cpu_coll_check,
    .reserve = cpu_reserve,
    .max_message = (uint64_t)INT32_MAX,
};
