/* sections.c: the spec's sections in the order they depend on one
 * another: catalog, accelerator, supernode (scale-up, scaleup.c),
 * supernodes, scale-out (scaleout.c), racks, cooling, power, storage,
 * workload, hosts; and the helpers those files share (a key's scope, the
 * switch and cable pickers). Each section reads its keys, fills the
 * defaults docs/spec.md documents, and checks that the counts fit
 * together, pointing at the value at fault. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec-int.h"

static const char *const top_keys[] = {
    "name",       "description", "accelerator", "supernode",   "scaleout",
    "supernodes", "racks",       "power",       "cooling",     "storage",
    "workload",   "catalog",     "collectives", "reliability", "node",
    "hosts",      "software",    NULL,
};

static const char *const feed_names[] = {"ac-1phase", "ac-3phase", "hvdc",
                                         NULL};
static const char *const cooling_names[] = {"air", "cold_plate", "immersion",
                                            NULL};
static const char *const coolant_names[] = {"water", "pg25", NULL};

struct sn_pos sn__pos_of(const struct sn_yaml *n)
{
    struct sn_pos p = {0, 0};

    if (n) {
        p.line = n->line;
        p.col = n->col;
    }
    return p;
}

int sn__check_scope(struct sn__ctx *c, const struct sn_yaml *map,
                    const char *what, const struct sn__scope *scope, size_t n,
                    int variant)
{
    assert(variant >= 0 && variant < 32);
    for (size_t i = 0; i < n; i++) {
        const struct sn_yaml *v = sn_yaml_get(map, scope[i].key);
        if (!v || scope[i].applies & (1u << variant))
            continue;
        for (size_t j = 0; j < map->n; j++)
            if (map->items[j] == v)
                return sn__fail(c, map->keys[j], "%s.%s %s", what, scope[i].key,
                                scope[i].why);
    }
    return SN_OK;
}

/* ---- accelerator ----------------------------------------------------------
 */

static int accelerator(struct sn__ctx *c)
{
    const struct sn_yaml *n = sn_yaml_get(c->root, "accelerator");
    const struct sn_catalog *cat = &c->spec->catalog;
    const char *near;

    if (!n)
        return sn__fail(c, c->root,
                        "the spec has no 'accelerator' (expected a catalog "
                        "name such as h200-sxm-141gb, or a mapping of its "
                        "figures)");
    if (n->type == SN_YAML_MAP)
        return sn__accel_entry(c, n, "accelerator", &c->spec->accel);
    if (n->type != SN_YAML_SCALAR)
        return sn__fail(c, n,
                        "accelerator is %s (expected a catalog name "
                        "or a mapping)",
                        sn_yaml_type_name(n->type));
    c->spec->accel = sn_catalog_accel(cat, n->value);
    if (c->spec->accel)
        return SN_OK;
    near = sn__catalog_suggest((const void *const *)cat->accels, cat->naccels,
                               n->value);
    if (near)
        return sn__fail(c, n,
                        "unknown accelerator '%.64s' (did you mean "
                        "'%s'?)",
                        n->value, near);
    return sn__fail(c, n,
                    "unknown accelerator '%.64s' (see 'supernode "
                    "catalog list accelerators')",
                    n->value);
}

/* A catalog cable named at key, at least as fast as rate; NULL when the
 * key is absent. */
int sn__pick_cable(struct sn__ctx *c, const struct sn_yaml *m, const char *what,
                   double rate, const char *ratewhat,
                   const struct sn_cable_info **out)
{
    const struct sn_catalog *cat = &c->spec->catalog;
    const struct sn_yaml *n;
    int rc;

    *out = NULL;
    if ((n = sn__scalar(c, m, "cable", what, &rc)) == NULL)
        return rc;
    *out = sn_catalog_cable(cat, n->value);
    if (!*out) {
        const char *near = sn__catalog_suggest((const void *const *)cat->cables,
                                               cat->ncables, n->value);
        return sn__fail(c, n, "unknown cable '%.64s'%s%s%s", n->value,
                        near ? " (did you mean '"
                             : " (see 'supernode catalog list cables')",
                        near ? near : "", near ? "'?)" : "");
    }
    if ((*out)->rate < rate * 0.999) {
        char a[32], b[32];
        return sn__fail(
            c, n, "the %s (%s) is slower than %s (%s)", (*out)->name,
            sn_unit_format((*out)->rate, SN_UNIT_BANDWIDTH, a, sizeof(a)),
            ratewhat, sn_unit_format(rate, SN_UNIT_BANDWIDTH, b, sizeof(b)));
    }
    return SN_OK;
}

