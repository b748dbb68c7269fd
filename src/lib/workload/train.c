/* train.c: the transformer as the training model sees it: dimensions,
 * parameter counts, FLOPs per step (Narayanan et al. and Korthikanti et
 * al.'s formulas, generalised per GEMM to GQA, gated MLPs and MoE) and the
 * layout rules. Step time is in train-time.c, memory in memory.c. */
#include <math.h>
#include <string.h>

#include "train-int.h"

void sn__dims_init(const struct sn_model_info *m, struct sn__dims *d)
{
    memset(d, 0, sizeof(*d));
    d->h = m->hidden;
    d->a = m->heads;
    d->k = m->kv_heads > 0 ? m->kv_heads : m->heads;
    d->d = m->head_dim > 0 ? m->head_dim
           : m->heads > 0  ? (double)m->hidden / m->heads
                           : 0;
    d->f = m->ffn;
    d->mats = m->gated_mlp ? 3 : 2;
    d->v = m->vocab;
    d->s_max = m->seq;
    d->layers = m->layers;
    d->gpt = !m->gated_mlp;
    d->tied = m->tied_embeddings;
    d->moe = m->experts > 1;
    d->qk = d->v_hd = d->d;
    /* MLA: every head has its own no-position part and shares the rope
     * part (DeepSeek-V2 section 2.1.3); queries and keys are nope + rope
     * wide, values v_head_dim */
    d->mla = m->attention == SN_ATTN_MLA && m->kv_lora_rank > 0;
    if (d->mla) {
        d->q_lora = m->q_lora_rank;
        d->kv_lora = m->kv_lora_rank;
        d->rope = m->qk_rope_head_dim;
        d->qk = m->qk_nope_head_dim + m->qk_rope_head_dim;
        d->v_hd = m->v_head_dim > 0 ? m->v_head_dim : m->qk_nope_head_dim;
        if (!(d->qk > 0))
            d->qk = d->d;
        d->k = d->a; /* every head has its keys and values */
    }
    d->mtp = m->mtp_layers > 0 ? m->mtp_layers : 0;
    d->model = m;
    sn_model_parts(m, &d->parts);
    if (d->moe) {
        d->experts = m->experts;
        d->topk = m->topk > 0 ? m->topk : 1;
        d->shared = m->shared_experts;
        d->f_shared = m->shared_ffn > 0 ? m->shared_ffn : d->f;
        /* the layer pattern is the catalog's (sn_model_layer_is_moe) */
        d->moe_layers = sn_model_moe_layers(m);
        /* A dense layer of an MoE model: as given, else as wide as the
         * experts a token meets (DeepSeek-V3's 18432 = (8 routed + 1
         * shared) x 2048) */
        d->f_dense =
            m->dense_ffn > 0 ? m->dense_ffn : d->f * (d->topk + d->shared);
    } else {
        d->f_dense = d->f;
    }
}

double sn__attn_params(const struct sn__dims *d)
{
    /* the weight matrices as the catalog counts them (MLA: DeepSeek-V2
     * section 2.1, sn_model_parts), and what training holds besides:
     * MLA's two latent norms (q_lora 0: no query bottleneck, no norm),
     * GPT's QKV and projection biases */
    if (d->mla)
        return d->parts.attn + d->q_lora + d->kv_lora;
    if (d->gpt)
        return d->parts.attn + (d->a + 2 * d->k) * d->d + d->h;
    return d->parts.attn;
}

void sn__attn_fwd_flops(const struct sn__dims *d, double s_kv, double *proj,
                        double *core)
{
    if (d->mla) /* every weight once per token, the norms aside */
        *proj = 2 * (sn__attn_params(d) - d->q_lora - d->kv_lora);
    else
        *proj = 2 * d->h * (d->a + 2 * d->k) * d->d + 2 * d->a * d->d * d->h;
    /* QK^T over the query/key width, AV over the value width */
    *core = 2 * d->a * s_kv * (d->qk + d->v_hd);
}

double sn__mtp_params(const struct sn__dims *d)
{
    return 2 * d->h * d->h + 2 * d->h;
}

double sn__mlp_params(const struct sn__dims *d, double ffn)
{
    return d->h * ffn * d->mats + (d->gpt ? ffn + d->h : 0);
}

/* GPT's biases of the MLPs of one MoE layer: `routed` experts and the
 * shared ones. */
