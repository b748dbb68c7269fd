/* build-scaleup.c: the scale-up fabrics inside one supernode: switched
 * planes (one tier of switch chips, or on-board L1 chips under L2 chips),
 * full mesh, partial mesh in groups, 2D/3D torus, PCIe tree, none. Called
 * by build.c once per supernode; the links go in rank order, so ports and
 * labels are the same every time a spec is built.
 */
#include <stdint.h>
#include <string.h>

#include "build.h"

static uint32_t ceil_div(uint64_t a, uint64_t d)
{
    return (uint32_t)((a + d - 1) / d);
}

static int shape_switched(struct sn__topo_build *b)
{
    const struct sn_scaleup *su = &b->s->scaleup;
    uint32_t radix = su->radix > 0                 ? (uint32_t)su->radix
                     : su->sw && su->sw->radix > 0 ? (uint32_t)su->sw->radix
                                                   : 0;
    uint32_t tiers = su->tiers > 0 ? (uint32_t)su->tiers : 1;

    if (b->links < 1)
        return sn__topo_build_fail(b, &su->pos,
                                   "a switched fabric needs scale-up links "
                                   "(links_per_accel is 0)");
    b->planes = su->planes > 0 ? (uint32_t)su->planes : 1;
    if (b->links % b->planes)
        return sn__topo_build_fail(b, &su->pos,
                                   "%u scale-up links per accelerator do "
                                   "not spread evenly over %u planes",
                                   b->links, b->planes);
    b->links_per_plane = b->links / b->planes;
    if (tiers > 2)
        return sn__topo_build_fail(b, &su->pos,
                                   "a switched scale-up fabric has 1 or 2 "
                                   "tiers (got %u)",
                                   tiers);
    if (tiers == 1) {
        uint32_t lpp = b->links_per_plane, per_switch, members;
        b->sw_groups = su->switch_groups > 1 ? (uint32_t)su->switch_groups : 1;
        if (b->sw_groups > 1 &&
            (b->servers % b->sw_groups || b->supernodes < 1))
            return sn__topo_build_fail(b, &su->pos,
                                       "%u servers do not split into %u "
                                       "switch groups",
                                       b->servers, b->sw_groups);
        members = b->accels / b->sw_groups;
        if (su->switches_per_plane > 0)
            b->spp = (uint32_t)su->switches_per_plane;
        else if (radix)
            b->spp = (uint32_t)sn_scaleup_chips_one_tier(
                members, lpp, (int)b->sw_groups, (int)radix);
        else
            b->spp = lpp;
        /* one tier: every accelerator must reach every switch of its
         * plane, or two accelerators would share no switch */
        if (b->spp > lpp)
            return sn__topo_build_fail(b, &su->pos,
                                       "%u accelerators need %u switch "
                                       "chips per plane, but each has only "
                                       "%u links in a plane to reach them "
                                       "(expected tiers: 2 or fewer "
                                       "accelerators)",
                                       b->accels, b->spp, lpp);
        per_switch = members * ceil_div(lpp, b->spp);
        /* grouped: a chip's trunks to the same chip of the other groups
         * carry what comes down to it (non-blocking) */
        if (b->sw_groups > 1) {
            if (per_switch % (b->sw_groups - 1))
                return sn__topo_build_fail(b, &su->pos,
                                           "%u links down a chip do not "
                                           "split evenly over %u other "
                                           "switch groups",
                                           per_switch, b->sw_groups - 1);
            b->trunk = per_switch / (b->sw_groups - 1);
        }
        if (radix && sn_scaleup_chip_ports(members, lpp, (int)b->sw_groups,
                                           b->spp) > radix)
            return sn__topo_build_fail(b, &su->pos,
                                       "a switch chip of %u ports cannot "
                                       "take %u accelerator links%s "
                                       "(expected more switches per plane "
                                       "or more planes)",
                                       radix, per_switch,
                                       b->sw_groups > 1 ? " and as many to the "
                                                          "other groups"
                                                        : "");
        if (b->servers == 1)
            b->onboard_sw = b->planes * b->spp;
        else
            b->offboard_sw = b->sw_groups * b->planes * b->spp;
        return SN_OK;
    }
    /* two tiers: one L1 chip per plane on each server's board, non-blocking
     * uplinks spread evenly over the plane's L2 chips */
    {
        uint32_t down = b->per_node * b->links_per_plane;
        if (radix && 2 * down > radix)
            return sn__topo_build_fail(b, &su->pos,
                                       "an L1 chip of %u ports cannot take "
                                       "%u accelerator links and as many "
                                       "up",
                                       radix, down);
        if (su->switches_per_plane > 0) {
            b->spp = (uint32_t)su->switches_per_plane;
        } else if (radix) {
            b->spp = (uint32_t)sn_scaleup_chips_two_tiers(b->servers, down,
                                                          (int)radix);
        } else {
            b->spp = down;
        }
        b->l1_up = b->spp * ceil_div(down, b->spp);
        if (radix && down + b->l1_up > radix)
            return sn__topo_build_fail(b, &su->pos,
                                       "an L1 chip of %u ports cannot take "
                                       "%u links down and %u up (expected "
                                       "fewer L2 switches per plane or more "
                                       "planes)",
                                       radix, down, b->l1_up);
        if (radix && (uint64_t)b->servers * (b->l1_up / b->spp) > radix)
            return sn__topo_build_fail(b, &su->pos,
                                       "an L2 chip of %u ports cannot take "
                                       "%u servers x %u links (expected "
                                       "more L2 switches per plane)",
                                       radix, b->servers, b->l1_up / b->spp);
        b->onboard_sw = b->planes;
        b->offboard_sw = b->planes * b->spp;
    }
    return SN_OK;
}

