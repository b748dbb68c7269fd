/* catalog.c: the built-in catalog of accelerators, switch chips and boxes,
 * NICs, cables and model presets, assembled from its tables
 * (catalog-accels.c, catalog-parts.c, catalog-models.c), and the lookups
 * over any catalog: by name, a cable by reach, the nearest name, the
 * names of the enums. Units are SI: FLOP/s, bytes, bytes/s per direction,
 * W, s, m. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog-int.h"

static const struct sn_catalog builtin = {
    .accels = sn__catalog_accels,
    .naccels = SN__CATALOG_NACCELS,
    .switches = sn__catalog_switches,
    .nswitches = SN__CATALOG_NSWITCHES,
    .nics = sn__catalog_nics,
    .nnics = SN__CATALOG_NNICS,
    .cables = sn__catalog_cables,
    .ncables = SN__CATALOG_NCABLES,
    .models = sn__catalog_models,
    .nmodels = SN__CATALOG_NMODELS,
};

const struct sn_catalog *sn_catalog_builtin(void)
{
    return &builtin;
}

/* Every catalog struct starts with `const char *name`, so one search
 * serves all five kinds. */
static const void *find(const void *const *items, size_t n, const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (sn_strcaseeq(*(const char *const *)items[i], name))
            return items[i];
    return NULL;
}

const struct sn_accel_info *sn_catalog_accel(const struct sn_catalog *c,
                                             const char *name)
{
    return find((const void *const *)c->accels, c->naccels, name);
}

const struct sn_switch_info *sn_catalog_switch(const struct sn_catalog *c,
                                               const char *name)
{
    return find((const void *const *)c->switches, c->nswitches, name);
}

const struct sn_nic_info *sn_catalog_nic(const struct sn_catalog *c,
                                         const char *name)
{
    return find((const void *const *)c->nics, c->nnics, name);
}

const struct sn_cable_info *sn_catalog_cable(const struct sn_catalog *c,
                                             const char *name)
{
    return find((const void *const *)c->cables, c->ncables, name);
}

/* Whether the comma-separated list has name, case-insensitive, blanks
 * around each entry ignored. */
static bool list_has(const char *list, const char *name)
{
    size_t len = strlen(name);

    while (list && *list) {
        const char *end = strchr(list, ',');
        size_t n = end ? (size_t)(end - list) : strlen(list);
        const char *w = list;

        while (n > 0 && *w == ' ')
            w++, n--;
        while (n > 0 && w[n - 1] == ' ')
            n--;
        if (n == len && strncasecmp(w, name, n) == 0)
            return true;
        list = end ? end + 1 : NULL;
    }
    return false;
}

const struct sn_model_info *sn_catalog_model(const struct sn_catalog *c,
                                             const char *name)
{
    const struct sn_model_info *m =
        find((const void *const *)c->models, c->nmodels, name);

    /* names first: a user entry named like another's alias wins */
    for (size_t i = 0; !m && name && *name && i < c->nmodels; i++)
        if (list_has(c->models[i]->aliases, name))
            m = c->models[i];
    return m;
}

const char *sn__catalog_suggest(const void *const *items, size_t n,
                                const char *word)
{
    const char **names;
    const char *near;
    size_t len = strlen(word);

    if (n == 0 || len == 0)
        return NULL;
    names = sn_xcalloc(n + 1, sizeof(*names));
    for (size_t i = 0; i < n; i++)
        names[i] = *(const char *const *)items[i];
    near = sn_suggest(word, names);
    /* "h100" is far in edit distance from "h100-sxm5-80gb" but is plainly
     * meant: fall back to the first name the word begins. */
    for (size_t i = 0; !near && len >= 2 && i < n; i++)
        if (strncasecmp(names[i], word, len) == 0)
            near = names[i];
    free(names);
    return near;
}

/* Preference among media for a cable of the same reach: passive copper
 * first (cheapest, no power), then active copper, AOC, multimode,
 * single-mode (hardware-catalog.md section 3.3). */
static int medium_rank(enum sn_medium m)
{
    switch (m) {
    case SN_MEDIUM_COPPER:
        return 0;
    case SN_MEDIUM_ACC:
        return 1;
    case SN_MEDIUM_AOC:
        return 2;
    case SN_MEDIUM_MMF:
        return 3;
    case SN_MEDIUM_SMF:
        return 4;
    default:
        return 5;
    }
}