/* A switch chip given by catalog name or by radix alone; *sw is NULL for
 * a radix-only switch. Neither given: the default name, when there is
 * one. */
int sn__pick_switch(struct sn__ctx *c, const struct sn_yaml *m,
                    const char *what, const char *deflt,
                    const struct sn_switch_info **sw, int *radix)
{
    const struct sn_catalog *cat = &c->spec->catalog;
    const struct sn_yaml *sn = NULL, *rn = sn_yaml_get(m, "radix");
    int rc;

    *sw = NULL;
    *radix = 0;
    if ((sn = sn__scalar(c, m, "switch", what, &rc)) == NULL && rc)
        return rc;
    if (sn && rn)
        return sn__fail(c, rn, "give %s.switch or %s.radix, not both", what,
                        what);
    if (rn)
        return sn__get_int(c, m, "radix", what, 2, SN_SPEC_MAX_RADIX, radix);
    if (!sn && !deflt)
        return SN_OK;
    *sw = sn_catalog_switch(cat, sn ? sn->value : deflt);
    if (!*sw) {
        const char *near =
            sn__catalog_suggest((const void *const *)cat->switches,
                                cat->nswitches, sn ? sn->value : deflt);
        return sn__fail(c, sn ? sn : m, "unknown switch '%.64s'%s%s%s",
                        sn ? sn->value : deflt,
                        near ? " (did you mean '"
                             : " (see 'supernode "
                               "catalog list switches')",
                        near ? near : "", near ? "'?)" : "");
    }
    *radix = (*sw)->radix;
    return SN_OK;
}

/* ---- supernodes
 * -------------------------------------------------------------- */

static int supernodes(struct sn__ctx *c)
{
    struct sn_spec *s = c->spec;
    const struct sn_yaml *n = sn_yaml_get(c->root, "supernodes");
    double total, links;
    int rc;

    s->supernodes = 1;
    if ((rc = sn__get_int(c, c->root, "supernodes", "", 1,
                          SN_SPEC_MAX_SUPERNODES, &s->supernodes)))
        return rc;
    total = (double)s->supernodes * s->scaleup.accelerators;
    if (total > SN_SPEC_MAX_TOTAL_ACCELS)
        return sn__fail(c, n,
                        "%d supernodes of %d accelerators are %.0f "
                        "accelerators (at most %d)",
                        s->supernodes, s->scaleup.accelerators, total,
                        SN_SPEC_MAX_TOTAL_ACCELS);
    links = total * s->scaleup.links_per_accel;
    if (links > SN_SPEC_MAX_TOTAL_LINKS)
        return sn__fail(c, n ? n : c->root,
                        "the cluster would have %.0f scale-up links (at "
                        "most %.0f)",
                        links, SN_SPEC_MAX_TOTAL_LINKS);
    return SN_OK;
}

/* ---- racks, cooling, power ------------------------------------------------
 */

static const char *const racks_keys[] = {
    "nodes_per_rack", "node_units", "rack_units",
    "power_limit",    "row_pitch",  NULL,
};

static int racks(struct sn__ctx *c)
{
    struct sn_racks *r = &c->spec->racks;
    const struct sn_yaml *m = sn_yaml_get(c->root, "racks");
    int rc;

    /* DGX SuperPOD H100 RA: 4 DGX H100 (8U each) per rack; a 42U rack;
     * racks 600 mm wide side by side */
    r->nodes_per_rack = 4;
    r->node_units = 8;
    r->rack_units = 42;
    r->row_pitch = 0.6;
    if (!m)
        return SN_OK;
    r->pos = sn__pos_of(m);
    if ((rc = sn__expect_map(c, m, "racks")) ||
        (rc = sn__check_keys(c, m, "racks", racks_keys)) ||
        (rc = sn__get_int(c, m, "nodes_per_rack", "racks", 1, 1024,
                          &r->nodes_per_rack)) ||
        (rc =
             sn__get_int(c, m, "node_units", "racks", 1, 60, &r->node_units)) ||
        (rc =
             sn__get_int(c, m, "rack_units", "racks", 1, 60, &r->rack_units)) ||
        (rc = sn__get_qty(c, m, "power_limit", "racks", SN_UNIT_POWER, 100, 1e7,
                          &r->power_limit_w)) ||
        (rc = sn__get_qty(c, m, "row_pitch", "racks", SN_UNIT_LENGTH, 0.3, 10,
                          &r->row_pitch)))
        return rc;
    if ((long long)r->nodes_per_rack * r->node_units > r->rack_units)
        return sn__fail(c, sn__at(m, "nodes_per_rack"),
                        "%d nodes of %dU do not fit in a %dU rack "
                        "(racks.rack_units)",
                        r->nodes_per_rack, r->node_units, r->rack_units);
    return SN_OK;
}