int sn__topo_scaleup_shape(struct sn__topo_build *b)
{
    const struct sn_scaleup *su = &b->s->scaleup;
    uint32_t a = b->accels;

    if (su->fabric != SN_FABRIC_NONE && b->links && !(su->link_bw > 0))
        return sn__topo_build_fail(b, &su->pos,
                                   "scale-up links need a bandwidth "
                                   "(link_bw)");
    switch (su->fabric) {
    case SN_FABRIC_NONE:
        b->links = 0;
        return SN_OK;
    case SN_FABRIC_SWITCHED:
        return shape_switched(b);
    case SN_FABRIC_FULL_MESH:
        if (a < 2) {
            b->links = 0;
            return SN_OK;
        }
        if (b->links < a - 1 || b->links % (a - 1))
            return sn__topo_build_fail(b, &su->pos,
                                       "a full mesh of %u accelerators "
                                       "needs a multiple of %u links per "
                                       "accelerator (got %u)",
                                       a, a - 1, b->links);
        b->mesh_parallel = b->links / (a - 1);
        return SN_OK;
    case SN_FABRIC_PARTIAL_MESH: {
        uint32_t g = su->group > 0 ? (uint32_t)su->group : 0, rest;
        if (g < 2 || a % g)
            return sn__topo_build_fail(b, &su->pos,
                                       "a partial mesh needs groups of at "
                                       "least 2 that divide %u "
                                       "accelerators (got group %d)",
                                       a, su->group);
        b->group = g;
        b->groups = a / g;
        b->mesh_parallel = 1;
        if (b->links < g - 1)
            return sn__topo_build_fail(b, &su->pos,
                                       "a group of %u needs %u links per "
                                       "accelerator inside it (got %u)",
                                       g, g - 1, b->links);
        rest = b->links - (g - 1);
        if (b->groups == 1 ? rest != 0 : (rest == 0 || rest % (b->groups - 1)))
            return sn__topo_build_fail(b, &su->pos,
                                       "%u links per accelerator leave %u "
                                       "for the links between %u groups "
                                       "(expected a positive multiple of "
                                       "%u: one set to the same position "
                                       "in every other group)",
                                       b->links, rest, b->groups,
                                       b->groups - 1);
        b->group_parallel = b->groups > 1 ? rest / (b->groups - 1) : 0;
        return SN_OK;
    }
    case SN_FABRIC_TORUS: {
        uint64_t prod = 1;
        uint32_t nb = 0;
        if (su->ndims < 1 || su->ndims > 3)
            return sn__topo_build_fail(b, &su->pos,
                                       "a torus has 1 to 3 dimensions (got "
                                       "%d)",
                                       su->ndims);
        for (int d = 0; d < su->ndims; d++) {
            if (su->dims[d] < 1)
                return sn__topo_build_fail(b, &su->pos,
                                           "torus dimension %d is %d "
                                           "(expected at least 1)",
                                           d + 1, su->dims[d]);
            prod *= (uint64_t)su->dims[d];
            if (su->dims[d] >= 2)
                nb += 2;
        }
        if (prod != a)
            return sn__topo_build_fail(b, &su->pos,
                                       "torus dimensions multiply to %llu, "
                                       "not the %u accelerators of a "
                                       "supernode",
                                       (unsigned long long)prod, a);
        if (nb == 0) {
            b->links = 0;
            return SN_OK;
        }
        if (b->links < nb || b->links % nb)
            return sn__topo_build_fail(b, &su->pos,
                                       "a torus of %d dimensions needs a "
                                       "multiple of %u links per "
                                       "accelerator (got %u)",
                                       su->ndims, nb, b->links);
        b->mesh_parallel = b->links / nb;
        return SN_OK;
    }
    case SN_FABRIC_PCIE_TREE: {
        uint32_t g = su->group > 0 ? (uint32_t)su->group : b->per_node;
        if (b->links < 1)
            return sn__topo_build_fail(b, &su->pos,
                                       "a PCIe tree needs at least one link "
                                       "per accelerator");
        b->pcie_per_server = ceil_div(b->per_node, g);
        b->onboard_sw = b->pcie_per_server;
        return SN_OK;
    }
    }
    return sn__topo_build_fail(b, &su->pos, "unknown scale-up fabric %d",
                               (int)su->fabric);
}

