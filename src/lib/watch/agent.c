/* agent.c: the node agent of watch.h. Each collector runs on a thread of
 * its own (a worker); a tick asks every idle worker to read, waits until
 * all have answered or the deadline passed, and merges what came back in
 * time. A worker still busy from an earlier tick is down for this one and
 * is not asked again until it returns: a hung driver call or BMC costs
 * one collector, never the scrape or the other collectors.
 *
 * An answer that comes back after its deadline is not thrown away: the
 * collector's own state (a kernel-log offset, an NVML event set) has
 * moved past what it read, so it is the only record of those events. It
 * is held as the worker's late answer and evaluated at the next harvest:
 * whole when there is no fresher reading, or, when the fresh run answers
 * in time, its events (kernel-log lines, XIDs) carried into the fresh
 * reading, whose snapshots supersede the late one's.
 *
 * A worker owns everything it touches while it runs (its collector's
 * state, its observations and registry, a copy of the configuration), so
 * a hung one can be left behind when the agent is freed: it frees itself
 * if its call ever returns. */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sn/schema.h"
#include "sn/store.h"
#include "sn/util.h"
#include "sn/watch.h"

#include "watch-int.h"

enum job { IDLE, ASKED, RUNNING, DONE };

/* What the agent and its workers share: one lock over every worker's job,
 * the condition the agent waits on, and the configuration. Counted: the
 * last of the agent and its workers to let go frees it (a hung worker may
 * outlive the agent). */
struct hub {
    pthread_mutex_t lock;
    pthread_cond_t done; /* a worker finished */
    int refs;
    struct sn__watch_cfg cfg;
    char *strings[8]; /* the copies cfg points into */
};

struct worker {
    const struct sn__watch_collector *col;
    struct hub *hub;
    pthread_t thread;
    pthread_cond_t cond; /* ASKED, or quit (under hub->lock) */
    enum job job;
    bool quit, left; /* left: the agent is gone, free yourself */
    double now;      /* the time of the tick asked for */
    void *state;
    bool opened;
    /* the last run's output, read by the agent when DONE */
    struct sn__watch_obs obs;
    struct sn_metrics m;
    int rc;
    struct sn_error err;
    double took_s;
    /* the agent's record of it (agent thread only) */
    bool has_late; /* late_obs and late_m hold an answer past its deadline */
    struct sn__watch_obs late_obs;
    struct sn_metrics late_m;
    bool up, asked_now;
    bool partial; /* its last answer said it read only part */
    double runs, errors, timeouts, last_ok, started;
    char said[SN_ERROR_MSG_MAX]; /* the last complaint logged */
};

struct sn_watch {
    struct worker **workers;
    size_t nworkers;
    struct hub *hub;
    struct sn__watch_rules *rules;
    double timeout_s, interval_s;
    double ticks, last_now, first_now;
    struct sn_watch_alert *alerts;
    size_t nalerts;
    void (*log)(void *log_ctx, const char *line); /* the options' */
    void *log_ctx;
};

static double mono_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- the hub ------------------------------------------------------------- */

static const char *keep(struct hub *h, size_t *n, const char *s)
{
    if (!s)
        return NULL;
    assert(*n < sizeof(h->strings) / sizeof(h->strings[0]));
    h->strings[*n] = sn_xstrdup(s);
    return h->strings[(*n)++];
}

static struct hub *hub_new(void)
{
    struct hub *h = sn_xcalloc(1, sizeof(*h));
    pthread_mutex_init(&h->lock, NULL);
    pthread_condattr_t ca;
    /* the deadline on the monotonic clock: a wall-clock step (NTP, an
     * operator's date) neither cuts a wait short nor stretches it */
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&h->done, &ca);
    pthread_condattr_destroy(&ca);
    h->refs = 1;
    return h;
}

static void hub_hold(struct hub *h)
{
    pthread_mutex_lock(&h->lock);
    h->refs++;
    pthread_mutex_unlock(&h->lock);
}

