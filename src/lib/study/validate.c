/* validate.c: published training runs against the model. Each CSV row
 * (the layout of validation/training-public.csv) becomes a model, a
 * layout and a built-in system; its step is predicted and compared in the
 * row's own metric. What a row leaves out is assumed and said so; what
 * cannot be predicted is listed with the reason. docs/model.md
 * ("Training: validation") states every rule. */
#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate-int.h"

enum col {
    C_SOURCE,
    C_MODEL,
    C_PARAMS,
    C_LAYERS,
    C_HIDDEN,
    C_HEADS,
    C_SEQ,
    C_VOCAB,
    C_GPU,
    C_NGPUS,
    C_TP,
    C_PP,
    C_DP,
    C_OTHER,
    C_MBS,
    C_GBS,
    C_RECOMPUTE,
    C_METRIC,
    C_VALUE,
    C_NOTES,
    C_CP, /* the MoE file's columns (moe-training-public.csv) */
    C_VPP,
    C_EP,
    C_ETP,
    C_PRECISION,
    C_COUNT
};

static const char *const col_names[C_COUNT] = {
    "source",
    "model",
    "params_B",
    "layers",
    "hidden",
    "heads",
    "seq",
    "vocab",
    "gpu",
    "n_gpus",
    "tp",
    "pp",
    "dp",
    "other_parallel",
    "micro_batch",
    "global_batch",
    "recompute",
    "measured_metric",
    "measured_value",
    "notes",
    "cp",
    "vpp",
    "ep",
    "etp",
    "precision",
};

/* tp, pp and dp may be left out: the layout is then the search's */
static const bool col_required[C_COUNT] = {
    [C_MODEL] = true,  [C_GPU] = true,   [C_NGPUS] = true,
    [C_METRIC] = true, [C_VALUE] = true,
};

enum metric {
    M_NONE,
    M_TIME_S,
    M_TIME_MS,
    M_HW_TFLOPS,
    M_MODEL_TFLOPS,
    M_MFU,
    M_HFU,
    M_TOKENS,
    M_TOKENS_GPU,
    M_SAMPLES,
    M_GPU_HOURS_T,
};

void sn__validate_lower(const char *s, char *out, size_t size)
{
    size_t i;

    for (i = 0; s && s[i] && i + 1 < size; i++)
        out[i] = (char)tolower((unsigned char)s[i]);
    out[i] = '\0';
}

/* Letters and digits only, lowercase: "Llama 3 405B" -> "llama3405b". */
static void squash(const char *s, char *out, size_t size)
{
    size_t k = 0;

    for (size_t i = 0; s && s[i] && k + 1 < size; i++)
        if (isalnum((unsigned char)s[i]))
            out[k++] = (char)tolower((unsigned char)s[i]);
    out[k] = '\0';
}

static bool blank(const char *s)
{
    while (s && isspace((unsigned char)*s))
        s++;
    return !s || !*s;
}

/* A whole number from a cell; false when blank or not a number. */
static bool cell_int(const char *s, long long min, long long max, int *out)
{
    long long v;

    if (blank(s) || sn_parse_long(s, min, max, &v, NULL))
        return false;
    *out = (int)v;
    return true;
}

/* The number after a tag in free text: "EP64", "EP=64", "CP 16", "v=3". */
int sn__validate_tagged(const char *text, const char *tag)
{
    size_t n = strlen(tag);

    for (const char *p = text; (p = strstr(p, tag)); p++) {
        const char *q = p + n;
        if (p > text && isalpha((unsigned char)p[-1]))
            continue;
        while (*q == ' ' || *q == '=' || *q == ':')
            q++;
        if (isdigit((unsigned char)*q))
            return atoi(q);
    }
    return 0;
}

static enum metric parse_metric(const char *m)
{
    char s[96];

    sn__validate_lower(m, s, sizeof(s));
    if (strstr(s, "time_to_train") || strstr(s, "days"))
        return M_NONE; /* convergence, not a step */
    if ((strstr(s, "iteration_time") || strstr(s, "step_time") ||
         strstr(s, "time_per_iteration") || strstr(s, "seconds_per_step")) &&
        strstr(s, "ms"))
        return M_TIME_MS;
    if (strstr(s, "iteration_time") || strstr(s, "step_time") ||
        strstr(s, "time_per_iteration") || strstr(s, "seconds_per_step"))
        return M_TIME_S;
    if (strstr(s, "tflop") &&
        (strstr(s, "recompute") || strstr(s, "hardware") || strstr(s, "hfu")))
        return M_HW_TFLOPS;
    if (strstr(s, "tflop"))
        return M_MODEL_TFLOPS;
    if (!strcmp(s, "mfu") || !strcmp(s, "mfu_pct") || !strcmp(s, "mfu_percent"))
        return M_MFU;
    if (!strcmp(s, "hfu") || !strcmp(s, "hfu_pct") || !strcmp(s, "hfu_percent"))
        return M_HFU;
    if (strstr(s, "gpu_hours") && strstr(s, "trillion"))
        return M_GPU_HOURS_T;
    if ((strstr(s, "tokens_per_s") || strstr(s, "tokens/s") ||
         strstr(s, "tokens_per_sec")) &&
        (strstr(s, "gpu") || strstr(s, "device") || strstr(s, "accel")))
        return M_TOKENS_GPU;
    if (strstr(s, "tokens_per_s") || strstr(s, "tokens/s") ||
        strstr(s, "tokens_per_sec"))
        return M_TOKENS;
    if (strstr(s, "samples_per_s") || strstr(s, "sequences_per_s"))
        return M_SAMPLES;
    return M_NONE;
}

