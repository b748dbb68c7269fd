/* job.c: the MPI layer of the bench: joining the job, sync points,
 * gathering results to rank 0, and the watchdog that ends a job whose
 * rank hangs, naming the rank that is behind. Every MPI call of the module
 * outside the timed loops goes through here. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench-int.h"

/* Seconds after the per-test deadline before a rank other than 0 gives
 * up on rank 0 and ends the job itself: rank 0 holds the results and
 * should be the one to write them. */
#define SN_WATCH_GRACE 5.0
/* How long rank 0 waits for the other ranks to say where they are. */
#define SN_WATCH_QUERY_WAIT 2.0
/* How often the watchdog looks. */
#define SN_WATCH_PERIOD_MS 100

int sn__bench_mpi_error(int rc, const char *call, const char *file, int line,
                        struct sn_error *err)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    const char *paren;

    if (rc == MPI_SUCCESS)
        return SN_OK;
    if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
        snprintf(msg, sizeof(msg), "error %d", rc);
    paren = strchr(call, '(');
    return sn_error_set(err, SN_ERUNTIME, "%s:%d: %.*s failed: %s", file, line,
                        paren ? (int)(paren - call) : 32, call, msg);
}

int sn_bench_job_new(struct sn_bench_job **out, struct sn_error *err)
{
    struct sn_bench_job *job = NULL;
    int inited = 0, fin = 0, provided = MPI_THREAD_SINGLE, rc = SN_OK;
    MPI_Comm local = MPI_COMM_NULL;

    *out = NULL;
    MPI_Finalized(&fin);
    if (fin)
        return sn_error_set(err, SN_ERUNTIME,
                            "bench: MPI was already finalised");
    job = sn_xcalloc(1, sizeof(*job));
    job->comm = job->ctl = MPI_COMM_NULL;
    MPI_Initialized(&inited);
    if (!inited) {
        /* MULTIPLE: the watchdog thread asks the other ranks where they
         * are while the main thread may sit in a blocking call */
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) !=
            MPI_SUCCESS) {
            rc = sn_error_set(err, SN_ERUNTIME, "bench: MPI_Init failed");
            goto out;
        }
        job->we_initialized = true;
    } else {
        MPI_Query_thread(&provided);
    }
    job->thread_level = provided;
    if ((rc = SN_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &job->comm), err)) ||
        (rc = SN_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &job->ctl), err)))
        goto out;
    MPI_Comm_set_errhandler(job->comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(job->ctl, MPI_ERRORS_RETURN);
    MPI_Comm_rank(job->comm, &job->rank);
    MPI_Comm_size(job->comm, &job->size);
    if ((rc = SN_MPI(MPI_Comm_split_type(job->comm, MPI_COMM_TYPE_SHARED,
                                         job->rank, MPI_INFO_NULL, &local),
                     err)))
        goto out;
    MPI_Comm_rank(local, &job->local_rank);
    MPI_Comm_size(local, &job->local_size);
    MPI_Comm_free(&local);
    if (gethostname(job->host, sizeof(job->host)) != 0)
        sn_strlcpy(job->host, "unknown", sizeof(job->host));
    job->host[sizeof(job->host) - 1] = '\0';
    /* a host name is whatever bytes sethostname() was given */
    sn_str_clean_in(job->host, sizeof(job->host), 0);
    *out = job;
    job = NULL;
out:
    sn_bench_job_free(job);
    return rc;
}

void sn_bench_job_free(struct sn_bench_job *job)
{
    int fin = 0;

    if (!job)
        return;
    MPI_Finalized(&fin);
    if (!fin) {
        if (job->comm != MPI_COMM_NULL)
            MPI_Comm_free(&job->comm);
        if (job->ctl != MPI_COMM_NULL)
            MPI_Comm_free(&job->ctl);
        if (job->we_initialized)
            MPI_Finalize();
    }
    free(job);
}

int sn_bench_job_rank(const struct sn_bench_job *job)
{
    return job->rank;
}

int sn_bench_job_agree(struct sn_bench_job *job, int value)
{
    MPI_Bcast(&value, 1, MPI_INT, 0, job->comm);
    return value;
}

int sn_bench_job_size(const struct sn_bench_job *job)
{
    return job->size;
}