static void hub_release(struct hub *h)
{
    if (!h)
        return;
    pthread_mutex_lock(&h->lock);
    int refs = --h->refs;
    pthread_mutex_unlock(&h->lock);
    if (refs > 0)
        return;
    for (size_t i = 0; i < sizeof(h->strings) / sizeof(h->strings[0]); i++) {
        if (h->strings[i]) /* a password among them */
            memset(h->strings[i], 0, strlen(h->strings[i]));
        free(h->strings[i]);
    }
    pthread_mutex_destroy(&h->lock);
    pthread_cond_destroy(&h->done);
    free(h);
}

/* ---- a worker ------------------------------------------------------------ */

static void worker_free(struct worker *k)
{
    if (k->opened && k->col->close)
        k->col->close(k->state);
    sn__watch_obs_release(&k->obs);
    sn_metrics_release(&k->m);
    sn__watch_obs_release(&k->late_obs);
    sn_metrics_release(&k->late_m);
    pthread_cond_destroy(&k->cond);
    hub_release(k->hub);
    free(k);
}

/* One run of the collector, on the worker's thread: open it first when
 * it is not open (a failed open is this run's error). */
static void run_once(struct worker *k, double now)
{
    struct sn_error err = {0};
    double t0 = mono_s();
    int rc = SN_OK;

    sn__watch_obs_release(&k->obs);
    sn__watch_obs_init(&k->obs, now);
    sn_metrics_release(&k->m);
    if (!k->opened) {
        rc = k->col->open(&k->hub->cfg, &k->state, &err);
        k->opened = rc == SN_OK;
    }
    if (rc == SN_OK)
        rc = k->col->collect(k->state, &k->obs, &k->m, &err);
    k->rc = rc;
    k->err = err;
    k->took_s = mono_s() - t0;
}

static void *worker_main(void *arg)
{
    struct worker *k = arg;
    struct hub *h = k->hub;
    bool left;

    pthread_mutex_lock(&h->lock);
    for (;;) {
        while (k->job != ASKED && !k->quit)
            pthread_cond_wait(&k->cond, &h->lock);
        if (k->quit)
            break;
        k->job = RUNNING;
        double now = k->now;
        pthread_mutex_unlock(&h->lock);
        run_once(k, now);
        pthread_mutex_lock(&h->lock);
        k->job = DONE;
        pthread_cond_broadcast(&h->done);
    }
    left = k->left;
    pthread_mutex_unlock(&h->lock);
    if (left) /* detached by sn_watch_free: nobody else will */
        worker_free(k);
    return NULL;
}

/* ---- the agent ----------------------------------------------------------- */

static int start_worker(struct sn_watch *w,
                        const struct sn__watch_collector *col,
                        struct sn_error *err)
{
    struct worker *k = sn_xcalloc(1, sizeof(*k));
    k->col = col;
    k->hub = w->hub;
    k->last_ok = NAN;
    sn__watch_obs_init(&k->obs, 0);
    sn__watch_obs_init(&k->late_obs, 0);
    pthread_cond_init(&k->cond, NULL);
    hub_hold(w->hub);
    if (pthread_create(&k->thread, NULL, worker_main, k) != 0) {
        worker_free(k);
        return sn_error_set(err, SN_ERUNTIME,
                            "cannot start the %s collector's thread: %s",
                            col->name, strerror(errno));
    }
    w->workers[w->nworkers++] = k;
    return SN_OK;
}

/* The collectors this agent runs, by its options. */
static size_t pick_collectors(const struct sn_watch_opts *o,
                              const struct sn__watch_collector **out)
{
    size_t n = 0;
    if (!o->nvml || strcmp(o->nvml, "none") != 0)
        out[n++] = &sn__watch_col_nvml;
    out[n++] = &sn__watch_col_hwmon;
    out[n++] = &sn__watch_col_pci;
    out[n++] = &sn__watch_col_net;
    out[n++] = &sn__watch_col_klog;
    if (o->redfish_url)
        out[n++] = &sn__watch_col_redfish;
    return n;
}

