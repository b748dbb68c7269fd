/* scaleout.c: the `scaleout:` section, the network between supernodes: its
 * topology, the NICs of a node, and the shape of a fat tree (switch,
 * oversubscription, tiers) or the switches and links an explicit network
 * names. Run by sn__convert() after the supernodes. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec-int.h"

static const char *const net_names[] = {
    "none", "external", "rail_fat_tree", "fat_tree", "explicit", NULL,
};

const char *sn_net_topology_name(enum sn_net_topology t)
{
    if ((unsigned)t >= SN_ARRAY_LEN(net_names) - 1)
        return "?";
    return net_names[t];
}

static const char *const scaleout_keys[] = {
    "topology",
    "nics_per_node",
    "nics_per_accelerator",
    "nic",
    "nic_rate",
    "tiers",
    "switch",
    "radix",
    "oversubscription",
    "latency",
    "cable",
    "switches",
    "links",
    NULL,
};

#define NET(t) (1u << SN_NET_##t)
#define FAT_TREE "applies only to topology fat_tree or rail_fat_tree"
#define EXPLICIT "applies only to topology explicit"
#define NO_NICS "does not apply to topology none"

/* The keys that belong to some topologies only, with the topologies they
 * apply to; the first given for another topology, in this order, is
 * reported. */
static const struct sn__scope scaleout_scope[] = {
    {"tiers", NET(FAT_TREE) | NET(RAIL_FAT_TREE), FAT_TREE},
    {"switch", NET(FAT_TREE) | NET(RAIL_FAT_TREE), FAT_TREE},
    {"radix", NET(FAT_TREE) | NET(RAIL_FAT_TREE), FAT_TREE},
    {"oversubscription", NET(FAT_TREE) | NET(RAIL_FAT_TREE), FAT_TREE},
    {"switches", NET(EXPLICIT), EXPLICIT},
    {"links", NET(EXPLICIT), EXPLICIT},
    {"nic", ~NET(NONE), NO_NICS},
    {"nic_rate", ~NET(NONE), NO_NICS},
    {"latency", ~NET(NONE), NO_NICS},
    {"cable", ~NET(NONE), NO_NICS},
};

/* Explicit networks can list 100,000 switches and a million links: names
 * are found through a sorted index and node lists checked by sorting, so
 * a large spec costs n log n, not n^2. */
struct name_ix {
    const char *name;
    int index;
};

