/* train.h: a transformer training step on a cluster: parameters and FLOPs,
 * memory per accelerator, step time with its breakdown, MFU and HFU; the
 * layout search; custom model files. The formulas
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
#ifndef SN_TRAIN_H
#define SN_TRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sn/coll.h"
#include "sn/kernels.h"
#include "sn/spec.h"
#include "sn/util.h"

enum sn_recompute {
    SN_RECOMPUTE_NONE,
    SN_RECOMPUTE_SELECTIVE, /* core attention only (Korthikanti et al.) */
    SN_RECOMPUTE_FULL,      /* every layer from its input */
    SN_RECOMPUTE_COUNT
};

enum sn_dtype {
    SN_DTYPE_BF16,
    SN_DTYPE_FP16,
    SN_DTYPE_FP8,  /* FP8 GEMMs, BF16 weights and FP32 optimizer state */
    SN_DTYPE_FP4,  /* FP4 (NVFP4/MXFP4) GEMMs, the rest as FP8 */
    SN_DTYPE_INT8, /* serving only: INT8 weights and activations (W8A8) */
    SN_DTYPE_COUNT
};

/* How one job is split. Accelerators = tp x cp x pp x dp. Ranks are placed
 * the way Megatron-LM places them: rank = tp_i + tp*(cp_i + cp*(dp_i +
 * dp*pp_i)), so TP groups are contiguous, then CP, then DP, and PP
 * outermost. The MoE layers fold the same tp x cp x dp ranks of a stage
 * into etp x ep x edp (Megatron-Core's MoE parallel folding): expert TP
 * fastest, then EP, so an EP group is ep ranks at stride etp, and the
 * expert-data-parallel size is edp = tp x cp x dp / (ep x etp). */
struct sn_train_layout {
    int tp, pp, dp, cp, ep;
    int vpp; /* model chunks per pipeline rank; 1 = 1F1B */
    int mbs; /* micro-batch, sequences */
    int gbs; /* global batch, sequences */
    int seq; /* tokens per sequence */
    enum sn_recompute recompute;
    int zero; /* 0 none; 1 optimizer state (Megatron's
                 distributed optimizer); 2 and gradients;
                 3 and parameters */
    bool sp;  /* sequence parallelism (needs tp > 1) */
    enum sn_dtype dtype;
    int etp; /* expert tensor parallelism; 0 = tp (Megatron-Core's
                default) */
};

/* What CUDA graphs capture: the host launches a captured module as one
 * graph instead of kernel by kernel. */
enum sn_train_graphs {
    SN_GRAPHS_NONE,    /* eager: every kernel launched by the host */
    SN_GRAPHS_PARTIAL, /* Megatron-Core's --cuda-graph-scope attn
                          moe_router moe_preprocess (and dense MLPs): all
                          but the routed experts of a dropless MoE */
    SN_GRAPHS_COUNT
};

/* What the software does besides the layout. sn_train_opts_default()
 * gives a current Megatron-Core run. */
struct sn_train_opts {
    bool flash_attention;      /* fused attention: no s^2 activations */
    bool overlap_grad_reduce;  /* DP reduction overlaps the backward */
    bool overlap_param_gather; /* DP parameter all-gather overlaps the
                                  forward (distributed optimizer, ZeRO-3) */
    bool overlap_tp;           /* TP/SP collectives overlap their GEMMs */
    bool overlap_p2p;          /* PP send/recv overlaps compute */
    bool dropout;              /* dropout masks are kept (GPT-3 recipes) */
    bool overlap_ep;           /* the MoE all-to-all of one micro-batch overlaps
                                  the compute of another (Megatron-Core's
                                  overlap_moe_expert_parallel_comm; interleaved
                                  pipelines or none) */
    double moe_capacity;       /* tokens an expert takes / its balanced share:
                                  0 or 1 = forced-balanced dropless routing
                                  (NVIDIA's benchmark convention); above 1 a
                                  capacity factor with padding, or the busiest
                                  rank's imbalance */
    /* The software profile's features (software.c has each one's
     * source; sn_train_opts_default() gives megatron-core's). */
    bool ep_dedup;               /* the MoE dispatch sends a token once per
                                    remote domain (DeepEP, HybridEP); false:
                                    NCCL all-to-all, one copy per expert */
    enum sn_train_graphs graphs; /* what CUDA graphs capture */
    bool moe_sync;               /* dropless dispatch: the host waits for the
                                    tokens per expert once per MoE layer */
    bool te_modules;             /* the layers are TransformerEngine modules:
                                    each Linear costs the host a module's
                                    work, a grouped GEMM one cuBLAS launch
                                    per local expert (train-host.c) */
    int router_kernels;          /* kernels of the router and the EP
                                    preprocess per MoE layer forward; 0:
                                    the fused two the GPU model counts */
    double zero3_prefetch;       /* ZeRO-3: parameters (elements) fetched
                                    ahead under compute; 0: the whole next
                                    layer (FSDP, Megatron-FSDP) */
    bool zero3_per_tensor;       /* ZeRO-3: one all-gather and one
                                    reduce-scatter per weight tensor, each
                                    behind a device synchronize (DeepSpeed
                                    0.3-0.5): none overlaps compute */
    const char *software;        /* the profile's name, for reports */
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
    /* Optional: the same collective at the nominal rate of its
     * bottleneck links (the flow engine's loads, no protocol efficiency):
     * *wire seconds of transfer and *latency seconds fixed, and whether
     * the bottleneck is the scale-out network. For kernels that are not
     * NCCL's (the MoE dispatch and combine). NULL: time() is used. */
    int (*wire)(void *ctx, enum sn_coll_op op, const struct sn_group *g,
                uint32_t siblings, double bytes, double *wire, double *latency,
                bool *scaleout, struct sn_error *err);
};

