/* build-net.c: the scale-out network: rail-optimised or k-ary fat trees
 * of one to three tiers with a switch radix and an oversubscription at the
 * leaf, an `external` site network that only counts the uplinks, and
 * `explicit` networks whose switches and switch links the spec names.
 *
 * Fat trees follow Al-Fares et al. (SIGCOMM 2008) and the DGX SuperPOD
 * reference architecture (RA-11333-001, Tables 3 and 4): leaves spread
 * their uplinks evenly over the spines (so a spine count divides the
 * leaf's uplinks); with three tiers the leaves form pods of radix/2, each
 * pod has one spine per leaf uplink, and the spines at the same position
 * in every pod share a group of cores.
 */
#include <stdlib.h>
#include <string.h>

#include "build.h"

static uint32_t ceil_div(uint64_t a, uint64_t d)
{
    return (uint32_t)((a + d - 1) / d);
}

static uint32_t total_servers(const struct sn__topo_build *b)
{
    return b->supernodes * b->servers;
}

/* The smallest count >= lo that divides `ports` evenly and leaves each of
 * `users` attached at most radix ports; 0 when none does. */
static uint32_t even_split(uint32_t lo, uint32_t ports, uint64_t users,
                           uint32_t radix)
{
    if (lo < 1)
        lo = 1;
    for (uint32_t s = lo; s <= ports; s++)
        if (ports % s == 0 && users * (ports / s) <= radix)
            return s;
    return 0;
}

static int shape_fat_tree(struct sn__topo_build *b, bool rail)
{
    const struct sn_scaleout *so = &b->s->scaleout;
    struct sn__topo_net *n = &b->net;
    double o = so->oversubscription > 0 ? so->oversubscription : 1;
    uint32_t servers = total_servers(b), want;
    struct sn_fat_tree_fit fit;
    bool one;

    n->radix = so->radix > 0                 ? (uint32_t)so->radix
               : so->sw && so->sw->radix > 0 ? (uint32_t)so->sw->radix
                                             : 0;
    if (n->radix < 2)
        return sn__topo_build_fail(b, &so->pos,
                                   "a fat tree needs a switch radix of at "
                                   "least 2 (radix or a switch from the "
                                   "catalog)");
    if (n->radix > 65535)
        return sn__topo_build_fail(b, &so->pos,
                                   "switch radix %u is out of range", n->radix);
    /* oversubscription = leaf down : up, split as the spec module does */
    sn_fat_tree_fit((int)n->radix, o, servers, (int)b->nics, rail, &fit);
    n->down = (uint32_t)fit.down;
    n->up = n->radix - n->down;
    want = so->tiers > 0 ? (uint32_t)so->tiers : 0;
    if (want > 3)
        return sn__topo_build_fail(
            b, &so->pos, "a fat tree has 1 to 3 tiers (got %u)", want);
    /* not asked for: the fewest tiers that join every port, three when
     * none does (their check below says so) */
    if (!want)
        want = fit.tiers ? (uint32_t)fit.tiers : 3;
    /* one tier: every NIC port on one switch (rails share it), or, for a
     * rail-optimised network asked for with tiers: 1 whose ports do not
     * fit one switch, one switch per rail and nothing between rails */
    one = n->ports <= n->radix;
    if (want == 1) {
        if (!one && !(rail && servers <= n->radix))
            return sn__topo_build_fail(b, &so->pos,
                                       "%u NIC ports do not fit one tier "
                                       "of %u-port switches (expected "
                                       "tiers: 2 or 3)",
                                       n->ports, n->radix);
        n->tiers = 1;
        n->leaves = rail && !one ? b->nics : 1;
        n->down = n->radix;
        n->up = 0;
        n->sus = 1;
        return SN_OK;
    }
    if (rail) {
        n->sus = ceil_div(servers, n->down);
        n->leaves = n->sus * b->nics;
    } else {
        n->leaves = ceil_div(n->ports, n->down);
    }
    if (want == 2) {
        /* uplinks follow the down ports in use: a leaf with fewer
         * servers than ports has as many uplinks as the
         * oversubscription gives them, rounded up to a multiple of the
         * spines so every spine takes the same number from every leaf
         * (the DGX SuperPOD SU: 31 DGX a leaf, 4 spines, 32 uplinks) */
        uint32_t used = rail ? (servers < n->down ? servers : n->down)
                             : (n->ports < n->down ? n->ports : n->down);
        uint32_t up =
            used < n->down ? ceil_div((uint64_t)used * n->up, n->down) : n->up;
        n->spines = 0;
        if (n->leaves <= n->radix) {
            uint32_t lo = ceil_div((uint64_t)n->leaves * up, n->radix);
            for (uint32_t s = lo ? lo : 1; s <= n->up && !n->spines; s++) {
                uint32_t u = s * ceil_div(up, s);
                if (u <= n->up && (uint64_t)n->leaves * (u / s) <= n->radix) {
                    n->spines = s;
                    n->up = u;
                }
            }
        }
        if (n->spines) {
            n->tiers = 2;
            return SN_OK;
        }
        return sn__topo_build_fail(b, &so->pos,
                                   "%u leaves are more than two tiers "
                                   "of %u-port switches join (at most "
                                   "%u; expected tiers: 3)",
                                   n->leaves, n->radix, n->radix);
    }
    n->tiers = 3;
    n->pod_leaves = n->radix / 2;
    n->spine_up = n->radix - n->pod_leaves;
    n->pods = ceil_div(n->leaves, n->pod_leaves);
    n->spines = n->pods * n->up;
    n->core_group =
        n->pods <= n->radix
            ? even_split(ceil_div((uint64_t)n->pods * n->spine_up, n->radix),
                         n->spine_up, n->pods, n->radix)
            : 0;
    if (!n->core_group)
        return sn__topo_build_fail(b, &so->pos,
                                   "%u NIC ports are more than three tiers "
                                   "of %u-port switches join (at most "
                                   "%llu)",
                                   n->ports, n->radix,
                                   (unsigned long long)n->radix * n->radix *
                                       n->radix / 4);
    n->cores = n->up * n->core_group;
    return SN_OK;
}