static const char *const cooling_keys[] = {
    "type", "coolant", "delta_t", "liquid_share", "air_limit", NULL,
};

static int cooling(struct sn__ctx *c)
{
    struct sn_cooling_spec *k = &c->spec->cooling;
    const struct sn_yaml *m = sn_yaml_get(c->root, "cooling");
    static const struct sn_yaml empty = {.type = SN_YAML_MAP};
    int rc, type = -1, coolant = -1;

    if (m && ((rc = sn__expect_map(c, m, "cooling")) ||
              (rc = sn__check_keys(c, m, "cooling", cooling_keys))))
        return rc;
    if (!m)
        m = &empty;
    k->pos = sn__pos_of(m);
    if ((rc = sn__get_enum(c, m, "type", "cooling", cooling_names, &type)) ||
        (rc =
             sn__get_enum(c, m, "coolant", "cooling", coolant_names, &coolant)))
        return rc;
    /* cold plates are the common answer above ~40 kW a rack (DOMAIN.md) */
    k->type = type >= 0 ? (enum sn_cooling)type : SN_COOL_COLD_PLATE;
    k->coolant = coolant >= 0 ? (enum sn_coolant)coolant : SN_COOLANT_WATER;
    /* air: the worked example of hardware-catalog.md 4.2 takes a 20 K
     * rise; liquid: OCP guideline 1.5 L/min per kW at dT <= 10 K */
    k->delta_t = k->type == SN_COOL_AIR ? 20 : 10;
    /* cold plates leave 20-30 % of the heat to air (DCD), 0.8 assumed
     * (hardware-catalog.md 4.2) [E]; an immersion tank takes it all */
    k->liquid_share = k->type == SN_COOL_AIR         ? 0
                      : k->type == SN_COOL_IMMERSION ? 1
                                                     : 0.8;
    /* DGX SuperPOD H100 RA: air-cooled racks of 4 DGX exceed 40 kW */
    k->air_limit_w = 40e3;
    if ((rc = sn__get_qty(c, m, "delta_t", "cooling", SN_UNIT_TEMPERATURE, 1,
                          50, &k->delta_t)) ||
        (rc = sn__get_qty(c, m, "liquid_share", "cooling", SN_UNIT_RATIO, 0, 1,
                          &k->liquid_share)) ||
        (rc = sn__get_qty(c, m, "air_limit", "cooling", SN_UNIT_POWER, 1e3, 1e6,
                          &k->air_limit_w)))
        return rc;
    if (k->type == SN_COOL_AIR) {
        if (sn_yaml_get(m, "coolant"))
            return sn__fail(c, sn_yaml_get(m, "coolant"),
                            "cooling.coolant does not apply to air cooling "
                            "(expected type cold_plate or immersion)");
        if (k->liquid_share > 0)
            return sn__fail(c, sn_yaml_get(m, "liquid_share"),
                            "cooling.liquid_share must be 0 for air "
                            "cooling");
        return SN_OK;
    }
    if (k->coolant == SN_COOLANT_WATER) {
        /* water near 30 C: 996 kg/m^3, 4.18 kJ/(kg K) (hardware-catalog.md
         * 4.2) [D] */
        k->coolant_density = 996;
        k->coolant_cp = 4180;
    } else {
        /* PG25: specific gravity 1.020 (Perry's Table 5.13) [V]; c_p
         * 3.9-4.0 kJ/(kg K) (Dow data, not retrieved) [E], the low end
         * as in the catalog's worked example (181 L/min for 120 kW at
         * 10 K) */
        k->coolant_density = 1020;
        k->coolant_cp = 3900;
    }
    return SN_OK;
}

static const char *const power_keys[] = {
    "feed",     "voltage",       "power_factor", "transient_factor",
    "headroom", "node_overhead", "pue",          NULL,
};

