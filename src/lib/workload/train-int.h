/* train-int.h: what the training model's files share inside the library:
 * the dimensions of a model in the form the formulas use, and the
 * per-layer parameter and activation counts. Not part of the public API. */
#ifndef SN_TRAIN_INT_H
#define SN_TRAIN_INT_H

#if !defined(SN_MODULE_workload) && !defined(SN_TESTS)
#error "private to src/lib/workload (tests/layers/table)"
#endif

#include "sn/goodput.h"
#include "sn/kernels.h"
#include "sn/train.h"

/* A model's dimensions as doubles, with what the formulas derive from the
 * preset: head size, GPT-style extras, the dense/MoE layer split. */
struct sn__dims {
    double h, a, k, d; /* hidden, heads, kv heads, head size */
    double f;          /* MLP inner size (per expert for MoE) */
    double f_dense;    /* inner size of a dense layer in an MoE model */
    double mats;       /* MLP matrices: 3 gated (SwiGLU), 2 otherwise */
    double v, s_max;   /* vocabulary, trained context (positions) */
    double experts, topk, shared;
    double f_shared; /* inner size of one shared expert */
    /* multi-head latent attention (DeepSeek-V2/V3): the query and
     * key-value ranks (q_lora 0: queries projected from h directly), the
     * query/key head size (nope + rope) and the value head size; qk and v
     * are d for plain attention */
    bool mla;
    double q_lora, kv_lora, rope, qk, v_hd;
    int layers, moe_layers;
    const struct sn_model_info *model; /* its layer pattern: which layers
                                          are MoE (sn_model_layer_is_moe) */
    struct sn_model_parts parts;       /* its weight matrices as the catalog
                                          counts them; the training counts add
                                          norms and biases */
    int mtp;   /* multi-token prediction modules (a MoE layer and a
                  projection each, on the last stage) */
    bool gpt;  /* GPT-style: biases, LayerNorm with bias, learned
                  positions */
    bool tied; /* output layer shares the input embedding */
    bool moe;
};

void sn__dims_init(const struct sn_model_info *m, struct sn__dims *d);

/* Parameters of one layer, whole (not split): attention, MLP of a dense or
 * an MoE layer (all experts, shared experts and router), norms. */
double sn__attn_params(const struct sn__dims *d);
double sn__mlp_params(const struct sn__dims *d, double ffn);
double sn__moe_mlp_params(const struct sn__dims *d);
double sn__norm_params(const struct sn__dims *d);
/* Parameters of one multi-token prediction module besides its layer:
 * the 2h x h projection and its two norms (DeepSeek-V3 section 2.2). */
double sn__mtp_params(const struct sn__dims *d);
/* Forward FLOPs per token of the attention block: the projections and
 * the core over s_kv keys (full s x s as the 72-coefficient formula
 * counts it). */
void sn__attn_fwd_flops(const struct sn__dims *d, double s_kv, double *proj,
                        double *core);
/* Whether layer i (0-based) has an MoE MLP: the dense layers come first
 * (DeepSeek-V3 keeps its first three dense), then every moe_every-th
 * layer (Llama 4 Maverick alternates). */
bool sn__layer_is_moe(const struct sn__dims *d, int i);
/* Layers on pipeline stage `stage` of pp; *first is the first layer's
 * index. When the layers do not divide but the layers plus two do, the
 * first and last stages take one fewer (the embedding and the loss count
 * as a layer each: Llama 3, Megatron-Core); else the first layers % pp
 * stages take one more. */
int sn__stage_layers(int layers, int pp, int stage, int *first);
/* The same for the model d: with MTP modules (on the last stage) the
 * last stage takes fewer layers. */
int sn__stage_layers_d(const struct sn__dims *d, int pp, int stage, int *first);
/* Micro-batch model chunks stage r holds in flight under 1F1B (vpp = 1) or
 * the interleaved schedule (Megatron-LM's warm-up count plus one). */
