/* sweep.h: re-plan and re-predict a design at each value of one spec key:
 * the supernode-size sweet spot.
 */
#ifndef SN_SWEEP_H
#define SN_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "sn/goodput.h"
#include "sn/infer.h"
#include "sn/train.h"
#include "sn/validate.h"

#define SN_SWEEP_MAX_VALUES 256

/* What `supernode sweep` varies and what it predicts at each value. */
struct sn_sweep {
    const char *spec_path; /* NULL: the built-in default */
    const char *key;       /* dotted spec key, as sn_spec_set() */
    const char *const *values;
    size_t nvalues;
    /* keys set to one value at every point, in this order, before `key`
     * (`sweep --set supernode.tiers=2 --set supernode.accelerators=...`) */
    const char *const *fixed_keys;
    const char *const *fixed_values;
    size_t nfixed;
    const struct sn_model_info *model; /* NULL: the spec's workload */
    int gpus;                          /* job size; 0: the spec's accelerators
                                          before the swept value (each design
                                          of the spec's size), or each design's
                                          when the key is `supernodes` */
    int gbs, seq;                      /* 0: about 4M tokens; the model's */
    enum sn_dtype dtype;
};

/* One value of the sweep: the re-planned design, the fastest layout that
 * fits, goodput, and the plan's links, switch chips and power. */
struct sn_sweep_point {
    const char *value;
    bool ok; /* false: `error` says why */
    char error[SN_ERROR_MSG_MAX];
    int accels, domain; /* the job's accelerators, per domain */
    int design_accels;  /* the design's: >= accels when the job
                           does not fill whole supernodes */
    struct sn_train_candidate best;
    bool have_best;
    bool have_goodput;
    struct sn_goodput_result goodput;
    double tokens_per_accel;    /* tokens/s per accelerator of the job */
    double effective_per_accel; /* tokens/s x goodput per accelerator of
                                   the design (idle ones count) */
    double scaling;             /* effective_per_accel over the first
                                   point's (a sweep of supernodes) */
    size_t links, switch_chips;
    double power_w;    /* steady draw of the IT load */
    double facility_w; /* with cooling (PUE) */
    bool best_value;   /* the sweet spot */
    /* how far the best can be trusted: its class's band and the known
     * gaps of its layout (sn_train_band, sn_train_gaps) */
    bool have_band;
    struct sn_band_pick band;
    unsigned gaps;
};

/* Whether a sweep of key varies the job itself (supernodes): then
 * per-accelerator throughput can only fall as it grows and no sweet spot
 * is marked; `scaling` says how much is kept. */
bool sn_sweep_grows_job(const char *key);

/* Re-plan and re-predict at every value. Every value must give a spec
 * that validates: one that does not ("abc" for a count) is SN_EINPUT
 * naming it, before any point is predicted. Values whose design cannot
 * be built, or where nothing fits, are kept with their error. The best
 * point has the highest goodput-weighted tokens/s per accelerator (ties:
 * fewer switch chips). */
int sn_sweep_run(const struct sn_sweep *s, struct sn_sweep_point *pts,
                 struct sn_error *err);

/* ---- serving: `sweep --infer` ------------------------------------------- */

/* Serving throughputs within this share of the best count as equal: the
 * smallest scale-up domain among them is the sweet spot (a larger domain
 * costs switch chips, power and a larger fault domain for nothing the
 * model can tell apart). */
#define SN_SWEEP_INFER_FLAT 0.01

/* What `sweep --infer` varies and the requests it serves at each value.
 * sweep.model is required; sweep.gpus is the serving instance (0: one
 * scale-up domain, replicated over the others); gbs, seq and dtype are
 * training's and unused. */
struct sn_sweep_infer {
    struct sn_sweep sweep;
    struct sn_infer_work work;
    struct sn_infer_limits limits;
    /* a measured kernel table (`--kernels`) in place of the shipped
     * ones, at every value; NULL: the shipped */
    const struct sn_kernel_table *kernels;
};

/* One value of a serving sweep: the best layout and batch within the
 * limits, or why there is none. */
struct sn_sweep_infer_point {
    const char *value;
    bool ok; /* false: the design or the search failed, `error` says */
    char error[SN_ERROR_MSG_MAX];
    int accels;        /* the serving instance's accelerators */
    int domain;        /* per scale-up domain */
    int design_accels; /* the design's */
    size_t switch_chips;
    size_t timed;   /* layouts and batches timed (those that fit) */
    bool have_best; /* a point meets the limits: best is it */
    struct sn_infer_point best;
    /* no point meets the limits (ok, !have_best): why, and the lowest
     * TPOT and TTFT any point that fits reaches (0 when none fits) */
    char none[SN_ERROR_MSG_MAX];
    double fastest_tpot, fastest_ttft;
    bool best_value; /* the sweet spot */
    /* the best's band and gaps (sn_infer_band, sn_infer_gaps) */
    bool have_band;
    struct sn_band_pick band;
    unsigned gaps;
};

/* Search serving layouts at every value: the most output tokens/s per
 * accelerator within the limits (sn_infer_search()). Values are checked
 * as sn_sweep_run() does (SN_EINPUT before any point); a point where the
 * weights do not fit, or nothing meets the limits, is kept with
 * have_best false and `none` saying why. The sweet spot is the point
 * with the most tokens/s per accelerator, points within
 * SN_SWEEP_INFER_FLAT of it counting as ties, won by the smaller domain,
 * then fewer switch chips, then the earlier value. */
int sn_sweep_infer_run(const struct sn_sweep_infer *s,
                       struct sn_sweep_infer_point *pts, struct sn_error *err);

#endif