static double metric_value(enum metric m, const struct sn_train_result *r,
                           const struct sn_train_layout *l, int gpus)
{
    switch (m) {
    case M_TIME_S:
        return r->step_time;
    case M_TIME_MS:
        return r->step_time * 1e3;
    case M_HW_TFLOPS:
        return r->flops.hw / (gpus * r->step_time) / 1e12;
    case M_MODEL_TFLOPS:
        return r->flops.model / (gpus * r->step_time) / 1e12;
    case M_MFU:
        return r->mfu;
    case M_HFU:
        return r->hfu;
    case M_TOKENS:
        return r->tokens_per_s;
    case M_TOKENS_GPU:
        return r->tokens_per_s / gpus;
    case M_SAMPLES:
        return l->gbs / r->step_time;
    case M_GPU_HOURS_T:
        return 1e12 / (r->tokens_per_s / gpus) / 3600;
    default:
        return NAN;
    }
}

/* Accelerators whose software is of the FlashAttention / Transformer
 * Engine era (Hopper and later); A100 rows ran 2021-22 Megatron-LM. */
static bool modern_accel(const char *accel)
{
    static const char *const old[] = {"a100", "v100", NULL};

    for (size_t i = 0; old[i]; i++)
        if (strstr(accel, old[i]))
            return false;
    return true;
}

static bool moe_name(const char *squashed)
{
    static const char *const hints[] = {"moe",  "mixtral", "deepseek", "gptoss",
                                        "x7b",  "x22b",    "qwen3",    "dbrx",
                                        "grok", NULL};

    for (size_t i = 0; hints[i]; i++)
        if (strstr(squashed, hints[i]))
            return true;
    return false;
}

struct env_slot *sn__validate_env(struct owned *own, char *text)
{
    struct env_slot *e;
    struct sn_error err;
    uint64_t key = sn_hash64(text, strlen(text), 0);
    uint32_t at = hget(&own->by_text, key);

    /* by the text's hash: one comparison a row, not one per system seen
     * (a CSV of many GPU counts makes many systems); a hash shared by two
     * texts falls back to the scan */
    if (at != SN_NONE && !strcmp(own->envs[at]->text, text)) {
        free(text);
        return own->envs[at];
    }
    for (size_t i = 0; at != SN_NONE && i < own->nenvs; i++) {
        if (!strcmp(own->envs[i]->text, text)) {
            free(text);
            return own->envs[i];
        }
    }
    if (at == SN_NONE)
        hput(&own->by_text, key, (uint32_t)own->nenvs);
    SN_GROW(own->envs, own->cap, own->nenvs + 1);
    e = sn_xcalloc(1, sizeof(*e));
    own->envs[own->nenvs++] = e;
    e->text = text;
    e->rc = sn_spec_parse("<system>", text, strlen(text), &e->spec, &err);
    if (!e->rc) {
        e->rc = sn_train_env_init(&e->env, &e->spec, &err);
        if (e->rc)
            sn_spec_release(&e->spec);
    }
    if (e->rc)
        snprintf(e->msg, sizeof(e->msg), "%.250s", err.msg);
    return e;
}

/* The model of a row: its dimensions, and a catalog preset's structure
 * when the names match (GQA, gated MLP, MoE, vocabulary). */
static bool row_model(char **f, struct sn_model_info *m, char *why,
                      size_t why_size, char *assumed, size_t as)
{
    const struct sn_catalog *cat = sn_catalog_builtin();
    const struct sn_model_info *preset = NULL;
    char want[96], have[96];
    int layers = 0, hidden = 0, heads = 0, seq = 0, vocab = 0;

    squash(f[C_MODEL], want, sizeof(want));
    preset = sn_catalog_model(cat, f[C_MODEL]); /* a name or an alias */
    for (size_t i = 0; i < cat->nmodels && !preset; i++) {
        squash(cat->models[i]->name, have, sizeof(have));
        if (!strcmp(have, want))
            preset = cat->models[i];
        squash(cat->models[i]->display, have, sizeof(have));
        if (!preset && !strcmp(have, want))
            preset = cat->models[i];
    }
    cell_int(f[C_LAYERS], 1, 100000, &layers);
    cell_int(f[C_HIDDEN], 1, 1000000, &hidden);
    cell_int(f[C_HEADS], 1, 100000, &heads);
    cell_int(f[C_SEQ], 1, 10000000, &seq);
    cell_int(f[C_VOCAB], 1, 10000000, &vocab);
    if (preset && (!layers || layers == preset->layers) &&
        (!hidden || hidden == preset->hidden) &&
        (!heads || heads == preset->heads)) {
        *m = *preset;
        if (seq)
            m->seq = seq;
        if (vocab)
            m->vocab = vocab;
        return true;
    }
    if (!layers || !hidden || !heads || !seq) {
        snprintf(why, why_size,
                 "model '%s' is not in the catalog and the "
                 "row lacks layers, hidden, heads or seq: add them, or the "
                 "model ('supernode catalog list' shows the names)",
                 f[C_MODEL]);
        return false;
    }
    if (moe_name(want) || sn__validate_tagged(f[C_OTHER], "EP") > 1 ||
        sn__validate_tagged(f[C_OTHER], "ep") > 1) {
        snprintf(why, why_size,
                 "mixture-of-experts model '%s' is not in "
                 "the catalog: its experts and top-k are "
                 "unknown",
                 f[C_MODEL]);
        return false;
    }
    memset(m, 0, sizeof(*m));
    m->name = f[C_MODEL];
    m->display = f[C_MODEL];
    m->layers = layers;
    m->hidden = hidden;
    m->heads = heads;
    m->kv_heads = heads;
    m->seq = seq;
    if (hidden % heads) {
        snprintf(why, why_size, "hidden %d is not a multiple of heads %d",
                 hidden, heads);
        return false;
    }
    if (strstr(want, "llama")) {
        /* LLaMA's SwiGLU width: 2/3 of 4h rounded up to 256 (Touvron et
         * al. 2023), untied embeddings, 32000 tokens */
        m->gated_mlp = true;
        m->ffn = 256 * (int)ceil(8.0 * hidden / 3 / 256);
        m->vocab = vocab ? vocab : 32000;
        snprintf(assumed, as, "SwiGLU ffn %d%s", m->ffn,
                 vocab ? "" : ", vocab 32000");
    } else {
        /* GPT-style: ffn 4h, tied embeddings; GPT-2's vocabulary padded
         * to 51200 as Megatron-LM does */
        m->ffn = 4 * hidden;
        m->vocab = vocab ? vocab : 51200;
        m->tied_embeddings = true;
        if (!vocab)
            snprintf(assumed, as, "vocab 51200");
    }
    return true;
}

