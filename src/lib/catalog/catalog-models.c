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
    "tokens, pre-training sequence 8192); untied embeddings. Llama 3.1 "       \
    "and 3.3 (the aliases) keep these layers and widths and extend the "       \
    "context to 128K by RoPE scaling (their config.json files)"

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
    .aliases = "llama3.1-8b",
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
    .aliases = "llama3.1-70b, llama3.3-70b",
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
    .aliases = "llama3.1-405b",
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

/* DeepSeek's multi-head latent attention with V3's dimensions (Kimi K2
 * keeps them with 64 heads). */
#define DEEPSEEK_MLA                                                           \
    .attention = SN_ATTN_MLA, .q_lora_rank = 1536, .kv_lora_rank = 512,        \
    .qk_nope_head_dim = 128, .qk_rope_head_dim = 64, .v_head_dim = 128

static const struct sn_model_info deepseekv3 = {
    .name = "deepseek-v3",
    .display = "DeepSeek-V3 (MoE, MLA)",
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
    .confidence = SN_CONF_VENDOR,
    .source =
        "[V] DeepSeek-AI 'DeepSeek-V3 Technical Report' arXiv:2412.19437 "
        "and the released inference/configs/config_671B.json: 61 layers, "
        "hidden 7168, 128 heads of multi-head latent attention (q_lora 1536, "
        "kv_lora 512, qk nope 128 + rope 64, v 128), first 3 layers dense "
        "(ffn 18432), 58 MoE layers of 256 routed experts (ffn 2048) + 1 "
        "shared, top-8, vocab 129280, pre-training sequence 4096, 1 MTP "
        "module; 671B total / 37B active without the MTP module's 11.5B "
        "(README_WEIGHTS.md); R1 has the same architecture",
    .dense_ffn = 18432,
    .tied_embeddings = false,
    .aliases = "deepseek-r1",
    DEEPSEEK_MLA,
    .dense_layers = 3,
    .mtp_layers = 1,
};

static const struct sn_model_info kimik2 = {
    .name = "kimi-k2",
    .display = "Kimi K2 (MoE, MLA)",
    .layers = 61,
    .hidden = 7168,
    .heads = 64,
    .kv_heads = 64,
    .ffn = 2048,
    .vocab = 163840,
    .seq = 4096,
    .gated_mlp = true,
    .experts = 384,
    .topk = 8,
    .shared_experts = 1,
    .moe_layers = 60,
    .params = 1.04e12,
    .active_params = 32.6e9,
    .confidence = SN_CONF_SECONDARY,
    .source = "[S] Moonshot AI Kimi K2 README 'Model Summary' (1T total, 32B "
              "active, 160K vocabulary, 128K context; 1.04T / 32.6B in the "
              "Kimi K2 report) and the config as THUDM/slime "
              "scripts/models/kimi-k2.sh writes it: 61 layers, hidden 7168, "
              "64 heads of MLA (1536 / 512 / 128 + 64 / 128), first layer "
              "dense (ffn 18432), 384 routed experts (ffn 2048) + 1 shared, "
              "top-8, vocab 163840; untied embeddings",
    .dense_ffn = 18432,
    .tied_embeddings = false,
    .aliases = "kimi-k2-instruct, kimi-k2-base",
    DEEPSEEK_MLA,
    .dense_layers = 1,
};

static const struct sn_model_info deepseekv2lite = {
    .name = "deepseek-v2-lite",
    .display = "DeepSeek-V2-Lite (MoE, MLA)",
    .layers = 27,
    .hidden = 2048,
    .heads = 16,
    .kv_heads = 16,
    .ffn = 1408,
    .vocab = 102400,
    .seq = 4096,
    .gated_mlp = true,
    .experts = 64,
    .topk = 6,
    .shared_experts = 2,
    .moe_layers = 26,
    .params = 15.7e9,
    .active_params = 2.4e9,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] DeepSeek-AI 'DeepSeek-V2' arXiv:2405.04434 appendix B "
              "(15.7B total, 2.4B activated) and NVIDIA NeMo "
              "DeepSeekV2LiteConfig: 27 layers, hidden 2048, 16 heads of MLA "
              "without query compression (kv_lora 512, qk nope 128 + rope 64, "
              "v 128), first layer dense (ffn 10944), 64 routed experts (ffn "
              "1408) + 2 shared, top-6, vocab 102400 [?]; untied embeddings",
    .dense_ffn = 10944,
    .tied_embeddings = false,
    .aliases = "deepseek-v2-lite-chat",
    .attention = SN_ATTN_MLA,
    .kv_lora_rank = 512,
    .qk_nope_head_dim = 128,
    .qk_rope_head_dim = 64,
    .v_head_dim = 128,
    .dense_layers = 1,
};