/* ---- nodes -------------------------------------------------------------- */

void sn__topo_scaleup_onboard(struct sn__topo_build *b, uint32_t sn,
                              uint32_t server, uint32_t rack, uint16_t unit)
{
    const struct sn_scaleup *su = &b->s->scaleup;
    struct sn_node n;

    memset(&n, 0, sizeof(n));
    n.kind = SN_NODE_SWITCH;
    n.supernode = sn;
    n.server = server;
    n.rack = rack;
    n.unit = unit;
    n.rank = SN_NONE;
    for (uint32_t k = 0; k < b->onboard_sw; k++) {
        n.index = k;
        if (su->fabric == SN_FABRIC_PCIE_TREE) {
            n.role = SN_SW_PCIE;
            n.plane = SN_NONE16;
        } else if (b->l1_up) {
            n.role = SN_SW_SCALEUP_L1; /* one per plane */
            n.plane = (uint16_t)k;
        } else {
            n.role = SN_SW_SCALEUP_L1; /* a one-server supernode */
            n.plane = (uint16_t)(k / b->spp);
        }
        sn__topo_build_node(b, &n);
    }
}

void sn__topo_scaleup_nodes(struct sn__topo_build *b, uint32_t sn)
{
    struct sn_node n;

    memset(&n, 0, sizeof(n));
    n.kind = SN_NODE_SWITCH;
    n.role = b->l1_up ? SN_SW_SCALEUP_L2 : SN_SW_SCALEUP_L1;
    n.supernode = sn;
    n.server = SN_NONE;
    n.rank = SN_NONE;
    for (uint32_t c = 0; c < b->offboard_sw; c++) {
        sn__topo_place_tray(b, sn, c, &n.rack, &n.unit);
        n.index = c;
        /* chips go group by group: plane, then position in the plane */
        n.plane = (uint16_t)(c / b->spp % b->planes);
        sn__topo_build_node(b, &n);
    }
}

/* ---- links -------------------------------------------------------------- */

static void links_switched(struct sn__topo_build *b, uint32_t sn)
{
    const struct sn_scaleup *su = &b->s->scaleup;
    double half = su->link_latency / 2;

    uint32_t groups = b->sw_groups > 1 ? b->sw_groups : 1;
    uint32_t members = b->accels / groups;

    for (uint32_t r = 0; r < b->accels; r++) {
        uint32_t a = sn__topo_accel_id(b, sn, r), v = r / b->per_node;
        uint32_t g0 = (r / members) * b->planes * b->spp;
        for (uint32_t p = 0; p < b->planes; p++) {
            for (uint32_t k = 0; k < b->links_per_plane; k++) {
                uint32_t w;
                if (b->l1_up)
                    w = sn__topo_onboard_id(b, sn, v, p);
                else if (b->servers == 1)
                    w = sn__topo_onboard_id(b, sn, 0, p * b->spp + k % b->spp);
                else
                    w = sn__topo_offboard_id(b, sn,
                                             g0 + p * b->spp + k % b->spp);
                sn__topo_build_link(b, a, w, SN_LINK_SCALE_UP, su->link_bw,
                                    half);
            }
        }
    }
    /* switch groups: each chip to the same chip of every other group */
    for (uint32_t g = 0; groups > 1 && g < groups; g++)
        for (uint32_t h = g + 1; h < groups; h++)
            for (uint32_t c = 0; c < b->planes * b->spp; c++)
                for (uint32_t t = 0; t < b->trunk; t++)
                    sn__topo_build_link(
                        b,
                        sn__topo_offboard_id(b, sn, g * b->planes * b->spp + c),
                        sn__topo_offboard_id(b, sn, h * b->planes * b->spp + c),
                        SN_LINK_SCALE_UP, su->link_bw, half);
    if (!b->l1_up)
        return;
    /* L1 to L2: as much bandwidth up as comes down, over l1_up links */
    {
        uint32_t down = b->per_node * b->links_per_plane;
        double bw = su->link_bw * down / b->l1_up;
        for (uint32_t v = 0; v < b->servers; v++)
            for (uint32_t p = 0; p < b->planes; p++)
                for (uint32_t u = 0; u < b->l1_up; u++)
                    sn__topo_build_link(
                        b, sn__topo_onboard_id(b, sn, v, p),
                        sn__topo_offboard_id(b, sn, p * b->spp + u % b->spp),
                        SN_LINK_SCALE_UP, bw, half);
    }
}