void sn__validate_append(char *s, size_t size, const char *what)
{
    size_t n = strlen(s);

    if (n + 3 < size)
        snprintf(s + n, size - n, "%s%s", n ? ", " : "", what);
}

/* Reads the row's measured value, GPU count and metric; false (with the
 * reason) when one is not usable. */
static bool row_measure(char **f, struct sn_validate_row *row, int *gpus,
                        enum metric *metric)
{
    if (sn_parse_double(f[C_VALUE], &row->measured, NULL) ||
        !(row->measured > 0)) {
        snprintf(row->reason, sizeof(row->reason),
                 "measured value '%.40s' is not a positive number", f[C_VALUE]);
        return false;
    }
    if (!cell_int(f[C_NGPUS], 1, 10000000, gpus)) {
        snprintf(row->reason, sizeof(row->reason),
                 "n_gpus '%.30s' is not a "
                 "number",
                 f[C_NGPUS]);
        return false;
    }
    row->gpus = *gpus;
    *metric = parse_metric(f[C_METRIC]);
    if (*metric == M_NONE) {
        snprintf(row->reason, sizeof(row->reason),
                 "metric '%.60s' is not predicted (iteration time, TFLOP/s "
                 "per GPU, MFU, HFU, tokens/s or GPU-hours per trillion "
                 "tokens; time to train needs the steps to converge)",
                 f[C_METRIC]);
        return false;
    }
    return true;
}

/* The ZeRO stage other_parallel names (-1: none named); sharded DP with
 * a pipeline becomes the distributed optimizer, said in assumed. */
static int row_zero(const char *other, int pp, struct sn_validate_row *row)
{
    int zero = -1;

    if (strstr(other, "zero-3") || strstr(other, "fsdp"))
        zero = 3;
    else if (strstr(other, "zero-2"))
        zero = 2;
    else if (strstr(other, "zero-1") || strstr(other, "distributed opt"))
        zero = 1;
    /* sharded data parallelism with a pipeline keeps the weights whole
     * across the micro-batches (Llama 3's FSDP does not reshard after
     * the forward): the distributed optimizer is the closest layout */
    if (zero >= 2 && pp > 1) {
        zero = 1;
        sn__validate_append(row->assumed, sizeof(row->assumed),
                            "sharded DP with PP as the distributed optimizer");
    }
    return zero;
}

/* A degree from its own column (the MoE file's cp, vpp, ep), else from
 * other_parallel's tag, else 1; false when the column holds no number. */
static bool degree(const char *cell, const char *other, const char *tag,
                   int *out)
{
    int v = 0;

    if (!blank(cell)) {
        if (!cell_int(cell, 1, 100000, &v))
            return false;
    } else {
        v = sn__validate_tagged(other, tag);
        if (!v && !strcmp(tag, "vpp"))
            v = sn__validate_tagged(other, "v=");
    }
    *out = v > 1 ? v : 1;
    return true;
}

/* dp from the row's GPUs when its cell is blank: n_gpus / (tp pp cp), as
 * Megatron-Core derives it (EP folds inside it). False (with the reason)
 * when it does not divide. */
static bool derive_dp(int gpus, struct sn_train_layout *l,
                      struct sn_validate_row *row)
{
    long long model = (long long)l->tp * l->pp * l->cp;
    char buf[64];

    if (gpus % model) {
        snprintf(row->reason, sizeof(row->reason),
                 "dp is missing and the %d GPUs are not a multiple of tp x "
                 "pp x cp = %lld",
                 gpus, model);
        return false;
    }
    l->dp = (int)(gpus / model);
    snprintf(buf, sizeof(buf), "dp %d from n_gpus", l->dp);
    sn__validate_append(row->assumed, sizeof(row->assumed), buf);
    return true;
}

/* Fills the parallel degrees of l from the tp, pp, dp, cp, vpp and ep
 * cells and other_parallel; false (with the reason) when they do not make
 * the row's GPUs. A blank dp is derived, a blank cp is 1, a blank etp is
 * tp (Megatron-Core's default). */
static bool row_parallel(char **f, const char *other, int gpus,
                         struct sn_train_layout *l, struct sn_validate_row *row)
{
    bool dp_given;