#define QWEN3_SRC                                                              \
    "[V] Qwen3 Technical Report arXiv:2505.09388 and the configs as "          \
    "THUDM/slime scripts/models/qwen3-*.sh write them: 128 experts, top-8, "   \
    "no shared expert, GQA with 4 KV heads of 128 (wider than "                \
    "hidden / heads), vocab 151936, 32K native context (131K with YaRN); "     \
    "untied embeddings"

static const struct sn_model_info qwen3_30b = {
    .name = "qwen3-30b-a3b",
    .display = "Qwen3-30B-A3B (MoE)",
    .layers = 48,
    .hidden = 2048,
    .heads = 32,
    .kv_heads = 4,
    .ffn = 768,
    .vocab = 151936,
    .seq = 4096,
    .gated_mlp = true,
    .experts = 128,
    .topk = 8,
    .params = 30.5e9,
    .active_params = 3.3e9,
    .confidence = SN_CONF_VENDOR,
    .source = QWEN3_SRC "; 48 layers, hidden 2048, 32 heads, expert ffn 768; "
                        "30.5B total / 3.3B active (model card)",
    .tied_embeddings = false,
    .aliases = "qwen3-30b",
    .head_dim = 128,
};

static const struct sn_model_info qwen3_235b = {
    .name = "qwen3-235b-a22b",
    .display = "Qwen3-235B-A22B (MoE)",
    .layers = 94,
    .hidden = 4096,
    .heads = 64,
    .kv_heads = 4,
    .ffn = 1536,
    .vocab = 151936,
    .seq = 4096,
    .gated_mlp = true,
    .experts = 128,
    .topk = 8,
    .params = 235e9,
    .active_params = 22e9,
    .confidence = SN_CONF_VENDOR,
    .source = QWEN3_SRC "; 94 layers, hidden 4096, 64 heads, expert ffn "
                        "1536; 235B total / 22B active (model card)",
    .tied_embeddings = false,
    .aliases = "qwen3-235b",
    .head_dim = 128,
};

/* GPT-OSS: openai/gpt-oss gpt_oss/torch/model.py ModelConfig and the
 * model card arXiv:2508.10925, whose active counts leave the input
 * embedding out (a lookup, no FLOPs). */
#define GPT_OSS_SRC                                                            \
    "[V] OpenAI gpt-oss model card arXiv:2508.10925 and "                      \
    "openai/gpt-oss gpt_oss/torch/model.py ModelConfig: hidden 2880, 64 "      \
    "heads of 64 with 8 KV heads, a sliding window of 128 tokens on every "    \
    "other layer (attention sinks), experts of ffn 2880 (SwiGLU), top-4, "     \
    "vocab 201088, 4096 pre-training context (131072 with YaRN); untied "      \
    "embeddings"

static const struct sn_model_info gptoss_20b = {
    .name = "gpt-oss-20b",
    .display = "GPT-OSS-20B (MoE)",
    .layers = 24,
    .hidden = 2880,
    .heads = 64,
    .kv_heads = 8,
    .ffn = 2880,
    .vocab = 201088,
    .seq = 4096,
    .gated_mlp = true,
    .experts = 32,
    .topk = 4,
    .params = 20.9e9,
    .active_params = 3.6e9,
    .confidence = SN_CONF_VENDOR,
    .source = GPT_OSS_SRC "; 24 layers, 32 experts; 20.9B total / 3.6B "
                          "active without the input embedding",
    .tied_embeddings = false,
    .aliases = "gpt-oss-20",
    .head_dim = 64,
    .window = 128,
    .window_every = 2,
};

static const struct sn_model_info gptoss_120b = {
    .name = "gpt-oss-120b",
    .display = "GPT-OSS-120B (MoE)",
    .layers = 36,
    .hidden = 2880,
    .heads = 64,
    .kv_heads = 8,
    .ffn = 2880,
    .vocab = 201088,
    .seq = 4096,
    .gated_mlp = true,
    .experts = 128,
    .topk = 4,
    .params = 116.8e9,
    .active_params = 5.13e9,
    .confidence = SN_CONF_VENDOR,
    .source = GPT_OSS_SRC "; 36 layers, 128 experts; 116.8B total / 5.13B "
                          "active without the input embedding",
    .tied_embeddings = false,
    .aliases = "gpt-oss-120",
    .head_dim = 64,
    .window = 128,
    .window_every = 2,
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
    .aliases = "mixtral-8x7b-v0.1",
};

