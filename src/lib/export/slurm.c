/* slurm.c (export): Slurm's topology for a design: topology/block
 * with a block per scale-up domain, topology/tree with the scale-out
 * switches, as topology.conf (one plugin) or topology.yaml (both).
 * Slurm's topology.conf(5) and topology.yaml(5); docs/export.md.
 */
#include <stdlib.h>
#include <string.h>

#include "sn/export.h"
#include "sn/spec.h"
#include "sn/topo.h"

/* A Slurm switch: a group of the design's switches of one tier that join
 * the same children (a rail-optimised leaf group: one leaf per rail, all
 * on the same nodes), its children node or group indices. */
struct sl_group {
    uint32_t *kids;
    size_t nkids;
    uint64_t hash;
    size_t first;   /* the design switch it was first seen at */
    size_t members; /* design switches in it */
};

struct sl_tier {
    struct sl_group *g;
    size_t n;
    uint32_t *group_of; /* per topology node: its group in this tier, or
                           SN_NONE */
};

static const char *const tier_names[] = {"leaf", "spine", "core"};

static uint32_t global_node(const struct sn_topo *t, uint32_t v)
{
    int per = sn_spec_nodes_per_supernode(t->spec);
    return t->nodes[v].supernode * (uint32_t)per + t->nodes[v].server;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The children of switch s one tier down: the nodes whose NICs plug into
 * it (tier 0) or the groups of the tier below it links to. Sorted, no
 * repeats. */
static size_t kids_of(const struct sn_topo *t, uint32_t s, int tier,
                      const struct sl_tier *below, uint32_t *out)
{
    size_t n = 0;

    for (uint32_t k = t->adj_off[s]; k < t->adj_off[s + 1]; k++) {
        const struct sn_link *l = &t->links[t->adj[k]];
        uint32_t o = l->a == s ? l->b : l->a;
        if (l->cls != SN_LINK_SCALE_OUT)
            continue;
        if (tier == 0 && t->nodes[o].kind == SN_NODE_NIC &&
            t->nodes[o].supernode != SN_NONE)
            out[n++] = global_node(t, o);
        else if (tier > 0 && below->group_of[o] != SN_NONE)
            out[n++] = below->group_of[o];
    }
    qsort(out, n, sizeof(*out), cmp_u32);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || out[m - 1] != out[i])
            out[m++] = out[i];
    return m;
}

/* Group the switches of role `role` by the children they join. */
static void build_tier(const struct sn_topo *t, int tier,
                       const struct sl_tier *below, struct sl_tier *out)
{
    static const uint8_t roles[] = {SN_SW_LEAF, SN_SW_SPINE, SN_SW_CORE};
    uint32_t *kids;
    size_t cap = 0, deg = 1;

    /* a switch's children are at most its links (parallel links too) */
    for (size_t v = 0; v < t->nnodes; v++)
        if (t->adj_off[v + 1] - t->adj_off[v] > deg)
            deg = t->adj_off[v + 1] - t->adj_off[v];
    kids = sn_xcalloc(deg, sizeof(*kids));

    memset(out, 0, sizeof(*out));
    out->group_of = sn_xmalloc((t->nnodes + 1) * sizeof(uint32_t));
    for (size_t v = 0; v < t->nnodes; v++)
        out->group_of[v] = SN_NONE;
    for (size_t v = 0; v < t->nnodes; v++) {
        size_t n, g;
        uint64_t h;
        if (t->nodes[v].kind != SN_NODE_SWITCH ||
            t->nodes[v].role != roles[tier])
            continue;
        n = kids_of(t, (uint32_t)v, tier, below, kids);
        if (n == 0)
            continue;
        h = sn_hash64(kids, n * sizeof(*kids), (uint64_t)n);
        /* groups so far with the same children (hash, then the list) */
        for (g = 0; g < out->n; g++)
            if (out->g[g].hash == h && out->g[g].nkids == n &&
                !memcmp(out->g[g].kids, kids, n * sizeof(*kids)))
                break;
        if (g == out->n) {
            sn_grow((void **)&out->g, &cap, out->n + 1, sizeof(*out->g));
            out->g[g] =
                (struct sl_group){sn_xmalloc(n * sizeof(*kids)), n, h, v, 0};
            memcpy(out->g[g].kids, kids, n * sizeof(*kids));
            out->n++;
        }
        out->g[g].members++;
        out->group_of[v] = (uint32_t)g;
    }
    free(kids);
}