_Noreturn void sn_bench_job_abort(struct sn_bench_job *job, int code)
{
    MPI_Abort(job->comm, code);
    /* MPI_Abort does not return; if an implementation lets it, the
     * process must still not carry on with a job it declared dead */
    _exit(code);
}

const char *sn_bench_job_host(const struct sn_bench_job *job)
{
    return job->host;
}

int sn_bench_job_host_first(struct sn_bench_job *job, bool *first,
                            struct sn_error *err)
{
    size_t hl = sizeof(job->host);
    char *hosts = sn_xcalloc((size_t)job->size, hl);
    int rc;

    /* by name, not by shared memory: hosts in containers or network
     * namespaces of one machine (each with its own name) are each a host
     * to the people reading the report */
    *first = true;
    rc = SN_MPI(MPI_Allgather(job->host, (int)hl, MPI_CHAR, hosts, (int)hl,
                              MPI_CHAR, job->comm),
                err);
    for (int r = 0; !rc && r < job->rank; r++)
        if (!strncmp(hosts + (size_t)r * hl, job->host, hl))
            *first = false;
    free(hosts);
    return rc;
}

int sn_bench_job_gather(struct sn_bench_job *job, const void *data, size_t len,
                        char **all, size_t **offs, struct sn_error *err)
{
    int mine = len > SN_BENCH_GATHER_MAX ? -1 : (int)len;
    int *lens = NULL, *displ = NULL, ok = SN_OK, over = -1, rc;
    size_t total = 0;

    *all = NULL;
    *offs = NULL;
    if (job->rank == 0) {
        lens = sn_xcalloc((size_t)job->size, sizeof(*lens));
        displ = sn_xcalloc((size_t)job->size, sizeof(*displ));
    }
    if ((rc = SN_MPI(
             MPI_Gather(&mine, 1, MPI_INT, lens, 1, MPI_INT, 0, job->comm),
             err)))
        goto out;
    /* rank 0 decides and says so: no rank may wait in the Gatherv while
     * another has given up */
    if (job->rank == 0) {
        for (int r = 0; r < job->size; r++) {
            if (lens[r] < 0 && over < 0)
                over = r;
            displ[r] = (int)total;
            total += lens[r] > 0 ? (size_t)lens[r] : 0;
        }
        /* job size x 1 MiB must still fit MPI's int displacements */
        if (over >= 0 || total > (size_t)INT32_MAX)
            ok = SN_EINPUT;
    }
    if ((rc = SN_MPI(MPI_Bcast(&ok, 1, MPI_INT, 0, job->comm), err)))
        goto out;
    if (ok) {
        if (job->rank == 0 && over >= 0)
            rc = sn_error_set(err, SN_EINPUT,
                              "bench: rank %d has more than %zu bytes to "
                              "gather",
                              over, SN_BENCH_GATHER_MAX);
        else if (job->rank == 0)
            rc = sn_error_set(err, SN_EINPUT,
                              "bench: %zu bytes to gather from %d ranks "
                              "(at most 2 GiB)",
                              total, job->size);
        else
            rc = sn_error_set(err, SN_EINPUT,
                              "bench: rank 0 refused to gather (a rank had "
                              "too much to send)");
        goto out;
    }
    if (job->rank == 0) {
        *all = sn_xmalloc(total + 1);
        (*all)[total] = '\0';
    }
    if ((rc = SN_MPI(MPI_Gatherv(len ? data : "", len ? mine : 0, MPI_BYTE,
                                 *all, lens, displ, MPI_BYTE, 0, job->comm),
                     err)))
        goto out;
    if (job->rank == 0) {
        *offs = sn_xmalloc(((size_t)job->size + 1) * sizeof(**offs));
        for (int r = 0; r < job->size; r++)
            (*offs)[r] = (size_t)displ[r];
        (*offs)[job->size] = total;
    }
out:
    if (rc) {
        free(*all);
        *all = NULL;
    }
    free(displ);
    free(lens);
    return rc;
}

void sn__bench_where(struct sn__bench_ctx *c, const char *fmt, ...)
{
    va_list ap;

    pthread_mutex_lock(&c->where_lock);
    va_start(ap, fmt);
    vsnprintf(c->label, sizeof(c->label), fmt, ap);
    va_end(ap);
    pthread_mutex_unlock(&c->where_lock);
    atomic_store(&c->iter, -1);
}

