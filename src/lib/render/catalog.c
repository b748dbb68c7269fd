/* catalog.c (render): the catalog as `supernode catalog` shows it: a
 * table per kind of part (accelerators, switches, NICs, cables, model
 * presets) or every field of one entry with its source, as text or the
 * SN_SCHEMA_CATALOG document (SI units). */
#include <stdio.h>
#include <string.h>

#include "sn/render.h"
#include "sn/spec.h"

enum kind {
    K_ACCEL = SN_RENDER_CATALOG_ACCEL,
    K_SWITCH,
    K_NIC,
    K_CABLE,
    K_MODEL,
    K_COUNT
};

static const char *const kind_names[] = {"accelerators", "switches", "nics",
                                         "cables",       "models",   NULL};
static const char *const kind_one[] = {"accelerator", "switch", "nic", "cable",
                                       "model"};

/* Key-value output: JSON members, or "key: value" lines. */
struct kv {
    bool json;
    struct sn_json j;
    struct sn_buf *out;
};

static void kv_str(struct kv *o, const char *key, const char *v)
{
    if (o->json)
        sn_json_kstr(&o->j, key, v ? v : "");
    else {
        /* a spec's own entries bring free text (vendor, source) */
        sn_buf_printf(o->out, "  %-22s ", key);
        sn_buf_put_esc(o->out, SN_ESC_TERM, v);
        sn_buf_putc(o->out, '\n');
    }
}

static void kv_int(struct kv *o, const char *key, long long v)
{
    if (o->json)
        sn_json_kint(&o->j, key, v);
    else
        sn_buf_printf(o->out, "  %-22s %lld\n", key, v);
}

static void kv_bool(struct kv *o, const char *key, bool v)
{
    if (o->json)
        sn_json_kbool(&o->j, key, v);
    else
        sn_buf_printf(o->out, "  %-22s %s\n", key, v ? "yes" : "no");
}

/* A quantity: the SI number under jkey in JSON, with its unit in text. */
static void kv_qty(struct kv *o, const char *key, const char *jkey, double v,
                   enum sn_unit_kind k)
{
    char buf[48];

    if (o->json) {
        sn_json_knum(&o->j, jkey, v);
        return;
    }
    if (k == SN_UNIT_COUNT || k == SN_UNIT_RATIO)
        sn_fmt_double(v, 6, buf, sizeof(buf));
    else
        sn_unit_format(v, k, buf, sizeof(buf));
    sn_buf_printf(o->out, "  %-22s %s\n", key, buf);
}

/* Same for a figure the catalog leaves at 0 when it is not published. */
static void kv_pub(struct kv *o, const char *key, const char *jkey, double v,
                   enum sn_unit_kind k)
{
    if (v == 0 && !o->json)
        sn_buf_printf(o->out, "  %-22s not published\n", key);
    else
        kv_qty(o, key, jkey, v, k);
}

/* Parameters the way papers print them: 70.6B, 1.01T. */
static const char *fmt_params(double v, char *buf, size_t n)
{
    if (v >= 1e12)
        snprintf(buf, n, "%.3gT", v / 1e12);
    else if (v >= 1e9)
        snprintf(buf, n, "%.3gB", v / 1e9);
    else
        snprintf(buf, n, "%.3gM", v / 1e6);
    return buf;
}

