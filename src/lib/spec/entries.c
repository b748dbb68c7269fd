/* entries.c: catalog entries written in a spec: the `catalog:` section
 * that adds or overrides accelerators, switches, NICs, cables and models,
 * and the inline `accelerator:` and `workload.model` mappings. An entry
 * either names a `base` (or reuses an existing name) and changes some of
 * its figures, or gives every required figure itself. */
#include <stdio.h>
#include <string.h>

#include "spec-int.h"

/* A merged list of catalog pointers: built-in ones, then the spec's. */
struct list {
    const void **items;
    size_t n;
};

static void list_init(struct sn__ctx *c, struct list *l,
                      const void *const *items, size_t n, size_t extra)
{
    l->items = sn__arena_alloc(c->arena, (n + extra) * sizeof(void *));
    memcpy(l->items, items, n * sizeof(void *));
    l->n = n;
}

/* Replace the entry of the same name, or append (room was reserved). */
static void list_put(struct list *l, const void *item)
{
    const char *name = *(const char *const *)item;

    for (size_t i = 0; i < l->n; i++) {
        if (sn_strcaseeq(*(const char *const *)l->items[i], name)) {
            l->items[i] = item;
            return;
        }
    }
    l->items[l->n++] = item;
}

/* Resolve the entry an entry starts from: `base: NAME`, else an existing
 * entry of the same name (an override), else none. */
static int find_base(struct sn__ctx *c, const struct sn_yaml *map,
                     const char *what, const char *kind, const char *name,
                     const void *const *items, size_t n, const void **out)
{
    const char *base = NULL;
    int rc;

    *out = NULL;
    if ((rc = sn__get_name(c, map, "base", what, &base)))
        return rc;
    if (!base) {
        for (size_t i = 0; name && i < n; i++)
            if (sn_strcaseeq(*(const char *const *)items[i], name))
                *out = items[i];
        return SN_OK;
    }
    for (size_t i = 0; i < n; i++)
        if (sn_strcaseeq(*(const char *const *)items[i], base))
            *out = items[i];
    if (!*out) {
        const char *near = sn__catalog_suggest(items, n, base);
        if (near)
            return sn__fail(c, sn_yaml_get(map, "base"),
                            "unknown %s '%s' in %s.base (did you mean "
                            "'%s'?)",
                            kind, base, what, near);
        return sn__fail(c, sn_yaml_get(map, "base"),
                        "unknown %s '%s' in %s.base (see 'supernode catalog "
                        "list')",
                        kind, base, what);
    }
    return SN_OK;
}

/* "given in FILE at line L" (or "over NAME") as the entry's source. */
static const char *user_source(struct sn__ctx *c, const struct sn_yaml *map,
                               const char *given, const char *base)
{
    char buf[512];

    if (given)
        snprintf(buf, sizeof(buf), "[U] %s (spec %s line %d)", given, c->file,
                 map->line);
    else if (base)
        snprintf(buf, sizeof(buf), "[U] spec %s line %d, over '%s'", c->file,
                 map->line, base);
    else
        snprintf(buf, sizeof(buf), "[U] spec %s line %d", c->file, map->line);
    return sn__arena_strdup(c->arena, buf);
}

static int need(struct sn__ctx *c, const struct sn_yaml *map, const char *what,
                const char *const *keys)
{
    for (size_t i = 0; keys[i]; i++)
        if (!sn_yaml_get(map, keys[i]))
            return sn__fail(c, map,
                            "%s has no '%s' (an entry without 'base' gives "
                            "%s)",
                            what, keys[i], keys[i]);
    return SN_OK;
}

/* The opening every catalog entry shares: a mapping with known keys, its
 * name (required when @name_required), the catalog row it builds on (by
 * 'base', or by its own name), and, without such a row, the keys an entry
 * made from nothing must give. */
static int entry_open(struct sn__ctx *c, const struct sn_yaml *map,
                      const char *what, const char *kind,
                      const char *const *keys, const char *const *required,
                      bool name_required, const void *const *items, size_t n,
                      const char **name, const void **base)
{
    int rc;

    *base = NULL;
    if ((rc = sn__expect_map(c, map, what)) ||
        (rc = sn__check_keys(c, map, what, keys)) ||
        (rc = sn__get_name(c, map, "name", what, name)))
        return rc;
    if (name_required && !*name)
        return sn__fail(c, map, "%s has no 'name'", what);
    if ((rc = find_base(c, map, what, kind, *name, items, n, base)))
        return rc;
    if (!*base && (rc = need(c, map, what, required)))
        return rc;
    return SN_OK;
}