static int power(struct sn__ctx *c)
{
    struct sn_power_spec *p = &c->spec->power;
    const struct sn_accel_info *a = c->spec->accel;
    const struct sn_yaml *m = sn_yaml_get(c->root, "power");
    static const struct sn_yaml empty = {.type = SN_YAML_MAP};
    /* 240/415 V three-phase distribution, 240 V single-phase
     * (hardware-catalog.md 4.1); 800 V DC (NVIDIA 800 VDC) */
    static const double vdef[] = {240, 415, 800};
    static const double vmin[] = {100, 200, 200};
    static const double vmax[] = {300, 1000, 1500};
    int rc, feed = -1;

    if (m && ((rc = sn__expect_map(c, m, "power")) ||
              (rc = sn__check_keys(c, m, "power", power_keys))))
        return rc;
    if (!m)
        m = &empty;
    p->pos = sn__pos_of(m);
    if ((rc = sn__get_enum(c, m, "feed", "power", feed_names, &feed)))
        return rc;
    p->feed = feed >= 0 ? (enum sn_feed)feed : SN_FEED_AC_3PH;
    p->voltage = vdef[p->feed];
    if (sn_yaml_get(m, "voltage")) {
        if ((rc = sn__get_qty(c, m, "voltage", "power", SN_UNIT_VOLTAGE, 1, 1e5,
                              &p->voltage)))
            return rc;
        if (p->voltage < vmin[p->feed] || p->voltage > vmax[p->feed])
            return sn__fail(c, sn_yaml_get(m, "voltage"),
                            "power.voltage %.64s is out of range for an %s "
                            "feed (expected %g V to %g V)",
                            sn_yaml_get(m, "voltage")->value,
                            feed_names[p->feed], vmin[p->feed], vmax[p->feed]);
    }
    if (p->feed == SN_FEED_HVDC && sn_yaml_get(m, "power_factor"))
        return sn__fail(c, sn_yaml_get(m, "power_factor"),
                        "power.power_factor does not apply to an hvdc feed");
    /* PF 0.95 as in the worked examples of hardware-catalog.md 4.1 */
    p->power_factor = p->feed == SN_FEED_HVDC ? 1 : 0.95;
    p->transient_factor = a->transient_factor > 0 ? a->transient_factor : 1.3;
    p->headroom = 1.5; /* DOMAIN.md: provision at least 1.5x */
    p->node_overhead = a->node_overhead > 0 ? a->node_overhead : 1.8;
    {
        /* hardware-catalog.md 4.3 planner proposals [E], midpoints:
         * air 1.4-1.5, cold plate 1.15-1.25, immersion 1.05-1.1 */
        static const double pue[] = {1.45, 1.2, 1.08};
        p->pue = pue[c->spec->cooling.type];
    }
    if ((rc = sn__get_qty(c, m, "power_factor", "power", SN_UNIT_RATIO, 0.5, 1,
                          &p->power_factor)) ||
        (rc = sn__get_qty(c, m, "transient_factor", "power", SN_UNIT_RATIO, 1,
                          3, &p->transient_factor)) ||
        (rc = sn__get_qty(c, m, "headroom", "power", SN_UNIT_RATIO, 1, 4,
                          &p->headroom)) ||
        (rc = sn__get_qty(c, m, "node_overhead", "power", SN_UNIT_RATIO, 1, 10,
                          &p->node_overhead)) ||
        (rc = sn__get_qty(c, m, "pue", "power", SN_UNIT_RATIO, 1, 3, &p->pue)))
        return rc;
    return SN_OK;
}

/* ---- storage and workload ------------------------------------------------ */

static const char *const storage_keys[] = {
    "checkpoint_interval", "write_window",    "write_bandwidth",
    "read_bandwidth",      "bytes_per_param", NULL,
};