int sn__bench_sync(struct sn__bench_ctx *c, struct sn_error *err)
{
    /* count the sync point on arrival: a rank that never arrives stays
     * one behind those waiting in it */
    atomic_fetch_add(&c->section, 1);
    atomic_store(&c->iter, -1);
    return SN_MPI(MPI_Barrier(c->job->comm), err);
}

int sn__bench_gather(struct sn__bench_ctx *c, struct sn_error *err)
{
    struct sn_buf pack;
    int rc, len, *lens = NULL, *offs = NULL, total = 0;
    char *all = NULL;
    struct sn_bench_job *job = c->job;

    sn_buf_init(&pack);
    sn__bench_pack(c->local, c->nlocal, &pack);
    if (pack.len > (size_t)(INT32_MAX / 2)) {
        rc = sn_error_set(err, SN_ENOMEM,
                          "bench: rank %d has %zu bytes of results (cap "
                          "1 GiB per test)",
                          job->rank, pack.len);
        goto out;
    }
    len = (int)pack.len;
    atomic_fetch_add(&c->section, 1); /* arrived: see sn__bench_sync() */
    atomic_store(&c->iter, -1);
    if (job->rank == 0) {
        lens = sn_xcalloc((size_t)job->size, sizeof(*lens));
        offs = sn_xcalloc((size_t)job->size, sizeof(*offs));
    }
    if ((rc = SN_MPI(
             MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, job->comm),
             err)))
        goto out;
    if (job->rank == 0) {
        for (int r = 0; r < job->size; r++) {
            if (lens[r] < 0 || total > INT32_MAX - lens[r]) {
                rc = sn_error_set(err, SN_ENOMEM,
                                  "bench: results of one test exceed 2 "
                                  "GiB");
                goto out;
            }
            offs[r] = total;
            total += lens[r];
        }
        all = sn_xmalloc(total ? (size_t)total : 1);
    }
    /* rank 0 can fail above on a size cap the others cannot see; they
     * then wait in the Gatherv and the watchdog ends the job */
    if ((rc = SN_MPI(MPI_Gatherv(pack.data ? pack.data : "", len, MPI_BYTE, all,
                                 lens, offs, MPI_BYTE, 0, job->comm),
                     err)))
        goto out;
    if (job->rank == 0) {
        struct sn_bench_results tmp;
        sn_bench_results_init(&tmp);
        rc = sn__bench_unpack(all, (size_t)total, &tmp, err);
        pthread_mutex_lock(&c->lock);
        for (size_t i = 0; i < tmp.n; i++)
            sn__bench_results_add(c->res, &tmp.items[i]);
        pthread_mutex_unlock(&c->lock);
        sn_bench_results_release(&tmp);
        if (rc)
            goto out;
    }
out:
    for (size_t i = 0; i < c->nlocal; i++)
        sn__bench_result_release(&c->local[i]);
    c->nlocal = 0;
    free(all);
    free(offs);
    free(lens);
    sn_buf_release(&pack);
    return rc;
}

/* ---- the watchdog ---------------------------------------------------------
 */

/* What a rank answers when rank 0 asks where it is. */
struct where_msg {
    uint32_t section;
    int32_t iter;
    char label[80];
    char host[64];
};

static int sig_fd = -1; /* the write end of the running context's pipe */

static void on_signal(int sig)
{
    unsigned char b = (unsigned char)sig;

    if (sig_fd >= 0) {
        ssize_t w = write(sig_fd, &b, 1);
        (void)w;
    }
}

static void where_now(struct sn__bench_ctx *c, struct where_msg *w)
{
    memset(w, 0, sizeof(*w));
    w->section = atomic_load(&c->section);
    w->iter = atomic_load(&c->iter);
    pthread_mutex_lock(&c->where_lock);
    memcpy(w->label, c->label, sizeof(w->label));
    pthread_mutex_unlock(&c->where_lock);
    w->label[sizeof(w->label) - 1] = '\0';
    sn_strlcpy(w->host, c->job->host, sizeof(w->host));
}