/* ---- accelerators ------------------------------------------------------ */

static const char *const accel_keys[] = {
    "name",
    "display",
    "base",
    "vendor",
    "bf16",
    "fp8",
    "fp4",
    "int8",
    "hbm",
    "hbm_usable",
    "hbm_bandwidth",
    "scaleup_name",
    "scaleup_links",
    "scaleup_bandwidth",
    "tdp",
    "max_domain",
    "transient_factor",
    "per_node",
    "fabric",
    "tiers",
    "planes",
    "switch",
    "node_overhead",
    "scaleup_efficiency",
    "board_switches",
    "source",
    NULL,
};

/* 'hbm_usable': the driver's figure. An entry that changes 'hbm' over a
 * catalog row without giving it drops the row's figure, which belonged
 * to the other capacity. */
static int usable_hbm(struct sn__ctx *c, const struct sn_yaml *map,
                      const char *what, struct sn_accel_info *a)
{
    int rc;

    if (sn_yaml_get(map, "hbm") && !sn_yaml_get(map, "hbm_usable"))
        a->hbm_usable_bytes = 0;
    rc = sn__get_qty(c, map, "hbm_usable", what, SN_UNIT_BYTES, 1e6, 1e15,
                     &a->hbm_usable_bytes);
    if (!rc && a->hbm_usable_bytes > 0 && a->hbm_bytes > 0 &&
        a->hbm_usable_bytes > 1.1 * a->hbm_bytes)
        return sn__fail(c, sn_yaml_get(map, "hbm_usable"),
                        "%s.hbm_usable is more than 10%% over its hbm "
                        "(the driver reports at most the memory there is)",
                        what);
    return rc;
}

