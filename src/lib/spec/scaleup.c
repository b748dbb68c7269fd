/* scaleup.c: the `supernode:` section, the scale-up domain: how many
 * accelerators in how many nodes, on which fabric, over how many links of
 * what rate, and the shape each fabric takes (switch chips per plane, mesh
 * groups, torus sizes). Run by sn__convert() after the accelerator. */
#include <stdio.h>

#include "spec-int.h"

const char *const sn__fabric_names[] = {
    "none", "switched", "full_mesh", "partial_mesh", "torus", "pcie_tree", NULL,
};
const char *const sn__medium_names[] = {
    "board", "copper", "acc", "aoc", "mmf", "smf", NULL,
};

const char *sn_fabric_name(enum sn_fabric f)
{
    if ((unsigned)f >= SN_ARRAY_LEN(sn__fabric_names) - 1)
        return "?";
    return sn__fabric_names[f];
}

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

#define FABRIC(f) (1u << SN_FABRIC_##f)
#define NO_LINKS "does not apply to fabric none (no scale-up links)"
#define SWITCHED "applies only to fabric switched"

/* The keys that belong to some fabrics only, with the fabrics they apply
 * to; a spec giving one on another fabric is told so, the first in this
 * order (not the file's) reported. */
static const struct sn__scope scaleup_scope[] = {
    {"links_per_accelerator", ~FABRIC(NONE), NO_LINKS},
    {"link_rate", ~FABRIC(NONE), NO_LINKS},
    {"link_latency", ~FABRIC(NONE), NO_LINKS},
    {"medium", ~FABRIC(NONE), NO_LINKS},
    {"planes", FABRIC(SWITCHED), SWITCHED},
    {"tiers", FABRIC(SWITCHED), SWITCHED},
    {"in_network_reduction", FABRIC(SWITCHED), SWITCHED},
    {"switch", FABRIC(SWITCHED), SWITCHED},
    {"radix", FABRIC(SWITCHED), SWITCHED},
    {"switches_per_plane", FABRIC(SWITCHED), SWITCHED},
    {"switch_groups", FABRIC(SWITCHED), SWITCHED},
    {"group", FABRIC(PARTIAL_MESH) | FABRIC(PCIE_TREE),
     "applies only to fabric partial_mesh or pcie_tree"},
    {"torus", FABRIC(TORUS), "applies only to fabric torus"},
};

/* The name of the switch chip in messages. */
static const char *chip_name(const struct sn_scaleup *u)
{
    return u->sw ? u->sw->name : "switch";
}

/* Tiers and planes: the accelerator's multi-node domain's unless given;
 * the links of an accelerator spread evenly over the planes. */
static int switched_planes(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_scaleup *u = &c->spec->scaleup;
    const struct sn_accel_info *a = c->spec->accel;
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
        return sn__fail(c, sn__at(m, "planes"),
                        "supernode.links_per_accelerator %d cannot be spread "
                        "evenly over %d planes (expected planes dividing %d)",
                        u->links_per_accel, u->planes, u->links_per_accel);
    return SN_OK;
}

/* The switch chip, by catalog name (the accelerator's by default) or by
 * radix, its ports at least as fast as the links; then the switch groups,
 * which need one tier and split the nodes evenly. */
