/* catalog-models.c: the built-in model presets, each with the paper or
 * model card its dimensions come from. Assembled into the catalog by
 * catalog.c. */
#include "catalog-int.h"

/* ---- model presets ---------------------------------------------------- */

/* The GPT family Megatron-LM trained in Narayanan et al. SC'21, Table 1:
 * layers, hidden, heads, sequence 2048, vocabulary 51200 (ffn 4h, tied
 * embeddings). */
#define MEGATRON_SRC                                                           \
    "[V] Narayanan et al. SC'21 'Efficient Large-Scale Language Model "        \
    "Training on GPU Clusters Using Megatron-LM' Table 1 (layers, hidden, "    \
    "heads, seq 2048, vocab 51200; validation/training-public.csv); ffn = "    \
    "4 x hidden, tied embeddings"
#define MEGATRON(nm, key, disp, l, h, a, p)                                    \
    static const struct sn_model_info nm = {                                   \
        .name = "megatron-" key,                                               \
        .display = "GPT-" disp " (Megatron-LM)",                               \
        .layers = l,                                                           \
        .hidden = h,                                                           \
        .heads = a,                                                            \
        .kv_heads = a,                                                         \
        .ffn = 4 * (h),                                                        \
        .vocab = 51200,                                                        \
        .seq = 2048,                                                           \
        .params = (p)*1e9,                                                     \
        .active_params = (p)*1e9,                                              \
        .confidence = SN_CONF_VENDOR,                                          \
        .source = MEGATRON_SRC,                                                \
        .tied_embeddings = true,                                               \
    }

MEGATRON(m1p7, "1.7b", "1.7B", 24, 2304, 24, 1.7);
MEGATRON(m3p6, "3.6b", "3.6B", 30, 3072, 32, 3.6);
MEGATRON(m7p5, "7.5b", "7.5B", 36, 4096, 32, 7.5);
MEGATRON(m18, "18.4b", "18.4B", 40, 6144, 48, 18.4);
MEGATRON(m39, "39.1b", "39.1B", 48, 8192, 64, 39.1);
MEGATRON(m76, "76.1b", "76.1B", 60, 10240, 80, 76.1);
MEGATRON(m145, "145.6b", "145.6B", 80, 12288, 96, 145.6);
MEGATRON(m310, "310.1b", "310.1B", 96, 16384, 128, 310.1);
MEGATRON(m529, "529.6b", "529.6B", 105, 20480, 128, 529.6);
MEGATRON(m1t, "1t", "1T", 128, 25600, 160, 1008.0);

static const struct sn_model_info gpt3 = {
    .name = "gpt3-175b",
    .display = "GPT-3 175B",
    .layers = 96,
    .hidden = 12288,
    .heads = 96,
    .kv_heads = 96,
    .ffn = 49152,
    .vocab = 51200,
    .seq = 2048,
    .gated_mlp = false,
    .experts = 0,
    .topk = 0,
    .shared_experts = 0,
    .moe_layers = 0,
    .params = 175e9,
    .active_params = 175e9,
    .confidence = SN_CONF_VENDOR,
    .source =
        "[V] Brown et al. 2020 'Language Models are Few-Shot Learners' Table "
        "2.1 (96 layers, d_model 12288, 96 heads, context 2048); vocabulary "
        "padded to 51200 as in Megatron-LM runs (Korthikanti et al. 2022, "
        "validation/training-public.csv); ffn 4h; tied embeddings",
    .dense_ffn = 0,
    .tied_embeddings = true,
};

static const struct sn_model_info mtnlg = {
    .name = "mt-nlg-530b",
    .display = "MT-NLG 530B",
    .layers = 105,
    .hidden = 20480,
    .heads = 128,
    .kv_heads = 128,
    .ffn = 81920,
    .vocab = 51200,
    .seq = 2048,
    .gated_mlp = false,
    .experts = 0,
    .topk = 0,
    .shared_experts = 0,
    .moe_layers = 0,
    .params = 530e9,
    .active_params = 530e9,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] Smith et al. 2022 'Using DeepSpeed and Megatron to Train "
              "Megatron-Turing NLG 530B' (105 layers, hidden 20480, 128 heads, "
              "sequence 2048); vocab 51200 as in Korthikanti et al. 2022 Table "
              "5 (validation/training-public.csv); ffn 4h; tied embeddings",
    .dense_ffn = 0,
    .tied_embeddings = true,
};

#define LLAMA2_SRC                                                             \
    "[V] Touvron et al. 2023 'Llama 2' Table 1 and the released "              \
    "config.json (SwiGLU, vocab 32000, context 4096; 70B uses GQA with 8 "     \
    "KV heads); untied embeddings"
#define LLAMA3_SRC                                                             \
    "[V] 'The Llama 3 Herd of Models' (2024) Table 3 and the released "        \
    "config.json (SwiGLU, GQA with 8 KV heads, vocab 128256 incl. special "    \
    "tokens, pre-training sequence 8192); untied embeddings"

static const struct sn_model_info llama2_7b = {
    .name = "llama2-7b",
    .display = "Llama 2 7B",
    .layers = 32,
    .hidden = 4096,
    .heads = 32,
    .kv_heads = 32,
    .ffn = 11008,
    .vocab = 32000,
    .seq = 4096,
    .gated_mlp = true,
    .experts = 0,
    .topk = 0,
    .shared_experts = 0,
    .moe_layers = 0,
    .params = 6.74e9,
    .active_params = 6.74e9,
    .confidence = SN_CONF_VENDOR,
    .source = LLAMA2_SRC,
    .dense_ffn = 0,
    .tied_embeddings = false,
};