int sn__accel_entry(struct sn__ctx *c, const struct sn_yaml *map,
                    const char *what, const struct sn_accel_info **out)
{
    static const char *const required[] = {"bf16", "hbm", "hbm_bandwidth",
                                           NULL};
    struct sn_accel_info *a;
    const void *basep = NULL;
    const struct sn_accel_info *base;
    const char *name = NULL, *src = NULL, *sw = NULL;
    int rc, fabric = -1;

    if ((rc = entry_open(c, map, what, "accelerator", accel_keys, required,
                         false, (const void *const *)c->spec->catalog.accels,
                         c->spec->catalog.naccels, &name, &basep)))
        return rc;
    base = basep;
    a = sn__arena_alloc(c->arena, sizeof(*a));
    if (base) {
        *a = *base;
    } else {
        /* a new accelerator: figures that may be absent default to
         * "none" and to the field-practice values used for the catalog */
        a->vendor = "";
        a->scaleup_name = "";
        a->max_domain = SN_SPEC_MAX_ACCELS;
        a->transient_factor = 1.3;
        a->per_node = 8;
        a->scaleup_tiers = 1;
        a->node_overhead = 1.8;
    }
    a->name = name ? name : base ? base->name : "custom";
    if (!base || !sn_strcaseeq(a->name, base->name))
        a->display = a->name;
    if ((rc = sn__get_text(c, map, "display", what, 128, &a->display)) ||
        (rc = sn__get_text(c, map, "vendor", what, 128, &a->vendor)) ||
        (rc = sn__get_qty(c, map, "bf16", what, SN_UNIT_FLOPS, 1e9, 1e18,
                          &a->bf16_flops)) ||
        (rc = sn__get_qty(c, map, "fp8", what, SN_UNIT_FLOPS, 0, 1e18,
                          &a->fp8_flops)) ||
        (rc = sn__get_qty(c, map, "fp4", what, SN_UNIT_FLOPS, 0, 1e18,
                          &a->fp4_flops)) ||
        (rc = sn__get_qty(c, map, "int8", what, SN_UNIT_FLOPS, 0, 1e18,
                          &a->int8_ops)) ||
        (rc = sn__get_qty(c, map, "hbm", what, SN_UNIT_BYTES, 1e6, 1e15,
                          &a->hbm_bytes)) ||
        (rc = usable_hbm(c, map, what, a)) ||
        (rc = sn__get_qty(c, map, "hbm_bandwidth", what, SN_UNIT_BANDWIDTH, 1e6,
                          1e16, &a->hbm_bw)) ||
        (rc = sn__get_text(c, map, "scaleup_name", what, 128,
                           &a->scaleup_name)) ||
        (rc = sn__get_int(c, map, "scaleup_links", what, 0,
                          SN_SPEC_MAX_LINKS_PER_ACCEL, &a->scaleup_links)) ||
        (rc = sn__get_qty(c, map, "scaleup_bandwidth", what, SN_UNIT_BANDWIDTH,
                          0, 1e14, &a->scaleup_bw)) ||
        (rc = sn__get_qty(c, map, "tdp", what, SN_UNIT_POWER, 0, 1e5,
                          &a->tdp_w)) ||
        (rc = sn__get_int(c, map, "max_domain", what, 1, SN_SPEC_MAX_ACCELS,
                          &a->max_domain)) ||
        (rc = sn__get_qty(c, map, "transient_factor", what, SN_UNIT_RATIO, 1, 3,
                          &a->transient_factor)) ||
        (rc = sn__get_int(c, map, "per_node", what, 1, SN_SPEC_MAX_PER_NODE,
                          &a->per_node)) ||
        (rc =
             sn__get_enum(c, map, "fabric", what, sn__fabric_names, &fabric)) ||
        (rc = sn__get_int(c, map, "tiers", what, 1, 2, &a->scaleup_tiers)) ||
        (rc = sn__get_int(c, map, "planes", what, 0,
                          SN_SPEC_MAX_LINKS_PER_ACCEL, &a->scaleup_planes)) ||
        (rc = sn__get_name(c, map, "switch", what, &sw)) ||
        (rc = sn__get_qty(c, map, "node_overhead", what, SN_UNIT_RATIO, 1, 10,
                          &a->node_overhead)) ||
        (rc = sn__get_qty(c, map, "scaleup_efficiency", what, SN_UNIT_RATIO, 0,
                          1, &a->scaleup_eff)) ||
        (rc = sn__get_int(c, map, "board_switches", what, 0,
                          SN_SPEC_MAX_LINKS_PER_ACCEL, &a->board_switches)) ||
        (rc = sn__get_text(c, map, "source", what, 400, &src)))
        return rc;
    if (fabric >= 0)
        a->fabric = (enum sn_fabric)fabric;
    else if (!base)
        a->fabric = a->scaleup_links > 0 ? SN_FABRIC_SWITCHED : SN_FABRIC_NONE;
    if (sw) {
        const struct sn_switch_info *s =
            sn_catalog_switch(&c->spec->catalog, sw);
        if (!s) {
            const char *near = sn__catalog_suggest(
                (const void *const *)c->spec->catalog.switches,
                c->spec->catalog.nswitches, sw);
            return sn__fail(c, sn_yaml_get(map, "switch"),
                            "unknown switch '%s' in %s.switch%s%s%s", sw, what,
                            near ? " (did you mean '" : "", near ? near : "",
                            near ? "'?)" : "");
        }
        a->switch_name = s->name;
    }
    if ((a->scaleup_links > 0) != (a->scaleup_bw > 0))
        return sn__fail(c, sn__at(map, "scaleup_links"),
                        "%s: scaleup_links (%d) and scaleup_bandwidth must be "
                        "both zero or both set",
                        what, a->scaleup_links);
    a->confidence = SN_CONF_USER;
    a->source = user_source(c, map, src, base ? base->name : NULL);
    *out = a;
    return SN_OK;
}

/* ---- switches, NICs, cables ------------------------------------------- */

static const char *const switch_keys[] = {
    "name",           "display",       "base",
    "vendor",         "scale_up",      "radix",
    "port_bandwidth", "power",         "in_network_reduction",
    "latency",        "chips_per_box", "rack_units",
    "ports_per_cage", "source",        NULL,
};

