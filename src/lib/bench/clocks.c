/* clocks.c: this rank's GPU held for a run: clocks locked (--lock-clocks)
 * or its power limit set (bench power), through the hardware layer
 * (../hw/clocks.c), and put back at the end, on error and when the job is
 * cut short.
 *
 * Why the restore runs where it does: a signal handler may call only
 * async-signal-safe functions, and NVML's calls are not among them. The
 * bench's handler (job.c) only writes the signal number to a self-pipe;
 * the watchdog thread reads it and ends the run through fire(), which
 * calls sn__bench_clocks_restore() from ordinary thread context before
 * MPI_Abort. A timeout and a rank's failure end the run through fire()
 * too, and the normal end restores in sn_bench_run(). The hold is guarded
 * by a mutex so that the main thread's change and the watchdog's restore
 * never interleave. What cannot be covered: SIGKILL (and the OOM killer)
 * end the process with no code run; docs/bench.md says how to reset by
 * hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../hw/hw-int.h"
#include "bench-int.h"

/* This rank's GPU: the backend's device by PCI bus id (cuda), else the
 * local_rank-th GPU NVML lists on the host (the cpu backend, whose ranks
 * still sit beside a host's GPUs one each). */
static int rank_gpu(struct sn__bench_ctx *c, struct sn__hw_nvml *n,
                    nvmlDevice_t *dev, struct sn_error *err)
{
    unsigned count = 0;
    nvmlReturn_t r;
    char e[160];

    if (c->pci[0] && n->GetHandleByPci) {
        r = n->GetHandleByPci(c->pci, dev);
        if (r != NVML_SUCCESS)
            return sn_error_set(err, SN_ERUNTIME,
                                "NVML does not know GPU %s: %s", c->pci,
                                sn__hw_nvml_error(n, r, e, sizeof(e)));
        return SN_OK;
    }
    r = n->GetCount(&count);
    if (r == NVML_SUCCESS && count == 0)
        return sn_error_set(err, SN_ENOTSUP,
                            "no GPU on host '%s' to lock the clocks of",
                            c->job->host);
    if (r == NVML_SUCCESS)
        r = n->GetHandle((unsigned)c->job->local_rank % count, dev);
    if (r != NVML_SUCCESS)
        return sn_error_set(err, SN_ERUNTIME, "NVML: %s",
                            sn__hw_nvml_error(n, r, e, sizeof(e)));
    return SN_OK;
}

/* NVML's refusal as our error: permission and support get their remedy */
static int refused(struct sn__bench_ctx *c, struct sn__hw_nvml *n,
                   nvmlReturn_t r, const char *what, struct sn_error *err)
{
    char e[160];

    if (r == NVML_ERROR_NO_PERMISSION)
        return sn_error_set(err, SN_ERUNTIME,
                            "%s on host '%s': no permission (NVML changes "
                            "clocks and power limits for root only: run as "
                            "root, see docs/bench.md)",
                            what, c->job->host);
    if (r == NVML_ERROR_NOT_SUPPORTED || r == NVML_ERROR_FUNCTION_NOT_FOUND)
        return sn_error_set(err, SN_ENOTSUP,
                            "%s on host '%s': not supported by this GPU or "
                            "driver (locked clocks need Volta, locked memory "
                            "clocks Ampere or newer)",
                            what, c->job->host);
    return sn_error_set(err, SN_ERUNTIME, "%s on host '%s': %s", what,
                        c->job->host, sn__hw_nvml_error(n, r, e, sizeof(e)));
}

int sn__bench_gpu(struct sn__bench_ctx *c, struct sn__hw_nvml **n,
                  struct nvmlDevice_st **dev, struct sn_error *err)
{
    *n = sn__bench_nvml(c);
    if (!*n)
        return sn_error_set(err, SN_ENOTSUP,
                            "cannot hold the GPU's clocks: NVML (%s) is not "
                            "loaded",
                            c->o.nvml_library && *c->o.nvml_library
                                ? c->o.nvml_library
                                : "none");
    if (!c->hold)
        c->hold = sn_xcalloc(1, sizeof(*c->hold));
    return rank_gpu(c, *n, dev, err);
}

int sn__bench_clocks_lock(struct sn__bench_ctx *c, struct sn_error *err)
{
    unsigned sm = c->o.lock_sm_mhz, mem = c->o.lock_mem_mhz;
    struct sn__hw_nvml *n;
    nvmlDevice_t dev;
    char why[400];
    nvmlReturn_t r;
    int rc;

    if (!c->o.lock_clocks)
        return SN_OK;
    if ((rc = sn__bench_gpu(c, &n, &dev, err)))
        return rc;
    r = sn__hw_clocks_pick(n, dev, &sm, &mem, why, sizeof(why));
    if (r == NVML_ERROR_INVALID_ARGUMENT)
        return sn_error_set(err, SN_EINPUT, "--lock-clocks %u:%u: %s",
                            c->o.lock_sm_mhz, c->o.lock_mem_mhz, why);
    if (r != NVML_SUCCESS)
        return refused(c, n, r, "cannot lock the clocks", err);
    pthread_mutex_lock(&c->hold_lock);
    r = sn__hw_clocks_lock(n, dev, sm, mem, c->hold);
    pthread_mutex_unlock(&c->hold_lock);
    if (r != NVML_SUCCESS)
        return refused(c, n, r, "cannot lock the clocks", err);
    return SN_OK;
}

int sn__bench_clocks_restore(struct sn__bench_ctx *c, struct sn_error *err)
{
    nvmlReturn_t r = NVML_SUCCESS;
    struct sn__hw_nvml *n = c->nvml;

    if (!c->hold || !n)
        return SN_OK;
    pthread_mutex_lock(&c->hold_lock);
    r = sn__hw_clocks_restore(n, c->hold);
    /* a run being aborted (fire) keeps the lock until the process ends:
     * the main thread, still running, must not set the GPU again (bench
     * power's next point) after it was put back */
    if (!atomic_load(&c->aborting))
        pthread_mutex_unlock(&c->hold_lock);
    if (r != NVML_SUCCESS)
        return refused(c, n, r, "cannot restore the GPU's clocks", err);
    return SN_OK;
}

/* The clocks the rank's GPU is held at, for the rank table (0: none). */
void sn__bench_clocks_held(struct sn__bench_ctx *c, unsigned *sm_mhz,
                           unsigned *mem_mhz)
{
    *sm_mhz = *mem_mhz = 0;
    if (!c->hold)
        return;
    pthread_mutex_lock(&c->hold_lock);
    if (c->hold->sm_locked)
        *sm_mhz = c->hold->sm_mhz;
    if (c->hold->mem_locked)
        *mem_mhz = c->hold->mem_mhz;
    pthread_mutex_unlock(&c->hold_lock);
}