static const struct sn_model_info mixtral_8x22b = {
    .name = "mixtral-8x22b",
    .display = "Mixtral 8x22B",
    .layers = 56,
    .hidden = 6144,
    .heads = 48,
    .kv_heads = 8,
    .ffn = 16384,
    .vocab = 32768,
    .seq = 65536,
    .gated_mlp = true,
    .experts = 8,
    .topk = 2,
    .params = 141e9,
    .active_params = 39e9,
    .confidence = SN_CONF_SECONDARY,
    .source = "[S] NVIDIA NeMo nemo/collections/llm/gpt/model/mixtral.py "
              "MixtralConfig8x22B: 56 layers, hidden 6144, 48 heads, 8 KV "
              "heads, expert ffn 16384, 8 experts, top-2; 141B total / 39B "
              "active (NeMo Mixtral docs); vocab 32768 and context 65536 from "
              "the released config [?]; untied embeddings",
    .tied_embeddings = false,
    .aliases = "mixtral-8x22b-v0.1",
};

/* Llama 4: NVIDIA NeMo nemo/collections/llm/gpt/model/llama.py
 * Llama4Config with Experts16Config / Experts128Config. */
#define LLAMA4_SRC                                                             \
    "[S] NVIDIA NeMo llama.py Llama4Config: 48 layers, hidden 5120, 40 "       \
    "heads of 128 with 8 KV heads, dense ffn 16384, experts of ffn 8192 + "    \
    "1 shared expert of 8192, top-1 (sigmoid), vocab 202048, chunked "         \
    "attention of 8192 with NoPE every 4th layer; untied embeddings; 17B "     \
    "active (Meta's launch)"

static const struct sn_model_info llama4_scout = {
    .name = "llama4-scout",
    .display = "Llama 4 Scout 17B-16E (MoE)",
    .layers = 48,
    .hidden = 5120,
    .heads = 40,
    .kv_heads = 8,
    .ffn = 8192,
    .vocab = 202048,
    .seq = 8192,
    .gated_mlp = true,
    .experts = 16,
    .topk = 1,
    .shared_experts = 1,
    .params = 109e9,
    .active_params = 17e9,
    .confidence = SN_CONF_SECONDARY,
    .source = LLAMA4_SRC "; Experts16Config: 16 experts on every layer; "
                         "109B total, 10M context",
    .dense_ffn = 16384,
    .tied_embeddings = false,
    .aliases = "llama-4-scout, llama4-scout-17b-16e",
    .head_dim = 128,
    .shared_ffn = 8192,
};

static const struct sn_model_info llama4_maverick = {
    .name = "llama4-maverick",
    .display = "Llama 4 Maverick 17B-128E (MoE)",
    .layers = 48,
    .hidden = 5120,
    .heads = 40,
    .kv_heads = 8,
    .ffn = 8192,
    .vocab = 202048,
    .seq = 8192,
    .gated_mlp = true,
    .experts = 128,
    .topk = 1,
    .shared_experts = 1,
    .moe_layers = 24,
    .params = 400e9,
    .active_params = 17e9,
    .confidence = SN_CONF_SECONDARY,
    .source = LLAMA4_SRC "; Experts128Config: 128 experts on every other "
                         "layer (moe_layer_freq [0,1]*24), dense layers "
                         "between; 400B total, 1M context",
    .dense_ffn = 16384,
    .tied_embeddings = false,
    .aliases = "llama-4-maverick, llama4-maverick-17b-128e",
    .head_dim = 128,
    .moe_every = 2,
    .shared_ffn = 8192,
};

const struct sn_model_info *const sn__catalog_models[] = {
    &m1p7,
    &m3p6,
    &m7p5,
    &m18,
    &m39,
    &m76,
    &m145,
    &m310,
    &m529,
    &m1t,
    &gpt3,
    &mtnlg,
    &llama2_7b,
    &llama2_70b,
    &llama3_8b,
    &llama3_70b,
    &llama3_405b,
    &mixtral,
    &mixtral_8x22b,
    &deepseekv3,
    &deepseekv2lite,
    &kimik2,
    &qwen3_30b,
    &qwen3_235b,
    &gptoss_20b,
    &gptoss_120b,
    &llama4_scout,
    &llama4_maverick,
};
_Static_assert(SN_ARRAY_LEN(sn__catalog_models) == SN__CATALOG_NMODELS,
               "catalog-int.h counts the entries of sn__catalog_models");
