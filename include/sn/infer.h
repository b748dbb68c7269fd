/* infer.h: serving a transformer on a cluster: the weights and KV cache
 * per accelerator and the largest batch that fits, prefill (compute-bound)
 * and decode (memory-bound) times with their parts, TTFT, TPOT and
 * tokens/s per GPU and per user; the search over layouts and batch sizes
 * (the throughput-latency Pareto front) and disaggregated prefill/decode.
 * The formulas and every constant with its source are in docs/model.md
 * ("Inference").
 *
 * Ownership: results and search points are caller-owned structs;
 * sn_infer_search() fills an array the caller allocates. The model and
 * the system (struct sn_train_system, from sn_train_env_init()) are
 * borrowed for the call.
 *
 * To add a layout dimension: 1. struct sn_infer_layout  2. its rule in
 * sn_infer_check()  3. its cost in infer.c  4. its range in
 * sn_infer_search()  5. `sim infer` options  6. a closed-form test.
 */
#ifndef SN_INFER_H
#define SN_INFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sn/spec.h"
#include "sn/train.h"
#include "sn/util.h"

/* One model replica: tp x pp accelerators, contiguous from rank 0. The
 * tp accelerators of a stage split attention by heads (or, with
 * dp_attention, each runs attention for its own share of the batch on
 * whole attention weights), and the experts ep ways, each expert split
 * tp / ep ways (TensorRT-LLM's moe_tp x moe_ep = tp). */
struct sn_infer_layout {
    int tp, ep, pp;
    bool dp_attention;
    int batch;     /* sequences in flight per replica; 0: the most that fit */
    bool tbo;      /* two-batch overlap: the batch runs as two micro-batches,
                      one's all-to-all and all-reduce under the other's
                      compute, each reading the weights (SGLang, DeepSeek's
                      inference system) */
    int redundant; /* redundant expert copies (EPLB: SGLang's
                      --ep-num-redundant-experts, TensorRT-LLM's
                      num_slots - experts) so that ep divides the slots */
    bool eplb;     /* experts placed by their measured load (EPLB); a
                      layout with redundant copies has it too */
};

/* The serving runtime: its host work per iteration and the memory it
 * takes before the KV cache differ (infer-host.c, infer-mem.c). */
enum sn_infer_runtime {
    SN_INFER_TRTLLM, /* TensorRT-LLM's PyTorch backend (the default) */
    SN_INFER_VLLM,
    SN_INFER_SGLANG,
    SN_INFER_RUNTIME_COUNT
};

/* The class of the host CPU that runs the runtime's scheduler. */
enum sn_infer_cpu {
    SN_INFER_CPU_AUTO,  /* Grace where the catalog joins the accelerator
                           to its CPU by NVLink-C2C, else x86 */
    SN_INFER_CPU_X86,   /* a server x86 (Xeon, EPYC) */
    SN_INFER_CPU_GRACE, /* NVIDIA Grace (Arm Neoverse V2) */
    SN_INFER_CPU_COUNT
};

/* The requests and number formats. */
#define SN_INFER_GRAPHS_MAX 64

struct sn_infer_work {
    int isl, osl;            /* input and output tokens per request */
    enum sn_dtype precision; /* weights and GEMMs: bf16, fp16, fp8, fp4
                                or int8 (W8A8) */
    enum sn_dtype kv;        /* KV cache: bf16 or fp8 */
    int mtp; /* speculative decoding: tokens drafted per step by the
                model's multi-token-prediction module (0: none) */
    /* CUDA-graph batch sizes, ascending: a decode batch (per attention
     * rank) runs padded to the next one, its padded slots costing GEMM,
     * expert and communication work but no attention (TensorRT-LLM's
     * cuda_graph_config enable_padding); above the largest it runs
     * unpadded. ngraphs 0: no padding. */
    int graphs[SN_INFER_GRAPHS_MAX];
    int ngraphs;
    /* tokens of one forward pass per attention rank, prefill chunks
     * included: 0 for TensorRT-LLM's default (8192),
     * SN_INFER_TOKENS_BENCH for trtllm-bench's rule from the largest
     * batch (tensorrt_llm/bench/build/tuning.py) */
    int max_tokens;
    /* the runtime, its host CPU and the draft acceptance (infer-host.c,
     * infer-mem.c; docs/model.md "The runtime") */
    enum sn_infer_runtime runtime;
    enum sn_infer_cpu cpu; /* SN_INFER_CPU_AUTO: from the accelerator */
    double accept; /* share of drafted tokens accepted, each given the one
                      before; required (0 < accept <= 1) when mtp > 0 */
};

