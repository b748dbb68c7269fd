/* test-watch-agent.c: the node agent's collection (agent.c) with
 * collectors of the test's own: one that answers, one that fails, one
 * that hangs until the test lets it go, one whose open fails once. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "sn/metrics.h"
#include "sn/sn.h"
#include "sn/util.h"
#include "sn/watch.h"

#include "../../src/lib/watch/watch-int.h"

static double mono(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- the test's collectors ---------------------------------------------- */

static int open_ok(const struct sn__watch_cfg *cfg, void **state,
                   struct sn_error *err)
{
    int *calls = sn_xcalloc(1, sizeof(*calls));
    *state = calls;
    return SN_OK;
}

static void close_free(void *state)
{
    free(state);
}

/* a reading per call: the tick's time, and one sensor */
static int collect_ok(void *state, struct sn__watch_obs *obs,
                      struct sn_metrics *m, struct sn_error *err)
{
    int *calls = state;
    struct sn_metrics_label l[] = {{"n", "1"}};
    struct sn__watch_sensor *s = SN_WATCH_PUSH(obs, sensors);
    (*calls)++;
    snprintf(s->chip, sizeof(s->chip), "test");
    s->kind = SN_WATCH_TEMP;
    s->value = 40;
    sn__watch_gauge(m, "supernode_test_now_seconds", "The tick's time.", l, 1,
                    obs->now, err);
    return sn__watch_counter(m, "supernode_test_calls_total", "Calls.", NULL, 0,
                             *calls, err);
}

static int collect_fail(void *state, struct sn__watch_obs *obs,
                        struct sn_metrics *m, struct sn_error *err)
{
    sn__watch_gauge(m, "supernode_test_partial", "Read before failing.", NULL,
                    0, 7, err);
    return sn_error_set(err, SN_EIO, "the sensor bus did not answer");
}

/* the hang: blocks until the test sets release */
static pthread_mutex_t hang_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hang_cond = PTHREAD_COND_INITIALIZER;
static int release;
static int hang_closed;

static int collect_hang(void *state, struct sn__watch_obs *obs,
                        struct sn_metrics *m, struct sn_error *err)
{
    pthread_mutex_lock(&hang_lock);
    while (!release)
        pthread_cond_wait(&hang_cond, &hang_lock);
    pthread_mutex_unlock(&hang_lock);
    return sn__watch_gauge(m, "supernode_test_hang_back", "Back.", NULL, 0, 1,
                           err);
}

static void close_hang(void *state)
{
    free(state);
    pthread_mutex_lock(&hang_lock);
    hang_closed++;
    pthread_mutex_unlock(&hang_lock);
}

static void let_go(void)
{
    pthread_mutex_lock(&hang_lock);
    release = 1;
    pthread_cond_broadcast(&hang_cond);
    pthread_mutex_unlock(&hang_lock);
}

static int opens;
static int open_once_fails(const struct sn__watch_cfg *cfg, void **state,
                           struct sn_error *err)
{
    if (opens++ == 0)
        return sn_error_set(err, SN_EIO, "the library is not loaded yet");
    return open_ok(cfg, state, err);
}

/* fails at its first two calls, answers after */
static int flaky_calls;
static int collect_flaky(void *state, struct sn__watch_obs *obs,
                         struct sn_metrics *m, struct sn_error *err)
{
    if (flaky_calls++ < 2)
        return sn_error_set(err, SN_EIO, "the sensor bus did not answer");
    return collect_ok(state, obs, m, err);
}

static const struct sn__watch_collector ok = {"ok", open_ok, collect_ok,
                                              close_free};
static const struct sn__watch_collector fail = {"fail", open_ok, collect_fail,
                                                close_free};
static const struct sn__watch_collector hang = {"hang", open_ok, collect_hang,
                                                close_hang};
static const struct sn__watch_collector flaky = {"flaky", open_ok,
                                                 collect_flaky, close_free};
static const struct sn__watch_collector late = {"late", open_once_fails,
                                                collect_ok, close_free};

/* slow the first time: it reads an NVML XID 79 on one GPU and a kernel-log
 * XID 48 on another, and answers after the deadline; after that it reads
 * the first GPU again, at once and with nothing new */