static int shape_explicit(struct sn__topo_build *b)
{
    const struct sn_scaleout *so = &b->s->scaleout;
    struct sn__topo_net *n = &b->net;
    uint32_t servers = total_servers(b);

    if (so->nswitches < 1)
        return sn__topo_build_fail(b, &so->pos,
                                   "an explicit network lists no switches");
    if (so->nswitches > 1000000)
        return sn__topo_build_fail(b, &so->pos, "%zu switches is out of range",
                                   so->nswitches);
    n->nic_uses = sn_xcalloc(servers, sizeof(uint32_t));
    for (size_t i = 0; i < so->nswitches; i++) {
        const struct sn_net_switch *sw = &so->switches[i];
        if (sw->tier < 0 || sw->tier > 2)
            return sn__topo_build_fail(b, &sw->pos,
                                       "switch '%s' has tier %d (expected "
                                       "0 leaf, 1 spine or 2 core)",
                                       sw->name ? sw->name : "?", sw->tier);
        for (size_t k = 0; k < sw->nnodes; k++) {
            int v = sw->nodes[k];
            if (v < 0 || (uint32_t)v >= servers)
                return sn__topo_build_fail(b, &sw->pos,
                                           "switch '%s' lists node %d, but "
                                           "the cluster has nodes 0 to %u",
                                           sw->name ? sw->name : "?", v,
                                           servers - 1);
            if (++n->nic_uses[v] > b->nics)
                return sn__topo_build_fail(b, &sw->pos,
                                           "node %d is on more switches "
                                           "than it has NIC ports (%u)",
                                           v, b->nics);
        }
    }
    for (uint32_t v = 0; v < servers; v++)
        if (!n->nic_uses[v])
            return sn__topo_build_fail(b, &so->pos,
                                       "node %u is on no switch (expected "
                                       "every node under some switch's "
                                       "nodes)",
                                       v);
    for (size_t i = 0; i < so->nlinks; i++) {
        const struct sn_net_link *l = &so->links[i];
        if (l->a < 0 || l->b < 0 || (size_t)l->a >= so->nswitches ||
            (size_t)l->b >= so->nswitches || l->a == l->b)
            return sn__topo_build_fail(b, &l->pos,
                                       "a switch link must join two "
                                       "different listed switches");
        if (l->count < 1 || l->count > 65535)
            return sn__topo_build_fail(b, &l->pos,
                                       "switch link count %d is out of "
                                       "range (1 to 65535)",
                                       l->count);
    }
    return SN_OK;
}