static int switch_entry(struct sn__ctx *c, const struct sn_yaml *map,
                        const char *what, struct list *l)
{
    static const char *const required[] = {"name", "radix", "port_bandwidth",
                                           NULL};
    struct sn_switch_info *s;
    const void *basep;
    const struct sn_switch_info *base;
    const char *name = NULL, *src = NULL;
    int rc;

    if ((rc = entry_open(c, map, what, "switch", switch_keys, required, true,
                         (const void *const *)l->items, l->n, &name, &basep)))
        return rc;
    base = basep;
    s = sn__arena_alloc(c->arena, sizeof(*s));
    if (base) {
        *s = *base;
    } else {
        s->vendor = "";
        s->chips_per_box = 1;
        s->rack_units = 1;
    }
    if (!base || !sn_strcaseeq(name, base->name))
        s->display = name;
    s->name = name;
    if ((rc = sn__get_text(c, map, "display", what, 128, &s->display)) ||
        (rc = sn__get_text(c, map, "vendor", what, 128, &s->vendor)) ||
        (rc = sn__get_bool(c, map, "scale_up", what, &s->scale_up)) ||
        (rc = sn__get_int(c, map, "radix", what, 2, SN_SPEC_MAX_RADIX,
                          &s->radix)) ||
        (rc = sn__get_qty(c, map, "port_bandwidth", what, SN_UNIT_BANDWIDTH,
                          1e6, 1e13, &s->port_bw)) ||
        (rc = sn__get_qty(c, map, "power", what, SN_UNIT_POWER, 0, 1e5,
                          &s->power_w)) ||
        (rc = sn__get_bool(c, map, "in_network_reduction", what,
                           &s->in_network_reduction)) ||
        (rc = sn__get_qty(c, map, "latency", what, SN_UNIT_TIME, 0, 1e-3,
                          &s->latency)) ||
        (rc = sn__get_int(c, map, "chips_per_box", what, 1, 64,
                          &s->chips_per_box)) ||
        (rc = sn__get_int(c, map, "rack_units", what, 0, 48, &s->rack_units)) ||
        (rc = sn__get_int(c, map, "ports_per_cage", what, 1, 8,
                          &s->ports_per_cage)) ||
        (rc = sn__get_text(c, map, "source", what, 400, &src)))
        return rc;
    s->confidence = SN_CONF_USER;
    s->source = user_source(c, map, src, base ? base->name : NULL);
    list_put(l, s);
    return SN_OK;
}

static const char *const nic_keys[] = {
    "name",  "display", "base",           "vendor", "rate",
    "ports", "power",   "ports_per_cage", "source", NULL,
};

static int nic_entry(struct sn__ctx *c, const struct sn_yaml *map,
                     const char *what, struct list *l)
{
    static const char *const required[] = {"name", "rate", NULL};
    struct sn_nic_info *x;
    const void *basep;
    const struct sn_nic_info *base;
    const char *name = NULL, *src = NULL;
    int rc;

    if ((rc = entry_open(c, map, what, "nic", nic_keys, required, true,
                         (const void *const *)l->items, l->n, &name, &basep)))
        return rc;
    base = basep;
    x = sn__arena_alloc(c->arena, sizeof(*x));
    if (base) {
        *x = *base;
    } else {
        x->vendor = "";
        x->ports = 1;
    }
    if (!base || !sn_strcaseeq(name, base->name))
        x->display = name;
    x->name = name;
    if ((rc = sn__get_text(c, map, "display", what, 128, &x->display)) ||
        (rc = sn__get_text(c, map, "vendor", what, 128, &x->vendor)) ||
        (rc = sn__get_qty(c, map, "rate", what, SN_UNIT_BANDWIDTH, 1e6, 1e13,
                          &x->rate)) ||
        (rc = sn__get_int(c, map, "ports", what, 1, 16, &x->ports)) ||
        (rc = sn__get_qty(c, map, "power", what, SN_UNIT_POWER, 0, 1e4,
                          &x->power_w)) ||
        (rc = sn__get_int(c, map, "ports_per_cage", what, 1, 8,
                          &x->ports_per_cage)) ||
        (rc = sn__get_text(c, map, "source", what, 400, &src)))
        return rc;
    x->confidence = SN_CONF_USER;
    x->source = user_source(c, map, src, base ? base->name : NULL);
    list_put(l, x);
    return SN_OK;
}

static const char *const cable_keys[] = {
    "name", "display",           "base",     "medium",           "reach",
    "rate", "transceiver_power", "scale_up", "links_per_module", "source",
    NULL,
};

