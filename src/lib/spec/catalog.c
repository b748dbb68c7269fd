/* catalog.c: the built-in catalog of accelerators, switch chips and boxes,
 * NICs, cables and model presets, assembled from its tables
 * (catalog-accels.c, catalog-parts.c, catalog-models.c), and the lookups
 * over any catalog: by name, a cable by reach, the nearest name, the
 * names of the enums. Units are SI: FLOP/s, bytes, bytes/s per direction,
 * W, s, m. */
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

const struct sn_model_info *sn_catalog_model(const struct sn_catalog *c,
                                             const char *name)
{
    return find((const void *const *)c->models, c->nmodels, name);
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
        if (x->scale_up || x->medium == SN_MEDIUM_BOARD)
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

/* Parameters of a transformer from its dimensions: per layer, attention
 * q and o (2h^2) plus k and v (2 h kv_heads h/heads), MLP (3 or 2 matrices
 * of h x ffn) per expert, router h x experts on MoE layers; embeddings
 * V h, twice when input and output are untied. Norms and biases (a few h
 * per layer) are left out. */
void sn__model_params(const struct sn_model_info *m, double *total,
                      double *active)
{
    double h = m->hidden, l = m->layers;
    double head_dim = m->heads > 0 ? h / m->heads : h;
    double kv = m->kv_heads > 0 ? m->kv_heads : m->heads;
    double attn = 2 * h * h + 2 * h * kv * head_dim;
    double mats = m->gated_mlp ? 3 : 2;
    double mlp = mats * h * m->ffn;
    double dense_mlp = mats * h * (m->dense_ffn > 0 ? m->dense_ffn : m->ffn);
    double emb = (double)m->vocab * h * (m->tied_embeddings ? 1 : 2);
    double moe_l = 0, dense_l = l, t, a;

    if (m->experts > 1) {
        moe_l = m->moe_layers > 0 ? m->moe_layers : l;
        dense_l = l - moe_l;
    }
    t = dense_l * (attn + dense_mlp) + emb;
    a = t;
    if (moe_l > 0) {
        double per = attn + h * m->experts;
        t += moe_l * (per + (m->experts + m->shared_experts) * mlp);
        a += moe_l * (per + (m->topk + m->shared_experts) * mlp);
    }
    if (total)
        *total = t;
    if (active)
        *active = a;
}
