/* test-diagnose.c: the comparisons (baseline interval, design, peers), the
 * expected pair bandwidth, localisation of slow pairs to links on
 * hand-built topologies, the whole diagnosis and its renderings. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose-fixtures.h"
#include "harness.h"
#include "health-fixtures.h"
#include "sn/diagnose.h"
#include "sn/render.h"
#include "sn/spec.h"
#include "sn/topo.h"

/* ---- comparisons --------------------------------------------------------- */

/* sqrt(pi / 2): the standard error of a median is this x sigma /
 * sqrt(n) */
#define SE_MEDIAN 1.2533141373155

static void test_diag_baseline_interval_closed_form(void)
{
    struct sn_diag_config cfg;
    struct sn_baseline_entry e;
    struct sn_result r;
    struct sn_diag_cmp c;
    double se_b, se_n, noise;

    sn_diag_config_default(&cfg);
    memset(&e, 0, sizeof(e));
    memset(&r, 0, sizeof(r));
    /* one-run baseline: the two medians' standard errors */
    e.center = 100.0;
    e.noise = 4.0;
    e.n = 16;
    e.runs = 1;
    r.stats.n = 4;
    r.stats.mad = 3.0 / SN_STATS_MAD_TO_SIGMA; /* sigma 3 */
    se_b = SE_MEDIAN * 4.0 / 4.0;
    se_n = SE_MEDIAN * 3.0 / 2.0;
    noise = sqrt(se_b * se_b + se_n * se_n);
    r.stats.median = 100.0 - 2.0 * noise;
    sn_diag_vs_baseline(&cfg, &r, &e, &c);
    CHECK(c.valid);
    CHECK_NEAR(c.noise, noise, 1e-9);
    CHECK_NEAR(c.z, -2.0, 1e-9);
    CHECK(c.severity == SN_SEV_PASS);
    CHECK_NEAR(c.lo, 100.0 - 3 * noise, 1e-9);
    r.stats.median = 100.0 - 4.0 * noise;
    sn_diag_vs_baseline(&cfg, &r, &e, &c);
    CHECK(c.severity == SN_SEV_WARN);
    r.stats.median = 100.0 - 6.5 * noise;
    sn_diag_vs_baseline(&cfg, &r, &e, &c);
    CHECK(c.severity == SN_SEV_FAIL);
    /* faster than the baseline is no failure */
    r.stats.median = 130.0;
    sn_diag_vs_baseline(&cfg, &r, &e, &c);
    CHECK(c.severity == SN_SEV_PASS && c.z > 0);
    /* a baseline of three runs that drifted 5% between them: the drift,
     * not this run's standard error, says how far a median may stray */
    e.runs = 3;
    e.drift = 0.05;
    noise = sqrt(5.0 * 5.0 + se_b * se_b);
    r.stats.median = 100.0 - 3.5 * noise;
    sn_diag_vs_baseline(&cfg, &r, &e, &c);
    CHECK_NEAR(c.noise, noise, 1e-9);
    CHECK_NEAR(c.z, -3.5, 1e-9);
    CHECK(c.severity == SN_SEV_WARN);
}

static void test_diag_baseline_noise_floor_and_latency(void)
{
    struct sn_diag_config cfg;
    struct sn_baseline_entry e;
    struct sn_result r;
    struct sn_diag_cmp c;

    sn_diag_config_default(&cfg);
    memset(&e, 0, sizeof(e));
    memset(&r, 0, sizeof(r));
    /* no noise seen at all: the 1% floor keeps a 2% shift a PASS */
    e.center = 50.0;
    e.n = 10;
    e.runs = 1;
    r.stats.n = 5;
    r.stats.median = 49.0;
    sn_diag_vs_baseline(&cfg, &r, &e, &c);
    CHECK_NEAR(c.noise, 0.5, 1e-12);
    CHECK_NEAR(c.z, -2.0, 1e-12);
    CHECK(c.severity == SN_SEV_PASS);
    /* a latency (lower is better) that grew by 5%: z -5, WARN */
    r.lower_better = true;
    r.stats.median = 52.5;
    sn_diag_vs_baseline(&cfg, &r, &e, &c);
    CHECK_NEAR(c.z, -5.0, 1e-9);
    CHECK(c.severity == SN_SEV_WARN);
    CHECK_NEAR(c.ratio, 50.0 / 52.5, 1e-12);
    /* no entry, nothing to say */
    sn_diag_vs_baseline(&cfg, &r, NULL, &c);
    CHECK(!c.valid);
}

static void test_diag_design_thresholds(void)
{
    struct sn_diag_config cfg;
    struct sn_result r;
    struct sn_diag_cmp c;

    sn_diag_config_default(&cfg);
    memset(&r, 0, sizeof(r));
    r.stats.n = 3;
    r.stats.median = 75.0;
    sn_diag_vs_design(&cfg, &r, 100.0, &c);
    CHECK(c.valid && c.severity == SN_SEV_PASS);
    r.stats.median = 70.0;
    sn_diag_vs_design(&cfg, &r, 100.0, &c);
    CHECK(c.severity == SN_SEV_WARN);
    r.stats.median = 59.0;
    sn_diag_vs_design(&cfg, &r, 100.0, &c);
    CHECK(c.severity == SN_SEV_FAIL);
    /* noisy samples: judged by the median plus two standard errors,
     * 55 + 2 x 1.2533 x 10 / sqrt(4) = 67.5: a WARN, not a FAIL */
    r.stats.median = 55.0;
    r.stats.n = 4;
    r.stats.mad = 10.0 / SN_STATS_MAD_TO_SIGMA;
    sn_diag_vs_design(&cfg, &r, 100.0, &c);
    CHECK(c.severity == SN_SEV_WARN);
    CHECK_NEAR(c.ratio, 0.55, 1e-12);
    sn_diag_vs_design(&cfg, &r, NAN, &c);
    CHECK(!c.valid);
}

/* ---- expectations -------------------------------------------------------- */

static void test_diag_expect_shares_a_link_in_a_round(void)
{
    struct leaves c;
    struct sn_results rs;
    double e[12];
    const char *src[12];
    struct sn_error err;

    /* an oversubscribed inter-switch link: as fast as one host */
    build_leaves(&c, 12.5e6);
    sn_results_init(&rs);
    results_by(&rs, &uni, 1e7, all_well);
    REQUIRE(sn_diag_expect(c.t, "cpu", &rs, e, src, &err) == SN_OK);
    for (size_t i = 0; i < rs.n; i++) {
        const struct sn_result *r = &rs.items[i];
        bool cross = r->a / 2 != r->b / 2;
        /* two cross-leaf pairs of a round, same direction, share the
         * inter-switch link; inside a leaf the host links are the
         * bottleneck */
        CHECK_NEAR(e[i], cross ? 6.25e6 : 12.5e6, 1e-9);
        CHECK_STR(src[i], "routes, shared in the round");
    }
    sn_results_release(&rs);
    sn_topo_free(c.t);
    /* twice as fast: no sharing cost */
    build_leaves(&c, 25e6);
    sn_results_init(&rs);
    results_by(&rs, &uni, 1e7, all_well);
    REQUIRE(sn_diag_expect(c.t, "cpu", &rs, e, src, &err) == SN_OK);
    for (size_t i = 0; i < rs.n; i++)
        CHECK_NEAR(e[i], 12.5e6, 1e-9);
    sn_results_release(&rs);
    sn_topo_free(c.t);
}

