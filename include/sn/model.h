/* model.h: predictions on a topology: pair bandwidth and latency,
 * collectives (ring, tree, NVLS, two- and three-level hierarchical,
 * direct) with an alpha-beta cost and a flow-level contention engine;
 * transformer FLOPs, memory, step time and MFU; layout search; goodput
 * under failures; sweeps.
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
    double time;            /* seconds */
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
    int proto;              /* enum sn_coll_proto chosen */
    double latency;         /* seconds: the size-independent part */
    bool flows;             /* bandwidth from the flow engine (else the
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
    double nvls_eff;        /* in-switch reduction efficiency */
    bool nvls;              /* scale-up switches reduce in the network */
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
    double nvls_hop;        /* one NVLS operation inside a domain */
    double nvls_net_hop;    /* one NVLS-tree step across domains */
    double ll_multinode;    /* LL intra-domain hop factor across domains */
    double ring_plateau;    /* large multi-domain Simple ring all-reduce
                               latency factor */
    double tree_eff;        /* tree bandwidth share NCCL models */
    double chunk;           /* pipelining chunk, bytes */
    /* groups whose steps have more flows than this take the per-level
     * estimate instead of the flow engine */
    double flow_max;
    const char *source;     /* where the defaults came from (static) */
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
                             struct sn_coll_result *res,
                             struct sn_error *err);
/* The nccl-tests bus factor of op for n ranks. */
double sn_coll_bus_factor(enum sn_coll_op op, uint32_t n);
const char *sn_coll_op_name(enum sn_coll_op op);
const char *sn_coll_algo_name(enum sn_coll_algo algo);
/* Parse names as the CLI writes them ("allreduce", "nvls"); -1 when
 * unknown. */
int sn_coll_op_parse(const char *name);
int sn_coll_algo_parse(const char *name);
/* Whether algo can run op on g (auto: always true). */
bool sn_coll_algo_applies(struct sn_coll_model *m, enum sn_coll_op op,
                          const struct sn_group *g, enum sn_coll_algo algo);

/* ---- pairs ------------------------------------------------------------- */

/* What one ordered accelerator pair should see, from its ECMP routes:
 * unidirectional bandwidth (one flow alone, split over the routes as the
 * switches split it), bidirectional (both directions at once), latency of
 * the wire (links, traffic-weighted over the routes) and of a small NCCL
 * send/recv (protocol base and hop latency plus the wire). */
struct sn_pair {
    uint32_t src, dst;      /* ranks */
    double uni_bw;          /* bytes/s */
    double bidi_bw;         /* bytes/s, both directions together */
    double wire_latency;    /* seconds */
    double latency;         /* seconds */
    enum sn_link_class cls; /* class of the pair's bottleneck link */
    uint32_t bottleneck;    /* its link id */
    uint32_t hops;          /* links on the route */
};

/* Predict one pair. */
int sn_pairs_predict(struct sn_coll_model *m, uint32_t src, uint32_t dst,
                     struct sn_pair *out, struct sn_error *err);
/* The links one pair's traffic crosses and the share of it each carries
 * (per-hop ECMP split), in route order from src; link ids and shares are
 * written to caller arrays of max entries; *n is the total (which may
 * exceed max). For localising a slow pair to a cable. */
int sn_pairs_route(struct sn_coll_model *m, uint32_t src, uint32_t dst,
                   uint32_t *links, double *share, size_t max, size_t *n,
                   struct sn_error *err);

/* Pairs grouped into classes of equal expectations (same relation, same
 * values), for large clusters. Heap arrays freed by sn_pair_classes_release. */
enum sn_pair_relation {
    SN_REL_SERVER,   /* same server */
    SN_REL_DOMAIN,   /* same scale-up domain, another server */
    SN_REL_NETWORK,  /* across domains */
    SN_REL_COUNT
};
struct sn_pair_class {
    struct sn_pair example;  /* the first pair in rank order */
    enum sn_pair_relation rel;
    uint64_t count;
};
struct sn_pair_classes {
    struct sn_pair_class *items;
    size_t n;
    uint64_t pairs;
};
/* Every ordered pair of the first `nranks` ranks (all when 0), grouped.
 * SN_EINPUT beyond SN_PAIRS_MAX ranks. */