static void show_accel(struct kv *o, const struct sn_accel_info *a)
{
    struct sn_accel_host host;

    kv_str(o, "name", a->name);
    kv_str(o, "display", a->display);
    kv_str(o, "vendor", a->vendor);
    kv_qty(o, "bf16", "bf16_flops", a->bf16_flops, SN_UNIT_FLOPS);
    kv_qty(o, "fp8", "fp8_flops", a->fp8_flops, SN_UNIT_FLOPS);
    kv_qty(o, "fp4", "fp4_flops", a->fp4_flops, SN_UNIT_FLOPS);
    if (a->int8_ops > 0) /* INT8 operations/s, written as FLOPS */
        kv_qty(o, "int8", "int8_ops", a->int8_ops, SN_UNIT_FLOPS);
    kv_qty(o, "hbm", "hbm_bytes", a->hbm_bytes, SN_UNIT_BYTES);
    if (a->hbm_usable_bytes > 0)
        kv_qty(o, "hbm_usable", "hbm_usable_bytes", a->hbm_usable_bytes,
               SN_UNIT_BYTES);
    kv_qty(o, "hbm_bandwidth", "hbm_bw", a->hbm_bw, SN_UNIT_BANDWIDTH);
    kv_str(o, "scaleup_name", a->scaleup_name);
    kv_int(o, "scaleup_links", a->scaleup_links);
    kv_qty(o, "scaleup_bandwidth", "scaleup_bw", a->scaleup_bw,
           SN_UNIT_BANDWIDTH);
    kv_pub(o, "tdp", "tdp_w", a->tdp_w, SN_UNIT_POWER);
    kv_int(o, "max_domain", a->max_domain);
    kv_qty(o, "transient_factor", "transient_factor", a->transient_factor,
           SN_UNIT_RATIO);
    kv_int(o, "per_node", a->per_node);
    kv_str(o, "fabric", sn_fabric_name(a->fabric));
    kv_int(o, "tiers", a->scaleup_tiers);
    kv_int(o, "planes", a->scaleup_planes);
    kv_str(o, "switch", a->switch_name ? a->switch_name : "");
    kv_qty(o, "node_overhead", "node_overhead", a->node_overhead,
           SN_UNIT_RATIO);
    kv_int(o, "board_switches", a->board_switches);
    sn_accel_host(a, &host);
    kv_int(o, "host_cpus", host.cpus);
    kv_qty(o, "host_bandwidth", "host_bw", host.bw, SN_UNIT_BANDWIDTH);
    kv_str(o, "host_link", host.link);
    if (a->scaleup_eff > 0)
        kv_qty(o, "scaleup_efficiency", "scaleup_eff", a->scaleup_eff,
               SN_UNIT_RATIO);
    kv_bool(o, "roadmap", a->roadmap);
    kv_str(o, "confidence", sn_confidence_mark(a->confidence));
    kv_str(o, "source", a->source);
}

static void show_switch(struct kv *o, const struct sn_switch_info *s)
{
    kv_str(o, "name", s->name);
    kv_str(o, "display", s->display);
    kv_str(o, "vendor", s->vendor);
    kv_bool(o, "scale_up", s->scale_up);
    kv_int(o, "radix", s->radix);
    kv_qty(o, "port_bandwidth", "port_bw", s->port_bw, SN_UNIT_BANDWIDTH);
    kv_pub(o, "power", "power_w", s->power_w, SN_UNIT_POWER);
    kv_bool(o, "in_network_reduction", s->in_network_reduction);
    kv_pub(o, "latency", "latency_s", s->latency, SN_UNIT_TIME);
    kv_int(o, "chips_per_box", s->chips_per_box);
    kv_int(o, "rack_units", s->rack_units);
    kv_str(o, "confidence", sn_confidence_mark(s->confidence));
    kv_str(o, "source", s->source);
}

static void show_nic(struct kv *o, const struct sn_nic_info *n)
{
    kv_str(o, "name", n->name);
    kv_str(o, "display", n->display);
    kv_str(o, "vendor", n->vendor);
    kv_qty(o, "rate", "rate", n->rate, SN_UNIT_BANDWIDTH);
    kv_int(o, "ports", n->ports);
    kv_pub(o, "power", "power_w", n->power_w, SN_UNIT_POWER);
    kv_str(o, "confidence", sn_confidence_mark(n->confidence));
    kv_str(o, "source", n->source);
}

