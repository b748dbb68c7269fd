/* test-topo-graph.c: the hand-built graph API, labels and routing rules. */
#include <string.h>

#include "harness.h"
#include "sn/topo.h"

/* Two 2-GPU nodes: each GPU on two scale-up switches (one per plane) inside
 * its node, one NIC per GPU to one leaf, CPU per node. */
struct mini {
    struct sn_topo *t;
    uint32_t gpu[4], nic[4], sw[4], leaf, cpu[2];
};

static void build_mini(struct mini *m)
{
    struct sn_node n;
    struct sn_error err;

    memset(m, 0, sizeof(*m));
    m->t = sn_topo_new(NULL);
    for (uint32_t s = 0; s < 2; s++) {
        for (uint32_t i = 0; i < 2; i++) {
            uint32_t r = s * 2 + i;
            memset(&n, 0, sizeof(n));
            n.kind = SN_NODE_ACCEL;
            n.supernode = s;
            n.rack = s;
            n.unit = 1;
            n.index = i;
            n.rank = r;
            n.plane = SN_NONE16;
            m->gpu[r] = sn_topo_add_node(m->t, &n);
            n.kind = SN_NODE_NIC;
            n.rank = SN_NONE;
            m->nic[r] = sn_topo_add_node(m->t, &n);
            n.kind = SN_NODE_SWITCH;
            n.role = SN_SW_SCALEUP_L1;
            n.unit = 10;
            n.plane = (uint16_t)i;
            m->sw[r] = sn_topo_add_node(m->t, &n);
        }
        memset(&n, 0, sizeof(n));
        n.kind = SN_NODE_CPU;
        n.supernode = s;
        n.rack = s;
        n.unit = 1;
        n.rank = SN_NONE;
        m->cpu[s] = sn_topo_add_node(m->t, &n);
    }
    memset(&n, 0, sizeof(n));
    n.kind = SN_NODE_SWITCH;
    n.role = SN_SW_LEAF;
    n.supernode = SN_NONE;
    n.rack = 2;
    n.unit = 20;
    n.rank = SN_NONE;
    m->leaf = sn_topo_add_node(m->t, &n);
    for (uint32_t s = 0; s < 2; s++) {
        for (uint32_t i = 0; i < 2; i++) {
            uint32_t r = s * 2 + i;
            /* each GPU to both switches of its node */
            for (uint32_t p = 0; p < 2; p++)
                sn_topo_add_link(m->t, m->gpu[r], m->sw[s * 2 + p],
                                 SN_LINK_SCALE_UP, SN_MEDIUM_COPPER, 100e9,
                                 1e-6, 1);
            sn_topo_add_link(m->t, m->gpu[r], m->nic[r], SN_LINK_HOST,
                             SN_MEDIUM_BOARD, 50e9, 1e-6, 0.1);
            sn_topo_add_link(m->t, m->nic[r], m->leaf, SN_LINK_SCALE_OUT,
                             SN_MEDIUM_MMF, 50e9, 1e-6, 20);
            sn_topo_add_link(m->t, m->gpu[r], m->cpu[s], SN_LINK_HOST,
                             SN_MEDIUM_BOARD, 50e9, 1e-6, 0.1);
        }
    }
    CHECK(sn_topo_finish(m->t, &err) == SN_OK);
}

static void test_topo_routes_inside_node_over_both_planes(void)
{
    struct mini m;
    struct sn_path p[8];
    size_t n = 0;
    struct sn_error err;

    build_mini(&m);
    REQUIRE(sn_topo_paths(m.t, m.gpu[0], m.gpu[1], p, 8, &n, &err) == SN_OK);
    /* two planes, two hops each; never through the NICs, CPU or leaf */
    CHECK(n == 2);
    for (size_t i = 0; i < n; i++) {
        CHECK(p[i].nhops == 2);
        CHECK(m.t->links[p[i].link[0]].cls == SN_LINK_SCALE_UP);
    }
    sn_topo_free(m.t);
}

static void test_topo_routes_across_nodes_through_nics(void)
{
    struct mini m;
    struct sn_path p[8];
    size_t n = 0;
    struct sn_error err;

    build_mini(&m);
    REQUIRE(sn_topo_paths(m.t, m.gpu[0], m.gpu[3], p, 8, &n, &err) == SN_OK);
    /* gpu0 -> nic0 -> leaf -> nic3 -> gpu3: the only 4-hop route; the
     * scale-up switches do not forward into the network and a NIC does not
     * forward host to host */
    CHECK(n == 1);
    REQUIRE(n == 1);
    CHECK(p[0].nhops == 4);
    CHECK(m.t->links[p[0].link[1]].cls == SN_LINK_SCALE_OUT);
    sn_topo_free(m.t);
}