static const struct sn_model_info llama2_70b = {
    .name = "llama2-70b",
    .display = "Llama 2 70B",
    .layers = 80,
    .hidden = 8192,
    .heads = 64,
    .kv_heads = 8,
    .ffn = 28672,
    .vocab = 32000,
    .seq = 4096,
    .gated_mlp = true,
    .experts = 0,
    .topk = 0,
    .shared_experts = 0,
    .moe_layers = 0,
    .params = 69e9,
    .active_params = 69e9,
    .confidence = SN_CONF_VENDOR,
    .source = LLAMA2_SRC,
    .dense_ffn = 0,
    .tied_embeddings = false,
};

static const struct sn_model_info llama3_8b = {
    .name = "llama3-8b",
    .display = "Llama 3 8B",
    .layers = 32,
    .hidden = 4096,
    .heads = 32,
    .kv_heads = 8,
    .ffn = 14336,
    .vocab = 128256,
    .seq = 8192,
    .gated_mlp = true,
    .experts = 0,
    .topk = 0,
    .shared_experts = 0,
    .moe_layers = 0,
    .params = 8.03e9,
    .active_params = 8.03e9,
    .confidence = SN_CONF_VENDOR,
    .source = LLAMA3_SRC,
    .dense_ffn = 0,
    .tied_embeddings = false,
};

static const struct sn_model_info llama3_70b = {
    .name = "llama3-70b",
    .display = "Llama 3 70B",
    .layers = 80,
    .hidden = 8192,
    .heads = 64,
    .kv_heads = 8,
    .ffn = 28672,
    .vocab = 128256,
    .seq = 8192,
    .gated_mlp = true,
    .experts = 0,
    .topk = 0,
    .shared_experts = 0,
    .moe_layers = 0,
    .params = 70.6e9,
    .active_params = 70.6e9,
    .confidence = SN_CONF_VENDOR,
    .source = LLAMA3_SRC,
    .dense_ffn = 0,
    .tied_embeddings = false,
};

static const struct sn_model_info llama3_405b = {
    .name = "llama3-405b",
    .display = "Llama 3 405B",
    .layers = 126,
    .hidden = 16384,
    .heads = 128,
    .kv_heads = 8,
    .ffn = 53248,
    .vocab = 128256,
    .seq = 8192,
    .gated_mlp = true,
    .experts = 0,
    .topk = 0,
    .shared_experts = 0,
    .moe_layers = 0,
    .params = 405e9,
    .active_params = 405e9,
    .confidence = SN_CONF_VENDOR,
    .source = LLAMA3_SRC,
    .dense_ffn = 0,
    .tied_embeddings = false,
};

static const struct sn_model_info mixtral = {
    .name = "mixtral-8x7b",
    .display = "Mixtral 8x7B",
    .layers = 32,
    .hidden = 4096,
    .heads = 32,
    .kv_heads = 8,
    .ffn = 14336,
    .vocab = 32000,
    .seq = 32768,
    .gated_mlp = true,
    .experts = 8,
    .topk = 2,
    .shared_experts = 0,
    .moe_layers = 32,
    .params = 46.7e9,
    .active_params = 12.9e9,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] Jiang et al. 2024 'Mixtral of Experts' arXiv:2401.04088 "
              "Table 1: 32 layers, dim 4096, 32 heads, 8 KV heads, expert ffn "
              "14336, 8 experts, top-2, vocab 32000, context 32768; 46.7B "
              "total, 12.9B active parameters; untied embeddings",
    .dense_ffn = 0,
    .tied_embeddings = false,
};

static const struct sn_model_info deepseekv3 = {
    .name = "deepseek-v3",
    .display = "DeepSeek-V3 (MoE, MLA simplified)",
    .layers = 61,
    .hidden = 7168,
    .heads = 128,
    .kv_heads = 128,
    .ffn = 2048,
    .vocab = 129280,
    .seq = 4096,
    .gated_mlp = true,
    .experts = 256,
    .topk = 8,
    .shared_experts = 1,
    .moe_layers = 58,
    .params = 671e9,
    .active_params = 37e9,
    .confidence = SN_CONF_DERIVED,
    .source =
        "[V] DeepSeek-AI 'DeepSeek-V3 Technical Report' arXiv:2412.19437: 61 "
        "layers, hidden 7168, 128 heads, first 3 layers dense (ffn 18432), 58 "
        "MoE layers of 256 routed experts (ffn 2048) + 1 shared, top-8, vocab "
        "129280, pre-training sequence 4096, 671B total / 37B active; [D] "
        "multi-head latent attention is treated as plain multi-head attention "
        "of width hidden (4h^2 = 205M parameters per layer against MLA's "
        "~187M; KV-cache compression not modelled); the multi-token-prediction "
        "module is left out",
    .dense_ffn = 18432,
    .tied_embeddings = false,
};

const struct sn_model_info *const sn__catalog_models[] = {
    &m1p7,       &m3p6,        &m7p5,      &m18,        &m39,
    &m76,        &m145,        &m310,      &m529,       &m1t,
    &gpt3,       &mtnlg,       &llama2_7b, &llama2_70b, &llama3_8b,
    &llama3_70b, &llama3_405b, &mixtral,   &deepseekv3,
};
_Static_assert(SN_ARRAY_LEN(sn__catalog_models) == SN__CATALOG_NMODELS,
               "catalog-int.h counts the entries of sn__catalog_models");
