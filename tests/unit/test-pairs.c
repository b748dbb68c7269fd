/* test-pairs.c: pair expectations from the routes: NVSwitch and NIC pairs
 * against their link rates, classes that count every ordered pair once
 * and agree with the pairs one by one, and a degraded link that lowers
 * exactly the pairs whose routes cross it. */
/* covers: net workload study topo */
#include <math.h>
#include <string.h>

#include "coll-fixtures.h"
#include "harness.h"

static struct sn_coll_model *model(struct sn_topo *t)
{
    struct sn_coll_params p;
    struct sn_coll_model *m = NULL;
    struct sn_error err;

    fx_params_nvlink(4, true, &p);
    if (sn_coll_model_new_params(t, &p, &m, &err))
        printf("  model: %s\n", err.msg);
    return m;
}

/* Inside an HGX H100 server: 18 NVLinks at NCCL's 20.6 GB/s each, both
 * directions at once twice that; two hops through a switch chip. */
static void test_pairs_nvswitch_pair_gets_every_link(void)
{
    struct sn_topo *t = fx_dgx_h100(1);
    struct sn_coll_model *m = model(t);
    struct sn_pair p;
    struct sn_error err;

    REQUIRE(m);
    REQUIRE(sn_pairs_predict(m, 0, 5, &p, &err) == SN_OK);
    CHECK_NEAR(p.uni_bw, 18 * 20.6e9, 1e-6); /* float link rates */
    CHECK_NEAR(p.bidi_bw, 2 * 18 * 20.6e9, 1e-6);
    CHECK(p.cls == SN_LINK_SCALE_UP);
    CHECK(p.hops == 2);
    /* NCCL LL send/recv: 6.6 us base + one NVLink hop of 0.6 us, or the
     * wire (two 0.35 us links) when longer */
    CHECK_NEAR(p.latency, 6.6e-6 + 0.7e-6, 1e-6);
    CHECK(sn_pairs_predict(m, 3, 3, &p, &err) == SN_EINPUT);
    CHECK(sn_pairs_predict(m, 3, 99, &p, &err) == SN_EINPUT);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* Across servers: one 400G NIC at 48.5 GB/s (CX7 effective rate). */
static void test_pairs_network_pair_gets_its_nic(void)
{
    struct sn_topo *t = fx_dgx_h100(2);
    struct sn_coll_model *m = model(t);
    struct sn_pair p;
    uint32_t links[64];
    double share[64];
    size_t n = 0;
    struct sn_error err;
    bool nic_link = false;

    REQUIRE(m);
    REQUIRE(sn_pairs_predict(m, 2, 10, &p, &err) == SN_OK);
    CHECK_NEAR(p.uni_bw, 48.5e9, 1e-6);
    CHECK(p.cls == SN_LINK_SCALE_OUT);
    CHECK(p.hops == 4);
    REQUIRE(sn_pairs_route(m, 2, 10, links, share, 64, &n, &err) == SN_OK);
    CHECK(n == 4);
    for (size_t i = 0; i < n && i < 64; i++) {
        CHECK_NEAR(share[i], 1.0, 1e-12);
        nic_link |= links[i] == p.bottleneck;
    }
    CHECK(nic_link);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* Classes hold pairs equal to 4 significant digits and 10 ns. */
static bool same_pair_values(const struct sn_pair *a, const struct sn_pair *b)
{
    return fabs(a->uni_bw - b->uni_bw) <= 1e-4 * a->uni_bw &&
           fabs(a->bidi_bw - b->bidi_bw) <= 1e-4 * a->bidi_bw &&
           fabs(a->latency - b->latency) <= 1e-8 && a->cls == b->cls &&
           a->hops == b->hops;
}

/* Classes of the first n ranks count every ordered pair exactly once, and
 * every pair checked one by one falls in a class with its values and
 * relation. */
static void check_classes_cover(struct sn_topo *t, struct sn_coll_model *m)
{
    struct sn_pair_classes cl;
    struct sn_error err;
    uint64_t *seen;
    uint32_t n = (uint32_t)t->naccel;

    REQUIRE(sn_pairs_classes(m, 0, &cl, &err) == SN_OK);
    CHECK(cl.pairs == (uint64_t)n * (n - 1));
    seen = calloc(cl.n + 1, sizeof(uint64_t));
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = 0; b < n; b++) {
            struct sn_pair p;
            size_t hit = SIZE_MAX;
            if (a == b)
                continue;
            REQUIRE(sn_pairs_predict(m, a, b, &p, &err) == SN_OK);
            for (size_t k = 0; k < cl.n && hit == SIZE_MAX; k++) {
                bool same_rel = cl.items[k].rel ==
                                (t->nodes[t->accel[a]].supernode ==
                                         t->nodes[t->accel[b]].supernode
                                     ? (t->nodes[t->accel[a]].server ==
                                                t->nodes[t->accel[b]].server
                                            ? SN_REL_SERVER
                                            : SN_REL_DOMAIN)
                                     : SN_REL_NETWORK);
                if (same_rel && same_pair_values(&cl.items[k].example, &p))
                    hit = k;
            }
            CHECK(hit != SIZE_MAX);
            if (hit != SIZE_MAX)
                seen[hit]++;
        }
    for (size_t k = 0; k < cl.n; k++)
        CHECK(seen[k] == cl.items[k].count);
    free(seen);
    sn_pair_classes_release(&cl);
}

static void test_pairs_classes_cover_every_pair(void)
{
    struct fx_cluster c;
    struct sn_topo *t;
    struct sn_coll_model *m;
    struct sn_pair_classes cl;
    struct sn_error err;

    /* two 2-server NVSwitch domains of 4 GPUs each, one NIC per GPU,
     * 4 servers under 2 leaves and a spine */
    fx_two_server_domains(&c, 4, 1);
    t = fx_build(&c);
    m = model(t);
    REQUIRE(m);
    check_classes_cover(t, m);
    /* the three relations are all there */
    REQUIRE(sn_pairs_classes(m, 0, &cl, &err) == SN_OK);
    CHECK(cl.n >= 3);
    sn_pair_classes_release(&cl);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* Far pairs are summed per group of interchangeable sources and
 * destinations: the count and values stay those of the pairs one by one
 * on a rail fabric with a 2:1 leaf tier, a degraded leaf uplink and a
 * degraded NIC link (which split groups), and with network links so long
 * that wire latencies decide the pair latency (blocks then go pair by
 * pair). */
static void test_pairs_classes_group_sources_exactly(void)
{
    struct fx_cluster c;
    struct sn_error err;

    memset(&c, 0, sizeof(c));
    c.servers = 8;
    c.gpus = 4;
    c.chips = 2;
    c.links_per_gpu = 4;
    c.up_bw = 25e9;
    c.nics = 4;
    c.nic_bw = 50e9;
    c.pcie_bw = 64e9;
    c.hosts_per_leaf = 4;
    c.rail = true;
    c.spines = 2;
    c.uplinks = 2;
    c.uplink_bw = 50e9;
    for (int long_wires = 0; long_wires < 2; long_wires++) {
        struct sn_topo *t;
        struct sn_coll_model *m;
        uint32_t up = SN_NONE, nic = SN_NONE;
        c.net_lat = long_wires ? 2e-6 : 0;
        t = fx_build(&c);
        for (uint32_t i = 0; i < t->nlinks; i++) {
            const struct sn_link *l = &t->links[i];
            bool a_sw = t->nodes[l->a].kind == SN_NODE_SWITCH,
                 b_sw = t->nodes[l->b].kind == SN_NODE_SWITCH;
            if (l->cls != SN_LINK_SCALE_OUT)
                continue;
            if (a_sw && b_sw && up == SN_NONE)
                up = i;
            else if (a_sw != b_sw && nic == SN_NONE)
                nic = i;
        }
        REQUIRE(up != SN_NONE && nic != SN_NONE);
        /* one NIC cable half a microsecond longer than the others */
        for (uint32_t i = t->nlinks; i-- > 0;)
            if (t->links[i].cls == SN_LINK_SCALE_OUT && i != nic &&
                (t->nodes[t->links[i].a].kind == SN_NODE_NIC ||
                 t->nodes[t->links[i].b].kind == SN_NODE_NIC)) {
                t->links[i].latency += 0.5e-6f;
                break;
            }
        m = model(t);
        REQUIRE(m);
        check_classes_cover(t, m);
        sn_coll_model_free(m);
        REQUIRE(sn_topo_set_health(t, up, 0.5, &err) == SN_OK);
        REQUIRE(sn_topo_set_health(t, nic, 0.25, &err) == SN_OK);
        m = model(t);
        REQUIRE(m);
        check_classes_cover(t, m);
        sn_coll_model_free(m);
        sn_topo_free(t);
    }
}

/* A NIC link at half health lowers exactly the pairs that leave or enter
 * the network through it, to half their rate; the others keep theirs. */
static void test_pairs_degraded_link_lowers_exactly_its_pairs(void)
{
    struct sn_topo *t = fx_dgx_h100(2);
    struct sn_coll_model *m0 = model(t), *m1;
    struct sn_error err;
    uint32_t bad = SN_NONE, nic3 = SN_NONE;

    REQUIRE(m0);
    /* GPU 3's NIC and its network link */
    for (uint32_t a = t->adj_off[t->accel[3]]; a < t->adj_off[t->accel[3] + 1];
         a++) {
        const struct sn_link *l = &t->links[t->adj[a]];
        uint32_t o = l->a == t->accel[3] ? l->b : l->a;
        if (t->nodes[o].kind == SN_NODE_NIC)
            nic3 = o;
    }
    REQUIRE(nic3 != SN_NONE);
    for (uint32_t i = 0; i < t->nlinks; i++)
        if (t->links[i].cls == SN_LINK_SCALE_OUT &&
            (t->links[i].a == nic3 || t->links[i].b == nic3))
            bad = i;
    REQUIRE(sn_topo_set_health(t, bad, 0.5, &err) == SN_OK);
    m1 = model(t);
    REQUIRE(m1);
    for (uint32_t a = 0; a < 16; a++)
        for (uint32_t b = 0; b < 16; b++) {
            struct sn_pair p0, p1;
            uint32_t links[256];
            size_t n = 0;
            bool uses = false;
            if (a == b)
                continue;
            REQUIRE(sn_pairs_predict(m0, a, b, &p0, &err) == SN_OK);
            REQUIRE(sn_pairs_predict(m1, a, b, &p1, &err) == SN_OK);
            REQUIRE(sn_pairs_route(m1, a, b, links, NULL, 256, &n, &err) ==
                    SN_OK);
            for (size_t i = 0; i < n && i < 256; i++)
                uses |= links[i] == bad;
            CHECK(uses == ((a == 3 || b == 3) && a / 8 != b / 8));
            if (uses)
                CHECK_NEAR(p1.uni_bw, 0.5 * p0.uni_bw, 1e-9);
            else
                CHECK(p1.uni_bw == p0.uni_bw);
        }
    sn_coll_model_free(m0);
    sn_coll_model_free(m1);
    sn_topo_free(t);
}

static const struct sn_test cases[] = {
    T(test_pairs_nvswitch_pair_gets_every_link),
    T(test_pairs_network_pair_gets_its_nic),
    T(test_pairs_classes_cover_every_pair),
    T(test_pairs_classes_group_sources_exactly),
    T(test_pairs_degraded_link_lowers_exactly_its_pairs),
};

SN_TEST_MAIN(cases)