static void show_cable(struct kv *o, const struct sn_cable_info *c)
{
    kv_str(o, "name", c->name);
    kv_str(o, "display", c->display);
    kv_str(o, "medium", sn_medium_name(c->medium));
    kv_qty(o, "reach", "max_reach_m", c->max_reach, SN_UNIT_LENGTH);
    kv_qty(o, "rate", "rate", c->rate, SN_UNIT_BANDWIDTH);
    kv_qty(o, "transceiver_power", "transceiver_power_w",
           c->transceiver_power_w, SN_UNIT_POWER);
    kv_bool(o, "needs_transceivers", c->needs_transceivers);
    kv_int(o, "links_per_module",
           c->links_per_module > 1 ? c->links_per_module : 1);
    kv_bool(o, "scale_up", c->scale_up);
    kv_str(o, "confidence", sn_confidence_mark(c->confidence));
    kv_str(o, "source", c->source);
}

static void show_model(struct kv *o, const struct sn_model_info *m)
{
    kv_str(o, "name", m->name);
    kv_str(o, "display", m->display);
    kv_int(o, "layers", m->layers);
    kv_int(o, "hidden", m->hidden);
    kv_int(o, "heads", m->heads);
    kv_int(o, "kv_heads", m->kv_heads);
    kv_int(o, "ffn", m->ffn);
    kv_int(o, "dense_ffn", m->dense_ffn);
    kv_int(o, "vocab", m->vocab);
    kv_int(o, "seq", m->seq);
    kv_bool(o, "gated_mlp", m->gated_mlp);
    kv_bool(o, "tied_embeddings", m->tied_embeddings);
    kv_int(o, "experts", m->experts);
    kv_int(o, "topk", m->topk);
    kv_int(o, "shared_experts", m->shared_experts);
    kv_int(o, "moe_layers", m->moe_layers);
    kv_int(o, "dense_layers", m->dense_layers);
    kv_int(o, "moe_every", m->moe_every);
    kv_int(o, "shared_ffn", m->shared_ffn);
    kv_str(o, "attention", m->attention == SN_ATTN_MLA ? "mla" : "gqa");
    kv_int(o, "head_dim", m->head_dim);
    kv_int(o, "q_lora_rank", m->q_lora_rank);
    kv_int(o, "kv_lora_rank", m->kv_lora_rank);
    kv_int(o, "qk_nope_head_dim", m->qk_nope_head_dim);
    kv_int(o, "qk_rope_head_dim", m->qk_rope_head_dim);
    kv_int(o, "v_head_dim", m->v_head_dim);
    kv_int(o, "window", m->window);
    kv_int(o, "window_every", m->window_every);
    kv_int(o, "mtp_layers", m->mtp_layers);
    /* none: "-" in text, as `catalog list` writes it; "" in JSON */
    kv_str(o, "aliases",
           m->aliases && *m->aliases ? m->aliases : (o->json ? "" : "-"));
    kv_qty(o, "params", "params", m->params, SN_UNIT_COUNT);
    kv_qty(o, "active_params", "active_params", m->active_params,
           SN_UNIT_COUNT);
    kv_str(o, "confidence", sn_confidence_mark(m->confidence));
    kv_str(o, "source", m->source);
}

static size_t kind_count(const struct sn_catalog *c, enum kind k)
{
    switch (k) {
    case K_ACCEL:
        return c->naccels;
    case K_SWITCH:
        return c->nswitches;
    case K_NIC:
        return c->nnics;
    case K_CABLE:
        return c->ncables;
    case K_MODEL:
        return c->nmodels;
    default:
        return 0;
    }
}

static const void *kind_item(const struct sn_catalog *c, enum kind k, size_t i)
{
    switch (k) {
    case K_ACCEL:
        return c->accels[i];
    case K_SWITCH:
        return c->switches[i];
    case K_NIC:
        return c->nics[i];
    case K_CABLE:
        return c->cables[i];
    case K_MODEL:
        return c->models[i];
    default:
        return NULL;
    }
}

static void show_item(struct kv *o, enum kind k, const void *item)
{
    switch (k) {
    case K_ACCEL:
        show_accel(o, item);
        break;
    case K_SWITCH:
        show_switch(o, item);
        break;
    case K_NIC:
        show_nic(o, item);
        break;
    case K_CABLE:
        show_cable(o, item);
        break;
    case K_MODEL:
        show_model(o, item);
        break;
    default:
        break;
    }
}