static void links_full_mesh(struct sn__topo_build *b, uint32_t sn)
{
    const struct sn_scaleup *su = &b->s->scaleup;

    for (uint32_t i = 0; i < b->accels; i++)
        for (uint32_t j = i + 1; j < b->accels; j++)
            for (uint32_t m = 0; m < b->mesh_parallel; m++)
                sn__topo_build_link(
                    b, sn__topo_accel_id(b, sn, i), sn__topo_accel_id(b, sn, j),
                    SN_LINK_SCALE_UP, su->link_bw, su->link_latency);
}

/* Groups are fully connected inside; between groups, each accelerator
 * links to the one at the same position in every other group (a 2D
 * HyperX), so any pair is at most two hops apart. */
static void links_partial_mesh(struct sn__topo_build *b, uint32_t sn)
{
    const struct sn_scaleup *su = &b->s->scaleup;
    uint32_t g = b->group;

    for (uint32_t i = 0; i < b->accels; i++) {
        uint32_t gi = i / g, pi = i % g;
        for (uint32_t pj = pi + 1; pj < g; pj++)
            sn__topo_build_link(b, sn__topo_accel_id(b, sn, i),
                                sn__topo_accel_id(b, sn, gi * g + pj),
                                SN_LINK_SCALE_UP, su->link_bw,
                                su->link_latency);
        for (uint32_t gj = gi + 1; gj < b->groups; gj++)
            for (uint32_t m = 0; m < b->group_parallel; m++)
                sn__topo_build_link(b, sn__topo_accel_id(b, sn, i),
                                    sn__topo_accel_id(b, sn, gj * g + pi),
                                    SN_LINK_SCALE_UP, su->link_bw,
                                    su->link_latency);
    }
}

/* Each accelerator links to its + neighbour in every dimension of two or
 * more (with wrap-around), which gives every ring of k its k links; a
 * dimension of 2 gets two links between the pair, as a wrapped ring
 * does. Coordinates: x fastest, rank = x + X (y + Y z). */
static void links_torus(struct sn__topo_build *b, uint32_t sn)
{
    const struct sn_scaleup *su = &b->s->scaleup;
    uint32_t dims[3] = {1, 1, 1}, stride[3];

    for (int d = 0; d < su->ndims; d++)
        dims[d] = (uint32_t)su->dims[d];
    stride[0] = 1;
    stride[1] = dims[0];
    stride[2] = dims[0] * dims[1];
    for (uint32_t r = 0; r < b->accels; r++) {
        for (int d = 0; d < su->ndims; d++) {
            uint32_t c = (r / stride[d]) % dims[d], nb;
            if (dims[d] < 2)
                continue;
            nb = r - c * stride[d] + ((c + 1) % dims[d]) * stride[d];
            for (uint32_t m = 0; m < b->mesh_parallel; m++)
                sn__topo_build_link(b, sn__topo_accel_id(b, sn, r),
                                    sn__topo_accel_id(b, sn, nb),
                                    SN_LINK_SCALE_UP, su->link_bw,
                                    su->link_latency);
        }
    }
}

void sn__topo_scaleup_links(struct sn__topo_build *b, uint32_t sn)
{
    switch (b->s->scaleup.fabric) {
    case SN_FABRIC_SWITCHED:
        links_switched(b, sn);
        break;
    case SN_FABRIC_FULL_MESH:
        links_full_mesh(b, sn);
        break;
    case SN_FABRIC_PARTIAL_MESH:
        links_partial_mesh(b, sn);
        break;
    case SN_FABRIC_TORUS:
        links_torus(b, sn);
        break;
    case SN_FABRIC_PCIE_TREE: /* host links, added with the servers' */
    case SN_FABRIC_NONE:
        break;
    }
}
