/* train-model.c: custom model dimensions from YAML (`--model FILE`), with
 * every error located at the offending line and column. */
#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "train-int.h"

static const char *const model_keys[] = {
    "name",
    "display",
    "aliases",
    "source",
    "layers",
    "hidden",
    "heads",
    "kv_heads",
    "head_dim",
    "attention",
    "q_lora_rank",
    "kv_lora_rank",
    "qk_nope_head_dim",
    "qk_rope_head_dim",
    "v_head_dim",
    "ffn",
    "dense_ffn",
    "vocab",
    "seq",
    "mlp",
    "gated_mlp",
    "tied_embeddings",
    "experts",
    "topk",
    "shared_experts",
    "shared_ffn",
    "moe_layers",
    "dense_layers",
    "moe_every",
    "window",
    "window_every",
    "mtp_layers",
    "params",
    "active_params",
    NULL,
};

/* The whole-number keys of MoE models and of attention other than plain
 * GQA, 0 when absent; capped as the spec's catalog entries cap them. */
static const struct int_key {
    const char *key;
    long long min, max;
    size_t off;
} moe_ints[] = {
    {"head_dim", 1, 65536, offsetof(struct sn_model_info, head_dim)},
    {"q_lora_rank", 0, 1 << 20, offsetof(struct sn_model_info, q_lora_rank)},
    {"kv_lora_rank", 1, 1 << 20, offsetof(struct sn_model_info, kv_lora_rank)},
    {"qk_nope_head_dim", 0, 65536,
     offsetof(struct sn_model_info, qk_nope_head_dim)},
    {"qk_rope_head_dim", 0, 65536,
     offsetof(struct sn_model_info, qk_rope_head_dim)},
    {"v_head_dim", 1, 65536, offsetof(struct sn_model_info, v_head_dim)},
    {"dense_layers", 0, 100000, offsetof(struct sn_model_info, dense_layers)},
    {"moe_every", 1, 1000, offsetof(struct sn_model_info, moe_every)},
    {"shared_ffn", 1, 10000000, offsetof(struct sn_model_info, shared_ffn)},
    {"window", 1, 100000000, offsetof(struct sn_model_info, window)},
    {"window_every", 1, 1000, offsetof(struct sn_model_info, window_every)},
    {"mtp_layers", 0, 64, offsetof(struct sn_model_info, mtp_layers)},
};

static int fail(struct sn_error *err, const char *file, const struct sn_yaml *n,
                const char *fmt, const char *a, const char *b)
{
    char msg[512];

    snprintf(msg, sizeof(msg), fmt, a, b);
    return sn_error_at(err, SN_EINPUT, file, n ? n->line : 0, n ? n->col : 0,
                       "%s", msg);
}

/* A whole number in [min, max] under `key`; *out untouched when absent. */
static int get_int(const char *file, const struct sn_yaml *root,
                   const char *key, long long min, long long max, int *out,
                   struct sn_error *err)
{
    const struct sn_yaml *n = sn_yaml_get(root, key);
    struct sn_error e;
    double v;
    char range[96];

    if (!n)
        return SN_OK;
    if (n->type != SN_YAML_SCALAR)
        return fail(err, file, n, "%s is %s (expected a whole number)", key,
                    sn_yaml_type_name(n->type));
    if (sn_unit_parse(n->value, SN_UNIT_COUNT, true, &v, &e) || v != floor(v))
        return fail(err, file, n, "%s: '%.64s' is not a whole number", key,
                    n->value);
    if (v < (double)min || v > (double)max) {
        snprintf(range, sizeof(range), "from %lld to %lld", min, max);
        return fail(err, file, n, "%s is out of range (expected %s)", key,
                    range);
    }
    *out = (int)v;
    return SN_OK;
}

/* Refuses a key the model file does not know (with the nearest known
 * one) and a model without the required keys. */
static int check_keys(const char *file, const struct sn_yaml *root,
                      struct sn_error *err)
{
    static const char *const required[] = {"layers", "hidden", "heads",
                                           "ffn",    "vocab",  NULL};

    for (size_t i = 0; i < root->n; i++) {
        const char *k = root->keys[i]->value, *near;
        bool known = false;
        for (size_t j = 0; model_keys[j] && !known; j++)
            known = strcmp(model_keys[j], k) == 0;
        if (known)
            continue;
        near = sn_suggest(k, model_keys);
        if (near)
            return fail(err, file, root->keys[i],
                        "unknown key '%.64s' in the model (did you mean "
                        "'%s'?)",
                        k, near);
        return fail(err, file, root->keys[i],
                    "unknown key '%.64s' in the model (expected %s)", k,
                    "a key of docs/model.md's model file, such as layers, "
                    "hidden, heads, ffn, vocab, experts or attention");
    }
    for (size_t j = 0; required[j]; j++)
        if (!sn_yaml_get(root, required[j]))
            return fail(err, file, root, "the model has no '%s' (expected %s)",
                        required[j],
                        "layers, hidden, heads, ffn and vocab at least");
    return SN_OK;
}

