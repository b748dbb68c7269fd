/* test-coll.c: the collective model against closed forms (hand-built
 * topologies, neutral constants) and against published nccl-tests
 * measurements (perf-model-anchors.md section 3), each with its source and
 * tolerance beside it. */
/* covers: net workload study spec topo */
#include <math.h>
#include <string.h>

#include "coll-cases.h"
#include "coll-fixtures.h"
#include "harness.h"

/* ---- closed forms ----------------------------------------------------- */

/* Ring all-reduce on a physical ring with neutral constants:
 * T = 2(n-1) alpha + 2(n-1)/n S/B (Thakur, Rabenseifner, Gropp 2005;
 * anchors 2.5), to 1e-9 relative. */
static void test_coll_ring_allreduce_matches_closed_form(void)
{
    struct sn_topo *t = fx_ring(8, 20e9, 1.5e-6);
    struct sn_coll_model *m = fx_model_ideal(t);
    struct sn_coll_result r;
    double B = t->links[0].bw, a = t->links[0].latency, n = 8;
    double sizes[] = {8, 1 * MiB, 1 * GiB};

    REQUIRE(m);
    for (size_t i = 0; i < SN_ARRAY_LEN(sizes); i++) {
        double S = sizes[i];
        double want = 2 * (n - 1) * a + 2 * (n - 1) / n * S / B;
        CHECK_NEAR(
            predict(m, SN_COLL_ALLREDUCE, grp(0, 8, 1), S, SN_ALGO_RING, &r),
            want, 1e-9);
        CHECK(r.algo == SN_ALGO_RING);
        /* busbw = algbw x 2(n-1)/n (nccl-tests PERFORMANCE.md) */
        CHECK_NEAR(r.busbw, S / r.time * 2 * (n - 1) / n, 1e-12);
    }
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* Ring all-gather: (n-1) alpha + (n-1)/n S/B with S the total (anchors
 * 2.5), to 1e-9. */
static void test_coll_ring_allgather_matches_closed_form(void)
{
    struct sn_topo *t = fx_ring(6, 10e9, 2e-6);
    struct sn_coll_model *m = fx_model_ideal(t);
    struct sn_coll_result r;
    double B = t->links[0].bw, a = t->links[0].latency, n = 6, S = 96 * MiB;

    REQUIRE(m);
    CHECK_NEAR(predict(m, SN_COLL_ALLGATHER, grp(0, 6, 1), S, SN_ALGO_RING, &r),
               (n - 1) * a + (n - 1) / n * S / B, 1e-9);
    CHECK_NEAR(
        predict(m, SN_COLL_REDUCESCATTER, grp(0, 6, 1), S, SN_ALGO_RING, &r),
        (n - 1) * a + (n - 1) / n * S / B, 1e-9);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* All-to-all on a non-blocking fat tree: (n-1)/n S/B plus (n-1) messages'
 * latency (anchors 2.5), to 1e-9; the slowest route crosses a spine:
 * PCIe, NIC-leaf, leaf-spine, spine-leaf, leaf-NIC, PCIe. */
static void test_coll_alltoall_fat_tree_matches_closed_form(void)
{
    struct sn_topo *t = fat_tree(4);
    struct sn_coll_model *m = NULL;
    struct sn_coll_result r;
    double n = 16, S = 1 * GiB, B = 0, alpha = 0;

    for (uint32_t i = 0; i < t->nlinks; i++)
        if (t->links[i].cls == SN_LINK_SCALE_OUT)
            B = t->links[i].bw;
    alpha = 2.0 * (double)0.5e-6f * 2 + 2.0 * (double)1e-7f;
    m = fx_model_ideal(t);
    REQUIRE(m);
    CHECK_NEAR(predict(m, SN_COLL_ALLTOALL, grp(0, 16, 1), S, SN_ALGO_AUTO, &r),
               (n - 1) * alpha + (n - 1) / n * S / B, 1e-9);
    CHECK(r.algo == SN_ALGO_DIRECT);
    CHECK(r.bottleneck == SN_LINK_SCALE_OUT);
    /* busbw = algbw (n-1)/n: every NIC at its line rate */
    CHECK_NEAR(r.busbw, B * (S / B * (n - 1) / n) / (r.time), 1e-12);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* A 2:1 leaf tier: the inter-leaf share of the all-to-all, (n-h)/n of
 * each rank's bytes, moves at half the NIC rate, and it now sets the
 * time; to 1e-9. Rings are not slowed: each leaf has one ring edge in and
 * one out. */
static void test_coll_oversubscribed_tier_halves_inter_share(void)
{
    struct sn_topo *t1 = fat_tree(4), *t2 = fat_tree(2);
    struct sn_coll_params p;
    struct sn_coll_model *m1 = NULL, *m2 = NULL;
    struct sn_coll_result r1, r2;
    double n = 16, h = 4, S = 1 * GiB, B = t1->links[t1->nlinks - 1].bw;

    for (uint32_t i = 0; i < t1->nlinks; i++)
        if (t1->links[i].cls == SN_LINK_SCALE_OUT)
            B = t1->links[i].bw;
    fx_ideal_params(&p);
    m1 = fx_model(t1, &p);
    REQUIRE(m1);
    m2 = fx_model(t2, &p);
    REQUIRE(m2);
    predict(m1, SN_COLL_ALLTOALL, grp(0, 16, 1), S, SN_ALGO_DIRECT, &r1);
    predict(m2, SN_COLL_ALLTOALL, grp(0, 16, 1), S, SN_ALGO_DIRECT, &r2);
    CHECK_NEAR(r1.time - r1.latency, (n - 1) / n * S / B, 1e-9);
    CHECK_NEAR(r2.time - r2.latency, (n - h) / n * S / (B / 2), 1e-9);
    /* rings: the same bandwidth on both */
    predict(m1, SN_COLL_ALLREDUCE, grp(0, 16, 1), S, SN_ALGO_RING, &r1);
    predict(m2, SN_COLL_ALLREDUCE, grp(0, 16, 1), S, SN_ALGO_RING, &r2);
    CHECK_NEAR(r1.time - r1.latency, r2.time - r2.latency, 1e-12);
    sn_coll_model_free(m1);
    sn_coll_model_free(m2);
    sn_topo_free(t1);
    sn_topo_free(t2);
}

/* Hierarchical all-reduce on two 8-GPU servers with neutral constants:
 * RS over g, AR of S/g over each rail, AG over g (anchors 2.5):
 * 2 (g-1)/g S/B_up + 2 (m-1)/m (S/g)/B_nic + latency, to 1e-9. */
static void test_coll_hierarchical_matches_closed_form(void)
{
    struct sn_topo *t = fx_dgx_h100(2);
    struct sn_coll_model *m = NULL;
    struct sn_coll_result r;
    double g = 8, mm = 2, S = 1 * GiB;
    double Bup = 18 * (double)t->links[0].bw, Bnic = 0;

    for (uint32_t i = 0; i < t->nlinks; i++)
        if (t->links[i].cls == SN_LINK_SCALE_OUT)
            Bnic = t->links[i].bw;
    m = fx_model_ideal(t);
    REQUIRE(m);
    predict(m, SN_COLL_ALLREDUCE, grp(0, 16, 1), S, SN_ALGO_HIER, &r);
    CHECK_NEAR(r.time - r.latency,
               2 * (g - 1) / g * S / Bup + 2 * (mm - 1) / mm * (S / g) / Bnic,
               1e-9);
    /* 7/4 S over 450 GB/s inside outweighs S/8 over 50 GB/s outside */
    CHECK(r.bottleneck == SN_LINK_SCALE_UP);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* Three-level all-reduce on a non-blocking fabric with neutral constants
 * (g = 2 ranks a domain, r = 4 domains a pod, q = 4 pods):
 *   T = 2(g-1)/g S/B_up + 2(r-1)/r (S/g)/B_nic + 2(q-1)/q (S/(g r))/B_nic
 *       + 2(g-1) w_up + 2(r-1) w_pod + 2(q-1) w_x
 * to 1e-9; all-gather and reduce-scatter take each phase once. The
 * bandwidth term equals the two-level one, 2(g-1)/g S/B_up +
 * 2(m-1)/m (S/g)/B_nic (both move a rank's share once), and the latency
 * is 12 network steps instead of 2(m-1) = 30. */
static void test_coll_hier3_matches_closed_form(void)
{
    struct sn_topo *t = pods(4);
    struct sn_coll_model *m = fx_model_ideal(t);
    struct sn_coll_result r, r2;
    double g = 2, rr = 4, q = 4, mm = 16, S = 1 * GiB;
    double Bup = 2 * (double)100e9f, B = (double)50e9f;
    double bw = 2 * (g - 1) / g * S / Bup + 2 * (rr - 1) / rr * (S / g) / B +
                2 * (q - 1) / q * (S / (g * rr)) / B;

    REQUIRE(m);
    CHECK_NEAR(
        predict(m, SN_COLL_ALLREDUCE, grp(0, 32, 1), S, SN_ALGO_HIER3, &r),
        bw + 2 * (g - 1) * W_UP + 2 * (rr - 1) * W_POD + 2 * (q - 1) * W_X,
        1e-9);
    CHECK(r.algo == SN_ALGO_HIER3);
    CHECK(r.flows);
    CHECK_NEAR(
        predict(m, SN_COLL_ALLGATHER, grp(0, 32, 1), S, SN_ALGO_HIER3, &r),
        bw / 2 + (g - 1) * W_UP + (rr - 1) * W_POD + (q - 1) * W_X, 1e-9);
    CHECK_NEAR(
        predict(m, SN_COLL_REDUCESCATTER, grp(0, 32, 1), S, SN_ALGO_HIER3, &r),
        bw / 2 + (g - 1) * W_UP + (rr - 1) * W_POD + (q - 1) * W_X, 1e-9);
    /* small: across pods by double binary tree, 2 log2 q steps moving
     * 2 S/(g r): 64 KiB is below the crossover 4 w_x B (g r) */
    S = 64 * 1024;
    CHECK_NEAR(
        predict(m, SN_COLL_ALLREDUCE, grp(0, 32, 1), S, SN_ALGO_HIER3, &r),
        2 * (g - 1) / g * S / Bup + 2 * (rr - 1) / rr * (S / g) / B +
            2 * (S / (g * rr)) / B + 2 * (g - 1) * W_UP + 2 * (rr - 1) * W_POD +
            2 * 2 * W_X,
        1e-9);
    S = 1 * GiB;
    /* two-level: the same bandwidth term, 2(m-1) network steps */
    predict(m, SN_COLL_ALLREDUCE, grp(0, 32, 1), S, SN_ALGO_HIER, &r2);
    CHECK_NEAR(r2.time - r2.latency,
               2 * (g - 1) / g * S / Bup + 2 * (mm - 1) / mm * (S / g) / B,
               1e-9);
    CHECK_NEAR(
        predict(m, SN_COLL_ALLREDUCE, grp(0, 32, 1), S, SN_ALGO_HIER3, &r) -
            r.latency,
        r2.time - r2.latency, 1e-9);
    CHECK(r.latency < r2.latency);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* A 4:1 spine (one uplink a leaf for 4 NICs): when the group lists its
 * domains interleaved across pods, every edge of the two-level rail ring
 * climbs to the spine, 4 flows a leaf over one uplink, at B/4:
 *   T2 = 2(g-1)/g S/B_up + 2(m-1)/m (S/g)/(B/4) + 2(g-1) w_up + 2(m-1) w_x
 * while three-level keeps S/g - S/(g r) under the leaves:
 *   T3 = 2(g-1)/g S/B_up + 2(r-1)/r (S/g)/B + 2(q-1)/q (S/(g r))/(B/4)
 *        + 2(g-1) w_up + 2(r-1) w_pod + 2(q-1) w_x
 * both to 1e-9, and auto takes three-level. */
static void test_coll_hier3_wins_when_rings_cross_the_spine(void)
{
    struct sn_topo *t = pods(1);
    struct sn_coll_model *m = NULL;
    struct sn_coll_result r2, r3, ra;
    uint32_t ranks[32];
    struct sn_group g32 = {0, 32, 1, ranks};
    double g = 2, rr = 4, q = 4, mm = 16, S = 1 * GiB;
    double Bup = 2 * (double)100e9f, B = (double)50e9f;

    interleaved(ranks);
    m = fx_model_ideal(t);
    REQUIRE(m);
    CHECK_NEAR(predict(m, SN_COLL_ALLREDUCE, g32, S, SN_ALGO_HIER, &r2),
               2 * (g - 1) / g * S / Bup +
                   2 * (mm - 1) / mm * (S / g) / (B / 4) + 2 * (g - 1) * W_UP +
                   2 * (mm - 1) * W_X,
               1e-9);
    CHECK_NEAR(predict(m, SN_COLL_ALLREDUCE, g32, S, SN_ALGO_HIER3, &r3),
               2 * (g - 1) / g * S / Bup + 2 * (rr - 1) / rr * (S / g) / B +
                   2 * (q - 1) / q * (S / (g * rr)) / (B / 4) +
                   2 * (g - 1) * W_UP + 2 * (rr - 1) * W_POD +
                   2 * (q - 1) * W_X,
               1e-9);
    CHECK(r3.time < 0.5 * r2.time);
    predict(m, SN_COLL_ALLREDUCE, g32, S, SN_ALGO_AUTO, &ra);
    CHECK(ra.algo == SN_ALGO_HIER3);
    CHECK(ra.time == r3.time);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* Where it does not win: the same 4:1 spine with the domains in order.
 * The two-level rail ring leaves each leaf once (one flow over the
 * uplink: full rate), but three-level sends all 4 of a leaf's ranks up
 * at once for the cross-pod step, at B/4:
 *   T3 - T2 = (S/g)/B [2(r-1)/r + 4 x 2(q-1)/(q r) - 2(m-1)/m] > 0
 * (bandwidth terms, to 1e-9), so auto keeps two levels at 1 GiB. */
static void test_coll_hier3_loses_on_a_thin_spine_in_order(void)
{
    struct sn_topo *t = pods(1);
    struct sn_coll_model *m = fx_model_ideal(t);
    struct sn_coll_result r2, r3, ra;
    double g = 2, rr = 4, q = 4, mm = 16, S = 1 * GiB, B = (double)50e9f;

    REQUIRE(m);
    predict(m, SN_COLL_ALLREDUCE, grp(0, 32, 1), S, SN_ALGO_HIER, &r2);
    predict(m, SN_COLL_ALLREDUCE, grp(0, 32, 1), S, SN_ALGO_HIER3, &r3);
    CHECK_NEAR((r3.time - r3.latency) - (r2.time - r2.latency),
               (S / g) / B *
                   (2 * (rr - 1) / rr + 4 * 2 * (q - 1) / (q * rr) -
                    2 * (mm - 1) / mm),
               1e-9);
    CHECK(r3.time > r2.time);
    predict(m, SN_COLL_ALLREDUCE, grp(0, 32, 1), S, SN_ALGO_AUTO, &ra);
    CHECK(ra.algo != SN_ALGO_HIER3);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* A spine link at half its rate, non-blocking fabric: it carries a
 * quarter of each of the 4 cross-pod flows of its leaf, so the
 * cross-pod step runs at B/2 and three-level slows by exactly
 * 2(q-1)/q (S/(g r))/B (to 1e-9); the two-level rail ring sends one flow
 * a leaf up, a quarter of it on that link, and does not change. */
static void test_coll_hier3_degraded_spine_link_slows_it(void)
{
    struct sn_topo *t = pods(4);
    struct sn_coll_params p;
    struct sn_coll_model *m0 = NULL, *m1 = NULL;
    struct sn_coll_result a0, a1, b0, b1;
    struct sn_error err;
    uint32_t bad = SN_NONE;
    double g = 2, rr = 4, q = 4, S = 1 * GiB, B = (double)50e9f;

    fx_ideal_params(&p);
    m0 = fx_model(t, &p);
    REQUIRE(m0);
    for (uint32_t i = 0; i < t->nlinks && bad == SN_NONE; i++)
        if (t->nodes[t->links[i].a].role == SN_SW_LEAF &&
            t->nodes[t->links[i].b].role == SN_SW_SPINE)
            bad = i;
    REQUIRE(bad != SN_NONE);
    REQUIRE(sn_topo_set_health(t, bad, 0.5, &err) == SN_OK);
    m1 = fx_model(t, &p);
    REQUIRE(m1);
    predict(m0, SN_COLL_ALLREDUCE, grp(0, 32, 1), S, SN_ALGO_HIER3, &a0);
    predict(m1, SN_COLL_ALLREDUCE, grp(0, 32, 1), S, SN_ALGO_HIER3, &a1);
    CHECK_NEAR(a1.time - a0.time, 2 * (q - 1) / q * (S / (g * rr)) / B, 1e-9);
    predict(m0, SN_COLL_ALLREDUCE, grp(0, 32, 1), S, SN_ALGO_HIER, &b0);
    predict(m1, SN_COLL_ALLREDUCE, grp(0, 32, 1), S, SN_ALGO_HIER, &b1);
    CHECK(b1.time == b0.time);
    sn_coll_model_free(m0);
    sn_coll_model_free(m1);
    sn_topo_free(t);
}

/* The per-level estimate of three-level (groups too large for the flow
 * engine) agrees with the engine on both fabrics: across pods it takes
 * the leaf's up/down ratio, 1 non-blocking and 1/4 on the 4:1 spine. */
static void test_coll_hier3_estimate_agrees_with_flow_engine(void)
{
    uint32_t ups[] = {4, 1};
    enum sn_coll_op ops[] = {SN_COLL_ALLREDUCE, SN_COLL_ALLGATHER,
                             SN_COLL_REDUCESCATTER};

    for (size_t u = 0; u < SN_ARRAY_LEN(ups); u++) {
        struct sn_topo *t = pods(ups[u]);
        struct sn_coll_params p;
        struct sn_coll_model *mf = NULL, *me = NULL;
        fx_params_nvlink(4, false, &p);
        mf = fx_model(t, &p);
        REQUIRE(mf);
        p.flow_max = 0;
        me = fx_model(t, &p);
        REQUIRE(me);
        for (size_t i = 0; i < SN_ARRAY_LEN(ops); i++) {
            struct sn_coll_result rf, re;
            predict(mf, ops[i], grp(0, 32, 1), 1 * GiB, SN_ALGO_HIER3, &rf);
            predict(me, ops[i], grp(0, 32, 1), 1 * GiB, SN_ALGO_HIER3, &re);
            CHECK(rf.flows && !re.flows);
            CHECK_NEAR(re.time, rf.time, 1e-9);
        }
        sn_coll_model_free(mf);
        sn_coll_model_free(me);
        sn_topo_free(t);
    }
}

/* Three-level needs two or more pods with the same number, two or more,
 * of the group's domains, and runs all-reduce, all-gather and
 * reduce-scatter; otherwise it is refused with the reason, and auto
 * (which takes the fastest of what applies) still answers. */
static void test_coll_hier3_needs_equal_pods(void)
{
    struct sn_topo *t = pods(4);
    struct sn_coll_model *m = fx_model_nvlink(t, 4, false);
    struct sn_coll_result r;
    struct sn_error err;
    struct sn_group uneven = grp(0, 20, 1), one = grp(0, 8, 1);
    struct sn_group all = grp(0, 32, 1), rail = grp(0, 16, 2);

    REQUIRE(m);
    CHECK(sn_coll_predict(m, SN_COLL_ALLREDUCE, &uneven, 1e6, SN_ALGO_HIER3, &r,
                          &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "here 3 pods of 2 to 4 domains");
    CHECK(sn_coll_predict(m, SN_COLL_ALLREDUCE, &one, 1e6, SN_ALGO_HIER3, &r,
                          &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "one pod");
    CHECK(sn_coll_predict(m, SN_COLL_BROADCAST, &all, 1e6, SN_ALGO_HIER3, &r,
                          &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "allreduce, allgather and reducescatter only");
    CHECK(sn_coll_algo_applies(m, SN_COLL_ALLREDUCE, &all, SN_ALGO_HIER3));
    /* one rank a domain (a rail): g = 1, pods of 4 domains */
    CHECK(sn_coll_algo_applies(m, SN_COLL_ALLREDUCE, &rail, SN_ALGO_HIER3));
    CHECK(!sn_coll_algo_applies(m, SN_COLL_ALLREDUCE, &uneven, SN_ALGO_HIER3));
    CHECK(sn_coll_predict(m, SN_COLL_ALLREDUCE, &uneven, 1e6, SN_ALGO_AUTO, &r,
                          &err) == SN_OK);
    CHECK(r.algo != SN_ALGO_HIER3);
    /* auto is the fastest of the algorithms that apply, three-level
     * among them */
    for (int op = 0; op < SN_COLL_OP_COUNT; op++)
        for (double S = 8; S <= 4 * GiB; S *= 64) {
            struct sn_coll_result ra, rx;
            double best = INFINITY;
            REQUIRE(sn_coll_predict(m, op, &all, S, SN_ALGO_AUTO, &ra, &err) ==
                    SN_OK);
            for (int a = SN_ALGO_RING; a < SN_ALGO_COUNT; a++)
                if (sn_coll_algo_applies(m, op, &all, a) &&
                    sn_coll_predict(m, op, &all, S, a, &rx, &err) == SN_OK &&
                    rx.time < best)
                    best = rx.time;
            CHECK(ra.time == best);
        }
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* auto takes the algorithm with the lowest predicted time, as NCCL's
 * tuner does, and says which. */
static void test_coll_auto_picks_the_fastest_algorithm(void)
{
    struct sn_topo *t = fx_dgx_h100(4);
    struct sn_coll_model *m = fx_model_nvlink(t, 4, true);
    struct sn_error err;
    double sizes[] = {8, 64 * 1024, 4 * MiB, 256 * MiB, 4 * GiB};
    struct sn_group groups[] = {grp(0, 8, 1), grp(0, 32, 1), grp(0, 4, 8)};

    REQUIRE(m);
    for (size_t gi = 0; gi < SN_ARRAY_LEN(groups); gi++)
        for (int op = 0; op < SN_COLL_OP_COUNT; op++)
            for (size_t i = 0; i < SN_ARRAY_LEN(sizes); i++) {
                struct sn_coll_result ra, rx;
                double best = INFINITY;
                int best_a = -1;
                REQUIRE(sn_coll_predict(m, op, &groups[gi], sizes[i],
                                        SN_ALGO_AUTO, &ra, &err) == SN_OK);
                for (int a = SN_ALGO_RING; a < SN_ALGO_COUNT; a++) {
                    if (!sn_coll_algo_applies(m, op, &groups[gi], a))
                        continue;
                    REQUIRE(sn_coll_predict(m, op, &groups[gi], sizes[i], a,
                                            &rx, &err) == SN_OK);
                    if (rx.time < best) {
                        best = rx.time;
                        best_a = a;
                    }
                }
                CHECK(ra.time == best);
                CHECK((int)ra.algo == best_a);
            }
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* An algorithm that does not apply is refused with the reason. */
static void test_coll_refuses_algorithms_that_do_not_apply(void)
{
    struct sn_topo *t = fx_dgx_a100(2);
    struct sn_coll_model *m = fx_model_nvlink(t, 3, false);
    struct sn_coll_result r;
    struct sn_group g = grp(0, 8, 1), bad = grp(12, 8, 1);
    struct sn_error err;

    REQUIRE(m);
    CHECK(sn_coll_predict(m, SN_COLL_ALLREDUCE, &g, 1e6, SN_ALGO_NVLS, &r,
                          &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "nvls does not apply");
    CHECK(sn_coll_predict(m, SN_COLL_ALLTOALL, &g, 1e6, SN_ALGO_RING, &r,
                          &err) == SN_EINPUT);
    CHECK(sn_coll_predict(m, SN_COLL_ALLREDUCE, &g, 1e6, SN_ALGO_HIER, &r,
                          &err) == SN_EINPUT);
    CHECK(sn_coll_predict(m, SN_COLL_ALLREDUCE, &bad, 1e6, SN_ALGO_AUTO, &r,
                          &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "outside the cluster");
    g.n = 1;
    CHECK(sn_coll_predict(m, SN_COLL_ALLREDUCE, &g, 1e6, SN_ALGO_AUTO, &r,
                          &err) == SN_EINPUT);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* A degraded NVLink slows exactly the groups whose routes use it: the
 * server holding it, not the other one. */
static void test_coll_degraded_link_slows_only_groups_using_it(void)
{
    struct sn_topo *t = fx_dgx_h100(2);
    struct sn_coll_params p;
    struct sn_coll_model *m0 = NULL, *m1 = NULL;
    struct sn_coll_result a0, a1, b0, b1;
    struct sn_error err;
    uint32_t bad = SN_NONE;

    fx_params_nvlink(4, true, &p);
    m0 = fx_model(t, &p);
    REQUIRE(m0);
    for (uint32_t i = 0; i < t->nlinks && bad == SN_NONE; i++)
        if (t->links[i].cls == SN_LINK_SCALE_UP &&
            (t->links[i].a == t->accel[3] || t->links[i].b == t->accel[3]))
            bad = i;
    REQUIRE(sn_topo_set_health(t, bad, 0.5, &err) == SN_OK);
    m1 = fx_model(t, &p);
    REQUIRE(m1);
    predict(m0, SN_COLL_ALLREDUCE, grp(0, 8, 1), 1 * GiB, SN_ALGO_RING, &a0);
    predict(m1, SN_COLL_ALLREDUCE, grp(0, 8, 1), 1 * GiB, SN_ALGO_RING, &a1);
    predict(m0, SN_COLL_ALLREDUCE, grp(8, 8, 1), 1 * GiB, SN_ALGO_RING, &b0);
    predict(m1, SN_COLL_ALLREDUCE, grp(8, 8, 1), 1 * GiB, SN_ALGO_RING, &b1);
    /* every NVLink of a GPU carries 1/18 of its ring flow: half a link's
     * rate halves the ring */
    CHECK_NEAR(a1.time - a1.latency, 2 * (a0.time - a0.latency), 1e-6);
    CHECK(b1.time == b0.time);
    /* NVLS: the degraded GPU injects 17.5 of 18 links' worth */
    predict(m0, SN_COLL_ALLREDUCE, grp(0, 8, 1), 1 * GiB, SN_ALGO_NVLS, &a0);
    predict(m1, SN_COLL_ALLREDUCE, grp(0, 8, 1), 1 * GiB, SN_ALGO_NVLS, &a1);
    CHECK_NEAR(a1.time - a1.latency, (a0.time - a0.latency) * 18 / 17.5, 1e-6);
    sn_coll_model_free(m0);
    sn_coll_model_free(m1);
    sn_topo_free(t);
}

/* A failed NIC link: the crossing edges of its rail move elsewhere (the
 * GPU reaches the network over the CPU and another NIC or not at all);
 * the group still predicts, slower or equal, never faster. */
static void test_coll_failed_link_never_speeds_up(void)
{
    struct sn_topo *t = fx_dgx_h100(2);
    struct sn_coll_params p;
    struct sn_coll_model *m0 = NULL, *m1 = NULL;
    struct sn_coll_result a0, a1;
    struct sn_error err;
    uint32_t bad = SN_NONE;

    fx_params_nvlink(4, true, &p);
    m0 = fx_model(t, &p);
    REQUIRE(m0);
    for (uint32_t i = 0; i < t->nlinks && bad == SN_NONE; i++)
        if (t->links[i].cls == SN_LINK_SCALE_OUT)
            bad = i;
    REQUIRE(sn_topo_set_health(t, bad, 0, &err) == SN_OK);
    m1 = fx_model(t, &p);
    REQUIRE(m1);
    for (int op = 0; op < SN_COLL_OP_COUNT; op++) {
        double t0 =
            predict(m0, op, grp(0, 16, 1), 256 * MiB, SN_ALGO_AUTO, &a0);
        double t1 =
            predict(m1, op, grp(0, 16, 1), 256 * MiB, SN_ALGO_AUTO, &a1);
        CHECK(t1 >= t0 * (1 - 1e-12));
    }
    sn_coll_model_free(m0);
    sn_coll_model_free(m1);
    sn_topo_free(t);
}

/* Sibling groups share the NICs: two DGX H100 servers whose 4 NICs each
 * serve 2 GPUs; one rail group alone gets a NIC's full rate, all 8 rail
 * groups at once get half. */
static void test_coll_sibling_groups_share_links(void)
{
    struct fx_cluster c;
    struct sn_topo *t;
    struct sn_coll_model *m = NULL;
    struct sn_coll_result r1, r8;
    struct sn_group g = grp(0, 2, 8);
    struct sn_error err;

    memset(&c, 0, sizeof(c));
    c.servers = 2;
    c.gpus = 8;
    c.chips = 4;
    c.links_per_gpu = 18;
    c.up_bw = 25e9;
    c.nics = 4;
    c.nic_bw = 50e9;
    c.pcie_bw = 64e9;
    c.rail = true;
    c.hosts_per_leaf = 2;
    t = fx_build(&c);
    m = fx_model_ideal(t);
    REQUIRE(m);
    predict(m, SN_COLL_ALLREDUCE, g, 1 * GiB, SN_ALGO_RING, &r1);
    REQUIRE(sn_coll_predict_siblings(m, SN_COLL_ALLREDUCE, &g, 8, 1 * GiB,
                                     SN_ALGO_RING, &r8, &err) == SN_OK);
    CHECK_NEAR(r8.time - r8.latency, 2 * (r1.time - r1.latency), 1e-9);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* The per-level estimate used for groups too large for the flow engine
 * agrees with the engine on a healthy rail-optimised cluster (64 GPUs). */
static void test_coll_estimate_agrees_with_flow_engine(void)
{
    struct sn_topo *t = fx_dgx_h100(8);
    struct sn_coll_params p;
    struct sn_coll_model *mf = NULL, *me = NULL;
    struct sn_group groups[] = {grp(0, 64, 1), grp(0, 8, 8), grp(0, 8, 1)};

    fx_params_nvlink(4, true, &p);
    mf = fx_model(t, &p);
    REQUIRE(mf);
    p.flow_max = 0;
    me = fx_model(t, &p);
    REQUIRE(me);
    for (size_t gi = 0; gi < SN_ARRAY_LEN(groups); gi++)
        for (int op = 0; op < SN_COLL_OP_COUNT; op++) {
            struct sn_coll_result rf, re;
            predict(mf, op, groups[gi], 1 * GiB, SN_ALGO_AUTO, &rf);
            predict(me, op, groups[gi], 1 * GiB, SN_ALGO_AUTO, &re);
            CHECK(!re.flows);
            CHECK(rf.flows || rf.algo == SN_ALGO_NVLS);
            CHECK_NEAR(re.time, rf.time, 1e-6);
        }
    sn_coll_model_free(mf);
    sn_coll_model_free(me);
    sn_topo_free(t);
}

/* Servers with 4 NICs for 8 GPUs: half the GPUs reach the network over
 * the CPU. The estimate gives every rank its server's NIC share, as the
 * engine finds when all 8 rail groups run at once. */
static void test_coll_estimate_shares_nics_of_the_server(void)
{
    struct fx_cluster c;
    struct sn_topo *t;
    struct sn_coll_params p;
    struct sn_coll_model *mf = NULL, *me = NULL;
    struct sn_coll_result rf, re;
    struct sn_group g = grp(0, 4, 8);
    struct sn_error err;

    fx_rail_network(&c);
    c.gpus = 8;
    c.chips = 4;
    c.links_per_gpu = 18;
    c.up_bw = 25e9;
    t = fx_build(&c);
    fx_params_nvlink(4, true, &p);
    mf = fx_model(t, &p);
    REQUIRE(mf);
    p.flow_max = 0;
    me = fx_model(t, &p);
    REQUIRE(me);
    REQUIRE(sn_coll_predict_siblings(mf, SN_COLL_ALLREDUCE, &g, 8, 1 * GiB,
                                     SN_ALGO_RING, &rf, &err) == SN_OK);
    REQUIRE(sn_coll_predict_siblings(me, SN_COLL_ALLREDUCE, &g, 8, 1 * GiB,
                                     SN_ALGO_RING, &re, &err) == SN_OK);
    CHECK(rf.flows && !re.flows);
    CHECK_NEAR(re.time - re.latency, rf.time - rf.latency, 1e-6);
    /* half a 25 GB/s NIC per GPU at 0.97 */
    CHECK_NEAR(re.busbw, 0.5 * 25e9 * 48.5 / 50, 0.05);
    sn_coll_model_free(mf);
    sn_coll_model_free(me);
    sn_topo_free(t);
}

/* A second call on the same group answers from the cache: the same
 * result, bit for bit. */
static void test_coll_repeated_calls_are_identical(void)
{
    struct sn_topo *t = fx_dgx_h100(2);
    struct sn_coll_model *m = fx_model_nvlink(t, 4, true);
    struct sn_coll_result a, b;

    REQUIRE(m);
    predict(m, SN_COLL_ALLGATHER, grp(0, 16, 1), 3 * MiB, SN_ALGO_AUTO, &a);
    predict(m, SN_COLL_ALLGATHER, grp(0, 16, 1), 3 * MiB, SN_ALGO_AUTO, &b);
    CHECK(memcmp(&a, &b, sizeof(a)) == 0);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* ---- published measurements (perf-model-anchors.md section 3) --------- */

/* 8x A100 (NVLink 3, NVSwitch) all-reduce, vTrain repo
 * trace/a100/AR_GPU8_1M_1024M_LUT (measured nccl-tests table, anchors
 * 3.1): 256 MB 217.3, 1 GB 229.4 GB/s; within 10% at 256 MB and above.
 * The constant behind it is NCCL's SM80 20.0 GB/s per link, not fitted
 * to this table. */
static void test_coll_a100_allreduce_curve(void)
{
    struct sn_topo *t = fx_dgx_a100(1);
    struct sn_coll_model *m = fx_model_nvlink(t, 3, false);

    REQUIRE(m);
    CHECK_NEAR(
        busbw_of(m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 256 * MiB, SN_ALGO_AUTO),
        217.3, 0.10);
    CHECK_NEAR(
        busbw_of(m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 1 * GiB, SN_ALGO_AUTO),
        229.4, 0.10);
    /* a second, independent nccl-tests run on 8x A100-SXM4-40GB (Oracle
     * BM.GPU4.8, all_reduce_perf -b 64 -e 10G -f 2 -g 8, oracle-japan/
     * ocitutorials GPU-cluster tutorial): 1 GB 230.08, within 10%; it
     * agrees with the vTrain table within 1% from 64 MB up */
    CHECK_NEAR(
        busbw_of(m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 1 * GiB, SN_ALGO_AUTO),
        230.08, 0.10);
    /* 4 GPUs of the same server, 1 GB: 221.9 (AR_GPU4), within 10% */
    CHECK_NEAR(
        busbw_of(m, SN_COLL_ALLREDUCE, grp(0, 4, 1), 1 * GiB, SN_ALGO_AUTO),
        221.9, 0.10);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* Small messages follow NCCL's own tuner (tuning.cc, anchors 3.4): on 8x
 * A100 a 1 MiB ring all-reduce takes LL, its base 6.6 us plus 14 NVLink
 * hops (NCCL's 0.6 us, here the fixture's 0.7 us of wire through the
 * switch, the larger), and 2(n-1)/n S at a quarter of the 240 GB/s bus
 * bandwidth (12 links at NCCL's 20.0 GB/s): 46.98 us, to 1e-6. The
 * tree would be faster without NCCL's tree correction (LL128: 14 us
 * base, 2 x 7 hops of 1.25 us, 2S at 240 x 0.92 x 7/9 GB/s: 43.71 us);
 * NCCL scales its bandwidth by 0.6 at 1 MiB (column 14 of
 * treeCorrectionFactor), 51.85 us, so ring LL is chosen, as NCCL does.
 * The measurements are slower, and the gap is stated here as
 * docs/model.md states it, not fitted: vTrain's AR_GPU8 LUT takes
 * 92.7 us at 1 MB (busbw 19.8), about 2.0x the model; AR_GPU2 44.2 us
 * against 19.6 us (ring Simple), about 2.25x. The issue asks 25%; NCCL's
 * tuner itself predicts 45.6 and 19.6 us. */
static void test_coll_small_messages_follow_nccl_tuner(void)
{
    struct sn_topo *t = fx_dgx_a100(1);
    struct sn_coll_params p;
    struct sn_coll_model *m = NULL;
    struct sn_coll_result r;
    double S = 1 * MiB,
           ring_ll = (6.6 + 14 * 0.7) * 1e-6 + 2.0 * 7 / 8 * S / (240e9 / 4);
    double simple2 = (8.4 + 2 * 3.4) * 1e-6 + S / 240e9;
    double tree128 = (14.0 + 2 * 7 * 1.25) * 1e-6;

    fx_params_nvlink(3, false, &p);
    m = fx_model(t, &p);
    REQUIRE(m);
    predict(m, SN_COLL_ALLREDUCE, grp(0, 8, 1), S, SN_ALGO_RING, &r);
    CHECK(r.proto == SN_PROTO_LL);
    CHECK_NEAR(r.time, ring_ll, 1e-6);
    predict(m, SN_COLL_ALLREDUCE, grp(0, 8, 1), S, SN_ALGO_TREE, &r);
    CHECK(r.proto == SN_PROTO_LL128);
    CHECK_NEAR(r.time, tree128 + 2 * S / (240e9 * 0.92 * 7 / 9 * 0.6), 1e-6);
    p.tree_correction = false;
    sn_coll_model_free(m);
    m = NULL;
    m = fx_model(t, &p);
    REQUIRE(m);
    predict(m, SN_COLL_ALLREDUCE, grp(0, 8, 1), S, SN_ALGO_AUTO, &r);
    CHECK(r.algo == SN_ALGO_TREE);
    CHECK_NEAR(r.time, tree128 + 2 * S / (240e9 * 0.92 * 7 / 9), 1e-6);
    p.tree_correction = true;
    sn_coll_model_free(m);
    m = NULL;
    m = fx_model(t, &p);
    REQUIRE(m);
    predict(m, SN_COLL_ALLREDUCE, grp(0, 8, 1), S, SN_ALGO_AUTO, &r);
    CHECK(r.algo == SN_ALGO_RING && r.proto == SN_PROTO_LL);
    CHECK_NEAR(92.7e-6 / r.time, 1.97, 0.10);
    predict(m, SN_COLL_ALLREDUCE, grp(0, 2, 1), S, SN_ALGO_AUTO, &r);
    CHECK(r.algo == SN_ALGO_RING && r.proto == SN_PROTO_SIMPLE);
    CHECK_NEAR(r.time, simple2, 1e-6);
    CHECK_NEAR(44.2e-6 / r.time, 2.25, 0.10);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* The small-message gap is not one cost per call. The independent run
 * (Oracle BM.GPU4.8, 8x A100-SXM4-40GB, nccl-tests -g 8, out-of-place
 * times) takes 32.01 us at 64 B, 76.71 us at 1 MiB and 134.5 us at
 * 4 MiB. Measured minus model grows with size (about 16, 30 and 61 us):
 * a constant that closes 1 MiB puts 64 B more than 25% above its
 * measurement, and the most the 64 B point admits leaves 4 MiB more
 * than 25% below. So the missing time is lost bandwidth at medium sizes
 * that NCCL's tuner does not model either. No constant is added; this
 * test states the gap so that a change to the model restates it. */
static void test_coll_small_message_gap_is_not_a_per_call_cost(void)
{
    struct sn_topo *t = fx_dgx_a100(1);
    struct sn_coll_model *m = fx_model_nvlink(t, 3, false);
    struct sn_coll_result r64, r1, r4;
    double m64 = 32.01e-6, m1 = 76.71e-6, m4 = 134.5e-6, c_close, c_max;

    REQUIRE(m);
    predict(m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 64, SN_ALGO_AUTO, &r64);
    predict(m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 1 * MiB, SN_ALGO_AUTO, &r1);
    predict(m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 4 * MiB, SN_ALGO_AUTO, &r4);
    /* the gap itself: 1.63x at 1 MiB, 1.82x at 4 MiB (10%) */
    CHECK_NEAR(m1 / r1.time, 1.63, 0.10);
    CHECK_NEAR(m4 / r4.time, 1.82, 0.10);
    c_close = m1 - r1.time;
    CHECK((r64.time + c_close) / m64 > 1.25);
    c_max = m64 - r64.time;
    CHECK((r4.time + c_max) / m4 < 0.75);
    CHECK(m4 - r4.time > 1.5 * (m1 - r1.time));
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* 8x H100: ring ~370 GB/s ("effective NVLink bandwidth of 370 GB/s") and
 * NVLS ~480 at >= 1 GB (NCCL maintainer, nccl-tests #212; 476 in #290;
 * H200 475 in #272), within 10%. NVLS rests on the 0.85 Hopper factor
 * from NCCL's tuner and the NVLS data flow, S(1+1/n) per direction. */
static void test_coll_h100_ring_and_nvls(void)
{
    struct sn_topo *t = fx_dgx_h100(1);
    struct sn_coll_model *m = fx_model_nvlink(t, 4, true);
    struct sn_coll_result r;

    REQUIRE(m);
    CHECK_NEAR(
        busbw_of(m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 4 * GiB, SN_ALGO_RING),
        370, 0.10);
    CHECK_NEAR(
        busbw_of(m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 1 * GiB, SN_ALGO_NVLS),
        480, 0.10);
    CHECK_NEAR(
        busbw_of(m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 4 * GiB, SN_ALGO_AUTO),
        480, 0.10);
    predict(m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 4 * GiB, SN_ALGO_AUTO, &r);
    CHECK(r.algo == SN_ALGO_NVLS);
    /* the bottleneck efficiency stays below 1 where busbw exceeds the
     * 450 GB/s of the links */
    CHECK(r.busbw > 450e9 && r.bottleneck_eff < 1);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* H800 (8 NVLinks) NVLS all-reduce: 215 GB/s (nccl #1374; SimAI's
 * H800_NVLS_BW 215), within 10%: the same two constants on a server with
 * fewer links. */
static void test_coll_h800_nvls(void)
{
    struct fx_cluster c;
    struct sn_topo *t;
    struct sn_coll_model *m = NULL;

    memset(&c, 0, sizeof(c));
    c.servers = 1;
    c.gpus = 8;
    c.chips = 4;
    c.links_per_gpu = 8;
    c.up_bw = 25e9;
    c.pcie_bw = 64e9;
    t = fx_build(&c);
    m = fx_model_nvlink(t, 4, true);
    REQUIRE(m);
    CHECK_NEAR(
        busbw_of(m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 4 * GiB, SN_ALGO_NVLS),
        215, 0.10);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* Blackwell NVLS all-reduce at 4 GiB. 8x B200 (18 NVLink 5 links at
 * NCCL's 40.1 GB/s): all_reduce_perf "830+" (a user, NVIDIA/nccl
 * #1807; size and algorithm not stated, NVLS being the default there),
 * within 10%, from the 0.74 Blackwell factor and the NVLS data flow.
 * A full GB200 NVL72 rack measures 839.16 at 4 GiB (coreweave/nccl-tests
 * #43, the anchors' 835-840): about the same busbw as 8 GPUs. The
 * model's flow, S(1 + 1/n) a direction, gives busbw 2 B (n-1)/(n+1),
 * which grows by (71/73)/(7/9) = 1.25 from 8 to 72 ranks; NCCL's own
 * NVLS estimate (src/tuning/nvls.cc) does not grow with n. The gap,
 * about +24% at 72, is stated here, not fitted (docs/model.md). */
static void test_coll_blackwell_nvls_8_and_72(void)
{
    struct fx_cluster c;
    struct sn_topo *t8, *t72;
    struct sn_coll_params p;
    struct sn_coll_model *m8 = NULL, *m72 = NULL;
    double b8, b72;

    memset(&c, 0, sizeof(c));
    c.servers = 1;
    c.gpus = 8;
    c.chips = 2;
    c.links_per_gpu = 18;
    c.up_bw = 50e9;
    c.pcie_bw = 64e9;
    t8 = fx_build(&c);
    c.gpus = 72;
    c.chips = 18;
    t72 = fx_build(&c);
    fx_params_nvlink(5, true, &p);
    m8 = fx_model(t8, &p);
    REQUIRE(m8);
    m72 = fx_model(t72, &p);
    REQUIRE(m72);
    b8 = busbw_of(m8, SN_COLL_ALLREDUCE, grp(0, 8, 1), 4 * GiB, SN_ALGO_AUTO);
    b72 =
        busbw_of(m72, SN_COLL_ALLREDUCE, grp(0, 72, 1), 4 * GiB, SN_ALGO_NVLS);
    CHECK_NEAR(b8, 830, 0.10);
    CHECK_NEAR(b8, 2 * 0.74 * 721.8 * 7 / 9, 0.01);
    CHECK_NEAR(b72 / b8, (71.0 / 73) / (7.0 / 9), 0.01);
    CHECK_NEAR(b72 / 839.16, 1.24, 0.10);
    sn_coll_model_free(m8);
    sn_coll_model_free(m72);
    sn_topo_free(t8);
    sn_topo_free(t72);
}

/* 16 GPUs on two DGX-H100-like servers, 4 B all-reduce: 46-48 us
 * measured with NCCL_ALGO=NVLSTree forced (16x H20, 2 nodes, one 400G
 * NIC per GPU; a user, NVIDIA/nccl #1244). The model picks its two-level
 * scheme with LL, 27.12 us; its NCCL tree with LL takes 31.92 us (6.8 us
 * base, 2 x (7 NVLink hops of 0.6 us x 1.8, NCCL's LL factor across
 * nodes, + 1 network hop of 5.0 us), the size negligible); both well
 * beyond 25% below the measurement. Stated, not fitted (docs/model.md,
 * "Small messages"). */
static void test_coll_two_node_small_allreduce_gap(void)
{
    struct sn_topo *t = fx_dgx_h100(2);
    struct sn_coll_model *m = fx_model_nvlink(t, 4, true);
    struct sn_coll_result r;

    REQUIRE(m);
    predict(m, SN_COLL_ALLREDUCE, grp(0, 16, 1), 4, SN_ALGO_AUTO, &r);
    CHECK(r.algo == SN_ALGO_HIER && r.proto == SN_PROTO_LL);
    CHECK_NEAR(47e-6 / r.time, 1.73, 0.05);
    predict(m, SN_COLL_ALLREDUCE, grp(0, 16, 1), 4, SN_ALGO_TREE, &r);
    CHECK(r.proto == SN_PROTO_LL);
    CHECK_NEAR(r.time, (6.8 + 2 * (7 * 0.6 * 1.8 + 5.0)) * 1e-6, 1e-3);
    CHECK_NEAR(47e-6 / r.time, 1.47, 0.05);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* One 400G NDR NIC per GPU: 46-48 GB/s per NIC (NVIDIA, nccl-tests #290
 * and #267): a ring of one GPU per server (one rail) across 4 servers,
 * within 10% of 47 at >= 256 MB. */
static void test_coll_ndr_nic_per_gpu(void)
{
    struct sn_topo *t = fx_dgx_h100(4);
    struct sn_coll_model *m = fx_model_nvlink(t, 4, true);

    REQUIRE(m);
    CHECK_NEAR(
        busbw_of(m, SN_COLL_ALLREDUCE, grp(0, 4, 8), 256 * MiB, SN_ALGO_AUTO),
        47, 0.10);
    CHECK_NEAR(
        busbw_of(m, SN_COLL_ALLREDUCE, grp(0, 4, 8), 4 * GiB, SN_ALGO_AUTO), 47,
        0.10);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* Multi-node ring busbw ~ NICs per node x per-NIC rate (NVIDIA, nccl
 * #812, nccl-tests #309): 8x400G H100 ~385, 8x200G A100 192, within 10%
 * at 1 GB and 4 GB ("large" in the sources). */
static void test_coll_multinode_ring(void)
{
    struct sn_topo *h = fx_dgx_h100(4), *a = fx_dgx_a100(4);
    struct sn_coll_params ph, pa;
    struct sn_coll_model *mh = NULL, *ma = NULL;

    fx_params_nvlink(4, true, &ph);
    fx_params_nvlink(3, false, &pa);
    mh = fx_model(h, &ph);
    REQUIRE(mh);
    ma = fx_model(a, &pa);
    REQUIRE(ma);
    for (double S = 1 * GiB; S <= 4 * GiB; S *= 4) {
        CHECK_NEAR(
            busbw_of(mh, SN_COLL_ALLREDUCE, grp(0, 32, 1), S, SN_ALGO_RING),
            385, 0.10);
        CHECK_NEAR(
            busbw_of(ma, SN_COLL_ALLREDUCE, grp(0, 32, 1), S, SN_ALGO_RING),
            192, 0.10);
    }
    sn_coll_model_free(mh);
    sn_coll_model_free(ma);
    sn_topo_free(h);
    sn_topo_free(a);
}

/* ---- the same through specs: parser, builder, catalog constants -------- */

/* The measurements above on designs written as specs: the NVLink
 * generation and NVLS come from the catalog, not from the test. Sources
 * and tolerances as in the fixture tests: A100 LUT 217.3 / 229.4 (10%),
 * 8x200G ring 192 (10%), H100 ring 370, NVLS 480, 8x400G ring 385, one
 * NDR NIC 47 (10%). */
static void test_coll_spec_measured_systems(void)
{
    struct spec_model a, h;
    struct sn_error err;

    REQUIRE(spec_open(&a, "tests/fixtures/specs/coll-dgx-a100.yaml", &err) ==
            SN_OK);
    REQUIRE(spec_open(&h, "tests/fixtures/specs/coll-dgx-h100.yaml", &err) ==
            SN_OK);
    CHECK_NEAR(
        busbw_of(a.m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 256 * MiB, SN_ALGO_AUTO),
        217.3, 0.10);
    CHECK_NEAR(
        busbw_of(a.m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 1 * GiB, SN_ALGO_AUTO),
        229.4, 0.10);
    CHECK_NEAR(
        busbw_of(a.m, SN_COLL_ALLREDUCE, grp(0, 32, 1), 4 * GiB, SN_ALGO_RING),
        192, 0.10);
    CHECK_NEAR(
        busbw_of(h.m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 4 * GiB, SN_ALGO_RING),
        370, 0.10);
    CHECK_NEAR(
        busbw_of(h.m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 1 * GiB, SN_ALGO_AUTO),
        480, 0.10);
    CHECK_NEAR(
        busbw_of(h.m, SN_COLL_ALLREDUCE, grp(0, 32, 1), 1 * GiB, SN_ALGO_RING),
        385, 0.10);
    CHECK_NEAR(
        busbw_of(h.m, SN_COLL_ALLREDUCE, grp(0, 4, 8), 256 * MiB, SN_ALGO_AUTO),
        47, 0.10);
    spec_close(&a);
    spec_close(&h);
}

/* Full-mesh fabrics: the library drives every link at once (issue: one
 * ring used one of MI300X's 7 links, busbw 51 GB/s, efficiency 0.11).
 * 8x MI300X, rccl-tests all_reduce_perf out-of-place, RCCL 2.22.3, ROCm
 * 6.3.0 (ROCm/rocm-blogs, "RCCL and xGMI on MI300X"): 16 MB 197.26,
 * 64 MB 273.66, 256 MB 305.62, 1 GB 314.72, 16 GB 318.98 GB/s; within
 * 15% from 16 MB up. Below 16 MB RCCL runs a direct all-pairs algorithm
 * with a latency the NVLink constants do not have (4 MB 141.9 against the
 * model's 114; docs/model.md). Gaudi 3 HLS-3, Intel Gaudi docs
 * "Collectives Performance" (hccl_demo, 8 cards): all_reduce 256 MiB
 * busbw 512.96, all_gather 16 MiB per rank 509.19; within 15%. The link
 * shares are AMD's 48 of 64 GB/s and a RoCE NIC's 48.5 of 50, not fitted
 * to these rows. */
static void test_coll_full_mesh_drives_every_link(void)
{
    struct spec_model a, g;
    struct sn_error err;

    REQUIRE(spec_open(&a, "tests/fixtures/specs/coll-mi300x.yaml", &err) ==
            SN_OK);
    REQUIRE(spec_open(&g, "tests/fixtures/specs/coll-gaudi3.yaml", &err) ==
            SN_OK);
    CHECK_NEAR(
        busbw_of(a.m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 16 * MiB, SN_ALGO_AUTO),
        197.26, 0.15);
    CHECK_NEAR(
        busbw_of(a.m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 64 * MiB, SN_ALGO_AUTO),
        273.66, 0.15);
    CHECK_NEAR(
        busbw_of(a.m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 256 * MiB, SN_ALGO_AUTO),
        305.62, 0.15);
    CHECK_NEAR(
        busbw_of(a.m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 1 * GiB, SN_ALGO_AUTO),
        314.72, 0.15);
    CHECK_NEAR(
        busbw_of(a.m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 16 * GiB, SN_ALGO_AUTO),
        318.98, 0.15);
    /* 4 of the 8: 3 links each, 3/7 of the 8-rank rate at most */
    CHECK(busbw_of(a.m, SN_COLL_ALLREDUCE, grp(0, 4, 1), 1 * GiB,
                   SN_ALGO_AUTO) < 0.5 * busbw_of(a.m, SN_COLL_ALLREDUCE,
                                                  grp(0, 8, 1), 1 * GiB,
                                                  SN_ALGO_AUTO));
    CHECK_NEAR(
        busbw_of(g.m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 256 * MiB, SN_ALGO_AUTO),
        512.96, 0.15);
    CHECK_NEAR(
        busbw_of(g.m, SN_COLL_ALLGATHER, grp(0, 8, 1), 128 * MiB, SN_ALGO_AUTO),
        509.19, 0.15);
    spec_close(&a);
    spec_close(&g);
    /* across servers, each channel walks its mesh domain on its own links
     * (a zigzag, rotated per channel: 8 channels, 56 directed links, one
     * each); walking i -> i+1 put 7 channels on every link: 169 GB/s */
    REQUIRE(spec_open(&a, "examples/mi300x-16-servers.yaml", &err) == SN_OK);
    CHECK(busbw_of(a.m, SN_COLL_ALLREDUCE, grp(0, 16, 1), 1 * GiB,
                   SN_ALGO_RING) > 280);
    spec_close(&a);
}

/* A spec's collectives section overrides the constants: NVLink at 90%,
 * no NVLS, LL and Simple only, slower network hops. */
static void test_coll_spec_constants_override(void)
{
    struct spec_model s;
    struct sn_coll_params p;
    struct sn_coll_result r;
    struct sn_error err;

    REQUIRE(spec_open(&s, "tests/fixtures/specs/coll-constants.yaml", &err) ==
            SN_OK);
    sn_coll_params_default(s.t, &p);
    CHECK_NEAR(p.link_eff[SN_LINK_SCALE_UP], 20.6 / 25, 1e-12);
    CHECK(p.tree_correction);
    REQUIRE(sn_coll_params_from_spec(&s.spec, &p, &err) == SN_OK);
    CHECK_NEAR(p.link_eff[SN_LINK_SCALE_UP], 0.9, 1e-12);
    CHECK(!p.nvls);
    CHECK(p.proto_on[SN_PROTO_LL] && !p.proto_on[SN_PROTO_LL128] &&
          p.proto_on[SN_PROTO_SIMPLE]);
    CHECK_NEAR(p.ring_hop[SN_LINK_SCALE_OUT][SN_PROTO_SIMPLE], 20e-6, 1e-12);
    CHECK_NEAR(p.ll_ring, 0.3, 1e-12);
    CHECK_NEAR(p.ll_tree, 1 / 3.8, 1e-12);
    CHECK(!p.tree_correction);
    /* the model built from the spec uses them: ring (no NVLS) at 18 x 25 x
     * 0.9 = 405 GB/s less its latency, within 1% at 4 GB */
    predict(s.m, SN_COLL_ALLREDUCE, grp(0, 8, 1), 4 * GiB, SN_ALGO_AUTO, &r);
    CHECK(r.algo == SN_ALGO_RING);
    CHECK_NEAR(r.busbw, 405e9, 0.01);
    spec_close(&s);
}

/* Bad constants are refused with file:line:col. */
static void test_coll_spec_bad_constants_are_located(void)
{
    struct spec_model s;
    struct sn_error err;

    CHECK(spec_open(&s, "tests/fixtures/specs/coll-bad-constant.yaml", &err) ==
          SN_EINPUT);
    CHECK_CONTAINS(err.msg, "coll-bad-constant.yaml:13:23: collectives:");
    CHECK(s.m == NULL);
    spec_close(&s);
    CHECK(spec_open(&s, "tests/fixtures/specs/coll-bad-latency.yaml", &err) ==
          SN_EINPUT);
    CHECK_CONTAINS(err.msg, "coll-bad-latency.yaml:13:16:");
    spec_close(&s);
    CHECK(spec_open(&s, "tests/fixtures/specs/coll-bad-peff.yaml", &err) ==
          SN_EINPUT);
    CHECK_CONTAINS(err.msg, "coll-bad-peff.yaml:13:5: collectives: unknown "
                            "key 'll_rign' in protocol_efficiency (did you "
                            "mean 'll_ring'?)");
    spec_close(&s);
}

static const struct sn_test cases[] = {
    T(test_coll_ring_allreduce_matches_closed_form),
    T(test_coll_ring_allgather_matches_closed_form),
    T(test_coll_alltoall_fat_tree_matches_closed_form),
    T(test_coll_oversubscribed_tier_halves_inter_share),
    T(test_coll_hierarchical_matches_closed_form),
    T(test_coll_hier3_matches_closed_form),
    T(test_coll_hier3_wins_when_rings_cross_the_spine),
    T(test_coll_hier3_loses_on_a_thin_spine_in_order),
    T(test_coll_hier3_degraded_spine_link_slows_it),
    T(test_coll_hier3_estimate_agrees_with_flow_engine),
    T(test_coll_hier3_needs_equal_pods),
    T(test_coll_auto_picks_the_fastest_algorithm),
    T(test_coll_refuses_algorithms_that_do_not_apply),
    T(test_coll_degraded_link_slows_only_groups_using_it),
    T(test_coll_failed_link_never_speeds_up),
    T(test_coll_sibling_groups_share_links),
    T(test_coll_estimate_agrees_with_flow_engine),
    T(test_coll_estimate_shares_nics_of_the_server),
    T(test_coll_repeated_calls_are_identical),
    T(test_coll_a100_allreduce_curve),
    T(test_coll_small_messages_follow_nccl_tuner),
    T(test_coll_small_message_gap_is_not_a_per_call_cost),
    T(test_coll_h100_ring_and_nvls),
    T(test_coll_h800_nvls),
    T(test_coll_blackwell_nvls_8_and_72),
    T(test_coll_two_node_small_allreduce_gap),
    T(test_coll_ndr_nic_per_gpu),
    T(test_coll_multinode_ring),
    T(test_coll_spec_measured_systems),
    T(test_coll_full_mesh_drives_every_link),
    T(test_coll_spec_constants_override),
    T(test_coll_spec_bad_constants_are_located),
};

SN_TEST_MAIN(cases)