static int switched_chip(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_scaleup *u = &c->spec->scaleup;
    const struct sn_accel_info *a = c->spec->accel;
    int rc;

    if ((rc = sn__pick_switch(c, m, "supernode", a->switch_name, &u->sw,
                              &u->radix)))
        return rc;
    if (!u->radix)
        return sn__fail(c, m,
                        "a switched fabric needs switch chips "
                        "(expected supernode.switch: NAME from "
                        "'supernode catalog list switches', or "
                        "supernode.radix: PORTS)");
    if (u->sw && u->link_bw > u->sw->port_bw * 1.001) {
        char l[32], p[32];
        return sn__fail(
            c, sn__at(m, "link_rate"),
            "supernode.link_rate %s exceeds the %s port rate of "
            "%s",
            sn_unit_format(u->link_bw, SN_UNIT_BANDWIDTH, l, sizeof(l)),
            chip_name(u),
            sn_unit_format(u->sw->port_bw, SN_UNIT_BANDWIDTH, p, sizeof(p)));
    }
    u->switch_groups = 1;
    if ((rc = sn__get_int(c, m, "switch_groups", "supernode", 1, 64,
                          &u->switch_groups)))
        return rc;
    if (u->switch_groups > 1 &&
        (u->tiers != 1 || (u->accelerators / u->per_node) % u->switch_groups))
        return sn__fail(c, sn_yaml_get(m, "switch_groups"),
                        "supernode.switch_groups %d needs one tier and a "
                        "node count (%d) it divides",
                        u->switch_groups, u->accelerators / u->per_node);
    return SN_OK;
}

/* One tier: the chips per plane (sn_scaleup_chips_one_tier() unless the
 * board or the spec says otherwise), each within its radix. lpp is the
 * links of an accelerator in one plane. */
static int switched_one_tier(struct sn__ctx *c, const struct sn_yaml *m,
                             long long lpp)
{
    struct sn_scaleup *u = &c->spec->scaleup;
    const struct sn_accel_info *a = c->spec->accel;
    long long members = u->accelerators / u->switch_groups;
    long long need, ports;
    int rc;

    need = sn_scaleup_chips_one_tier(members, lpp, u->switch_groups, u->radix);
    u->switches_per_plane = (int)need;
    /* a one-node supernode on the accelerator's own switch is the
     * platform's board: it carries the chips it carries (HGX H100
     * 4, not the 3 the radix would allow), when they fit */
    if (u->accelerators <= u->per_node && a->board_switches > 0 && u->sw &&
        a->switch_name && sn_strcaseeq(u->sw->name, a->switch_name) &&
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
            sn__at(m, sn_yaml_get(m, "switches_per_plane")
                          ? "switches_per_plane"
                          : "accelerators"),
            "%d accelerators need %d %s chips per plane, but each has "
            "only %lld link%s in a plane to reach them (expected tiers: "
            "2, more links per plane, or fewer accelerators)",
            u->accelerators, u->switches_per_plane, chip_name(u), lpp,
            lpp == 1 ? "" : "s");
    ports = sn_scaleup_chip_ports(members, lpp, u->switch_groups,
                                  u->switches_per_plane);
    if (ports > u->radix)
        return sn__fail(c, sn__at(m, "switches_per_plane"),
                        "%d %s chips of %d ports per plane cannot take "
                        "the %lld links of each plane (expected at least "
                        "%lld)",
                        u->switches_per_plane, chip_name(u), u->radix,
                        (long long)u->accelerators * lpp, need);
    return SN_OK;
}

/* Two tiers (CloudMatrix): the L2 chips per plane
 * (sn_scaleup_chips_two_tiers() unless given), within the L1 and the L2
 * chips' radix. */
static int switched_two_tiers(struct sn__ctx *c, const struct sn_yaml *m,
                              long long lpp)
{
    struct sn_scaleup *u = &c->spec->scaleup;
    long long down = (long long)u->per_node * lpp;
    long long nodes = u->accelerators / u->per_node, per, up;
    int rc;

    u->switches_per_plane =
        (int)sn_scaleup_chips_two_tiers(nodes, down, u->radix);
    if ((rc = sn__get_int(c, m, "switches_per_plane", "supernode", 1,
                          SN_SPEC_MAX_ACCELS, &u->switches_per_plane)))
        return rc;
    per = (down + u->switches_per_plane - 1) / u->switches_per_plane;
    up = per * u->switches_per_plane;
    if (down + up > u->radix)
        return sn__fail(c, sn__at(m, "tiers"),
                        "a 2-tier fabric needs %lld links down and %lld "
                        "up on each node's L1 chip; the %s has %d ports",
                        down, up, chip_name(u), u->radix);
    if (nodes * per > u->radix)
        return sn__fail(c,
                        sn__at(m, sn_yaml_get(m, "switches_per_plane")
                                      ? "switches_per_plane"
                                      : "accelerators"),
                        "an L2 %s of %d ports cannot take %lld nodes x "
                        "%lld links (expected more L2 chips per plane, "
                        "or fewer nodes)",
                        chip_name(u), u->radix, nodes, per);
    return SN_OK;
}

