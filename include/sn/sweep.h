/* sweep.h: re-plan and re-predict a design at each value of one spec key:
 * the supernode-size sweet spot.
 */
#ifndef SN_SWEEP_H
#define SN_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "sn/goodput.h"
#include "sn/train.h"

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

#endif