/* ---- localisation -------------------------------------------------------- */

static void leaves_pairs(struct sn_diag_pair *p,
                         double (*f)(uint32_t, uint32_t))
{
    size_t k = 0;

    for (uint32_t a = 0; a < 4; a++)
        for (uint32_t b = a + 1; b < 4; b++, k++) {
            p[k].a = a;
            p[k].b = b;
            p[k].ratio = f(a, b);
            p[k].slow = p[k].ratio < 0.9;
            p[k].severity = p[k].slow ? SN_SEV_FAIL : SN_SEV_PASS;
        }
}

static void test_localise_names_the_host_cable(void)
{
    struct leaves c;
    struct sn_diag_pair p[6];
    struct sn_diag_culprits cul;
    struct sn_error err;

    build_leaves(&c, 25e6);
    leaves_pairs(p, host0_half);
    REQUIRE(sn_diag_localise(c.t, p, 6, &cul, &err) == SN_OK);
    REQUIRE(cul.n == 1);
    CHECK(cul.items[0].link == c.host_link[0]);
    CHECK(cul.items[0].nsupport == 3);
    CHECK_NEAR(cul.items[0].health, 0.5, 1e-12);
    /* the board trace from the accelerator to its NIC carries the same
     * pairs: named as the alternative, its prior 2/35 of a cable's */
    REQUIRE(cul.items[0].nalternatives == 1);
    CHECK(cul.items[0].alternatives[0] == c.board_link[0]);
    CHECK_NEAR(cul.items[0].confidence, 1.0 / (1.0 + 2.0 / 35.0), 1e-9);
    CHECK(cul.nunexplained == 0);
    CHECK(cul.crossed[c.isl] && cul.crossed[c.host_link[3]]);
    sn_diag_culprits_release(&cul);
    sn_topo_free(c.t);
}

static void test_localise_names_the_inter_switch_link(void)
{
    struct leaves c;
    struct sn_diag_pair p[6];
    struct sn_diag_culprits cul;
    struct sn_error err;

    build_leaves(&c, 25e6);
    leaves_pairs(p, cross_forty);
    REQUIRE(sn_diag_localise(c.t, p, 6, &cul, &err) == SN_OK);
    REQUIRE(cul.n == 1);
    CHECK(cul.items[0].link == c.isl);
    CHECK(cul.items[0].nsupport == 4);
    CHECK(cul.items[0].nalternatives == 0);
    CHECK_NEAR(cul.items[0].confidence, 1.0, 1e-12);
    sn_diag_culprits_release(&cul);
    sn_topo_free(c.t);
}

static double hosts_0_and_3(uint32_t a, uint32_t b)
{
    return a == 0 || b == 0 || a == 3 || b == 3 ? 0.5 : 1.0;
}

static void test_localise_two_faults_need_two_links(void)
{
    struct leaves c;
    struct sn_diag_pair p[6];
    struct sn_diag_culprits cul;
    struct sn_error err;

    build_leaves(&c, 25e6);
    leaves_pairs(p, hosts_0_and_3);
    REQUIRE(sn_diag_localise(c.t, p, 6, &cul, &err) == SN_OK);
    REQUIRE(cul.n == 2);
    /* each covers three slow pairs: equal gains go to the label first in
     * order, sn0 before sn3 */
    CHECK(cul.items[0].link == c.host_link[0]);
    CHECK(cul.items[1].link == c.host_link[3]);
    CHECK(cul.nunexplained == 0);
    sn_diag_culprits_release(&cul);
    sn_topo_free(c.t);
}

static double only_0_2(uint32_t a, uint32_t b)
{
    return a == 0 && b == 2 ? 0.5 : 1.0;
}

static void test_localise_leaves_unexplainable_pairs_unexplained(void)
{
    struct leaves c;
    struct sn_diag_pair p[6];
    struct sn_diag_culprits cul;
    struct sn_error err;

    /* 0~2 slow while 0~1, 2~3 and 1~3 are healthy: every link of 0~2
     * carries a healthy pair; no link explains it */
    build_leaves(&c, 25e6);
    leaves_pairs(p, only_0_2);
    REQUIRE(sn_diag_localise(c.t, p, 6, &cul, &err) == SN_OK);
    CHECK(cul.n == 0);
    REQUIRE(cul.nunexplained == 1);
    CHECK(p[cul.unexplained[0]].a == 0 && p[cul.unexplained[0]].b == 2);
    sn_diag_culprits_release(&cul);
    sn_topo_free(c.t);
}

static void test_localise_ecmp_keeps_spine_links_ambiguous(void)
{
    struct fat c;
    struct sn_diag_pair p[6];
    struct sn_diag_culprits cul;
    struct sn_error err;

    /* cross-leaf pairs slow: each has two paths, one per spine, so any
     * of the four uplinks may be it (each on half the paths), and a
     * healthy pair crossing a link on half its paths does not clear it */
    build_fat(&c);
    leaves_pairs(p, cross_forty);
    REQUIRE(sn_diag_localise(c.t, p, 6, &cul, &err) == SN_OK);
    REQUIRE(cul.n == 1);
    CHECK(cul.items[0].nalternatives == 3);
    CHECK_NEAR(cul.items[0].confidence, 0.25, 1e-9);
    sn_diag_culprits_release(&cul);
    sn_topo_free(c.t);
}