#define SN_INFER_TOKENS_BENCH (-1)

/* trtllm-bench's runs as TensorRT-LLM's perf-overview gives them: its
 * CUDA-graph sizes with padding (w->graphs, w->ngraphs) and its token
 * budget rule (w->max_tokens); the rest of w is left as it is. */
void sn_infer_trtllm_bench(struct sn_infer_work *w);

/* DeepSeek-V3's second-token acceptance on natural text, 85-90%
 * (DeepSeek-V3 technical report, arXiv 2412.19437, section 5.4.3), its
 * low end. Never applied by the model: a caller that has no measured
 * acceptance may pass it, and must say so (validate names it in a row's
 * assumptions). Random-token benchmark prompts accept less. */
#define SN_INFER_MTP_ACCEPT_NATURAL 0.85

/* Where a decode step's time goes, seconds; the parts add up to it. */
enum sn_infer_part {
    SN_INFER_WEIGHTS, /* reading weights (experts the batch hits) */
    SN_INFER_KV,      /* reading the KV cache */
    SN_INFER_COMPUTE, /* GEMM and attention time above the memory time */
    SN_INFER_KERNELS, /* fixed cost per kernel */
    SN_INFER_TP,      /* tensor-parallel all-reduce */
    SN_INFER_EP,      /* expert-parallel dispatch and combine */
    SN_INFER_PP,      /* pipeline send/recv */
    SN_INFER_STEP,    /* per-step scheduling and sampling */
    SN_INFER_HOST,    /* host time above the GPU's: the step is
                         max(GPU step, host step) */
    SN_INFER_PART_COUNT
};

struct sn_infer_result {
    int gpus;              /* per replica: tp x pp */
    double weights_bytes;  /* per accelerator, the most loaded stage */
    double kv_token_bytes; /* KV cache of one token, whole model */
    double kv_seq_gpu;     /* KV bytes one sequence of isl + osl tokens
                              takes on one accelerator */
    double kv_budget;      /* bytes for the KV cache per accelerator */
    double runtime_bytes;  /* what the runtime takes before the KV cache
                              per accelerator: activation and MoE
                              workspaces, NCCL buffers, CUDA context and
                              graph pools (infer-mem.c) */
    double host_step_s;    /* the runtime's host time per decode step */
    double gpu_step_s;     /* the GPU's time per decode step */
    double capacity;       /* HBM per accelerator */
    int max_batch;         /* sequences per replica that fit */
    int batch;             /* the batch timed */
    bool fits;             /* weights fit and batch <= max_batch */
    double experts_hit;    /* distinct experts one accelerator reads per
                              MoE layer per decode step */
    double prefill_s;      /* one request's isl tokens on the replica */
    double ttft_s;         /* prefill, and with disaggregation the KV
                              transfer */
    double step_s;         /* one decode step of the whole batch */
    double part[SN_INFER_PART_COUNT];
    double tpot_s;          /* time per output token a user sees */
    double prefill_tps_gpu; /* input tokens/s per accelerator, prefill at
                               full batching */
    double decode_tps_gpu;  /* output tokens/s per accelerator, decode
                               alone */
    double output_tps;      /* replica output tokens/s with prefill
                               interleaved (aggregated serving) */
    double output_tps_gpu;
    double output_tps_user;    /* 1 / TPOT */
    bool kernels_extrapolated; /* a GEMM's rate is not from a measured
                                  kernel-table row of the precision's
                                  type (sn/kernels.h): no table of the
                                  generation and type (the one
                                  calibrated rate), or a shape outside
                                  the measured range */
};