/* The accelerators: one row each. */
static void table_accels(const struct sn_catalog *c, struct sn_table *t)
{
    char a[32], b[32], d[32], e[32];

    sn_table_col(t, "accelerator", false);
    sn_table_col(t, "vendor", false);
    sn_table_col(t, "bf16", true);
    sn_table_col(t, "hbm", true);
    sn_table_col(t, "hbm bw", true);
    sn_table_col(t, "scale-up", true);
    sn_table_col(t, "tdp", true);
    sn_table_col(t, "domain", true);
    sn_table_col(t, "conf", false);
    for (size_t i = 0; i < c->naccels; i++) {
        const struct sn_accel_info *x = c->accels[i];
        sn_table_row(t);
        sn_table_cell(t, "%s", x->name);
        sn_table_cell(t, "%s", x->vendor);
        sn_table_cell(
            t, "%s",
            sn_unit_format(x->bf16_flops, SN_UNIT_FLOPS, a, sizeof(a)));
        sn_table_cell(
            t, "%s", sn_unit_format(x->hbm_bytes, SN_UNIT_BYTES, b, sizeof(b)));
        sn_table_cell(
            t, "%s",
            sn_unit_format(x->hbm_bw, SN_UNIT_BANDWIDTH, d, sizeof(d)));
        sn_table_cell(t, "%d x %s", x->scaleup_links,
                      x->scaleup_links
                          ? sn_unit_format(x->scaleup_bw / x->scaleup_links,
                                           SN_UNIT_BANDWIDTH, e, sizeof(e))
                          : "-");
        if (x->tdp_w > 0)
            sn_table_cell(
                t, "%s", sn_unit_format(x->tdp_w, SN_UNIT_POWER, a, sizeof(a)));
        else
            sn_table_cell(t, "-");
        sn_table_cell(t, "%d", x->max_domain);
        sn_table_cell(t, "%s", sn_confidence_mark(x->confidence));
    }
}

/* The switches: one row each. */
static void table_switches(const struct sn_catalog *c, struct sn_table *t)
{
    char a[32];

    sn_table_col(t, "switch", false);
    sn_table_col(t, "role", false);
    sn_table_col(t, "ports", true);
    sn_table_col(t, "port rate", true);
    sn_table_col(t, "reduction", false);
    sn_table_col(t, "per box", true);
    sn_table_col(t, "conf", false);
    for (size_t i = 0; i < c->nswitches; i++) {
        const struct sn_switch_info *x = c->switches[i];
        sn_table_row(t);
        sn_table_cell(t, "%s", x->name);
        sn_table_cell(t, "%s", x->scale_up ? "scale-up" : "network");
        sn_table_cell(t, "%d", x->radix);
        sn_table_cell(
            t, "%s",
            sn_unit_format(x->port_bw, SN_UNIT_BANDWIDTH, a, sizeof(a)));
        sn_table_cell(t, "%s", x->in_network_reduction ? "yes" : "no");
        sn_table_cell(t, "%d", x->chips_per_box);
        sn_table_cell(t, "%s", sn_confidence_mark(x->confidence));
    }
}

/* The NICs: one row each. */
static void table_nics(const struct sn_catalog *c, struct sn_table *t)
{
    char a[32];

    sn_table_col(t, "nic", false);
    sn_table_col(t, "vendor", false);
    sn_table_col(t, "rate", true);
    sn_table_col(t, "ports", true);
    sn_table_col(t, "conf", false);
    for (size_t i = 0; i < c->nnics; i++) {
        const struct sn_nic_info *x = c->nics[i];
        sn_table_row(t);
        sn_table_cell(t, "%s", x->name);
        sn_table_cell(t, "%s", x->vendor);
        sn_table_cell(t, "%s",
                      sn_unit_format(x->rate, SN_UNIT_BANDWIDTH, a, sizeof(a)));
        sn_table_cell(t, "%d", x->ports);
        sn_table_cell(t, "%s", sn_confidence_mark(x->confidence));
    }
}