static double moe_biases(const struct sn__dims *d, double routed)
{
    return d->gpt ? routed * (d->f + d->h) + d->shared * (d->f_shared + d->h)
                  : 0;
}

double sn__moe_mlp_params(const struct sn__dims *d)
{
    return d->parts.moe + moe_biases(d, d->experts);
}

double sn__norm_params(const struct sn__dims *d)
{
    return d->gpt ? 4 * d->h : 2 * d->h; /* LayerNorm has a bias */
}

bool sn__layer_is_moe(const struct sn__dims *d, int i)
{
    return d->moe && sn_model_layer_is_moe(d->model, i);
}

double sn_train_params(const struct sn_model_info *m, double *active)
{
    struct sn__dims d;
    double attn, dense, moe_all, moe_active, emb, total, act;
    int nmoe;

    /* the catalog's count of the weight matrices (sn_model_parts) and
     * what training holds besides: norms, GPT's biases and learned
     * positions, the final norm */
    sn__dims_init(m, &d);
    nmoe = d.moe ? d.moe_layers : 0;
    attn = sn__attn_params(&d) + sn__norm_params(&d);
    dense = d.parts.dense + (d.gpt ? d.f_dense + d.h : 0);
    moe_all = d.moe ? sn__moe_mlp_params(&d) : 0;
    moe_active = d.moe ? d.parts.moe_active + moe_biases(&d, d.topk) : 0;
    /* Narayanan et al. SC'21 section 5.1: 12 l h^2 (1 + 13/(12 h) +
     * (V + s)/(12 l h)) for GPT (learned positions, tied output layer) */
    emb = d.parts.embeddings + (d.gpt ? d.s_max * d.h : 0) +
          (d.gpt ? 2 * d.h : d.h);
    total = d.layers * attn + (d.layers - nmoe) * dense + nmoe * moe_all + emb;
    act = d.layers * attn + (d.layers - nmoe) * dense + nmoe * moe_active + emb;
    /* multi-token prediction: a layer (MoE when the model has experts)
     * and a projection each, sharing the embedding and the output layer */
    total += d.mtp * (attn + (d.moe ? moe_all : dense) + sn__mtp_params(&d));
    act += d.mtp * (attn + (d.moe ? moe_active : dense) + sn__mtp_params(&d));
    if (active)
        *active = act;
    return total;
}

/* Forward FLOPs per token of one layer: the GEMMs (2 per multiply-add) and
 * the attention core counted over the full s x s, as the 72-coefficient
 * formula does (Korthikanti et al. appendix A). */
static double layer_fwd_flops(const struct sn__dims *d, bool moe, double s)
{
    double attn, core, mlp;

    sn__attn_fwd_flops(d, s, &attn, &core);
    if (moe)
        mlp = d->topk * 2 * d->h * d->f * d->mats +
              d->shared * 2 * d->h * d->f_shared * d->mats +
              2 * d->h * d->experts;
    else
        mlp = 2 * d->h * d->f_dense * d->mats;
    return attn + core + mlp;
}

void sn_train_flops(const struct sn_model_info *m,
                    const struct sn_train_layout *l, struct sn_train_flops *f)
{
    struct sn__dims d;
    double s = l->seq, tokens = (double)l->gbs * l->seq, fwd, core, extra;
    int nmoe;

    sn__dims_init(m, &d);
    nmoe = d.moe ? d.moe_layers : 0;
    fwd = (d.layers - nmoe) * layer_fwd_flops(&d, false, s) +
          nmoe * layer_fwd_flops(&d, true, s);
    /* each MTP module: its layer, the 2h -> h projection and the shared
     * output layer again (DeepSeek-V3 section 2.2) */
    fwd +=
        d.mtp * (layer_fwd_flops(&d, d.moe, s) + 4 * d.h * d.h + 2 * d.h * d.v);
    {
        double proj;
        sn__attn_fwd_flops(&d, s, &proj, &core);
        core *= d.layers + d.mtp;
    }
    /* forward + backward (twice the forward) + the logits GEMM:
     * 72 B s l h^2 (1 + s/(6h) + V/(12 l h)) for GPT-3 */
    f->tokens = tokens;
    f->model = 3 * (fwd + 2 * d.h * d.v) * tokens;
    /* recompute runs the forward again: the whole layer stack (96 B s l
     * h^2 (1 + s/(6h) + V/(16 l h)), Narayanan et al. eq. 3) or the
     * attention core */
    switch (l->recompute) {
    case SN_RECOMPUTE_FULL:
        extra = fwd;
        break;
    case SN_RECOMPUTE_SELECTIVE:
        extra = core;
        break;
    default:
        extra = 0;
        break;
    }
    f->hw = f->model + extra * tokens;
}