static void tier_release(struct sl_tier *tr)
{
    for (size_t g = 0; g < tr->n; g++)
        free(tr->g[g].kids);
    free(tr->g);
    free(tr->group_of);
    memset(tr, 0, sizeof(*tr));
}

unsigned sn_export_slurm_plugins(const struct sn_topo *t)
{
    unsigned p = 0;

    if (sn_spec_nodes_per_supernode(t->spec) > 1 &&
        t->spec->scaleup.fabric != SN_FABRIC_NONE)
        p |= SN_SLURM_BLOCK;
    for (size_t v = 0; v < t->nnodes; v++)
        if (t->nodes[v].kind == SN_NODE_SWITCH &&
            t->nodes[v].role == SN_SW_LEAF) {
            p |= SN_SLURM_TREE;
            break;
        }
    return p;
}

/* The hostlist of names picked by index (ids, n of them) from names. */
static void put_hostlist(struct sn_buf *b, const char *const *names,
                         const uint32_t *ids, size_t n)
{
    const char **pick = sn_xcalloc(n + 1, sizeof(*pick));

    for (size_t i = 0; i < n; i++)
        pick[i] = names[ids[i]];
    sn_hostlist_compress(pick, n, b);
    free(pick);
}

/* Group names of a tier: "leaf0".. in the order they were found. */
static char **tier_group_names(int tier, size_t n)
{
    char **names = sn_xcalloc(n + 1, sizeof(*names));

    for (size_t g = 0; g < n; g++) {
        struct sn_buf b = SN_BUF_INIT;
        sn_buf_printf(&b, "%s%zu", tier_names[tier], g);
        names[g] = sn_buf_detach(&b, NULL);
    }
    return names;
}

static void put_block(const struct sn_topo *t, const char *const *hosts,
                      bool yaml, struct sn_buf *b)
{
    const struct sn_spec *s = t->spec;
    uint32_t per = (uint32_t)sn_spec_nodes_per_supernode(s);
    uint32_t *ids = sn_xcalloc(per, sizeof(*ids));

    if (yaml)
        sn_buf_puts(b, "  block:\n    block_sizes:\n");
    else
        sn_buf_puts(b, "# topology/block: Slurm 23.11+ (BlockSizes since "
                       "24.05; 23.11 took BlockLevels)\n");
    /* BlockSizes: the domain, then power-of-two multiples of it up to the
     * whole cluster (topology.conf(5): each size a power of two larger
     * than the one before; every block at least the base) */
    if (!yaml)
        sn_buf_puts(b, "# one block per scale-up domain\n");
    for (uint32_t sn = 0; sn < (uint32_t)s->supernodes; sn++) {
        for (uint32_t v = 0; v < per; v++)
            ids[v] = sn * per + v;
        sn_buf_printf(b, yaml ? "" : "BlockName=sn%u Nodes=", sn);
        if (yaml) {
            if (sn == 0) {
                for (long long z = per; z <= (long long)per * s->supernodes;
                     z *= 2)
                    sn_buf_printf(b, "      - %lld\n", z);
                sn_buf_puts(b, "    blocks:\n");
            }
            sn_buf_printf(b, "      - block: sn%u\n        nodes: ", sn);
        }
        put_hostlist(b, hosts, ids, per);
        sn_buf_putc(b, '\n');
    }
    if (!yaml) {
        sn_buf_puts(b, "BlockSizes=");
        for (long long z = per; z <= (long long)per * s->supernodes; z *= 2)
            sn_buf_printf(b, "%s%lld", z == per ? "" : ",", z);
        sn_buf_putc(b, '\n');
    }
    free(ids);
}

/* The tree: leaf groups with their nodes, then each tier above with the
 * groups below it. */