static int where_cmp(const struct where_msg *a, const struct where_msg *b)
{
    if (a->section != b->section)
        return a->section < b->section ? -1 : 1;
    if (a->iter != b->iter)
        return a->iter < b->iter ? -1 : 1;
    return 0;
}

static void describe(struct sn_buf *b, int rank, const struct where_msg *w)
{
    sn_buf_printf(b, "rank %d (%s) at '%s'", rank, w->host,
                  w->label[0] ? w->label : "start");
    if (w->iter >= 0)
        sn_buf_printf(b, " iteration %d", (int)w->iter);
}

/* Rank 0: ask every other rank where it is, wait up to
 * SN_WATCH_QUERY_WAIT, and say who is behind and who did not answer. */
static void find_culprit(struct sn__bench_ctx *c, struct sn_buf *msg,
                         int *culprit)
{
    struct sn_bench_job *job = c->job;
    int n = job->size, nbehind = 0, nsilent = 0;
    struct where_msg *w = sn_xcalloc((size_t)n, sizeof(*w));
    MPI_Request *req = sn_xcalloc((size_t)n, sizeof(*req));
    bool *got = sn_xcalloc((size_t)n, sizeof(*got));
    int q = 1;
    double until;
    struct where_msg *min;

    *culprit = -1;
    where_now(c, &w[0]);
    got[0] = true;
    req[0] = MPI_REQUEST_NULL;
    if (job->thread_level == MPI_THREAD_MULTIPLE) {
        for (int r = 1; r < n; r++) {
            MPI_Request s;
            MPI_Irecv(&w[r], (int)sizeof(w[r]), MPI_BYTE, r, SN_TAG_REPLY,
                      job->ctl, &req[r]);
            MPI_Isend(&q, 1, MPI_INT, r, SN_TAG_QUERY, job->ctl, &s);
            MPI_Request_free(&s);
        }
        until = sn_now() + SN_WATCH_QUERY_WAIT;
        for (;;) {
            int left = 0;
            for (int r = 1; r < n; r++) {
                int flag = 0;
                if (got[r])
                    continue;
                MPI_Test(&req[r], &flag, MPI_STATUS_IGNORE);
                if (flag)
                    got[r] = true;
                else
                    left++;
            }
            if (!left || sn_now() > until)
                break;
            struct timespec ts = {0, 10 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    min = NULL;
    for (int r = 0; r < n; r++)
        if (got[r] && (!min || where_cmp(&w[r], min) < 0))
            min = &w[r];
    /* behind: at the lowest position while someone else is further on */
    for (int r = 0; r < n; r++) {
        bool ahead_exists = false;
        if (!got[r] || where_cmp(&w[r], min) != 0)
            continue;
        for (int s = 0; s < n; s++)
            if (got[s] && where_cmp(&w[s], min) > 0)
                ahead_exists = true;
        if (!ahead_exists)
            break;
        sn_buf_puts(msg, nbehind ? "; " : ": ");
        describe(msg, r, &w[r]);
        sn_buf_puts(msg, " is behind");
        if (*culprit < 0)
            *culprit = r;
        nbehind++;
    }
    for (int r = 1; r < n; r++) {
        if (got[r] || job->thread_level != MPI_THREAD_MULTIPLE)
            continue;
        sn_buf_printf(msg, "%srank %d did not answer",
                      nbehind + nsilent ? "; " : ": ", r);
        if (*culprit < 0)
            *culprit = r;
        nsilent++;
    }
    if (!nbehind && !nsilent) {
        sn_buf_puts(msg, ": ");
        describe(msg, 0, &w[0]);
        if (job->thread_level == MPI_THREAD_MULTIPLE && n > 1)
            sn_buf_puts(msg, ", as are all ranks (a hang inside the "
                             "library or the fabric)");
        else if (n > 1)
            sn_buf_puts(msg, " (MPI without MPI_THREAD_MULTIPLE: the "
                             "other ranks cannot be asked)");
    }
    for (int r = 1; r < n; r++) {
        if (!got[r] && req[r] != MPI_REQUEST_NULL) {
            MPI_Cancel(&req[r]);
            MPI_Request_free(&req[r]);
        }
    }
    free(got);
    free(req);
    free(w);
}

/* End the run: tell the caller (partial results on rank 0), then end the
 * job the MPI way. Runs once per process. */
static void fire(struct sn__bench_ctx *c, int culprit, const char *message)
{
    struct sn_bench_results partial;
    struct sn_bench_abort why;
    struct sn_error rerr;
    int expect = 0, restored;

    if (!atomic_compare_exchange_strong(&c->aborting, &expect, 1))
        return;
    /* the GPU's clocks and power limit first: the launcher may follow
     * its SIGTERM with SIGKILL (clocks.c says why this is the place) */
    restored = sn__bench_clocks_restore(c, &rerr);
    sn_bench_results_init(&partial);
    pthread_mutex_lock(&c->lock);
    if (c->res) {
        sn_bench_results_copy(&partial, c->res);
        partial.elapsed = sn_now() - c->t0;
    }
    pthread_mutex_unlock(&c->lock);
    if (restored != SN_OK)
        sn__bench_results_note(&partial, "rank %d: %s", c->job->rank, rerr.msg);
    partial.complete = false;
    sn_strlcpy(partial.abort_test, c->test, sizeof(partial.abort_test));
    sn_strlcpy(partial.abort_msg, message, sizeof(partial.abort_msg));
    why.rank = c->job->rank;
    why.culprit = culprit;
    why.test = c->test;
    why.message = message;
    if (c->o.on_abort)
        c->o.on_abort(c->o.cb_ctx, &partial, &why);
    sn_bench_results_release(&partial);
    MPI_Abort(c->job->comm, 3);
    /* MPI_Abort does not return; if an implementation lets it, the
     * process must still not carry on with a job it declared dead */
    _exit(3);
}

static void timed_out(struct sn__bench_ctx *c, double waited)
{
    struct sn_buf msg;
    int culprit = -1;

    sn_buf_init(&msg);
    sn_buf_printf(&msg, "test '%s' did not finish within %.0f s", c->test,
                  waited);
    if (c->job->rank == 0) {
        find_culprit(c, &msg, &culprit);
    } else {
        struct where_msg w;
        where_now(c, &w);
        sn_buf_puts(&msg, ": rank 0 did not end the job; ");
        describe(&msg, c->job->rank, &w);
    }
    fire(c, culprit, msg.data);
    sn_buf_release(&msg);
}

static void *watch_main(void *arg)
{
    struct sn__bench_ctx *c = arg;
    struct sn_bench_job *job = c->job;
    MPI_Request q = MPI_REQUEST_NULL;
    int qbuf = 0;
    bool multiple = job->thread_level == MPI_THREAD_MULTIPLE;
    bool serve = job->rank != 0 && multiple;
    double grace = job->rank == 0 ? 0 : SN_WATCH_GRACE;
    char failbuf[SN_ERROR_MSG_MAX + 160];

    /* rank 0 listens for failures reported by the others (sn__bench_fail)
     * and ranks 1.. for rank 0's questions */
    if (serve)
        MPI_Irecv(&qbuf, 1, MPI_INT, 0, SN_TAG_QUERY, job->ctl, &q);
    else if (job->rank == 0 && multiple && job->size > 1)
        MPI_Irecv(failbuf, (int)sizeof(failbuf), MPI_CHAR, MPI_ANY_SOURCE,
                  SN_TAG_FAIL, job->ctl, &q);
    while (!atomic_load(&c->stop)) {
        struct pollfd p = {c->sigpipe[0], POLLIN, 0};
        double start;

        if (poll(&p, c->sigpipe[0] >= 0 ? 1 : 0, SN_WATCH_PERIOD_MS) > 0 &&
            (p.revents & POLLIN)) {
            unsigned char sig = 0;
            char m[160];
            if (read(c->sigpipe[0], &sig, 1) == 1 && sig) {
                snprintf(m, sizeof(m),
                         "rank %d got signal %d during test '%s' (a rank "
                         "died or the job was cancelled)",
                         job->rank, (int)sig, c->test);
                fire(c, -1, m);
            }
        }
        if (job->rank == 0 && q != MPI_REQUEST_NULL) {
            int flag = 0;
            MPI_Status st;
            MPI_Test(&q, &flag, &st);
            if (flag) {
                failbuf[sizeof(failbuf) - 1] = '\0';
                fire(c, st.MPI_SOURCE, failbuf);
            }
        }
        if (serve) {
            int flag = 0;
            MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
            if (flag) {
                struct where_msg w;
                where_now(c, &w);
                MPI_Send(&w, (int)sizeof(w), MPI_BYTE, 0, SN_TAG_REPLY,
                         job->ctl);
                MPI_Irecv(&qbuf, 1, MPI_INT, 0, SN_TAG_QUERY, job->ctl, &q);
            }
        }
        start = atomic_load(&c->test_start);
        if (start > 0 && c->o.timeout > 0 &&
            sn_now() > start + c->o.timeout + grace)
            timed_out(c, c->o.timeout + grace);
    }
    if (q != MPI_REQUEST_NULL) {
        MPI_Cancel(&q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    }
    return NULL;
}

int sn__bench_watch_start(struct sn__bench_ctx *c, struct sn_error *err)
{
    c->sigpipe[0] = c->sigpipe[1] = -1;
    if (c->o.catch_signals) {
        struct sigaction sa;
        if (pipe(c->sigpipe) != 0)
            return sn_error_set(err, SN_ERUNTIME, "bench: pipe: %s",
                                strerror(errno));
        fcntl(c->sigpipe[1], F_SETFL, O_NONBLOCK);
        sig_fd = c->sigpipe[1];
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGINT, &sa, NULL);
    }
    if (pthread_create(&c->watchdog, NULL, watch_main, c) != 0)
        return sn_error_set(err, SN_ERUNTIME,
                            "bench: cannot start the watchdog thread");
    c->watchdog_running = true;
    return SN_OK;
}

void sn__bench_watch_stop(struct sn__bench_ctx *c)
{
    if (c->watchdog_running) {
        atomic_store(&c->stop, 1);
        pthread_join(c->watchdog, NULL);
        c->watchdog_running = false;
    }
    if (c->sigpipe[0] >= 0) {
        signal(SIGTERM, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        sig_fd = -1;
        close(c->sigpipe[0]);
        close(c->sigpipe[1]);
        c->sigpipe[0] = c->sigpipe[1] = -1;
    }
}

void sn__bench_fail(struct sn__bench_ctx *c, const struct sn_error *err)
{
    char msg[SN_ERROR_MSG_MAX + 160];

    snprintf(msg, sizeof(msg), "rank %d (%s) failed in test '%s': %s",
             c->job->rank, c->job->host, c->test,
             err->msg[0] ? err->msg : sn_code_name(err->code));
    if (c->job->rank != 0 && c->job->thread_level == MPI_THREAD_MULTIPLE) {
        /* rank 0 holds the results: let its watchdog end the job after
         * writing them, and step in only if it does not */
        double until = sn_now() + SN_WATCH_GRACE;
        MPI_Send(msg, (int)strlen(msg) + 1, MPI_CHAR, 0, SN_TAG_FAIL,
                 c->job->ctl);
        while (sn_now() < until) {
            struct timespec ts = {0, 50 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    fire(c, c->job->rank, msg);
}

void sn__bench_hang(struct sn__bench_ctx *c)
{
    /* test-only (--inject die): end this process the way the OOM killer
     * or a crash does, with no chance to say goodbye; the launcher and
     * the other ranks must cope */
    if (c->o.inject.fault == SN_FAULT_DIE)
        raise(SIGKILL);
    /* test-only (--inject hang): stop making progress without spinning,
     * as a rank stuck in a driver call would; the watchdog ends the job */
    sn__bench_where(c, "injected hang (test-only fault) in %s", c->test);
    for (;;) {
        struct timespec ts = {1, 0};
        nanosleep(&ts, NULL);
    }
}

/* Ranks in the order of their host names (ties by rank), so that each
 * rank's first rank on the same host is found in one pass. */
struct by_host {
    const char *host;
    size_t hl;
    int rank;
};

static int cmp_by_host(const void *a, const void *b)
{
    const struct by_host *x = a, *y = b;
    int c = strncmp(x->host, y->host, x->hl);

    return c ? c : (x->rank > y->rank) - (x->rank < y->rank);
}

int sn_bench_job_placement(struct sn_bench_job *job, const struct sn_spec *spec,
                           struct sn_bench_placement *p, struct sn_error *err)
{
    size_t hl = sizeof(job->host);
    char *hosts = sn_xcalloc((size_t)job->size + 1, hl);
    int per = spec && spec->scaleup.per_node > 0 ? spec->scaleup.per_node : 1;
    struct by_host *order = NULL;
    struct sn_buf w;
    int rc, count = 0;

    memset(p, 0, sizeof(*p));
    rc = SN_MPI(MPI_Allgather(job->host, (int)hl, MPI_CHAR, hosts, (int)hl,
                              MPI_CHAR, job->comm),
                err);
    if (rc)
        goto out;
    p->nranks = job->size;
    p->host_of = sn_xcalloc((size_t)job->size + 1, sizeof(int));
    p->node_of = sn_xcalloc((size_t)job->size + 1, sizeof(int));
    /* each rank's host as the first rank on it (thousands of ranks: a
     * sort, not a comparison of every pair) */
    order = sn_xcalloc((size_t)job->size + 1, sizeof(*order));
    for (int r = 0; r < job->size; r++)
        order[r] = (struct by_host){hosts + (size_t)r * hl, hl, r};
    qsort(order, (size_t)job->size, sizeof(*order), cmp_by_host);
    for (int i = 0, first = 0; i < job->size; i++) {
        if (i && strncmp(order[i].host, order[i - 1].host, hl))
            first = i;
        p->host_of[order[i].rank] = order[first].rank;
    }
    sn_buf_init(&w);
    for (int r = 0; r < job->size; r++) {
        const char *h = hosts + (size_t)r * hl;
        /* the first rank on this host, and the first of this rank's node
         * (ranks fill nodes in order) */
        int first_host = p->host_of[r] < r ? p->host_of[r] : -1;
        int first_node = r / per * per < r ? r / per * per : -1;
        p->node_of[r] = r / per;
        if (spec && spec->hosts && (size_t)p->node_of[r] < spec->nhosts) {
            if (strncmp(spec->hosts[p->node_of[r]], h, hl)) {
                p->mismatches++;
                if (count++ < 3)
                    sn_buf_printf(&w,
                                  "%srank %d runs on %.64s, but the "
                                  "spec's hosts puts its node %d on "
                                  "%.64s",
                                  w.len ? "; " : "", r, h, p->node_of[r],
                                  spec->hosts[p->node_of[r]]);
            }
            if (first_host >= 0 && first_host / per != p->node_of[r])
                p->colocated = true;
            continue;
        }
        if (first_host >= 0 && first_host / per != p->node_of[r]) {
            p->mismatches++;
            p->colocated = true;
            if (count++ < 3)
                sn_buf_printf(&w,
                              "%sranks %d and %d both run on %.64s, but "
                              "the spec puts them on nodes %d and %d",
                              w.len ? "; " : "", first_host, r, h,
                              first_host / per, p->node_of[r]);
        } else if (first_node >= 0 &&
                   strncmp(hosts + (size_t)first_node * hl, h, hl)) {
            p->mismatches++;
            if (count++ < 3)
                sn_buf_printf(&w,
                              "%sranks %d and %d are node %d's in the "
                              "spec but run on %.64s and %.64s",
                              w.len ? "; " : "", first_node, r, p->node_of[r],
                              hosts + (size_t)first_node * hl, h);
        }
    }
    if (count > 3)
        sn_buf_printf(&w, "; %d more", count - 3);
    sn_strlcpy(p->what, w.len ? w.data : "", sizeof(p->what));
    sn_buf_release(&w);
out:
    free(order);
    free(hosts);
    return rc;
}

bool sn_bench_placement_colocated(const struct sn_bench_placement *p, int a,
                                  int b)
{
    if (!p || !p->host_of || a < 0 || b < 0 || a >= p->nranks || b >= p->nranks)
        return false;
    return p->host_of[a] == p->host_of[b] && p->node_of[a] != p->node_of[b];
}

void sn_bench_placement_release(struct sn_bench_placement *p)
{
    if (!p)
        return;
    free(p->host_of);
    free(p->node_of);
    p->host_of = p->node_of = NULL;
}