static int divides(long long a, long long b)
{
    return a > 0 && b % a == 0;
}

int sn_train_check(const struct sn_model_info *m,
                   const struct sn_train_layout *l, int accels,
                   struct sn_error *err)
{
    long long prod;
    int experts = m->experts > 1 ? m->experts : 0;
    int kv = m->kv_heads > 0 ? m->kv_heads : m->heads;

    if (l->tp < 1 || l->pp < 1 || l->dp < 1 || l->cp < 1 || l->ep < 1 ||
        l->vpp < 1 || l->mbs < 1 || l->gbs < 1 || l->seq < 1)
        return sn_error_set(err, SN_EINPUT, "layout sizes must be at least 1");
    if (l->zero < 0 || l->zero > 3)
        return sn_error_set(err, SN_EINPUT, "zero stage %d (expected 0..3)",
                            l->zero);
    if (l->recompute < 0 || l->recompute >= SN_RECOMPUTE_COUNT ||
        l->dtype < 0 || l->dtype >= SN_DTYPE_COUNT)
        return sn_error_set(err, SN_EINPUT, "unknown recompute or dtype");
    if (l->dtype == SN_DTYPE_INT8)
        return sn_error_set(err, SN_EINPUT,
                            "int8 is a serving precision (W8A8); training "
                            "takes bf16, fp16, fp8 or fp4");
    prod = (long long)l->tp * l->cp * l->pp * l->dp;
    if (accels > 0 && prod != accels)
        return sn_error_set(err, SN_EINPUT,
                            "tp x cp x pp x dp = %d x %d x %d x %d = %lld, "
                            "not the %d accelerators",
                            l->tp, l->cp, l->pp, l->dp, prod, accels);
    if (!divides(l->tp, m->heads) || !divides(l->tp, kv))
        return sn_error_set(err, SN_EINPUT,
                            "tp %d does not divide the %d heads and %d kv "
                            "heads",
                            l->tp, m->heads, kv);
    if (!divides(l->tp, m->hidden) || !divides(l->tp, m->ffn))
        return sn_error_set(err, SN_EINPUT,
                            "tp %d does not divide hidden %d and ffn %d", l->tp,
                            m->hidden, m->ffn);
    if (l->pp > m->layers)
        return sn_error_set(err, SN_EINPUT, "pp %d is more than the %d layers",
                            l->pp, m->layers);
    /* uneven stages are allowed (Llama 3 runs 126 layers on 16 stages):
     * every model chunk needs a layer, or the embedding or the loss when
     * those count as one (the first and last chunks of Llama 3's 128) */
    if (l->vpp > 1 && (l->pp < 2 || (m->layers < l->pp * l->vpp &&
                                     (m->layers + 2) % (l->pp * l->vpp) != 0)))
        return sn_error_set(err, SN_EINPUT,
                            "interleaving needs pp > 1 and at least pp x "
                            "vpp = %d layers (the model has %d)",
                            l->pp * l->vpp, m->layers);
    if (l->gbs % ((long long)l->mbs * l->dp))
        return sn_error_set(err, SN_EINPUT,
                            "global batch %d is not a multiple of "
                            "micro-batch x dp = %d x %d",
                            l->gbs, l->mbs, l->dp);
    if (l->vpp > 1 && (l->gbs / (l->mbs * l->dp)) % l->pp)
        return sn_error_set(err, SN_EINPUT,
                            "the interleaved schedule needs the %d "
                            "micro-batches to be a multiple of pp %d",
                            l->gbs / (l->mbs * l->dp), l->pp);
    if (l->seq % l->cp)
        return sn_error_set(err, SN_EINPUT,
                            "cp %d does not divide the sequence %d", l->cp,
                            l->seq);
    if (l->etp < 0)
        return sn_error_set(err, SN_EINPUT, "etp %d (expected 0 or more)",
                            l->etp);
    /* Megatron-Core's MoE parallel folding: the experts take the tp x cp x
     * dp ranks of a stage as etp x ep x edp */
    if (l->ep > 1 && !experts)
        return sn_error_set(err, SN_EINPUT,
                            "ep %d needs a mixture-of-experts model: %s is "
                            "dense (no experts to spread)",
                            l->ep, m->name);
    if (l->etp > 0 && !experts)
        return sn_error_set(err, SN_EINPUT,
                            "etp %d needs a mixture-of-experts model: %s is "
                            "dense (no experts to split)",
                            l->etp, m->name);
    if (l->ep > 1 && experts % l->ep)
        return sn_error_set(err, SN_EINPUT, "ep %d must divide the %d experts",
                            l->ep, experts);
    if (experts) {
        long long etp = l->etp > 0 ? l->etp : l->tp;
        long long ranks = (long long)l->tp * l->cp * l->dp;
        if (ranks % (etp * l->ep) || m->ffn % etp)
            return sn_error_set(err, SN_EINPUT,
                                "ep x etp = %d x %lld must divide tp x cp x "
                                "dp = %lld, and etp the expert ffn %d",
                                l->ep, etp, ranks, m->ffn);
    }
    if (l->sp && l->tp < 2)
        return sn_error_set(err, SN_EINPUT,
                            "sequence parallelism needs tp > 1");
    /* ZeRO-2 under a pipeline reduce-scatters the gradients of every
     * micro-batch into FP32 shards, as Llama 3's FSDP does (Dubey et al.
     * 2024, section 3.3.2: optimizer states and gradients sharded, the
     * weights kept whole after the forward, FP32 gradient accumulation
     * and reduce-scatter); ZeRO-3 would gather the weights again for
     * every micro-batch, which no pipelined recipe does */
    if (l->zero == 3 && l->pp > 1)
        return sn_error_set(err, SN_EINPUT,
                            "zero stage 3 does not combine with pipeline "
                            "parallelism (the weights would be gathered "
                            "again for every micro-batch)");
    return SN_OK;
}