/* What the step-time model needs to know about the machine. */
struct sn_train_system {
    const char *name;
    const char *accel; /* catalog name, for messages */
    double flops;      /* dense BF16/FP16 peak per accelerator, FLOP/s */
    double fp8_flops;  /* dense FP8 peak; 0 = no FP8 */
    double fp4_flops;  /* dense FP4 peak; 0 = no FP4 */
    double int8_ops;   /* dense INT8 peak, operations/s; 0 = no INT8 */
    double hbm_bytes;
    double hbm_bw;        /* bytes/s */
    int accels;           /* in the cluster */
    int domain;           /* accelerators per scale-up domain */
    int per_node;         /* accelerators per node (they share its NICs);
                             0 = the domain */
    bool uniform_network; /* non-blocking scale-out: a group with one rank
                             per domain performs the same wherever its
                             domains are (lets the model reuse answers) */
    double host_launch;   /* CPU seconds the host spends on one eager
                             kernel launch (framework dispatch and the
                             driver call); 0: host time not modelled */
    const char *host_cpu; /* the host CPU class ("x86", "grace") */
    struct sn_train_calib calib;
    struct sn_train_comm comm;
    /* GEMM efficiency by shape (sn/kernels.h): a measured table (`sim
     * train --kernels`) used in place of the generation's shipped one;
     * NULL: the shipped one. Not owned. */
    const struct sn_kernel_table *kernels;
};

/* Memory per accelerator, bytes, on the most loaded pipeline stage. */
struct sn_train_memory {
    double weights;
    double gradients;
    double optimizer;
    double activations; /* stored for the backward, all in-flight
                           micro-batches */
    double logits;      /* output layer and loss, last stage */
    double buffers;     /* transient: recompute, gathered parameters,
                           communication, reserved */
    double total;
    double capacity; /* HBM */
    bool fits;
    int stage; /* the stage the figures are for */
};

/* Where a step's time goes, seconds; the parts add up to the step time. */
enum sn_train_part {
    SN_PART_FORWARD,
    SN_PART_BACKWARD,
    SN_PART_RECOMPUTE,
    SN_PART_TP,     /* exposed TP/SP collectives */
    SN_PART_CP,     /* exposed context-parallel exchange */
    SN_PART_EP,     /* exposed expert all-to-all */
    SN_PART_PP,     /* exposed pipeline send/recv */
    SN_PART_BUBBLE, /* pipeline fill and drain, stage imbalance */
    SN_PART_DP,     /* exposed data-parallel reduction and gather */
    SN_PART_OPTIMIZER,
    SN_PART_HOST, /* the GPU waiting for the host: launches slower than
                     the kernels, and one restart per host sync */
    SN_PART_COUNT
};

/* What bounds a layout, for the search listing. */
enum sn_train_limit {
    SN_LIMIT_COMPUTE,
    SN_LIMIT_MEMORY, /* does not fit */
    SN_LIMIT_BUBBLE,
    SN_LIMIT_COMM, /* exposed communication */
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
    double step_time; /* seconds */
    double part[SN_PART_COUNT];
    double tokens_per_s;
    double flops_per_gpu; /* model FLOP/s per accelerator */
    double mfu;           /* model FLOPs / (accels x peak x t),
                             the peak of the layout's dtype */
    double peak;          /* that peak, FLOP/s per accelerator */
    double hfu;           /* hardware FLOPs / (same) */
    int microbatches;     /* per pipeline per step */
    enum sn_train_limit limit;
    bool kernels_extrapolated; /* a GEMM's rate is not from a measured
                                  kernel table: its generation or type has
                                  none, or its shape lies below the
                                  measured range (sn/kernels.h) */
};