static int check_switched(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_scaleup *u = &c->spec->scaleup;
    long long lpp;
    int rc;

    if ((rc = switched_planes(c, m)) || (rc = switched_chip(c, m)))
        return rc;
    lpp = u->links_per_accel / u->planes;
    rc = u->tiers == 1 ? switched_one_tier(c, m, lpp)
                       : switched_two_tiers(c, m, lpp);
    if (rc)
        return rc;
    u->in_network_reduction = u->sw && u->sw->in_network_reduction;
    if ((rc = sn__get_bool(c, m, "in_network_reduction", "supernode",
                           &u->in_network_reduction)))
        return rc;
    if (u->in_network_reduction && u->sw && !u->sw->in_network_reduction)
        return sn__fail(c, sn_yaml_get(m, "in_network_reduction"),
                        "supernode.in_network_reduction: the %s does not "
                        "reduce in the network",
                        chip_name(u));
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
        return sn__fail(c, sn__at(m, "links_per_accelerator"),
                        "a %dD torus gives each accelerator %d neighbours; "
                        "links_per_accelerator %d is not a multiple of %d",
                        u->ndims, 2 * u->ndims, u->links_per_accel,
                        2 * u->ndims);
    return SN_OK;
}

/* Links per accelerator inside one group, and the same number to the one
 * at its position in every other group. */
static int check_partial_mesh(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_scaleup *u = &c->spec->scaleup;
    int groups, rest, rc;

    u->group = u->per_node;
    if ((rc = sn__get_int(c, m, "group", "supernode", 2, SN_SPEC_MAX_ACCELS,
                          &u->group)))
        return rc;
    if (u->group < 2 || u->group > u->accelerators ||
        u->accelerators % u->group)
        return sn__fail(c, sn__at(m, "group"),
                        "supernode.group %d does not divide the %d "
                        "accelerators into groups of 2 or more",
                        u->group, u->accelerators);
    if (u->links_per_accel < u->group - 1)
        return sn__fail(c, sn__at(m, "links_per_accelerator"),
                        "a group of %d needs %d links per accelerator "
                        "inside it; links_per_accelerator is %d",
                        u->group, u->group - 1, u->links_per_accel);
    /* between groups, each accelerator links to the one at its position
     * in every other group, the same number of times */
    groups = u->accelerators / u->group;
    rest = u->links_per_accel - (u->group - 1);
    if (groups == 1 ? rest != 0 : (rest == 0 || rest % (groups - 1)))
        return sn__fail(c, sn__at(m, "links_per_accelerator"),
                        "%d links per accelerator leave %d for the "
                        "links between %d groups (expected %s)",
                        u->links_per_accel, rest, groups,
                        groups == 1 ? "none: one group is a full "
                                      "mesh"
                                    : "a positive multiple of the "
                                      "other groups, one set to the "
                                      "same position in each");
    u->planes = 1;
    u->tiers = 1;
    return SN_OK;
}

/* A PCIe tree stays in one node: one PCIe switch for the node unless
 * group says how many accelerators share one. */