void sn_train_opts_default(struct sn_train_opts *o)
{
    memset(o, 0, sizeof(*o));
    sn_train_software_apply(sn_train_software_best(), o);
}

void sn_train_opts_legacy(struct sn_train_opts *o)
{
    const struct sn_train_software *s = NULL;

    memset(o, 0, sizeof(*o));
    (void)sn_train_software_find("megatron-lm-2022", &s, NULL);
    sn_train_software_apply(s, o);
    o->dropout = true;
}

/* Calibration by accelerator generation. The GEMM rate is the maximum
 * achievable matmul FLOPS (MAMF) a brute-force search of GEMM shapes
 * reaches with PyTorch (S. Bekman, "Machine Learning Engineering",
 * compute/accelerator/README.md, MAMF table: A100 SXM 271.2 of 312 TFLOPS,
 * H100 SXM 794.5 of 989 (H200 the same), GH200 828.6, B200 1745 of 2250,
 * B300 1769, GB200 1822 of 2500, MI300X 668.4 of 1307, MI325X 784.9,
 * MI355X 1565 of 2500, Gaudi 3 1243 of 1835; FP8: H100 1402.6 of 1979,
 * H200 1453.4, B200 3432.5 of 4500, GB200 3615.6 of 5000) times one
 * sustained-load factor, SUSTAINED. MAMF is measured in short bursts at
 * boost clock; a training step holds the accelerator at its power limit
 * for minutes, and its GEMMs have the shapes the model gives, not the best
 * ones. SUSTAINED is the one constant calibrated on measured steps: the
 * A100 rows of Narayanan et al. Table 1 and Korthikanti et al. Table 5
 * (docs/model.md), and it is applied unchanged to every generation. The
 * other constants are shared: kernel_time, the fixed cost per kernel that
 * Calculon's A100 GEMM efficiency table implies (0.6 of peak at 1 GFLOP,
 * 0.9 at 16: 2-6 us); mem_eff, the fraction of HBM bandwidth
 * LayerNorm/softmax/elementwise kernels sustain (0.8); overlap_tax
 * between Calculon's processor_usage for NVLink (0.15) and InfiniBand
 * (0.02).
 *
 * On Hopper the sustained factor was checked rather than fitted: on an
 * H200 (the H100's processor at the same 700 W limit) cuBLAS BF16 GEMMs
 * held 685-689 TFLOP/s over 90 s on two machines, at 1455-1485 MHz and
 * 692 W: 0.86-0.87 of the H100's MAMF. The GEMMs of the Megatron-LM
 * README H100 layouts ran at 619-710 (docs/benchmarks.md, "Hopper kernel
 * rates"). The GEMM rate is not why Hopper runs were over-predicted.
 *
 * Fused attention, forward and backward, as fractions of the large-GEMM
 * rate. Generic, from FlashAttention-2 on A100 (Dao 2023: up to 73% of
 * peak forward and 63% backward, against ~87% for a large GEMM): 0.8 and
 * 0.72. Hopper runs cuDNN's fused attention (Transformer Engine prefers
 * it to FlashAttention on sm90 "for performance reasons"), measured on
 * the same H200 at training shapes (causal, head size 128, 4096 tokens,
 * one sequence, 8 to 16 heads per GPU, two machines): forward 349-466
 * TFLOP/s and backward 221-386, 0.47-0.67 and 0.32-0.55 of the GEMMs
 * timed beside them; the means, 0.57 and 0.44, are used. The
 * FlashAttention-3
 * paper (Shah et al. 2024) likewise finds FlashAttention-2 at 35% of
 * H100 peak against its 73% on A100: attention kernels did not keep pace
 * with Hopper's tensor cores as GEMMs did. 0 below: the generic value. */
