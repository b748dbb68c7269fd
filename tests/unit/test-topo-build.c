/* test-topo-build.c: the fabric builders against closed forms (k-ary fat
 * tree, full mesh, torus) and published designs (DGX SuperPOD Tables 3/4,
 * GB200 NVL72, CloudMatrix 384), plus labels, ranks, placement and the
 * errors for specs that cannot be built. Specs are built in C here. */
/* covers: topo */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sn/topo.h"
#include "spec-fixtures.h"

static const struct sn_accel_info gpu = {
    .name = "test-gpu",
    .display = "TEST-GPU",
    .vendor = "NVIDIA",
    .bf16_flops = 989.4e12,
    .hbm_bytes = 80e9,
    .hbm_bw = 3.35e12,
    .scaleup_links = 18,
    .scaleup_bw = 450e9,
    .tdp_w = 700,
    .max_domain = 72,
    .transient_factor = 1.3,
};

static const struct sn_accel_info npu = {
    .name = "test-npu",
    .display = "TEST-NPU",
    .vendor = "Huawei",
    .bf16_flops = 752e12,
    .hbm_bytes = 128e9,
    .hbm_bw = 3.2e12,
    .scaleup_links = 7,
    .scaleup_bw = 392e9,
    .max_domain = 384,
};

/* NVLink 5 switch chip: 72 ports, two per tray */
static const struct sn_switch_info chip72 = {
    .name = "test-chip72",
    .scale_up = true,
    .radix = 72,
    .port_bw = 50e9,
    .power_w = 150,
    .chips_per_box = 2,
    .rack_units = 1,
};

static void spec_init(struct sn_spec *s)
{
    fx_spec_base(s, "test.yaml", "test", &gpu);
    s->supernodes = 1;
    s->scaleup.accelerators = 8;
    s->scaleup.fabric = SN_FABRIC_NONE;
    s->scaleup.link_latency = 1e-6;
    s->scaleup.pos.line = 3;
    s->scaleup.pos.col = 5;
    s->scaleout.topology = SN_NET_NONE;
    s->scaleout.latency = 130e-9;
    s->scaleout.pos.line = 20;
    s->scaleout.pos.col = 3;
}

/* The seed design: 64 accelerators x 8 links into switch chips, 2
 * uplinks each to an external network, four supernodes. */
static void spec_seed(struct sn_spec *s)
{
    spec_init(s);
    s->supernodes = 4;
    s->scaleup.accelerators = 64;
    s->scaleup.per_node = 8;
    s->scaleup.fabric = SN_FABRIC_SWITCHED;
    s->scaleup.links_per_accel = 8;
    s->scaleup.link_bw = 50e9;
    s->scaleup.sw = &fx_chip64;
    s->scaleout.topology = SN_NET_EXTERNAL;
    s->scaleout.nics_per_node = 16;
}

static struct sn_topo *build_ok(const struct sn_spec *s)
{
    struct sn_topo *t = NULL;
    struct sn_error err;
    int rc;

    sn_error_clear(&err);
    rc = sn_topo_build(s, &t, &err);
    if (rc)
        printf("  build failed: %s\n", err.msg);
    return t;
}

static size_t count_between(const struct sn_topo *t, enum sn_node_kind ka,
                            int ra, enum sn_node_kind kb, int rb)
{
    size_t n = 0;

    for (size_t i = 0; i < t->nlinks; i++) {
        const struct sn_node *x = &t->nodes[t->links[i].a];
        const struct sn_node *y = &t->nodes[t->links[i].b];
        bool xa = x->kind == ka && (ra < 0 || x->role == ra);
        bool yb = y->kind == kb && (rb < 0 || y->role == rb);
        bool xb = x->kind == kb && (rb < 0 || x->role == rb);
        bool ya = y->kind == ka && (ra < 0 || y->role == ra);
        if ((xa && yb) || (xb && ya))
            n++;
    }
    return n;
}

/* ---- the seed design ---------------------------------------------------- */

static void test_seed_has_512_scaleup_and_128_uplinks_per_supernode(void)
{
    struct sn_spec s;
    struct sn_topo_counts c;
    struct sn_topo *t;

    spec_seed(&s);
    t = build_ok(&s);
    REQUIRE(t);
    sn_topo_count(t, &c);
    CHECK(t->naccel == 256);
    CHECK(c.links[SN_LINK_SCALE_UP] == 4 * 512);
    CHECK(c.links[SN_LINK_SCALE_OUT] == 4 * 128);
    CHECK(c.links[SN_LINK_SCALE_UP] + c.links[SN_LINK_SCALE_OUT] == 2560);
    /* 64 x 8 links over 64-port chips: 8 chips per supernode */
    CHECK(c.switches_by_role[SN_SW_SCALEUP_L1] == 32);
    CHECK(c.switches_by_role[SN_SW_EXTERNAL] == 1);
    CHECK(c.nodes[SN_NODE_NIC] == 4 * 128);
    CHECK(c.switch_links == 0);
    CHECK(c.accel_links == 2560);
    sn_topo_free(t);
}