#define SN_PAIRS_MAX 16384
int sn_pairs_classes(struct sn_coll_model *m, uint32_t nranks,
                     struct sn_pair_classes *out, struct sn_error *err);
void sn_pair_classes_release(struct sn_pair_classes *c);
const char *sn_pair_relation_name(enum sn_pair_relation r);

/* ---- training ---------------------------------------------------------------
 *
 * A transformer training step on a cluster: parameters and FLOPs, memory
 * per accelerator, step time with its breakdown, MFU and HFU. The formulas
 * and every calibration constant with its source are in docs/model.md
 * ("Training").
 *
 * Ownership: sn_train_new() returns a heap object freed with
 * sn_train_free(); it copies the model and the system (not what their
 * pointers point at: catalog strings must outlive it). Result structs are
 * caller-owned.
 *
 * To add a layout dimension: 1. struct sn_train_layout  2. its rules in
 * sn_train_check()  3. its cost in train.c and memory.c  4. its range in
 * search.c  5. `sim train` options  6. a closed-form test.
 */

enum sn_recompute {
    SN_RECOMPUTE_NONE,
    SN_RECOMPUTE_SELECTIVE, /* core attention only (Korthikanti et al.) */
    SN_RECOMPUTE_FULL,      /* every layer from its input */
    SN_RECOMPUTE_COUNT
};

enum sn_dtype {
    SN_DTYPE_BF16,
    SN_DTYPE_FP16,
    SN_DTYPE_FP8, /* FP8 GEMMs, BF16 weights and FP32 optimizer state */
    SN_DTYPE_FP4, /* FP4 (NVFP4/MXFP4) GEMMs, the rest as FP8 */
    SN_DTYPE_COUNT
};

/* How one job is split. Accelerators = tp x cp x pp x dp; ep divides dp
 * (experts are spread over data-parallel ranks). Ranks are placed the way
 * Megatron-LM places them: rank = tp_i + tp*(cp_i + cp*(dp_i + dp*pp_i)),
 * so TP groups are contiguous, then CP, then DP (EP inside DP), and PP
 * outermost. */
struct sn_train_layout {
    int tp, pp, dp, cp, ep;
    int vpp;                     /* model chunks per pipeline rank; 1 = 1F1B */
    int mbs;                     /* micro-batch, sequences */
    int gbs;                     /* global batch, sequences */
    int seq;                     /* tokens per sequence */
    enum sn_recompute recompute;
    int zero;                    /* 0 none; 1 optimizer state (Megatron's
                                    distributed optimizer); 2 and gradients;
                                    3 and parameters */
    bool sp;                     /* sequence parallelism (needs tp > 1) */
    enum sn_dtype dtype;
};

/* What the software does besides the layout. sn_train_opts_default()
 * gives a current Megatron-Core run. */
struct sn_train_opts {
    bool flash_attention;        /* fused attention: no s^2 activations */
    bool overlap_grad_reduce;    /* DP reduction overlaps the backward */
    bool overlap_param_gather;   /* DP parameter all-gather overlaps the
                                    forward (distributed optimizer, ZeRO-3) */
    bool overlap_tp;             /* TP/SP collectives overlap their GEMMs */
    bool overlap_p2p;            /* PP send/recv overlaps compute */
    bool dropout;                /* dropout masks are kept (GPT-3 recipes) */
};

/* Calibration: the few physical constants of an accelerator generation,
 * each with its source in train.c and docs/model.md. */
struct sn_train_calib {
    double gemm_eff;     /* fraction of dense BF16 peak a large GEMM
                            sustains (maximum achievable matmul FLOPS) */
    double gemm_eff_fp8; /* the same for FP8 GEMMs against the FP8 peak */
    double gemm_eff_fp4; /* the same for FP4 GEMMs against the FP4 peak */
    double mem_eff;      /* fraction of HBM bandwidth streaming kernels
                            sustain */
    double kernel_time;  /* fixed seconds per kernel (launch, fill and
                            tail): with it small GEMMs run below gemm_eff,
                            Hockney's n1/2 = kernel_time x rate */
    double attn_eff;     /* fused attention forward rate / large-GEMM
                            rate */
    double attn_bwd_eff; /* fused attention backward rate / large-GEMM
                            rate (0: attn_eff) */
    double overlap_tax;  /* compute slow-down while collectives overlap it */
    double reserved;     /* HBM bytes the job cannot use (CUDA context,
                            library workspaces, allocator slack) */
};