static int check_pcie_tree(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_scaleup *u = &c->spec->scaleup;
    int rc;

    if (u->accelerators != u->per_node)
        return sn__fail(c, sn_yaml_get(m, "accelerators"),
                        "a pcie_tree fabric stays inside one node: "
                        "supernode.accelerators %d must equal per_node %d",
                        u->accelerators, u->per_node);
    u->group = u->per_node;
    if ((rc = sn__get_int(c, m, "group", "supernode", 1, SN_SPEC_MAX_PER_NODE,
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
}

/* A full mesh: links per accelerator in multiples of its peers. */
static int check_full_mesh(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_scaleup *u = &c->spec->scaleup;
    int peers = u->accelerators - 1;

    if (u->links_per_accel < peers || u->links_per_accel % peers)
        return sn__fail(c, sn__at(m, "links_per_accelerator"),
                        "a full mesh of %d accelerators needs links per "
                        "accelerator in multiples of its %d peers, not "
                        "%d",
                        u->accelerators, peers, u->links_per_accel);
    u->planes = 1;
    u->tiers = 1;
    return SN_OK;
}

/* Accelerators and accelerators per node: whole nodes, within the
 * accelerator's scale-up domain. */
static int scaleup_size(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_scaleup *u = &c->spec->scaleup;
    const struct sn_accel_info *a = c->spec->accel;
    const char *what = "supernode";
    int rc;

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
    return SN_OK;
}

/* The fabric: given, or the accelerator's (none for one accelerator);
 * then a key of another fabric is a mistake worth a message. */
static int scaleup_fabric(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_scaleup *u = &c->spec->scaleup;
    int rc, fabric = -1;

    if ((rc = sn__get_enum(c, m, "fabric", "supernode", sn__fabric_names,
                           &fabric)))
        return rc;
    if (fabric < 0)
        fabric =
            u->accelerators == 1 ? SN_FABRIC_NONE : (int)c->spec->accel->fabric;
    u->fabric = (enum sn_fabric)fabric;
    if (u->accelerators == 1 && u->fabric != SN_FABRIC_NONE)
        return sn__fail(c, sn_yaml_get(m, "fabric"),
                        "a supernode of one accelerator has no scale-up "
                        "fabric (expected fabric: none)");
    return sn__check_scope(c, m, "supernode", scaleup_scope,
                           SN_ARRAY_LEN(scaleup_scope), fabric);
}

/* Links per accelerator: one x16 link on a PCIe tree, else the catalog's,
 * else what a full mesh or the torus shape needs, unless given. */
static int scaleup_link_count(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_scaleup *u = &c->spec->scaleup;
    const struct sn_accel_info *a = c->spec->accel;
    const struct sn_yaml *t = sn_yaml_get(m, "torus");
    int rc;

    if (u->fabric == SN_FABRIC_PCIE_TREE)
        u->links_per_accel = 1; /* one x16 link to its PCIe switch */
    else if (a->scaleup_links > 0)
        u->links_per_accel = a->scaleup_links;
    else if (u->fabric == SN_FABRIC_FULL_MESH)
        u->links_per_accel = u->accelerators - 1;
    else if (u->fabric == SN_FABRIC_TORUS && t && t->type == SN_YAML_SEQ)
        u->links_per_accel = 2 * (int)t->n;
    if ((rc = sn__get_int(c, m, "links_per_accelerator", "supernode", 1,
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
    return SN_OK;
}

/* The rate and latency of a link: the catalog's share of the scale-up
 * bandwidth unless given, all links within that bandwidth. */
static int scaleup_link_rate(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_scaleup *u = &c->spec->scaleup;
    const struct sn_accel_info *a = c->spec->accel;
    char x[32], y[32];
    int rc;

    /* a PCIe tree runs at PCIe 5.0 x16, or slower where the
     * accelerator's own PCIe is (an L20 is Gen4 x16) */
    if (u->fabric == SN_FABRIC_PCIE_TREE)
        u->link_bw = a->fabric == SN_FABRIC_PCIE_TREE && a->scaleup_links > 0 &&
                             a->scaleup_bw > 0 &&
                             a->scaleup_bw / a->scaleup_links < SN_PCIE5_X16
                         ? a->scaleup_bw / a->scaleup_links
                         : SN_PCIE5_X16;
    else if (a->scaleup_links > 0)
        u->link_bw = a->scaleup_bw / a->scaleup_links;
    if ((rc = sn__get_qty(c, m, "link_rate", "supernode", SN_UNIT_BANDWIDTH,
                          1e6, 1e13, &u->link_bw)) ||
        (rc = sn__get_qty(c, m, "link_latency", "supernode", SN_UNIT_TIME, 1e-9,
                          1e-3, &u->link_latency)))
        return rc;
    if (u->link_bw <= 0)
        return sn__fail(c, m,
                        "the %s has no scale-up bandwidth in the "
                        "catalog (expected supernode.link_rate)",
                        a->name);
    if (u->fabric != SN_FABRIC_PCIE_TREE && a->scaleup_bw > 0 &&
        u->links_per_accel * u->link_bw > a->scaleup_bw * 1.001)
        return sn__fail(
            c, sn__at(m, "link_rate"),
            "%d links x %s exceed the %s scale-up bandwidth of "
            "%s per direction",
            u->links_per_accel,
            sn_unit_format(u->link_bw, SN_UNIT_BANDWIDTH, x, sizeof(x)),
            a->name,
            sn_unit_format(a->scaleup_bw, SN_UNIT_BANDWIDTH, y, sizeof(y)));
    return SN_OK;
}

/* The medium: the board inside one node, copper across nodes, unless the
 * spec or its cable says otherwise (and they agree). */
static int scaleup_medium(struct sn__ctx *c, const struct sn_yaml *m)
{
    struct sn_scaleup *u = &c->spec->scaleup;
    int rc, medium = -1;

    u->medium =
        u->accelerators == u->per_node ? SN_MEDIUM_BOARD : SN_MEDIUM_COPPER;
    if ((rc = sn__get_enum(c, m, "medium", "supernode", sn__medium_names,
                           &medium)) ||
        (rc = sn__pick_cable(c, m, "supernode", u->link_bw,
                             "supernode.link_rate", &u->cable)))
        return rc;
    if (u->cable && medium >= 0 && (enum sn_medium)medium != u->cable->medium)
        return sn__fail(c, sn_yaml_get(m, "medium"),
                        "supernode.medium %s contradicts the %s cable (%s)",
                        sn__medium_names[medium], u->cable->name,
                        sn_medium_name(u->cable->medium));
    if (medium >= 0)
        u->medium = (enum sn_medium)medium;
    else if (u->cable)
        u->medium = u->cable->medium;
    u->medium_given = medium >= 0 || u->cable;
    return SN_OK;
}

int sn__scaleup(struct sn__ctx *c)
{
    const struct sn_yaml *m = sn_yaml_get(c->root, "supernode");
    struct sn_scaleup *u = &c->spec->scaleup;
    int rc;

    if (!m)
        return sn__fail(c, c->root,
                        "the spec has no 'supernode' section "
                        "(expected at least supernode: "
                        "{accelerators: N})");
    if ((rc = sn__expect_map(c, m, "supernode")) ||
        (rc = sn__check_keys(c, m, "supernode", scaleup_keys)))
        return rc;
    u->pos = sn__pos_of(m);
    if ((rc = scaleup_size(c, m)) || (rc = scaleup_fabric(c, m)))
        return rc;
    if (u->fabric == SN_FABRIC_NONE) {
        u->medium = SN_MEDIUM_BOARD;
        return SN_OK;
    }
    if ((rc = scaleup_link_count(c, m)) || (rc = scaleup_link_rate(c, m)) ||
        (rc = scaleup_medium(c, m)))
        return rc;
    switch (u->fabric) {
    case SN_FABRIC_SWITCHED:
        return check_switched(c, m);
    case SN_FABRIC_FULL_MESH:
        return check_full_mesh(c, m);
    case SN_FABRIC_PARTIAL_MESH:
        return check_partial_mesh(c, m);
    case SN_FABRIC_TORUS:
        u->planes = 1;
        u->tiers = 1;
        return check_torus(c, m);
    case SN_FABRIC_PCIE_TREE:
        return check_pcie_tree(c, m);
    case SN_FABRIC_NONE:
        break;
    }
    return SN_OK;
}