static void test_seed_accelerator_reaches_every_chip_of_its_supernode(void)
{
    struct sn_spec s;
    struct sn_topo *t;
    uint32_t a;
    int seen[8] = {0};

    spec_seed(&s);
    t = build_ok(&s);
    REQUIRE(t);
    a = t->accel[70]; /* supernode 1 */
    for (uint32_t k = t->adj_off[a]; k < t->adj_off[a + 1]; k++) {
        const struct sn_link *l = &t->links[t->adj[k]];
        const struct sn_node *w = &t->nodes[l->a == a ? l->b : l->a];
        if (l->cls != SN_LINK_SCALE_UP)
            continue;
        CHECK(w->kind == SN_NODE_SWITCH && w->supernode == 1);
        if (w->index < 8)
            seen[w->index]++;
    }
    for (int i = 0; i < 8; i++)
        CHECK(seen[i] == 1);
    sn_topo_free(t);
}

static void test_ranks_follow_supernode_node_local_index(void)
{
    struct sn_spec s;
    struct sn_topo *t;

    spec_seed(&s);
    t = build_ok(&s);
    REQUIRE(t);
    for (uint32_t r = 0; r < t->naccel; r++) {
        const struct sn_node *n = &t->nodes[t->accel[r]];
        CHECK(n->rank == r);
        CHECK(n->supernode == r / 64);
        CHECK(n->server == (r % 64) / 8);
        CHECK(n->index == r % 8);
    }
    sn_topo_free(t);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_labels_are_unique_and_stable(void)
{
    struct sn_spec s;
    struct sn_topo *t, *u;
    char **lab;
    char buf[256], buf2[256];

    spec_seed(&s);
    t = build_ok(&s);
    u = build_ok(&s);
    REQUIRE(t && u);
    REQUIRE(t->nlinks == u->nlinks);
    lab = calloc(t->nlinks, sizeof(char *));
    for (size_t i = 0; i < t->nlinks; i++) {
        sn_topo_link_label(t, (uint32_t)i, buf, sizeof(buf));
        sn_topo_link_label(u, (uint32_t)i, buf2, sizeof(buf2));
        CHECK(strcmp(buf, buf2) == 0);
        lab[i] = strdup(buf);
    }
    qsort(lab, t->nlinks, sizeof(char *), cmp_str);
    for (size_t i = 0; i + 1 < t->nlinks; i++)
        CHECK(strcmp(lab[i], lab[i + 1]) != 0);
    for (size_t i = 0; i < t->nlinks; i++)
        free(lab[i]);
    free(lab);
    sn_topo_free(t);
    sn_topo_free(u);
}

static void test_label_names_rack_unit_device_port(void)
{
    struct sn_spec s;
    struct sn_topo *t;
    char buf[256];
    uint32_t id;
    struct sn_error err;

    spec_seed(&s);
    t = build_ok(&s);
    REQUIRE(t);
    /* first link: gpu0 of the first server, port 0, to chip 0 port 0 */
    sn_topo_link_label(t, 0, buf, sizeof(buf));
    CHECK_CONTAINS(buf, "sn0.r00.u01.gpu0.p0~sn0.r");
    CHECK_CONTAINS(buf, ".sw0.p0");
    sn_topo_link_id(t, 2048, buf, sizeof(buf));
    CHECK_STR(buf, "L002048");
    /* the first uplink ends on the site network */
    sn_topo_link_label(t, 2048, buf, sizeof(buf));
    CHECK_CONTAINS(buf, "sn0.r00.u01.nic0.p0~net.site0.p0");
    CHECK(sn_topo_find_link(t, buf, &id, &err) == SN_OK && id == 2048);
    sn_topo_free(t);
}

/* ---- fat trees ---------------------------------------------------------- */

/* k-ary fat tree (Al-Fares et al., SIGCOMM 2008): k^3/4 hosts, 5k^2/4
 * switches, 3k^3/4 cables. Exact. */
static void check_k_ary(int k)
{
    struct sn_spec s;
    struct sn_topo_counts c;
    struct sn_topo *t;
    size_t hosts = (size_t)k * k * k / 4;

    spec_init(&s);
    s.supernodes = (int)hosts;
    s.scaleup.accelerators = 1;
    s.scaleup.per_node = 1;
    s.scaleout.topology = SN_NET_FAT_TREE;
    s.scaleout.nics_per_node = 1;
    s.scaleout.radix = k;
    s.scaleout.tiers = 3;
    s.scaleout.oversubscription = 1;
    s.scaleout.sw = &fx_ib64;
    t = build_ok(&s);
    REQUIRE(t);
    sn_topo_count(t, &c);
    CHECK(t->naccel == hosts);
    CHECK(c.nodes[SN_NODE_SWITCH] == (size_t)5 * k * k / 4);
    CHECK(c.switches_by_role[SN_SW_CORE] == (size_t)k * k / 4);
    CHECK(c.links[SN_LINK_SCALE_OUT] == 3 * hosts);
    CHECK(c.switch_links == 2 * hosts);
    /* every switch uses exactly k ports */
    for (size_t v = 0; v < t->nnodes; v++)
        if (t->nodes[v].kind == SN_NODE_SWITCH)
            CHECK(t->nodes[v].nports == (uint32_t)k);
    sn_topo_free(t);
}

static void test_k_ary_fat_tree_matches_al_fares(void)
{
    check_k_ary(4);
    check_k_ary(8);
    check_k_ary(16);
}

static void test_k_ary_fat_tree_routes_across_pods_in_six_hops(void)
{
    struct sn_spec s;
    struct sn_topo *t;
    struct sn_path p[16];
    size_t n = 0;
    struct sn_error err;

    spec_init(&s);
    s.supernodes = 16;
    s.scaleup.accelerators = 1;
    s.scaleup.per_node = 1;
    s.scaleout.topology = SN_NET_FAT_TREE;
    s.scaleout.nics_per_node = 1;
    s.scaleout.radix = 4;
    s.scaleout.tiers = 3;
    t = build_ok(&s);
    REQUIRE(t);
    /* host 0 (pod 0) to host 15 (pod 3): gpu-nic, nic-edge, edge-agg,
     * agg-core, core-agg, agg-edge, edge-nic, nic-gpu; (k/2)^2 = 4 paths */
    CHECK(sn_topo_paths(t, t->accel[0], t->accel[15], p, 16, &n, &err) ==
          SN_OK);
    CHECK(n == 4);
    CHECK(n > 0 && p[0].nhops == 8);
    sn_topo_free(t);
}

/* A spec of nodes servers with 8 NICs each on a rail-optimised fat tree
 * of 64-port switches sw (NULL: the planner's own) with tiers tiers (0:
 * the fewest). */
static void spec_rail(struct sn_spec *s, int nodes, int tiers,
                      const struct sn_switch_info *sw)
{
    spec_init(s);
    s->supernodes = nodes;
    s->scaleout.topology = SN_NET_RAIL_FAT_TREE;
    s->scaleout.nics_per_node = 8;
    s->scaleout.radix = 64;
    s->scaleout.tiers = tiers;
    s->scaleout.sw = sw;
}

/* t has leaf leaves and spine spines (row of a table, named when not). */
static void check_leaves_spines(const struct sn_topo *t, size_t row,
                                size_t leaf, size_t spine)
{
    struct sn_topo_counts c;

    sn_topo_count(t, &c);
    CHECK(c.switches_by_role[SN_SW_LEAF] == leaf);
    CHECK(c.switches_by_role[SN_SW_SPINE] == spine);
    if (c.switches_by_role[SN_SW_LEAF] != leaf ||
        c.switches_by_role[SN_SW_SPINE] != spine)
        printf("  row %zu: %zu leaves %zu spines\n", row,
               c.switches_by_role[SN_SW_LEAF], c.switches_by_role[SN_SW_SPINE]);
}

/* DGX SuperPOD H100 RA-11333-001, Tables 3 and 4 (reference
 * hardware-catalog.md section 3.1): leaf, spine, core switches and cables
 * by size, rail-optimised over 8 rails with 64-port QM9700. Exact. */
static void test_rail_fat_tree_matches_superpod_tables(void)
{
    static const struct {
        int nodes, tiers;
        size_t leaf, spine, core, node_leaf, leaf_spine, spine_core;
    } rows[] = {
        {31, 0, 8, 4, 0, 248, 256, 0},              /* Table 4, 1 SU */
        {63, 0, 16, 8, 0, 504, 512, 0},             /* Table 4, 2 SU */
        {95, 0, 24, 16, 0, 760, 768, 0},            /* Table 4, 3 SU */
        {127, 0, 32, 16, 0, 1016, 1024, 0},         /* Table 4, 4 SU */
        {128, 0, 32, 16, 0, 1024, 1024, 0},         /* Table 3, 4 SU */
        {256, 0, 64, 32, 0, 2048, 2048, 0},         /* Table 3, 8 SU */
        {512, 3, 128, 128, 64, 4096, 4096, 4096},   /* 16 SU */
        {1024, 3, 256, 256, 128, 8192, 8192, 8192}, /* 32 SU */
        {2048, 3, 512, 512, 256, 16384, 16384, 16384},
    };

    for (size_t i = 0; i < SN_ARRAY_LEN(rows); i++) {
        struct sn_spec s;
        struct sn_topo_counts c;
        struct sn_topo *t;
        spec_rail(&s, rows[i].nodes, rows[i].tiers, &fx_ib64);
        s.scaleup.fabric = SN_FABRIC_SWITCHED;
        s.scaleup.links_per_accel = 18;
        s.scaleup.switches_per_plane = 4;
        s.scaleup.sw = &fx_chip64;
        t = build_ok(&s);
        REQUIRE(t);
        check_leaves_spines(t, i, rows[i].leaf, rows[i].spine);
        sn_topo_count(t, &c);
        CHECK(c.switches_by_role[SN_SW_CORE] == rows[i].core);
        CHECK(count_between(t, SN_NODE_NIC, -1, SN_NODE_SWITCH, SN_SW_LEAF) ==
              rows[i].node_leaf);
        CHECK(count_between(t, SN_NODE_SWITCH, SN_SW_LEAF, SN_NODE_SWITCH,
                            SN_SW_SPINE) == rows[i].leaf_spine);
        CHECK(count_between(t, SN_NODE_SWITCH, SN_SW_SPINE, SN_NODE_SWITCH,
                            SN_SW_CORE) == rows[i].spine_core);
        sn_topo_free(t);
    }
}

static void test_small_rail_cluster_cables_the_ports_in_use(void)
{
    /* 8 NICs a server on 64-port leaves; the uplinks follow the servers
     * a leaf serves (issue: 4 servers planned 256 leaf-to-spine cables
     * for 32 NIC ports), and 32 ports fit one switch */
    static const struct {
        int nodes, tiers;
        size_t leaf, spine, leaf_spine;
    } rows[] = {
        {4, 0, 1, 0, 0},  /* 32 ports: one 64-port switch */
        {8, 0, 1, 0, 0},  /* 64 ports: still one */
        {4, 2, 8, 1, 32}, /* asked for two tiers: 4 down, 4 up a leaf */
        {9, 0, 8, 2, 80}, /* 9 down, 10 up (2 spines x 5) a leaf */
        {16, 0, 8, 2, 128}, {9, 1, 8, 0, 0}, /* rail-only: one switch a rail */
    };

    for (size_t i = 0; i < SN_ARRAY_LEN(rows); i++) {
        struct sn_spec s;
        struct sn_topo *t;
        spec_rail(&s, rows[i].nodes, rows[i].tiers, &fx_ib64);
        t = build_ok(&s);
        REQUIRE(t);
        check_leaves_spines(t, i, rows[i].leaf, rows[i].spine);
        CHECK(count_between(t, SN_NODE_NIC, -1, SN_NODE_SWITCH, SN_SW_LEAF) ==
              (size_t)rows[i].nodes * 8);
        CHECK(count_between(t, SN_NODE_SWITCH, SN_SW_LEAF, SN_NODE_SWITCH,
                            SN_SW_SPINE) == rows[i].leaf_spine);
        sn_topo_free(t);
    }
}

static void test_rail_leaf_serves_one_rail_of_one_su(void)
{
    struct sn_spec s;
    struct sn_topo *t;

    spec_rail(&s, 64, 0, NULL);
    t = build_ok(&s);
    REQUIRE(t);
    for (size_t i = 0; i < t->nlinks; i++) {
        const struct sn_node *x = &t->nodes[t->links[i].a];
        const struct sn_node *y = &t->nodes[t->links[i].b];
        if (x->kind == SN_NODE_NIC && y->kind == SN_NODE_SWITCH) {
            /* leaf index = SU * 8 + rail */
            CHECK(y->index % 8 == x->index);
            CHECK(y->index / 8 == x->supernode / 32);
        }
    }
    sn_topo_free(t);
}

static void test_oversubscription_thins_leaf_uplinks(void)
{
    struct sn_spec s;
    struct sn_topo *t;
    struct sn_topo_counts c;

    /* 3:1 at the leaf of 64 ports: 48 down, 16 up; 96 hosts -> 2 leaves,
     * 32 uplinks -> one spine (16 | 16, 2 x 16 <= 64) */
    spec_init(&s);
    s.supernodes = 96;
    s.scaleup.accelerators = 1;
    s.scaleup.per_node = 1;
    s.scaleout.topology = SN_NET_FAT_TREE;
    s.scaleout.nics_per_node = 1;
    s.scaleout.radix = 64;
    s.scaleout.oversubscription = 3;
    s.scaleout.tiers = 2;
    t = build_ok(&s);
    REQUIRE(t);
    sn_topo_count(t, &c);
    CHECK(c.switches_by_role[SN_SW_LEAF] == 2);
    CHECK(c.switches_by_role[SN_SW_SPINE] == 1);
    CHECK(c.switch_links == 32);
    sn_topo_free(t);
}

static void test_fat_tree_too_big_for_two_tiers_is_refused(void)
{
    struct sn_spec s;
    struct sn_topo *t = NULL;
    struct sn_error err;

    spec_init(&s);
    s.supernodes = 2049; /* k^2/2 + 1 with k = 64 */
    s.scaleup.accelerators = 1;
    s.scaleup.per_node = 1;
    s.scaleout.topology = SN_NET_FAT_TREE;
    s.scaleout.nics_per_node = 1;
    s.scaleout.radix = 64;
    s.scaleout.tiers = 2;
    CHECK(sn_topo_build(&s, &t, &err) == SN_EINPUT);
    CHECK(t == NULL);
    CHECK_CONTAINS(err.msg, "test.yaml:20:3:");
    CHECK_CONTAINS(err.msg, "tiers: 3");
    s.scaleout.tiers = 0; /* automatic: three tiers */
    t = build_ok(&s);
    CHECK(t != NULL);
    sn_topo_free(t);
}

/* ---- scale-up fabrics --------------------------------------------------- */

/* GB200 NVL72 (hardware-catalog.md section 2.4): 72 GPUs, 18 switch chips
 * in 9 trays, one link from each GPU to each chip: 1,296 links. Exact. */
static void test_nvl72_has_18_chips_9_trays_1296_links(void)
{
    struct sn_spec s;
    struct sn_topo *t;
    struct sn_topo_counts c;
    uint32_t units[64] = {0};

    spec_init(&s);
    s.scaleup.accelerators = 72;
    s.scaleup.per_node = 4;
    s.scaleup.fabric = SN_FABRIC_SWITCHED;
    s.scaleup.links_per_accel = 18;
    s.scaleup.link_bw = 50e9;
    s.scaleup.sw = &chip72;
    s.racks.nodes_per_rack = 18;
    s.racks.node_units = 1;
    t = build_ok(&s);
    REQUIRE(t);
    sn_topo_count(t, &c);
    CHECK(c.switches_by_role[SN_SW_SCALEUP_L1] == 18);
    CHECK(c.links[SN_LINK_SCALE_UP] == 1296);
    CHECK(c.links_by_medium[SN_MEDIUM_COPPER] == 1296);
    CHECK(t->nracks == 1);
    for (size_t v = 0; v < t->nnodes; v++) {
        const struct sn_node *n = &t->nodes[v];
        if (n->kind == SN_NODE_SWITCH) {
            CHECK(n->nports == 72);
            if (n->unit < 64)
                units[n->unit]++;
        }
    }
    /* two chips per tray, trays between the compute trays */
    for (int u = 10; u <= 18; u++)
        CHECK(units[u] == 2);
    for (size_t i = 0; i < t->nlinks; i++)
        if (t->links[i].cls == SN_LINK_SCALE_UP)
            CHECK(t->links[i].length < 2.0);
    sn_topo_free(t);
}

/* CloudMatrix 384 (hardware-catalog.md section 2.6): 48 nodes of 8 NPUs,
 * 7 planes, one on-board L1 chip per plane (336), 16 L2 chips per plane
 * (112); L1-L2 links 48 x 7 x 16 = 5,376. */
static void test_cloudmatrix_two_tier_counts(void)
{
    struct sn_spec s;
    struct sn_topo *t;
    struct sn_topo_counts c;

    spec_init(&s);
    s.accel = &npu;
    s.scaleup.accelerators = 384;
    s.scaleup.per_node = 8;
    s.scaleup.fabric = SN_FABRIC_SWITCHED;
    s.scaleup.links_per_accel = 7;
    s.scaleup.link_bw = 56e9;
    s.scaleup.planes = 7;
    s.scaleup.tiers = 2;
    s.scaleup.switches_per_plane = 16;
    s.scaleup.medium = SN_MEDIUM_SMF;
    t = build_ok(&s);
    REQUIRE(t);
    sn_topo_count(t, &c);
    CHECK(c.switches_by_role[SN_SW_SCALEUP_L1] == 336);
    CHECK(c.switches_by_role[SN_SW_SCALEUP_L2] == 112);
    CHECK(count_between(t, SN_NODE_ACCEL, -1, SN_NODE_SWITCH,
                        SN_SW_SCALEUP_L1) == 384 * 7);
    CHECK(c.switch_links == 5376);
    CHECK(c.links_by_medium[SN_MEDIUM_BOARD] >= 384 * 7);
    /* non-blocking: 8 x 56 GB/s down, 16 links up of 28 GB/s */
    for (size_t i = 0; i < t->nlinks; i++)
        if (t->nodes[t->links[i].a].kind == SN_NODE_SWITCH &&
            t->nodes[t->links[i].b].kind == SN_NODE_SWITCH)
            CHECK_NEAR(t->links[i].bw, 28e9, 1e-6);
    sn_topo_free(t);
}

static void test_full_mesh_of_eight_has_28_links(void)
{
    struct sn_spec s;
    struct sn_topo *t;
    struct sn_topo_counts c;

    spec_init(&s);
    s.scaleup.fabric = SN_FABRIC_FULL_MESH;
    s.scaleup.links_per_accel = 7;
    t = build_ok(&s);
    REQUIRE(t);
    sn_topo_count(t, &c);
    CHECK(c.links[SN_LINK_SCALE_UP] == 28); /* n(n-1)/2 */
    CHECK(!t->accel_transit);
    sn_topo_free(t);
    /* Gaudi 3 HLS-3: 21 ports, 3 to each of 7 peers = 84 links */
    s.scaleup.links_per_accel = 21;
    t = build_ok(&s);
    REQUIRE(t);
    sn_topo_count(t, &c);
    CHECK(c.links[SN_LINK_SCALE_UP] == 84);
    sn_topo_free(t);
}

static void test_torus_links_and_routes(void)
{
    struct sn_spec s;
    struct sn_topo *t;
    struct sn_topo_counts c;
    struct sn_path p[64];
    size_t n = 0;
    struct sn_error err;

    spec_init(&s);
    s.scaleup.accelerators = 64;
    s.scaleup.per_node = 4;
    s.scaleup.fabric = SN_FABRIC_TORUS;
    s.scaleup.ndims = 3;
    s.scaleup.dims[0] = s.scaleup.dims[1] = s.scaleup.dims[2] = 4;
    s.scaleup.links_per_accel = 6;
    t = build_ok(&s);
    REQUIRE(t);
    sn_topo_count(t, &c);
    CHECK(c.links[SN_LINK_SCALE_UP] == 64 * 6 / 2);
    CHECK(t->accel_transit);
    for (uint32_t r = 0; r < 64; r++) {
        uint32_t v = t->accel[r], deg = 0;
        for (uint32_t k = t->adj_off[v]; k < t->adj_off[v + 1]; k++)
            deg += t->links[t->adj[k]].cls == SN_LINK_SCALE_UP;
        CHECK(deg == 6);
    }
    /* (0,0,0) to (2,2,2): 2 + 2 + 2 hops */
    CHECK(sn_topo_paths(t, t->accel[0], t->accel[2 + 4 * 2 + 16 * 2], p, 64, &n,
                        &err) == SN_OK);
    CHECK(n > 0 && p[0].nhops == 6);
    sn_topo_free(t);
    /* 2 x 2: each accelerator has two links to each of its 2 neighbours */
    s.scaleup.accelerators = 4;
    s.scaleup.ndims = 2;
    s.scaleup.dims[0] = s.scaleup.dims[1] = 2;
    s.scaleup.links_per_accel = 4;
    t = build_ok(&s);
    REQUIRE(t);
    sn_topo_count(t, &c);
    CHECK(c.links[SN_LINK_SCALE_UP] == 8);
    sn_topo_free(t);
}

static void test_partial_mesh_is_two_hops_at_most(void)
{
    struct sn_spec s;
    struct sn_topo *t;
    struct sn_topo_counts c;
    struct sn_route_tree rt;
    struct sn_error err;

    spec_init(&s);
    s.scaleup.accelerators = 16;
    s.scaleup.per_node = 4;
    s.scaleup.fabric = SN_FABRIC_PARTIAL_MESH;
    s.scaleup.group = 4;
    s.scaleup.links_per_accel = 6; /* 3 inside, 1 to each other group */
    t = build_ok(&s);
    REQUIRE(t);
    sn_topo_count(t, &c);
    CHECK(c.links[SN_LINK_SCALE_UP] == 16 * 6 / 2);
    CHECK(t->accel_transit);
    REQUIRE(sn_topo_route_tree(t, t->accel[0], &rt, &err) == SN_OK);
    for (uint32_t r = 1; r < 16; r++)
        CHECK(rt.dist[t->accel[r]] <= 2);
    sn_route_tree_release(&rt);
    sn_topo_free(t);
}

static void test_pcie_tree_routes_through_the_cpu_between_switches(void)
{
    struct sn_spec s;
    struct sn_topo *t;
    struct sn_topo_counts c;
    struct sn_path p[4];
    size_t n = 0;
    struct sn_error err;

    spec_init(&s);
    s.scaleup.fabric = SN_FABRIC_PCIE_TREE;
    s.scaleup.links_per_accel = 1;
    s.scaleup.link_bw = 63e9;
    s.scaleup.group = 4;
    t = build_ok(&s);
    REQUIRE(t);
    sn_topo_count(t, &c);
    CHECK(c.switches_by_role[SN_SW_PCIE] == 2);
    CHECK(c.links[SN_LINK_SCALE_UP] == 0);
    CHECK(c.links[SN_LINK_HOST] == 8 + 2);
    /* same switch: 2 hops; across switches: through the root complex */
    CHECK(sn_topo_paths(t, t->accel[0], t->accel[1], p, 4, &n, &err) == SN_OK);
    CHECK(n == 1 && p[0].nhops == 2);
    CHECK(sn_topo_paths(t, t->accel[0], t->accel[7], p, 4, &n, &err) == SN_OK);
    CHECK(n == 1 && p[0].nhops == 4);
    sn_topo_free(t);
}

/* ---- explicit networks -------------------------------------------------- */

static void spec_cpu_cluster(struct sn_spec *s, struct sn_net_switch *sw,
                             int *nodes, struct sn_net_link *isl)
{
    spec_init(s);
    s->supernodes = 4;
    s->scaleup.accelerators = 1;
    s->scaleup.per_node = 1;
    s->scaleout.topology = SN_NET_EXPLICIT;
    s->scaleout.nics_per_node = 1;
    s->scaleout.nic_bw = 12.5e9;
    nodes[0] = 0;
    nodes[1] = 1;
    nodes[2] = 2;
    nodes[3] = 3;
    memset(sw, 0, 2 * sizeof(*sw));
    sw[0].name = (char *)"leaf-a";
    sw[0].nodes = nodes;
    sw[0].nnodes = 2;
    sw[1].name = (char *)"leaf-b";
    sw[1].nodes = nodes + 2;
    sw[1].nnodes = 2;
    memset(isl, 0, sizeof(*isl));
    isl->a = 0;
    isl->b = 1;
    isl->count = 1;
    s->scaleout.switches = sw;
    s->scaleout.nswitches = 2;
    s->scaleout.links = isl;
    s->scaleout.nlinks = 1;
}

static void test_explicit_cluster_routes_over_the_inter_switch_link(void)
{
    struct sn_spec s;
    struct sn_net_switch sw[2];
    struct sn_net_link isl;
    int nodes[4];
    struct sn_topo *t;
    struct sn_topo_counts c;
    struct sn_path p[4];
    size_t n = 0;
    struct sn_error err;
    char buf[256];
    uint32_t id;

    spec_cpu_cluster(&s, sw, nodes, &isl);
    t = build_ok(&s);
    REQUIRE(t);
    sn_topo_count(t, &c);
    CHECK(c.links[SN_LINK_SCALE_OUT] == 5);
    CHECK(c.switch_links == 1);
    CHECK(c.switches_by_role[SN_SW_LEAF] == 2);
    sn_topo_link_label(t, 4, buf, sizeof(buf));
    CHECK_CONTAINS(buf, ".leaf-a.p2~net.");
    CHECK_CONTAINS(buf, ".leaf-b.p2");
    CHECK(sn_topo_find_link(t, buf, &id, &err) == SN_OK && id == 4);
    /* host 0 to host 3: gpu-nic, nic-leaf-a, isl, leaf-b-nic, nic-gpu */
    CHECK(sn_topo_paths(t, t->accel[0], t->accel[3], p, 4, &n, &err) == SN_OK);
    CHECK(n == 1 && p[0].nhops == 5);
    CHECK(n == 1 && p[0].link[2] == 4);
    sn_topo_free(t);
}

static void test_explicit_node_on_no_switch_is_refused(void)
{
    struct sn_spec s;
    struct sn_net_switch sw[2];
    struct sn_net_link isl;
    int nodes[4];
    struct sn_topo *t = NULL;
    struct sn_error err;

    spec_cpu_cluster(&s, sw, nodes, &isl);
    sw[1].nnodes = 1;
    CHECK(sn_topo_build(&s, &t, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "node 3 is on no switch");
    sw[1].nnodes = 2;
    nodes[3] = 9;
    sw[1].pos.line = 31;
    sw[1].pos.col = 7;
    CHECK(sn_topo_build(&s, &t, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "test.yaml:31:7: switch 'leaf-b' lists node 9");
    CHECK(t == NULL);
}

/* ---- errors ------------------------------------------------------------- */

static void test_unbuildable_specs_are_refused_with_position(void)
{
    struct sn_spec s;
    struct sn_topo *t = NULL;
    struct sn_error err;

    spec_init(&s);
    s.scaleup.accelerators = 12; /* not a multiple of 8 per node */
    CHECK(sn_topo_build(&s, &t, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "test.yaml:3:5: 12 accelerators per supernode");
    spec_init(&s);
    s.scaleup.fabric = SN_FABRIC_TORUS;
    s.scaleup.ndims = 2;
    s.scaleup.dims[0] = 3;
    s.scaleup.dims[1] = 3;
    s.scaleup.links_per_accel = 4;
    CHECK(sn_topo_build(&s, &t, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "multiply to 9");
    spec_init(&s);
    s.scaleup.fabric = SN_FABRIC_SWITCHED;
    s.scaleup.links_per_accel = 8;
    s.scaleup.planes = 3;
    CHECK(sn_topo_build(&s, &t, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "evenly over 3 planes");
    spec_init(&s);
    s.scaleup.accelerators = 256;
    s.scaleup.fabric = SN_FABRIC_SWITCHED;
    s.scaleup.links_per_accel = 2;
    s.scaleup.sw = &fx_chip64; /* 512 ports need 8 chips, 2 links reach 2 */
    CHECK(sn_topo_build(&s, &t, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "tiers: 2");
    /* two tiers: an L1 chip takes 8 x 4 links down and as many up: 64
     * ports, more than a 48-port chip has */
    spec_init(&s);
    s.scaleup.accelerators = 64;
    s.scaleup.fabric = SN_FABRIC_SWITCHED;
    s.scaleup.tiers = 2;
    s.scaleup.links_per_accel = 4;
    s.scaleup.radix = 48;
    CHECK(sn_topo_build(&s, &t, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "an L1 chip of 48 ports");
    spec_init(&s);
    s.supernodes = 1 << 20;
    s.scaleup.accelerators = 64;
    CHECK(sn_topo_build(&s, &t, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "more than this planner builds");
    CHECK(t == NULL);
}

/* ---- placement ---------------------------------------------------------- */

static void test_network_links_get_media_by_length(void)
{
    struct sn_spec s;
    struct sn_topo *t;

    /* 4 SU SuperPOD: NIC-leaf and leaf-spine runs are tens of metres */
    spec_rail(&s, 128, 0, NULL);
    t = build_ok(&s);
    REQUIRE(t);
    CHECK(t->nracks == 32 + 2);
    if (t->nracks != 34)
        printf("  %zu racks\n", t->nracks);
    for (size_t i = 0; i < t->nlinks; i++) {
        const struct sn_link *l = &t->links[i];
        if (l->cls == SN_LINK_SCALE_OUT) {
            CHECK(l->length > 0.2);
            CHECK(l->medium == (l->length <= 3    ? SN_MEDIUM_COPPER
                                : l->length <= 50 ? SN_MEDIUM_MMF
                                                  : SN_MEDIUM_SMF));
        } else {
            CHECK(l->medium == SN_MEDIUM_BOARD);
        }
        CHECK(l->latency > 0);
    }
    sn_topo_free(t);
}

/* 8 GPUs and 4 NICs a server: two GPUs share a PCIe switch with a NIC,
 * so every GPU reaches the network through its NIC without the CPU */
static void test_every_accelerator_has_a_nic_beside_it(void)
{
    struct sn_spec s;
    struct sn_topo *t;
    struct sn_path p[4];
    size_t n = 0;
    struct sn_error err;

    spec_init(&s);
    s.supernodes = 2;
    s.scaleout.topology = SN_NET_FAT_TREE;
    s.scaleout.nics_per_node = 4;
    s.scaleout.radix = 8;
    t = build_ok(&s);
    REQUIRE(t);
    for (uint32_t r = 0; r < 8; r++) {
        uint32_t v = t->accel[r], nics = 0;
        for (uint32_t k = t->adj_off[v]; k < t->adj_off[v + 1]; k++) {
            const struct sn_link *l = &t->links[t->adj[k]];
            const struct sn_node *w = &t->nodes[l->a == v ? l->b : l->a];
            if (w->kind == SN_NODE_NIC) {
                nics++;
                CHECK(w->index == r / 2);
            }
        }
        CHECK(nics == 1);
    }
    /* GPU 7 of server 0 to GPU 7 of server 1: gpu-nic3, nic3-leaf,
     * leaf-nic3, nic3-gpu; no host CPU on the way */
    CHECK(sn_topo_paths(t, t->accel[7], t->accel[15], p, 4, &n, &err) == SN_OK);
    CHECK(n == 1 && p[0].nhops == 4);
    sn_topo_free(t);
}

static const struct sn_test cases[] = {
    T(test_every_accelerator_has_a_nic_beside_it),
    T(test_seed_has_512_scaleup_and_128_uplinks_per_supernode),
    T(test_seed_accelerator_reaches_every_chip_of_its_supernode),
    T(test_ranks_follow_supernode_node_local_index),
    T(test_labels_are_unique_and_stable),
    T(test_label_names_rack_unit_device_port),
    T(test_k_ary_fat_tree_matches_al_fares),
    T(test_k_ary_fat_tree_routes_across_pods_in_six_hops),
    T(test_rail_fat_tree_matches_superpod_tables),
    T(test_small_rail_cluster_cables_the_ports_in_use),
    T(test_rail_leaf_serves_one_rail_of_one_su),
    T(test_oversubscription_thins_leaf_uplinks),
    T(test_fat_tree_too_big_for_two_tiers_is_refused),
    T(test_nvl72_has_18_chips_9_trays_1296_links),
    T(test_cloudmatrix_two_tier_counts),
    T(test_full_mesh_of_eight_has_28_links),
    T(test_torus_links_and_routes),
    T(test_partial_mesh_is_two_hops_at_most),
    T(test_pcie_tree_routes_through_the_cpu_between_switches),
    T(test_explicit_cluster_routes_over_the_inter_switch_link),
    T(test_explicit_node_on_no_switch_is_refused),
    T(test_unbuildable_specs_are_refused_with_position),
    T(test_network_links_get_media_by_length),
};

SN_TEST_MAIN(cases)