/* The time of one collective: `bytes` is the nccl-tests size (the buffer
 * per rank for all-reduce, the total for all-gather, reduce-scatter and
 * all-to-all; the message for send/recv). `siblings` groups of the same
 * shape run it at once, starting at g->first + 0, 1, ..., siblings - 1 (the
 * DP groups of a TP job share the nodes' NICs); 1 = g alone. Production
 * passes the collective model; tests pass closed forms. */
struct sn_train_comm {
    int (*time)(void *ctx, enum sn_coll_op op, const struct sn_group *g,
                uint32_t siblings, double bytes, double *seconds,
                struct sn_error *err);
    void *ctx;
};

/* What the step-time model needs to know about the machine. */
struct sn_train_system {
    const char *name;
    const char *accel;   /* catalog name, for messages */
    double flops;        /* dense BF16/FP16 peak per accelerator, FLOP/s */
    double fp8_flops;    /* dense FP8 peak; 0 = no FP8 */
    double fp4_flops;    /* dense FP4 peak; 0 = no FP4 */
    double hbm_bytes;
    double hbm_bw;       /* bytes/s */
    int accels;          /* in the cluster */
    int domain;          /* accelerators per scale-up domain */
    int per_node;        /* accelerators per node (they share its NICs);
                            0 = the domain */
    bool uniform_network;/* non-blocking scale-out: a group with one rank
                            per domain performs the same wherever its
                            domains are (lets the model reuse answers) */
    struct sn_train_calib calib;
    struct sn_train_comm comm;
};

/* Memory per accelerator, bytes, on the most loaded pipeline stage. */
struct sn_train_memory {
    double weights;
    double gradients;
    double optimizer;
    double activations;  /* stored for the backward, all in-flight
                            micro-batches */
    double logits;       /* output layer and loss, last stage */
    double buffers;      /* transient: recompute, gathered parameters,
                            communication, reserved */
    double total;
    double capacity;     /* HBM */
    bool fits;
    int stage;           /* the stage the figures are for */
};

/* Where a step's time goes, seconds; the parts add up to the step time. */
enum sn_train_part {
    SN_PART_FORWARD,
    SN_PART_BACKWARD,
    SN_PART_RECOMPUTE,
    SN_PART_TP,          /* exposed TP/SP collectives */
    SN_PART_CP,          /* exposed context-parallel exchange */
    SN_PART_EP,          /* exposed expert all-to-all */
    SN_PART_PP,          /* exposed pipeline send/recv */
    SN_PART_BUBBLE,      /* pipeline fill and drain, stage imbalance */
    SN_PART_DP,          /* exposed data-parallel reduction and gather */
    SN_PART_OPTIMIZER,
    SN_PART_COUNT
};

/* What bounds a layout, for the search listing. */
enum sn_train_limit {
    SN_LIMIT_COMPUTE,
    SN_LIMIT_MEMORY,     /* does not fit */
    SN_LIMIT_BUBBLE,
    SN_LIMIT_COMM,       /* exposed communication */
    SN_LIMIT_COUNT
};

/* FLOPs of one step. model: without recompute (the 72-coefficient formula
 * generalised to GQA, gated MLPs and MoE); hw: what runs, recompute
 * included (96-coefficient with full recompute). */
struct sn_train_flops {
    double model;
    double hw;
    double tokens;
};

struct sn_train_result {
    struct sn_train_memory mem;
    struct sn_train_flops flops;
    double step_time;                /* seconds */
    double part[SN_PART_COUNT];
    double tokens_per_s;
    double flops_per_gpu;            /* model FLOP/s per accelerator */
    double mfu;                      /* model FLOPs / (accels x peak x t),
                                        the peak of the layout's dtype */
    double peak;                     /* that peak, FLOP/s per accelerator */
    double hfu;                      /* hardware FLOPs / (same) */
    int microbatches;                /* per pipeline per step */
    enum sn_train_limit limit;
};