double sn__inflight_chunks(int pp, int vpp, int m, int r);
/* The model and system a struct sn_train was made with. */
const struct sn_model_info *sn__train_model(const struct sn_train *t);
const struct sn_train_system *sn__train_system(const struct sn_train *t);
/* sn_train_predict for a layout the caller has already checked
 * (sn_train_check) and whose memory it has computed: `mem` is taken as
 * the result's memory. NULL: check and compute, as sn_train_predict. */
int sn__train_predict(struct sn_train *t, const struct sn_train_layout *l,
                      const struct sn_train_opts *o,
                      const struct sn_train_memory *mem,
                      struct sn_train_result *r, struct sn_error *err);
/* The same at the pessimistic end of what the model knows (the layout
 * search ranks by it): every GEMM at the slower of the calibrated rate
 * and the kernel table's, and where the generation or type has no table,
 * the measured table's shape curve transferred to the calibrated rate;
 * shapes below the measured range at their slowest neighbour's rate. */
int sn__train_predict_pessimistic(struct sn_train *t,
                                  const struct sn_train_layout *l,
                                  const struct sn_train_opts *o,
                                  const struct sn_train_memory *mem,
                                  struct sn_train_result *r,
                                  struct sn_error *err);
/* The sustained-load factor that turns a burst measurement of a kernel
 * (MAMF, a kernel table) into what a training step sustains (train.c). */
#define SN__SUSTAINED 0.86
/* Bytes per parameter for weights, gradients and optimizer state. */
void sn__state_bytes(enum sn_dtype dt, double *w, double *g, double *o);

/* ---- host time (train-host.c) ---- */

/* CPU seconds of one eager kernel launch on a Grace (true) or an x86
 * host: software.c's measured figures, shared with serving. */
double sn__host_launch_s(bool grace);

/* Kernel launches the host makes for one layer of one micro-batch; of a
 * MoE layer's forward, `routed` those of its routed part (permute to
 * combine), the first the host issues after its sync. */
struct sn__host_launches {
    double fwd, bwd, recompute, routed;
};
/* GPU seconds of one layer of one micro-batch: its forward, the rest
 * (backward, recompute and its exposed communication), and of a MoE
 * layer's forward the routed part. */
struct sn__host_seg {
    double fwd, rest, routed;
};
/* The launches of a dense (moe false) or MoE layer under layout l and
 * the software o: the kernels train-time.c times, one launch each, a
 * captured module one launch. */
void sn__train_host_launches(const struct sn__dims *d,
                             const struct sn_train_layout *l,
                             const struct sn_train_opts *o, bool moe,
                             struct sn__host_launches *h);
/* Seconds one micro-batch on a stage of `dense` and `moe` layers waits
 * for the host, at `launch` CPU seconds per launch (0: none): the sum over
 * the segments between host syncs of max(GPU, host) minus the GPU time,
 * a segment after a sync taken at the worse of its routed part and the
 * whole, plus one launch after each sync. */
double sn__train_host_exposed(const struct sn_train_opts *o, double launch,
                              int dense, int moe, const struct sn__host_seg *dg,
                              const struct sn__host_seg *mg,
                              const struct sn__host_launches *dh,
                              const struct sn__host_launches *mh);

/* ZeRO-3 exposure of one layer (train-time.c): gathers of ag seconds
 * before its forward and its backward and a reduce-scatter of rs after,
 * a share p of each gather prefetched under the compute windows fwin and
 * bwin, the rest on the critical path: *ef and *eb exposed seconds. */
void sn__train_zero3_exposed(double ag, double rs, double fwin, double bwin,
                             double p, double *ef, double *eb);

/* The training model's kernel-table lookup (kernels.c): the rule before
 * sn_kernels_rate, inverse distance weighted in log2(m, n, k), exact on a
 * row, the lowest of the four nearest rows with a side below every row's
 * (flagged extrapolated); returns 0 and SN_KFIT_NONE without a row of kind
 * and dtype. Training keeps it until the layout search's blind spots are
 * fixed (docs/model.md, "Why training keeps the previous lookup"). */
double sn__kernels_nearest(const struct sn_kernel_table *t,
                           enum sn_kernel_kind kind, enum sn_kernel_dtype dtype,
                           double m, double n, double k,
                           enum sn_kernel_fit *fit);

#endif