static int slow_calls, slow_n = 1;
static int collect_slow_once(void *state, struct sn__watch_obs *obs,
                             struct sn_metrics *m, struct sn_error *err)
{
    struct sn__watch_gpu *g = SN_WATCH_PUSH(obs, gpus);
    snprintf(g->bus, sizeof(g->bus), "0000:17:00.0");
    g->temp_c = 40;
    if (slow_calls++ == 0) {
        struct sn__watch_klog *k = SN_WATCH_PUSH(obs, klog);
        g->xids[g->nxids++] = 79;
        k->kind = SN_WATCH_KLOG_XID;
        k->code = 48;
        snprintf(k->dev, sizeof(k->dev), "0000:65:00.0");
    }
    if (slow_calls <= slow_n)
        usleep(300000);
    return sn__watch_gauge(m, "supernode_test_slow_call", "The call.", NULL, 0,
                           slow_calls, err);
}

static const struct sn__watch_collector slow = {"slow", open_ok,
                                                collect_slow_once, close_free};

/* ---- helpers ----------------------------------------------------------- */

/* the agent's log (sn_watch_opts.log), one line after another */
static void keep_log(void *ctx, const char *line)
{
    sn_buf_printf(ctx, "%s\n", line);
}

static char *render(const struct sn_metrics *m)
{
    struct sn_buf b = SN_BUF_INIT;
    sn_metrics_render_text(m, &b);
    return sn_buf_detach(&b, NULL);
}

static void check_line(const char *text, const char *line)
{
    char want[256];
    snprintf(want, sizeof(want), "\n%s\n", line);
    CHECK_CONTAINS(text, want);
}

/* ---- cases -------------------------------------------------------------- */

/* A collector that fails is down with its error counted; what it read
 * before failing and every other collector's samples are still there. */
static void test_watch_agent_failing_collector_is_down(void)
{
    const struct sn__watch_collector *cols[] = {&ok, &fail};
    struct sn_watch_opts o = {.interval_s = 1, .nvml = "none"};
    struct sn_watch *w = NULL;
    struct sn_metrics m = {0};
    struct sn_error err = {0};
    char *t;

    REQUIRE(sn__watch_new_with(&o, cols, 2, &w, &err) == SN_OK);
    CHECK(sn_watch_tick(w, 1000, &m, &err) == SN_OK);
    t = render(&m);
    check_line(t, "supernode_collector_up{collector=\"ok\"} 1");
    check_line(t, "supernode_collector_up{collector=\"fail\"} 0");
    check_line(t, "supernode_collector_errors_total{collector=\"fail\"} 1");
    check_line(t, "supernode_collector_errors_total{collector=\"ok\"} 0");
    check_line(t, "supernode_test_partial 7");
    check_line(t, "supernode_test_now_seconds{n=\"1\"} 1000");
    check_line(t, "supernode_watch_intervals_total 1");
    check_line(t, "supernode_build_info{version=\"" SN_VERSION "\"} 1");
    free(t);
    CHECK(sn_watch_tick(w, 1001, &m, &err) == SN_OK);
    t = render(&m);
    check_line(t, "supernode_collector_errors_total{collector=\"fail\"} 2");
    check_line(t, "supernode_test_calls_total 2");
    free(t);
    sn_metrics_release(&m);
    sn_watch_free(w);
}

/* The agent says what goes wrong through the options' log, not on a
 * stream: a collector's complaint once when it starts, nothing while it
 * lasts, once when the collector answers again; nothing from the ones
 * that answer. */
static void test_watch_agent_logs_through_the_callback(void)
{
    const struct sn__watch_collector *cols[] = {&ok, &flaky};
    struct sn_buf log = SN_BUF_INIT;
    struct sn_watch_opts o = {
        .interval_s = 1, .log = keep_log, .log_ctx = &log};
    struct sn_watch *w = NULL;
    struct sn_metrics m = {0};
    struct sn_error err = {0};

    flaky_calls = 0;
    REQUIRE(sn__watch_new_with(&o, cols, 2, &w, &err) == SN_OK);
    CHECK(sn_watch_tick(w, 1, &m, &err) == SN_OK);
    CHECK_STR(log.data ? log.data : "",
              "collector flaky: the sensor bus did not answer\n");
    CHECK(sn_watch_tick(w, 2, &m, &err) == SN_OK); /* still failing */
    CHECK(sn_watch_tick(w, 3, &m, &err) == SN_OK);
    CHECK(sn_watch_tick(w, 4, &m, &err) == SN_OK);
    CHECK_STR(log.data, "collector flaky: the sensor bus did not answer\n"
                        "collector flaky: answering again\n");
    sn_metrics_release(&m);
    sn_watch_free(w);
    sn_buf_release(&log);
}