#define SUSTAINED SN__SUSTAINED

/* FP4 GEMMs reach a smaller share of their peak than FP8 ones: cuBLASLt
 * ran an 8192^3 MXFP4 GEMM on a B200 at 5,239 TFLOP/s of its 9,000 dense
 * (cublasTest 13.3, the baseline of deepseek-ai/DeepGEMM pull request
 * 348, 2026), 0.58 against FP8's 0.76 MAMF share; vLLM's CUTLASS NVFP4
 * GEMM at Llama-3.1-8B shapes (N 6144, K 4096, M 16384) held 3,904
 * (vllm-project/vllm pull request 20646). The B200's share is used for
 * every Blackwell part [E for GB200, B300, GB300]. */
#define FP4_B200 (5239.0 / 9000)

static const struct {
    const char *match; /* substring of the lowercase accelerator name */
    double gemm_eff, gemm_eff_fp8, gemm_eff_fp4;
    double attn, attn_bwd;
} calib_table[] = {
    /* GB200's, no MAMF */
    {"gb300", 1822.0 / 2500, 3615.6 / 5000, FP4_B200, 0, 0},
    {"gb200", 1822.0 / 2500, 3615.6 / 5000, FP4_B200, 0, 0},
    {"b300", 1769.0 / 2250, 3353.3 / 4500, FP4_B200, 0, 0},
    {"b200", 1745.0 / 2250, 3432.5 / 4500, FP4_B200, 0, 0},
    {"gh200", 828.6 / 989.4, 1535.0 / 1978.9, 0, 0.57, 0.44},
    {"h200", 794.5 / 989.4, 1453.4 / 1978.9, 0, 0.57, 0.44},
    {"h800", 794.5 / 989.4, 1402.6 / 1978.9, 0, 0.57, 0.44},
    {"h100", 794.5 / 989.4, 1402.6 / 1978.9, 0, 0.57, 0.44},
    {"a100", 271.2 / 312, 0, 0, 0, 0},
    {"mi355", 1565.0 / 2500, 0, 0, 0, 0},
    {"mi325", 784.9 / 1307.4, 0, 0, 0, 0},
    {"mi300", 668.4 / 1307.4, 0, 0, 0, 0},
    {"gaudi", 1243.0 / 1835, 1289.5 / 1835, 0, 0, 0},
};

