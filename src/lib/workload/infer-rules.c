/* infer-rules.c: the layouts and precisions a serving runtime runs
 * (TensorRT-LLM, vLLM, SGLang), one rule set that the search
 * (infer-search.c) proposes from and that `sim infer --tp/--ep/--pp`
 * given by hand are held to; docs/model.md ("Layouts a runtime runs")
 * gives each rule with the runtime code it follows. */
#include <stdio.h>
#include <string.h>

#include "infer-int.h"

static bool has_moe(const struct sn_model_info *m)
{
    return m->experts > 1 && sn_model_moe_layers(m) > 0;
}

/* The inner width of the dense layers' MLP. */
static int dense_width(const struct sn_model_info *m)
{
    if (m->experts <= 1)
        return m->ffn;
    if (m->dense_ffn > 0)
        return m->dense_ffn;
    return m->ffn * ((m->topk > 0 ? m->topk : 1) + m->shared_experts);
}

int sn_infer_check_precision(const struct sn_train_system *sys,
                             const struct sn_infer_work *w,
                             struct sn_error *err)
{
    static const enum sn_dtype all[] = {SN_DTYPE_BF16, SN_DTYPE_FP16,
                                        SN_DTYPE_FP8, SN_DTYPE_FP4,
                                        SN_DTYPE_INT8};
    char has[64] = "";
    size_t n = 0;

    if (w->precision < 0 || w->precision >= SN_DTYPE_COUNT)
        return sn_error_set(err, SN_EINPUT, "unknown precision");
    if (!sys || sn_train_peak(sys, w->precision) > 0)
        return SN_OK;
    for (size_t i = 0; i < SN_ARRAY_LEN(all); i++)
        if (sn_train_peak(sys, all[i]) > 0)
            n += (size_t)snprintf(has + n, sizeof(has) - n, "%s%s",
                                  n ? ", " : "", sn_dtype_name(all[i]));
    return sn_error_set(err, SN_EINPUT, "%s has no %s tensor rate (it has %s)",
                        sys->accel ? sys->accel : "the accelerator",
                        sn_dtype_name(w->precision), has);
}

/* Attention tensor parallelism: heads, KV heads, dense widths. */
static int attention_tp(const struct sn_model_info *m,
                        const struct sn_infer_layout *l, struct sn_error *err)
{
    int tp = l->tp, kv = m->kv_heads > 0 ? m->kv_heads : m->heads;
    int shared = m->shared_ffn > 0 ? m->shared_ffn : m->ffn;
    bool mla = m->attention == SN_ATTN_MLA && m->kv_lora_rank > 0;

    if (m->heads % tp)
        return sn_error_set(err, SN_EINPUT,
                            "tp %d does not divide the %d attention heads "
                            "of %s%s",
                            tp, m->heads, m->name,
                            has_moe(m) ? " (or give --dp-attention)" : "");
    /* vLLM QKVParallelLinear: KV heads split when tp <= kv_heads (tp
     * divides them), else each is replicated over tp / kv_heads ranks
     * (tp a multiple of them); TensorRT-LLM's attention the same. MLA
     * has one latent, replicated on every rank. */
    if (!mla && (tp <= kv ? kv % tp : tp % kv))
        return sn_error_set(err, SN_EINPUT,
                            "tp %d is neither a divisor nor a multiple of "
                            "the %d KV heads of %s (runtimes split KV heads "
                            "over tp, or replicate each over tp / KV heads "
                            "GPUs)",
                            tp, kv, m->name);
    if (m->layers > sn_model_moe_layers(m) && dense_width(m) % tp)
        return sn_error_set(err, SN_EINPUT,
                            "tp %d does not divide the MLP width %d of %s", tp,
                            dense_width(m), m->name);
    if (has_moe(m) && m->shared_experts > 0 &&
        (shared * m->shared_experts) % tp)
        return sn_error_set(err, SN_EINPUT,
                            "tp %d does not divide the shared experts' width "
                            "%d of %s",
                            tp, shared * m->shared_experts, m->name);
    return SN_OK;
}

/* Experts: ep divides the experts and their redundant copies; expert TP
 * divides the experts' width. */
static int experts(const struct sn_model_info *m,
                   const struct sn_infer_layout *l, struct sn_error *err)
{
    int e = m->experts, etp = l->tp / l->ep;

    if (!has_moe(m)) {
        if (l->ep > 1)
            return sn_error_set(err, SN_EINPUT,
                                "ep %d needs a mixture-of-experts model: %s "
                                "is dense (no experts to spread)",
                                l->ep, m->name);
        if (l->redundant > 0)
            return sn_error_set(err, SN_EINPUT,
                                "%d redundant experts need a "
                                "mixture-of-experts model: %s is dense",
                                l->redundant, m->name);
        return SN_OK;
    }
    if (l->redundant > e)
        return sn_error_set(err, SN_EINPUT,
                            "%d redundant experts are more than one copy of "
                            "each of the %d experts of %s",
                            l->redundant, e, m->name);
    if (l->redundant > 0 && l->ep < 2)
        return sn_error_set(err, SN_EINPUT,
                            "redundant experts need ep above 1");
    if ((e + l->redundant) % l->ep) {
        int want = (e + l->ep - 1) / l->ep * l->ep - e;
        if (want <= e)
            return sn_error_set(err, SN_EINPUT,
                                "ep %d does not divide the %d experts of %s "
                                "and %d redundant copies (name %d: "
                                "--redundant-experts %d, as EPLB places "
                                "them)",
                                l->ep, e, m->name, l->redundant, want, want);
        return sn_error_set(err, SN_EINPUT,
                            "ep %d does not divide the %d experts of %s, "
                            "even with a redundant copy of each",
                            l->ep, e, m->name);
    }
    if (m->ffn % etp)
        return sn_error_set(err, SN_EINPUT,
                            "expert TP %d (tp / ep) does not divide the "
                            "experts' width %d",
                            etp, m->ffn);
    return SN_OK;
}

