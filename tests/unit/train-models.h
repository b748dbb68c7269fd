/* train-models.h: model dimensions the training tests use, written out
 * here so that the tests check the formulas against published figures
 * independently of the catalog. Sources beside each. */
#ifndef SN_TEST_TRAIN_MODELS_H
#define SN_TEST_TRAIN_MODELS_H

#include "sn/spec.h"

/* GPT-3 shapes with the 51,200 vocabulary and 2,048 context of Megatron's
 * papers (Narayanan et al. SC'21 Table 1; Korthikanti et al. 2022 Table 3) */
#define GPT(nm, l, h, a)                                                       \
    {                                                                          \
        .name = nm, .display = nm, .layers = l, .hidden = h, .heads = a,       \
        .kv_heads = a, .ffn = 4 * (h), .vocab = 51200, .seq = 2048,            \
        .tied_embeddings = true                                                \
    }

static const struct sn_model_info tm_gpt_1_7b = GPT("gpt-1.7b", 24, 2304, 24);
static const struct sn_model_info tm_gpt_18b = GPT("gpt-18.4b", 40, 6144, 48);
static const struct sn_model_info tm_gpt_22b = GPT("gpt-22b", 48, 6144, 64);
static const struct sn_model_info tm_gpt_39b = GPT("gpt-39.1b", 48, 8192, 64);
static const struct sn_model_info tm_gpt_175b = GPT("gpt-175b", 96, 12288, 96);
static const struct sn_model_info tm_gpt_530b =
    GPT("gpt-530b", 105, 20480, 128);
static const struct sn_model_info tm_gpt_1t = GPT("gpt-1t", 128, 25600, 160);

/* Llama 2 70B and Llama 3 8B/405B (Meta's model cards: GQA with 8 kv
 * heads, SwiGLU) */
static const struct sn_model_info tm_llama2_70b = {.name = "llama2-70b",
                                                   .layers = 80,
                                                   .hidden = 8192,
                                                   .heads = 64,
                                                   .kv_heads = 8,
                                                   .ffn = 28672,
                                                   .vocab = 32000,
                                                   .seq = 4096,
                                                   .gated_mlp = true};
static const struct sn_model_info tm_llama3_8b = {.name = "llama3-8b",
                                                  .layers = 32,
                                                  .hidden = 4096,
                                                  .heads = 32,
                                                  .kv_heads = 8,
                                                  .ffn = 14336,
                                                  .vocab = 128256,
                                                  .seq = 8192,
                                                  .gated_mlp = true};
static const struct sn_model_info tm_llama3_405b = {.name = "llama3-405b",
                                                    .layers = 126,
                                                    .hidden = 16384,
                                                    .heads = 128,
                                                    .kv_heads = 8,
                                                    .ffn = 53248,
                                                    .vocab = 128256,
                                                    .seq = 8192,
                                                    .gated_mlp = true};
/* Mixtral 8x7B (Jiang et al. 2024: 46.7B total, 12.9B active) */
static const struct sn_model_info tm_mixtral = {.name = "mixtral-8x7b",
                                                .layers = 32,
                                                .hidden = 4096,
                                                .heads = 32,
                                                .kv_heads = 8,
                                                .ffn = 14336,
                                                .vocab = 32000,
                                                .seq = 4096,
                                                .gated_mlp = true,
                                                .experts = 8,
                                                .topk = 2};

#endif