int sn__topo_net_shape(struct sn__topo_build *b)
{
    const struct sn_scaleout *so = &b->s->scaleout;
    struct sn__topo_net *n = &b->net;

    n->ports = total_servers(b) * b->nics;
    n->hop = so->latency > 0 ? so->latency : so->sw ? so->sw->latency : 0;
    n->units =
        so->sw && so->sw->rack_units > 0 ? (uint32_t)so->sw->rack_units : 1;
    switch (so->topology) {
    case SN_NET_NONE:
    case SN_NET_EXTERNAL:
        return SN_OK;
    case SN_NET_RAIL_FAT_TREE:
        return shape_fat_tree(b, true);
    case SN_NET_FAT_TREE:
        return shape_fat_tree(b, false);
    case SN_NET_EXPLICIT:
        return shape_explicit(b);
    }
    return sn__topo_build_fail(b, &so->pos, "unknown network topology %d",
                               (int)so->topology);
}

void sn__topo_net_release(struct sn__topo_build *b)
{
    free(b->net.nic_uses);
    b->net.nic_uses = NULL;
}

/* ---- nodes -------------------------------------------------------------- */

static void net_switches(struct sn__topo_build *b, enum sn_switch_role role,
                         uint32_t count, uint32_t rails)
{
    struct sn_node n;

    memset(&n, 0, sizeof(n));
    n.kind = SN_NODE_SWITCH;
    n.role = (uint8_t)role;
    n.supernode = SN_NONE;
    n.server = SN_NONE;
    n.rank = SN_NONE;
    for (uint32_t i = 0; i < count; i++) {
        sn__topo_place_net(b, b->net.units, &n.rack, &n.unit);
        n.index = i;
        n.plane = rails ? (uint16_t)(i % rails) : SN_NONE16;
        sn__topo_build_node(b, &n);
    }
}

void sn__topo_net_nodes(struct sn__topo_build *b)
{
    const struct sn_scaleout *so = &b->s->scaleout;
    struct sn__topo_net *n = &b->net;

    n->first = (uint32_t)b->nnodes;
    switch (so->topology) {
    case SN_NET_NONE:
        break;
    case SN_NET_EXTERNAL: {
        struct sn_node site;
        memset(&site, 0, sizeof(site));
        site.kind = SN_NODE_SWITCH;
        site.role = SN_SW_EXTERNAL;
        site.supernode = SN_NONE;
        site.server = SN_NONE;
        site.rack = SN_NONE;
        site.rank = SN_NONE;
        site.plane = SN_NONE16;
        if (n->ports)
            sn__topo_build_node(b, &site);
        break;
    }
    case SN_NET_RAIL_FAT_TREE:
    case SN_NET_FAT_TREE:
        net_switches(b, SN_SW_LEAF, n->leaves,
                     so->topology == SN_NET_RAIL_FAT_TREE ? b->nics : 0);
        net_switches(b, SN_SW_SPINE, n->spines, 0);
        net_switches(b, SN_SW_CORE, n->cores, 0);
        break;
    case SN_NET_EXPLICIT:
        for (size_t i = 0; i < so->nswitches; i++) {
            static const uint8_t roles[] = {SN_SW_LEAF, SN_SW_SPINE,
                                            SN_SW_CORE};
            struct sn_node sw;
            memset(&sw, 0, sizeof(sw));
            sw.kind = SN_NODE_SWITCH;
            sw.role = roles[so->switches[i].tier];
            sw.supernode = SN_NONE;
            sw.server = SN_NONE;
            sw.rank = SN_NONE;
            sw.plane = SN_NONE16;
            sw.index = (uint32_t)i;
            sn__topo_place_net(b, n->units, &sw.rack, &sw.unit);
            sn__topo_build_node(b, &sw);
        }
        break;
    }
}

/* ---- links -------------------------------------------------------------- */