/* A training system built from a spec: the accelerator's figures and
 * calibration, the topology (sn_topo_build) and the collective model
 * that times every collective of a step. Caller-owned; the spec must
 * outlive it. */
struct sn_train_env {
    struct sn_topo *topo;
    struct sn_coll_model *coll;       /* large groups estimated per level */
    struct sn_coll_model *coll_exact; /* every group on the flow engine:
                                         where the estimate cannot apply */
    struct sn_train_system sys;
};

int sn_train_env_init(struct sn_train_env *e, const struct sn_spec *spec,
                      struct sn_error *err);
void sn_train_env_release(struct sn_train_env *e);

/* Parameters of a model: total, and active per token (MoE). */
double sn_train_params(const struct sn_model_info *m, double *active);
/* FLOPs of one step with layout l (gbs x seq tokens). */
void sn_train_flops(const struct sn_model_info *m,
                    const struct sn_train_layout *l,
                    struct sn_train_flops *f);

void sn_train_opts_default(struct sn_train_opts *o);

/* The default global batch, in sequences of seq tokens, for a job on
 * `accels` accelerators: about 4M tokens a step whatever the job's size
 * (Llama 3 began at 4M, NeMo's recipes run 512 x 8192), as the odd part
 * of the accelerator count times the power of two that comes nearest, so
 * every data-parallel width the count allows divides it (248 GPUs: 31 x
 * 16 = 496 sequences). It does not grow with the cluster. */
int sn_train_default_gbs(int accels, int seq);
/* Calibration for an accelerator by catalog name (prefix match: "a100",
 * "h100", "h800", "b200", ...); the generic entry when none matches.
 * Returns the name of the entry used. */
const char *sn_train_calib_for(const char *accel, struct sn_train_calib *c);

/* Memory per accelerator for layout l: the stage with the largest total.
 * capacity and fits use sys (which may be NULL: capacity 0, fits true). */
void sn_train_memory(const struct sn_model_info *m,
                     const struct sn_train_layout *l,
                     const struct sn_train_opts *o,
                     const struct sn_train_system *sys,
                     struct sn_train_memory *mem);

/* Layout rules: products, divisibility (heads, kv heads, ffn and hidden by
 * tp; at least pp x vpp layers; batch by mbs x dp; sequence by cp; experts and dp
 * by ep), supported combinations. SN_EINPUT with a message saying which
 * rule fails. */
int sn_train_check(const struct sn_model_info *m,
                   const struct sn_train_layout *l, int accels,
                   struct sn_error *err);

struct sn_train;

int sn_train_new(const struct sn_model_info *m,
                 const struct sn_train_system *sys, struct sn_train **out,
                 struct sn_error *err);
void sn_train_free(struct sn_train *t);
/* Predict one step. The layout must pass sn_train_check(); layouts that
 * do not fit in memory are still timed (limit = SN_LIMIT_MEMORY). Errors
 * come from the communication model. */
int sn_train_predict(struct sn_train *t, const struct sn_train_layout *l,
                     const struct sn_train_opts *o, struct sn_train_result *r,
                     struct sn_error *err);

const char *sn_train_part_name(enum sn_train_part p);
const char *sn_train_limit_name(enum sn_train_limit l);
const char *sn_recompute_name(enum sn_recompute r);
const char *sn_dtype_name(enum sn_dtype d);
/* The dtype named text ("bf16", "fp16", "fp8", "fp4"); SN_EINPUT
 * naming the choices otherwise. */
int sn_dtype_parse(const char *text, enum sn_dtype *out, struct sn_error *err);
/* The dense tensor peak of dtype d on system s (FLOP/s), the figure MFU
 * is stated against; 0 when the accelerator lacks the type. */
double sn_train_peak(const struct sn_train_system *s, enum sn_dtype d);

/* ---- layout search -------------------------------------------------------- */

/* What the search may vary and how much it keeps. Zero fields take the
 * defaults of sn_train_search_default(). */
