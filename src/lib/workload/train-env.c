/* train-env.c: a training system from a spec. The spec's accelerator
 * gives the peaks, HBM and the calibration; sn_topo_build() the cluster;
 * the collective model times each collective of a step on it, with the
 * sibling groups that share its links. */
#include <string.h>

#include "train-int.h"

/* flows above which a collective takes the per-level estimate: small on
 * a non-blocking network, where the estimate's assumption holds */
#define TRAIN_FLOW_MAX 4096
#define TRAIN_FLOW_MAX_UNIFORM 64

static int coll_time(void *ctx, enum sn_coll_op op, const struct sn_group *g,
                     uint32_t siblings, double bytes, double *sec,
                     struct sn_error *err)
{
    struct sn_train_env *e = ctx;
    struct sn_coll_result r;
    int rc;

    rc = sn_coll_predict_siblings(e->coll, op, g, siblings, bytes, SN_ALGO_AUTO,
                                  &r, err);
    if (rc) /* the per-level estimate cannot apply: the engine can */
        rc = sn_coll_predict_siblings(e->coll_exact, op, g, siblings, bytes,
                                      SN_ALGO_AUTO, &r, err);
    *sec = rc ? 0 : r.time;
    return rc;
}

/* The collective at its bottleneck links' nominal rate: the bytes one
 * rank moves over the bottleneck class divided by that class's rate is
 * bottleneck_eff x time (sn_coll_result), the rest of the time being
 * protocol and latency. */
static int coll_wire(void *ctx, enum sn_coll_op op, const struct sn_group *g,
                     uint32_t siblings, double bytes, double *wire,
                     double *latency, bool *scaleout, struct sn_error *err)
{
    struct sn_train_env *e = ctx;
    struct sn_coll_result r;
    int rc;

    rc = sn_coll_predict_siblings(e->coll, op, g, siblings, bytes,
                                  SN_ALGO_DIRECT, &r, err);
    if (rc)
        rc = sn_coll_predict_siblings(e->coll_exact, op, g, siblings, bytes,
                                      SN_ALGO_DIRECT, &r, err);
    *wire = rc ? 0 : r.bottleneck_eff * r.time;
    *latency = rc ? 0 : r.latency;
    *scaleout = !rc && r.bottleneck == SN_LINK_SCALE_OUT;
    return rc;
}

/* A non-blocking fat tree (or no network): a rank's bandwidth is its
 * own links wherever its peers are. */
static bool uniform_network(const struct sn_spec *spec)
{
    return (spec->scaleout.topology == SN_NET_FAT_TREE ||
            spec->scaleout.topology == SN_NET_RAIL_FAT_TREE ||
            spec->scaleout.topology == SN_NET_NONE) &&
           !(spec->scaleout.oversubscription > 1);
}

int sn_train_env_init(struct sn_train_env *e, const struct sn_spec *spec,
                      struct sn_error *err)
{
    int rc;

    memset(e, 0, sizeof(*e));
    if (!spec->accel)
        return sn_error_set(err, SN_EINPUT, "the spec has no accelerator");
    rc = sn_topo_build(spec, &e->topo, err);
    if (!rc) {
        struct sn_coll_params p;
        sn_coll_params_default(e->topo, &p);
        rc = sn_coll_params_from_spec(spec, &p, err);
        /* a step's collectives are hundreds of groups: those with more
         * flows than this take the collective model's per-level estimate
         * (each rank at its own links, fabric non-blocking) rather than
         * the flow engine, which keeps a layout search of thousands of
         * GPUs within a second */
        if (!rc) {
            double cap =
                uniform_network(spec) ? TRAIN_FLOW_MAX_UNIFORM : TRAIN_FLOW_MAX;
            if (p.flow_max > cap)
                p.flow_max = cap;
        }
        if (!rc)
            rc = sn_coll_model_new_params(e->topo, &p, &e->coll, err);
        if (!rc) {
            p.flow_max = 1e30;
            rc = sn_coll_model_new_params(e->topo, &p, &e->coll_exact, err);
        }
    }
    if (rc) {
        sn_train_env_release(e);
        return rc;
    }
    e->sys.name = spec->name;
    e->sys.accel = spec->accel->name;
    e->sys.flops = spec->accel->bf16_flops;
    e->sys.fp8_flops = spec->accel->fp8_flops;
    e->sys.fp4_flops = spec->accel->fp4_flops;
    e->sys.int8_ops = spec->accel->int8_ops;
    /* the memory a job has is what the driver reports, where known */
    e->sys.hbm_bytes = spec->accel->hbm_usable_bytes > 0
                           ? spec->accel->hbm_usable_bytes
                           : spec->accel->hbm_bytes;
    e->sys.hbm_bw = spec->accel->hbm_bw;
    e->sys.accels = sn_spec_total_accels(spec);
    e->sys.domain = spec->scaleup.accelerators;
    e->sys.per_node = spec->scaleup.per_node;
    e->sys.uniform_network = uniform_network(spec);
    sn_train_calib_for(spec->accel->name, &e->sys.calib);
    e->sys.host_cpu = sn_train_host_class(spec->accel, &e->sys.host_launch);
    e->sys.comm.time = coll_time;
    e->sys.comm.wire = coll_wire;
    e->sys.comm.ctx = e;
    return SN_OK;
}

void sn_train_env_release(struct sn_train_env *e)
{
    if (!e)
        return;
    sn_coll_model_free(e->coll);
    sn_coll_model_free(e->coll_exact);
    sn_topo_free(e->topo);
    memset(e, 0, sizeof(*e));
}