static int cable_entry(struct sn__ctx *c, const struct sn_yaml *map,
                       const char *what, struct list *l)
{
    static const char *const required[] = {"name", "medium", "reach", "rate",
                                           NULL};
    struct sn_cable_info *x;
    const void *basep;
    const struct sn_cable_info *base;
    const char *name = NULL, *src = NULL;
    int rc, medium = -1;

    if ((rc = entry_open(c, map, what, "cable", cable_keys, required, true,
                         (const void *const *)l->items, l->n, &name, &basep)))
        return rc;
    base = basep;
    x = sn__arena_alloc(c->arena, sizeof(*x));
    if (base)
        *x = *base;
    if (!base || !sn_strcaseeq(name, base->name))
        x->display = name;
    x->name = name;
    if ((rc = sn__get_text(c, map, "display", what, 128, &x->display)) ||
        (rc =
             sn__get_enum(c, map, "medium", what, sn__medium_names, &medium)) ||
        (rc = sn__get_qty(c, map, "reach", what, SN_UNIT_LENGTH, 0.01, 1e5,
                          &x->max_reach)) ||
        (rc = sn__get_qty(c, map, "rate", what, SN_UNIT_BANDWIDTH, 1e6, 1e13,
                          &x->rate)) ||
        (rc = sn__get_qty(c, map, "transceiver_power", what, SN_UNIT_POWER, 0,
                          100, &x->transceiver_power_w)) ||
        (rc = sn__get_bool(c, map, "scale_up", what, &x->scale_up)) ||
        (rc = sn__get_int(c, map, "links_per_module", what, 1, 16,
                          &x->links_per_module)) ||
        (rc = sn__get_text(c, map, "source", what, 400, &src)))
        return rc;
    if (medium >= 0)
        x->medium = (enum sn_medium)medium;
    /* optics are pluggable modules at both ends; copper and AOC are not */
    x->needs_transceivers =
        x->medium == SN_MEDIUM_MMF || x->medium == SN_MEDIUM_SMF;
    x->confidence = SN_CONF_USER;
    x->source = user_source(c, map, src, base ? base->name : NULL);
    list_put(l, x);
    return SN_OK;
}

/* ---- models ------------------------------------------------------------- */

static const char *const model_keys[] = {
    "name",
    "display",
    "base",
    "layers",
    "hidden",
    "heads",
    "kv_heads",
    "ffn",
    "dense_ffn",
    "vocab",
    "seq",
    "gated_mlp",
    "experts",
    "topk",
    "shared_experts",
    "moe_layers",
    "tied_embeddings",
    "params",
    "active_params",
    "source",
    "aliases",
    "attention",
    "head_dim",
    "q_lora_rank",
    "kv_lora_rank",
    "qk_nope_head_dim",
    "qk_rope_head_dim",
    "v_head_dim",
    "dense_layers",
    "moe_every",
    "shared_ffn",
    "window",
    "window_every",
    "mtp_layers",
    NULL,
};

/* Keys that change the shape, and with it the parameter count. */
static const char *const model_dims[] = {
    "layers",
    "hidden",
    "heads",
    "kv_heads",
    "ffn",
    "dense_ffn",
    "vocab",
    "gated_mlp",
    "experts",
    "topk",
    "shared_experts",
    "moe_layers",
    "tied_embeddings",
    "attention",
    "head_dim",
    "q_lora_rank",
    "kv_lora_rank",
    "qk_nope_head_dim",
    "qk_rope_head_dim",
    "v_head_dim",
    "dense_layers",
    "moe_every",
    "shared_ffn",
    NULL,
};

static const char *const attention_names[] = {"gqa", "mla", NULL};

/* The keys of multi-head latent attention, which need attention: mla. */
static const char *const mla_keys[] = {
    "q_lora_rank",      "kv_lora_rank", "qk_nope_head_dim",
    "qk_rope_head_dim", "v_head_dim",   NULL,
};

/* The issue-17 keys: attention and its dimensions, the dense/MoE layer
 * pattern, sliding windows, MTP modules, aliases. attention: gqa clears a
 * base's MLA dimensions. */
