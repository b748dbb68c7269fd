/* test-bench-power.c: holding a GPU (locked clocks, power limits) through
 * the hardware layer on the fake NVML (tests/lib/fake-nvml.c), whose
 * state file shows what was set and that it was put back; and bench
 * power's sweep and curve analysis, with a throughput model whose
 * answers are worked out by hand below. */
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../src/lib/bench/bench-int.h"
#include "../../src/lib/hw/hw-int.h"
#include "harness.h"
#include "hw-fixtures.h"
#include "sn/render.h"

static char dir[64], fixture[128], state[160];

static int model(void *ctx, const struct sn_bench_power_point *at,
                 double *flops, double *seconds, struct sn_error *err);

/* The clocks fixture copied to a fresh directory (its state file starts
 * empty), with extra YAML at the top ("permission: denied"). */
static struct sn__hw_nvml *open_fake(const char *extra, nvmlDevice_t *dev)
{
    char why[256], line[256];
    FILE *in, *out;
    struct sn__hw_nvml *n;

    snprintf(dir, sizeof(dir), "/tmp/sn-power-XXXXXX");
    if (!mkdtemp(dir))
        return NULL;
    snprintf(fixture, sizeof(fixture), "%s/clocks.yaml", dir);
    snprintf(state, sizeof(state), "%s.state", fixture);
    in = fopen(SN_TEST_NVML "clocks.yaml", "r");
    out = fopen(fixture, "w");
    if (!in || !out)
        return NULL;
    fputs(extra, out);
    while (fgets(line, sizeof(line), in))
        fputs(line, out);
    fclose(in);
    fclose(out);
    n = sn__hw_nvml_open(sn_test_fake_nvml(fixture), why, sizeof(why));
    if (n && n->GetHandle(0, dev) != NVML_SUCCESS) {
        sn__hw_nvml_close(n);
        return NULL;
    }
    return n;
}

static void close_fake(struct sn__hw_nvml *n)
{
    sn__hw_nvml_close(n);
    unlink(state);
    unlink(fixture);
    rmdir(dir);
}

/* A GPU of the fake for a sweep: the library, the device, the hold. */
struct rig {
    struct sn__hw_nvml *n;
    nvmlDevice_t dev;
    struct sn__hw_clock_hold hold;
    pthread_mutex_t lock;
};

static bool rig_open(struct rig *r, const char *extra)
{
    memset(r, 0, sizeof(*r));
    pthread_mutex_init(&r->lock, NULL);
    r->n = open_fake(extra, &r->dev);
    return r->n != NULL;
}

static int rig_sweep(struct rig *r, const struct sn_bench_power_plan *plan,
                     int *calls, struct sn_bench_power_curve *c,
                     struct sn_error *err)
{
    memset(c, 0, sizeof(*c));
    return sn__bench_power_sweep(r->n, r->dev, &r->hold, &r->lock, plan, model,
                                 calls, c, err);
}

static void rig_close(struct rig *r)
{
    close_fake(r->n);
    pthread_mutex_destroy(&r->lock);
}

/* The fake's state file, "" when nothing was set. */
static const char *state_log(void)
{
    static char buf[4096];
    FILE *f = fopen(state, "r");
    size_t len = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

    buf[len] = '\0';
    if (f)
        fclose(f);
    return buf;
}

/* Limits 700..300 W. Throughput (TFLOP/s) 1000, 990, 960, 900, 600 at
 * power 690, 600, 500, 400, 300 W: efficiency 1.449, 1.650, 1.920,
 * 2.250, 2.000 TFLOP/s per W, so the best is 400 W; 95% of 1000 is 950,
 * met down to 500 W (960) and not at 400 W (900): the knee is 500 W. */
static void test_power_curve_best_and_knee_by_hand(void)
{
    static const double lim[] = {700, 600, 500, 400, 300};
    static const double tf[] = {1000, 990, 960, 900, 600};
    static const double pw[] = {690, 600, 500, 400, 300};
    struct sn_bench_power_curve c;

    memset(&c, 0, sizeof(c));
    for (size_t i = 0; i < 5; i++) {
        c.points[i].limit_w = lim[i];
        c.points[i].flops = tf[i] * 1e12;
        c.points[i].power_w = pw[i];
    }
    c.n = 5;
    sn_bench_power_analyse(&c);
    CHECK(c.full == 0);
    CHECK(c.best == 3);
    CHECK(c.knee == 2);
    CHECK_NEAR(c.points[3].flops_per_w, 2.25e12, 1e-12);
    CHECK_NEAR(c.points[0].flops_per_w, 1000e12 / 690, 1e-12);
}

