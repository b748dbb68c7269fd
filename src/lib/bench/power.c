/* power.c: bench power: GEMM throughput and board power at a sweep of
 * power limits (or locked SM clocks), the GPU put back afterwards, and
 * the efficiency curve's analysis: the best FLOP/s per W and the lowest
 * setting within 5% of full performance. The measurement is behind a
 * function pointer: the backend's GEMM in a run, a model in the tests. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../hw/hw-int.h"
#include "bench-int.h"

/* The setting a point is known by: its limit, or its SM clock. */
static double setting(const struct sn_bench_power_curve *c, size_t i)
{
    return c->by_clocks ? (double)c->points[i].sm_mhz : c->points[i].limit_w;
}

void sn_bench_power_analyse(struct sn_bench_power_curve *c)
{
    c->full = c->best = c->knee = -1;
    for (size_t i = 0; i < c->n; i++) {
        struct sn_bench_power_point *p = &c->points[i];
        p->flops_per_w = p->power_w > 0 ? p->flops / p->power_w : NAN;
        if (c->full < 0 || p->flops > c->points[c->full].flops)
            c->full = (int)i;
        if (isfinite(p->flops_per_w) &&
            (c->best < 0 || p->flops_per_w > c->points[c->best].flops_per_w))
            c->best = (int)i;
    }
    if (c->full < 0)
        return;
    for (size_t i = 0; i < c->n; i++) {
        if (c->points[i].flops < SN_BENCH_POWER_KNEE * c->points[c->full].flops)
            continue;
        if (c->knee < 0 || setting(c, i) < setting(c, (size_t)c->knee))
            c->knee = (int)i;
    }
}

/* ---- the sweep ----------------------------------------------------------- */

/* Set the GPU for point p (under lock: the watchdog may restore). */
static nvmlReturn_t set_point(struct sn__hw_nvml *n, nvmlDevice_t dev,
                              struct sn__hw_clock_hold *hold,
                              pthread_mutex_t *lock,
                              const struct sn_bench_power_point *p,
                              unsigned mem_mhz)
{
    nvmlReturn_t r;

    pthread_mutex_lock(lock);
    if (p->sm_mhz)
        r = sn__hw_clocks_lock(n, dev, p->sm_mhz, mem_mhz, hold);
    else
        r = sn__hw_power_limit_set(n, dev, (unsigned)lround(p->limit_w * 1e3),
                                   hold);
    pthread_mutex_unlock(lock);
    return r;
}

/* The energy counter (J since the driver loaded), NaN where absent. */
static double energy(struct sn__hw_nvml *n, nvmlDevice_t dev)
{
    unsigned long long mj;

    if (!n->Energy || n->Energy(dev, &mj) != NVML_SUCCESS)
        return NAN;
    return (double)mj / 1e3;
}

/* Measure point p: a warm-up run (the GPU settles at its new setting),
 * then runs until `seconds` have passed (the energy counter's steps and
 * the board's power averaging need a run of a second or more on a GPU),
 * the throughput weighted by each run's time. The power is the energy
 * counter's growth over that time, read next to the clock reads, or the
 * board power read before and after where the counter is absent or does
 * not move. */
static int measure(struct sn__hw_nvml *n, nvmlDevice_t dev,
                   sn_bench_power_measure_fn fn, void *ctx, double seconds,
                   struct sn_bench_power_point *p, struct sn_error *err)
{
    struct sn__hw_gpu_sample a, b;
    double work = 0, busy = 0, flops, secs, t0, t1, e0, e1;
    int rc;

