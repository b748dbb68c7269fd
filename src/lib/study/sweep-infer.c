/* sweep-infer.c: `sweep --infer`: a design parameter swept over values,
 * and at each the serving search (infer-search.c) of one model under
 * TTFT/TPOT limits: the most output tokens/s per accelerator that meets
 * them, with its layout and batch. Against the scale-up domain's size it
 * is the sweet spot for serving: a larger domain holds a wider expert
 * parallel group on the fast fabric, so each accelerator keeps fewer
 * experts and more KV cache, at the price of larger all-to-all groups. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep-int.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

static void point_error(struct sn_sweep_infer_point *p,
                        const struct sn_error *e)
{
    p->ok = false;
    snprintf(p->error, sizeof(p->error), "%s", e->msg);
}

/* Whether the model's weights can fit the instance at all: the whole
 * model's weights (one accelerator holding every layer, the embedding and
 * head with them, as sn_infer_predict() counts them) against the HBM the
 * instance can use. false with p->none saying so; SN_EINPUT from the
 * layout rules (a precision the accelerator has no rate for) as the
 * point's error. */
static bool weights_fit(const struct sn_sweep_infer *si,
                        const struct sn_train_system *sys, const char *accel,
                        struct sn_sweep_infer_point *p)
{
    const struct sn_model_info *m = si->sweep.model;
    struct sn_infer_layout whole = {.tp = 1,
                                    .ep = 1,
                                    .pp = 1,
                                    .dp_attention = false,
                                    .batch = 1,
                                    .tbo = false};
    struct sn_infer_result r;
    struct sn_error e;
    double usable;

    if (sn_infer_predict(m, sys, &whole, &si->work, &r, &e)) {
        point_error(p, &e);
        return false;
    }
    usable = (r.capacity - sys->calib.reserved) * p->accels;
    if (r.weights_bytes <= usable)
        return true;
    snprintf(p->none, sizeof(p->none),
             "the weights of %s in %s, %.0f GiB, exceed the %.0f GiB "
             "%d x %s can use",
             m->name, sn_dtype_name(si->work.precision), r.weights_bytes / GIB,
             usable / GIB, p->accels, accel);
    return false;
}

/* No point meets the limits: the lowest TPOT and TTFT any point that fits
 * reaches, from every point of the search again, and why in p->none. */
static int nearest_miss(const struct sn_sweep_infer *si,
                        const struct sn_train_system *sys, size_t timed,
                        struct sn_sweep_infer_point *p, struct sn_error *err)
{
    const struct sn_infer_limits *lim = &si->limits;
    struct sn_infer_search_stats st;
    struct sn_infer_point *all;
    size_t n = 0;
    int rc;
    char tpot[64] = "", ttft[64] = "";

    if (!timed) {
        snprintf(p->none, sizeof(p->none),
                 "no layout of %s fits in memory on %d accelerators",
                 si->sweep.model->name, p->accels);
        return SN_OK;
    }
    all = sn_xcalloc(timed, sizeof(*all));
    rc = sn_infer_search(si->sweep.model, sys, p->accels, &si->work, lim, all,
                         timed, &n, &st, err);
    for (size_t i = 0; i < n && !rc; i++) {
        const struct sn_infer_result *r = &all[i].result;
        if (!p->fastest_tpot || r->tpot_s < p->fastest_tpot)
            p->fastest_tpot = r->tpot_s;
        if (!p->fastest_ttft || r->ttft_s < p->fastest_ttft)
            p->fastest_ttft = r->ttft_s;
    }
    free(all);
    if (lim->tpot > 0 && p->fastest_tpot > lim->tpot)
        snprintf(tpot, sizeof(tpot), "TPOT %.2f ms at best (limit %.2f ms)",
                 1e3 * p->fastest_tpot, 1e3 * lim->tpot);
    if (lim->ttft > 0 && p->fastest_ttft > lim->ttft)
        snprintf(ttft, sizeof(ttft), "TTFT %.1f ms at best (limit %.1f ms)",
                 1e3 * p->fastest_ttft, 1e3 * lim->ttft);
    snprintf(p->none, sizeof(p->none), "no layout meets the limits: %s%s%s",
             tpot, tpot[0] && ttft[0] ? ", " : "",
             tpot[0] || ttft[0] ? ttft : "each alone is met, not together");
    return rc;
}