static int model_get_moe(struct sn__ctx *c, const struct sn_yaml *map,
                         const char *what, struct sn_model_info *m)
{
    int att = m->attention, rc;

    if ((rc = sn__get_enum(c, map, "attention", what, attention_names, &att)))
        return rc;
    m->attention = (enum sn_attention)att;
    if (m->attention == SN_ATTN_GQA)
        m->q_lora_rank = m->kv_lora_rank = m->qk_nope_head_dim =
            m->qk_rope_head_dim = m->v_head_dim = 0;
    for (size_t i = 0; m->attention != SN_ATTN_MLA && mla_keys[i]; i++)
        if (sn_yaml_get(map, mla_keys[i]))
            return sn__fail(c, sn__at(map, mla_keys[i]),
                            "%s: %s needs attention: mla", what, mla_keys[i]);
    if ((rc = sn__get_int(c, map, "head_dim", what, 1, 65536, &m->head_dim)) ||
        (rc = sn__get_int(c, map, "q_lora_rank", what, 0, 1 << 20,
                          &m->q_lora_rank)) ||
        (rc = sn__get_int(c, map, "kv_lora_rank", what, 1, 1 << 20,
                          &m->kv_lora_rank)) ||
        (rc = sn__get_int(c, map, "qk_nope_head_dim", what, 0, 65536,
                          &m->qk_nope_head_dim)) ||
        (rc = sn__get_int(c, map, "qk_rope_head_dim", what, 0, 65536,
                          &m->qk_rope_head_dim)) ||
        (rc = sn__get_int(c, map, "v_head_dim", what, 1, 65536,
                          &m->v_head_dim)) ||
        (rc = sn__get_int(c, map, "dense_layers", what, 0, 1000,
                          &m->dense_layers)) ||
        (rc = sn__get_int(c, map, "moe_every", what, 1, 1000, &m->moe_every)) ||
        (rc = sn__get_int(c, map, "shared_ffn", what, 1, 1 << 22,
                          &m->shared_ffn)) ||
        (rc = sn__get_int(c, map, "window", what, 1, 100000000, &m->window)) ||
        (rc = sn__get_int(c, map, "window_every", what, 1, 1000,
                          &m->window_every)) ||
        (rc = sn__get_int(c, map, "mtp_layers", what, 0, 64, &m->mtp_layers)) ||
        (rc = sn__get_text(c, map, "aliases", what, 400, &m->aliases)))
        return rc;
    return SN_OK;
}

/* What the issue-17 keys need of each other and of the shape
 * (sn_model_check), located at the key at fault. */
static int model_check_moe(struct sn__ctx *c, const struct sn_yaml *map,
                           const char *what, const struct sn_model_info *m)
{
    const struct sn_yaml *where;
    char msg[256];

    if (!sn_model_check(m, map, &where, msg, sizeof(msg)))
        return SN_OK;
    return sn__fail(c, where, "%s: %s", what, msg);
}

static int model_check(struct sn__ctx *c, const struct sn_yaml *map,
                       const char *what, const struct sn_model_info *m)
{
    if (m->hidden % m->heads)
        return sn__fail(c, sn__at(map, "heads"),
                        "%s: hidden %d is not a multiple of heads %d", what,
                        m->hidden, m->heads);
    if (m->kv_heads > m->heads || m->heads % m->kv_heads)
        return sn__fail(c, sn__at(map, "kv_heads"),
                        "%s: kv_heads %d does not divide heads %d", what,
                        m->kv_heads, m->heads);
    if (m->experts > 1) {
        if (m->topk < 1 || m->topk > m->experts)
            return sn__fail(c, sn__at(map, "topk"),
                            "%s: topk %d is out of range (expected 1 to the "
                            "%d experts)",
                            what, m->topk, m->experts);
    } else if (m->topk > 0 || m->shared_experts > 0 || m->moe_layers > 0) {
        return sn__fail(c, sn__at(map, "experts"),
                        "%s: topk, shared_experts and moe_layers need "
                        "experts of 2 or more",
                        what);
    }
    if (m->moe_layers > m->layers)
        return sn__fail(c, sn__at(map, "moe_layers"),
                        "%s: moe_layers %d exceeds layers %d", what,
                        m->moe_layers, m->layers);
    if (m->active_params > m->params * (1 + 1e-9))
        return sn__fail(c, sn__at(map, "active_params"),
                        "%s: active_params exceeds params", what);
    return SN_OK;
}