const char *sn_train_calib_for(const char *accel, struct sn_train_calib *c)
{
    char low[64];
    size_t i;
    const char *used = "generic";

    memset(c, 0, sizeof(*c));
    /* generic: the median of the MAMF table above */
    c->gemm_eff = 0.77 * SUSTAINED;
    c->gemm_eff_fp8 = 0.73 * SUSTAINED;
    c->gemm_eff_fp4 = 0;
    c->mem_eff = 0.8;
    c->kernel_time = 5e-6;
    c->attn_eff = 0.8;
    c->attn_bwd_eff = 0.72;
    c->overlap_tax = 0.05;
    c->reserved = 2e9;
    for (i = 0; accel && accel[i] && i + 1 < sizeof(low); i++)
        low[i] = (char)((accel[i] >= 'A' && accel[i] <= 'Z') ? accel[i] + 32
                                                             : accel[i]);
    low[i] = '\0';
    for (i = 0; accel && i < SN_ARRAY_LEN(calib_table); i++) {
        if (strstr(low, calib_table[i].match)) {
            c->gemm_eff = calib_table[i].gemm_eff * SUSTAINED;
            if (calib_table[i].gemm_eff_fp8 > 0)
                c->gemm_eff_fp8 = calib_table[i].gemm_eff_fp8 * SUSTAINED;
            if (calib_table[i].gemm_eff_fp4 > 0)
                c->gemm_eff_fp4 = calib_table[i].gemm_eff_fp4 * SUSTAINED;
            if (calib_table[i].attn > 0)
                c->attn_eff = calib_table[i].attn;
            if (calib_table[i].attn_bwd > 0)
                c->attn_bwd_eff = calib_table[i].attn_bwd;
            used = calib_table[i].match;
            break;
        }
    }
    /* without a measurement of FP4 GEMMs on the part, they are taken to
     * reach the share of their peak FP8 GEMMs reach [E] */
    if (!(c->gemm_eff_fp4 > 0))
        c->gemm_eff_fp4 = c->gemm_eff_fp8;
    return used;
}

const char *sn_recompute_name(enum sn_recompute r)
{
    static const char *const names[] = {"none", "selective", "full"};
    return r >= 0 && r < SN_RECOMPUTE_COUNT ? names[r] : "?";
}

static const char *const dtype_names[SN_DTYPE_COUNT] = {"bf16", "fp16", "fp8",
                                                        "fp4", "int8"};

const char *sn_dtype_name(enum sn_dtype d)
{
    return d >= 0 && d < SN_DTYPE_COUNT ? dtype_names[d] : "?";
}

int sn_dtype_parse(const char *text, enum sn_dtype *out, struct sn_error *err)
{
    /* names are names: FP8 and fp8 are one; W8A8 is how serving
     * runtimes (vLLM, MindIE) name INT8 weights and activations */
    for (int d = 0; d < SN_DTYPE_COUNT; d++)
        if (sn_strcaseeq(text, dtype_names[d])) {
            *out = (enum sn_dtype)d;
            return SN_OK;
        }
    if (sn_strcaseeq(text, "w8a8")) {
        *out = SN_DTYPE_INT8;
        return SN_OK;
    }
    return sn_error_set(err, SN_EINPUT,
                        "unknown value '%s' (expected bf16, fp16, fp8, fp4 "
                        "or int8)",
                        text);
}

double sn_train_peak(const struct sn_train_system *s, enum sn_dtype d)
{
    switch (d) {
    case SN_DTYPE_FP8:
        return s->fp8_flops;
    case SN_DTYPE_FP4:
        return s->fp4_flops;
    case SN_DTYPE_INT8:
        return s->int8_ops;
    default:
        return s->flops;
    }
}

const char *sn_train_part_name(enum sn_train_part p)
{
    static const char *const names[] = {
        "forward", "backward", "recompute", "tp",        "cp",   "ep",
        "pp",      "bubble",   "dp",        "optimizer", "host",
    };
    return p >= 0 && p < SN_PART_COUNT ? names[p] : "?";
}

const char *sn_train_limit_name(enum sn_train_limit l)
{
    static const char *const names[] = {"compute", "memory", "bubble",
                                        "communication"};
    return l >= 0 && l < SN_LIMIT_COUNT ? names[l] : "?";
}

int sn_train_default_gbs(int accels, int seq)
{
    /* 4M tokens: Llama 3's first stage (Dubey et al. 2024, section
     * 3.4.1) and NeMo's pre-training recipes (512 x 8192) */
    double want = 4194304.0 / (seq > 0 ? seq : 2048);
    long long odd = accels > 0 ? accels : 1, best, p;

    while (odd % 2 == 0)
        odd /= 2;
    /* the power of two that brings odd x 2^b nearest want, in ratio */
    best = odd;
    for (p = odd; p < 4 * want && p < (1LL << 40); p *= 2)
        if (fabs(log((double)p / want)) < fabs(log((double)best / want)))
            best = p;
    if (odd > 2 * want) /* an odd count larger than the batch: itself */
        best = odd;
    return best > 0x3fffffff ? 0x3fffffff : (int)best;
}