/* The cables: one row each. */
static void table_cables(const struct sn_catalog *c, struct sn_table *t)
{
    char a[32], b[32], d[32];

    sn_table_col(t, "cable", false);
    sn_table_col(t, "medium", false);
    sn_table_col(t, "reach", true);
    sn_table_col(t, "rate", true);
    sn_table_col(t, "power/end", true);
    sn_table_col(t, "use", false);
    sn_table_col(t, "conf", false);
    for (size_t i = 0; i < c->ncables; i++) {
        const struct sn_cable_info *x = c->cables[i];
        sn_table_row(t);
        sn_table_cell(t, "%s", x->name);
        sn_table_cell(t, "%s", sn_medium_name(x->medium));
        sn_table_cell(
            t, "%s",
            sn_unit_format(x->max_reach, SN_UNIT_LENGTH, a, sizeof(a)));
        sn_table_cell(t, "%s",
                      sn_unit_format(x->rate, SN_UNIT_BANDWIDTH, b, sizeof(b)));
        sn_table_cell(t, "%s",
                      sn_unit_format(x->transceiver_power_w, SN_UNIT_POWER, d,
                                     sizeof(d)));
        sn_table_cell(t, "%s", x->scale_up ? "scale-up" : "network");
        sn_table_cell(t, "%s", sn_confidence_mark(x->confidence));
    }
}

/* The models: one row each. */
static void table_models(const struct sn_catalog *c, struct sn_table *t)
{
    char a[32], b[32];

    sn_table_col(t, "model", false);
    sn_table_col(t, "layers", true);
    sn_table_col(t, "hidden", true);
    sn_table_col(t, "heads/kv", true);
    sn_table_col(t, "ffn", true);
    sn_table_col(t, "experts", true);
    sn_table_col(t, "params", true);
    sn_table_col(t, "active", true);
    sn_table_col(t, "conf", false);
    sn_table_col(t, "aliases", false);
    for (size_t i = 0; i < c->nmodels; i++) {
        const struct sn_model_info *x = c->models[i];
        sn_table_row(t);
        sn_table_cell(t, "%s", x->name);
        sn_table_cell(t, "%d", x->layers);
        sn_table_cell(t, "%d", x->hidden);
        sn_table_cell(t, "%d/%d", x->heads, x->kv_heads);
        sn_table_cell(t, "%d", x->ffn);
        if (x->experts > 1)
            sn_table_cell(t, "%d top-%d", x->experts, x->topk);
        else
            sn_table_cell(t, "-");
        sn_table_cell(t, "%s", fmt_params(x->params, a, sizeof(a)));
        sn_table_cell(t, "%s", fmt_params(x->active_params, b, sizeof(b)));
        sn_table_cell(t, "%s", sn_confidence_mark(x->confidence));
        sn_table_cell(t, "%s", x->aliases && *x->aliases ? x->aliases : "-");
    }
}

/* One table per kind with the figures people compare. */
static void table(const struct sn_catalog *c, enum kind k, struct sn_buf *out)
{
    static void (*const tables[K_COUNT])(const struct sn_catalog *,
                                         struct sn_table *) = {
        [K_ACCEL] = table_accels, [K_SWITCH] = table_switches,
        [K_NIC] = table_nics,     [K_CABLE] = table_cables,
        [K_MODEL] = table_models,
    };
    struct sn_table t;

    sn_table_init(&t, "");
    if ((unsigned)k < K_COUNT && tables[k])
        tables[k](c, &t);
    sn_table_render(&t, out);
    sn_table_release(&t);
}

int sn_render_catalog_kind(const char *word, const char **near)
{
    *near = NULL;
    for (int k = 0; k < K_COUNT; k++)
        if (!strcmp(word, kind_names[k]) || !strcmp(word, kind_one[k]))
            return k;
    *near = sn_suggest(word, kind_names);
    return -1;
}

/* Find NAME in any kind; on failure set err with a suggestion from all
 * kinds and return -1. */