int sn__model_entry(struct sn__ctx *c, const struct sn_yaml *map,
                    const char *what, const struct sn_model_info **out)
{
    static const char *const required[] = {"layers", "hidden", "heads", "vocab",
                                           NULL};
    struct sn_model_info *m;
    const void *basep;
    const struct sn_model_info *base;
    const char *name = NULL, *src = NULL;
    bool reshaped = false;
    int rc;

    if ((rc = entry_open(c, map, what, "model", model_keys, required, false,
                         (const void *const *)c->spec->catalog.models,
                         c->spec->catalog.nmodels, &name, &basep)))
        return rc;
    base = basep;
    m = sn__arena_alloc(c->arena, sizeof(*m));
    if (base) {
        *m = *base;
    } else {
        m->seq = 2048;
        m->tied_embeddings = true;
    }
    m->name = name ? name : base ? base->name : "custom";
    if (!base || !sn_strcaseeq(m->name, base->name))
        m->display = m->name;
    if ((rc = sn__get_text(c, map, "display", what, 128, &m->display)) ||
        (rc = sn__get_int(c, map, "layers", what, 1, 1000, &m->layers)) ||
        (rc = sn__get_int(c, map, "hidden", what, 1, 1 << 20, &m->hidden)) ||
        (rc = sn__get_int(c, map, "heads", what, 1, 65536, &m->heads)) ||
        (rc = sn__get_int(c, map, "kv_heads", what, 1, 65536, &m->kv_heads)) ||
        (rc = sn__get_int(c, map, "ffn", what, 1, 1 << 22, &m->ffn)) ||
        (rc = sn__get_int(c, map, "dense_ffn", what, 0, 1 << 22,
                          &m->dense_ffn)) ||
        (rc = sn__get_int(c, map, "vocab", what, 1, 10000000, &m->vocab)) ||
        (rc = sn__get_int(c, map, "seq", what, 1, 100000000, &m->seq)) ||
        (rc = sn__get_bool(c, map, "gated_mlp", what, &m->gated_mlp)) ||
        (rc = sn__get_int(c, map, "experts", what, 0, 100000, &m->experts)) ||
        (rc = sn__get_int(c, map, "topk", what, 0, 1024, &m->topk)) ||
        (rc = sn__get_int(c, map, "shared_experts", what, 0, 1024,
                          &m->shared_experts)) ||
        (rc = sn__get_int(c, map, "moe_layers", what, 0, 1000,
                          &m->moe_layers)) ||
        (rc = sn__get_bool(c, map, "tied_embeddings", what,
                           &m->tied_embeddings)) ||
        (rc = sn__get_text(c, map, "source", what, 400, &src)) ||
        (rc = model_get_moe(c, map, what, m)))
        return rc;
    if (!base) {
        if (!sn_yaml_get(map, "kv_heads"))
            m->kv_heads = m->heads;
        if (!sn_yaml_get(map, "ffn"))
            m->ffn = 4 * m->hidden; /* the GPT shape */
    }
    for (size_t i = 0; model_dims[i]; i++)
        reshaped = reshaped || sn_yaml_get(map, model_dims[i]);
    /* a new shape without a published count: count it from the shape */
    if (!base || reshaped)
        sn_model_params(m, &m->params, &m->active_params);
    if ((rc = sn__get_qty(c, map, "params", what, SN_UNIT_COUNT, 1e3, 1e15,
                          &m->params)) ||
        (rc = sn__get_qty(c, map, "active_params", what, SN_UNIT_COUNT, 1e3,
                          1e15, &m->active_params)))
        return rc;
    if (m->experts <= 1 && !sn_yaml_get(map, "active_params"))
        m->active_params = m->params;
    if ((rc = model_check(c, map, what, m)) ||
        (rc = model_check_moe(c, map, what, m)))
        return rc;
    /* the count the training model reads when the pattern gives it */
    if (m->experts > 1 && m->moe_layers == 0 &&
        (m->dense_layers > 0 || m->moe_every > 1))
        m->moe_layers = sn_model_moe_layers(m);
    m->confidence = SN_CONF_USER;
    m->source = user_source(c, map, src, base ? base->name : NULL);
    *out = m;
    return SN_OK;
}

/* ---- the catalog: section --------------------------------------------- */

static const char *const catalog_keys[] = {
    "accelerators", "switches", "nics", "cables", "models", NULL,
};