/* A line of clean text under `key` into buf (size bytes with its NUL);
 * buf untouched when absent. */
static int get_text(const char *file, const struct sn_yaml *root,
                    const char *key, char *buf, size_t size,
                    struct sn_error *err)
{
    const struct sn_yaml *n = sn_yaml_get(root, key);
    char want[64];

    if (!n)
        return SN_OK;
    snprintf(want, sizeof(want), "printable text of up to %zu characters",
             size - 1);
    if (n->type != SN_YAML_SCALAR || !n->value[0] || strlen(n->value) >= size ||
        !sn_str_is_clean(n->value, 0))
        return fail(err, file, n, "%s: not a short line of text (expected %s)",
                    key, want);
    sn_strlcpy(buf, n->value, size);
    return SN_OK;
}

/* The model's names and source into out: "custom" when the file has no
 * name, the name when it has no display name. */
static int parse_names(const char *file, const struct sn_yaml *root,
                       struct sn_train_model_file *out, struct sn_error *err)
{
    const struct sn_yaml *n;
    int rc;

    sn_strlcpy(out->name, "custom", sizeof(out->name));
    if ((n = sn_yaml_get(root, "name"))) {
        if (n->type != SN_YAML_SCALAR || !n->value[0] ||
            strlen(n->value) >= sizeof(out->name))
            return fail(err, file, n, "name: %s (expected %s)",
                        "not a short name", "up to 63 characters");
        sn_strlcpy(out->name, n->value, sizeof(out->name));
    }
    snprintf(out->display, sizeof(out->display), "%s", out->name);
    sn_strlcpy(out->source, "model file", sizeof(out->source));
    if ((rc = get_text(file, root, "display", out->display,
                       sizeof(out->display), err)) ||
        (rc = get_text(file, root, "aliases", out->aliases,
                       sizeof(out->aliases), err)) ||
        (rc = get_text(file, root, "source", out->source, sizeof(out->source),
                       err)))
        return rc;
    out->info.name = out->name;
    out->info.display = out->display;
    out->info.aliases = out->aliases[0] ? out->aliases : NULL;
    out->info.source = out->source;
    return SN_OK;
}

/* Attention (gqa or mla) and the whole-number keys of moe_ints. */
static int parse_moe(const char *file, const struct sn_yaml *root,
                     struct sn_model_info *m, struct sn_error *err)
{
    const struct sn_yaml *n = sn_yaml_get(root, "attention");
    int rc;

    if (n && n->type == SN_YAML_SCALAR && sn_strcaseeq(n->value, "mla"))
        m->attention = SN_ATTN_MLA;
    else if (n && !(n->type == SN_YAML_SCALAR && sn_strcaseeq(n->value, "gqa")))
        return fail(err, file, n, "attention: '%.64s' (expected %s)",
                    n->type == SN_YAML_SCALAR ? n->value : "?", "gqa or mla");
    for (size_t i = 0; i < SN_ARRAY_LEN(moe_ints); i++) {
        const struct int_key *k = &moe_ints[i];
        if ((rc = get_int(file, root, k->key, k->min, k->max,
                          (int *)((char *)m + k->off), err)))
            return rc;
    }
    return SN_OK;
}

/* The model's whole-number dimensions, each in its range (sequence 2048,
 * kv_heads the heads and no MoE layers when absent). */
static int parse_dims(const char *file, const struct sn_yaml *root,
                      struct sn_model_info *m, struct sn_error *err)
{
    int rc;

    m->seq = 2048;
    if ((rc = get_int(file, root, "layers", 1, 100000, &m->layers, err)) ||
        (rc = get_int(file, root, "hidden", 1, 1000000, &m->hidden, err)) ||
        (rc = get_int(file, root, "heads", 1, 100000, &m->heads, err)) ||
        (rc = get_int(file, root, "ffn", 1, 10000000, &m->ffn, err)) ||
        (rc = get_int(file, root, "vocab", 1, 10000000, &m->vocab, err)) ||
        (rc = get_int(file, root, "seq", 1, 100000000, &m->seq, err)) ||
        (rc = get_int(file, root, "experts", 0, 100000, &m->experts, err)) ||
        (rc = get_int(file, root, "topk", 0, 100000, &m->topk, err)) ||
        (rc = get_int(file, root, "shared_experts", 0, 100000,
                      &m->shared_experts, err)) ||
        (rc =
             get_int(file, root, "dense_ffn", 0, 10000000, &m->dense_ffn, err)))
        return rc;
    m->kv_heads = m->heads;
    m->moe_layers = 0;
    if ((rc =
             get_int(file, root, "kv_heads", 1, m->heads, &m->kv_heads, err)) ||
        (rc = get_int(file, root, "moe_layers", 0, m->layers, &m->moe_layers,
                      err)))
        return rc;
    return SN_OK;
}