/* Unordered points: the knee is the lowest setting within 5%, wherever
 * it sits in the list; a point with no power is no efficiency. */
static void test_power_knee_is_lowest_setting_not_last(void)
{
    struct sn_bench_power_curve c;

    memset(&c, 0, sizeof(c));
    c.points[0] = (struct sn_bench_power_point){400, 0, 97e12, 380, 0};
    c.points[1] = (struct sn_bench_power_point){700, 0, 100e12, 0, 0};
    c.points[2] = (struct sn_bench_power_point){550, 0, 99e12, 500, 0};
    c.n = 3;
    sn_bench_power_analyse(&c);
    CHECK(c.full == 1);
    CHECK(c.knee == 0);
    CHECK(c.best == 0); /* 97/380 > 99/500; point 1 has no power */
    CHECK(isnan(c.points[1].flops_per_w));
}

/* The throughput model: full speed from 500 W up, then in proportion to
 * the limit (a GPU whose clocks fall with its power limit). */
static int model(void *ctx, const struct sn_bench_power_point *at,
                 double *flops, double *seconds, struct sn_error *err)
{
    struct timespec ts = {0, 30 * 1000 * 1000};
    int *calls = ctx;

    (*calls)++;
    if (*calls > 100)
        return sn_error_set(err, SN_ERUNTIME, "model: failed at call %d",
                            *calls);
    nanosleep(&ts, NULL); /* the energy counter moves over the run */
    *flops = 800e12 * (at->limit_w >= 500 ? 1 : at->limit_w / 500);
    *seconds = 0.03;
    return SN_OK;
}

/* Limits 700, 500, 300 W; the fixture's board draws 650 W, capped at
 * the limit: power 650, 500, 300 W from the energy counter. Throughput
 * 800, 800, 480 TFLOP/s: efficiency 1.231, 1.6, 1.6 -- a tie the first
 * (500 W) wins; the knee is 500 W (480 < 760). The limit goes back to
 * 700 W. */
static void test_power_sweep_on_fake_nvml_restores(void)
{
    struct sn_bench_power_plan plan = {
        .limits_w = {700, 500, 300}, .nlimits = 3, .seconds = 0.05};
    struct sn_bench_power_curve c;
    struct sn_error err;
    struct rig r;
    int calls = 0, rc;

    REQUIRE(rig_open(&r, ""));
    rc = rig_sweep(&r, &plan, &calls, &c, &err);
    CHECK(rc == SN_OK);
    CHECK(c.n == 3);
    CHECK(calls == 9); /* a warm-up and two runs of 0.03 s per point */
    CHECK_NEAR(c.points[0].power_w, 650, 0.02);
    CHECK_NEAR(c.points[1].power_w, 500, 0.02);
    CHECK_NEAR(c.points[2].power_w, 300, 0.02);
    CHECK(c.best == 1 || c.best == 2);
    CHECK(c.knee == 1);
    CHECK_NEAR(c.limit_before_w, 700, 1e-9);
    CHECK_STR(state_log(), "gpu 0 power 700000\ngpu 0 power 500000\n"
                           "gpu 0 power 300000\ngpu 0 power 700000\n");
    CHECK(!r.hold.power_set);
    rig_close(&r);
}

/* A measurement that fails mid-sweep: the error comes back and the limit
 * is put back all the same. */
static void test_power_sweep_failure_restores(void)
{
    struct sn_bench_power_plan plan = {
        .limits_w = {600, 400}, .nlimits = 2, .seconds = 0.05};
    struct sn_bench_power_curve c;
    struct sn_error err;
    struct rig r;
    int calls = 97, rc; /* fails at its fourth call: the second point */

    REQUIRE(rig_open(&r, ""));
    rc = rig_sweep(&r, &plan, &calls, &c, &err);
    CHECK(rc == SN_ERUNTIME);
    CHECK(strstr(err.msg, "failed at call 101") != NULL);
    CHECK_STR(state_log(), "gpu 0 power 600000\ngpu 0 power 400000\n"
                           "gpu 0 power 700000\n");
    rig_close(&r);
}

/* Not root: nothing is set and the error says why. */
static void test_power_sweep_without_permission(void)
{
    struct sn_bench_power_plan plan = {.steps = 3};
    struct sn_bench_power_curve c;
    struct sn_error err;
    struct rig r;
    int calls = 0, rc;

    REQUIRE(rig_open(&r, "permission: denied\n"));
    rc = rig_sweep(&r, &plan, &calls, &c, &err);
    CHECK(rc == SN_ERUNTIME);
    CHECK(strstr(err.msg, "no permission") != NULL);
    CHECK(calls == 0);
    CHECK_STR(state_log(), "");
    rig_close(&r);
}