/* Credentials "user:password" from a file only its owner can read. */
static int read_credentials(const char *path, struct hub *c, size_t *ns,
                            struct sn_error *err)
{
    char user[256], pass[256];
    int rc = sn__watch_read_credentials(path, user, sizeof(user), pass,
                                        sizeof(pass), err);
    if (rc)
        return rc;
    c->cfg.redfish_user = keep(c, ns, user);
    c->cfg.redfish_password = keep(c, ns, pass);
    memset(pass, 0, sizeof(pass));
    return SN_OK;
}

static int make_cfg(const struct sn_watch_opts *o, struct hub *c,
                    struct sn_error *err)
{
    size_t ns = 0;
    int rc = SN_OK;

    if (o->redfish_credentials && !o->redfish_url)
        return sn_error_set(err, SN_EINPUT,
                            "--redfish-credentials without --redfish URL");
    c->cfg.fsroot =
        keep(c, &ns, o->fsroot && strcmp(o->fsroot, "/") ? o->fsroot : "");
    c->cfg.nvml = keep(c, &ns, o->nvml ? o->nvml : "libnvidia-ml.so.1");
    c->cfg.redfish_url = keep(c, &ns, o->redfish_url);
    c->cfg.redfish_ca = keep(c, &ns, o->redfish_ca);
    c->cfg.redfish_insecure = o->redfish_insecure;
    c->cfg.spec = o->spec;
    if (o->redfish_credentials) {
        rc = read_credentials(o->redfish_credentials, c, &ns, err);
        if (rc)
            sn_error_prefix(err, "--redfish-credentials");
    }
    return rc;
}

int sn__watch_new_with(const struct sn_watch_opts *opts,
                       const struct sn__watch_collector *const *cols,
                       size_t ncols, struct sn_watch **out,
                       struct sn_error *err)
{
    struct sn_watch *w = sn_xcalloc(1, sizeof(*w));
    char host[256] = "";
    int rc;

    *out = NULL;
    w->hub = hub_new();
    w->interval_s =
        opts->interval_s > 0 ? opts->interval_s : SN_WATCH_INTERVAL_S;
    w->timeout_s = opts->timeout_s > 0 ? opts->timeout_s : 0.8 * w->interval_s;
    w->last_now = NAN;
    w->log = opts->log;
    w->log_ctx = opts->log_ctx;
    rc = make_cfg(opts, w->hub, err);
    if (rc)
        goto fail;
    w->hub->cfg.timeout_s = w->timeout_s;
    if (opts->host)
        snprintf(host, sizeof(host), "%s", opts->host);
    else if (gethostname(host, sizeof(host) - 1) != 0)
        snprintf(host, sizeof(host), "localhost");
    rc = sn__watch_rules_new(opts->spec, opts->store, host, &w->rules, err);
    if (rc)
        goto fail;
    w->workers = sn_xcalloc(ncols ? ncols : 1, sizeof(*w->workers));
    for (size_t i = 0; i < ncols; i++) {
        rc = start_worker(w, cols[i], err);
        if (rc)
            goto fail;
    }
    *out = w;
    return SN_OK;
fail:
    sn_watch_free(w);
    return rc;
}

int sn_watch_new(const struct sn_watch_opts *opts, struct sn_watch **out,
                 struct sn_error *err)
{
    const struct sn__watch_collector *cols[8];
    size_t n = pick_collectors(opts, cols);
    return sn__watch_new_with(opts, cols, n, out, err);
}

static void complain(struct sn_watch *w, struct worker *k, const char *msg);

/* Keep worker k's answer, which came back after its deadline, as its late
 * answer (under the hub's lock; k is DONE and not harvested). A late
 * answer still held (none should be: each harvest takes it) keeps its
 * events. */