/* Whether a group of `size` contiguous ranks, groups from rank 0 up to
 * `gpus`, crosses a scale-up domain's edge. */
static bool straddles(int size, int gpus, int domain)
{
    for (int first = 0; domain > 0 && first + size <= gpus; first += size)
        if (first / domain != (first + size - 1) / domain)
            return true;
    return false;
}

bool sn__infer_straddles(const struct sn_infer_layout *l, int gpus, int domain)
{
    int group = l->dp_attention && l->ep > 0 ? l->tp / l->ep : l->tp;

    return domain > 0 && domain % group && straddles(group, gpus, domain);
}

/* The rules; `placement` adds the two a runtime would run but the search
 * keeps to: pp dividing the layers, TP within a domain. */
static int check(const struct sn_model_info *m,
                 const struct sn_train_system *sys,
                 const struct sn_infer_layout *l, const struct sn_infer_work *w,
                 int gpus, bool placement, struct sn_error *err)
{
    int domain = sys && sys->domain > 0 ? sys->domain : 0, rc;
    /* the group whose all-reduce runs every layer: attention TP, or
     * under data-parallel attention the experts' TP */
    int tp_group = l->dp_attention ? l->tp / (l->ep > 0 ? l->ep : 1) : l->tp;

    if (l->tp < 1 || l->ep < 1 || l->pp < 1 || l->batch < 0 || l->redundant < 0)
        return sn_error_set(err, SN_EINPUT, "tp, ep and pp must be at least 1");
    if (gpus < 1 || gpus % (l->tp * l->pp))
        return sn_error_set(err, SN_EINPUT,
                            "tp %d x pp %d does not divide %d GPUs", l->tp,
                            l->pp, gpus);
    if (l->tp % l->ep)
        return sn_error_set(err, SN_EINPUT,
                            "ep %d does not divide tp %d (experts are spread "
                            "over the tp GPUs of a stage)",
                            l->ep, l->tp);
    /* the runtimes split layers evenly over the stages; the model times
     * a stage as 1 / pp of them */
    if (l->pp > m->layers)
        return sn_error_set(err, SN_EINPUT, "pp %d is more than %d layers",
                            l->pp, m->layers);
    if (placement && m->layers % l->pp)
        return sn_error_set(err, SN_EINPUT,
                            "pp %d does not divide the %d layers of %s", l->pp,
                            m->layers, m->name);
    if (placement && sn__infer_straddles(l, gpus, domain))
        return sn_error_set(err, SN_EINPUT,
                            "%s %d does not fit whole in the scale-up "
                            "domains of %d (tensor parallelism all-reduces "
                            "every layer, within one domain)",
                            l->dp_attention ? "expert TP (tp / ep)" : "tp",
                            tp_group, domain);
    if (l->dp_attention) {
        if (l->tp < 2)
            return sn_error_set(err, SN_EINPUT,
                                "--dp-attention needs tp above 1 (it spreads "
                                "the batch over the tp GPUs)");
        /* TensorRT-LLM's enable_attention_dp and SGLang's
         * --enable-dp-attention run attention data-parallel beside the
         * experts; on a dense model it is tp replicas of tp 1 */
        if (!has_moe(m))
            return sn_error_set(err, SN_EINPUT,
                                "--dp-attention: %s has no MoE layers; "
                                "attention data-parallel over %d GPUs is %d "
                                "replicas of tp 1",
                                m->name, l->tp, l->tp);
    } else if ((rc = attention_tp(m, l, err))) {
        return rc;
    }
    if ((rc = experts(m, l, err)))
        return rc;
    if (w->isl < 1 || w->osl < 1)
        return sn_error_set(err, SN_EINPUT,
                            "input and output lengths must be at least 1");
    if (w->mtp < 0 || w->mtp > 8)
        return sn_error_set(err, SN_EINPUT,
                            "--mtp %d: expected 0 to 8 drafted tokens", w->mtp);
    if (w->mtp > 0 && m->mtp_layers < 1)
        return sn_error_set(err, SN_EINPUT,
                            "--mtp: %s has no multi-token-prediction "
                            "module (mtp_layers)",
                            m->name);
    if (w->kv != SN_DTYPE_BF16 && w->kv != SN_DTYPE_FP8)
        return sn_error_set(err, SN_EINPUT,
                            "KV cache precision %s: expected bf16 or fp8",
                            sn_dtype_name(w->kv));
    return sn_infer_check_precision(sys, w, err);
}

int sn_infer_check(const struct sn_model_info *m,
                   const struct sn_train_system *sys,
                   const struct sn_infer_layout *l,
                   const struct sn_infer_work *w, int gpus,
                   struct sn_error *err)
{
    return check(m, sys, l, w, gpus, true, err);
}

int sn__infer_check_timed(const struct sn_model_info *m,
                          const struct sn_train_system *sys,
                          const struct sn_infer_layout *l,
                          const struct sn_infer_work *w, int gpus,
                          struct sn_error *err)
{
    return check(m, sys, l, w, gpus, false, err);
}