    if ((rc = fn(ctx, p, &flops, &secs, err)))
        return rc;
    sn__hw_nvml_sample(n, dev, &a);
    t0 = sn_now();
    e0 = energy(n, dev);
    do {
        if ((rc = fn(ctx, p, &flops, &secs, err)))
            return rc;
        work += flops * secs;
        busy += secs;
    } while (sn_now() - t0 < seconds);
    e1 = energy(n, dev);
    t1 = sn_now();
    sn__hw_nvml_sample(n, dev, &b);
    p->flops = busy > 0 ? work / busy : 0;
    if (isfinite(e0) && isfinite(e1) && e1 > e0)
        p->power_w = (e1 - e0) / (t1 - t0);
    else if (isfinite(a.power_w) && isfinite(b.power_w))
        p->power_w = (a.power_w + b.power_w) / 2;
    else
        return sn_error_set(err, SN_ENOTSUP,
                            "bench power: NVML gives neither the energy "
                            "counter nor the board power of this GPU");
    return SN_OK;
}

/* The points of plan: its limits, its clocks, or steps limits from max_w
 * down to min_w. */
static int plan_points(const struct sn_bench_power_plan *plan,
                       struct sn_bench_power_curve *c, struct sn_error *err)
{
    int steps = plan->steps ? plan->steps : 5;

    c->by_clocks = plan->nclocks > 0;
    if (plan->nclocks) {
        for (size_t i = 0; i < plan->nclocks && i < SN_BENCH_POWER_MAX; i++)
            c->points[c->n++].sm_mhz = plan->sm_mhz[i];
        return SN_OK;
    }
    for (size_t i = 0; i < plan->nlimits && i < SN_BENCH_POWER_MAX; i++) {
        if (plan->limits_w[i] < c->min_w || plan->limits_w[i] > c->max_w)
            return sn_error_set(err, SN_EINPUT,
                                "bench power: limit %.0f W is outside what "
                                "the GPU allows (%.0f-%.0f W)",
                                plan->limits_w[i], c->min_w, c->max_w);
        c->points[c->n++].limit_w = plan->limits_w[i];
    }
    if (plan->nlimits)
        return SN_OK;
    if (steps < 2 || steps > SN_BENCH_POWER_MAX || !(c->max_w > c->min_w))
        return sn_error_set(err, SN_EINPUT,
                            "bench power: %d steps between %.0f and %.0f W "
                            "(2 to %d steps over a range)",
                            steps, c->min_w, c->max_w, SN_BENCH_POWER_MAX);
    for (int i = 0; i < steps; i++)
        c->points[c->n++].limit_w =
            round(c->max_w - (c->max_w - c->min_w) * i / (steps - 1));
    return SN_OK;
}

/* The GPU's limit now and its constraints, W; and in a clock sweep the
 * highest memory clock. */
static int gpu_ranges(struct sn__hw_nvml *n, nvmlDevice_t dev, bool clocks,
                      struct sn_bench_power_curve *c, struct sn_error *err)
{
    unsigned lo = 0, hi = 0, now = 0, sm = 0;
    char why[400];
    nvmlReturn_t r = NVML_ERROR_FUNCTION_NOT_FOUND;

    if (n->PowerConstraints)
        r = n->PowerConstraints(dev, &lo, &hi);
    if (r == NVML_SUCCESS && n->PowerLimit)
        r = n->PowerLimit(dev, &now);
    if (r != NVML_SUCCESS && !clocks)
        return sn_error_set(err, SN_ENOTSUP,
                            "bench power: cannot read the GPU's power "
                            "limits: %s",
                            sn__hw_nvml_error(n, r, why, sizeof(why)));
    c->min_w = lo / 1e3;
    c->max_w = hi / 1e3;
    c->limit_before_w = now / 1e3;
    if (!clocks)
        return SN_OK;
    c->mem_mhz = 0;
    r = sn__hw_clocks_pick(n, dev, &sm, &c->mem_mhz, why, sizeof(why));
    if (r != NVML_SUCCESS)
        return sn_error_set(err, SN_ENOTSUP, "bench power: %s", why);
    return SN_OK;
}

int sn__bench_power_sweep(struct sn__hw_nvml *n, nvmlDevice_t dev,
                          struct sn__hw_clock_hold *hold, pthread_mutex_t *lock,
                          const struct sn_bench_power_plan *plan,
                          sn_bench_power_measure_fn fn, void *ctx,
                          struct sn_bench_power_curve *c, struct sn_error *err)
{
    nvmlReturn_t r = NVML_SUCCESS;
    char e[160];
    int rc;