static uint32_t nic_of(const struct sn__topo_build *b, uint32_t g, uint32_t j)
{
    return sn__topo_nic_id(b, g / b->servers, g % b->servers, j);
}

static void fat_tree_links(struct sn__topo_build *b, bool rail)
{
    struct sn__topo_net *n = &b->net;
    uint32_t servers = total_servers(b);
    uint32_t leaf0 = n->first, spine0 = leaf0 + n->leaves;
    uint32_t core0 = spine0 + n->spines;
    double half = n->hop / 2;

    for (uint32_t g = 0; g < servers; g++) {
        for (uint32_t j = 0; j < b->nics; j++) {
            uint32_t leaf;
            if (n->tiers == 1)
                leaf = n->leaves > 1 ? j : 0;
            else if (rail)
                leaf = (g / n->down) * b->nics + j;
            else
                leaf = (g * b->nics + j) / n->down;
            sn__topo_build_link(b, nic_of(b, g, j), leaf0 + leaf,
                                SN_LINK_SCALE_OUT, n->bw, half);
        }
    }
    if (n->tiers == 2) {
        for (uint32_t l = 0; l < n->leaves; l++)
            for (uint32_t u = 0; u < n->up; u++)
                sn__topo_build_link(b, leaf0 + l, spine0 + u % n->spines,
                                    SN_LINK_SCALE_OUT, n->bw, n->hop);
    } else if (n->tiers == 3) {
        for (uint32_t l = 0; l < n->leaves; l++) {
            uint32_t pod = l / n->pod_leaves;
            for (uint32_t u = 0; u < n->up; u++)
                sn__topo_build_link(b, leaf0 + l, spine0 + pod * n->up + u,
                                    SN_LINK_SCALE_OUT, n->bw, n->hop);
        }
        for (uint32_t s = 0; s < n->spines; s++) {
            uint32_t pos = s % n->up;
            for (uint32_t w = 0; w < n->spine_up; w++)
                sn__topo_build_link(b, spine0 + s,
                                    core0 + pos * n->core_group +
                                        w % n->core_group,
                                    SN_LINK_SCALE_OUT, n->bw, n->hop);
        }
    }
}

static void explicit_links(struct sn__topo_build *b)
{
    const struct sn_scaleout *so = &b->s->scaleout;
    struct sn__topo_net *n = &b->net;

    memset(n->nic_uses, 0, total_servers(b) * sizeof(uint32_t));
    for (size_t i = 0; i < so->nswitches; i++) {
        const struct sn_net_switch *sw = &so->switches[i];
        for (size_t k = 0; k < sw->nnodes; k++) {
            uint32_t g = (uint32_t)sw->nodes[k];
            sn__topo_build_link(b, nic_of(b, g, n->nic_uses[g]++),
                                n->first + (uint32_t)i, SN_LINK_SCALE_OUT,
                                n->bw, n->hop / 2);
        }
    }
    for (size_t i = 0; i < so->nlinks; i++) {
        const struct sn_net_link *l = &so->links[i];
        for (int c = 0; c < l->count; c++)
            sn__topo_build_link(b, n->first + (uint32_t)l->a,
                                n->first + (uint32_t)l->b, SN_LINK_SCALE_OUT,
                                l->bw > 0 ? l->bw : n->bw, n->hop);
    }
}

void sn__topo_net_links(struct sn__topo_build *b)
{
    const struct sn_scaleout *so = &b->s->scaleout;
    struct sn__topo_net *n = &b->net;

    switch (so->topology) {
    case SN_NET_NONE:
        break;
    case SN_NET_EXTERNAL:
        for (uint32_t g = 0; g < total_servers(b); g++)
            for (uint32_t j = 0; j < b->nics; j++)
                sn__topo_build_link(b, nic_of(b, g, j), n->first,
                                    SN_LINK_SCALE_OUT, n->bw, n->hop / 2);
        break;
    case SN_NET_RAIL_FAT_TREE:
        fat_tree_links(b, true);
        break;
    case SN_NET_FAT_TREE:
        fat_tree_links(b, false);
        break;
    case SN_NET_EXPLICIT:
        explicit_links(b);
        break;
    }
}
