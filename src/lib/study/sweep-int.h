/* sweep-int.h (model, internal): what the training sweep (sweep.c) and the
 * serving sweep (sweep-infer.c) share: the checks of the values before any
 * point is predicted, and the spec of one point. */
#ifndef SN_SWEEP_INT_H
#define SN_SWEEP_INT_H

#if !defined(SN_MODULE_study) && !defined(SN_TESTS)
#error "private to src/lib/study (tests/layers/table)"
#endif

#include "sn/plan.h"
#include "sn/spec.h"
#include "sn/sweep.h"
#include "sn/topo.h"

/* The key and the count of values are given, at most
 * SN_SWEEP_MAX_VALUES, and every value gives a spec that validates with
 * the fixed keys before it; SN_EINPUT naming the first that does not. */
int sn__sweep_check(const struct sn_sweep *s, struct sn_error *err);

/* Loads the spec and sets the fixed keys, the swept key to value and,
 * when s->gpus is set and the key is not `supernodes`, the supernodes a
 * job of s->gpus needs. On failure the spec is released (or was never
 * loaded). */
int sn__sweep_spec(const struct sn_sweep *s, const char *value,
                   struct sn_spec *spec, struct sn_error *e);

/* One point's design: the spec at the value, its topology, its plan and
 * the training system on it (which the serving model runs on too). */
struct sn__sweep_design {
    struct sn_spec spec;
    struct sn_topo *topo;
    struct sn_plan *plan;
    struct sn_train_env env;
    bool have_spec, have_env;
};
/* Make d for value; on failure the error, and d holds what was made
 * (sn__sweep_design_close() releases it either way). */
int sn__sweep_design_open(const struct sn_sweep *s, const char *value,
                          struct sn__sweep_design *d, struct sn_error *e);
void sn__sweep_design_close(struct sn__sweep_design *d);

#endif
