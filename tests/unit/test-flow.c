/* test-flow.c: the flow engine: routes against sn_topo_paths, the per-hop
 * ECMP split, max-min fair rates by progressive filling, the aggregated
 * all-to-all against explicit flows, degraded and failed links. */
/* covers: net workload study topo */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "../../src/lib/net/flow.h"
#include "coll-fixtures.h"
#include "harness.h"

static const double ONE[SN_LINK_CLASS_COUNT] = {1, 1, 1};

static double share_of(const struct sn__route *r, uint32_t ld)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->ld[i] == ld)
            return r->share[i];
    return 0;
}

static double route_rate(struct sn_flownet *fn, const struct sn__route *r)
{
    double best = INFINITY;

    for (size_t i = 0; i < r->n; i++)
        if (r->share[i] > 0)
            best = fmin(best, sn__flownet_cap(fn, r->ld[i]) / r->share[i]);
    return best;
}

/* Every link of every ECMP path from sn_topo_paths is on the engine's
 * route and nothing else is; shares out of a node sum to what entered. */
static void test_flow_route_covers_exactly_the_ecmp_paths(void)
{
    struct sn_topo *t = fx_dgx_h100(4);
    struct sn_flownet *fn = NULL;
    struct sn__route r;
    struct sn_path paths[1024];
    size_t np = 0;
    struct sn_error err;
    uint32_t pairs[][2] = {{0, 1}, {0, 9}, {3, 30}, {8, 17}};

    REQUIRE(sn__flownet_new(t, ONE, &fn, &err) == SN_OK);
    sn__route_init(&r);
    for (size_t k = 0; k < SN_ARRAY_LEN(pairs); k++) {
        uint32_t s = t->accel[pairs[k][0]], d = t->accel[pairs[k][1]];
        size_t on_paths = 0;
        double out_of_src = 0;
        REQUIRE(sn__flow_route(fn, s, d, &r, &err) == SN_OK);
        REQUIRE(sn_topo_paths(t, s, d, paths, 1024, &np, &err) == SN_OK);
        REQUIRE(np > 0);
        for (size_t i = 0; i < r.n; i++) {
            bool found = false;
            for (size_t p = 0; p < np && !found; p++)
                for (uint32_t h = 0; h < paths[p].nhops; h++)
                    found |= paths[p].link[h] == r.ld[i] / 2;
            CHECK(found);
            on_paths += found;
            if (t->links[r.ld[i] / 2].a == s || t->links[r.ld[i] / 2].b == s)
                out_of_src += r.share[i];
        }
        CHECK(on_paths == r.n);
        CHECK_NEAR(out_of_src, 1.0, 1e-12);
        for (size_t p = 0; p < np; p++)
            for (uint32_t h = 0; h < paths[p].nhops; h++) {
                bool found = false;
                for (size_t i = 0; i < r.n; i++)
                    found |= r.ld[i] / 2 == paths[p].link[h];
                CHECK(found);
            }
        CHECK(r.hops == paths[0].nhops);
    }
    sn__route_release(&r);
    sn__flownet_free(fn);
    sn_topo_free(t);
}

/* Inside an HGX H100 server the 18 NVLinks carry 1/18 each (per-hop
 * split over links): one flow alone gets 18 x 25 GB/s. */
static void test_flow_splits_evenly_over_parallel_links(void)
{
    struct sn_topo *t = fx_dgx_h100(1);
    struct sn_flownet *fn = NULL;
    struct sn__route r;
    struct sn_error err;
    uint32_t s = t->accel[0], d = t->accel[5];

    REQUIRE(sn__flownet_new(t, ONE, &fn, &err) == SN_OK);
    sn__route_init(&r);
    REQUIRE(sn__flow_route(fn, s, d, &r, &err) == SN_OK);
    CHECK(r.n == 36);
    for (size_t i = 0; i < r.n; i++)
        CHECK_NEAR(r.share[i], 1.0 / 18, 1e-12);
    /* 1e-6: link rates are stored as float */
    CHECK_NEAR(route_rate(fn, &r), 450e9, 1e-6);
    CHECK(r.hops == 2);
    CHECK_NEAR(r.latency, 0.7e-6, 1e-6);
    sn__route_release(&r);
    sn__flownet_free(fn);
    sn_topo_free(t);
}

/* The textbook max-min example: two flows share a 10 GB/s link, a third
 * joins them on a 30 GB/s link: 5, 5 and 20. */