/* Whether a runtime (TensorRT-LLM, vLLM, SGLang) runs the layout, one
 * rule set for the search and for layouts given by hand
 * (infer-rules.c; docs/model.md, "Layouts a runtime runs"): tp x pp
 * divides gpus; pp divides the layers; ep divides tp; attention TP
 * divides the heads and divides the KV heads or is a multiple of them
 * (each KV head then replicated over tp / kv_heads GPUs, as vLLM's and
 * TensorRT-LLM's QKV layers do), and divides the dense MLP and shared
 * experts' widths, within one scale-up domain; attention data-parallel
 * (dp_attention) only for MoE models and tp above 1; expert TP (tp /
 * ep) divides the experts' width and lies within a domain; ep divides
 * the experts plus the redundant copies named (at most one copy of
 * each); the precision one the accelerator has a tensor rate for, the
 * KV cache bf16 or fp8. SN_EINPUT naming the rule that fails. */
int sn_infer_check(const struct sn_model_info *m,
                   const struct sn_train_system *sys,
                   const struct sn_infer_layout *l,
                   const struct sn_infer_work *w, int gpus,
                   struct sn_error *err);

/* Whether the accelerator has a tensor rate for w->precision: SN_EINPUT
 * naming the precisions it has otherwise ("ascend-910c has no fp8 tensor
 * rate (it has bf16, fp16, int8)"). sn_infer_check() includes it. */
int sn_infer_check_precision(const struct sn_train_system *sys,
                             const struct sn_infer_work *w,
                             struct sn_error *err);

/* KV cache bytes of one sequence of `ctx` tokens, whole model (sliding
 * windows hold at most the window): per token and layer MLA's compressed
 * latent, kv_lora_rank + qk_rope_head_dim elements, else 2 x kv_heads x
 * head_dim; `bytes` per element. ctx 1 gives the bytes of one token. */
double sn_infer_kv_bytes(const struct sn_model_info *m, double ctx,
                         double bytes);
/* Expected distinct experts hit when `tokens` each pick topk of
 * `experts` (uniform routing): experts x (1 - (1 - topk/experts)^tokens). */
double sn_infer_experts_hit(double experts, double topk, double tokens);
/* The busiest EP rank's routed tokens over the mean (1 without EP):
 * TensorRT-LLM's measured imbalance, with and without EPLB, scaled to
 * the layout's EP size and experts a rank (docs/model.md, "EP load
 * imbalance"). */
double sn_infer_ep_hot(const struct sn_model_info *m,
                       const struct sn_infer_layout *l);

/* Predict one layout. A layout whose weights do not fit, or whose batch
 * is above the largest that fits, is still timed (fits false). Errors
 * come from the rules and the communication model; of sn_infer_check()'s
 * rules, pp dividing the layers and TP within a domain are not applied
 * here (runtimes run such layouts; validate predicts measured runs that
 * used them), the search and `sim infer` apply them. */
int sn_infer_predict(const struct sn_model_info *m,
                     const struct sn_train_system *sys,
                     const struct sn_infer_layout *l,
                     const struct sn_infer_work *w, struct sn_infer_result *r,
                     struct sn_error *err);

/* ---- search and disaggregation ------------------------------------------ */

/* Latency limits, seconds; 0: none. */
struct sn_infer_limits {
    double ttft, tpot;
};

struct sn_infer_point {
    struct sn_infer_layout layout;
    struct sn_infer_result result;
    bool pareto; /* no other point has both more tokens/s per GPU and
                    more per user */
    bool meets;  /* within the limits */
};

