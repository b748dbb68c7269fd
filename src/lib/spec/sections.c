/* sections.c: the spec's sections, one function each, in the order they
 * depend on one another: catalog, accelerator, supernode (scale-up),
 * supernodes, scale-out, racks, cooling, power, storage, workload. Each
 * reads its keys, fills the defaults docs/spec.md documents, and checks
 * that the counts fit together, pointing at the value at fault. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec-int.h"

static const char *const top_keys[] = {
    "name",        "description", "accelerator", "supernode",
    "scaleout",    "supernodes",  "racks",       "power",
    "cooling",     "storage",     "workload",    "catalog",
    "collectives", "reliability", "node",        "hosts",
    NULL,
};

static const char *const fabric_names[] = {
    "none", "switched", "full_mesh", "partial_mesh", "torus", "pcie_tree", NULL,
};
static const char *const net_names[] = {
    "none", "external", "rail_fat_tree", "fat_tree", "explicit", NULL,
};
static const char *const medium_names[] = {
    "board", "copper", "acc", "aoc", "mmf", "smf", NULL,
};
static const char *const feed_names[] = {"ac-1phase", "ac-3phase", "hvdc",
                                         NULL};
static const char *const cooling_names[] = {"air", "cold_plate", "immersion",
                                            NULL};
static const char *const coolant_names[] = {"water", "pg25", NULL};

const char *sn_fabric_name(enum sn_fabric f)
{
    if ((unsigned)f >= SN_ARRAY_LEN(fabric_names) - 1)
        return "?";
    return fabric_names[f];
}

const char *sn_net_topology_name(enum sn_net_topology t)
{
    if ((unsigned)t >= SN_ARRAY_LEN(net_names) - 1)
        return "?";
    return net_names[t];
}

static struct sn_pos pos_of(const struct sn_yaml *n)
{
    struct sn_pos p = {0, 0};

    if (n) {
        p.line = n->line;
        p.col = n->col;
    }
    return p;
}

/* Fail when key is given but does not apply in this configuration. */
static int not_here(struct sn__ctx *c, const struct sn_yaml *map,
                    const char *what, const char *key, const char *why)
{
    const struct sn_yaml *n = sn_yaml_get(map, key);

    if (!n)
        return SN_OK;
    for (size_t i = 0; i < map->n; i++)
        if (map->items[i] == n)
            return sn__fail(c, map->keys[i], "%s.%s %s", what, key, why);
    return SN_OK;
}

/* The position to blame for a defaulted value: the key when given, else
 * the section. */
