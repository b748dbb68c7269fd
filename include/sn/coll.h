/* coll.h: collectives on a topology (ring, tree, NVLS, two- and three-level
 * hierarchical, direct) with an alpha-beta cost and a flow-level contention
 * engine.
 *
 * Ownership: sn_coll_model_new() returns a heap object freed with
 * sn_coll_model_free(); it borrows the topology, which must outlive it.
 * Result structs are caller-owned.
 *
 * To add a collective algorithm: 1. enum sn_coll_algo and its name in
 * src/lib/net/coll-ops.c  2. its cost in src/lib/net/coll*.c  3. its
 * candidacy in the auto choice  4. a closed-form test and a
 * published-measurement test in tests/unit/test-coll.c  5. docs/model.md.
 *
 * To add a collective operation: 1. enum sn_coll_op and its row in the
 * table in src/lib/net/coll-ops.c (names, bus factor, flags)  2. its
 * steps in each algorithm of coll.c  3. the bench backends' hooks
 * (cpu.c, cuda/cuda.c)  4. tests in test-coll.c  5. docs/model.md.
 */
#ifndef SN_COLL_H
#define SN_COLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sn/spec.h"
#include "sn/topo.h"
#include "sn/util.h"

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
    SN_ALGO_HIER3,  /* three levels: intra-domain RS, RS on each rail among
                       the domains under the same leaf switches (a pod),
                       the rest on each rail across pods, then AG back */
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
    double time; /* seconds */
    double algbw;
    double busbw;
    double bottleneck_bw;   /* nominal bandwidth one rank has on the
                               bottleneck class: its scale-up links, or its
                               share of its domain's NICs */
    double bottleneck_eff;  /* bytes one rank moves over the bottleneck
                               class / time / bottleneck_bw: equals
                               busbw / bottleneck_bw for ring and tree, and
                               stays below 1 for in-switch reduction, where
                               the 2(n-1)/n bus factor overstates */
    enum sn_coll_algo algo; /* the algorithm used (auto resolved) */
    enum sn_link_class bottleneck;
    int proto;      /* enum sn_coll_proto chosen */
    double latency; /* seconds: the size-independent part */
    bool flows;     /* bandwidth from the flow engine (else the
                       per-level estimate for very large groups) */
};

/* NCCL's protocols: LL (8-byte lines, 4 of data), LL128 (128-byte lines,
 * 120 of data), Simple. */
enum sn_coll_proto {
    SN_PROTO_LL,
    SN_PROTO_LL128,
    SN_PROTO_SIMPLE,
    SN_PROTO_COUNT
};

/* The model's constants. sn_coll_params_default() fills them from the
 * built-in table for the topology's accelerator (NCCL's tuner constants,
 * reference perf-model-anchors.md section 3.4); a spec's `collectives`
 * section overrides them. Times in seconds, efficiencies as fractions. */
struct sn_coll_params {
    /* usable fraction of a link's nominal per-direction rate, by class */
    double link_eff[SN_LINK_CLASS_COUNT];
    double nvls_eff; /* in-switch reduction efficiency */
    bool nvls;       /* scale-up switches reduce in the network */
    double proto_eff[SN_PROTO_COUNT]; /* payload share of each protocol */
    /* NCCL's tuner refinements of LL and LL128 bandwidth per algorithm,
     * used instead of proto_eff where above 0 */
    double ll_ring;           /* ring all-reduce or reduce, or any ring
                                 across domains */
    double ll_ring_domain;    /* other ring collectives inside a domain */
    double ll_tree;           /* tree */
    double ll128_ring;        /* ring, two or more ranks per domain */
    double ll128_ring_alone;  /* ring, one rank per domain */
    double ll128_tree_domain; /* tree inside one domain */
    /* NCCL's per-size tree bandwidth correction (treeCorrectionFactor,
     * all-reduce); false keeps the uncorrected tree */
    bool tree_correction;
    bool proto_on[SN_PROTO_COUNT];
    /* latencies per protocol: base per algorithm, and per hop (step) by
     * the fabric the step crosses */
    double ring_base[SN_PROTO_COUNT];
    double tree_base[SN_PROTO_COUNT];
    double ring_hop[SN_LINK_CLASS_COUNT][SN_PROTO_COUNT];
    double tree_hop[SN_LINK_CLASS_COUNT][SN_PROTO_COUNT];
    double nvls_hop;     /* one NVLS operation inside a domain */
    double nvls_net_hop; /* one NVLS-tree step across domains */
    double ll_multinode; /* LL intra-domain hop factor across domains */
    double ring_plateau; /* large multi-domain Simple ring all-reduce
                            latency factor */
    double tree_eff;     /* tree bandwidth share NCCL models */
    double chunk;        /* pipelining chunk, bytes */
    /* groups whose steps have more flows than this take the per-level
     * estimate instead of the flow engine */
    double flow_max;
    const char *source; /* where the defaults came from (static) */
};

/* Fill p with the defaults for t's accelerator (NVLink generation from the
 * spec's catalog entry; generic values when t has no spec). */
void sn_coll_params_default(const struct sn_topo *t, struct sn_coll_params *p);
/* Apply a spec's `collectives` section over p. SN_EINPUT with
 * file:line:col for unknown keys and bad values. */
int sn_coll_params_from_spec(const struct sn_spec *spec,
                             struct sn_coll_params *p, struct sn_error *err);
const char *sn_coll_proto_name(enum sn_coll_proto p);

struct sn_coll_model;