    c->n = 0;
    if ((rc = gpu_ranges(n, dev, plan->nclocks > 0, c, err)) ||
        (rc = plan_points(plan, c, err)))
        return rc;
    for (size_t i = 0; i < c->n && !rc; i++) {
        r = set_point(n, dev, hold, lock, &c->points[i], c->mem_mhz);
        if (r != NVML_SUCCESS)
            break;
        rc = measure(n, dev, fn, ctx, plan->seconds > 0 ? plan->seconds : 1,
                     &c->points[i], err);
    }
    pthread_mutex_lock(lock);
    if (sn__hw_clocks_restore(n, hold) != NVML_SUCCESS && !rc &&
        r == NVML_SUCCESS)
        rc = sn_error_set(err, SN_ERUNTIME,
                          "bench power: the GPU's limit or clocks could not "
                          "be put back (nvidia-smi -rgc -rmc, -pl %.0f)",
                          c->limit_before_w);
    pthread_mutex_unlock(lock);
    if (r == NVML_ERROR_NO_PERMISSION)
        return sn_error_set(err, SN_ERUNTIME,
                            "bench power: no permission to set the GPU's "
                            "power limit or clocks (root only, see "
                            "docs/bench.md)");
    if (r != NVML_SUCCESS)
        return sn_error_set(
            err, r == NVML_ERROR_NOT_SUPPORTED ? SN_ENOTSUP : SN_ERUNTIME,
            "bench power: NVML refused the setting: %s",
            sn__hw_nvml_error(n, r, e, sizeof(e)));
    if (!rc)
        sn_bench_power_analyse(c);
    return rc;
}

/* The backend's GEMM at the plan's type and the options' size. */
static int backend_gemm(void *ctx, const struct sn_bench_power_point *at,
                        double *flops, double *seconds, struct sn_error *err)
{
    struct sn__bench_ctx *c = ctx;
    int iters = c->o.power->iters > 0 ? c->o.power->iters : 10;
    double *t = sn_xcalloc((size_t)iters, sizeof(*t));
    double n = c->o.gemm_size;
    struct sn_stats st;
    int rc;

    (void)at;
    rc = c->be->gemm(c, c->o.power->dtype, c->o.gemm_size, iters, t, err);
    if (!rc) {
        sn_stats_compute(t, (size_t)iters, &st);
        *seconds = st.mean * iters;
        *flops = 2.0 * n * n * n / st.median; /* multiply-adds: 2 FLOPs */
    }
    free(t);
    return rc;
}

int sn__bench_power_run(struct sn__bench_ctx *c, struct sn_error *err)
{
    const struct sn_bench_power_plan *plan = c->o.power;
    struct sn_bench_power_curve *out = plan->out;
    const char *why = c->be->gemm_unsupported
                          ? c->be->gemm_unsupported(c, plan->dtype)
                          : NULL;
    struct sn__hw_nvml *n;
    nvmlDevice_t dev;
    int rc;

    if (c->job->size != 1)
        return sn_error_set(err, SN_EINPUT,
                            "bench power runs as one process on one GPU, "
                            "not under a launcher of %d ranks",
                            c->job->size);
    if (why)
        return sn_error_set(err, SN_EINPUT, "bench power: GEMM %s: %s",
                            sn_bench_dtype_name(plan->dtype), why);
    if ((rc = sn__bench_gpu(c, &n, &dev, err)))
        return rc;
    memset(out, 0, sizeof(*out));
    sn_strlcpy(out->device, c->device, sizeof(out->device));
    sn_strlcpy(out->dtype, sn_bench_dtype_name(plan->dtype),
               sizeof(out->dtype));
    out->gemm_size = c->o.gemm_size;
    sn_strlcpy(c->test, "power", sizeof(c->test));
    return sn__bench_power_sweep(n, dev, c->hold, &c->hold_lock, plan,
                                 plan->measure ? plan->measure : backend_gemm,
                                 plan->measure ? plan->measure_ctx : c, out,
                                 err);
}