static int storage(struct sn__ctx *c)
{
    struct sn_storage_spec *st = &c->spec->storage;
    const struct sn_yaml *m = sn_yaml_get(c->root, "storage");
    int rc;

    /* a checkpoint every 30 minutes written in a few minutes (DOMAIN.md);
     * 14 bytes per parameter: fp32 master + Adam m, v + bf16 weights
     * (ZeRO, SC20; BLOOM-176B 2.3 TB) */
    st->checkpoint_interval = 1800;
    st->write_window = 300;
    st->bytes_per_param = 14;
    if (!m)
        return SN_OK;
    st->given = true;
    st->pos = sn__pos_of(m);
    if ((rc = sn__expect_map(c, m, "storage")) ||
        (rc = sn__check_keys(c, m, "storage", storage_keys)) ||
        (rc = sn__get_qty(c, m, "checkpoint_interval", "storage", SN_UNIT_TIME,
                          60, 30 * 86400.0, &st->checkpoint_interval)))
        return rc;
    if (st->write_window > st->checkpoint_interval)
        st->write_window = st->checkpoint_interval;
    if ((rc = sn__get_qty(c, m, "write_window", "storage", SN_UNIT_TIME, 1,
                          86400, &st->write_window)) ||
        (rc = sn__get_qty(c, m, "write_bandwidth", "storage", SN_UNIT_BANDWIDTH,
                          1e6, 1e15, &st->write_bw)) ||
        (rc = sn__get_qty(c, m, "read_bandwidth", "storage", SN_UNIT_BANDWIDTH,
                          1e6, 1e15, &st->read_bw)) ||
        (rc = sn__get_qty(c, m, "bytes_per_param", "storage", SN_UNIT_RATIO,
                          0.5, 64, &st->bytes_per_param)))
        return rc;
    if (st->write_window > st->checkpoint_interval)
        return sn__fail(c, sn_yaml_get(m, "write_window"),
                        "storage.write_window %.64s is longer than the "
                        "checkpoint interval",
                        sn_yaml_get(m, "write_window")->value);
    /* a parallel file system reads about twice as fast as it writes
     * (DGX SuperPOD H100 RA Table 6) [D] */
    if (st->read_bw == 0)
        st->read_bw = 2 * st->write_bw;
    return SN_OK;
}

static const char *const workload_keys[] = {"model", "params",
                                            "train_bytes_per_param", NULL};

static int workload(struct sn__ctx *c)
{
    struct sn_workload_spec *w = &c->spec->workload;
    const struct sn_catalog *cat = &c->spec->catalog;
    const struct sn_yaml *m = sn_yaml_get(c->root, "workload"), *mn;
    int rc;

    /* 16 bytes per parameter: bf16 weights and gradients + fp32 master
     * and Adam moments (ZeRO, SC20) */
    w->train_bytes_per_param = 16;
    if (!m)
        return SN_OK;
    w->given = true;
    w->pos = sn__pos_of(m);
    if ((rc = sn__expect_map(c, m, "workload")) ||
        (rc = sn__check_keys(c, m, "workload", workload_keys)) ||
        (rc = sn__get_qty(c, m, "params", "workload", SN_UNIT_COUNT, 1e6, 1e15,
                          &w->params)) ||
        (rc = sn__get_qty(c, m, "train_bytes_per_param", "workload",
                          SN_UNIT_RATIO, 1, 64, &w->train_bytes_per_param)))
        return rc;
    mn = sn_yaml_get(m, "model");
    if (!mn && w->params == 0)
        return sn__fail(c, m,
                        "workload needs a model or params (expected "
                        "model: llama3-70b or params: 70B)");
    if (!mn)
        return SN_OK;
    if (mn->type == SN_YAML_MAP)
        return sn__model_entry(c, mn, "workload.model", &w->model);
    if (mn->type != SN_YAML_SCALAR)
        return sn__fail(c, mn,
                        "workload.model is %s (expected a preset name "
                        "or a mapping of dimensions)",
                        sn_yaml_type_name(mn->type));
    w->model = sn_catalog_model(cat, mn->value);
    if (!w->model) {
        const char *near = sn__catalog_suggest((const void *const *)cat->models,
                                               cat->nmodels, mn->value);
        if (near)
            return sn__fail(c, mn,
                            "unknown model '%.64s' (did you mean "
                            "'%s'?)",
                            mn->value, near);
        return sn__fail(c, mn,
                        "unknown model '%.64s' (see 'supernode catalog "
                        "list models')",
                        mn->value);
    }
    return SN_OK;
}

/* ---- hosts: the host of every node ----------------------------------------
 */

bool sn_spec_host_name_ok(const char *s)
{
    size_t n = strlen(s);

    if (n == 0 || n > 64)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '_'))
            return false;
    }
    return true;
}

struct host_at {
    const char *name;
    size_t i;
};