/* The dimensions that must agree: heads divide hidden, kv_heads divide
 * heads, topk within the experts. */
static int check_dims(const char *file, const struct sn_yaml *root,
                      const struct sn_model_info *m, struct sn_error *err)
{
    const struct sn_yaml *n;

    /* parse_dims: heads and kv_heads are at least 1 */
    assert(m->heads >= 1 && m->kv_heads >= 1);
    if (m->hidden % m->heads)
        return fail(err, file, sn_yaml_get(root, "hidden"),
                    "hidden is not a multiple of the heads (%s, %s)",
                    sn_yaml_get(root, "hidden")->value,
                    sn_yaml_get(root, "heads")->value);
    if (m->heads % m->kv_heads)
        return fail(err, file, sn_yaml_get(root, "kv_heads"),
                    "kv_heads %s does not divide the %s heads",
                    sn_yaml_get(root, "kv_heads")->value,
                    sn_yaml_get(root, "heads")->value);
    if (m->experts > 1 && (m->topk < 1 || m->topk > m->experts)) {
        n = sn_yaml_get(root, "topk");
        return fail(err, file, n ? n : sn_yaml_get(root, "experts"),
                    "topk must be from 1 to the %s experts%s",
                    sn_yaml_get(root, "experts")->value, "");
    }
    return SN_OK;
}

/* The MLP (gated or not) and whether the embeddings are tied: GPT-style
 * models tie the output layer, Llama-style ones do not. */
static int parse_mlp(const char *file, const struct sn_yaml *root,
                     struct sn_model_info *m, struct sn_error *err)
{
    const struct sn_yaml *n;

    if ((n = sn_yaml_get(root, "mlp"))) {
        if (n->type == SN_YAML_SCALAR && (sn_strcaseeq(n->value, "swiglu") ||
                                          sn_strcaseeq(n->value, "gated")))
            m->gated_mlp = true;
        else if (!(n->type == SN_YAML_SCALAR && sn_strcaseeq(n->value, "gelu")))
            return fail(err, file, n, "mlp: '%.64s' (expected %s)",
                        n->type == SN_YAML_SCALAR ? n->value : "?",
                        "swiglu or gelu");
    }
    if ((n = sn_yaml_get(root, "gated_mlp"))) {
        if (sn_yaml_get(root, "mlp"))
            return fail(err, file, n, "gated_mlp: %s (%s)",
                        "the file gives mlp already", "give one of the two");
        if (!(n->type == SN_YAML_SCALAR &&
              (!strcmp(n->value, "true") || !strcmp(n->value, "false"))))
            return fail(err, file, n, "gated_mlp: '%.64s' (expected %s)",
                        n->type == SN_YAML_SCALAR ? n->value : "?",
                        "true or false");
        m->gated_mlp = !strcmp(n->value, "true");
    }
    m->tied_embeddings = !m->gated_mlp;
    if ((n = sn_yaml_get(root, "tied_embeddings"))) {
        if (n->type == SN_YAML_SCALAR &&
            (!strcmp(n->value, "true") || !strcmp(n->value, "false")))
            m->tied_embeddings = !strcmp(n->value, "true");
        else
            return fail(err, file, n, "tied_embeddings: '%.64s' (expected %s)",
                        n->type == SN_YAML_SCALAR ? n->value : "?",
                        "true or false");
    }
    return SN_OK;
}

/* A count such as 70B under key into *out (untouched when absent). */
static int get_count(const char *file, const struct sn_yaml *root,
                     const char *key, double *out, struct sn_error *err)
{
    const struct sn_yaml *n = sn_yaml_get(root, key);
    struct sn_error e;
    double v;

    if (!n)
        return SN_OK;
    if (n->type != SN_YAML_SCALAR ||
        sn_unit_parse(n->value, SN_UNIT_COUNT, true, &v, &e) || !(v > 0) ||
        v > 1e15)
        return fail(err, file, n, "%s: '%.64s' (expected a count such as 70B)",
                    key, n->type == SN_YAML_SCALAR ? n->value : "?");
    *out = v;
    return SN_OK;
}