struct sn_infer_search_stats {
    size_t timed;   /* layouts and batches timed (fitting) */
    size_t pareto;  /* on the front */
    long best;      /* index of the most tokens/s per GPU within the
                       limits; -1 when none meets them */
    double seconds; /* wall time */
};

/* Every layout (tp, ep, pp, dp_attention) whose replica divides gpus,
 * each batch size a power of two up to the largest that fits: timed,
 * marked on the Pareto front of output tokens/s per GPU against per
 * user, the best within the limits chosen. Up to cap points in pts
 * (the front first, then by tokens/s per GPU); *n gets how many. */
int sn_infer_search(const struct sn_model_info *m,
                    const struct sn_train_system *sys, int gpus,
                    const struct sn_infer_work *w,
                    const struct sn_infer_limits *lim,
                    struct sn_infer_point *pts, size_t cap, size_t *n,
                    struct sn_infer_search_stats *st, struct sn_error *err);

/* Disaggregated serving: `prefill` GPUs run prefill with layout lp,
 * `decode` GPUs decode with ld (its batch: the most that fit when 0).
 * Throughput per GPU counts every GPU of both pools. */
struct sn_infer_disagg {
    int prefill, decode; /* GPUs of each pool */
    struct sn_infer_layout lp, ld;
    int prefill_instances, decode_instances; /* the pools' replicas */
    bool fits;                   /* both layouts fit (p.fits and d.fits) */
    double requests_per_s;       /* the slower side's rate */
    double output_tps_gpu;       /* output tokens/s over all the GPUs of both
                                    pools */
    double balanced_ratio;       /* prefill : decode GPUs that balance the
                                    two sides (prefill per decode GPU) */
    double kv_transfer_s;        /* one request's KV cache, prefill to decode */
    double rate;                 /* the search's load, requests/s (0: none;
                                    the TTFT is then an idle prefill) */
    double percentile;           /* under a rate: d.ttft_s is at it */
    double prefill_wait_s;       /* under a rate: the prompt's queue for a
                                    prefill instance at the percentile */
    const char *bound;           /* "prefill" or "decode"; "rate" under the
                                    search's rate */
    struct sn_infer_result p, d; /* d.ttft_s: prefill and KV transfer */
};

int sn_infer_disaggregate(const struct sn_model_info *m,
                          const struct sn_train_system *sys,
                          const struct sn_infer_layout *lp,
                          const struct sn_infer_layout *ld,
                          const struct sn_infer_work *w, int prefill,
                          int decode, struct sn_infer_disagg *out,
                          struct sn_error *err);

struct sn_infer_disagg_stats {
    size_t timed;  /* prefill layouts and decode layouts x batches */
    size_t splits; /* prefill : decode instance sizes weighed */
    bool found;    /* a split within the limits */
    double fastest_ttft, fastest_tpot; /* the lowest any layout that fits
                                          reaches (a prefill's TTFT, a
                                          decode's TPOT) */
    double seconds;                    /* wall time */
};

/* The disaggregated split of `gpus` with the most output tokens/s per GPU
 * (all GPUs of both pools) within the limits: every prefill instance
 * layout (its TTFT: one prompt and the KV transfer across the cluster,
 * rank 0 to the last, within lim->ttft), every decode instance layout
 * and batch (TPOT within lim->tpot), the best of each instance size, and
 * for each pair of sizes the number of prefill instances that serves
 * most, the decode instances filling the GPUs left. *best, with
 * st->found false when no split meets the limits. SN_EINPUT for a
 * precision the accelerator lacks or fewer than 2 GPUs. */
int sn_infer_disagg_search(const struct sn_model_info *m,
                           const struct sn_train_system *sys, int gpus,
                           const struct sn_infer_work *w,
                           const struct sn_infer_limits *lim,
                           struct sn_infer_disagg *best,
                           struct sn_infer_disagg_stats *st,
                           struct sn_error *err);