/* A training system built from a spec: the accelerator's figures and
 * calibration, the topology (sn_topo_build) and the collective model
 * that times every collective of a step. Caller-owned; the spec must
 * outlive it. A zeroed env ({0}) is released already, and a failed init
 * leaves it so. */
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
                    const struct sn_train_layout *l, struct sn_train_flops *f);

void sn_train_opts_default(struct sn_train_opts *o);
/* The options of 2022-era Megatron-LM (as Korthikanti et al. ran it,
 * and A100-era stacks generally): no fused attention, dropout masks
 * kept, no overlap of the DP, TP or PP traffic. */
void sn_train_opts_legacy(struct sn_train_opts *o);

/* ---- software profiles (software.c) ----------------------------------------
 *
 * A named training stack: the sn_train_opts features it runs, each with
 * its public source, and the expert-TP default of its recipes. To add a
 * profile: 1. a row in software.c's table with a source per feature
 * 2. docs/model.md ("Software profiles")  3. a test in test-software.c. */
struct sn_train_software {
    const char *name;    /* "megatron-core", "plain", ... */
    const char *display; /* one line for people */
    const char *source;  /* where its features are stated */
    struct sn_train_opts opts;
    int etp_default; /* a blank expert TP: 1 in the published recipes,
                        0 = tp (Megatron-LM's command-line default) */
};

/* The profiles, in the order listed; *n gets their count. Static. */
const struct sn_train_software *sn_train_software_list(size_t *n);
/* The profile named `name`; SN_EINPUT "unknown software 'x' (did you mean
 * 'y'?)" naming the choices otherwise. */
int sn_train_software_find(const char *name,
                           const struct sn_train_software **out,
                           struct sn_error *err);
/* The best current recipe (megatron-core) and the plain eager stack: the
 * two ends of the band given when the software is not known. */
const struct sn_train_software *sn_train_software_best(void);
const struct sn_train_software *sn_train_software_plain(void);
/* o becomes the profile's options; dropout and moe_capacity (the
 * model's recipe, not the stack's) are kept. */
void sn_train_software_apply(const struct sn_train_software *s,
                             struct sn_train_opts *o);
/* The stack a measured row's text names ("DeepSpeed", "ZeRO-3 (DeepSpeed)",
 * "torchtitan", "Megatron-Bridge", "NeMo", "Megatron-LM", "MindSpeed");
 * text lower-case. NULL when it names none. */
const struct sn_train_software *sn_train_software_guess(const char *text);
/* The spec's `software:` section (sn_spec_section(spec, "software")):
 *   software:
 *     profile: megatron-core      (a name of sn_train_software_list)
 *     cuda_graphs: none|partial   ep_dedup: bool    moe_sync: bool
 *     router_kernels: N           zero3_prefetch: elements
 *     te_modules: bool
 * *out gets the profile (NULL when sec is NULL) and o its options with
 * the overrides. Errors are "file:line:col: what is wrong" with
 * SN_EINPUT (unknown keys and names with a did-you-mean). */
int sn_train_software_parse(const char *file, const struct sn_yaml *sec,
                            const struct sn_train_software **out,
                            struct sn_train_opts *o, struct sn_error *err);
/* The host CPU class of an accelerator's node: "grace" where the catalog
 * joins the GPU to its CPU by NVLink-C2C (GH200, GB200, GB300), else
 * "x86"; *launch the CPU seconds of one eager kernel launch on it. */
const char *sn_train_host_class(const struct sn_accel_info *a, double *launch);

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
 * tp; at least pp x vpp layers; batch by mbs x dp; sequence by cp; experts by
 * ep, tp x cp x dp by ep x etp, ffn by etp), supported combinations. SN_EINPUT
 * with a message saying which rule fails. */
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
/* The same at the pessimistic end of what the model knows, as the layout
 * search ranks: each GEMM at the slower of the calibrated rate and the
 * kernel table's (a generation or type without a table: the measured
 * table's shape curve on the calibrated rate; shapes below the measured
 * range at their slowest neighbour's rate), and ZeRO-3's per-layer
 * gathers unhidden. Never faster than sn_train_predict. */
int sn_train_predict_bound(struct sn_train *t, const struct sn_train_layout *l,
                           const struct sn_train_opts *o,
                           struct sn_train_result *r, struct sn_error *err);

const char *sn_train_part_name(enum sn_train_part p);
const char *sn_train_limit_name(enum sn_train_limit l);
const char *sn_recompute_name(enum sn_recompute r);
const char *sn_dtype_name(enum sn_dtype d);
/* The dtype named text, in any case ("bf16", "fp16", "fp8", "fp4",
 * "int8", or "w8a8" for int8); SN_EINPUT naming the choices otherwise. */