static void test_flow_rates_are_max_min_fair(void)
{
    struct fx_cluster c;
    struct sn_topo *t;
    struct sn_flownet *fn = NULL;
    struct sn__flow f[3];
    double rates[3];
    struct sn_error err;

    memset(&c, 0, sizeof(c));
    /* 4 one-GPU servers, 2 per leaf; the leaves joined by one spine link
     * each way of 10 GB/s; NICs 30 GB/s */
    c.servers = 4;
    c.gpus = 1;
    c.nics = 1;
    c.nic_bw = 30e9;
    c.pcie_bw = 100e9;
    c.hosts_per_leaf = 2;
    c.spines = 1;
    c.uplinks = 1;
    c.uplink_bw = 10e9;
    t = fx_build(&c);
    REQUIRE(sn__flownet_new(t, ONE, &fn, &err) == SN_OK);
    /* ranks 0,1 under leaf 0; 2,3 under leaf 1 */
    f[0] = (struct sn__flow){t->accel[0], t->accel[3], 1};
    f[1] = (struct sn__flow){t->accel[1], t->accel[3], 1};
    f[2] = (struct sn__flow){t->accel[2], t->accel[3], 1};
    REQUIRE(sn__flow_rates(fn, f, 3, rates, &err) == SN_OK);
    CHECK_NEAR(rates[0], 5e9, 1e-6); /* float link rates */
    CHECK_NEAR(rates[1], 5e9, 1e-6);
    CHECK_NEAR(rates[2], 20e9, 1e-6);
    sn__flownet_free(fn);
    sn_topo_free(t);
}

/* A step of equal flows ends with its slowest flow: the largest load over
 * capacity, the minimum of the max-min rates. */
static void test_flow_step_time_is_the_slowest_fair_rate(void)
{
    struct sn_topo *t = fx_dgx_h100(2);
    struct sn_flownet *fn = NULL;
    struct sn__flow f[16];
    double rates[16], minr = INFINITY;
    struct sn__step st;
    struct sn_error err;

    REQUIRE(sn__flownet_new(t, ONE, &fn, &err) == SN_OK);
    /* a ring over both servers: 14 NVLink edges and 2 crossing edges */
    for (uint32_t i = 0; i < 16; i++)
        f[i] = (struct sn__flow){t->accel[i], t->accel[(i + 1) % 16], 1};
    REQUIRE(sn__flow_step(fn, f, 16, &st, &err) == SN_OK);
    REQUIRE(sn__flow_rates(fn, f, 16, rates, &err) == SN_OK);
    for (int i = 0; i < 16; i++)
        minr = fmin(minr, rates[i]);
    CHECK_NEAR(st.min_rate, minr, 1e-9);
    /* the crossing edges are limited by one 50 GB/s NIC */
    CHECK_NEAR(minr, 50e9, 1e-6);
    CHECK(t->links[st.bottleneck / 2].cls == SN_LINK_SCALE_OUT ||
          t->links[st.bottleneck / 2].cls == SN_LINK_HOST);
    sn__flownet_free(fn);
    sn_topo_free(t);
}

/* The explicit flows of an all-to-all over the first n accelerators of
 * t: nodes[] gets their ids, f (n x n entries) one unit flow for every
 * ordered pair of them; returns how many flows (n(n-1)). */
static size_t alltoall_flows(const struct sn_topo *t, size_t n, uint32_t *nodes,
                             struct sn__flow *f)
{
    size_t k = 0;

    assert(n <= t->naccel);
    for (size_t i = 0; i < n; i++) {
        nodes[i] = t->accel[i];
        for (size_t j = 0; j < n; j++)
            if (i != j)
                f[k++] = (struct sn__flow){t->accel[i], t->accel[j], 1};
    }
    assert(k == n * (n - 1));
    return k;
}

/* The aggregated all-to-all equals the same flows listed one by one, on
 * a cluster with NVSwitch domains of two servers and a 2:1 leaf tier. */
static void test_flow_alltoall_matches_explicit_flows(void)
{
    struct fx_cluster c;
    struct sn_topo *t;
    struct sn_flownet *fn = NULL;
    struct sn__flow *f;
    uint32_t nodes[32];
    size_t n = 32, k = 0;
    struct sn__step a, b;
    struct sn_error err;

    fx_two_server_domains(&c, 8, 2);
    t = fx_build(&c);
    REQUIRE(sn__flownet_new(t, ONE, &fn, &err) == SN_OK);
    f = malloc(n * n * sizeof(*f));
    k = alltoall_flows(t, n, nodes, f);
    REQUIRE(sn__flow_alltoall(fn, nodes, n, 0, &a, &err) == SN_OK);
    REQUIRE(sn__flow_step(fn, f, k, &b, &err) == SN_OK);
    CHECK_NEAR(a.t_unit, b.t_unit, 1e-9);
    CHECK(a.bottleneck == b.bottleneck);
    CHECK_NEAR(a.latency, b.latency, 1e-9);
    /* two blocks of 16 at once equal their explicit flows too */
    k = 0;
    for (size_t blk = 0; blk < 2; blk++)
        for (size_t i = 0; i < 16; i++)
            for (size_t j = 0; j < 16; j++)
                if (i != j)
                    f[k++] = (struct sn__flow){nodes[blk * 16 + i],
                                               nodes[blk * 16 + j], 1};
    REQUIRE(sn__flow_alltoall(fn, nodes, n, 16, &a, &err) == SN_OK);
    REQUIRE(sn__flow_step(fn, f, k, &b, &err) == SN_OK);
    CHECK_NEAR(a.t_unit, b.t_unit, 1e-9);
    free(f);
    sn__flownet_free(fn);
    sn_topo_free(t);
}