#define AT(map, key) sn__at((map), (key))

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
static int pick_cable(struct sn__ctx *c, const struct sn_yaml *m,
                      const char *what, double rate, const char *ratewhat,
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

/* ---- supernode: the scale-up domain ---------------------------------------
 */

static const char *const scaleup_keys[] = {
    "accelerators",
    "per_node",
    "fabric",
    "links_per_accelerator",
    "link_rate",
    "link_latency",
    "planes",
    "tiers",
    "switch",
    "radix",
    "switches_per_plane",
    "switch_groups",
    "group",
    "torus",
    "medium",
    "cable",
    "in_network_reduction",
    NULL,
};


/* A switch chip given by catalog name or by radix alone; *sw is NULL for
 * a radix-only switch. Neither given: the default name, when there is
 * one. */
static int pick_switch(struct sn__ctx *c, const struct sn_yaml *m,
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

static int check_switched(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_scaleup *u = &c->spec->scaleup;
    const struct sn_accel_info *a = c->spec->accel;
    const char *swname;
    long long lpp, ports, need;
    int rc;

    /* the accelerator's tiers are its multi-node domain's: a supernode of
     * one node has its switch chips on the board, one tier */
    u->tiers = a->scaleup_tiers > 0 && u->accelerators > u->per_node
                   ? a->scaleup_tiers
                   : 1;
    u->planes = 0;
    if ((rc = sn__get_int(c, m, "tiers", "supernode", 1, 2, &u->tiers)) ||
        (rc = sn__get_int(c, m, "planes", "supernode", 1,
                          SN_SPEC_MAX_LINKS_PER_ACCEL, &u->planes)))
        return rc;
    if (!u->planes)
        u->planes =
            a->scaleup_planes > 0 && a->scaleup_planes <= u->links_per_accel
                ? a->scaleup_planes
                : u->links_per_accel;
    if (u->planes > u->links_per_accel || u->links_per_accel % u->planes)
        return sn__fail(c, AT(m, "planes"),
                        "supernode.links_per_accelerator %d cannot be spread "
                        "evenly over %d planes (expected planes dividing %d)",
                        u->links_per_accel, u->planes, u->links_per_accel);
    if ((rc =
             pick_switch(c, m, "supernode", a->switch_name, &u->sw, &u->radix)))
        return rc;
    if (!u->radix)
        return sn__fail(c, m,
                        "a switched fabric needs switch chips "
                        "(expected supernode.switch: NAME from "
                        "'supernode catalog list switches', or "
                        "supernode.radix: PORTS)");
    swname = u->sw ? u->sw->name : "switch";
    if (u->sw && u->link_bw > u->sw->port_bw * 1.001) {
        char l[32], p[32];
        return sn__fail(
            c, AT(m, "link_rate"),
            "supernode.link_rate %s exceeds the %s port rate of "
            "%s",
            sn_unit_format(u->link_bw, SN_UNIT_BANDWIDTH, l, sizeof(l)), swname,
            sn_unit_format(u->sw->port_bw, SN_UNIT_BANDWIDTH, p, sizeof(p)));
    }
    lpp = u->links_per_accel / u->planes;
    u->switch_groups = 1;
    if ((rc = sn__get_int(c, m, "switch_groups", "supernode", 1, 64,
                          &u->switch_groups)))
        return rc;
    if (u->switch_groups > 1 &&
        (u->tiers != 1 ||
         (u->accelerators / u->per_node) % u->switch_groups))
        return sn__fail(c, sn_yaml_get(m, "switch_groups"),
                        "supernode.switch_groups %d needs one tier and a "
                        "node count (%d) it divides",
                        u->switch_groups, u->accelerators / u->per_node);
    if (u->tiers == 1) {
        /* one tier: every accelerator reaches every chip of its plane (or
         * two accelerators would share no chip), so a plane has at most
         * lpp chips, each taking A x ceil(lpp / chips) links. Switch
         * groups (NVL36x2: two racks of 36) have chips of their own, each
         * taking its group's links and as many trunks to the other
         * groups' chips */
        long long members = u->accelerators / u->switch_groups;
        int mult = u->switch_groups > 1 ? 2 : 1;
        need = (members * lpp * mult + u->radix - 1) / u->radix;
        u->switches_per_plane = (int)need;
        /* a one-node supernode on the accelerator's own switch is the
         * platform's board: it carries the chips it carries (HGX H100
         * 4, not the 3 the radix would allow), when they fit */
        if (u->accelerators <= u->per_node && a->board_switches > 0 &&
            u->sw && a->switch_name &&
            sn_strcaseeq(u->sw->name, a->switch_name) &&
            a->board_switches % u->planes == 0) {
            long long board = a->board_switches / u->planes;
            if (board >= need && board <= lpp)
                u->switches_per_plane = (int)board;
        }
        if ((rc = sn__get_int(c, m, "switches_per_plane", "supernode", 1,
                              SN_SPEC_MAX_ACCELS, &u->switches_per_plane)))
            return rc;
        if (u->switches_per_plane > lpp)
            return sn__fail(
                c,
                AT(m, sn_yaml_get(m, "switches_per_plane")
                          ? "switches_per_plane"
                          : "accelerators"),
                "%d accelerators need %d %s chips per plane, but each has "
                "only %lld link%s in a plane to reach them (expected tiers: "
                "2, more links per plane, or fewer accelerators)",
                u->accelerators, u->switches_per_plane, swname, lpp,
                lpp == 1 ? "" : "s");
        ports = members * mult *
                ((lpp + u->switches_per_plane - 1) / u->switches_per_plane);
        if (ports > u->radix)
            return sn__fail(c, AT(m, "switches_per_plane"),
                            "%d %s chips of %d ports per plane cannot take "
                            "the %lld links of each plane (expected at least "
                            "%lld)",
                            u->switches_per_plane, swname, u->radix,
                            (long long)u->accelerators * lpp, need);
    } else {
        /* two tiers (CloudMatrix): one L1 chip per plane on each node
         * takes per_node x lpp links down and as many up, spread evenly
         * over the plane's L2 chips; each L2 chip takes the same number
         * from every node */
        long long down = (long long)u->per_node * lpp;
        long long nodes = u->accelerators / u->per_node, per, up;
        long long spp = 0;
        for (long long k = 1; k <= down && !spp; k++)
            if (nodes * ((down + k - 1) / k) <= u->radix)
                spp = k;
        u->switches_per_plane = spp ? (int)spp : (int)down;
        if ((rc = sn__get_int(c, m, "switches_per_plane", "supernode", 1,
                              SN_SPEC_MAX_ACCELS, &u->switches_per_plane)))
            return rc;
        per = (down + u->switches_per_plane - 1) / u->switches_per_plane;
        up = per * u->switches_per_plane;
        if (down + up > u->radix)
            return sn__fail(c, AT(m, "tiers"),
                            "a 2-tier fabric needs %lld links down and %lld "
                            "up on each node's L1 chip; the %s has %d ports",
                            down, up, swname, u->radix);
        if (nodes * per > u->radix)
            return sn__fail(c,
                            AT(m, sn_yaml_get(m, "switches_per_plane")
                                      ? "switches_per_plane"
                                      : "accelerators"),
                            "an L2 %s of %d ports cannot take %lld nodes x "
                            "%lld links (expected more L2 chips per plane, "
                            "or fewer nodes)",
                            swname, u->radix, nodes, per);
    }
    u->in_network_reduction = u->sw && u->sw->in_network_reduction;
    if ((rc = sn__get_bool(c, m, "in_network_reduction", "supernode",
                           &u->in_network_reduction)))
        return rc;
    if (u->in_network_reduction && u->sw && !u->sw->in_network_reduction)
        return sn__fail(c, sn_yaml_get(m, "in_network_reduction"),
                        "supernode.in_network_reduction: the %s does not "
                        "reduce in the network",
                        swname);
    return SN_OK;
}

static int check_torus(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_scaleup *u = &c->spec->scaleup;
    const struct sn_yaml *t = sn_yaml_get(m, "torus");
    long long prod = 1;
    int rc;

    if (!t)
        return sn__fail(c, m,
                        "a torus fabric needs its shape (expected "
                        "supernode.torus: [X, Y] or [X, Y, Z])");
    if (t->type != SN_YAML_SEQ || t->n < 2 || t->n > 3)
        return sn__fail(c, t,
                        "supernode.torus is not a list of 2 or 3 sizes "
                        "(expected [X, Y] or [X, Y, Z])");
    u->ndims = (int)t->n;
    for (size_t i = 0; i < t->n; i++) {
        long long v;
        if ((rc = sn__int_value(c, t->items[i], "supernode.torus", 2,
                                SN_SPEC_MAX_ACCELS, &v)))
            return rc;
        u->dims[i] = (int)v;
        prod *= v;
        if (prod > SN_SPEC_MAX_ACCELS)
            break;
    }
    if (prod != u->accelerators)
        return sn__fail(c, t,
                        "supernode.torus holds %lld accelerators, not "
                        "the %d of supernode.accelerators",
                        prod, u->accelerators);
    if (u->links_per_accel % (2 * u->ndims))
        return sn__fail(c, AT(m, "links_per_accelerator"),
                        "a %dD torus gives each accelerator %d neighbours; "
                        "links_per_accelerator %d is not a multiple of %d",
                        u->ndims, 2 * u->ndims, u->links_per_accel,
                        2 * u->ndims);
    return SN_OK;
}

static int scaleup(struct sn__ctx *c)
{
    const struct sn_yaml *m = sn_yaml_get(c->root, "supernode");
    struct sn_scaleup *u = &c->spec->scaleup;
    const struct sn_accel_info *a = c->spec->accel;
    const char *what = "supernode";
    int rc, fabric = -1, medium = -1;
    char x[32], y[32];

    if (!m)
        return sn__fail(c, c->root,
                        "the spec has no 'supernode' section "
                        "(expected at least supernode: "
                        "{accelerators: N})");
    if ((rc = sn__expect_map(c, m, what)) ||
        (rc = sn__check_keys(c, m, what, scaleup_keys)))
        return rc;
    u->pos = pos_of(m);
    if (!sn_yaml_get(m, "accelerators"))
        return sn__fail(c, m,
                        "supernode has no 'accelerators' (expected the "
                        "number of accelerators in one supernode, such "
                        "as 64)");
    if ((rc = sn__get_int(c, m, "accelerators", what, 1, SN_SPEC_MAX_ACCELS,
                          &u->accelerators)))
        return rc;
    if (u->accelerators > a->max_domain)
        return sn__fail(c, sn_yaml_get(m, "accelerators"),
                        "supernode.accelerators %d exceeds the %d the %s "
                        "joins in one scale-up domain (expected at most %d, "
                        "or an accelerator entry with a larger max_domain)",
                        u->accelerators, a->max_domain, a->name, a->max_domain);
    u->per_node = a->per_node > 0 && a->per_node < u->accelerators
                      ? a->per_node
                      : u->accelerators;
    if ((rc = sn__get_int(c, m, "per_node", what, 1, SN_SPEC_MAX_PER_NODE,
                          &u->per_node)))
        return rc;
    if (u->per_node > u->accelerators)
        return sn__fail(c, sn_yaml_get(m, "per_node"),
                        "supernode.per_node %d exceeds supernode.accelerators "
                        "%d",
                        u->per_node, u->accelerators);
    if (u->accelerators % u->per_node)
        return sn__fail(c,
                        sn_yaml_get(m, "per_node")
                            ? sn_yaml_get(m, "per_node")
                            : sn_yaml_get(m, "accelerators"),
                        "supernode.accelerators %d is not a multiple of "
                        "per_node %d (expected whole nodes)",
                        u->accelerators, u->per_node);
    if ((rc = sn__get_enum(c, m, "fabric", what, fabric_names, &fabric)))
        return rc;
    if (fabric < 0)
        fabric = u->accelerators == 1 ? SN_FABRIC_NONE : (int)a->fabric;
    u->fabric = (enum sn_fabric)fabric;
    if (u->accelerators == 1 && u->fabric != SN_FABRIC_NONE)
        return sn__fail(c, sn_yaml_get(m, "fabric"),
                        "a supernode of one accelerator has no scale-up "
                        "fabric (expected fabric: none)");
    /* keys that belong to other fabrics are mistakes worth a message */
    if (u->fabric == SN_FABRIC_NONE) {
        static const char *const links[] = {"links_per_accelerator",
                                            "link_rate", "link_latency",
                                            "medium", NULL};
        for (size_t i = 0; links[i]; i++)
            if ((rc = not_here(c, m, what, links[i],
                               "does not apply to fabric none (no scale-up "
                               "links)")))
                return rc;
    }
    if (u->fabric != SN_FABRIC_SWITCHED) {
        static const char *const sw[] = {"planes", "tiers",
                                         "in_network_reduction", NULL};
        for (size_t i = 0; sw[i]; i++)
            if ((rc = not_here(c, m, what, sw[i],
                               "applies only to fabric switched")))
                return rc;
        {
            static const char *const sw2[] = {"switch", "radix",
                                              "switches_per_plane",
                                              "switch_groups", NULL};
            for (size_t i = 0; sw2[i]; i++)
                if ((rc = not_here(c, m, what, sw2[i],
                                   "applies only to fabric switched")))
                    return rc;
        }
    }
    if (u->fabric != SN_FABRIC_PARTIAL_MESH &&
        u->fabric != SN_FABRIC_PCIE_TREE &&
        (rc = not_here(c, m, what, "group",
                       "applies only to fabric partial_mesh or pcie_tree")))
        return rc;
    if (u->fabric != SN_FABRIC_TORUS &&
        (rc = not_here(c, m, what, "torus", "applies only to fabric torus")))
        return rc;
    if (u->fabric == SN_FABRIC_NONE) {
        u->medium = SN_MEDIUM_BOARD;
        return SN_OK;
    }

    /* links: how many, how fast */
    if (u->fabric == SN_FABRIC_PCIE_TREE)
        u->links_per_accel = 1; /* one x16 link to its PCIe switch */
    else if (a->scaleup_links > 0)
        u->links_per_accel = a->scaleup_links;
    else if (u->fabric == SN_FABRIC_FULL_MESH)
        u->links_per_accel = u->accelerators - 1;
    else if (u->fabric == SN_FABRIC_TORUS && sn_yaml_get(m, "torus") &&
             sn_yaml_get(m, "torus")->type == SN_YAML_SEQ)
        u->links_per_accel = 2 * (int)sn_yaml_get(m, "torus")->n;
    if ((rc = sn__get_int(c, m, "links_per_accelerator", what, 1,
                          SN_SPEC_MAX_LINKS_PER_ACCEL, &u->links_per_accel)))
        return rc;
    if (u->links_per_accel == 0)
        return sn__fail(c, m,
                        "the %s has no scale-up links in the catalog "
                        "(expected supernode.links_per_accelerator and "
                        "supernode.link_rate)",
                        a->name);
    if (u->fabric != SN_FABRIC_PCIE_TREE && a->scaleup_links > 0 &&
        u->links_per_accel > a->scaleup_links)
        return sn__fail(c, sn_yaml_get(m, "links_per_accelerator"),
                        "supernode.links_per_accelerator %d exceeds the %d "
                        "scale-up links of the %s",
                        u->links_per_accel, a->scaleup_links, a->name);
    /* a PCIe tree runs at PCIe 5.0 x16, or slower where the
     * accelerator's own PCIe is (an L20 is Gen4 x16) */
    if (u->fabric == SN_FABRIC_PCIE_TREE)
        u->link_bw = a->fabric == SN_FABRIC_PCIE_TREE &&
                             a->scaleup_links > 0 && a->scaleup_bw > 0 &&
                             a->scaleup_bw / a->scaleup_links < SN_PCIE5_X16
                         ? a->scaleup_bw / a->scaleup_links
                         : SN_PCIE5_X16;
    else if (a->scaleup_links > 0)
        u->link_bw = a->scaleup_bw / a->scaleup_links;
    if ((rc = sn__get_qty(c, m, "link_rate", what, SN_UNIT_BANDWIDTH, 1e6, 1e13,
                          &u->link_bw)) ||
        (rc = sn__get_qty(c, m, "link_latency", what, SN_UNIT_TIME, 1e-9, 1e-3,
                          &u->link_latency)))
        return rc;
    if (u->link_bw <= 0)
        return sn__fail(c, m,
                        "the %s has no scale-up bandwidth in the "
                        "catalog (expected supernode.link_rate)",
                        a->name);
    if (u->fabric != SN_FABRIC_PCIE_TREE && a->scaleup_bw > 0 &&
        u->links_per_accel * u->link_bw > a->scaleup_bw * 1.001)
        return sn__fail(
            c, AT(m, "link_rate"),
            "%d links x %s exceed the %s scale-up bandwidth of "
            "%s per direction",
            u->links_per_accel,
            sn_unit_format(u->link_bw, SN_UNIT_BANDWIDTH, x, sizeof(x)),
            a->name,
            sn_unit_format(a->scaleup_bw, SN_UNIT_BANDWIDTH, y, sizeof(y)));
    /* a domain inside one node runs on the board; across nodes, cables */
    u->medium =
        u->accelerators == u->per_node ? SN_MEDIUM_BOARD : SN_MEDIUM_COPPER;
    if ((rc = sn__get_enum(c, m, "medium", what, medium_names, &medium)) ||
        (rc = pick_cable(c, m, what, u->link_bw, "supernode.link_rate",
                         &u->cable)))
        return rc;
    if (u->cable && medium >= 0 && (enum sn_medium)medium != u->cable->medium)
        return sn__fail(c, sn_yaml_get(m, "medium"),
                        "supernode.medium %s contradicts the %s cable (%s)",
                        medium_names[medium], u->cable->name,
                        sn_medium_name(u->cable->medium));
    if (medium >= 0)
        u->medium = (enum sn_medium)medium;
    else if (u->cable)
        u->medium = u->cable->medium;

    switch (u->fabric) {
    case SN_FABRIC_SWITCHED:
        return check_switched(c, m);
    case SN_FABRIC_FULL_MESH: {
        int peers = u->accelerators - 1;
        if (u->links_per_accel < peers || u->links_per_accel % peers)
            return sn__fail(c, AT(m, "links_per_accelerator"),
                            "a full mesh of %d accelerators needs links per "
                            "accelerator in multiples of its %d peers, not "
                            "%d",
                            u->accelerators, peers, u->links_per_accel);
        u->planes = 1;
        u->tiers = 1;
        return SN_OK;
    }
    case SN_FABRIC_PARTIAL_MESH:
        u->group = u->per_node;
        if ((rc = sn__get_int(c, m, "group", what, 2, SN_SPEC_MAX_ACCELS,
                              &u->group)))
            return rc;
        if (u->group < 2 || u->group > u->accelerators ||
            u->accelerators % u->group)
            return sn__fail(c, AT(m, "group"),
                            "supernode.group %d does not divide the %d "
                            "accelerators into groups of 2 or more",
                            u->group, u->accelerators);
        if (u->links_per_accel < u->group - 1)
            return sn__fail(c, AT(m, "links_per_accelerator"),
                            "a group of %d needs %d links per accelerator "
                            "inside it; links_per_accelerator is %d",
                            u->group, u->group - 1, u->links_per_accel);
        {
            /* between groups, each accelerator links to the one at its
             * position in every other group, the same number of times */
            int groups = u->accelerators / u->group;
            int rest = u->links_per_accel - (u->group - 1);
            if (groups == 1 ? rest != 0 : (rest == 0 || rest % (groups - 1)))
                return sn__fail(c, AT(m, "links_per_accelerator"),
                                "%d links per accelerator leave %d for the "
                                "links between %d groups (expected %s)",
                                u->links_per_accel, rest, groups,
                                groups == 1 ? "none: one group is a full "
                                              "mesh"
                                            : "a positive multiple of the "
                                              "other groups, one set to the "
                                              "same position in each");
        }
        u->planes = 1;
        u->tiers = 1;
        return SN_OK;
    case SN_FABRIC_TORUS:
        u->planes = 1;
        u->tiers = 1;
        return check_torus(c, m);
    case SN_FABRIC_PCIE_TREE:
        if (u->accelerators != u->per_node)
            return sn__fail(c, sn_yaml_get(m, "accelerators"),
                            "a pcie_tree fabric stays inside one node: "
                            "supernode.accelerators %d must equal per_node %d",
                            u->accelerators, u->per_node);
        /* one PCIe switch for the node unless group says how many
         * accelerators share one */
        u->group = u->per_node;
        if ((rc = sn__get_int(c, m, "group", what, 1, SN_SPEC_MAX_PER_NODE,
                              &u->group)))
            return rc;
        if (u->group > u->per_node)
            return sn__fail(c, sn_yaml_get(m, "group"),
                            "supernode.group %d exceeds the %d accelerators "
                            "of a node",
                            u->group, u->per_node);
        u->planes = 1;
        u->tiers = 1;
        u->switches_per_plane = (u->per_node + u->group - 1) / u->group;
        return SN_OK;
    case SN_FABRIC_NONE:
        break;
    }
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

/* ---- scale-out
 * --------------------------------------------------------------- */

static const char *const scaleout_keys[] = {
    "topology", "nics_per_node", "nics_per_accelerator",
    "nic",      "nic_rate",      "tiers",
    "switch",   "radix",         "oversubscription",
    "latency",  "cable",         "switches",
    "links",    NULL,
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
        x->pos = pos_of(e);
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

static int explicit_net(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_spec *s = c->spec;
    struct sn_scaleout *o = &s->scaleout;
    const struct sn_yaml *sw = sn_yaml_get(m, "switches");
    const struct sn_yaml *ln = sn_yaml_get(m, "links");
    const struct sn_yaml *bad = NULL;
    long long nodes = (long long)s->supernodes *
                      (s->scaleup.accelerators / s->scaleup.per_node);
    struct name_ix *ix = NULL;
    struct listing *all = NULL;
    size_t total = 0, k = 0;
    int rc = SN_OK;
    char what[64];

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

    /* names: unique; the second of a pair is the one reported */
    ix = sn_xcalloc(o->nswitches, sizeof(*ix));
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
    if (bad) {
        rc = sn__fail(c, bad,
                      "scaleout.switches: switch name '%s' is given "
                      "twice",
                      bad->value);
        goto out;
    }

    /* nodes: once per switch, on no more switches than they have NICs */
    all = sn_xcalloc(total ? total : 1, sizeof(*all));
    for (size_t i = 0; i < o->nswitches; i++) {
        const struct sn_yaml *nl = sn_yaml_get(sw->items[i], "nodes");
        for (size_t j = 0; j < o->switches[i].nnodes; j++) {
            all[k].node = o->switches[i].nodes[j];
            all[k].sw = (int)i;
            all[k].item = nl->items[j];
            k++;
        }
    }
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
    for (size_t i = 0; i < total;) {
        size_t j = i;
        while (j < total && all[j].node == all[i].node)
            j++;
        if ((int)(j - i) > o->nics_per_node && before(all[j - 1].item, bad))
            bad = all[j - 1].item;
        i = j;
    }
    if (bad) {
        rc = sn__fail(c, bad,
                      "node %s is on more switches than its %d NIC ports "
                      "(scaleout.nics_per_node)",
                      bad->value, o->nics_per_node);
        goto out;
    }

    if (!ln)
        goto out;
    if (ln->type != SN_YAML_SEQ) {
        rc = sn__fail(c, ln, "scaleout.links is not a list of links");
        goto out;
    }
    if (ln->n > SN_SPEC_MAX_NET_LINKS) {
        rc = sn__fail(c, ln, "scaleout.links has %zu entries (at most %d)",
                      ln->n, SN_SPEC_MAX_NET_LINKS);
        goto out;
    }
    o->links =
        sn__arena_alloc(c->arena, (ln->n ? ln->n : 1) * sizeof(*o->links));
    for (size_t i = 0; i < ln->n; i++) {
        const struct sn_yaml *e = ln->items[i], *b;
        struct sn_net_link *x = &o->links[i];
        int ends[2];

        snprintf(what, sizeof(what), "scaleout.links[%zu]", i);
        if ((rc = sn__expect_map(c, e, what)) ||
            (rc = sn__check_keys(c, e, what, net_link_keys)))
            goto out;
        b = sn_yaml_get(e, "between");
        if (!b || b->type != SN_YAML_SEQ || b->n != 2) {
            rc = sn__fail(c, b ? b : e,
                          "%s.between is not a pair of switch "
                          "names [A, B]",
                          what);
            goto out;
        }
        for (int j = 0; j < 2; j++) {
            const struct sn_yaml *v = b->items[j];
            if (v->type != SN_YAML_SCALAR) {
                rc = sn__fail(c, v,
                              "%s.between holds %s (expected a switch "
                              "name)",
                              what, sn_yaml_type_name(v->type));
                goto out;
            }
            ends[j] = find_switch(ix, o->nswitches, v->value);
            if (ends[j] < 0) {
                const char *near =
                    sn_suggest_strided(v->value, &o->switches[0].name,
                                       o->nswitches, sizeof(o->switches[0]));
                rc = sn__fail(c, v, "%s: unknown switch '%.64s'%s%s%s", what,
                              v->value, near ? " (did you mean '" : "",
                              near ? near : "", near ? "'?)" : "");
                goto out;
            }
        }
        if (ends[0] == ends[1]) {
            rc = sn__fail(c, b, "%s joins switch '%s' to itself", what,
                          o->switches[ends[0]].name);
            goto out;
        }
        x->a = ends[0];
        x->b = ends[1];
        x->count = 1;
        x->bw = 0; /* the NIC rate */
        x->pos = pos_of(e);
        if ((rc = sn__get_int(c, e, "count", what, 1, 1024, &x->count)) ||
            (rc = sn__get_qty(c, e, "rate", what, SN_UNIT_BANDWIDTH, 1e6, 1e13,
                              &x->bw)))
            goto out;
        o->nlinks = i + 1;
    }
out:
    free(all);
    free(ix);
    return rc;
}

static int fat_tree(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_spec *s = c->spec;
    struct sn_scaleout *o = &s->scaleout;
    const char *deflt = NULL;
    bool rail = o->topology == SN_NET_RAIL_FAT_TREE, fits[3];
    double servers, ports, leaves, cap;
    int rc, d;
    char r[32];

    /* the NDR box for 400G NICs and below, the XDR box for 800G (DGX
     * SuperPOD H100 and B300 reference architectures) */
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
    if ((rc = pick_switch(c, m, "scaleout", deflt, &o->sw, &o->radix)))
        return rc;
    if (o->sw && o->sw->port_bw < o->nic_bw * 0.999) {
        char p[32];
        return sn__fail(
            c, AT(m, "switch"),
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
    /* leaf ports split down:up in the ratio oversubscription:1 */
    d = (int)floor(o->radix * o->oversubscription / (1 + o->oversubscription));
    if (d < 1 || d >= o->radix)
        return sn__fail(c, AT(m, "oversubscription"),
                        "a %d-port leaf cannot split its ports %g:1", o->radix,
                        o->oversubscription);
    servers =
        (double)s->supernodes * (s->scaleup.accelerators / s->scaleup.per_node);
    ports = servers * o->nics_per_node;
    /* leaves: rail-optimised, one per rail for every d servers; else one
     * for every d NIC ports (DGX SuperPOD RA; Al-Fares et al.) */
    leaves = rail ? ceil(servers / d) * o->nics_per_node : ceil(ports / d);
    /* one tier: every port on one switch, or (rail, asked for) one
     * switch per rail */
    fits[0] = ports <= o->radix || (rail && servers <= o->radix);
    fits[1] = leaves <= o->radix;
    fits[2] = ceil(leaves / (o->radix / 2)) <= o->radix;
    cap = (double)o->radix * (o->radix / 2) * d;
    o->tiers = 0;
    if ((rc = sn__get_int(c, m, "tiers", "scaleout", 1, 3, &o->tiers)))
        return rc;
    if (o->tiers && !fits[o->tiers - 1])
        return sn__fail(c, sn_yaml_get(m, "tiers"),
                        "%.0f NIC ports do not fit in %d tier%s of %d-port "
                        "switches (expected more tiers or a larger radix)",
                        ports, o->tiers, o->tiers > 1 ? "s" : "", o->radix);
    /* chosen here: the fewest tiers that join every port. One tier only
     * when one switch takes them all: one switch per rail alone would
     * join no two rails (a rail-only network is asked for with tiers:
     * 1) */
    if (!o->tiers && ports <= o->radix)
        o->tiers = 1;
    for (int t = 2; t <= 3 && !o->tiers; t++)
        if (fits[t - 1])
            o->tiers = t;
    if (!o->tiers)
        return sn__fail(c, AT(m, "switch"),
                        "%.0f NIC ports do not fit in a 3-tier fat tree of "
                        "%d-port switches (at most about %.0f; expected a "
                        "larger radix)",
                        ports, o->radix, cap);
    return SN_OK;
}

static int scaleout(struct sn__ctx *c)
{
    struct sn_spec *s = c->spec;
    struct sn_scaleout *o = &s->scaleout;
    const struct sn_yaml *m = sn_yaml_get(c->root, "scaleout");
    static const struct sn_yaml empty = {.type = SN_YAML_MAP};
    const char *what = "scaleout";
    int rc, topo = -1, per_accel = 0;
    const struct sn_yaml *nicn;
    double total;

    if (m && ((rc = sn__expect_map(c, m, what)) ||
              (rc = sn__check_keys(c, m, what, scaleout_keys))))
        return rc;
    if (!m)
        m = &empty;
    o->pos = pos_of(m);
    if ((rc = sn__get_enum(c, m, "topology", what, net_names, &topo)))
        return rc;
    o->topology = topo >= 0 ? (enum sn_net_topology)topo : SN_NET_EXTERNAL;
    if (sn_yaml_get(m, "nics_per_node") &&
        sn_yaml_get(m, "nics_per_accelerator"))
        return sn__fail(c, sn_yaml_get(m, "nics_per_accelerator"),
                        "give scaleout.nics_per_node or "
                        "scaleout.nics_per_accelerator, not both");
    /* one NIC per accelerator (DGX H100: 8 ConnectX-7 for 8 GPUs) */
    o->nics_per_node = o->topology == SN_NET_NONE ? 0 : s->scaleup.per_node;
    if ((rc = sn__get_int(c, m, "nics_per_node", what, 0,
                          SN_SPEC_MAX_NICS_PER_NODE, &o->nics_per_node)) ||
        (rc = sn__get_int(c, m, "nics_per_accelerator", what, 1, 64,
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
    if (o->topology != SN_NET_FAT_TREE && o->topology != SN_NET_RAIL_FAT_TREE) {
        static const char *const ft[] = {"tiers", "switch", "radix",
                                         "oversubscription", NULL};
        for (size_t i = 0; ft[i]; i++)
            if ((rc = not_here(c, m, what, ft[i],
                               "applies only to topology fat_tree or "
                               "rail_fat_tree")))
                return rc;
    }
    if (o->topology != SN_NET_EXPLICIT) {
        if ((rc = not_here(c, m, what, "switches",
                           "applies only to topology explicit")) ||
            (rc = not_here(c, m, what, "links",
                           "applies only to topology explicit")))
            return rc;
    }
    if (o->topology == SN_NET_NONE) {
        static const char *const nn[] = {"nic", "nic_rate", "latency", "cable",
                                         NULL};
        for (size_t i = 0; nn[i]; i++)
            if ((rc = not_here(c, m, what, nn[i],
                               "does not apply to topology none")))
                return rc;
        return SN_OK;
    }

    /* the NIC: a catalog entry, its rate overridden by nic_rate */
    {
        const struct sn_yaml *nn;
        const struct sn_catalog *cat = &s->catalog;
        if ((nn = sn__scalar(c, m, "nic", what, &rc)) == NULL && rc)
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
        if ((rc = sn__get_qty(c, m, "nic_rate", what, SN_UNIT_BANDWIDTH, 1e6,
                              1e13, &o->nic_bw)))
            return rc;
    }
    if (o->topology == SN_NET_FAT_TREE || o->topology == SN_NET_RAIL_FAT_TREE)
        rc = fat_tree(c, m);
    else if (o->topology == SN_NET_EXPLICIT)
        rc = explicit_net(c, m);
    if (rc)
        return rc;
    if ((rc = pick_cable(c, m, what, o->nic_bw, "the NIC ports", &o->cable)))
        return rc;
    o->latency = o->sw ? o->sw->latency : 0;
    return sn__get_qty(c, m, "latency", what, SN_UNIT_TIME, 1e-9, 1e-3,
                       &o->latency);
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
    r->pos = pos_of(m);
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
        return sn__fail(c, AT(m, "nodes_per_rack"),
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
    k->pos = pos_of(m);
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
    p->pos = pos_of(m);
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
    st->pos = pos_of(m);
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
    w->pos = pos_of(m);
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

/* ---- hosts: the host of every node ---------------------------------------- */

/* A host name as gethostname() gives it: letters, digits, '.', '-', '_'. */
static bool host_name_ok(const char *s)
{
    size_t n = strlen(s);

    if (n == 0 || n > 64)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' ||
              ch == '_'))
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
        if (v->type != SN_YAML_SCALAR || !host_name_ok(v->value))
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
                                          NULL};
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
        (rc = accelerator(c)) || (rc = scaleup(c)) || (rc = supernodes(c)) ||
        (rc = scaleout(c)) || (rc = racks(c)) || (rc = cooling(c)) ||
        (rc = power(c)) || (rc = storage(c)) || (rc = workload(c)) ||
        (rc = hosts(c)))
        return rc;
    return SN_OK;
}