static void test_topo_failed_link_changes_routes(void)
{
    struct mini m;
    struct sn_path p[8];
    size_t n = 0;
    struct sn_error err;

    build_mini(&m);
    /* fail gpu0's link to plane 0: one path left inside the node */
    REQUIRE(sn_topo_set_health(m.t, 0, 0.0, &err) == SN_OK);
    REQUIRE(sn_topo_paths(m.t, m.gpu[0], m.gpu[1], p, 8, &n, &err) == SN_OK);
    CHECK(n == 1);
    /* fail the other too: PCIe peer-to-peer through the root complex, which
     * takes as few host hops as the network route and fewer hops */
    REQUIRE(sn_topo_set_health(m.t, 1, 0.0, &err) == SN_OK);
    REQUIRE(sn_topo_paths(m.t, m.gpu[0], m.gpu[1], p, 8, &n, &err) == SN_OK);
    CHECK(n == 1 && p[0].nhops == 2);
    CHECK(m.t->links[p[0].link[0]].cls == SN_LINK_HOST);
    CHECK(sn_topo_set_health(m.t, 1, 1.5, &err) == SN_EINPUT);
    sn_topo_free(m.t);
}

static void test_topo_labels_are_unique_and_findable(void)
{
    struct mini m;
    char a[256], b[256];
    uint32_t id = 0;
    struct sn_error err;

    build_mini(&m);
    sn_topo_link_label(m.t, 0, a, sizeof(a));
    CHECK_STR(a, "sn0.r00.u01.gpu0.p0~sn0.r00.u10.sw0.p0");
    for (uint32_t i = 0; i < m.t->nlinks; i++) {
        sn_topo_link_label(m.t, i, a, sizeof(a));
        for (uint32_t j = i + 1; j < m.t->nlinks; j++) {
            sn_topo_link_label(m.t, j, b, sizeof(b));
            CHECK(strcmp(a, b) != 0);
        }
    }
    sn_topo_link_label(m.t, 5, a, sizeof(a));
    CHECK(sn_topo_find_link(m.t, a, &id, &err) == SN_OK && id == 5);
    CHECK(sn_topo_find_link(m.t, "L000007", &id, &err) == SN_OK && id == 7);
    CHECK(sn_topo_find_link(m.t, "sn0.r00.u01.gpu0.p0~sn0.r00.u10.sw0.p9", &id,
                            &err) == SN_ENOTFOUND);
    CHECK_CONTAINS(err.msg, "did you mean");
    sn_topo_free(m.t);
}

static void test_topo_counts_by_class(void)
{
    struct mini m;
    struct sn_topo_counts c;

    build_mini(&m);
    sn_topo_count(m.t, &c);
    CHECK(c.nodes[SN_NODE_ACCEL] == 4);
    CHECK(c.links[SN_LINK_SCALE_UP] == 8);
    CHECK(c.links[SN_LINK_SCALE_OUT] == 4);
    CHECK(c.links[SN_LINK_HOST] == 8);
    CHECK(c.accel_links == 12);
    CHECK(c.switch_links == 0);
    CHECK(m.t->naccel == 4 && m.t->accel[3] == m.gpu[3]);
    sn_topo_free(m.t);
}

/* One table names every role: its row is its own, a switch's name takes
 * the row's tag, and an unknown role falls back to the row of none. */
static void test_topo_switch_role_table(void)
{
    struct mini m;
    char name[64];

    for (int r = SN_SW_NONE; r <= SN_SW_EXTERNAL; r++)
        CHECK(sn_switch_role_info((enum sn_switch_role)r)->role ==
              (enum sn_switch_role)r);
    CHECK_STR(sn_switch_role_info(SN_SW_SCALEUP_L2)->tag, "l2sw");
    CHECK_STR(sn_switch_role_info(SN_SW_SCALEUP_L1)->key, "scale_up_l1");
    CHECK(sn_switch_role_info(SN_SW_EXTERNAL)->key == NULL);
    CHECK_STR(sn_switch_role_name(SN_SW_PCIE), "PCIe switch");
    CHECK(sn_switch_role_info(SN_SW_LEAF)->tier <
              sn_switch_role_info(SN_SW_SPINE)->tier &&
          sn_switch_role_info(SN_SW_SPINE)->tier <
              sn_switch_role_info(SN_SW_CORE)->tier);
    CHECK(sn_switch_role_info((enum sn_switch_role)99)->role == SN_SW_NONE);
    build_mini(&m);
    sn_topo_node_name(m.t, m.leaf, name, sizeof(name));
    CHECK_CONTAINS(name, "leaf");
    sn_topo_free(m.t);
}

static const struct sn_test cases[] = {
    T(test_topo_routes_inside_node_over_both_planes),
    T(test_topo_routes_across_nodes_through_nics),
    T(test_topo_failed_link_changes_routes),
    T(test_topo_labels_are_unique_and_findable),
    T(test_topo_counts_by_class),
    T(test_topo_switch_role_table),
};

SN_TEST_MAIN(cases)
