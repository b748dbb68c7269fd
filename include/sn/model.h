/* model.h: predictions on a topology: pair bandwidth and latency,
 * collectives (ring, tree, NVLS, hierarchical, direct) with an alpha-beta
 * cost and a flow-level contention engine; transformer FLOPs, memory, step
 * time and MFU; layout search; goodput under failures; sweeps.
 *
 * Ownership: sn_coll_model_new() returns a heap object freed with
 * sn_coll_model_free(); it borrows the topology, which must outlive it.
 * Result structs are caller-owned.
 *
 * To add a collective algorithm: 1. enum sn_coll_algo  2. its cost in
 * src/lib/model/coll*.c  3. its candidacy in the auto choice  4. a closed-form
 * test and a published-measurement test in tests/unit/test-coll.c
 * 5. docs/model.md.
 */
#ifndef SN_MODEL_H
#define SN_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sn/spec.h"
#include "sn/topo.h"
#include "sn/util.h"

/* ---- collectives ----------------------------------------------------------- */

enum sn_coll_op {
    SN_COLL_ALLREDUCE,
    SN_COLL_ALLGATHER,
    SN_COLL_REDUCESCATTER,
    SN_COLL_ALLTOALL,
    SN_COLL_BROADCAST,
    SN_COLL_REDUCE,
    SN_COLL_SENDRECV,
    SN_COLL_OP_COUNT
};

enum sn_coll_algo {
    SN_ALGO_AUTO,
    SN_ALGO_RING,
    SN_ALGO_TREE,   /* double binary tree */
    SN_ALGO_NVLS,   /* in-switch reduction */
    SN_ALGO_HIER,   /* intra-domain RS, inter-domain per rail, intra AG */
    SN_ALGO_DIRECT, /* pairwise (all-to-all, send/recv) */
    SN_ALGO_COUNT
};

/* A set of ranks as a job places them: `n` ranks from `first` with
 * `stride` between them, or an explicit list when ranks is not NULL. */
struct sn_group {
    uint32_t first;
    uint32_t n;
    uint32_t stride;
    const uint32_t *ranks;
};

/* One prediction. Bandwidths in bytes/s, nccl-tests definitions:
 * algbw = size / time; busbw = algbw x the op's bus factor. */
struct sn_coll_result {
    double time;            /* seconds */
    double algbw;
    double busbw;
    double bottleneck_bw;   /* per-rank bandwidth of the bottleneck class */
    double bottleneck_eff;  /* busbw / bottleneck_bw */
    enum sn_coll_algo algo; /* the algorithm used (auto resolved) */
    enum sn_link_class bottleneck;
};

struct sn_coll_model;

/* A collective model on a finished topology; constants come from the
 * spec's `collectives` section over the built-in defaults (NCCL's tuner
 * constants, reference/perf-model-anchors.md section 3.4). */
int sn_coll_model_new(const struct sn_topo *t, struct sn_coll_model **out,
                      struct sn_error *err);
void sn_coll_model_free(struct sn_coll_model *m);
/* Predict one collective of `bytes` (the nccl-tests size: the buffer per
 * rank for all-reduce, the total for all-gather/reduce-scatter). */
int sn_coll_predict(struct sn_coll_model *m, enum sn_coll_op op,
                    const struct sn_group *g, double bytes,
                    enum sn_coll_algo algo, struct sn_coll_result *res,
                    struct sn_error *err);
/* The nccl-tests bus factor of op for n ranks. */
double sn_coll_bus_factor(enum sn_coll_op op, uint32_t n);
const char *sn_coll_op_name(enum sn_coll_op op);
const char *sn_coll_algo_name(enum sn_coll_algo algo);

#endif