int sn_dtype_parse(const char *text, enum sn_dtype *out, struct sn_error *err);
/* The dense tensor peak of dtype d on system s (FLOP/s, or INT8
 * operations/s), the figure MFU is stated against; 0 when the
 * accelerator lacks the type. */
double sn_train_peak(const struct sn_train_system *s, enum sn_dtype d);

/* ---- layout search --------------------------------------------------------
 */

/* What the search may vary and how much it keeps. Zero fields take the
 * defaults of sn_train_search_default(). */
struct sn_train_search {
    int accels; /* accelerators the job uses */
    int gbs, seq;
    enum sn_dtype dtype;
    int max_tp;           /* 0: up to the heads */
    int max_pp;           /* 0: up to the layers */
    int max_cp;           /* 0: 1 below 16k tokens, else 32 */
    int max_mbs;          /* 0: 16 */
    int max_vpp;          /* 0: 8 */
    bool fixed_recompute; /* only `recompute` below */
    enum sn_recompute recompute;
    bool fixed_zero; /* only `zero` below */
    int zero;
    bool fit_only; /* stop at the first layout that fits, untimed */
};

/* One ranked layout; its result is sn_train_predict_bound's. */
struct sn_train_candidate {
    struct sn_train_layout layout;
    struct sn_train_result result;
};

struct sn_train_search_stats {
    uint64_t enumerated; /* layouts passing the divisibility rules */
    uint64_t fitting;    /* of those, within memory: timed */
    double seconds;      /* wall time of the search */
};

void sn_train_search_default(struct sn_train_search *s);
/* Enumerate every layout (tp, cp, pp, dp, ep, micro-batch, recompute,
 * ZeRO stage, interleaving; sequence parallelism whenever tp > 1) that
 * passes sn_train_check() and fits in memory, time each, and keep the k
 * fastest in top[] (ranked by step time, ties by the layout's fields).
 * *ntop gets how many were kept. */
int sn_train_search_run(struct sn_train *t, const struct sn_train_search *s,
                        const struct sn_train_opts *o,
                        struct sn_train_candidate *top, size_t k, size_t *ntop,
                        struct sn_train_search_stats *st, struct sn_error *err);

/* The smallest accelerator count, a multiple of `step` up to `max`, at
 * which some layout of search s (s->accels ignored) fits in memory: 0
 * in *out when none does up to max. Memory alone decides, so the system's
 * collective model is not consulted. Counts are probed by doubling, then
 * every multiple of step below the first that fits. */
int sn_train_min_accels(struct sn_train *t, const struct sn_train_search *s,
                        const struct sn_train_opts *o, int step, int max,
                        int *out, struct sn_error *err);

/* ---- custom models ---------------------------------------------------------
 */

/* A model read from a YAML file: dimensions plus the storage for its names
 * (info.name and info.display point into this struct). */
struct sn_train_model_file {
    struct sn_model_info info;
    char name[64];
    char display[128];
    char aliases[256];
    char source[256];
};

/* Parse a model description, the fields of a catalog preset
 * (struct sn_model_info; docs/model.md, "Custom models"):
 *   name: my-model            display, aliases, source (optional text)
 *   layers: 32                hidden: 4096     heads: 32
 *   kv_heads: 8               ffn: 14336       vocab: 128256
 *   seq: 8192                 mlp: swiglu | gelu (or gated_mlp: bool)
 *   experts: 8                topk: 2          shared_experts: 0
 *   moe_layers: 32            dense_ffn: 18432 tied_embeddings: false
 *   shared_ffn, dense_layers, moe_every        (the MoE layer pattern)
 *   attention: gqa | mla      head_dim (gqa); q_lora_rank, kv_lora_rank,
 *   qk_nope_head_dim, qk_rope_head_dim, v_head_dim (mla)
 *   window, window_every      mtp_layers
 *   params: 46.7B             active_params (optional, as published)
 * Errors are "file:line:col: what is wrong (what was expected)" with
 * SN_EINPUT: a wrong type, a value out of its range, values that
 * disagree (sn_model_check). info's strings point into the struct. */
int sn_train_model_parse(const char *file, const char *text, size_t len,
                         struct sn_train_model_file *out, struct sn_error *err);
int sn_train_model_load(const char *path, struct sn_train_model_file *out,
                        struct sn_error *err);
/* `--model NAME|FILE`: a catalog preset of c by name, else a model file
 * when `name` names a readable file; SN_ENOTFOUND with a "did you mean"
 * otherwise. */
int sn_train_model_resolve(const struct sn_catalog *c, const char *name,
                           struct sn_train_model_file *out,
                           struct sn_error *err);

#endif