const struct sn_cable_info *sn_catalog_cable_for(const struct sn_catalog *c,
                                                 double length, double rate)
{
    const struct sn_cable_info *best = NULL;

    for (size_t i = 0; i < c->ncables; i++) {
        const struct sn_cable_info *x = c->cables[i];
        if (x->scale_up || x->medium == SN_MEDIUM_BOARD || x->reach_estimated)
            continue;
        /* a cable slower than the link is no use; 0.1 % slack absorbs
         * rounding in "400Gbps" against 50 GB/s */
        if (x->max_reach < length || x->rate < rate * 0.999)
            continue;
        if (!best || medium_rank(x->medium) < medium_rank(best->medium) ||
            (x->medium == best->medium &&
             (x->rate < best->rate ||
              (x->rate == best->rate && x->max_reach < best->max_reach))))
            best = x;
    }
    return best;
}

const char *sn_medium_name(enum sn_medium m)
{
    static const char *const names[] = {
        [SN_MEDIUM_BOARD] = "board", [SN_MEDIUM_COPPER] = "copper",
        [SN_MEDIUM_ACC] = "acc",     [SN_MEDIUM_AOC] = "aoc",
        [SN_MEDIUM_MMF] = "mmf",     [SN_MEDIUM_SMF] = "smf",
    };

    if ((unsigned)m >= SN_ARRAY_LEN(names))
        return "?";
    return names[m];
}

const char *sn_confidence_mark(enum sn_confidence c)
{
    switch (c) {
    case SN_CONF_VENDOR:
        return "V";
    case SN_CONF_SECONDARY:
        return "S";
    case SN_CONF_DERIVED:
        return "D";
    case SN_CONF_ESTIMATE:
        return "E";
    case SN_CONF_USER:
        return "U";
    }
    return "?";
}

/* Whether layer i (0-based) of m has an MoE MLP: none of a dense model;
 * past the leading dense layers (dense_layers, else layers - moe_layers),
 * every moe_every-th layer (Llama 4 Maverick's [0,1]*24: layers 1, 3,
 * ..., NeMo Experts128Config moe_layer_freq). */
bool sn_model_layer_is_moe(const struct sn_model_info *m, int i)
{
    int every = m->moe_every > 1 ? m->moe_every : 1, first;

    if (m->experts <= 1 || i < 0 || i >= m->layers)
        return false;
    if (m->dense_layers > 0)
        first = m->dense_layers;
    else if (every == 1 && m->moe_layers > 0 && m->moe_layers < m->layers)
        first = m->layers - m->moe_layers;
    else
        first = 0;
    return i >= first && (i - first) % every == every - 1;
}

int sn_model_moe_layers(const struct sn_model_info *m)
{
    int n = 0;

    for (int i = 0; i < m->layers; i++)
        n += sn_model_layer_is_moe(m, i);
    return n;
}

/* The key of m's fault in map (map itself when the key is absent). */
static const struct sn_yaml *at(const struct sn_yaml *map, const char *key)
{
    const struct sn_yaml *n = map ? sn_yaml_get(map, key) : NULL;

    return n ? n : map;
}

/* Each alias a catalog-style name (lowercase letters, digits, '-', '_',
 * '.'), comma-separated: NULL when so, else what is wrong in msg. */
static const char *check_aliases(const char *list, char *msg, size_t size)
{
    size_t n = 0;

    for (const char *p = list; p && *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch == ',') {
            if (n == 0)
                break;
            n = 0;
        } else if (ch != ' ') {
            if (!(islower(ch) || isdigit(ch) || strchr("-_.", ch)) ||
                ++n > SN_CATALOG_MAX_NAME) {
                snprintf(msg, size,
                         "aliases '%.64s' is not a list of names (lowercase "
                         "letters, digits, '-', '_', '.', comma-separated)",
                         list);
                return msg;
            }
        }
    }
    if (list && *list && n == 0) {
        snprintf(msg, size, "aliases '%.64s' has an empty name", list);
        return msg;
    }
    return NULL;
}