struct sn_train_search {
    int accels;          /* accelerators the job uses */
    int gbs, seq;
    enum sn_dtype dtype;
    int max_tp;          /* 0: up to the heads */
    int max_pp;          /* 0: up to the layers */
    int max_cp;          /* 0: 1 below 16k tokens, else 32 */
    int max_mbs;         /* 0: 16 */
    int max_vpp;         /* 0: 8 */
    bool fixed_recompute;/* only `recompute` below */
    enum sn_recompute recompute;
    bool fixed_zero;     /* only `zero` below */
    int zero;
    bool fit_only;       /* stop at the first layout that fits, untimed */
};

/* One ranked layout. */
struct sn_train_candidate {
    struct sn_train_layout layout;
    struct sn_train_result result;
};

struct sn_train_search_stats {
    uint64_t enumerated;  /* layouts passing the divisibility rules */
    uint64_t fitting;     /* of those, within memory: timed */
    double seconds;       /* wall time of the search */
};

void sn_train_search_default(struct sn_train_search *s);
/* Enumerate every layout (tp, cp, pp, dp, ep, micro-batch, recompute,
 * ZeRO stage, interleaving; sequence parallelism whenever tp > 1) that
 * passes sn_train_check() and fits in memory, time each, and keep the k
 * fastest in top[] (ranked by step time, ties by the layout's fields).
 * *ntop gets how many were kept. */
int sn_train_search_run(struct sn_train *t, const struct sn_train_search *s,
                        const struct sn_train_opts *o,
                        struct sn_train_candidate *top, size_t k,
                        size_t *ntop, struct sn_train_search_stats *st,
                        struct sn_error *err);

/* The smallest accelerator count, a multiple of `step` up to `max`, at
 * which some layout of search s (s->accels ignored) fits in memory: 0
 * in *out when none does up to max. Memory alone decides, so the system's
 * collective model is not consulted. Counts are probed by doubling, then
 * every multiple of step below the first that fits. */
int sn_train_min_accels(struct sn_train *t, const struct sn_train_search *s,
                        const struct sn_train_opts *o, int step, int max,
                        int *out, struct sn_error *err);

/* ---- custom models --------------------------------------------------------- */

/* A model read from a YAML file: dimensions plus the storage for its names
 * (info.name and info.display point into this struct). */
struct sn_train_model_file {
    struct sn_model_info info;
    char name[64];
    char display[128];
};

/* Parse a model description:
 *   name: my-model            (optional)
 *   layers: 32                hidden: 4096     heads: 32
 *   kv_heads: 8               ffn: 14336       vocab: 128256
 *   seq: 8192                 mlp: swiglu | gelu (default gelu)
 *   experts: 8                topk: 2          shared_experts: 0
 *   moe_layers: 32            dense_ffn: 18432 tied_embeddings: false
 *   params: 46.7B             (optional, as published)
 * Errors are "file:line:col: what is wrong (what was expected)" with
 * SN_EINPUT. The struct is self-contained (copy it freely). */
int sn_train_model_parse(const char *file, const char *text, size_t len,
                         struct sn_train_model_file *out,
                         struct sn_error *err);
int sn_train_model_load(const char *path, struct sn_train_model_file *out,
                        struct sn_error *err);
/* `--model NAME|FILE`: a catalog preset of c by name, else a model file
 * when `name` names a readable file; SN_ENOTFOUND with a "did you mean"
 * otherwise. */
int sn_train_model_resolve(const struct sn_catalog *c, const char *name,
                           struct sn_train_model_file *out,
                           struct sn_error *err);

/* ---- goodput under failures ------------------------------------------------ */

/* Component classes that fail, and what each rate is counted per. */
enum sn_fail_class {
    SN_FAIL_ACCEL,     /* GPU, HBM, SRAM, GPU processor, thermal, SDC;
                          per accelerator */
    SN_FAIL_NIC,       /* per scale-out NIC */
    SN_FAIL_HOST,      /* host maintenance, SSD, PSU, chassis, CPU, DRAM,
                          IO board; per node */
    SN_FAIL_NETWORK,   /* scale-out switches and cables; per accelerator */
    SN_FAIL_SCALEUP,   /* scale-up switch chips; per chip */
    SN_FAIL_SOFTWARE,  /* software bugs, collective timeouts, dependencies;
                          per accelerator; stop the whole job */
    SN_FAIL_COUNT
};