/* Every GPU on two NICs of two rails: destinations have two network
 * exits, and the aggregated all-to-all takes its general path; it still
 * equals the explicit flows. */
static void test_flow_alltoall_with_two_exits_matches_explicit(void)
{
    struct fx_cluster c;
    struct sn_topo *t;
    struct sn_flownet *fn = NULL;
    struct sn__flow *f;
    uint32_t nodes[16];
    size_t n = 16, k = 0;
    struct sn__step a, b;
    struct sn_error err;

    fx_rail_network(&c);
    c.gpus = 4;
    c.nic_links = 2;
    t = fx_build(&c);
    REQUIRE(sn__flownet_new(t, ONE, &fn, &err) == SN_OK);
    f = malloc(n * n * sizeof(*f));
    k = alltoall_flows(t, n, nodes, f);
    REQUIRE(sn__flow_alltoall(fn, nodes, n, 0, &a, &err) == SN_OK);
    REQUIRE(sn__flow_step(fn, f, k, &b, &err) == SN_OK);
    CHECK_NEAR(a.t_unit, b.t_unit, 1e-9);
    CHECK(a.bottleneck == b.bottleneck);
    free(f);
    sn__flownet_free(fn);
    sn_topo_free(t);
}

/* A link at half health halves every flow that crosses it with a share
 * large enough to make it the bottleneck, and no other. */
static void test_flow_degraded_link_lowers_only_its_routes(void)
{
    struct sn_topo *t = fx_dgx_h100(1);
    struct sn_flownet *fn0 = NULL, *fn1 = NULL;
    struct sn__route r0, r1;
    struct sn_error err;
    uint32_t bad = SN_NONE;

    /* the first NVLink of GPU 2 */
    for (uint32_t i = 0; i < t->nlinks && bad == SN_NONE; i++)
        if (t->links[i].cls == SN_LINK_SCALE_UP &&
            (t->links[i].a == t->accel[2] || t->links[i].b == t->accel[2]))
            bad = i;
    REQUIRE(bad != SN_NONE);
    REQUIRE(sn__flownet_new(t, ONE, &fn0, &err) == SN_OK);
    REQUIRE(sn_topo_set_health(t, bad, 0.5, &err) == SN_OK);
    REQUIRE(sn__flownet_new(t, ONE, &fn1, &err) == SN_OK);
    sn__route_init(&r0);
    sn__route_init(&r1);
    for (uint32_t s = 0; s < 8; s++)
        for (uint32_t d = 0; d < 8; d++) {
            bool uses;
            if (s == d)
                continue;
            REQUIRE(sn__flow_route(fn0, t->accel[s], t->accel[d], &r0, &err) ==
                    SN_OK);
            REQUIRE(sn__flow_route(fn1, t->accel[s], t->accel[d], &r1, &err) ==
                    SN_OK);
            uses = share_of(&r1, 2 * bad) > 0 || share_of(&r1, 2 * bad + 1) > 0;
            CHECK(uses == (s == 2 || d == 2));
            if (uses)
                CHECK_NEAR(route_rate(fn1, &r1), 0.5 * route_rate(fn0, &r0),
                           1e-12);
            else
                CHECK_NEAR(route_rate(fn1, &r1), route_rate(fn0, &r0), 1e-12);
        }
    sn__route_release(&r0);
    sn__route_release(&r1);
    sn__flownet_free(fn0);
    sn__flownet_free(fn1);
    sn_topo_free(t);
}

/* A failed link carries nothing; the remaining links share the flow. */
static void test_flow_failed_link_is_avoided(void)
{
    struct sn_topo *t = fx_dgx_h100(1);
    struct sn_flownet *fn = NULL;
    struct sn__route r;
    struct sn_error err;
    uint32_t bad = SN_NONE;

    for (uint32_t i = 0; i < t->nlinks && bad == SN_NONE; i++)
        if (t->links[i].cls == SN_LINK_SCALE_UP &&
            (t->links[i].a == t->accel[0] || t->links[i].b == t->accel[0]))
            bad = i;
    REQUIRE(sn_topo_set_health(t, bad, 0, &err) == SN_OK);
    REQUIRE(sn__flownet_new(t, ONE, &fn, &err) == SN_OK);
    sn__route_init(&r);
    REQUIRE(sn__flow_route(fn, t->accel[0], t->accel[1], &r, &err) == SN_OK);
    CHECK(share_of(&r, 2 * bad) == 0 && share_of(&r, 2 * bad + 1) == 0);
    /* 17 links left out of GPU 0, 1/17 each */
    CHECK_NEAR(share_of(&r, r.ld[0]), 1.0 / 17, 1e-12);
    CHECK_NEAR(route_rate(fn, &r), 17 * 25e9, 1e-6);
    sn__route_release(&r);
    sn__flownet_free(fn);
    sn_topo_free(t);
}