static int cmp_name_ix(const void *a, const void *b)
{
    const struct name_ix *x = a, *y = b;
    int c = strcmp(x->name, y->name);

    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* One place a node is listed: the node, the switch, the YAML item. */
struct listing {
    int node;
    int sw;
    const struct sn_yaml *item;
};

static int cmp_listing(const void *a, const void *b)
{
    const struct listing *x = a, *y = b;

    if (x->node != y->node)
        return (x->node > y->node) - (x->node < y->node);
    if (x->sw != y->sw)
        return (x->sw > y->sw) - (x->sw < y->sw);
    if (x->item->line != y->item->line)
        return (x->item->line > y->item->line) -
               (x->item->line < y->item->line);
    return (x->item->col > y->item->col) - (x->item->col < y->item->col);
}

/* The earlier of two nodes in the file. */
static bool before(const struct sn_yaml *a, const struct sn_yaml *b)
{
    return !b || a->line < b->line || (a->line == b->line && a->col < b->col);
}

static int find_switch(const struct name_ix *ix, size_t n, const char *name)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(ix[mid].name, name);
        if (c == 0)
            return ix[mid].index;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static const char *const net_switch_keys[] = {"name", "nodes", "tier", NULL};
static const char *const net_link_keys[] = {"between", "count", "rate", NULL};

static int explicit_switches(struct sn__ctx *c, const struct sn_yaml *sw,
                             long long nodes, size_t *nlisted)
{
    struct sn_scaleout *o = &c->spec->scaleout;
    char what[64];
    int rc;

    o->switches = sn__arena_alloc(c->arena, sw->n * sizeof(*o->switches));
    *nlisted = 0;
    for (size_t i = 0; i < sw->n; i++) {
        const struct sn_yaml *e = sw->items[i], *nl;
        struct sn_net_switch *x = &o->switches[i];
        const char *name = NULL;
        char nw[80];

        snprintf(what, sizeof(what), "scaleout.switches[%zu]", i);
        if ((rc = sn__expect_map(c, e, what)) ||
            (rc = sn__check_keys(c, e, what, net_switch_keys)) ||
            (rc = sn__get_name(c, e, "name", what, &name)) ||
            (rc = sn__get_int(c, e, "tier", what, 0, 2, &x->tier)))
            return rc;
        if (!name)
            return sn__fail(c, e, "%s has no 'name'", what);
        /* labels join names with '.': "net.r04.u01.<name>.p3" */
        if (strchr(name, '.'))
            return sn__fail(c, sn_yaml_get(e, "name"),
                            "%s.name '%s' has the character '.' (expected "
                            "lowercase letters, digits, '-' or '_': the name "
                            "becomes part of cable labels)",
                            what, name);
        x->name = (char *)name;
        x->pos = sn__pos_of(e);
        o->nswitches = i + 1;
        nl = sn_yaml_get(e, "nodes");
        if (!nl)
            continue;
        if (nl->type != SN_YAML_SEQ)
            return sn__fail(c, nl, "%s.nodes is not a list of node numbers",
                            what);
        x->nodes = sn__arena_alloc(c->arena, (nl->n ? nl->n : 1) * sizeof(int));
        snprintf(nw, sizeof(nw), "%s.nodes", what);
        for (size_t j = 0; j < nl->n; j++) {
            long long v;
            if ((rc = sn__int_value(c, nl->items[j], nw, 0, nodes - 1, &v)))
                return rc;
            x->nodes[j] = (int)v;
        }
        x->nnodes = nl->n;
        *nlisted += nl->n;
    }
    return SN_OK;
}

/* Switch names are unique, the second of a pair reported; *out is the
 * names sorted for find_switch(), the caller's to free. */
static int explicit_names(struct sn__ctx *c, const struct sn_yaml *sw,
                          struct name_ix **out)
{
    struct sn_scaleout *o = &c->spec->scaleout;
    struct name_ix *ix = sn_xcalloc(o->nswitches, sizeof(*ix));
    const struct sn_yaml *bad = NULL;

    *out = ix;
    for (size_t i = 0; i < o->nswitches; i++) {
        ix[i].name = o->switches[i].name;
        ix[i].index = (int)i;
    }
    qsort(ix, o->nswitches, sizeof(*ix), cmp_name_ix);
    for (size_t i = 1; i < o->nswitches; i++) {
        const struct sn_yaml *e = sw->items[ix[i].index];
        if (!strcmp(ix[i].name, ix[i - 1].name) &&
            before(sn_yaml_get(e, "name"), bad))
            bad = sn_yaml_get(e, "name");
    }
    if (bad)
        return sn__fail(c, bad,
                        "scaleout.switches: switch name '%s' is given "
                        "twice",
                        bad->value);
    return SN_OK;
}

/* The first listing (in the file) of a node on more switches than its
 * NICs, in all (total listings sorted by node), or NULL. */
static const struct sn_yaml *over_nics(const struct listing *all, size_t total,
                                       int nics)
{
    const struct sn_yaml *bad = NULL;

    for (size_t i = 0; i < total;) {
        size_t j = i;
        while (j < total && all[j].node == all[i].node)
            j++;
        assert(j > i && j <= total);
        if ((int)(j - i) > nics && before(all[j - 1].item, bad))
            bad = all[j - 1].item;
        i = j;
    }
    return bad;
}

/* Nodes: once per switch, on no more switches than they have NICs;
 * total is the number of listings explicit_switches() counted. */
static int explicit_nodes(struct sn__ctx *c, const struct sn_yaml *sw,
                          size_t total)
{
    struct sn_scaleout *o = &c->spec->scaleout;
    struct listing *all = sn_xcalloc(total ? total : 1, sizeof(*all));
    const struct sn_yaml *bad = NULL;
    size_t k = 0;
    int rc = SN_OK;

    for (size_t i = 0; i < o->nswitches; i++) {
        const struct sn_yaml *nl = sn_yaml_get(sw->items[i], "nodes");
        for (size_t j = 0; j < o->switches[i].nnodes; j++) {
            assert(k < total);
            all[k].node = o->switches[i].nodes[j];
            all[k].sw = (int)i;
            all[k].item = nl->items[j];
            k++;
        }
    }
    assert(k == total);
    qsort(all, total, sizeof(*all), cmp_listing);
    for (size_t i = 1; i < total; i++)
        if (all[i].node == all[i - 1].node && all[i].sw == all[i - 1].sw &&
            before(all[i].item, bad))
            bad = all[i].item;
    if (bad) {
        rc = sn__fail(c, bad,
                      "scaleout.switches lists node %s twice on one "
                      "switch",
                      bad->value);
        goto out;
    }
    bad = over_nics(all, total, o->nics_per_node);
    if (bad)
        rc = sn__fail(c, bad,
                      "node %s is on more switches than its %d NIC ports "
                      "(scaleout.nics_per_node)",
                      bad->value, o->nics_per_node);
out:
    free(all);
    return rc;
}

/* Link i: a pair of known, different switches, a count and a rate (the
 * NIC's unless given). */
static int explicit_link(struct sn__ctx *c, const struct sn_yaml *e, size_t i,
                         const struct name_ix *ix)
{
    struct sn_scaleout *o = &c->spec->scaleout;
    struct sn_net_link *x = &o->links[i];
    const struct sn_yaml *b;
    int ends[2], rc;
    char what[64];

    snprintf(what, sizeof(what), "scaleout.links[%zu]", i);
    if ((rc = sn__expect_map(c, e, what)) ||
        (rc = sn__check_keys(c, e, what, net_link_keys)))
        return rc;
    b = sn_yaml_get(e, "between");
    if (!b || b->type != SN_YAML_SEQ || b->n != 2)
        return sn__fail(c, b ? b : e,
                        "%s.between is not a pair of switch "
                        "names [A, B]",
                        what);
    for (int j = 0; j < 2; j++) {
        const struct sn_yaml *v = b->items[j];
        if (v->type != SN_YAML_SCALAR)
            return sn__fail(c, v,
                            "%s.between holds %s (expected a switch "
                            "name)",
                            what, sn_yaml_type_name(v->type));
        ends[j] = find_switch(ix, o->nswitches, v->value);
        if (ends[j] < 0) {
            const char *near =
                sn_suggest_strided(v->value, &o->switches[0].name, o->nswitches,
                                   sizeof(o->switches[0]));
            return sn__fail(c, v, "%s: unknown switch '%.64s'%s%s%s", what,
                            v->value, near ? " (did you mean '" : "",
                            near ? near : "", near ? "'?)" : "");
        }
    }
    if (ends[0] == ends[1])
        return sn__fail(c, b, "%s joins switch '%s' to itself", what,
                        o->switches[ends[0]].name);
    x->a = ends[0];
    x->b = ends[1];
    x->count = 1;
    x->bw = 0; /* the NIC rate */
    x->pos = sn__pos_of(e);
    if ((rc = sn__get_int(c, e, "count", what, 1, 1024, &x->count)) ||
        (rc = sn__get_qty(c, e, "rate", what, SN_UNIT_BANDWIDTH, 1e6, 1e13,
                          &x->bw)))
        return rc;
    return SN_OK;
}

/* The links between switches, when the spec lists them. */
static int explicit_links(struct sn__ctx *c, const struct sn_yaml *ln,
                          const struct name_ix *ix)
{
    struct sn_scaleout *o = &c->spec->scaleout;
    int rc;

    if (!ln)
        return SN_OK;
    if (ln->type != SN_YAML_SEQ)
        return sn__fail(c, ln, "scaleout.links is not a list of links");
    if (ln->n > SN_SPEC_MAX_NET_LINKS)
        return sn__fail(c, ln, "scaleout.links has %zu entries (at most %d)",
                        ln->n, SN_SPEC_MAX_NET_LINKS);
    o->links =
        sn__arena_alloc(c->arena, (ln->n ? ln->n : 1) * sizeof(*o->links));
    for (size_t i = 0; i < ln->n; i++) {
        if ((rc = explicit_link(c, ln->items[i], i, ix)))
            return rc;
        o->nlinks = i + 1;
    }
    return SN_OK;
}

static int explicit_net(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_spec *s = c->spec;
    const struct sn_yaml *sw = sn_yaml_get(m, "switches");
    long long nodes = (long long)s->supernodes *
                      (s->scaleup.accelerators / s->scaleup.per_node);
    struct name_ix *ix = NULL;
    size_t total = 0;
    int rc;

    if (!sw)
        return sn__fail(c, m,
                        "topology explicit needs its switches "
                        "(expected scaleout.switches: a list of {name, "
                        "nodes})");
    if (sw->type != SN_YAML_SEQ || sw->n == 0)
        return sn__fail(c, sw, "scaleout.switches is not a list of switches");
    if (sw->n > SN_SPEC_MAX_NET_SWITCHES)
        return sn__fail(c, sw,
                        "scaleout.switches has %zu entries (at most "
                        "%d)",
                        sw->n, SN_SPEC_MAX_NET_SWITCHES);
    if ((rc = explicit_switches(c, sw, nodes, &total)))
        return rc;
    /* ix, the sorted names, is made even when they are not unique */
    if (!(rc = explicit_names(c, sw, &ix)) &&
        !(rc = explicit_nodes(c, sw, total)))
        rc = explicit_links(c, sn_yaml_get(m, "links"), ix);
    free(ix);
    return rc;
}

/* A fat tree: the switch (by default the NDR box for 400G NICs and
 * below, the XDR box for 800G: DGX SuperPOD H100 and B300 reference
 * architectures), the oversubscription, and the tiers, the fewest that
 * join every port unless given (sn_fat_tree_fit()). */
static int fat_tree(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_spec *s = c->spec;
    struct sn_scaleout *o = &s->scaleout;
    const char *deflt = NULL;
    bool rail = o->topology == SN_NET_RAIL_FAT_TREE;
    struct sn_fat_tree_fit fit;
    double servers, cap;
    int rc;
    char r[32];

    if (!sn_yaml_get(m, "switch") && !sn_yaml_get(m, "radix")) {
        if (o->nic_bw <= 400 * 1.25e8 * 1.001)
            deflt = "qm9700";
        else if (o->nic_bw <= 800 * 1.25e8 * 1.001)
            deflt = "quantum-x800-q3400";
        else
            return sn__fail(
                c, m,
                "no default switch for %s NIC ports "
                "(expected scaleout.switch or "
                "scaleout.radix)",
                sn_unit_format(o->nic_bw, SN_UNIT_BANDWIDTH, r, sizeof(r)));
    }
    if ((rc = sn__pick_switch(c, m, "scaleout", deflt, &o->sw, &o->radix)))
        return rc;
    if (o->sw && o->sw->port_bw < o->nic_bw * 0.999) {
        char p[32];
        return sn__fail(
            c, sn__at(m, "switch"),
            "the %s ports (%s) are slower than the NIC ports "
            "(%s)",
            o->sw->name,
            sn_unit_format(o->sw->port_bw, SN_UNIT_BANDWIDTH, p, sizeof(p)),
            sn_unit_format(o->nic_bw, SN_UNIT_BANDWIDTH, r, sizeof(r)));
    }
    o->oversubscription = 1;
    if ((rc = sn__get_qty(c, m, "oversubscription", "scaleout", SN_UNIT_RATIO,
                          1, 16, &o->oversubscription)))
        return rc;
    servers =
        (double)s->supernodes * (s->scaleup.accelerators / s->scaleup.per_node);
    sn_fat_tree_fit(o->radix, o->oversubscription, servers, o->nics_per_node,
                    rail, &fit);
    if (!fit.split)
        return sn__fail(c, sn__at(m, "oversubscription"),
                        "a %d-port leaf cannot split its ports %g:1", o->radix,
                        o->oversubscription);
    cap = (double)o->radix * (o->radix / 2) * fit.down;
    o->tiers = 0;
    if ((rc = sn__get_int(c, m, "tiers", "scaleout", 1, 3, &o->tiers)))
        return rc;
    if (o->tiers && !fit.fits[o->tiers - 1])
        return sn__fail(c, sn_yaml_get(m, "tiers"),
                        "%.0f NIC ports do not fit in %d tier%s of %d-port "
                        "switches (expected more tiers or a larger radix)",
                        fit.ports, o->tiers, o->tiers > 1 ? "s" : "", o->radix);
    if (!o->tiers)
        o->tiers = fit.tiers;
    if (!o->tiers)
        return sn__fail(c, sn__at(m, "switch"),
                        "%.0f NIC ports do not fit in a 3-tier fat tree of "
                        "%d-port switches (at most about %.0f; expected a "
                        "larger radix)",
                        fit.ports, o->radix, cap);
    return SN_OK;
}

/* NICs per node: one per accelerator (DGX H100: 8 ConnectX-7 for 8 GPUs)
 * unless nics_per_node or nics_per_accelerator says otherwise; none
 * without a network, and not too many in all. */
static int scaleout_nics(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_spec *s = c->spec;
    struct sn_scaleout *o = &s->scaleout;
    const struct sn_yaml *nicn;
    int rc, per_accel = 0;
    double total;

    if (sn_yaml_get(m, "nics_per_node") &&
        sn_yaml_get(m, "nics_per_accelerator"))
        return sn__fail(c, sn_yaml_get(m, "nics_per_accelerator"),
                        "give scaleout.nics_per_node or "
                        "scaleout.nics_per_accelerator, not both");
    o->nics_per_node = o->topology == SN_NET_NONE ? 0 : s->scaleup.per_node;
    if ((rc = sn__get_int(c, m, "nics_per_node", "scaleout", 0,
                          SN_SPEC_MAX_NICS_PER_NODE, &o->nics_per_node)) ||
        (rc = sn__get_int(c, m, "nics_per_accelerator", "scaleout", 1, 64,
                          &per_accel)))
        return rc;
    if (per_accel) {
        if ((long long)per_accel * s->scaleup.per_node >
            SN_SPEC_MAX_NICS_PER_NODE)
            return sn__fail(c, sn_yaml_get(m, "nics_per_accelerator"),
                            "%d NICs per accelerator x %d per node exceed "
                            "%d NICs per node",
                            per_accel, s->scaleup.per_node,
                            SN_SPEC_MAX_NICS_PER_NODE);
        o->nics_per_node = per_accel * s->scaleup.per_node;
    }
    nicn = sn_yaml_get(m, "nics_per_node");
    if (!nicn)
        nicn = sn_yaml_get(m, "nics_per_accelerator");
    if (o->topology == SN_NET_NONE && o->nics_per_node > 0)
        return sn__fail(c, nicn,
                        "scaleout topology none has no NICs "
                        "(expected topology external or a fat "
                        "tree)");
    if (o->topology != SN_NET_NONE && o->nics_per_node == 0)
        return sn__fail(c, nicn ? nicn : m,
                        "scaleout topology %s needs NICs (expected "
                        "nics_per_node of 1 or more)",
                        sn_net_topology_name(o->topology));
    total = (double)s->supernodes *
            (s->scaleup.accelerators / s->scaleup.per_node) * o->nics_per_node;
    if (total > SN_SPEC_MAX_TOTAL_NICS)
        return sn__fail(c, nicn ? nicn : m,
                        "the cluster would have %.0f NIC ports (at most "
                        "%.0f)",
                        total, SN_SPEC_MAX_TOTAL_NICS);
    return SN_OK;
}

/* The NIC: a catalog entry (cx7-400g unless named), its rate overridden
 * by nic_rate. */
static int scaleout_nic(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_scaleout *o = &c->spec->scaleout;
    const struct sn_catalog *cat = &c->spec->catalog;
    const struct sn_yaml *nn;
    int rc;

    if ((nn = sn__scalar(c, m, "nic", "scaleout", &rc)) == NULL && rc)
        return rc;
    if (nn || !sn_yaml_get(m, "nic_rate")) {
        const char *name = nn ? nn->value : "cx7-400g";
        o->nic = sn_catalog_nic(cat, name);
        if (!o->nic) {
            const char *near = sn__catalog_suggest(
                (const void *const *)cat->nics, cat->nnics, name);
            return sn__fail(c, nn, "unknown nic '%.64s'%s%s%s", name,
                            near ? " (did you mean '"
                                 : " (see 'supernode catalog list "
                                   "nics')",
                            near ? near : "", near ? "'?)" : "");
        }
        o->nic_bw = o->nic->rate;
    }
    return sn__get_qty(c, m, "nic_rate", "scaleout", SN_UNIT_BANDWIDTH, 1e6,
                       1e13, &o->nic_bw);
}

int sn__scaleout(struct sn__ctx *c)
{
    struct sn_scaleout *o = &c->spec->scaleout;
    const struct sn_yaml *m = sn_yaml_get(c->root, "scaleout");
    static const struct sn_yaml empty = {.type = SN_YAML_MAP};
    const char *what = "scaleout";
    int rc, topo = -1;

    if (m && ((rc = sn__expect_map(c, m, what)) ||
              (rc = sn__check_keys(c, m, what, scaleout_keys))))
        return rc;
    if (!m)
        m = &empty;
    o->pos = sn__pos_of(m);
    if ((rc = sn__get_enum(c, m, "topology", what, net_names, &topo)))
        return rc;
    o->topology = topo >= 0 ? (enum sn_net_topology)topo : SN_NET_EXTERNAL;
    if ((rc = scaleout_nics(c, m)) ||
        (rc = sn__check_scope(c, m, what, scaleout_scope,
                              SN_ARRAY_LEN(scaleout_scope), o->topology)))
        return rc;
    if (o->topology == SN_NET_NONE)
        return SN_OK;
    if ((rc = scaleout_nic(c, m)))
        return rc;
    if (o->topology == SN_NET_FAT_TREE || o->topology == SN_NET_RAIL_FAT_TREE)
        rc = fat_tree(c, m);
    else if (o->topology == SN_NET_EXPLICIT)
        rc = explicit_net(c, m);
    if (rc)
        return rc;
    if ((rc =
             sn__pick_cable(c, m, what, o->nic_bw, "the NIC ports", &o->cable)))
        return rc;
    o->latency = o->sw ? o->sw->latency : 0;
    return sn__get_qty(c, m, "latency", what, SN_UNIT_TIME, 1e-9, 1e-3,
                       &o->latency);
}