/* sn_infer_disagg_search() under Poisson arrivals at `rate` requests/s
 * to the whole cluster (0: none): a split must serve the rate on both
 * sides, its TTFT is the prompt's wait for a prefill instance at the
 * `percentile` (sn_infer_prefill_wait) plus the prefill and the KV
 * transfer, and among the splits within the limits the one with the most
 * output tokens/s per GPU of both pools wins (the rate over the fewest
 * GPUs). */
int sn_infer_disagg_search_rate(const struct sn_model_info *m,
                                const struct sn_train_system *sys, int gpus,
                                const struct sn_infer_work *w,
                                const struct sn_infer_limits *lim, double rate,
                                double percentile, struct sn_infer_disagg *best,
                                struct sn_infer_disagg_stats *st,
                                struct sn_error *err);

/* Whether r meets lim; where it does not, *ttft_over and *tpot_over get
 * by how much (seconds, 0 when met). */
bool sn_infer_meets(const struct sn_infer_result *r,
                    const struct sn_infer_limits *lim, double *ttft_over,
                    double *tpot_over);

const char *sn_infer_part_name(enum sn_infer_part p);

/* ---- the runtime: host time, memory, load (infer-host.c, infer-mem.c,
 * infer-load.c) ---------------------------------------------------------- */

/* "trtllm", "vllm", "sglang"; sn_infer_runtime_parse() takes these and
 * "tensorrt-llm", case-insensitive: SN_EINPUT otherwise. */
const char *sn_infer_runtime_name(enum sn_infer_runtime r);
int sn_infer_runtime_parse(const char *s, enum sn_infer_runtime *r);
const char *sn_infer_cpu_name(enum sn_infer_cpu c);
int sn_infer_cpu_parse(const char *s, enum sn_infer_cpu *c);
/* The host CPU class of accelerator `accel` (a catalog name): Grace where
 * the built-in catalog joins it to its CPU by NVLink-C2C, else x86. */
enum sn_infer_cpu sn_infer_cpu_of(const char *accel);
/* Host seconds of one iteration of runtime r on cpu c with `requests`
 * active requests on the busiest rank: a cost per request (docs/model.md,
 * "The runtime"). */
double sn_infer_host_step(enum sn_infer_runtime r, enum sn_infer_cpu c,
                          double requests);

/* The runtime's memory per accelerator before the KV cache, bytes, for a
 * forward pass of `tokens` tokens per attention rank. */
double sn_infer_runtime_bytes(const struct sn_model_info *m,
                              const struct sn_infer_layout *l,
                              const struct sn_infer_work *w, double tokens);

/* Load on one replica: Poisson arrivals at `rate` requests/s (seeded),
 * or `concurrency` requests kept in flight (closed loop); one of them. */
struct sn_infer_load {
    double rate;
    int concurrency;
    int requests;      /* simulated; 0: a default from the load */
    uint64_t seed;     /* arrivals (0: a fixed default) */
    double percentile; /* the one limits are judged at, 1 to 99.9; 0:
                          SN_INFER_SLO_PERCENTILE */
};

/* The percentile a TTFT or TPOT limit is judged at under a load when none
 * is named: P90, the tail serving SLOs are commonly stated at (MLPerf
 * Inference's Server scenario judges its LLM latencies at P99; NVIDIA
 * Dynamo's planner and SGLang's bench_serving report P90 and P99). */
#define SN_INFER_SLO_PERCENTILE 90.0

/* Latency percentiles, seconds: P50, P90, P99. */
enum { SN_INFER_P50, SN_INFER_P90, SN_INFER_P99, SN_INFER_PCT_COUNT };