/* Writes the message of a fault into msg and returns its key. */
static const char *say(char *msg, size_t size, const char *key, const char *fmt,
                       ...) SN_PRINTF(4, 5);
static const char *say(char *msg, size_t size, const char *key, const char *fmt,
                       ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, size, fmt, ap);
    va_end(ap);
    return key;
}

/* The first of keys that map has; the last when it has none. */
static const char *first_of(const struct sn_yaml *map, const char *const *keys)
{
    size_t i = 0;

    while (keys[i + 1] && !sn_yaml_get(map, keys[i]))
        i++;
    return keys[i];
}

/* The keys to point at: the experts (or the MoE pattern's keys a dense
 * model gives); the pattern that miscounts moe_layers. */
static const char *const pattern_keys[] = {"experts", "dense_layers",
                                           "moe_every", "shared_ffn", NULL};
static const char *const count_keys[] = {"dense_layers", "moe_every",
                                         "moe_layers", NULL};

/* The issue-17 fields against each other and the shape, one rule a
 * line; the first broken one is written to msg and its key returned. */
static const char *model_fault(const struct sn_model_info *m,
                               const struct sn_yaml *map, char *msg,
                               size_t size)
{
    static const char *const mla_keys[] = {
        "q_lora_rank",      "kv_lora_rank", "qk_nope_head_dim",
        "qk_rope_head_dim", "v_head_dim",   NULL,
    };
    const int mla_dims[] = {m->q_lora_rank, m->kv_lora_rank,
                            m->qk_nope_head_dim, m->qk_rope_head_dim,
                            m->v_head_dim};
    bool moe = m->experts > 1, mla = m->attention == SN_ATTN_MLA;

    for (size_t i = 0; !mla && mla_keys[i]; i++)
        if (mla_dims[i] > 0)
            return say(msg, size, mla_keys[i], "%s needs attention: mla",
                       mla_keys[i]);
    if (mla && (m->kv_lora_rank < 1 || m->v_head_dim < 1 ||
                m->qk_nope_head_dim + m->qk_rope_head_dim < 1))
        return say(msg, size, "attention",
                   "attention: mla needs kv_lora_rank, v_head_dim and "
                   "qk_nope_head_dim or qk_rope_head_dim");
    if (mla && m->head_dim > 0)
        return say(msg, size, "head_dim",
                   "head_dim is for attention: gqa (mla takes "
                   "qk_nope_head_dim, qk_rope_head_dim, v_head_dim)");
    if (!moe && (m->dense_layers > 0 || m->moe_every > 1 || m->shared_ffn > 0))
        return say(msg, size, first_of(map, pattern_keys),
                   "dense_layers, moe_every and shared_ffn need experts "
                   "of 2 or more");
    if (moe && m->dense_layers >= m->layers)
        return say(msg, size, "dense_layers",
                   "dense_layers %d leaves none of the %d layers MoE",
                   m->dense_layers, m->layers);
    if (m->shared_ffn > 0 && m->shared_experts < 1)
        return say(msg, size, "shared_ffn", "shared_ffn needs shared_experts");
    if (m->window_every > 0 && m->window < 1)
        return say(msg, size, "window_every", "window_every needs window");
    if (moe && m->moe_layers > 0 && sn_model_moe_layers(m) != m->moe_layers)
        return say(msg, size, first_of(map, count_keys),
                   "moe_layers %d disagrees with dense_layers %d and "
                   "moe_every %d (%d MoE layers of %d)",
                   m->moe_layers, m->dense_layers,
                   m->moe_every > 1 ? m->moe_every : 1, sn_model_moe_layers(m),
                   m->layers);
    return check_aliases(m->aliases, msg, size) ? "aliases" : NULL;
}

int sn_model_check(const struct sn_model_info *m, const struct sn_yaml *map,
                   const struct sn_yaml **where, char *msg, size_t size)
{
    const char *key = model_fault(m, map, msg, size);

    if (where)
        *where = key ? at(map, key) : NULL;
    return key ? SN_EINPUT : SN_OK;
}