    if (!cell_int(f[C_TP], 1, 100000, &l->tp) ||
        !cell_int(f[C_PP], 1, 100000, &l->pp)) {
        snprintf(row->reason, sizeof(row->reason), "tp or pp is missing");
        return false;
    }
    /* context and expert parallelism, interleaving: their columns, else
     * other_parallel as the sources write them */
    if (!degree(f[C_CP], other, "cp", &l->cp) ||
        !degree(f[C_EP], other, "ep", &l->ep) ||
        !degree(f[C_VPP], other, "vpp", &l->vpp) ||
        (!blank(f[C_ETP]) && !cell_int(f[C_ETP], 1, 100000, &row->etp))) {
        snprintf(row->reason, sizeof(row->reason),
                 "cp, vpp, ep or etp is not a whole number");
        return false;
    }
    dp_given = !blank(f[C_DP]);
    if (dp_given && !cell_int(f[C_DP], 1, 10000000, &l->dp)) {
        snprintf(row->reason, sizeof(row->reason), "dp '%.30s' is not a number",
                 f[C_DP]);
        return false;
    }
    if (!dp_given && !derive_dp(gpus, l, row))
        return false;
    if ((long long)l->tp * l->pp * l->dp * l->cp != gpus &&
        (long long)l->tp * l->pp * l->dp == gpus && l->cp > 1) {
        /* the source counted CP inside DP */
        assert(l->cp > 1);
        l->dp /= l->cp;
    }
    if ((long long)l->tp * l->pp * l->dp * l->cp != gpus) {
        snprintf(row->reason, sizeof(row->reason),
                 "tp x pp x dp x cp = %d x %d x %d x %d is not the %d GPUs",
                 l->tp, l->pp, l->dp, l->cp, gpus);
        return false;
    }
    l->etp = row->etp; /* 0 (blank): Megatron-Core's default, tp; a
                          recipe's 1 (row_etp) */
    return true;
}

/* The precision column (the MoE file's): bf16, fp16, fp8, and MXFP8 as
 * FP8 and NVFP4/MXFP4 as FP4 (the layout's dtypes; the block-scaled
 * formats' GEMM rates are the catalog's FP8 and FP4 ones). Blank: what
 * row_stack took from the notes. */
static void row_precision(const char *cell, const struct env_slot *e,
                          struct sn_train_layout *l,
                          struct sn_validate_row *row)
{
    char p[32];

    sn__validate_lower(cell, p, sizeof(p));
    if (!strcmp(p, "bf16"))
        l->dtype = SN_DTYPE_BF16;
    else if (!strcmp(p, "fp16"))
        l->dtype = SN_DTYPE_FP16;
    else if (strstr(p, "fp8") && e->env.sys.fp8_flops > 0)
        l->dtype = SN_DTYPE_FP8;
    else if (strstr(p, "fp4") && e->env.sys.fp4_flops > 0)
        l->dtype = SN_DTYPE_FP4;
    else if (!blank(p)) {
        char buf[64];
        snprintf(buf, sizeof(buf), "precision %.20s as %s", p,
                 sn_dtype_name(l->dtype));
        sn__validate_append(row->assumed, sizeof(row->assumed), buf);
        return;
    }
    if (!strcmp(p, "mxfp8") || !strcmp(p, "nvfp4") || !strcmp(p, "mxfp4")) {
        char buf[64];
        snprintf(buf, sizeof(buf), "%s at the %s rate", p,
                 sn_dtype_name(l->dtype));
        sn__validate_append(row->assumed, sizeof(row->assumed), buf);
    }
}

/* The built-in system for the row's gpu column; NULL (with the reason)
 * when there is none or its spec does not load. */
static struct env_slot *row_system(struct owned *own, char **f, int gpus,
                                   struct sn_validate_row *row)
{
    struct env_slot *e;
    char *spec;

    spec = sn_validate_system_spec(f[C_GPU], f[C_NOTES], gpus, row->system,
                                   sizeof(row->system));
    if (!spec) {
        snprintf(row->reason, sizeof(row->reason),
                 "no built-in system for gpu '%.60s' with %d GPUs: add the "
                 "accelerator to the catalog and its server to validate's "
                 "systems",
                 f[C_GPU], gpus);
        row->unknown = true;
        return NULL;
    }
    e = sn__validate_env(own, spec);
    if (e->rc) {
        snprintf(row->reason, sizeof(row->reason), "system %.40s: %.200s",
                 row->system, e->msg);
        return NULL;
    }
    return e;
}

/* The software stack's options, and the layout's sp, zero and dtype,
 * from the era of the accelerator and what the row says. */
static const struct sn_train_software *
row_stack(const struct env_slot *e, const char *source, const char *other,
          const char *notes, int zero, struct sn_train_layout *l,
          struct sn_train_opts *o, struct sn_validate_row *row)
{
    bool modern, sp_given = strstr(other, "sequence parallel") != NULL;
    const struct sn_train_software *sw;
    char buf[64];

    /* the software stack: Hopper-era runs use fused attention, the
     * distributed optimizer, sequence parallelism and overlapped
     * collectives (Megatron-Core, NeMo); A100-era Megatron-LM neither */
    modern = modern_accel(e->spec.accel->name) ||
             strstr(notes, "megatron-core") || strstr(notes, "nemo") ||
             strstr(notes, "flash");
    if (modern)
        sn_train_opts_default(o);
    else
        sn_train_opts_legacy(o);
    /* the stack the row names (other_parallel, the notes, the source),
     * as a profile of software.c; else the era's */
    sw = sn_train_software_guess(other);
    if (!sw)
        sw = sn_train_software_guess(notes);
    if (!sw)
        sw = sn_train_software_guess(source);
    if (sw)
        sn_train_software_apply(sw, o);
    snprintf(buf, sizeof(buf), "software %s", o->software);
    sn__validate_append(row->assumed, sizeof(row->assumed), buf);
    if (strstr(other, "overlap") || strstr(notes, "overlap")) {
        o->overlap_grad_reduce = true;
        o->overlap_param_gather = true;
        o->overlap_tp = true;
    }
    l->sp = l->tp > 1 && (sp_given || (modern && !strstr(other, "without sp")));
    l->zero = zero >= 0 ? zero : (modern && l->dp * l->cp > 1 ? 1 : 0);
    if (l->zero && l->dp * l->cp == 1)
        l->zero = 0;
    /* precision as the notes say; else FP16 mixed precision for the
     * A100-era stacks (Megatron-LM and DeepSpeed's default then), BF16 */
    l->dtype = modern ? SN_DTYPE_BF16 : SN_DTYPE_FP16;
    if (strstr(notes, "fp8") && e->env.sys.fp8_flops > 0)
        l->dtype = SN_DTYPE_FP8;
    else if (strstr(notes, "bf16"))
        l->dtype = SN_DTYPE_BF16;
    else if (strstr(notes, "fp16"))
        l->dtype = SN_DTYPE_FP16;
    return sw;
}