struct sn_infer_served {
    double ttft[SN_INFER_PCT_COUNT]; /* arrival to first token */
    double tpot[SN_INFER_PCT_COUNT]; /* first to last token / (osl - 1) */
    double output_tps_gpu;           /* output tokens/s per GPU served, in the
                                        steady window: from the arrival of the
                                        first quarter's last request to the last
                                        arrival (warm-up and drain left out) */
    double requests_per_s;           /* completed, in the same window */
    double mean_batch;               /* sequences in flight per step */
    double ttft_mean;                /* over every request */
    double at;                       /* the load's percentile, and */
    double ttft_at, tpot_at;         /* TTFT and TPOT at it */
    int requests;                    /* simulated and measured */
    int iterations;
    bool saturated; /* a rate above what the replica serves: under 95%
                       of it completed in the steady window */
};

/* Serve `load` on one replica of layout l: an iteration-level simulation
 * of the in-flight batcher (FIFO admission up to the largest batch,
 * chunked prefill in a token budget beside the decodes, under attention
 * DP every rank waiting for the busiest, each step max(GPU, host)). */
int sn_infer_serve(const struct sn_model_info *m,
                   const struct sn_train_system *sys,
                   const struct sn_infer_layout *l,
                   const struct sn_infer_work *w,
                   const struct sn_infer_load *load,
                   struct sn_infer_served *out, struct sn_error *err);
/* Errors: SN_EINPUT when the load is neither or both of rate and
 * concurrency, or the layout or work is refused (sn_infer_check); the
 * communication model's otherwise. */

/* Whether a served run meets lim at its percentile (ttft_at, tpot_at); a
 * saturated open load meets no limit (its queue grows without bound).
 * Where it does not, *ttft_over and *tpot_over get by how much (seconds,
 * 0 when met; NULL: not wanted). */
bool sn_infer_served_meets(const struct sn_infer_served *s,
                           const struct sn_infer_limits *lim, double *ttft_over,
                           double *tpot_over);

/* The load `cluster` (a rate or a concurrency over `gpus` GPUs) as one
 * replica of l sees it, spread evenly over the replicas; a concurrency
 * is also the replica's batch (l->batch), a rate lets the batch grow to
 * the largest (l->batch 0). */
void sn_infer_load_per_replica(const struct sn_infer_load *cluster, int gpus,
                               struct sn_infer_layout *l,
                               struct sn_infer_load *replica);

/* The search under a load: sn_infer_search() without its limits gives
 * the throughput-latency front; the distinct layouts on it, fastest per
 * GPU first, up to SN_INFER_SHORTLIST, are served under `cluster` (per
 * replica, sn_infer_load_per_replica) and the best is the one with the
 * most served output tokens/s per GPU that meets lim at the load's
 * percentile (within 1% of each other, the lower served TPOT). pts and
 * *n as sn_infer_search(); st->best indexes the front point of the
 * chosen layout; *best_layout, *best_load and *served are what was
 * served (untouched when none meets the limits, st->best -1). */
#define SN_INFER_SHORTLIST 6
struct sn_infer_served_search {
    size_t simulated; /* layouts served */
    struct sn_infer_layout layout;
    struct sn_infer_load load; /* per replica */
    struct sn_infer_served served;
    double seconds; /* the simulations' wall time */
};
int sn_infer_search_served(
    const struct sn_model_info *m, const struct sn_train_system *sys, int gpus,
    const struct sn_infer_work *w, const struct sn_infer_limits *lim,
    const struct sn_infer_load *cluster, struct sn_infer_point *pts, size_t cap,
    size_t *n, struct sn_infer_search_stats *st,
    struct sn_infer_served_search *best, struct sn_error *err);

/* The prefill pool's queue under Poisson arrivals at `rate` requests/s:
 * `instances` servers, each taking one prompt every `service_s` seconds
 * (its throughput at full batching), FIFO to the first free (M/D/c),
 * simulated over a fixed seeded stream of arrivals; the wait at the
 * `percentile`, seconds. INFINITY when rate x service_s >= instances
 * (the queue grows without bound). */
double sn_infer_prefill_wait(double rate, double service_s, int instances,
                             double percentile);

#endif