/* The list under key, checked for type and size; NULL when absent. */
static int entries(struct sn__ctx *c, const struct sn_yaml *section,
                   const char *key, const struct sn_yaml **out)
{
    const struct sn_yaml *n = sn_yaml_get(section, key);

    *out = NULL;
    if (!n)
        return SN_OK;
    if (n->type != SN_YAML_SEQ)
        return sn__fail(c, n, "catalog.%s is %s (expected a list of entries)",
                        key, sn_yaml_type_name(n->type));
    if (n->n > SN_SPEC_MAX_ENTRIES)
        return sn__fail(c, n, "catalog.%s has %zu entries (at most %d)", key,
                        n->n, SN_SPEC_MAX_ENTRIES);
    *out = n;
    return SN_OK;
}

int sn__catalog_load(struct sn__ctx *c, const struct sn_yaml *section)
{
    const struct sn_catalog *b = sn_catalog_builtin();
    struct sn_catalog *cat = &c->spec->catalog;
    const struct sn_yaml *acc, *sw, *nic, *cab, *mod;
    struct list l;
    char what[64];
    int rc;

    *cat = *b;
    if (!section)
        return SN_OK;
    if ((rc = sn__expect_map(c, section, "catalog")) ||
        (rc = sn__check_keys(c, section, "catalog", catalog_keys)) ||
        (rc = entries(c, section, "accelerators", &acc)) ||
        (rc = entries(c, section, "switches", &sw)) ||
        (rc = entries(c, section, "nics", &nic)) ||
        (rc = entries(c, section, "cables", &cab)) ||
        (rc = entries(c, section, "models", &mod)))
        return rc;
    /* switches first: accelerators may name one as their default */
    if (sw) {
        list_init(c, &l, (const void *const *)b->switches, b->nswitches, sw->n);
        for (size_t i = 0; i < sw->n; i++) {
            snprintf(what, sizeof(what), "catalog.switches[%zu]", i);
            if ((rc = switch_entry(c, sw->items[i], what, &l)))
                return rc;
        }
        cat->switches = (const struct sn_switch_info *const *)l.items;
        cat->nswitches = l.n;
    }
    if (nic) {
        list_init(c, &l, (const void *const *)b->nics, b->nnics, nic->n);
        for (size_t i = 0; i < nic->n; i++) {
            snprintf(what, sizeof(what), "catalog.nics[%zu]", i);
            if ((rc = nic_entry(c, nic->items[i], what, &l)))
                return rc;
        }
        cat->nics = (const struct sn_nic_info *const *)l.items;
        cat->nnics = l.n;
    }
    if (cab) {
        list_init(c, &l, (const void *const *)b->cables, b->ncables, cab->n);
        for (size_t i = 0; i < cab->n; i++) {
            snprintf(what, sizeof(what), "catalog.cables[%zu]", i);
            if ((rc = cable_entry(c, cab->items[i], what, &l)))
                return rc;
        }
        cat->cables = (const struct sn_cable_info *const *)l.items;
        cat->ncables = l.n;
    }
    if (acc) {
        list_init(c, &l, (const void *const *)b->accels, b->naccels, acc->n);
        for (size_t i = 0; i < acc->n; i++) {
            const struct sn_accel_info *a;
            snprintf(what, sizeof(what), "catalog.accelerators[%zu]", i);
            if (!sn_yaml_get(acc->items[i], "name") &&
                acc->items[i]->type == SN_YAML_MAP)
                return sn__fail(c, acc->items[i], "%s has no 'name'", what);
            /* entries see the ones before them */
            cat->accels = (const struct sn_accel_info *const *)l.items;
            cat->naccels = l.n;
            if ((rc = sn__accel_entry(c, acc->items[i], what, &a)))
                return rc;
            list_put(&l, a);
        }
        cat->accels = (const struct sn_accel_info *const *)l.items;
        cat->naccels = l.n;
    }
    if (mod) {
        list_init(c, &l, (const void *const *)b->models, b->nmodels, mod->n);
        for (size_t i = 0; i < mod->n; i++) {
            const struct sn_model_info *m;
            snprintf(what, sizeof(what), "catalog.models[%zu]", i);
            if (!sn_yaml_get(mod->items[i], "name") &&
                mod->items[i]->type == SN_YAML_MAP)
                return sn__fail(c, mod->items[i], "%s has no 'name'", what);
            cat->models = (const struct sn_model_info *const *)l.items;
            cat->nmodels = l.n;
            if ((rc = sn__model_entry(c, mod->items[i], what, &m)))
                return rc;
            list_put(&l, m);
        }
        cat->models = (const struct sn_model_info *const *)l.items;
        cat->nmodels = l.n;
    }
    return SN_OK;
}