/* A collector that hangs costs one deadline, not the tick: the tick
 * returns after the timeout with the others' samples, the hung one is
 * down and not asked again while it is busy; when it returns, it is
 * asked afresh and up again. Freeing the agent with it hung returns at
 * once; the worker frees itself when its call comes back. */
static void test_watch_agent_hung_collector_times_out(void)
{
    const struct sn__watch_collector *cols[] = {&ok, &hang};
    struct sn_watch_opts o = {.interval_s = 1, .timeout_s = 0.2};
    struct sn_watch *w = NULL;
    struct sn_metrics m = {0};
    struct sn_error err = {0};
    double t0;
    char *t;

    release = 0;
    REQUIRE(sn__watch_new_with(&o, cols, 2, &w, &err) == SN_OK);
    t0 = mono();
    CHECK(sn_watch_tick(w, 1, &m, &err) == SN_OK);
    CHECK(mono() - t0 < 1.0); /* the deadline, 0.2 s, and some slack */
    CHECK(mono() - t0 >= 0.19);
    t = render(&m);
    check_line(t, "supernode_collector_up{collector=\"hang\"} 0");
    check_line(t, "supernode_collector_timeouts_total{collector=\"hang\"} 1");
    check_line(t, "supernode_collector_up{collector=\"ok\"} 1");
    free(t);
    /* still hung: down again, counted again, and the tick is not held */
    t0 = mono();
    CHECK(sn_watch_tick(w, 2, &m, &err) == SN_OK);
    CHECK(mono() - t0 < 1.0);
    t = render(&m);
    check_line(t, "supernode_collector_timeouts_total{collector=\"hang\"} 2");
    check_line(t, "supernode_test_calls_total 2");
    free(t);
    let_go();
    usleep(50000);
    CHECK(sn_watch_tick(w, 3, &m, &err) == SN_OK);
    t = render(&m);
    check_line(t, "supernode_collector_up{collector=\"hang\"} 1");
    check_line(t, "supernode_test_hang_back 1");
    free(t);

    /* hang again and free the agent while it is stuck */
    release = 0;
    CHECK(sn_watch_tick(w, 4, &m, &err) == SN_OK);
    hang_closed = 0;
    t0 = mono();
    sn_watch_free(w);
    CHECK(mono() - t0 < 0.5);
    let_go();
    for (int i = 0; i < 100 && !hang_closed; i++)
        usleep(10000);
    CHECK(hang_closed == 1); /* it closed its state and freed itself */
    sn_metrics_release(&m);
}

/* A collector whose open fails is down for that interval and opened
 * again at the next; health fails after three intervals without a good
 * reading and says which collector. */
static void test_watch_agent_retries_open_and_reports_health(void)
{
    const struct sn__watch_collector *cols[] = {&late, &fail};
    struct sn_watch_opts o = {.interval_s = 10};
    struct sn_watch *w = NULL;
    struct sn_metrics m = {0};
    struct sn_error err = {0};
    char why[200];
    char *t;

    opens = 0;
    REQUIRE(sn__watch_new_with(&o, cols, 2, &w, &err) == SN_OK);
    CHECK(sn_watch_tick(w, 100, &m, &err) == SN_OK);
    t = render(&m);
    check_line(t, "supernode_collector_up{collector=\"late\"} 0");
    free(t);
    CHECK(sn_watch_healthy(w, 100, why, sizeof(why)));
    CHECK(sn_watch_tick(w, 110, &m, &err) == SN_OK);
    t = render(&m);
    check_line(t, "supernode_collector_up{collector=\"late\"} 1");
    check_line(t, "supernode_collector_errors_total{collector=\"late\"} 1");
    free(t);
    CHECK(opens == 2);
    CHECK(sn_watch_tick(w, 120, &m, &err) == SN_OK);
    CHECK(sn_watch_healthy(w, 120, why, sizeof(why)));
    CHECK(sn_watch_tick(w, 130, &m, &err) == SN_OK);
    CHECK(!sn_watch_healthy(w, 130, why, sizeof(why)));
    CHECK_STR(why, "collector fail: no good reading for 30 s (limit 30 s: "
                   "three intervals)");
    sn_metrics_release(&m);
    sn_watch_free(w);
}