/* --steps 3 over 200-700 W: 700, 450, 200 W; a limit outside is bad
 * input. */
static void test_power_steps_and_limits_checked(void)
{
    struct sn_bench_power_plan plan = {.steps = 3, .seconds = 0.05};
    struct sn_bench_power_plan out = {.limits_w = {800}, .nlimits = 1};
    struct sn_bench_power_curve c;
    struct sn_error err;
    struct rig r;
    int calls = 0;

    REQUIRE(rig_open(&r, ""));
    CHECK(rig_sweep(&r, &plan, &calls, &c, &err) == SN_OK);
    CHECK(c.n == 3 && c.points[0].limit_w == 700 &&
          c.points[1].limit_w == 450 && c.points[2].limit_w == 200);
    CHECK(rig_sweep(&r, &out, &calls, &c, &err) == SN_EINPUT);
    CHECK(strstr(err.msg, "800 W is outside") != NULL);
    rig_close(&r);
}

/* The highest clocks by default; a clock the GPU does not list is
 * refused naming the ones it does; a lock is undone by the restore. */
static void test_clocks_pick_lock_restore(void)
{
    struct sn__hw_clock_hold hold = {0};
    unsigned sm = 0, mem = 0, bad = 2000, mem2 = 2619, now_sm, now_mem;
    char why[400];
    nvmlDevice_t dev;
    struct sn__hw_nvml *n = open_fake("", &dev);

    REQUIRE(n);
    CHECK(sn__hw_clocks_pick(n, dev, &sm, &mem, why, sizeof(why)) ==
          NVML_SUCCESS);
    CHECK(sm == 1980 && mem == 2619);
    CHECK(sn__hw_clocks_pick(n, dev, &bad, &mem2, why, sizeof(why)) ==
          NVML_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(why, "SM clock 2000 MHz is not supported") != NULL);
    CHECK(strstr(why, "1980, 1965, 1755, 1410, 1095, 345 MHz") != NULL);
    CHECK(sn__hw_clocks_lock(n, dev, 1410, 2619, &hold) == NVML_SUCCESS);
    sn__hw_clocks_now(n, dev, &now_sm, &now_mem);
    CHECK(now_sm == 1410 && now_mem == 2619);
    CHECK(sn__hw_clocks_restore(n, &hold) == NVML_SUCCESS);
    sn__hw_clocks_now(n, dev, &now_sm, &now_mem);
    CHECK(now_sm == 1755); /* the fixture's unlocked clock again */
    CHECK_STR(state_log(), "gpu 0 mem-lock 2619\ngpu 0 sm-lock 1410\n"
                           "gpu 0 sm-reset\ngpu 0 mem-reset\n");
    close_fake(n);
}

/* The JSON names its schema and the three points. */
static void test_power_json_schema(void)
{
    struct sn_bench_power_curve c;
    struct sn_buf b;

    memset(&c, 0, sizeof(c));
    c.points[0] = (struct sn_bench_power_point){700, 0, 100e12, 650, 0};
    c.points[1] = (struct sn_bench_power_point){500, 0, 96e12, 480, 0};
    c.n = 2;
    sn_bench_power_analyse(&c);
    sn_buf_init(&b);
    sn_render_power_json(&c, &b);
    CHECK(strstr(b.data, "\"schema\": \"" SN_SCHEMA_POWER "\"") != NULL);
    CHECK(strstr(b.data, "\"knee\": 1") != NULL);
    CHECK(strstr(b.data, "\"best_efficiency\": 1") != NULL);
    sn_buf_reset(&b);
    sn_render_power_text(&c, &b);
    CHECK(strstr(b.data, "lowest setting within 5% of full: 500 W (96.0%") !=
          NULL);
    sn_buf_release(&b);
}

static const struct sn_test cases[] = {
    T(test_power_curve_best_and_knee_by_hand),
    T(test_power_knee_is_lowest_setting_not_last),
    T(test_power_sweep_on_fake_nvml_restores),
    T(test_power_sweep_failure_restores),
    T(test_power_sweep_without_permission),
    T(test_power_steps_and_limits_checked),
    T(test_clocks_pick_lock_restore),
    T(test_power_json_schema),
};

SN_TEST_MAIN(cases)