enum sn_fault_domain {
    SN_FAULT_JOB,       /* any failure stops the whole job */
    SN_FAULT_SUPERNODE, /* a hardware failure stops its supernode; the
                           others keep training (elastic data parallelism)
                           until it is replaced */
};

/* The spec's `reliability:` section, defaults from
 * sn_goodput_params_default() (Llama 3's interruption table). */
struct sn_goodput_params {
    double mtbf[SN_FAIL_COUNT];   /* hours per failure of one unit; 0 =
                                     never fails */
    enum sn_fault_domain domain;
    int spares;                   /* spare supernodes */
    double restart;               /* s: detect, reschedule, warm up */
    double repair;                /* s: bring a failed supernode back */
    double checkpoint_write;      /* s blocking; 0 = from the storage */
    double checkpoint_restore;    /* s; 0 = from the storage */
};

/* What the cluster and the job look like to the goodput model. */
struct sn_goodput_job {
    int accels;                  /* in the job */
    int per_supernode;           /* accelerators per supernode */
    int per_node;                /* accelerators per node */
    int nics_per_node;
    int scaleup_switches;        /* per supernode */
    double checkpoint_bytes;
    double write_bw, read_bw;    /* storage bytes/s; 0 = unknown */
};

struct sn_goodput_result {
    double rate[SN_FAIL_COUNT];  /* failures per hour of the job, by class */
    double mtbf;                 /* s: between interruptions of the job */
    double mtbf_supernode;       /* s: between failures of one supernode */
    double checkpoint_write;     /* s (delta) */
    double restart;              /* s (R): restart + restore + waiting */
    double young;                /* s: sqrt(2 delta M) */
    double daly;                 /* s: Daly's higher-order optimum */
    double interval;             /* s: the interval used (Daly) */
    double waste_checkpoint;     /* fractions of wall time */
    double waste_rework;
    double waste_restart;
    double waste_supernode;      /* supernodes out of the job */
    double ettr;                 /* effective training time ratio */
    double spare_fraction;       /* spares / (job + spares) */
    double goodput;              /* ettr x (1 - spare_fraction) */
    double p_no_spare;           /* a failure finds no spare */
    /* the assumptions behind the figures, for the reader */
    enum sn_fault_domain domain;
    int spares;                  /* -1: unlimited */
    double repair;               /* s */
};

/* One line that states the assumptions of a goodput result (fault
 * domain, spares, repair time) and the keys that change them. */
void sn_goodput_assumption(const struct sn_goodput_result *r, char *buf,
                           size_t len);

void sn_goodput_params_default(struct sn_goodput_params *p);
/* Read the spec's reliability section (may be NULL: defaults) over the
 * defaults; errors located in `file`. */
int sn_goodput_parse(const char *file, const struct sn_yaml *section,
                     struct sn_goodput_params *p, struct sn_error *err);
/* Young/Daly checkpoint interval and the effective training time ratio.
 * SN_EINPUT when the checkpoint cost is unknown (no storage bandwidth and
 * no checkpoint_write). */
int sn_goodput_compute(const struct sn_goodput_params *p,
                       const struct sn_goodput_job *job,
                       struct sn_goodput_result *r, struct sn_error *err);
const char *sn_fail_class_name(enum sn_fail_class c);

/* ---- validation against measured runs -------------------------------------- */

#define SN_VALIDATE_SCHEMA "supernode.validate/1"
#define SN_VALIDATE_MAX_ROWS 100000

/* One measured run and its prediction. Strings point into the report. */
struct sn_validate_row {
    int line;                    /* CSV line */
    const char *source, *model, *gpu, *metric;
    double measured;
    bool predicted_ok;           /* false: `reason` says why */
    double predicted;            /* in the row's metric */
    double error_pct;            /* (predicted - measured) / measured */
    char reason[256];
    char system[48];             /* built-in system the row ran on */
    char assumed[160];           /* what the row left out and was assumed */
    struct sn_train_layout layout;
    struct sn_train_result result;
    int gpus;
};