/* Attention weights of one layer. Multi-head latent attention (DeepSeek-V2
 * arXiv:2405.04434 section 2.1): the query through a rank-q_lora
 * projection (or straight from h), keys and values through the rank-
 * kv_lora latent plus a shared rope key, output from heads x v_head_dim.
 * Otherwise q and o of heads x head_dim, k and v of kv_heads x head_dim. */
static double attn_params(const struct sn_model_info *m)
{
    double h = m->hidden, nh = m->heads;

    if (m->attention == SN_ATTN_MLA) {
        double qk = m->qk_nope_head_dim + m->qk_rope_head_dim;
        double q = m->q_lora_rank > 0
                       ? h * m->q_lora_rank + m->q_lora_rank * nh * qk
                       : h * nh * qk;
        double kv =
            h * (m->kv_lora_rank + m->qk_rope_head_dim) +
            m->kv_lora_rank * nh * (m->qk_nope_head_dim + m->v_head_dim);
        return q + kv + nh * m->v_head_dim * h;
    }
    double hd = m->head_dim > 0 ? m->head_dim : nh > 0 ? h / nh : h;
    double kv = m->kv_heads > 0 ? m->kv_heads : nh;
    return 2 * h * nh * hd + 2 * h * kv * hd;
}

static double mlp_params(const struct sn_model_info *m, double ffn)
{
    return (m->gated_mlp ? 3.0 : 2.0) * m->hidden * ffn;
}

/* A dense layer's MLP width: as given; else, in an MoE model, as wide as
 * the experts a token meets, (topk + shared) x ffn (DeepSeek-V3's 18432
 * = 9 x 2048); else ffn. */
static double dense_ffn(const struct sn_model_info *m)
{
    if (m->dense_ffn > 0)
        return m->dense_ffn;
    if (m->experts > 1)
        return (double)m->ffn *
               ((m->topk > 0 ? m->topk : 1) + m->shared_experts);
    return m->ffn;
}

/* The MLP of an MoE layer: every routed expert (or the top-k a token
 * meets), the shared experts, the router (h x experts). */
static double moe_params(const struct sn_model_info *m, bool active)
{
    double routed = active ? m->topk : m->experts;
    int shared_ffn = m->shared_ffn > 0 ? m->shared_ffn : m->ffn;

    return routed * mlp_params(m, m->ffn) +
           m->shared_experts * mlp_params(m, shared_ffn) +
           (double)m->hidden * m->experts;
}

void sn_model_parts(const struct sn_model_info *m, struct sn_model_parts *p)
{
    p->attn = attn_params(m);
    p->dense = mlp_params(m, dense_ffn(m));
    p->moe = m->experts > 1 ? moe_params(m, false) : 0;
    p->moe_active = m->experts > 1 ? moe_params(m, true) : 0;
    p->embeddings = (double)m->vocab * m->hidden * (m->tied_embeddings ? 1 : 2);
}

/* Parameters of a transformer from its dimensions, per layer attention
 * (attn_params), a dense MLP (3 or 2 matrices of h x ffn) or an MoE one
 * (moe_params); embeddings V h, twice when input and output are untied.
 * Norms and biases (a few h per layer) are left out, and so are the MTP
 * modules (sn_model_mtp_params), as DeepSeek-V3's 671B leaves them. */
void sn_model_params(const struct sn_model_info *m, double *total,
                     double *active)
{
    struct sn_model_parts p;
    double t, a;

    sn_model_parts(m, &p);
    t = a = p.embeddings;
    for (int i = 0; i < m->layers; i++) {
        bool moe = sn_model_layer_is_moe(m, i);
        t += p.attn + (moe ? p.moe : p.dense);
        a += p.attn + (moe ? p.moe_active : p.dense);
    }
    if (total)
        *total = t;
    if (active)
        *active = a;
}

/* One MTP module (DeepSeek-V3 arXiv:2412.19437 section 2.2): a transformer
 * layer like the last one and the projection of [h; embedding] (2h x h);
 * the embedding and the output head are shared with the main model. */
double sn_model_mtp_params(const struct sn_model_info *m)
{
    double h = m->hidden;
    bool moe = sn_model_layer_is_moe(m, m->layers - 1);
    double layer = attn_params(m) +
                   (moe ? moe_params(m, false) : mlp_params(m, dense_ffn(m)));

    return m->mtp_layers * (layer + 2 * h * h);
}