static const struct sn_watch_alert *
find_alert(struct sn_watch *w, const char *rule, const char *subject)
{
    const struct sn_watch_alert *a;
    size_t n = sn_watch_alerts(w, &a);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(a[i].rule, rule) && !strcmp(a[i].subject, subject))
            return &a[i];
    return NULL;
}

/* An answer that comes after its deadline is evaluated: the collector's
 * state moved past what it read (a kernel-log offset, an NVML event set),
 * so its XIDs exist nowhere else. Taken at the next tick, its events
 * join the fresh reading (which supersedes its snapshots: one GPU, not
 * two), and both XIDs become alerts. */
static void test_watch_agent_evaluates_late_answers(void)
{
    const struct sn__watch_collector *cols[] = {&slow};
    struct sn_watch_opts o = {.interval_s = 1, .timeout_s = 0.05};
    struct sn_watch *w = NULL;
    struct sn_metrics m = {0};
    struct sn_error err = {0};
    const struct sn_watch_alert *a;
    char *t;

    slow_calls = 0;
    REQUIRE(sn__watch_new_with(&o, cols, 1, &w, &err) == SN_OK);
    CHECK(sn_watch_tick(w, 10, &m, &err) == SN_OK);
    CHECK(sn_watch_alerts(w, &a) == 0);
    usleep(400000); /* it answers, late */
    CHECK(sn_watch_tick(w, 11, &m, &err) == SN_OK);
    t = render(&m);
    check_line(t, "supernode_collector_up{collector=\"slow\"} 1");
    check_line(t, "supernode_collector_timeouts_total{collector=\"slow\"} 1");
    check_line(t, "supernode_test_slow_call 2"); /* the fresh one's */
    free(t);
    a = find_alert(w, "gpu_xid", "gpu 0000:17:00.0");
    CHECK(a && a->value == 79 && !strcmp(a->severity, "critical"));
    a = find_alert(w, "gpu_xid", "gpu 0000:65:00.0");
    CHECK(a && a->value == 48);
    CHECK(slow_calls == 2);
    sn_metrics_release(&m);
    sn_watch_free(w);
}

/* A late answer whose fresh run is late too is the tick's reading,
 * whole: its samples are published and its XIDs evaluated. */
static void test_watch_agent_late_answer_alone_is_the_reading(void)
{
    const struct sn__watch_collector *cols[] = {&slow};
    struct sn_watch_opts o = {.interval_s = 1, .timeout_s = 0.05};
    struct sn_watch *w = NULL;
    struct sn_metrics m = {0};
    struct sn_error err = {0};
    char *t;

    slow_calls = 0;
    slow_n = 2;
    REQUIRE(sn__watch_new_with(&o, cols, 1, &w, &err) == SN_OK);
    CHECK(sn_watch_tick(w, 10, &m, &err) == SN_OK);
    usleep(400000);
    CHECK(sn_watch_tick(w, 11, &m, &err) == SN_OK); /* the second is slow */
    t = render(&m);
    check_line(t, "supernode_collector_up{collector=\"slow\"} 0");
    check_line(t, "supernode_test_slow_call 1"); /* the late one's */
    free(t);
    CHECK(find_alert(w, "gpu_xid", "gpu 0000:17:00.0") != NULL);
    CHECK(find_alert(w, "gpu_xid", "gpu 0000:65:00.0") != NULL);
    usleep(400000);
    sn_metrics_release(&m);
    sn_watch_free(w);
    slow_n = 1;
}

/* Options that contradict are refused before anything starts. */
static void test_watch_agent_refuses_bad_options(void)
{
    struct sn_watch_opts o = {.nvml = "none",
                              .redfish_credentials = "/nonexistent"};
    struct sn_watch *w = NULL;
    struct sn_error err = {0};

    CHECK(sn__watch_new_with(&o, NULL, 0, &w, &err) == SN_EINPUT);
    CHECK(w == NULL);
    CHECK_CONTAINS(err.msg, "--redfish-credentials without --redfish");
    sn_watch_free(NULL);
}

static const struct sn_test cases[] = {
    T(test_watch_agent_failing_collector_is_down),
    T(test_watch_agent_hung_collector_times_out),
    T(test_watch_agent_logs_through_the_callback),
    T(test_watch_agent_retries_open_and_reports_health),
    T(test_watch_agent_refuses_bad_options),
    T(test_watch_agent_evaluates_late_answers),
    T(test_watch_agent_late_answer_alone_is_the_reading),
};

SN_TEST_MAIN(cases)