static void take_late(struct sn_watch *w, struct worker *k)
{
    if (k->has_late) {
        sn__watch_obs_carry_events(&k->obs, &k->late_obs);
        sn_metrics_release(&k->late_m);
    }
    bool partial = k->obs.partial;
    sn__watch_obs_release(&k->late_obs);
    sn__watch_obs_absorb(&k->late_obs, &k->obs);
    k->late_obs.now = k->obs.now;
    k->late_obs.partial = partial;
    k->late_m = k->m;
    memset(&k->m, 0, sizeof(k->m));
    k->has_late = true;
    k->runs++;
    if (k->rc != SN_OK) {
        k->errors++;
        complain(w, k, k->err.msg[0] ? k->err.msg : "failed");
    }
    k->job = IDLE;
}

/* Ask every idle worker for the tick at now; a busy one is left busy.
 * A worker that answered after the last deadline has its answer taken
 * first, so the new run cannot overwrite it. */
static void ask_all(struct sn_watch *w, double now)
{
    pthread_mutex_lock(&w->hub->lock);
    for (size_t i = 0; i < w->nworkers; i++) {
        struct worker *k = w->workers[i];
        if (k->job == DONE)
            take_late(w, k);
        k->asked_now = k->job == IDLE || k->job == DONE;
        if (k->asked_now) {
            k->job = ASKED;
            k->now = now;
            k->started = mono_s();
            pthread_cond_signal(&k->cond);
        }
    }
    pthread_mutex_unlock(&w->hub->lock);
}

/* Under the hub's lock. */
static bool all_answered(const struct sn_watch *w)
{
    for (size_t i = 0; i < w->nworkers; i++)
        if (w->workers[i]->asked_now && w->workers[i]->job != DONE)
            return false;
    return true;
}

/* Wait until every asked worker answered or timeout_s passed; returns
 * with the hub locked, so the workers' outputs can be read. */
static void wait_all(struct sn_watch *w)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    double end =
        (double)until.tv_sec + (double)until.tv_nsec / 1e9 + w->timeout_s;
    until.tv_sec = (time_t)end;
    until.tv_nsec = (long)((end - (double)until.tv_sec) * 1e9);
    pthread_mutex_lock(&w->hub->lock);
    while (!all_answered(w))
        if (pthread_cond_timedwait(&w->hub->done, &w->hub->lock, &until) ==
            ETIMEDOUT)
            break;
}

/* Hand one line to the options' log, when there is one. */
static void say(const struct sn_watch *w, const char *fmt, ...) SN_PRINTF(2, 3);
static void say(const struct sn_watch *w, const char *fmt, ...)
{
    char line[512];
    va_list ap;

    if (!w->log)
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    w->log(w->log_ctx, line);
}

/* Log a collector's complaint once, not every interval it lasts. */
static void complain(struct sn_watch *w, struct worker *k, const char *msg)
{
    if (strcmp(k->said, msg) == 0)
        return;
    snprintf(k->said, sizeof(k->said), "%s", msg);
    if (*msg)
        say(w, "collector %s: %s", k->col->name, msg);
    else
        say(w, "collector %s: answering again", k->col->name);
}

/* Take worker k's answer into the tick (under the hub's lock). */
static void harvest(struct sn_watch *w, struct worker *k,
                    struct sn__watch_obs *obs, struct sn_metrics *m,
                    struct sn_error *err)
{
    struct sn_error e = {0};