/* A blank etp in a published recipe is the recipe's expert TP, 1
 * (Megatron-Bridge and NeMo set expert_tensor_parallel_size = 1), not
 * Megatron-LM's command-line default of tp; said where it differs. */
static void row_etp(const struct sn_train_software *sw,
                    const struct sn_model_info *m, struct sn_train_layout *l,
                    struct sn_validate_row *row)
{
    char buf[64];

    if (row->etp || !sw || sw->etp_default <= 0 || m->experts <= 1)
        return;
    l->etp = sw->etp_default;
    if (l->tp != l->etp) {
        snprintf(buf, sizeof(buf), "etp %d (%s recipe)", l->etp, sw->name);
        sn__validate_append(row->assumed, sizeof(row->assumed), buf);
    }
}

/* The global and micro-batch of l from the row (micro-batch 1 when
 * blank, said in assumed); false (with the reason) when unusable. */
static bool row_batch(char **f, const char *other, struct sn_train_layout *l,
                      struct sn_validate_row *row)
{
    /* a blank global batch with a per-rank one ("local batch 8", as
     * torchtitan's figures give it): that many sequences per DP rank */
    int local = blank(f[C_GBS]) ? sn__validate_tagged(other, "local batch") : 0;

    if (local > 0 && (long long)local * l->dp * l->cp <= 100000000) {
        char buf[64];
        l->gbs = local * l->dp;
        snprintf(buf, sizeof(buf), "global batch %d x dp from local batch",
                 local);
        sn__validate_append(row->assumed, sizeof(row->assumed), buf);
    } else if (!cell_int(f[C_GBS], 1, 100000000, &l->gbs)) {
        snprintf(row->reason, sizeof(row->reason),
                 "global batch is "
                 "missing");
        return false;
    }
    if (!cell_int(f[C_MBS], 1, 1000000, &l->mbs)) {
        l->mbs = 1;
        sn__validate_append(row->assumed, sizeof(row->assumed),
                            "micro-batch 1");
    }
    /* row_parallel made tp x pp x dp x cp the row's GPUs */
    assert(l->mbs >= 1 && l->dp >= 1);
    if (l->gbs % (l->mbs * l->dp)) {
        snprintf(row->reason, sizeof(row->reason),
                 "global batch %d is not a multiple of micro-batch %d x dp "
                 "%d",
                 l->gbs, l->mbs, l->dp);
        return false;
    }
    return true;
}

/* The recompute mode of l from the row; false when the row does not
 * say (selective then, pending the fit). */
static bool row_recompute(char **f, struct sn_train_layout *l)
{
    char rc_text[64];

    sn__validate_lower(f[C_RECOMPUTE], rc_text, sizeof(rc_text));
    if (!strncmp(rc_text, "full", 4))
        l->recompute = SN_RECOMPUTE_FULL;
    else if (!strncmp(rc_text, "selective", 9))
        l->recompute = SN_RECOMPUTE_SELECTIVE;
    else if (!strncmp(rc_text, "none", 4) || !strncmp(rc_text, "no", 2))
        l->recompute = SN_RECOMPUTE_NONE;
    else {
        l->recompute = SN_RECOMPUTE_SELECTIVE;
        return false;
    }
    return true;
}

/* The row's prediction in its metric from row->layout and row->result,
 * and its error. */
static void row_fill(enum metric metric, int gpus, struct sn_validate_row *row)
{
    row->predicted = metric_value(metric, &row->result, &row->layout, gpus);
    /* MFU and HFU written in percent */
    if ((metric == M_MFU || metric == M_HFU) && row->measured > 1)
        row->predicted *= 100;
    row->error_pct = (row->predicted - row->measured) / row->measured * 100;
    row->lower_better =
        metric == M_TIME_S || metric == M_TIME_MS || metric == M_GPU_HOURS_T;
    row->predicted_ok = true;
}

/* Predicts the row's step on system e and fills the prediction and its
 * error in the row's metric; a recompute the row did not give becomes
 * full when selective does not fit. The reason is set on failure. */
static void row_predict(const struct sn_model_info *m, struct env_slot *e,
                        struct sn_train_layout *l,
                        const struct sn_train_opts *o, bool rc_given,
                        enum metric metric, int gpus,
                        struct sn_validate_row *row)
{
    struct sn_train *t = NULL;
    struct sn_error err;
    char buf[64];

    if (sn_train_new(m, &e->env.sys, &t, &err)) {
        snprintf(row->reason, sizeof(row->reason), "%.250s", err.msg);
        return;
    }
    if (sn_train_check(m, l, gpus, &err) ||
        sn_train_predict(t, l, o, &row->result, &err)) {
        snprintf(row->reason, sizeof(row->reason), "%.250s", err.msg);
        goto out;
    }
    /* Megatron's --recompute-activations (selective) when the row does
     * not say; full recompute when that does not fit */
    if (!rc_given) {
        if (!row->result.mem.fits) {
            l->recompute = SN_RECOMPUTE_FULL;
            if (sn_train_predict(t, l, o, &row->result, &err)) {
                snprintf(row->reason, sizeof(row->reason), "%.250s", err.msg);
                goto out;
            }
        }
        snprintf(buf, sizeof(buf), "recompute %s",
                 sn_recompute_name(l->recompute));
        sn__validate_append(row->assumed, sizeof(row->assumed), buf);
    }
    row->layout = *l;
    row_fill(metric, gpus, row);
out:
    sn_train_free(t);
}