static void test_localise_refuses_pairs_outside_the_topology(void)
{
    struct leaves c;
    struct sn_diag_pair p = {0, 9, true, SN_SEV_FAIL, 0.5};
    struct sn_diag_culprits cul;
    struct sn_error err;

    build_leaves(&c, 25e6);
    CHECK(sn_diag_localise(c.t, &p, 1, &cul, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "not a pair of the topology's 4 accelerators");
    sn_topo_free(c.t);
}

/* ---- the whole diagnosis ------------------------------------------------- */

static void test_diag_healthy_cluster_passes(void)
{
    struct leaves c;
    struct sn_results rs;
    struct sn_diag_report *rep;

    rep = leaves_diagnose(&c, 25e6, &rs, all_well);
    REQUIRE(rep);
    CHECK(rep->verdict == SN_SEV_PASS);
    CHECK(rep->n == 0);
    CHECK(rep->npairs == 6 && rep->nlinks == c.t->nlinks);
    leaves_release(&c, &rs, rep);
}

static void test_diag_half_rate_host_link_fails_on_its_label(void)
{
    struct leaves c;
    struct sn_results rs;
    struct sn_diag_report *rep;
    char label[192];

    rep = leaves_diagnose(&c, 25e6, &rs, host0_half);
    REQUIRE(rep && rep->n >= 1);
    CHECK(rep->verdict == SN_SEV_FAIL);
    CHECK(rep->findings[0].kind == SN_FIND_LINK);
    CHECK(rep->findings[0].severity == SN_SEV_FAIL);
    sn_topo_link_label(c.t, c.host_link[0], label, sizeof(label));
    CHECK_STR(rep->findings[0].label, label);
    CHECK(rep->findings[0].nsupport == 3);
    CHECK_CONTAINS(rep->findings[0].next_step, "clean the optics");
    /* no other link, nothing systemic */
    CHECK(count_kind(rep, SN_FIND_LINK) == 1);
    CHECK(count_kind(rep, SN_FIND_SYSTEMIC) == 0);
    CHECK(rep->links[c.host_link[0]].severity == SN_SEV_FAIL);
    CHECK(rep->links[c.isl].severity == SN_SEV_PASS);
    leaves_release(&c, &rs, rep);
}

static void test_diag_slow_inter_switch_link_is_named_not_hosts(void)
{
    struct leaves c;
    struct sn_results rs;
    struct sn_diag_report *rep;

    rep = leaves_diagnose(&c, 25e6, &rs, cross_forty);
    REQUIRE(rep && rep->n >= 1);
    CHECK(rep->findings[0].kind == SN_FIND_LINK);
    CHECK_STR(rep->findings[0].subject, "L000008");
    CHECK(count_kind(rep, SN_FIND_LINK) == 1);
    CHECK(count_kind(rep, SN_FIND_SYSTEMIC) == 0);
    leaves_release(&c, &rs, rep);
}

static void test_diag_uniform_shortfall_is_systemic_not_a_cable(void)
{
    struct leaves c;
    struct sn_results rs;
    struct sn_diag_report *rep;

    rep = leaves_diagnose(&c, 25e6, &rs, everything_forty);
    REQUIRE(rep && rep->n == 1);
    CHECK(rep->findings[0].kind == SN_FIND_SYSTEMIC);
    CHECK(rep->findings[0].severity == SN_SEV_FAIL);
    CHECK_NEAR(rep->findings[0].cmp[SN_BASIS_DESIGN].ratio, 0.38, 1e-2);
    CHECK(count_kind(rep, SN_FIND_LINK) == 0);
    leaves_release(&c, &rs, rep);
}

static void test_diag_eighty_percent_link_found_with_a_baseline(void)
{
    struct leaves c;
    struct sn_results healthy, now;
    struct sn_baseline bl;
    struct sn_diag_report *rep;
    char label[192];

    build_leaves(&c, 25e6);
    leaves_run(&healthy, all_well);
    leaves_run(&now, host3_eighty);
    baseline_sorted(&healthy, &bl);
    /* without the baseline 80% is within the design's margin */
    rep = diagnose(&c, &now, NULL);
    REQUIRE(rep);
    CHECK(count_kind(rep, SN_FIND_LINK) == 0);
    sn_diag_report_free(rep);
    /* against the baseline the three pairs of host 3 stand out */
    rep = diagnose(&c, &now, &bl);
    REQUIRE(rep && rep->n >= 1);
    CHECK(rep->baseline_used);
    CHECK(rep->findings[0].kind == SN_FIND_LINK);
    sn_topo_link_label(c.t, c.host_link[3], label, sizeof(label));
    CHECK_STR(rep->findings[0].label, label);
    CHECK(rep->findings[0].severity == SN_SEV_FAIL);
    CHECK(count_kind(rep, SN_FIND_LINK) == 1);
    sn_diag_report_free(rep);
    /* a subject the baseline has and this run lacks is reported */
    now.n--;
    rep = diagnose(&c, &now, &bl);
    REQUIRE(rep);
    CHECK(count_kind(rep, SN_FIND_MISSING) == 1);
    now.n++;
    sn_baseline_release(&bl);
    sn_results_release(&healthy);
    leaves_release(&c, &now, rep);
}

static double everything_ninety(uint32_t a, uint32_t b)
{
    (void)a;
    (void)b;
    return 0.9;
}

static void test_diag_class_wide_drop_from_baseline_is_systemic(void)
{
    struct leaves c;
    struct sn_results healthy, now;
    struct sn_baseline bl;
    struct sn_diag_report *rep;

    /* every pair 10% below its baseline (a new driver, a loaded machine):
     * within the design's margin, far outside the baseline's noise. One
     * systemic finding, and no cable blamed for what all of them share */
    build_leaves(&c, 25e6);
    leaves_run(&healthy, all_well);
    leaves_run(&now, everything_ninety);
    baseline_sorted(&healthy, &bl);
    snprintf(bl.name, sizeof(bl.name), "accepted");
    rep = diagnose(&c, &now, &bl);
    REQUIRE(rep && rep->n == 1);
    CHECK(rep->findings[0].kind == SN_FIND_SYSTEMIC);
    CHECK(rep->findings[0].severity == SN_SEV_FAIL);
    CHECK_NEAR(rep->findings[0].cmp[SN_BASIS_BASELINE].ratio, 0.9, 1e-2);
    CHECK_CONTAINS(rep->findings[0].evidence, "baseline 'accepted'");
    CHECK_CONTAINS(rep->findings[0].next_step, "changed since the baseline");
    CHECK(count_kind(rep, SN_FIND_LINK) == 0);
    for (size_t i = 0; i < rep->npairs; i++)
        CHECK(rep->pairs[i].severity == SN_SEV_PASS);
    sn_baseline_release(&bl);
    sn_results_release(&healthy);
    leaves_release(&c, &now, rep);
}

/* Host 3's link at about 80%, as a loaded machine measures it: pair
 * 1~3's results each a few noise widths down, only one of its three
 * beyond the baseline's threshold on its own. */
static double host3_uneven(uint32_t a, uint32_t b)
{
    if (a == 1 && b == 3)
        return 0.84; /* z -4.0 at 4% noise */
    if (a == 3 && b == 1)
        return 0.896; /* z -2.6 */
    return a == 3 || b == 3 ? 0.82 : 1.0;
}

static double host3_uneven_both(uint32_t a, uint32_t b)
{
    return (a == 1 && b == 3) || (a == 3 && b == 1) ? 0.9 /* z -2.5 */
           : a == 3 || b == 3                       ? 0.82
                                                    : 1.0;
}

/* Pair 0~1 a little low everywhere, as noise leaves a pair: at 1%
 * noise z -1.5, -1.25 and -1, -2.2 together: no evidence of a link. */
static double pair01_low(uint32_t a, uint32_t b)
{
    if (a == 0 && b == 1)
        return 0.985;
    if (a == 1 && b == 0)
        return 0.9875;
    return 1.0;
}

static double pair01_low_both(uint32_t a, uint32_t b)
{
    return (a == 0 && b == 1) || (a == 1 && b == 0) ? 0.99 : 1.0;
}

static void test_diag_pair_below_baseline_in_every_result_is_slow(void)
{
    struct leaves c;
    struct sn_results healthy, now;
    struct sn_baseline bl;
    struct sn_diag_report *rep;
    char label[192];

    build_leaves(&c, 50e6);
    leaves_run(&healthy, all_well);
    results_by(&healthy, &bidir, 0.9 * 12.5e6, all_well);
    baseline_sorted(&healthy, &bl);
    /* a baseline of three runs that drifted 4% between them */
    for (size_t i = 0; i < bl.n; i++) {
        bl.entries[i].runs = 3;
        bl.entries[i].drift = 0.04;
    }
    leaves_run(&now, host3_uneven);
    results_by(&now, &bidir, 0.9 * 12.5e6, host3_uneven_both);
    rep = diagnose(&c, &now, &bl);
    REQUIRE(rep && rep->n >= 1);
    /* pair 1~3 counts as slow (z -4.0, -2.6, -2.5: -5.2 together), so it
     * does not clear host 3's cable: the cable is found */
    sn_topo_link_label(c.t, c.host_link[3], label, sizeof(label));
    CHECK(rep->findings[0].kind == SN_FIND_LINK);
    CHECK_STR(rep->findings[0].label, label);
    CHECK(rep->findings[0].nsupport == 3);
    CHECK(count_kind(rep, SN_FIND_LINK) == 1);
    CHECK(count_kind(rep, SN_FIND_UNEXPLAINED) == 0);
    sn_diag_report_free(rep);
    /* a pair a little low in every result, inside the noise of a steadier
     * baseline: no finding at all */
    for (size_t i = 0; i < bl.n; i++)
        bl.entries[i].drift = 0.01;
    sn_results_release(&now);
    leaves_run(&now, pair01_low);
    results_by(&now, &bidir, 0.9 * 12.5e6, pair01_low_both);
    rep = diagnose(&c, &now, &bl);
    REQUIRE(rep);
    CHECK(rep->n == 0);
    sn_baseline_release(&bl);
    sn_results_release(&healthy);
    leaves_release(&c, &now, rep);
}

static double pair12_slow(uint32_t a, uint32_t b)
{
    return (a == 1 && b == 2) || (a == 2 && b == 1) ? 3.4 : 1.0;
}

static double all_slow(uint32_t a, uint32_t b)
{
    (void)a;
    (void)b;
    return 1.9;
}

static bool any_evidence_has(const struct sn_diag_report *rep, const char *text)
{
    for (size_t i = 0; i < rep->n; i++)
        if (rep->findings[i].evidence &&
            strstr(rep->findings[i].evidence, text))
            return true;
    return false;
}

static void test_diag_latency_alone_is_at_most_a_warning(void)
{
    struct leaves c;
    struct sn_results healthy, now;
    struct sn_baseline bl;
    struct sn_diag_report *rep;

    /* pair 1~2's latency at 3.4 times its baseline (a loaded host), its
     * bandwidth as before: a WARN on the pair, no FAIL, no cable */
    build_leaves(&c, 25e6);
    leaves_run(&healthy, all_well);
    results_by(&healthy, &latency, 33e-6, all_well);
    leaves_run(&now, all_well);
    results_by(&now, &latency, 33e-6, pair12_slow);
    baseline_sorted(&healthy, &bl);
    rep = diagnose(&c, &now, &bl);
    REQUIRE(rep && rep->n >= 1);
    CHECK(rep->verdict == SN_SEV_WARN);
    CHECK(rep->findings[0].kind == SN_FIND_PAIR);
    CHECK_STR(rep->findings[0].test, "pairs.latency");
    CHECK(rep->findings[0].cmp[SN_BASIS_BASELINE].z < -6.0);
    CHECK(count_kind(rep, SN_FIND_LINK) == 0);
    for (size_t i = 0; i < rep->npairs; i++)
        CHECK(rep->pairs[i].severity != SN_SEV_FAIL);
    /* a latency reads as a multiple of its reference, never as a share
     * of it ("reach 29%") */
    CHECK(any_evidence_has(rep, "3.4x"));
    CHECK(!any_evidence_has(rep, "29%"));
    sn_diag_report_free(rep);
    /* every pair at 1.9 times the baseline: the class's finding too */
    sn_results_release(&now);
    leaves_run(&now, all_well);
    results_by(&now, &latency, 33e-6, all_slow);
    rep = diagnose(&c, &now, &bl);
    REQUIRE(rep && rep->n >= 1);
    CHECK(any_evidence_has(rep, "1.9x the latency of baseline"));
    CHECK(!any_evidence_has(rep, "reach 53%"));
    sn_baseline_release(&bl);
    sn_results_release(&healthy);
    leaves_release(&c, &now, rep);
}

/* One all-reduce of 1 MiB over the four ranks, at busbw bw. */
static void allreduce_result(struct sn_results *rs, double bw)
{
    struct sn_result r;
    double s[5];

    memset(&r, 0, sizeof(r));
    snprintf(r.test, sizeof(r.test), "coll.allreduce.busbw");
    snprintf(r.params, sizeof(r.params),
             "bytes=1048576,dtype=float,inplace=0,redop=sum,root=-1");
    sn_result_params_read(&r);
    snprintf(r.unit, sizeof(r.unit), "B/s");
    r.subject = SN_SUBJECT_GROUP;
    r.a = 0;
    r.b = 4;
    r.round = SN_STORE_NO_RANK;
    for (int k = 0; k < 5; k++)
        s[k] = bw * (1.0 + 0.002 * (double)(k - 2));
    r.samples = s;
    r.nsamples = 5;
    sn_stats_compute(s, 5, &r.stats);
    sn_results_add(rs, &r);
}

static void test_diag_collective_judged_against_the_model_on_cuda(void)
{
    struct sn_spec spec;
    struct sn_topo *t = NULL;
    struct sn_results rs;
    struct sn_error err;
    struct sn_diag_input in;
    struct sn_diag_report *rep = NULL;
    double e[1];
    const char *src[1];

    REQUIRE(sn_spec_load("examples/cpu-cluster.yaml", &spec, &err) == SN_OK);
    REQUIRE(sn_topo_build(&spec, &t, &err) == SN_OK);
    sn_results_init(&rs);
    allreduce_result(&rs, 6e6);
    /* a ring all-reduce's bus bandwidth reaches the slowest link on the
     * ring (nccl-tests PERFORMANCE.md: busbw is comparable to the
     * hardware's peak): each host's 100 Mbit/s link, 12.5 MB/s per
     * direction; the model's link efficiency keeps it within 10% below */
    REQUIRE(sn_diag_expect(t, "cuda", &rs, e, src, &err) == SN_OK);
    CHECK(e[0] > 0.9 * 12.5e6 && e[0] <= 12.5e6);
    CHECK(src[0] && strstr(src[0], "collective model"));
    /* MPI's collectives on the cpu backend: no design value */
    REQUIRE(sn_diag_expect(t, "cpu", &rs, e, src, &err) == SN_OK);
    CHECK(isnan(e[0]));
    /* at half of it: a collective finding, FAIL, from the model */
    REQUIRE(sn_diag_expect(t, "cuda", &rs, e, src, &err) == SN_OK);
    memset(&in, 0, sizeof(in));
    in.topo = t;
    in.results = &rs;
    in.expected = e;
    in.expected_source = src;
    REQUIRE(sn_diag_run(&in, &rep, &err) == SN_OK);
    REQUIRE(rep->n == 1);
    CHECK(rep->findings[0].kind == SN_FIND_GROUP);
    CHECK(rep->findings[0].severity == SN_SEV_FAIL);
    CHECK_CONTAINS(rep->findings[0].evidence, "from the collective model");
    sn_diag_report_free(rep);
    sn_results_release(&rs);
    sn_topo_free(t);
    sn_spec_release(&spec);
}

/* ---- what the design expects of every kind of result --------------------- */

/* One result of one sample for the expectation tests. */
static void add_one(struct sn_results *rs, const char *test, const char *params,
                    const char *unit, uint8_t subject, uint32_t a, uint32_t b,
                    uint32_t round)
{
    struct sn_result r;
    double s = 1;

    memset(&r, 0, sizeof(r));
    snprintf(r.test, sizeof(r.test), "%s", test);
    snprintf(r.params, sizeof(r.params), "%s", params);
    sn_result_params_read(&r);
    snprintf(r.unit, sizeof(r.unit), "%s", unit);
    r.subject = subject;
    r.lower_better = !strcmp(unit, "s");
    r.a = a;
    r.b = b;
    r.round = round;
    r.samples = &s;
    r.nsamples = 1;
    sn_stats_compute(&s, 1, &r.stats);
    sn_results_add(rs, &r);
}

/* The results of a cuda run of two-servers.yaml, one of each kind: the
 * indices the expectation tests read (see expect_kinds). */
enum {
    X_BF16,
    X_FP8,
    X_FP32,
    X_TRIAD,
    X_UNI_01,
    X_UNI_04,
    X_UNI_15,
    X_BIDIR_04,
    X_BIDIR_40,
    X_ISO_26,
    X_LAT_04,
    X_ALLREDUCE,
    X_AGG,
    X_N
};

static void expect_kinds(struct sn_results *rs)
{
    const uint32_t no = SN_STORE_NO_RANK;

    sn_results_init(rs);
    add_one(rs, "compute.gemm", "dtype=bf16,k=8192,m=8192,n=8192", "FLOP/s",
            SN_SUBJECT_DEVICE, 0, no, no);
    add_one(rs, "compute.gemm", "dtype=fp8,k=8192,m=8192,n=8192", "FLOP/s",
            SN_SUBJECT_DEVICE, 1, no, no);
    add_one(rs, "compute.gemm", "dtype=fp32,k=8192,m=8192,n=8192", "FLOP/s",
            SN_SUBJECT_DEVICE, 2, no, no);
    add_one(rs, "memory.triad", "bytes=1073741824,dtype=fp64", "B/s",
            SN_SUBJECT_DEVICE, 3, no, no);
    /* round 0 of eight ranks: 0-1 inside a server, 0-4... are of other
     * rounds; what matters is which share a round and a direction */
    add_one(rs, "pairs.uni", "bytes=67108864", "B/s", SN_SUBJECT_PAIR, 0, 1, 0);
    add_one(rs, "pairs.uni", "bytes=67108864", "B/s", SN_SUBJECT_PAIR, 0, 4, 1);
    add_one(rs, "pairs.uni", "bytes=67108864", "B/s", SN_SUBJECT_PAIR, 1, 5, 1);
    add_one(rs, "pairs.bidir", "bytes=67108864", "B/s", SN_SUBJECT_PAIR, 0, 4,
            1);
    add_one(rs, "pairs.bidir", "bytes=67108864", "B/s", SN_SUBJECT_PAIR, 4, 0,
            1);
    add_one(rs, "aggregate.isolated", "bytes=67108864", "B/s", SN_SUBJECT_PAIR,
            2, 6, 1);
    add_one(rs, "pairs.latency", "bytes=8", "s", SN_SUBJECT_PAIR, 0, 4, 1);
    add_one(rs, "coll.allreduce.busbw",
            "bytes=67108864,dtype=fp32,inplace=0,redop=sum", "B/s",
            SN_SUBJECT_GROUP, 0, 8, no);
    add_one(rs, "aggregate.aggregate", "bytes=67108864", "B/s",
            SN_SUBJECT_GROUP, 0, 8, 1);
}

static int expect_on(const char *backend, struct sn_results *rs, double *e,
                     const char **src)
{
    struct sn_spec spec;
    struct sn_topo *t = NULL;
    struct sn_error err;
    int rc;

    rc = sn_spec_load("tests/fixtures/expect/two-servers.yaml", &spec, &err);
    if (rc)
        return rc;
    rc = sn_topo_build(&spec, &t, &err);
    if (!rc)
        rc = sn_diag_expect(t, backend, rs, e, src, &err);
    sn_topo_free(t);
    sn_spec_release(&spec);
    return rc;
}

static void test_diag_expect_pins_every_kind_on_cuda(void)
{
    struct sn_results rs;
    double e[X_N];
    const char *src[X_N];

    expect_kinds(&rs);
    REQUIRE(rs.n == X_N);
    REQUIRE(expect_on("cuda", &rs, e, src) == SN_OK);
    /* catalog peaks of the h100-sxm5-80gb; none for fp32 GEMM */
    CHECK_NEAR(e[X_BF16], 989.4e12, 1e-9);
    CHECK_STR(src[X_BF16], "catalog bf16_flops");
    CHECK_NEAR(e[X_FP8], 1978.9e12, 1e-9);
    CHECK_STR(src[X_FP8], "catalog fp8_flops");
    CHECK(isnan(e[X_FP32]) && !src[X_FP32]);
    CHECK_NEAR(e[X_TRIAD], 3.35e12, 1e-9);
    CHECK_STR(src[X_TRIAD], "catalog hbm_bw");
    /* alone in its round: its four 25 GB/s NVLinks */
    CHECK_NEAR(e[X_UNI_01], 100e9, 1e-6);
    CHECK_STR(src[X_UNI_01], "routes");
    /* 0->4 and 1->5 leave server 0 by its one 50 GB/s NIC at once */
    CHECK_NEAR(e[X_UNI_04], 25e9, 1e-6);
    CHECK_STR(src[X_UNI_04], "routes, shared in the round");
    CHECK_NEAR(e[X_UNI_15], 25e9, 1e-6);
    /* the two directions of a bidirectional exchange never compete */
    CHECK_NEAR(e[X_BIDIR_04], 50e9, 1e-6);
    CHECK_NEAR(e[X_BIDIR_40], 50e9, 1e-6);
    CHECK_STR(src[X_BIDIR_40], "routes, shared in the round");
    /* an aggregate's pair alone is measured alone: it does not share
     * with the round's uni pairs (it used to, 50e9 / 3 each) */
    CHECK_NEAR(e[X_ISO_26], 50e9, 1e-6);
    CHECK_STR(src[X_ISO_26], "routes");
    /* latencies and the aggregate: no design value */
    CHECK(isnan(e[X_LAT_04]) && !src[X_LAT_04]);
    CHECK(isnan(e[X_AGG]) && !src[X_AGG]);
    /* what `sim coll --op allreduce -b 64M` prints over eight ranks */
    CHECK_NEAR(e[X_ALLREDUCE], 46.42772795e9, 1e-6);
    CHECK_STR(src[X_ALLREDUCE], "the collective model");
    sn_results_release(&rs);
}

static void test_diag_expect_pins_every_kind_on_cpu(void)
{
    struct sn_results rs;
    double e[X_N];
    const char *src[X_N];

    expect_kinds(&rs);
    REQUIRE(rs.n == X_N);
    REQUIRE(expect_on("cpu", &rs, e, src) == SN_OK);
    /* GEMM peaks on any backend; host memory is not the catalog's HBM */
    CHECK_NEAR(e[X_BF16], 989.4e12, 1e-9);
    CHECK_NEAR(e[X_FP8], 1978.9e12, 1e-9);
    CHECK(isnan(e[X_TRIAD]) && !src[X_TRIAD]);
    /* MPI through host memory does not cross the NVLinks */
    CHECK(isnan(e[X_UNI_01]));
    CHECK(src[X_UNI_01] && strstr(src[X_UNI_01], "--backend cuda"));
    /* pairs across servers cross the network as on cuda */
    CHECK_NEAR(e[X_UNI_04], 25e9, 1e-6);
    CHECK_NEAR(e[X_BIDIR_04], 50e9, 1e-6);
    CHECK_NEAR(e[X_ISO_26], 50e9, 1e-6);
    /* MPI's collectives: no design value */
    CHECK(isnan(e[X_ALLREDUCE]) && !src[X_ALLREDUCE]);
    CHECK(isnan(e[X_LAT_04]) && isnan(e[X_AGG]));
    sn_results_release(&rs);
}

static void test_diag_peers_flag_a_slow_device(void)
{
    struct sn_results rs;
    struct sn_diag_input in;
    struct sn_diag_report *rep = NULL;
    struct sn_error err;

    sn_results_init(&rs);
    /* eight devices at 100 +/- 1, one at 60: far outside the MAD but above
     * half the median: WARN; then at 40: FAIL */
    for (int pass = 0; pass < 2; pass++) {
        sn_results_release(&rs);
        for (uint32_t d = 0; d < 8; d++) {
            struct sn_result r;
            double s[3];
            double v =
                d == 5 ? (pass ? 40.0 : 60.0) : 100.0 + (double)(d % 3) - 1.0;
            memset(&r, 0, sizeof(r));
            snprintf(r.test, sizeof(r.test), "memory.triad");
            snprintf(r.unit, sizeof(r.unit), "B/s");
            r.subject = SN_SUBJECT_DEVICE;
            r.a = d;
            r.b = SN_STORE_NO_RANK;
            r.round = SN_STORE_NO_RANK;
            s[0] = s[1] = s[2] = v;
            r.samples = s;
            r.nsamples = 3;
            sn_stats_compute(s, 3, &r.stats);
            sn_results_add(&rs, &r);
        }
        memset(&in, 0, sizeof(in));
        in.results = &rs;
        REQUIRE(sn_diag_run(&in, &rep, &err) == SN_OK);
        REQUIRE(rep->n == 1);
        CHECK(rep->findings[0].kind == SN_FIND_DEVICE);
        CHECK_STR(rep->findings[0].subject, "rank5");
        CHECK(rep->findings[0].severity == (pass ? SN_SEV_FAIL : SN_SEV_WARN));
        CHECK(rep->findings[0].cmp[SN_BASIS_PEERS].npeers == 8);
        CHECK(rep->devices[5].severity == rep->findings[0].severity);
        CHECK(rep->devices[4].severity == SN_SEV_PASS);
        sn_diag_report_free(rep);
    }
    sn_results_release(&rs);
}

/* The bidirectional results of every pair (one exchange, both ways),
 * pair (0, 3) at factor f. */
static void bidir_results(struct sn_results *rs, double base, double f)
{
    for (uint32_t rd = 0; rd < 3; rd++)
        for (uint32_t p = 0; p < 2; p++)
            for (uint32_t d = 0; d < 2; d++) {
                struct sn_result r;
                double s[8];
                uint32_t a = rounds4[rd][p][d], b = rounds4[rd][p][1 - d];
                double x = (a == 0 && b == 3) || (a == 3 && b == 0) ? f : 1.0;
                memset(&r, 0, sizeof(r));
                snprintf(r.test, sizeof(r.test), "pairs.bidir");
                snprintf(r.params, sizeof(r.params), "bytes=1048576");
                snprintf(r.unit, sizeof(r.unit), "B/s");
                r.subject = SN_SUBJECT_PAIR;
                r.a = a;
                r.b = b;
                r.round = rd;
                for (int k = 0; k < 8; k++)
                    s[k] = base * x * (1.0 + 0.002 * (double)(k % 3));
                r.samples = s;
                r.nsamples = 8;
                sn_stats_compute(s, 8, &r.stats);
                sn_results_add(rs, &r);
            }
}

static void test_diag_one_slow_exchange_is_no_cable(void)
{
    struct leaves c;
    struct sn_results rs;
    struct sn_diag_report *rep;

    /* pair 0~3's both-ways exchange was slow (its two results), its two
     * one-way results were not: one piece of evidence against two, one
     * pair finding and no cable named */
    build_leaves(&c, 50e6);
    leaves_run(&rs, all_well);
    bidir_results(&rs, 0.9 * 12.5e6, 0.4);
    rep = diagnose(&c, &rs, NULL);
    REQUIRE(rep && rep->n == 1);
    CHECK(rep->findings[0].kind == SN_FIND_PAIR);
    CHECK_STR(rep->findings[0].test, "pairs.bidir");
    CHECK(count_kind(rep, SN_FIND_LINK) == 0);
    leaves_release(&c, &rs, rep);
}

static void test_diag_same_input_same_output_in_any_order(void)
{
    struct leaves c;
    struct sn_results rs, rev;
    struct sn_diag_report *a, *b;
    struct sn_buf ja, jb;

    build_leaves(&c, 25e6);
    sn_results_init(&rs);
    sn_results_init(&rev);
    results_by(&rs, &uni, 0.95 * 12.5e6, hosts_0_and_3);
    for (size_t i = rs.n; i-- > 0;)
        sn_results_add(&rev, &rs.items[i]);
    a = diagnose(&c, &rs, NULL);
    b = diagnose(&c, &rev, NULL);
    REQUIRE(a && b);
    sn_buf_init(&ja);
    sn_buf_init(&jb);
    sn_render_diag_json(a, 7, "test", &ja);
    sn_render_diag_json(b, 7, "test", &jb);
    CHECK(ja.len == jb.len && memcmp(ja.data, jb.data, ja.len) == 0);
    sn_buf_release(&ja);
    sn_buf_release(&jb);
    sn_diag_report_free(a);
    sn_diag_report_free(b);
    sn_results_release(&rs);
    sn_results_release(&rev);
    sn_topo_free(c.t);
}

static void test_diag_renders_json_junit_and_text(void)
{
    struct leaves c;
    struct sn_results rs;
    struct sn_diag_report *rep;
    struct sn_buf out;

    rep = leaves_diagnose(&c, 25e6, &rs, host0_half);
    REQUIRE(rep);
    sn_buf_init(&out);
    sn_render_diag_json(rep, 3, "leaves", &out);
    CHECK_CONTAINS(out.data, "\"schema\": \"supernode.check/1\"");
    CHECK_CONTAINS(out.data, "\"severity\": \"FAIL\"");
    CHECK_CONTAINS(out.data, "\"kind\": \"link\"");
    CHECK_CONTAINS(out.data, "\"subject\": \"L000000\"");
    CHECK_CONTAINS(out.data, "\"evidence\": {");
    CHECK_CONTAINS(out.data, "\"slow_pairs\": [");
    sn_buf_reset(&out);
    sn_render_diag_junit(rep, "check", &out);
    CHECK_CONTAINS(out.data, "<?xml version=\"1.0\"");
    CHECK_CONTAINS(out.data, "<testsuite name=\"links\"");
    CHECK_CONTAINS(out.data, "<failure type=\"link\"");
    sn_buf_reset(&out);
    sn_render_diag_text(rep, true, &out);
    CHECK_CONTAINS(out.data, "check: FAIL");
    CHECK_CONTAINS(out.data, "FAIL link L000000");
    sn_buf_release(&out);
    leaves_release(&c, &rs, rep);
}

static size_t count_str(const char *hay, const char *needle)
{
    size_t n = 0;

    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The failures a JUnit document announces in <testsuites failures="N">. */
static long junit_failures(const char *xml)
{
    const char *p = strstr(xml, "<testsuites ");

    p = p ? strstr(p, "failures=\"") : NULL;
    return p ? strtol(p + 10, NULL, 10) : -1;
}

static void test_diag_junit_gives_every_failed_case_its_failure(void)
{
    struct leaves c;
    struct sn_results rs;
    struct sn_diag_report *rep;
    struct sn_buf out;
    const char *pair_case;

    /* a halved host link: the link and its three slow pairs fail, each
     * pair's case saying which link made it slow */
    rep = leaves_diagnose(&c, 25e6, &rs, host0_half);
    REQUIRE(rep);
    sn_buf_init(&out);
    sn_render_diag_junit(rep, "check", &out);
    CHECK(junit_failures(out.data) == 4);
    CHECK(count_str(out.data, "<failure ") == 4);
    pair_case = strstr(out.data, "name=\"rank0~rank3 ");
    REQUIRE(pair_case);
    CHECK(strncmp(strstr(pair_case, "<"),
                  "<failure type=\"link\" "
                  "message=\"slow because of link L000000 ",
                  50) == 0);
    sn_diag_report_free(rep);
    sn_results_release(&rs);
    /* a shortfall every pair shares: one systemic case, failed, and the
     * exit status's FAIL is in the document */
    leaves_run(&rs, everything_forty);
    rep = diagnose(&c, &rs, NULL);
    REQUIRE(rep && rep->verdict == SN_SEV_FAIL);
    sn_buf_reset(&out);
    sn_render_diag_junit(rep, "check", &out);
    CHECK_CONTAINS(out.data, "<testsuite name=\"systemic\" tests=\"1\" "
                             "failures=\"1\">");
    CHECK_CONTAINS(out.data, "<failure type=\"systemic\"");
    CHECK(junit_failures(out.data) >= 1);
    CHECK(count_str(out.data, "<failure ") == (size_t)junit_failures(out.data));
    sn_buf_release(&out);
    leaves_release(&c, &rs, rep);
}

/* The healthy leaves cluster's pairs with these doctor checks. */
static struct sn_diag_report *
diagnose_health(struct leaves *c, const struct sn_store_health *h, size_t n)
{
    struct sn_results rs;
    struct sn_diag_input in;
    struct sn_diag_report *rep = NULL;
    struct sn_error err;

    leaves_run(&rs, all_well);
    memset(&in, 0, sizeof(in));
    in.topo = c->t;
    in.results = &rs;
    in.health = h;
    in.nhealth = n;
    if (sn_diag_run(&in, &rep, &err) != SN_OK)
        printf("  diagnose: %s\n", err.msg);
    sn_results_release(&rs);
    return rep;
}

static void test_diag_doctor_fail_is_a_finding_its_warn_is_not(void)
{
    struct leaves c;
    struct sn_diag_report *rep;
    struct sn_store_health h[4];
    const struct sn_finding *f;

    build_leaves(&c, 25e6);
    h[0] = fx_store_health("node1", "cpu.governor", "WARN", "",
                           "powersave on 64 CPUs", "set performance");
    h[1] = fx_store_health("node0", "pcie.link", "FAIL",
                           "0000:83:00.0 gpu 10de:2330 slot GPU2",
                           "trained down: Gen5 x8", "reseat the card");
    h[2] = fx_store_health("node0", "nvml.library", "SKIP", "", "no NVML", "");
    h[3] = fx_store_health("node1", "pcie.link", "PASS", "0000:83:00.0",
                           "Gen5 x16", "");
    /* a WARN (and a SKIP) alone leave a healthy run healthy */
    rep = diagnose_health(&c, h, 1);
    REQUIRE(rep);
    CHECK(rep->verdict == SN_SEV_PASS);
    CHECK(rep->n == 0);
    CHECK(rep->nhealth == 1);
    sn_diag_report_free(rep);
    /* a FAIL is a finding on its host, the remedy its next step */
    rep = diagnose_health(&c, h, 4);
    REQUIRE(rep);
    CHECK(rep->verdict == SN_SEV_FAIL);
    REQUIRE(rep->n == 1);
    f = &rep->findings[0];
    CHECK(f->kind == SN_FIND_HEALTH && f->severity == SN_SEV_FAIL);
    CHECK_STR(f->subject, "node0");
    CHECK_STR(f->label, "0000:83:00.0 gpu 10de:2330 slot GPU2");
    CHECK_STR(f->test, "pcie.link");
    CHECK_CONTAINS(f->evidence, "trained down: Gen5 x8");
    CHECK_STR(f->next_step, "reseat the card");
    CHECK_STR(sn_finding_kind_name(f->kind), "health");
    CHECK(rep->nhealth == 4 && rep->health[1].evidence != h[1].evidence);
    sn_diag_report_free(rep);
    sn_topo_free(c.t);
}

static void test_diag_renders_node_health_everywhere(void)
{
    struct leaves c;
    struct sn_diag_report *rep;
    struct sn_store_health h[4];
    struct sn_buf out;

    build_leaves(&c, 25e6);
    h[0] = fx_store_health("node0", "pcie.link", "FAIL", "0000:83:00.0",
                           "trained down", "reseat the card");
    h[1] = fx_store_health("node0", "cpu.governor", "WARN", "", "powersave",
                           "set performance");
    h[2] = fx_store_health("node1", "pcie.link", "PASS", "0000:83:00.0",
                           "at its maximum", "");
    h[3] =
        fx_store_health("node1", "nvml.library", "SKIP", "", "no <NVML>", "");
    rep = diagnose_health(&c, h, 4);
    REQUIRE(rep);
    sn_buf_init(&out);
    sn_render_diag_text(rep, true, &out);
    CHECK_CONTAINS(out.data, "FAIL health node0  0000:83:00.0\n");
    CHECK_CONTAINS(out.data,
                   "node health (doctor, 2 hosts): 1 FAIL, 1 WARN, 1 SKIP, "
                   "1 PASS\n"
                   "  node0: 1 FAIL, 1 WARN\n"
                   "    FAIL pcie.link 0000:83:00.0: trained down\n"
                   "    WARN cpu.governor: powersave\n"
                   "         next: set performance\n"
                   "  node1: 1 SKIP, 1 PASS\n"
                   "    SKIP nvml.library: no <NVML>\n");
    /* without --verbose the SKIPs are counted, not listed (a PASS
     * report read 11 SKIP lines a host) */
    sn_buf_reset(&out);
    sn_render_diag_text(rep, false, &out);
    CHECK_CONTAINS(out.data, "  node1: 1 SKIP, 1 PASS\n"
                             "    1 SKIP (--verbose lists them)\n");
    CHECK(!strstr(out.data, "no <NVML>"));
    sn_buf_reset(&out);
    sn_render_diag_text(rep, true, &out);
    /* a pass is counted, not listed; a FAIL's remedy is said once, as
     * its finding's next step */
    CHECK(!strstr(out.data, "at its maximum"));
    CHECK(count_str(out.data, "reseat the card") == 1);
    sn_buf_reset(&out);
    sn_render_diag_health(h, 4, true, true, &out);
    CHECK_CONTAINS(out.data, "    FAIL pcie.link 0000:83:00.0: trained down\n"
                             "         next: reseat the card\n");
    sn_buf_reset(&out);
    sn_render_diag_json(rep, 3, "leaves", &out);
    CHECK_CONTAINS(out.data, "\"kind\": \"health\"");
    CHECK_CONTAINS(out.data, "\"health\": [");
    CHECK_CONTAINS(out.data, "\"name\": \"cpu.governor\"");
    CHECK_CONTAINS(out.data, "\"remedy\": \"set performance\"");
    CHECK_CONTAINS(out.data, "\"SKIP\": 1"); /* only health has SKIP */
    sn_buf_reset(&out);
    sn_render_diag_junit(rep, "check", &out);
    CHECK_CONTAINS(out.data, "<testsuite name=\"health\" tests=\"4\" "
                             "failures=\"1\" skipped=\"1\">");
    CHECK_CONTAINS(out.data, "<failure type=\"health\" message=\"trained "
                             "down\">reseat the card</failure>");
    CHECK_CONTAINS(out.data, "<skipped message=\"no &lt;NVML&gt;\"/>");
    /* the pairs all pass: the only failure is the doctor's */
    CHECK(junit_failures(out.data) == 1);
    sn_buf_release(&out);
    sn_diag_report_free(rep);
    sn_topo_free(c.t);
}

static const struct sn_test cases[] = {
    T(test_diag_baseline_interval_closed_form),
    T(test_diag_baseline_noise_floor_and_latency),
    T(test_diag_design_thresholds),
    T(test_diag_expect_shares_a_link_in_a_round),
    T(test_localise_names_the_host_cable),
    T(test_localise_names_the_inter_switch_link),
    T(test_localise_two_faults_need_two_links),
    T(test_localise_leaves_unexplainable_pairs_unexplained),
    T(test_localise_ecmp_keeps_spine_links_ambiguous),
    T(test_localise_refuses_pairs_outside_the_topology),
    T(test_diag_healthy_cluster_passes),
    T(test_diag_half_rate_host_link_fails_on_its_label),
    T(test_diag_slow_inter_switch_link_is_named_not_hosts),
    T(test_diag_uniform_shortfall_is_systemic_not_a_cable),
    T(test_diag_eighty_percent_link_found_with_a_baseline),
    T(test_diag_class_wide_drop_from_baseline_is_systemic),
    T(test_diag_pair_below_baseline_in_every_result_is_slow),
    T(test_diag_latency_alone_is_at_most_a_warning),
    T(test_diag_collective_judged_against_the_model_on_cuda),
    T(test_diag_expect_pins_every_kind_on_cuda),
    T(test_diag_expect_pins_every_kind_on_cpu),
    T(test_diag_peers_flag_a_slow_device),
    T(test_diag_one_slow_exchange_is_no_cable),
    T(test_diag_same_input_same_output_in_any_order),
    T(test_diag_renders_json_junit_and_text),
    T(test_diag_junit_gives_every_failed_case_its_failure),
    T(test_diag_doctor_fail_is_a_finding_its_warn_is_not),
    T(test_diag_renders_node_health_everywhere),
};

SN_TEST_MAIN(cases)
