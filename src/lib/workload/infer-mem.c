/* infer-mem.c: the memory a serving runtime takes on each accelerator
 * before the KV cache gets the rest: the activation workspace of one
 * forward pass, the MoE workspace, NCCL's buffers, and the CUDA context,
 * cuBLAS workspaces and CUDA-graph pools. What attention data-parallelism
 * replicates (attention and dense weights whole on every GPU) is in the
 * weights (infer.c stage_weights). docs/model.md ("Memory as the runtime
 * spends it") has the sources. */
#include <math.h>

#include "sn/infer.h"

#define MIB (1024.0 * 1024.0)
#define GIB (1024.0 * MIB)

/* AIConfigurator's memory model (sdk/backends/trtllm_backend.py
 * _get_memory_usage, measured on TensorRT-LLM): activations
 * 2 x tokens x attention width x c, c by attention TP 1, 2, 4, 8+:
 * dense 10, 6, 5, 5 (its default and GPT families; LLaMA 11, 6.5, 5, 5),
 * MoE 22, 13, 10, 10; at least 70 MiB; times 1 + the MTP drafts [V]. */
static double act_factor(bool moe, int tp)
{
    static const double dense[] = {10, 6, 5, 5}, sparse[] = {22, 13, 10, 10};
    int i = tp >= 8 ? 3 : tp >= 4 ? 2 : tp >= 2 ? 1 : 0;

    return moe ? sparse[i] : dense[i];
}

/* AIConfigurator's system files, `misc` (GB200's as its unit tests load
 * it, and the same figures as its static estimator's constants, there
 * called hardware-generation-agnostic): nccl_mem by
 * TP size 1: 0, 2: 358,612,992 B (342 MiB), 4 and 8: 411,041,792 B
 * (392 MiB); other_mem 3,758,096,384 B (3.5 GiB: CUDA context, cuBLAS
 * and the like, CUDA-graph pools with them) [V]. Its SGLang backend adds
 * 20% to other_mem [V]. */
static double nccl_bytes(int ranks)
{
    return ranks >= 4 ? 411041792.0 : ranks >= 2 ? 358612992.0 : 0;
}
#define OTHER_BYTES 3758096384.0
#define SGLANG_OTHER 1.2

double sn_infer_runtime_bytes(const struct sn_model_info *m,
                              const struct sn_infer_layout *l,
                              const struct sn_infer_work *w, double tokens)
{
    bool moe = m->experts > 1;
    int attn_tp = l->dp_attention ? 1 : l->tp;
    double width = m->heads > 0 && m->head_dim > 0
                       ? (double)m->heads * m->head_dim
                       : (double)m->hidden;
    double act, other = OTHER_BYTES;

    act = 2 * tokens * width * act_factor(moe, attn_tp);
    /* the MoE workspace of fine-grained FP8 block scales (AIConfigurator
     * counts it for the DeepSeek family, MLA models here): a 4-byte scale
     * per 128 values of every routed copy of the tokens the rank's
     * experts see, tokens x width x ranks x E x topk / ep / 128 x 4 */
    if (moe && m->attention == SN_ATTN_MLA)
        act += tokens * width * (l->dp_attention ? l->tp : 1) * m->experts *
               (m->topk > 0 ? m->topk : 1) / l->ep / 128 * 4;
    act = fmax(act, 70 * MIB);
    act *= 1 + w->mtp;
    if (w->runtime == SN_INFER_SGLANG)
        other *= SGLANG_OTHER;
    return act + nccl_bytes(l->tp) + other;
}