/* A row without tp and pp: the best layout of the training search for
 * its GPUs, system, precision and global batch (else the search's
 * default, as `sim train --search` takes it), with the recompute and the
 * ZeRO stage fixed where the row names them. */
static void row_searched(char **f, const struct sn_model_info *m,
                         const struct env_slot *e,
                         const struct sn_train_opts *o,
                         const struct sn_train_layout *l, int zero,
                         enum metric metric, int gpus,
                         struct sn_validate_row *row)
{
    struct sn_train_search s;
    struct sn_train_layout given;
    char buf[64];

    sn_train_search_default(&s);
    s.accels = gpus;
    s.seq = l->seq;
    s.dtype = l->dtype;
    if (!cell_int(f[C_GBS], 1, 100000000, &s.gbs)) {
        s.gbs = sn_train_default_gbs(gpus, l->seq);
        snprintf(buf, sizeof(buf), "global batch %d", s.gbs);
        sn__validate_append(row->assumed, sizeof(row->assumed), buf);
    }
    memset(&given, 0, sizeof(given));
    if (row_recompute(f, &given)) {
        s.fixed_recompute = true;
        s.recompute = given.recompute;
    }
    if (zero >= 0) {
        s.fixed_zero = true;
        s.zero = zero;
    }
    if (sn__validate_search(m, &e->env.sys, o, &s, row))
        row_fill(metric, gpus, row);
}

/* One CSV row: its model, layout and system as the row gives them (what
 * it leaves out assumed), predicted in the row's metric; the reason when
 * it cannot be. */
static void predict_row(struct owned *own, char **f, int line,
                        struct sn_validate_row *row)
{
    struct sn_model_info m;
    struct sn_train_layout l;
    struct sn_train_opts o;
    struct env_slot *e;
    char other[512], notes[512], source[512];
    const struct sn_train_software *sw;
    enum metric metric;
    int gpus, zero;
    bool rc_given, searched;

    row->line = line;
    row->source = f[C_SOURCE];
    row->model = f[C_MODEL];
    row->gpu = f[C_GPU];
    row->metric = f[C_METRIC];
    row->notes = f[C_NOTES];
    row->parallel = f[C_OTHER];
    if (!row_measure(f, row, &gpus, &metric))
        return;
    if (!row_model(f, &m, row->reason, sizeof(row->reason), row->assumed,
                   sizeof(row->assumed))) {
        row->unknown = strstr(row->reason, "not in the catalog") != NULL;
        return;
    }
    row->moe = m.experts > 1;
    row->train_model = m;