/* A collective model on a finished topology; constants come from the
 * spec's `collectives` section over the built-in defaults (NCCL's tuner
 * constants, reference/perf-model-anchors.md section 3.4). */
int sn_coll_model_new(const struct sn_topo *t, struct sn_coll_model **out,
                      struct sn_error *err);
/* Same with explicit constants (copied). */
int sn_coll_model_new_params(const struct sn_topo *t,
                             const struct sn_coll_params *p,
                             struct sn_coll_model **out, struct sn_error *err);
void sn_coll_model_free(struct sn_coll_model *m);
/* Predict one collective of `bytes` (the nccl-tests size: the buffer per
 * rank for all-reduce, the total for all-gather/reduce-scatter). */
int sn_coll_predict(struct sn_coll_model *m, enum sn_coll_op op,
                    const struct sn_group *g, double bytes,
                    enum sn_coll_algo algo, struct sn_coll_result *res,
                    struct sn_error *err);
/* Same, with `siblings` groups of g's shape running the same collective
 * at once: those starting at first, first+1, ..., first+siblings-1 (an
 * explicit list is shifted the same way). They share links (the DP groups
 * of a TP job share the servers' NICs); the result is the slowest group.
 * siblings 0 or 1 is sn_coll_predict(). */
int sn_coll_predict_siblings(struct sn_coll_model *m, enum sn_coll_op op,
                             const struct sn_group *g, uint32_t siblings,
                             double bytes, enum sn_coll_algo algo,
                             struct sn_coll_result *res, struct sn_error *err);
/* ---- the vocabulary (src/lib/net/coll-ops.c) ----------------------------
 * One table of collective operations for the model, bench, diagnose and
 * the CLI: names, nccl-tests' spellings, bus factors and what the op's
 * buffers hold. The table is static: pointers into it stay valid. */

/* One collective operation. */
struct sn_coll_op_info {
    const char *name;       /* ours, nccl-tests' too: "allreduce" */
    const char *aliases[3]; /* other spellings the parser takes
                               ("all_reduce", "bcast"); NULL-padded */
    /* bus factor: bus_scale x (n-1)/n when bus_per_rank, else bus_scale */
    double bus_scale;
    bool bus_per_rank;
    bool reduces; /* applies a reduction operator (sum, max) */
    bool rooted;  /* has a root rank (broadcast, reduce) */
    bool parted;  /* the buffer holds one part per rank, so a
                     size is a whole number of parts */
};

/* The table row of op; NULL when op is out of range. */
const struct sn_coll_op_info *sn_coll_op_info(enum sn_coll_op op);
/* The nccl-tests bus factor of op for n ranks (doc/PERFORMANCE.md):
 * 2(n-1)/n for allreduce, (n-1)/n for allgather, reducescatter and
 * alltoall, 1 for broadcast, reduce and sendrecv; 0 when n is 0. */
double sn_coll_bus_factor(enum sn_coll_op op, uint32_t n);
/* nccl-tests' bandwidths of one run that moved `bytes` (the nccl-tests
 * size) in `time` seconds: algbw = bytes / time, and busbw = algbw x the
 * bus factor of op over n ranks; both 0 when time is not above 0. */
double sn_coll_algbw(double bytes, double time);
double sn_coll_busbw(enum sn_coll_op op, uint32_t n, double bytes, double time);
/* Our names ("allreduce", "nvls"); "?" when out of range. */
const char *sn_coll_op_name(enum sn_coll_op op);
const char *sn_coll_algo_name(enum sn_coll_algo algo);
/* Parse a name as users write it, ignoring case: an op's name, an alias,
 * or either with '_' and '-' left out ("all_reduce", "Reduce-Scatter");
 * an algorithm's name. SN_EINPUT naming the choices, or the closest one
 * ("did you mean"), otherwise; *out is set only on success. */
int sn_coll_op_parse(const char *name, enum sn_coll_op *out,
                     struct sn_error *err);
int sn_coll_algo_parse(const char *name, enum sn_coll_algo *out,
                       struct sn_error *err);
/* The element types of a collective's buffers, as nccl-tests names them
 * (its -d option; ncclDataType_t). */
enum sn_coll_dtype {
    SN_COLL_INT8,
    SN_COLL_UINT8,
    SN_COLL_INT32,
    SN_COLL_UINT32,
    SN_COLL_INT64,
    SN_COLL_UINT64,
    SN_COLL_HALF,
    SN_COLL_FLOAT,
    SN_COLL_DOUBLE,
    SN_COLL_BFLOAT16,
    SN_COLL_FP8E4M3,
    SN_COLL_FP8E5M2,
    SN_COLL_DTYPE_COUNT
};

/* nccl-tests' name ("float", "bfloat16"); "?" when out of range. */
const char *sn_coll_dtype_name(enum sn_coll_dtype d);
/* Bytes per element; 0 when out of range. */
size_t sn_coll_dtype_size(enum sn_coll_dtype d);
/* Parse a type as users write it, ignoring case: nccl-tests' name or a
 * short one ("fp32", "bf16", "i32", "e4m3", "fp8_e4m3"). SN_EINPUT naming
 * the choices, or the closest one, otherwise. */
int sn_coll_dtype_parse(const char *name, enum sn_coll_dtype *out,
                        struct sn_error *err);

/* Whether algo can run op on g (auto: always true). */
bool sn_coll_algo_applies(struct sn_coll_model *m, enum sn_coll_op op,
                          const struct sn_group *g, enum sn_coll_algo algo);

#endif