static void put_tree(const struct sn_topo *t, const char *const *hosts,
                     bool yaml, struct sn_buf *b)
{
    struct sl_tier tiers[3];
    int nt = 0;

    memset(tiers, 0, sizeof(tiers));
    for (; nt < 3; nt++) {
        build_tier(t, nt, nt ? &tiers[nt - 1] : NULL, &tiers[nt]);
        if (tiers[nt].n == 0) {
            tier_release(&tiers[nt]);
            break;
        }
    }
    if (yaml)
        sn_buf_puts(b, "  tree:\n    switches:\n");
    else
        sn_buf_puts(b, "# topology/tree: every Slurm release in support; "
                       "a leaf is the design's leaf switches that join the "
                       "same nodes (one per rail)\n");
    for (int k = 0; k < nt; k++) {
        char **names = tier_group_names(k, tiers[k].n);
        char **below = k ? tier_group_names(k - 1, tiers[k - 1].n) : NULL;
        for (size_t g = 0; g < tiers[k].n; g++) {
            const struct sl_group *grp = &tiers[k].g[g];
            if (yaml)
                sn_buf_printf(b, "      - switch: %s\n        %s: ", names[g],
                              k ? "children" : "nodes");
            else
                sn_buf_printf(b, "SwitchName=%s %s=", names[g],
                              k ? "Switches" : "Nodes");
            put_hostlist(b, k ? (const char *const *)below : hosts, grp->kids,
                         grp->nkids);
            if (!yaml && grp->members > 1)
                sn_buf_printf(b, " # %zu %s switches", grp->members,
                              tier_names[k]);
            sn_buf_putc(b, '\n');
        }
        sn_spec_hosts_free(names, tiers[k].n);
        if (below)
            sn_spec_hosts_free(below, tiers[k - 1].n);
    }
    for (int k = 0; k < nt; k++)
        tier_release(&tiers[k]);
}

int sn_export_slurm(const struct sn_topo *t, const char *const *hosts,
                    unsigned plugins, struct sn_buf *out, struct sn_error *err)
{
    unsigned can = sn_export_slurm_plugins(t);
    const struct sn_spec *s = t->spec;

    if ((plugins & SN_SLURM_BLOCK) && !(can & SN_SLURM_BLOCK))
        return sn_error_set(err, SN_EINPUT,
                            "every scale-up domain of '%s' is one node: "
                            "topology/block has nothing to place (expected "
                            "--plugin tree)",
                            s->name ? s->name : "the design");
    if ((plugins & SN_SLURM_TREE) && !(can & SN_SLURM_TREE))
        return sn_error_set(err, SN_EINPUT,
                            "'%s' designs no scale-out switches (scaleout "
                            "topology %s): topology/tree has nothing to "
                            "describe (expected --plugin block)",
                            s->name ? s->name : "the design",
                            sn_net_topology_name(s->scaleout.topology));
    if (!(plugins & (SN_SLURM_BLOCK | SN_SLURM_TREE)))
        return sn_error_set(err, SN_EINPUT, "no Slurm plugin asked for");
    if (plugins == (SN_SLURM_BLOCK | SN_SLURM_TREE)) {
        sn_buf_puts(out, "# topology.yaml (Slurm 25.05+; it overrides "
                         "topology.conf): written by supernode export "
                         "slurm\n# block: scale-up domains (topology/block, "
                         "the default); tree: the scale-out network\n---\n"
                         "- topology: scaleup\n  cluster_default: true\n");
        put_block(t, hosts, true, out);
        sn_buf_puts(out, "- topology: network\n  cluster_default: false\n");
        put_tree(t, hosts, true, out);
        return SN_OK;
    }
    sn_buf_printf(out,
                  "# topology.conf: written by supernode export slurm; "
                  "slurm.conf needs TopologyPlugin=topology/%s\n",
                  plugins == SN_SLURM_BLOCK ? "block" : "tree");
    if (plugins == SN_SLURM_BLOCK)
        put_block(t, hosts, false, out);
    else
        put_tree(t, hosts, false, out);
    return SN_OK;
}