/* Spearman rank correlation of predicted and measured times over the
 * rows of one source with the same model and GPU count, and whether the
 * layout predicted fastest is within 5% of the measured best. */
struct sn_validate_group {
    const char *source, *model;
    int gpus;
    size_t n;
    size_t first;                /* index of its first row */
    double spearman;
    double top_measured;         /* measured value of the predicted best */
    double best_measured;
    double top_gap_pct;          /* top_measured / best_measured - 1 */
};

struct sn_validate_source {
    const char *source;
    size_t first;                /* index of its first row */
    size_t n, predicted;
    double median_abs_pct, mean_abs_pct;
};

struct sn_validate_report {
    char *file;
    struct sn_validate_row *rows;
    size_t nrows, npredicted;
    double median_abs_pct, mean_abs_pct;
    size_t worst[5];             /* row indices, largest |error| first */
    size_t nworst;
    struct sn_validate_source *sources;
    size_t nsources;
    struct sn_validate_group *groups;
    size_t ngroups;
    void *owned;                 /* private: the parsed CSV */
};

/* Predict every row of a CSV in the column layout of
 * validation/training-public.csv (source, model, params_B, layers,
 * hidden, heads, seq, vocab, gpu, n_gpus, tp, pp, dp, other_parallel,
 * micro_batch, global_batch, recompute, measured_metric, measured_value,
 * notes) on the built-in system its gpu column names. Rows that cannot
 * be predicted are kept with the reason. SN_EINPUT (located) when the
 * file is not such a CSV. The report is released with
 * sn_validate_report_release(). */
int sn_validate_csv(const char *file, const char *text, size_t len,
                    struct sn_validate_report *rep, struct sn_error *err);
void sn_validate_report_release(struct sn_validate_report *rep);

/* The built-in system spec (YAML text) for a gpu column and notes, with
 * `gpus` accelerators; writes the system's name. NULL when no built-in
 * system matches. The text is heap-allocated; the caller frees it. */
char *sn_validate_system_spec(const char *gpu, const char *notes, int gpus,
                              char *name, size_t name_size);

/* ---- sweeps ------------------------------------------------------------------ */

#define SN_SWEEP_MAX_VALUES 256

/* What `supernode sweep` varies and what it predicts at each value. */
struct sn_sweep {
    const char *spec_path;       /* NULL: the built-in default */
    const char *key;             /* dotted spec key, as sn_spec_set() */
    const char *const *values;
    size_t nvalues;
    /* keys set to one value at every point, in this order, before `key`
     * (`sweep --set supernode.tiers=2 --set supernode.accelerators=...`) */
    const char *const *fixed_keys;
    const char *const *fixed_values;
    size_t nfixed;
    const struct sn_model_info *model; /* NULL: the spec's workload */
    int gpus;                    /* job size; 0: the spec's accelerators
                                    before the swept value (each design
                                    of the spec's size), or each design's
                                    when the key is `supernodes` */
    int gbs, seq;                /* 0: about 4M tokens; the model's */
    enum sn_dtype dtype;
};

/* One value of the sweep: the re-planned design, the fastest layout that
 * fits, goodput, and the plan's links, switch chips and power. */
struct sn_sweep_point {
    const char *value;
    bool ok;                     /* false: `error` says why */
    char error[SN_ERROR_MSG_MAX];
    int accels, domain;          /* the job's accelerators, per domain */
    int design_accels;           /* the design's: >= accels when the job
                                    does not fill whole supernodes */
    struct sn_train_candidate best;
    bool have_best;
    bool have_goodput;
    struct sn_goodput_result goodput;
    double tokens_per_accel;     /* tokens/s per accelerator of the job */
    double effective_per_accel;  /* tokens/s x goodput per accelerator of
                                    the design (idle ones count) */
    double scaling;              /* effective_per_accel over the first
                                    point's (a sweep of supernodes) */
    size_t links, switch_chips;
    double power_w;              /* steady draw of the IT load */
    double facility_w;           /* with cooling (PUE) */
    bool best_value;             /* the sweet spot */
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
