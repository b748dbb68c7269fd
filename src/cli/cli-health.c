/* cli-health.c: the node-health options doctor and check share, the
 * environment hwloc needs to follow --fsroot, and a report as the rows
 * the store keeps with a run. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli-health.h"
#include "cmd.h"

bool cli_health_opt(int argc, char **argv, int *i, struct cli_health_opts *o,
                    int *rc)
{
    const char *v;

    if ((v = cli_opt_value(argc, argv, i, "--fsroot", NULL, rc)))
        o->fsroot = v;
    else if ((v = cli_opt_value(argc, argv, i, "--nvml", NULL, rc)))
        o->nvml = v;
    else if ((v = cli_opt_value(argc, argv, i, "--matrix", NULL, rc)))
        o->matrix = v;
    return v != NULL;
}

const char *cli_nvml_library(const char *opt)
{
    if (opt)
        return strcmp(opt, "none") ? opt : "";
    return getenv("SN_NVML_LIBRARY");
}

int cli_health_setup(const struct cli_health_opts *o,
                     struct sn_health_config *cfg,
                     struct sn_health_matrix **matrix, struct sn_error *err)
{
    const char *env_root = getenv("HWLOC_FSROOT");
    struct stat st;

    *matrix = NULL;
    /* the environment can point at another NVML (a test double, a driver
     * outside the loader path); --nvml wins over it */
    if (cli_nvml_library(o->nvml))
        cfg->nvml_library = cli_nvml_library(o->nvml);
    /* an HWLOC_FSROOT already set is the default root: hwloc and the
     * other probes then read the same tree */
    if (o->fsroot && strcmp(o->fsroot, "/")) {
        if (stat(o->fsroot, &st) != 0)
            return sn_error_set(err, SN_EINPUT, "%s: cannot use as root: %s",
                                o->fsroot, strerror(errno));
        if (!S_ISDIR(st.st_mode))
            return sn_error_set(err, SN_EINPUT,
                                "%s: cannot use as root: not a directory",
                                o->fsroot);
        cfg->fsroot = o->fsroot;
    } else if (o->fsroot) {
        cfg->fsroot = "/";
    } else if (env_root && *env_root) {
        cfg->fsroot = env_root;
    }
    if (o->matrix)
        return sn_health_matrix_load(o->matrix, matrix, err);
    return SN_OK;
}

void cli_health_env_begin(const struct sn_health_config *cfg, char **saved)
{
    const char *now = getenv("HWLOC_FSROOT");

    *saved = now ? sn_xstrdup(now) : NULL;
    if (cfg->fsroot && *cfg->fsroot && strcmp(cfg->fsroot, "/"))
        setenv("HWLOC_FSROOT", cfg->fsroot, 1);
    else
        unsetenv("HWLOC_FSROOT");
}

void cli_health_env_end(char *saved)
{
    if (saved)
        setenv("HWLOC_FSROOT", saved, 1);
    else
        unsetenv("HWLOC_FSROOT");
    free(saved);
}

void cli_health_rows(const struct sn_health_report *rep, const char *host,
                     struct sn_store_health **rows, size_t *n, size_t *cap)
{
    for (size_t i = 0; i < rep->nchecks; i++) {
        const struct sn_health_check *c = &rep->checks[i];
        sn_store_health_add(rows, n, cap, host, c->name,
                            sn_health_status_label(c->status), c->subject,
                            c->evidence, c->remedy);
    }
}

struct deadline {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool done;
    long long seconds;
    void (*expire)(void *ctx);
    void *ctx;
};

/* Past the deadline the probes are stuck (a FIFO where a sysfs attribute
 * should be, which hwloc reads blocking; a driver call that never
 * returns): no thread can unstick them, so expire() ends the process. */
static void *deadline_main(void *arg)
{
    struct deadline *d = arg;
    struct timespec until;
    bool fired = false;

    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)d->seconds;
    pthread_mutex_lock(&d->lock);
    while (!d->done && !fired)
        fired = pthread_cond_timedwait(&d->cond, &d->lock, &until) == ETIMEDOUT;
    fired = fired && !d->done;
    pthread_mutex_unlock(&d->lock);
    if (fired)
        d->expire(d->ctx);
    return NULL;
}

int cli_health_run_bounded(const struct sn_health_config *cfg,
                           struct sn_health_report *rep, long long seconds,
                           void (*expire)(void *ctx), void *ctx,
                           struct sn_error *err)
{
    struct deadline d;
    pthread_t th;
    bool watching;
    char *saved = NULL;
    int rc;

    memset(&d, 0, sizeof(d));
    pthread_mutex_init(&d.lock, NULL);
    pthread_cond_init(&d.cond, NULL);
    d.seconds = seconds;
    d.expire = expire;
    d.ctx = ctx;
    watching = pthread_create(&th, NULL, deadline_main, &d) == 0;
    cli_health_env_begin(cfg, &saved);
    rc = sn_health_run(cfg, rep, err);
    cli_health_env_end(saved);
    if (watching) {
        pthread_mutex_lock(&d.lock);
        d.done = true;
        pthread_cond_signal(&d.cond);
        pthread_mutex_unlock(&d.lock);
        pthread_join(th, NULL);
    }
    pthread_cond_destroy(&d.cond);
    pthread_mutex_destroy(&d.lock);
    return rc;
}