    if (!k->asked_now && k->job == DONE)
        take_late(w, k); /* busy at the ask, back within this tick's wait */
    if (!k->asked_now || k->job != DONE) {
        /* asked and not back, or still busy from an earlier tick: down,
         * but what it read late is this tick's reading */
        k->up = false;
        k->timeouts++;
        complain(w, k,
                 "no answer by the deadline (left running; not asked "
                 "again until it returns)");
        if (k->has_late) {
            k->partial = k->late_obs.partial;
            if (sn__watch_obs_absorb(obs, &k->late_obs) != 0)
                say(w,
                    "collector %s: more than %d entries of one kind; the rest "
                    "dropped",
                    k->col->name, SN_WATCH_ITEMS_MAX);
            if (sn_metrics_merge(m, &k->late_m, &e) && err->code == SN_OK)
                *err = e;
            sn_metrics_release(&k->late_m);
            k->has_late = false;
        }
        return;
    }
    if (k->has_late) { /* superseded but for its events */
        if (sn__watch_obs_carry_events(&k->obs, &k->late_obs) != 0)
            say(w,
                "collector %s: more than %d entries of one kind; the rest "
                "dropped",
                k->col->name, SN_WATCH_ITEMS_MAX);
        sn_metrics_release(&k->late_m);
        k->has_late = false;
    }
    k->runs++;
    k->up = k->rc == SN_OK;
    k->partial = k->obs.partial;
    if (k->up) {
        k->last_ok = obs->now;
        if (k->said[0])
            complain(w, k, "");
    } else {
        k->errors++;
        complain(w, k, k->err.msg[0] ? k->err.msg : "failed");
    }
    /* what a failing collector read before it failed still counts */
    if (sn__watch_obs_absorb(obs, &k->obs) != 0)
        say(w,
            "collector %s: more than %d entries of one kind; the rest dropped",
            k->col->name, SN_WATCH_ITEMS_MAX);
    if (sn_metrics_merge(m, &k->m, &e) && err->code == SN_OK)
        *err = e;
    sn_metrics_release(&k->m);
    k->job = IDLE;
}

/* The agent's own samples: each collector's state, the tick, the build. */
static void own_metrics(struct sn_watch *w, struct sn_metrics *m,
                        struct sn_error *err)
{
    struct sn_metrics_label build[] = {{"version", SN_VERSION}};
    for (size_t i = 0; i < w->nworkers; i++) {
        const struct worker *k = w->workers[i];
        struct sn_metrics_label l[] = {{"collector", k->col->name}};
        sn__watch_gauge(m, "supernode_collector_up",
                        "1 when the collector answered without error in "
                        "this interval, 0 when it failed or did not answer "
                        "in time.",
                        l, 1, k->up ? 1 : 0, err);
        if (k->up)
            sn__watch_gauge(m, "supernode_collector_duration_seconds",
                            "Time the collector's last answer took.", l, 1,
                            k->took_s, err);
        sn__watch_gauge(m, "supernode_collector_partial",
                        "1 when the collector's last answer was partial: "
                        "its time ran out before it read everything (the "
                        "most critical first; the rest at the next "
                        "interval).",
                        l, 1, k->partial ? 1 : 0, err);
        sn__watch_counter(m, "supernode_collector_errors_total",
                          "Intervals in which the collector failed.", l, 1,
                          k->errors, err);
        sn__watch_counter(m, "supernode_collector_timeouts_total",
                          "Intervals in which the collector did not answer "
                          "by the deadline (a hung driver call or BMC).",
                          l, 1, k->timeouts, err);
    }
    sn__watch_counter(m, "supernode_watch_intervals_total",
                      "Intervals the agent has collected.", NULL, 0, w->ticks,
                      err);
    sn__watch_gauge(m, "supernode_watch_last_interval_timestamp_seconds",
                    "When the last interval was collected (Unix time).", NULL,
                    0, w->last_now, err);
    sn_metrics_add_family(m, "supernode_build_info",
                          "The build of the agent (value 1).", SN_METRICS_INFO,
                          NULL);
    sn_metrics_add(m, "supernode_build_info", build, 1, 1, NULL);
}