static int cmp_host_at(const void *a, const void *b)
{
    const struct host_at *x = a, *y = b;
    int c = strcmp(x->name, y->name);

    return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* A host listed twice: the first entry (in list order) that repeats an
 * earlier one is the error, found by sorting (a list of many thousand
 * hosts is not compared pair by pair). */
static int host_repeat(struct sn__ctx *c, const struct sn_yaml *h,
                       const char *const *names)
{
    struct host_at *o = sn_xcalloc(h->n + 1, sizeof(*o));
    size_t at = SIZE_MAX, first = 0;

    for (size_t i = 0; i < h->n; i++)
        o[i] = (struct host_at){names[i], i};
    qsort(o, h->n, sizeof(*o), cmp_host_at);
    /* a run of one name is in list order: its second entry is its first
     * repeat */
    for (size_t lo = 0, hi; lo < h->n; lo = hi) {
        for (hi = lo + 1; hi < h->n && !strcmp(o[hi].name, o[lo].name); hi++)
            ;
        if (hi - lo > 1 && o[lo + 1].i < at) {
            at = o[lo + 1].i;
            first = o[lo].i;
        }
    }
    free(o);
    if (at == SIZE_MAX)
        return SN_OK;
    return sn__fail(c, h->items[at],
                    "hosts[%zu] '%s' is hosts[%zu] too (expected a host of "
                    "its own for every node)",
                    at, names[at], first);
}

static int hosts(struct sn__ctx *c)
{
    const struct sn_yaml *h = sn_yaml_get(c->root, "hosts");
    struct sn_spec *s = c->spec;
    long long nodes = (long long)s->supernodes *
                      (s->scaleup.accelerators / s->scaleup.per_node);

    if (!h)
        return SN_OK;
    if (h->type != SN_YAML_SEQ)
        return sn__fail(c, h,
                        "hosts is %s (expected a list of host names, one "
                        "per node in rank order)",
                        sn_yaml_type_name(h->type));
    if ((long long)h->n != nodes)
        return sn__fail(c, h,
                        "hosts lists %zu host%s for %lld nodes (expected "
                        "one per node, node 0 of supernode 0 first)",
                        h->n, h->n == 1 ? "" : "s", nodes);
    s->hosts = sn__arena_alloc(c->arena, (h->n + 1) * sizeof(*s->hosts));
    for (size_t i = 0; i < h->n; i++) {
        const struct sn_yaml *v = h->items[i];
        if (v->type != SN_YAML_SCALAR || !sn_spec_host_name_ok(v->value))
            return sn__fail(c, v,
                            "hosts[%zu] is not a host name (expected "
                            "letters, digits, '.', '-' or '_', up to 64)",
                            i);
        s->hosts[i] = sn__arena_strdup(c->arena, v->value);
    }
    s->nhosts = h->n;
    return host_repeat(c, h, s->hosts);
}

/* ---- the whole document ------------------------------------------------ */

int sn__convert(struct sn__ctx *c)
{
    static const char *const foreign[] = {"collectives", "reliability", "node",
                                          "software", NULL};
    struct sn_spec *s = c->spec;
    const char *name = NULL, *desc = NULL;
    int rc;

    c->root = s->doc.root;
    if (!c->root)
        return sn_error_at(c->err, SN_EINPUT, c->file, 1, 1,
                           "the spec is empty (expected a mapping with at "
                           "least 'accelerator' and 'supernode')");
    if (c->root->type != SN_YAML_MAP)
        return sn__fail(c, c->root,
                        "the spec is %s (expected a mapping of "
                        "sections such as 'accelerator:' and "
                        "'supernode:')",
                        sn_yaml_type_name(c->root->type));
    if ((rc = sn__check_keys(c, c->root, "the spec", top_keys)) ||
        (rc = sn__get_text(c, c->root, "name", "", 128, &name)) ||
        (rc = sn__get_text(c, c->root, "description", "", 4096, &desc)))
        return rc;
    s->name = (char *)(name ? name : sn__arena_strdup(c->arena, "unnamed"));
    for (size_t i = 0; foreign[i]; i++) {
        const struct sn_yaml *n = sn_yaml_get(c->root, foreign[i]);
        if (n && (rc = sn__expect_map(c, n, foreign[i])))
            return rc;
    }
    if ((rc = sn__catalog_load(c, sn_yaml_get(c->root, "catalog"))) ||
        (rc = accelerator(c)) || (rc = sn__scaleup(c)) ||
        (rc = supernodes(c)) || (rc = sn__scaleout(c)) || (rc = racks(c)) ||
        (rc = cooling(c)) || (rc = power(c)) || (rc = storage(c)) ||
        (rc = workload(c)) || (rc = hosts(c)))
        return rc;
    return SN_OK;
}
