/* train-model.c: custom model dimensions from YAML (`--model FILE`), with
 * every error located at the offending line and column. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "train-int.h"

static const char *const model_keys[] = {
    "name",       "layers",    "hidden",
    "heads",      "kv_heads",  "ffn",
    "vocab",      "seq",       "mlp",
    "experts",    "topk",      "shared_experts",
    "moe_layers", "dense_ffn", "tied_embeddings",
    "params",     NULL,
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
                    "layers, hidden, heads, kv_heads, ffn, vocab, seq, "
                    "mlp, experts, topk, shared_experts, moe_layers, "
                    "dense_ffn, tied_embeddings, params or name");
    }
    for (size_t j = 0; required[j]; j++)
        if (!sn_yaml_get(root, required[j]))
            return fail(err, file, root, "the model has no '%s' (expected %s)",
                        required[j],
                        "layers, hidden, heads, ffn and vocab at least");
    return SN_OK;
}

/* The model's name into out->name: "custom" when the file has none. */
static int parse_name(const char *file, const struct sn_yaml *root,
                      struct sn_train_model_file *out, struct sn_error *err)
{
    const struct sn_yaml *n;

    sn_strlcpy(out->name, "custom", sizeof(out->name));
    if ((n = sn_yaml_get(root, "name"))) {
        if (n->type != SN_YAML_SCALAR || !n->value[0] ||
            strlen(n->value) >= sizeof(out->name))
            return fail(err, file, n, "name: %s (expected %s)",
                        "not a short name", "up to 63 characters");
        sn_strlcpy(out->name, n->value, sizeof(out->name));
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

/* The parameter count the file gives, if any (else m->params stays 0
 * and sn_train_model_parse computes it). */
static int parse_params(const char *file, const struct sn_yaml *root,
                        struct sn_model_info *m, struct sn_error *err)
{
    const struct sn_yaml *n;
    struct sn_error e;

    if ((n = sn_yaml_get(root, "params"))) {
        if (n->type != SN_YAML_SCALAR ||
            sn_unit_parse(n->value, SN_UNIT_COUNT, true, &m->params, &e) ||
            !(m->params > 0))
            return fail(err, file, n, "params: '%.64s' (expected %s)",
                        n->type == SN_YAML_SCALAR ? n->value : "?",
                        "a count such as 70B");
    }
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
        (rc = parse_name(file, root, out, err)) ||
        (rc = parse_dims(file, root, m, err)) ||
        (rc = check_dims(file, root, m, err)) ||
        (rc = parse_mlp(file, root, m, err)) ||
        (rc = parse_params(file, root, m, err)))
        goto out;
    snprintf(out->display, sizeof(out->display), "%s", out->name);
    m->name = out->name;
    m->display = out->display;
    m->confidence = SN_CONF_USER;
    m->source = "model file";
    if (!(m->params > 0))
        m->params = sn_train_params(m, &m->active_params);
    else
        sn_train_params(m, &m->active_params);
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