/* Two servers whose leaves are joined only through a third server's host
 * side: the cut at fabric entries does not apply; the engine falls back
 * to sn_topo_paths' explicit paths. */
static void test_flow_falls_back_to_explicit_paths(void)
{
    struct sn_topo *t = sn_topo_new(NULL);
    struct sn_node n;
    uint32_t g[3], nic[4], cpu, leaf[2];
    struct sn_flownet *fn = NULL;
    struct sn__route r;
    struct sn_path p[4];
    size_t np = 0;
    struct sn_error err;

    memset(&n, 0, sizeof(n));
    for (uint32_t i = 0; i < 3; i++) {
        n.kind = SN_NODE_ACCEL;
        n.supernode = i;
        n.rank = i;
        g[i] = sn_topo_add_node(t, &n);
    }
    n.kind = SN_NODE_NIC;
    n.rank = SN_NONE;
    for (uint32_t i = 0; i < 4; i++) {
        n.supernode = i < 2 ? i : 2;
        n.index = i;
        nic[i] = sn_topo_add_node(t, &n);
    }
    n.kind = SN_NODE_CPU;
    n.supernode = 2;
    cpu = sn_topo_add_node(t, &n);
    n.kind = SN_NODE_SWITCH;
    n.role = SN_SW_LEAF;
    n.supernode = SN_NONE;
    for (uint32_t i = 0; i < 2; i++) {
        n.index = i;
        leaf[i] = sn_topo_add_node(t, &n);
    }
    sn_topo_add_link(t, g[0], nic[0], SN_LINK_HOST, SN_MEDIUM_BOARD, 64e9, 0,
                     0);
    sn_topo_add_link(t, g[1], nic[1], SN_LINK_HOST, SN_MEDIUM_BOARD, 64e9, 0,
                     0);
    sn_topo_add_link(t, nic[0], leaf[0], SN_LINK_SCALE_OUT, SN_MEDIUM_AOC, 50e9,
                     0, 0);
    sn_topo_add_link(t, nic[1], leaf[1], SN_LINK_SCALE_OUT, SN_MEDIUM_AOC, 50e9,
                     0, 0);
    /* server 2 has a NIC on each leaf and a CPU between them */
    sn_topo_add_link(t, nic[2], leaf[0], SN_LINK_SCALE_OUT, SN_MEDIUM_AOC, 50e9,
                     0, 0);
    sn_topo_add_link(t, nic[3], leaf[1], SN_LINK_SCALE_OUT, SN_MEDIUM_AOC, 50e9,
                     0, 0);
    sn_topo_add_link(t, nic[2], cpu, SN_LINK_HOST, SN_MEDIUM_BOARD, 20e9, 0, 0);
    sn_topo_add_link(t, nic[3], cpu, SN_LINK_HOST, SN_MEDIUM_BOARD, 20e9, 0, 0);
    sn_topo_add_link(t, g[2], cpu, SN_LINK_HOST, SN_MEDIUM_BOARD, 64e9, 0, 0);
    REQUIRE(sn_topo_finish(t, &err) == SN_OK);
    REQUIRE(sn__flownet_new(t, ONE, &fn, &err) == SN_OK);
    sn__route_init(&r);
    REQUIRE(sn_topo_paths(t, g[0], g[1], p, 4, &np, &err) == SN_OK);
    REQUIRE(np == 1);
    REQUIRE(sn__flow_route(fn, g[0], g[1], &r, &err) == SN_OK);
    CHECK(r.n == p[0].nhops);
    CHECK_NEAR(route_rate(fn, &r), 20e9, 1e-6);
    sn__route_release(&r);
    sn__flownet_free(fn);
    sn_topo_free(t);
}

static const struct sn_test cases[] = {
    T(test_flow_route_covers_exactly_the_ecmp_paths),
    T(test_flow_splits_evenly_over_parallel_links),
    T(test_flow_rates_are_max_min_fair),
    T(test_flow_step_time_is_the_slowest_fair_rate),
    T(test_flow_alltoall_matches_explicit_flows),
    T(test_flow_alltoall_with_two_exits_matches_explicit),
    T(test_flow_degraded_link_lowers_only_its_routes),
    T(test_flow_failed_link_is_avoided),
    T(test_flow_falls_back_to_explicit_paths),
};

SN_TEST_MAIN(cases)