/* The best point within the limits on the point's instance. */
static void point_search(const struct sn_sweep_infer *si,
                         const struct sn_train_system *sys, const char *accel,
                         struct sn_sweep_infer_point *p)
{
    struct sn_infer_search_stats st;
    struct sn_error e;
    size_t n = 0;

    if (!weights_fit(si, sys, accel, p))
        return;
    /* with room for one point the search keeps the best within the
     * limits there (st.best 0), else the front's first */
    if (sn_infer_search(si->sweep.model, sys, p->accels, &si->work, &si->limits,
                        &p->best, 1, &n, &st, &e)) {
        point_error(p, &e);
        return;
    }
    p->timed = st.timed;
    if (st.best >= 0 && n == 1) {
        p->have_best = true;
        p->have_band = sn_infer_band(si->sweep.model, accel, &p->band);
        p->gaps = sn_infer_gaps(si->sweep.model, &p->best.layout, accel, false);
        return;
    }
    memset(&p->best, 0, sizeof(p->best));
    if (nearest_miss(si, sys, st.timed, p, &e))
        point_error(p, &e);
}

/* One point: the design at p->value, planned (its switch chips), and the
 * serving search on its instance. */
static void one(const struct sn_sweep_infer *si, struct sn_sweep_infer_point *p)
{
    struct sn__sweep_design d;
    struct sn_error e;

    p->ok = true;
    if (sn__sweep_design_open(&si->sweep, p->value, &d, &e)) {
        point_error(p, &e);
        goto out;
    }
    p->design_accels = sn_spec_total_accels(&d.spec);
    p->domain = d.spec.scaleup.accelerators;
    p->switch_chips = d.plan->switch_chips;
    p->accels = si->sweep.gpus > 0 ? si->sweep.gpus : p->domain;
    if (p->accels > p->design_accels) {
        snprintf(p->error, sizeof(p->error),
                 "the design has %d accelerators, fewer than the %d of "
                 "the instance",
                 p->design_accels, p->accels);
        p->ok = false;
        goto out;
    }
    if (si->kernels)
        d.env.sys.kernels = si->kernels;
    point_search(si, &d.env.sys, d.spec.accel->name, p);
out:
    sn__sweep_design_close(&d);
}

/* Whether a beats b for the sweet spot, both within the flat band of the
 * best: the smaller domain, then fewer switch chips (the earlier value
 * otherwise, as the caller scans in order). */
static bool cheaper(const struct sn_sweep_infer_point *a,
                    const struct sn_sweep_infer_point *b)
{
    if (a->domain != b->domain)
        return a->domain < b->domain;
    return a->switch_chips < b->switch_chips;
}

int sn_sweep_infer_run(const struct sn_sweep_infer *si,
                       struct sn_sweep_infer_point *pts, struct sn_error *err)
{
    const struct sn_sweep *s = &si->sweep;
    double most = 0;
    size_t spot = SIZE_MAX;
    int rc;

    if (!s->model)
        return sn_error_set(err, SN_EINPUT,
                            "a serving sweep needs a model (--model)");
    if ((rc = sn__sweep_check(s, err)))
        return rc;
    for (size_t i = 0; i < s->nvalues; i++) {
        memset(&pts[i], 0, sizeof(pts[i]));
        pts[i].value = s->values[i];
        one(si, &pts[i]);
        if (pts[i].ok && pts[i].have_best &&
            pts[i].best.result.output_tps_gpu > most)
            most = pts[i].best.result.output_tps_gpu;
    }
    for (size_t i = 0; i < s->nvalues; i++) {
        const struct sn_sweep_infer_point *p = &pts[i];
        if (!p->ok || !p->have_best ||
            p->best.result.output_tps_gpu < (1 - SN_SWEEP_INFER_FLAT) * most)
            continue;
        if (spot == SIZE_MAX || cheaper(p, &pts[spot]))
            spot = i;
    }
    if (spot != SIZE_MAX)
        pts[spot].best_value = true;
    return SN_OK;
}