static int find_any(const struct sn_catalog *c, const char *name,
                    const void **out, struct sn_error *err)
{
    const char *names[4096];
    size_t n = 0;
    const char *near;

    for (int k = 0; k < K_COUNT; k++) {
        for (size_t i = 0; i < kind_count(c, (enum kind)k); i++) {
            const void *x = kind_item(c, (enum kind)k, i);
            const char *nm = *(const char *const *)x;
            if (sn_strcaseeq(nm, name)) {
                *out = x;
                return k;
            }
            if (n + 1 < SN_ARRAY_LEN(names))
                names[n++] = nm;
        }
    }
    /* a model by one of its aliases ("deepseek-r1") */
    if ((*out = sn_catalog_model(c, name)) != NULL)
        return K_MODEL;
    names[n] = NULL;
    near = sn_suggest(name, names);
    for (size_t i = 0; !near && strlen(name) >= 2 && i < n; i++)
        if (!strncmp(names[i], name, strlen(name)))
            near = names[i];
    if (near)
        sn_error_set(err, SN_EINPUT,
                     "no catalog entry '%s' (did you mean '%s'?)", name, near);
    else
        sn_error_set(err, SN_EINPUT,
                     "no catalog entry '%s' (see 'supernode catalog list')",
                     name);
    return -1;
}

/* `catalog show NAME`: every field of the entry of any kind. */
static void catalog_show(struct kv *o, const void *item, int k)
{
    if (o->json) {
        sn_json_kstr(&o->j, "kind", kind_one[k]);
        sn_json_key(&o->j, "entry");
        sn_json_obj_begin(&o->j);
    } else {
        /* the entry's own name: an alias finds it ("deepseek-r1") */
        sn_buf_printf(o->out, "%s ", kind_one[k]);
        sn_buf_put_esc(o->out, SN_ESC_TERM, *(const char *const *)item);
        sn_buf_putc(o->out, '\n');
    }
    show_item(o, (enum kind)k, item);
    if (o->json)
        sn_json_obj_end(&o->j);
}

/* `catalog list [KIND]`: a table (an array in JSON) per kind. */
static void catalog_list(struct kv *o, const struct sn_catalog *cat, int kind)
{
    for (int k = 0; k < K_COUNT; k++) {
        if (kind >= 0 && k != kind)
            continue;
        if (o->json) {
            sn_json_key(&o->j, kind_names[k]);
            sn_json_arr_begin(&o->j);
            for (size_t i = 0; i < kind_count(cat, (enum kind)k); i++) {
                sn_json_obj_begin(&o->j);
                show_item(o, (enum kind)k, kind_item(cat, (enum kind)k, i));
                sn_json_obj_end(&o->j);
            }
            sn_json_arr_end(&o->j);
        } else {
            if (o->out->len)
                sn_buf_putc(o->out, '\n');
            table(cat, (enum kind)k, o->out);
        }
    }
    if (!o->json)
        sn_buf_puts(o->out, "\nconf: V vendor, S secondary, D derived, E "
                            "estimate, U given in a spec; 'supernode "
                            "catalog show NAME' gives the sources\n");
}

/* The document's frame around what fill writes. */
static void frame_begin(struct kv *o, bool json, struct sn_buf *out)
{
    memset(o, 0, sizeof(*o));
    o->json = json;
    o->out = out;
    if (json) {
        sn_json_init(&o->j, out, true);
        sn_json_obj_begin(&o->j);
        sn_json_kstr(&o->j, "schema", SN_SCHEMA_CATALOG);
    }
}

static void frame_end(struct kv *o)
{
    if (o->json) {
        sn_json_obj_end(&o->j);
        sn_buf_putc(o->out, '\n');
    }
}

void sn_render_catalog_list(const struct sn_catalog *c, int kind, bool json,
                            struct sn_buf *out)
{
    struct kv o;

    frame_begin(&o, json, out);
    catalog_list(&o, c, kind);
    frame_end(&o);
}

int sn_render_catalog_show(const struct sn_catalog *c, const char *name,
                           bool json, struct sn_buf *out, struct sn_error *err)
{
    const void *item = NULL;
    int k = find_any(c, name, &item, err);
    struct kv o;

    if (k < 0)
        return SN_EINPUT;
    frame_begin(&o, json, out);
    catalog_show(&o, item, k);
    frame_end(&o);
    return SN_OK;
}