/* The parameter counts: as the file gives them (published), else
 * counted from the dimensions (sn_train_params); the active ones within
 * the total. */
static int parse_params(const char *file, const struct sn_yaml *root,
                        struct sn_model_info *m, struct sn_error *err)
{
    double total, active;
    int rc;

    if ((rc = get_count(file, root, "params", &m->params, err)) ||
        (rc = get_count(file, root, "active_params", &m->active_params, err)))
        return rc;
    total = sn_train_params(m, &active);
    if (!(m->params > 0))
        m->params = total;
    if (m->active_params > m->params * (1 + 1e-9) &&
        sn_yaml_get(root, "active_params"))
        return fail(err, file, sn_yaml_get(root, "active_params"),
                    "active_params %s exceeds params %s",
                    sn_yaml_get(root, "active_params")->value,
                    sn_yaml_get(root, "params")
                        ? sn_yaml_get(root, "params")->value
                        : "(counted from the dimensions)");
    /* counted: never above the total the file publishes */
    if (!(m->active_params > 0))
        m->active_params = m->experts > 1 ? fmin(active, m->params) : m->params;
    return SN_OK;
}

/* What the MoE and attention keys need of each other (sn_model_check),
 * and the MoE layer count their pattern gives when the file gives none. */
static int check_moe(const char *file, const struct sn_yaml *root,
                     struct sn_model_info *m, struct sn_error *err)
{
    const struct sn_yaml *where;
    char msg[256];

    if (sn_model_check(m, root, &where, msg, sizeof(msg)))
        return sn_error_at(err, SN_EINPUT, file, where ? where->line : 0,
                           where ? where->col : 0, "%s", msg);
    if (m->experts > 1 && m->moe_layers == 0 &&
        (m->dense_layers > 0 || m->moe_every > 1))
        m->moe_layers = sn_model_moe_layers(m);
    return SN_OK;
}

int sn_train_model_parse(const char *file, const char *text, size_t len,
                         struct sn_train_model_file *out, struct sn_error *err)
{
    struct sn_yaml_doc doc;
    const struct sn_yaml *root;
    struct sn_model_info *m = &out->info;
    int rc;

    memset(out, 0, sizeof(*out));
    rc = sn_yaml_parse(file, text, len, &doc, err);
    if (rc)
        return rc;
    root = doc.root;
    if (!root || root->type != SN_YAML_MAP) {
        rc = fail(err, file, root,
                  "a model is %s (expected a mapping of "
                  "%s)",
                  root ? sn_yaml_type_name(root->type) : "empty",
                  "layers, hidden, heads, ffn, vocab, ...");
        goto out;
    }
    if ((rc = check_keys(file, root, err)) ||
        (rc = parse_names(file, root, out, err)) ||
        (rc = parse_dims(file, root, m, err)) ||
        (rc = check_dims(file, root, m, err)) ||
        (rc = parse_moe(file, root, m, err)) ||
        (rc = parse_mlp(file, root, m, err)) ||
        (rc = check_moe(file, root, m, err)) ||
        (rc = parse_params(file, root, m, err)))
        goto out;
    m->confidence = SN_CONF_USER;
out:
    sn_yaml_doc_release(&doc);
    return rc;
}

int sn_train_model_load(const char *path, struct sn_train_model_file *out,
                        struct sn_error *err)
{
    char *text = NULL;
    size_t len = 0;
    int rc;

    rc = sn_read_file(path, SN_YAML_MAX_BYTES, &text, &len, err);
    if (rc)
        return rc;
    rc = sn_train_model_parse(path, text, len, out, err);
    free(text);
    return rc;
}

int sn_train_model_resolve(const struct sn_catalog *c, const char *name,
                           struct sn_train_model_file *out,
                           struct sn_error *err)
{
    const struct sn_model_info *m = sn_catalog_model(c, name);
    const char *near;

    memset(out, 0, sizeof(*out));
    if (m) {
        out->info = *m;
        return SN_OK;
    }
    if (access(name, R_OK) == 0)
        return sn_train_model_load(name, out, err);
    {
        const char *names[256];
        size_t n = 0;
        for (; n < c->nmodels && n + 1 < SN_ARRAY_LEN(names); n++)
            names[n] = c->models[n]->name;
        names[n] = NULL;
        near = sn_suggest(name, names);
    }
    if (near)
        return sn_error_set(err, SN_ENOTFOUND,
                            "unknown model '%s' (did you mean '%s'?)", name,
                            near);
    return sn_error_set(err, SN_ENOTFOUND,
                        "unknown model '%s' (expected a preset from "
                        "'supernode catalog list models' or a YAML file)",
                        name);
}