    sn__validate_lower(f[C_OTHER], other, sizeof(other));
    sn__validate_lower(f[C_NOTES], notes, sizeof(notes));
    memset(&l, 0, sizeof(l));
    /* no tp and no pp: the layout is the search's */
    searched = blank(f[C_TP]) && blank(f[C_PP]);
    if (!searched && !row_parallel(f, other, gpus, &l, row))
        return;
    zero = row_zero(other, l.pp, row);
    e = row_system(own, f, gpus, row);
    if (!e)
        return;
    snprintf(row->accel, sizeof(row->accel), "%s", e->spec.accel->name);
    sn__validate_lower(f[C_SOURCE], source, sizeof(source));
    sw = row_stack(e, source, other, notes, zero, &l, &o, row);
    if (!searched)
        row_etp(sw, &m, &l, row);
    row->train_opts = o;
    row_precision(f[C_PRECISION], e, &l, row);
    l.seq = m.seq;
    if (searched) {
        row_searched(f, &m, e, &o, &l, zero, metric, gpus, row);
        return;
    }
    if (!row_batch(f, other, &l, row))
        return;
    rc_given = row_recompute(f, &l);
    row_predict(&m, e, &l, &o, rc_given, metric, gpus, row);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    if (!n)
        return NAN;
    qsort(v, n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Ranks with ties averaged (1-based), by sorting: O(n log n). NaN sorts
 * last, so that the order is total. */
struct ranked {
    double v;
    size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;
    bool xn = isnan(x->v), yn = isnan(y->v);

    if (xn != yn)
        return xn ? 1 : -1;
    if (!xn && x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

static void ranks(const double *v, size_t n, double *r)
{
    struct ranked *s = sn_xcalloc(n ? n : 1, sizeof(*s));

    for (size_t i = 0; i < n; i++)
        s[i] = (struct ranked){v[i], i};
    qsort(s, n, sizeof(*s), cmp_ranked);
    for (size_t lo = 0; lo < n;) {
        size_t hi = lo + 1;
        while (hi < n && s[hi].v == s[lo].v)
            hi++;
        /* positions lo+1 .. hi share their mean */
        for (size_t k = lo; k < hi; k++)
            r[s[k].i] = (double)(lo + 1 + hi) / 2;
        lo = hi;
    }
    free(s);
}

static double spearman(const double *a, const double *b, size_t n)
{
    double *ra = sn_xcalloc(n, sizeof(double));
    double *rb = sn_xcalloc(n, sizeof(double));
    double ma = 0, mb = 0, num = 0, da = 0, db = 0, rho;

    ranks(a, n, ra);
    ranks(b, n, rb);
    for (size_t i = 0; i < n; i++) {
        ma += ra[i] / n;
        mb += rb[i] / n;
    }
    for (size_t i = 0; i < n; i++) {
        num += (ra[i] - ma) * (rb[i] - mb);
        da += (ra[i] - ma) * (ra[i] - ma);
        db += (rb[i] - mb) * (rb[i] - mb);
    }
    rho = da > 0 && db > 0 ? num / sqrt(da * db) : NAN;
    free(ra);
    free(rb);
    return rho;
}

static bool is_time_metric(const char *m)
{
    enum metric k = parse_metric(m);

    return k == M_TIME_S || k == M_TIME_MS;
}

/* What the summaries sort rows by: a row's source, model and GPU count,
 * and the row itself (ties keep file order). */
struct rowkey {
    const char *source, *model;
    int gpus;
    size_t i;
};

static int cmp_index(size_t a, size_t b)
{
    return (a > b) - (a < b);
}

static int cmp_by_source(const void *a, const void *b)
{
    const struct rowkey *x = a, *y = b;
    int c = strcmp(x->source, y->source);

    return c ? c : cmp_index(x->i, y->i);
}

static bool same_group(const struct rowkey *a, const struct rowkey *b)
{
    return a->gpus == b->gpus && !strcmp(a->source, b->source) &&
           !strcmp(a->model, b->model);
}

static int cmp_by_group(const void *a, const void *b)
{
    const struct rowkey *x = a, *y = b;
    int c = strcmp(x->source, y->source);

    if (!c)
        c = strcmp(x->model, y->model);
    if (!c)
        c = (x->gpus > y->gpus) - (x->gpus < y->gpus);
    return c ? c : cmp_index(x->i, y->i);
}

static struct rowkey key_of(const struct sn_validate_report *rep, size_t i)
{
    const struct sn_validate_row *r = &rep->rows[i];

    return (struct rowkey){r->source, r->model, r->gpus, i};
}

static int cmp_source_first(const void *a, const void *b)
{
    return cmp_index(((const struct sn_validate_source *)a)->first,
                     ((const struct sn_validate_source *)b)->first);
}

static int cmp_group_first(const void *a, const void *b)
{
    return cmp_index(((const struct sn_validate_group *)a)->first,
                     ((const struct sn_validate_group *)b)->first);
}

static void summarise(struct sn_validate_report *rep)
{
    size_t n = rep->nrows;
    double *abs = sn_xcalloc(n ? n : 1, sizeof(double)), *pm, *pp;
    size_t k = 0;
    struct rowkey *order;
    const struct sn_validate_row **rowp = sn_xcalloc(n ? n : 1, sizeof(*rowp));

    /* classes and leave-one-source-out bands first: they set each
     * row's signed error */
    for (size_t i = 0; i < n; i++)
        rowp[i] = &rep->rows[i];
    sn_validate_classify((struct sn_validate_row *const *)rowp, n,
                         &rep->classes, &rep->nclasses);
    for (size_t i = 0; i < n; i++) {
        rep->nbanded += rep->rows[i].band_ok;
        rep->ncovered += rep->rows[i].in_band;
    }

    /* overall */
    for (size_t i = 0; i < n; i++)
        if (rep->rows[i].predicted_ok)
            abs[k++] = fabs(rep->rows[i].error_pct);
    rep->npredicted = k;
    rep->mean_abs_pct = 0;
    for (size_t i = 0; i < k; i++)
        rep->mean_abs_pct += abs[i] / k;
    rep->median_abs_pct = median(abs, k);
    if (!k)
        rep->mean_abs_pct = NAN;

    /* the worst rows */
    for (size_t w = 0; w < SN_ARRAY_LEN(rep->worst); w++) {
        double best = -1;
        size_t at = n;
        for (size_t i = 0; i < n; i++) {
            bool taken = false;
            if (!rep->rows[i].predicted_ok)
                continue;
            for (size_t j = 0; j < w; j++)
                taken = taken || rep->worst[j] == i;
            if (!taken && fabs(rep->rows[i].error_pct) > best) {
                best = fabs(rep->rows[i].error_pct);
                at = i;
            }
        }
        if (at == n)
            break;
        rep->worst[rep->nworst++] = at;
    }

    /* per source, in the order sources first appear: rows sorted by
     * source (then by row, so each run starts at the source's first
     * row), one pass over each run, then the runs by first row. Every
     * step is O(n log n); scanning all rows once per source was O(n^2)
     * (50,000 rows of distinct sources: minutes) */
    order = sn_xcalloc(n ? n : 1, sizeof(*order));
    for (size_t i = 0; i < n; i++)
        order[i] = key_of(rep, i);
    qsort(order, n, sizeof(*order), cmp_by_source);
    rep->sources = sn_xcalloc(n ? n : 1, sizeof(*rep->sources));
    for (size_t lo = 0; lo < n;) {
        struct sn_validate_source *x = &rep->sources[rep->nsources++];
        size_t hi = lo;
        memset(x, 0, sizeof(*x));
        x->source = order[lo].source;
        x->first = order[lo].i;
        k = 0;
        for (; hi < n && !strcmp(order[hi].source, x->source); hi++) {
            const struct sn_validate_row *r = &rep->rows[order[hi].i];
            x->n++;
            if (r->predicted_ok)
                abs[k++] = fabs(r->error_pct);
        }
        x->predicted = k;
        for (size_t j = 0; j < k; j++)
            x->mean_abs_pct += abs[j] / k;
        x->median_abs_pct = median(abs, k);
        if (!k)
            x->mean_abs_pct = NAN;
        /* its P90, signed mean and share of optimistic rows from the
         * same run of rows */
        for (size_t j = lo; j < hi; j++)
            rowp[j - lo] = &rep->rows[order[j].i];
        sn_validate_stats_of(rowp, hi - lo, &x->st);
        lo = hi;
    }

    qsort(rep->sources, rep->nsources, sizeof(*rep->sources), cmp_source_first);

    /* ranking groups: same source, model and GPU count, timed rows, in
     * the order groups first appear; the same sort, by the group's key */
    k = 0;
    for (size_t i = 0; i < n; i++)
        if (rep->rows[i].predicted_ok && is_time_metric(rep->rows[i].metric))
            order[k++] = key_of(rep, i);
    qsort(order, k, sizeof(*order), cmp_by_group);
    pm = sn_xcalloc(k ? k : 1, sizeof(double));
    pp = sn_xcalloc(k ? k : 1, sizeof(double));
    rep->groups = sn_xcalloc(k ? k : 1, sizeof(*rep->groups));
    for (size_t lo = 0; lo < k;) {
        const struct rowkey *g = &order[lo];
        double best = INFINITY, top = NAN, toppred = INFINITY;
        size_t hi = lo, cnt = 0;
        for (; hi < k && same_group(&order[hi], g); hi++) {
            const struct sn_validate_row *q = &rep->rows[order[hi].i];
            pm[cnt] = q->measured;
            pp[cnt] = q->predicted;
            best = fmin(best, q->measured);
            if (q->predicted < toppred) {
                toppred = q->predicted;
                top = q->measured;
            }
            cnt++;
        }
        if (cnt >= 3) {
            struct sn_validate_group *x = &rep->groups[rep->ngroups++];
            x->source = g->source;
            x->model = g->model;
            x->gpus = g->gpus;
            x->n = cnt;
            x->first = g->i;
            x->spearman = spearman(pm, pp, cnt);
            x->top_measured = top;
            x->best_measured = best;
            x->top_gap_pct = (top / best - 1) * 100;
        }
        lo = hi;
    }
    qsort(rep->groups, rep->ngroups, sizeof(*rep->groups), cmp_group_first);
    free(pm);
    free(pp);
    free(order);
    free(abs);
    free(rowp);
}

int sn_validate_csv(const char *file, const char *text, size_t len,
                    struct sn_validate_report *rep, struct sn_error *err)
{
    struct owned *own;
    int col[C_COUNT], rc;
    static char empty[] = "";

    memset(rep, 0, sizeof(*rep));
    own = sn_xcalloc(1, sizeof(*own));
    rep->owned = own;
    rep->file = sn_xstrdup(file);
    rc =
        sn_csv_parse(file, text, len, SN_VALIDATE_MAX_ROWS + 1, &own->csv, err);
    if (rc)
        goto fail;
    if (own->csv.nrows < 1) {
        rc = sn_error_at(err, SN_EINPUT, file, 1, 0,
                         "empty file (expected a header row: %s, ...)",
                         "source, model, layers, hidden, heads");
        goto fail;
    }
    /* a file made elsewhere: a cell that is not clean text (bytes that
     * are not UTF-8, escape sequences) is cleaned before it is quoted in
     * a table, a reason or JSON */
    for (size_t i = 0; i < own->csv.nrows; i++)
        for (size_t c = 0; c < own->csv.nfields[i]; c++) {
            char **cell = &own->csv.fields[i][c];
            if (!sn_str_is_clean(*cell, SN_CLEAN_LINES)) {
                char *clean = sn_xstrdup_clean(*cell, SN_CLEAN_LINES);
                free(*cell);
                *cell = clean;
            }
        }
    /* the serving file: input and output lengths, no data parallelism */
    if (sn_csv_column(&own->csv, "isl") >= 0 &&
        sn_csv_column(&own->csv, "dp") < 0) {
        rc = sn__validate_infer(own, file, rep, err);
        if (rc)
            goto fail;
        summarise(rep);
        return SN_OK;
    }
    for (int c = 0; c < C_COUNT; c++) {
        col[c] = sn_csv_column(&own->csv, col_names[c]);
        if (col[c] < 0 && col_required[c]) {
            rc = sn_error_at(err, SN_EINPUT, file, own->csv.lines[0], 0,
                             "the header has no '%s' column (expected the "
                             "columns of training-public.csv)",
                             col_names[c]);
            goto fail;
        }
    }
    rep->nrows = own->csv.nrows - 1;
    rep->rows = sn_xcalloc(rep->nrows ? rep->nrows : 1, sizeof(*rep->rows));
    for (size_t i = 1; i < own->csv.nrows; i++) {
        char *f[C_COUNT];
        for (int c = 0; c < C_COUNT; c++)
            f[c] = col[c] >= 0 && (size_t)col[c] < own->csv.nfields[i]
                       ? own->csv.fields[i][col[c]]
                       : empty;
        predict_row(own, f, own->csv.lines[i], &rep->rows[i - 1]);
    }
    summarise(rep);
    return SN_OK;
fail:
    sn_validate_report_release(rep);
    return rc;
}

void sn_validate_report_release(struct sn_validate_report *rep)
{
    struct owned *own;

    if (!rep)
        return;
    own = rep->owned;
    if (own) {
        for (size_t i = 0; i < own->nenvs; i++) {
            if (!own->envs[i]->rc) {
                sn_train_env_release(&own->envs[i]->env);
                sn_spec_release(&own->envs[i]->spec);
            }
            free(own->envs[i]->text);
            free(own->envs[i]);
        }
        free(own->envs);
        hfree(&own->by_text);
        sn_csv_release(&own->csv);
        free(own);
    }
    free(rep->rows);
    free(rep->sources);
    free(rep->groups);
    free(rep->classes);
    free(rep->file);
    memset(rep, 0, sizeof(*rep));
}