static void keep_alerts(struct sn_watch *w)
{
    const struct sn_watch_alert *a;
    size_t n = sn__watch_rules_active(w->rules, &a);
    free(w->alerts);
    w->alerts = n ? sn_xcalloc(n, sizeof(*a)) : NULL;
    if (n)
        memcpy(w->alerts, a, n * sizeof(*a));
    w->nalerts = n;
}

int sn_watch_tick(struct sn_watch *w, double now, struct sn_metrics *m,
                  struct sn_error *err)
{
    struct sn__watch_obs obs;
    struct sn_error e = {0};
    int rc;

    sn_metrics_release(m);
    sn__watch_obs_init(&obs, now);
    ask_all(w, now);
    wait_all(w); /* returns holding the hub's lock */
    for (size_t i = 0; i < w->nworkers; i++)
        harvest(w, w->workers[i], &obs, m, &e);
    pthread_mutex_unlock(&w->hub->lock);
    if (w->ticks == 0)
        w->first_now = now;
    w->ticks++;
    w->last_now = now;
    rc = sn__watch_rules_eval(w->rules, &obs, m, &e);
    if (rc)
        say(w, "rules: %s", e.msg);
    keep_alerts(w);
    own_metrics(w, m, &e);
    sn__watch_obs_release(&obs);
    if (e.code == SN_ENOMEM) {
        if (err)
            *err = e;
        return SN_ENOMEM;
    }
    return SN_OK;
}

size_t sn_watch_alerts(const struct sn_watch *w,
                       const struct sn_watch_alert **out)
{
    *out = w->alerts;
    return w->nalerts;
}

bool sn_watch_healthy(const struct sn_watch *w, double now, char *why,
                      size_t size)
{
    /* a collector with no good reading for three intervals is stale */
    double limit = 3 * w->interval_s;
    for (size_t i = 0; i < w->nworkers; i++) {
        const struct worker *k = w->workers[i];
        double age = isnan(k->last_ok) ? now - w->first_now : now - k->last_ok;
        if (w->ticks >= 1 && !k->up && age >= limit) {
            snprintf(why, size,
                     "collector %s: no good reading for %.0f s (limit "
                     "%.0f s: three intervals)",
                     k->col->name, age, limit);
            return false;
        }
    }
    for (size_t i = 0; i < w->nworkers; i++) {
        const struct worker *k = w->workers[i];
        if (w->ticks >= 1 && k->partial) {
            snprintf(why, size,
                     "collector %s: partial reading: the interval's time "
                     "ran out before it read everything (the rest is read "
                     "at the next interval; raise --timeout or "
                     "--interval)",
                     k->col->name);
            return false;
        }
    }
    if (size)
        why[0] = 0;
    return true;
}

void sn_watch_free(struct sn_watch *w)
{
    if (!w)
        return;
    struct hub *h = w->hub;
    bool *busy = sn_xcalloc(w->nworkers ? w->nworkers : 1, sizeof(*busy));

    pthread_mutex_lock(&h->lock);
    for (size_t i = 0; i < w->nworkers; i++) {
        struct worker *k = w->workers[i];
        busy[i] = k->job == ASKED || k->job == RUNNING;
        k->quit = true;
        k->left = busy[i];
        pthread_cond_signal(&k->cond);
    }
    pthread_mutex_unlock(&h->lock);
    for (size_t i = 0; i < w->nworkers; i++) {
        if (busy[i]) { /* it frees itself if its call ever returns */
            pthread_detach(w->workers[i]->thread);
            continue;
        }
        pthread_join(w->workers[i]->thread, NULL);
        worker_free(w->workers[i]);
    }
    free(busy);
    free(w->workers);
    sn__watch_rules_free(w->rules);
    free(w->alerts);
    hub_release(h);
    free(w);
}

int sn_watch_read_credentials(const char *path, char *user, size_t user_size,
                              char *pass, size_t pass_size,
                              struct sn_error *err)
{
    return sn__watch_read_credentials(path, user, user_size, pass, pass_size,
                                      err);
}
