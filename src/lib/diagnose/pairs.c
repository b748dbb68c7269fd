/* pairs.c: the pair results of a diagnosis: one observation per
 * unordered pair, slow ones localised to links (tomo.c), and the
 * findings for the links and for the pairs no link explains. Part of
 * diagnose; diagnose.c calls sn__diag_pair_findings. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag-int.h"

static int pair_obs_cmp(const void *x, const void *y)
{
    const struct pair_obs *a = x, *b = y;

    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    if (a->b != b->b)
        return a->b < b->b ? -1 : 1;
    return (a->worst > b->worst) - (a->worst < b->worst);
}

static int sev_desc(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;

    return (a < b) - (a > b);
}

static int cmp_asc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* One pair's bandwidth evidence, a vote per exchange: its severity and
 * ratio, and against the baseline its summed z, their number and its
 * lowest ratio. vote_of maps the pair's k-th result to its vote.
 * Arrays, not a struct per vote: severities and ratios are sorted
 * apart. Reused from pair to pair; n is reset for each. */
struct votes {
    int *sev;
    double *rat, *zsum, *bl_rat;
    size_t *zn, *vote_of;
    size_t n;
    size_t scap, rcap, zcap, zncap, brcap, vcap;
    bool bl_all; /* every bandwidth result has a baseline z */
};

static void votes_release(struct votes *v)
{
    free(v->sev);
    free(v->rat);
    free(v->zsum);
    free(v->zn);
    free(v->bl_rat);
    free(v->vote_of);
}

/* One observation per pair result, sorted by pair and result index;
 * returns their number, *out is the caller's to free. */
static size_t pair_list(const struct sn_results *rs, struct pair_obs **out)
{
    struct pair_obs *p = NULL;
    size_t n = 0, cap = 0;

    for (size_t i = 0; i < rs->n; i++) {
        const struct sn_result *r = &rs->items[i];
        struct pair_obs *o;
        if (r->subject != SN_SUBJECT_PAIR)
            continue;
        SN_GROW(p, cap, n + 1);
        o = &p[n++];
        memset(o, 0, sizeof(*o));
        o->a = r->a < r->b ? r->a : r->b;
        o->b = r->a < r->b ? r->b : r->a;
        o->worst = i;
        o->nbw = !r->lower_better;
        o->both_ways = sn_startswith(r->test, "pairs.bidir");
    }
    if (n)
        qsort(p, n, sizeof(*p), pair_obs_cmp);
    *out = p;
    return n;
}

/* Count the bandwidth result p[j] (p[0] is the pair's first) as a vote
 * of severity s: the two results of one exchange both ways are one
 * piece of evidence: the first casts the vote, the second only makes it
 * worse. */
static void cast_vote(struct votes *vs, const struct sn_results *rs,
                      const struct pair_obs *p, size_t j, enum sn_severity s,
                      double ratio, const struct sn_diag_cmp *bc)
{
    size_t ri = p[j].worst;
    size_t v = vs->n;

    for (size_t q = 0; q < j && p[j].both_ways; q++)
        if (p[q].nbw && p[q].both_ways &&
            !strcmp(rs->items[p[q].worst].test, rs->items[ri].test) &&
            !strcmp(rs->items[p[q].worst].params, rs->items[ri].params))
            v = vs->vote_of[q];
    SN_GROW(vs->vote_of, vs->vcap, j + 1);
    vs->vote_of[j] = v;
    assert(v <= vs->n);
    if (v == vs->n) {
        SN_GROW(vs->sev, vs->scap, vs->n + 1);
        SN_GROW(vs->rat, vs->rcap, vs->n + 1);
        SN_GROW(vs->zsum, vs->zcap, vs->n + 1);
        SN_GROW(vs->zn, vs->zncap, vs->n + 1);
        SN_GROW(vs->bl_rat, vs->brcap, vs->n + 1);
        vs->sev[v] = (int)s;
        vs->rat[v] = ratio;
        vs->zsum[v] = 0.0;
        vs->zn[v] = 0;
        vs->bl_rat[v] = 1.0;
        vs->n++;
    } else {
        if ((int)s > vs->sev[v])
            vs->sev[v] = (int)s;
        if (ratio < vs->rat[v])
            vs->rat[v] = ratio;
    }
    /* one exchange's two directions: their mean z */
    if (bc->valid && isfinite(bc->z)) {
        vs->zsum[v] += bc->z;
        vs->zn[v]++;
        if (bc->ratio < vs->bl_rat[v])
            vs->bl_rat[v] = bc->ratio;
    } else {
        vs->bl_all = false;
    }
}

/* The pair is as slow as the k-th most severe of its votes and the k-th
 * lowest ratio, k = ceil(n / 2): at least half the bandwidth results
 * are this bad. */
static void vote_severity(struct pair_obs *o, struct votes *vs)
{
    size_t k = (vs->n + 1) / 2;

    assert(k >= 1 && k <= vs->n);
    qsort(vs->sev, vs->n, sizeof(*vs->sev), sev_desc);
    o->severity = (enum sn_severity)vs->sev[k - 1];
    o->slow = o->severity > SN_SEV_PASS;
    qsort(vs->rat, vs->n, sizeof(*vs->rat), cmp_asc);
    o->ratio = vs->rat[k - 1];
}

/* A pair whose every vote fell below the baseline is slow when their
 * z-scores combined (Stouffer) pass the baseline's thresholds; its
 * ratio is then the median of their lowest baseline ratios. */
static void baseline_votes(const struct sn_diag_config *cfg, struct pair_obs *o,
                           struct votes *vs)
{
    size_t nb = vs->n;
    double zc = 0.0;
    bool all_down = true;

    assert(nb >= 2);
    for (size_t v = 0; v < nb; v++) {
        double z;
        assert(vs->zn[v] > 0); /* bl_all: each vote has a z */
        z = vs->zsum[v] / (double)vs->zn[v];
        all_down = all_down && z < 0.0;
        zc += z;
    }
    zc /= sqrt((double)nb);
    if (!all_down || zc >= -cfg->baseline_warn_z)
        return;
    o->slow = true;
    o->severity = zc < -cfg->baseline_fail_z ? SN_SEV_FAIL : SN_SEV_WARN;
    qsort(vs->bl_rat, nb, sizeof(*vs->bl_rat), cmp_asc);
    o->ratio = nb % 2 ? vs->bl_rat[nb / 2]
                      : 0.5 * (vs->bl_rat[nb / 2 - 1] + vs->bl_rat[nb / 2]);
    if (o->severity > o->verdict)
        o->verdict = o->severity;
}

/* The one observation of the cnt results p[0..cnt) of a pair: its
 * verdict (the worst of all its results) and, from its bandwidth votes,
 * whether localisation takes it as slow. */
static struct pair_obs merge_pair(const struct sn_diag_config *cfg,
                                  const struct sn_results *rs,
                                  struct sn_diag_cmp (*cmp)[SN_BASIS_COUNT],
                                  const struct pair_obs *p, size_t cnt,
                                  struct votes *vs)
{
    struct pair_obs merged = p[0];

    merged.verdict = SN_SEV_PASS;
    merged.ratio = 1.0;
    vs->n = 0;
    vs->bl_all = true;
    for (size_t j = 0; j < cnt; j++) {
        size_t ri = p[j].worst;
        enum sn_severity s = sn__diag_worst(cmp[ri]);
        if (s > merged.verdict ||
            (s == merged.verdict && s > SN_SEV_PASS &&
             sn__diag_worst_ratio(cmp[ri]) <
                 sn__diag_worst_ratio(cmp[merged.worst]))) {
            merged.verdict = s;
            merged.worst = ri;
        }
        if (p[j].nbw)
            cast_vote(vs, rs, p, j, s, sn__diag_worst_ratio(cmp[ri]),
                      &cmp[ri][SN_BASIS_BASELINE]);
    }
    if (vs->n)
        vote_severity(&merged, vs);
    if (vs->n >= 2 && !merged.slow && vs->bl_all)
        baseline_votes(cfg, &merged, vs);
    return merged;
}

/* One observation per unordered pair. A degraded link slows every
 * bandwidth measurement of the pairs that cross it (both directions,
 * alone and both ways at once); noise slows one. So a pair is slow for
 * localisation when at least half of its bandwidth results are flagged,
 * and as slow as the least damning of that half. With a baseline, a pair
 * whose every bandwidth result fell below it is slow too when together
 * they say so: their z-scores combined (Stouffer: the sum over the square
 * root of their number, a standard normal when each is) beyond the
 * baseline's thresholds. A link at 80% leaves each result a few noise
 * widths down, where one of them may just miss its own threshold; all of
 * them down together is what a link does and noise does not. Latencies
 * are judged per pair but not localised: on a shared host they follow
 * the scheduler more than the cable. */
static size_t collect_pairs(const struct sn_diag_config *cfg,
                            const struct sn_results *rs,
                            struct sn_diag_cmp (*cmp)[SN_BASIS_COUNT],
                            struct pair_obs **out)
{
    struct votes vs;
    struct pair_obs *p = NULL;
    size_t n = pair_list(rs, &p), m = 0;

    memset(&vs, 0, sizeof(vs));
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && p[j].a == p[i].a && p[j].b == p[i].b)
            j++;
        assert(m <= i && j > i);
        p[m++] = merge_pair(cfg, rs, cmp, &p[i], j - i, &vs);
        i = j;
    }
    votes_release(&vs);
    *out = p;
    return m;
}

void sn__diag_pair_name(const struct sn_topo *t, bool cpu,
                        const struct pair_obs *o, char *buf, size_t size)
{
    char a[96], b[96];

    sn__diag_device_label(t, cpu, o->a, a, sizeof(a));
    sn__diag_device_label(t, cpu, o->b, b, sizeof(b));
    snprintf(buf, size, "%s~%s", a, b);
}

static void link_findings(struct findings *fs, const struct sn_topo *t,
                          bool cpu, const struct sn_results *rs,
                          const struct pair_obs *obs,
                          const struct sn_diag_culprits *cul)
{
    for (size_t i = 0; i < cul->n; i++) {
        const struct sn_diag_culprit *c = &cul->items[i];
        struct sn_finding *f = sn__diag_finding_new(fs);
        const struct sn_result *r0 = &rs->items[obs[c->support[0]].worst];
        const struct sn_link *l = &t->links[c->link];
        struct sn_buf b;
        char name[256];
        f->severity = c->severity;
        f->kind = SN_FIND_LINK;
        sn_topo_link_id(t, c->link, f->subject, sizeof(f->subject));
        sn_topo_link_label(t, c->link, f->label, sizeof(f->label));
        sn_strlcpy(f->test, r0->test, sizeof(f->test));
        sn_strlcpy(f->params, r0->params, sizeof(f->params));
        sn_strlcpy(f->unit, r0->unit, sizeof(f->unit));
        f->confidence = c->confidence;
        f->health = c->health;
        f->conflicts = c->conflicts;
        f->score = (1.0 - c->health) * c->confidence;
        f->support = sn_xmalloc(c->nsupport * sizeof(char *));
        for (size_t k = 0; k < c->nsupport; k++) {
            sn__diag_pair_name(t, cpu, &obs[c->support[k]], name, sizeof(name));
            f->support[f->nsupport++] = sn_xstrdup(name);
        }
        if (c->nalternatives)
            f->alternatives = sn_xmalloc(c->nalternatives * sizeof(char *));
        for (size_t k = 0; k < c->nalternatives; k++) {
            sn_topo_link_label(t, c->alternatives[k], name, sizeof(name));
            f->alternatives[f->nalternatives++] = sn_xstrdup(name);
        }
        sn_buf_init(&b);
        sn_buf_printf(&b,
                      "%s %s link (%s): %zu slow pair%s cross%s it and %s; "
                      "they reach %.0f%% of what they should (median), "
                      "confidence %.0f%%",
                      sn_link_class_name((enum sn_link_class)l->cls),
                      sn_medium_name((enum sn_medium)l->medium), f->subject,
                      c->nsupport, c->nsupport == 1 ? "" : "s",
                      c->nsupport == 1 ? "es" : "",
                      c->conflicts == 0 ? "no healthy pair does"
                                        : "so do some healthy pairs",
                      100.0 * c->health, 100.0 * c->confidence);
        if (c->conflicts)
            sn_buf_printf(&b, " (%zu healthy pair%s cross%s it too)",
                          c->conflicts, c->conflicts == 1 ? "" : "s",
                          c->conflicts == 1 ? "es" : "");
        if (c->nalternatives)
            sn_buf_printf(&b,
                          "; the measurements cannot tell it from %zu other "
                          "link%s on the same routes (%s%s), less likely "
                          "at fault",
                          c->nalternatives, c->nalternatives == 1 ? "" : "s",
                          f->alternatives[0],
                          c->nalternatives > 1 ? ", ..." : "");
        f->evidence = sn_buf_detach(&b, NULL);
        f->next_step = sn_xstrdup(sn__diag_link_next_step(t, c->link));
    }
}

static void unexplained_findings(struct findings *fs, const struct sn_topo *t,
                                 bool cpu, const struct sn_results *rs,
                                 const struct pair_obs *obs,
                                 struct sn_diag_cmp (*cmp)[SN_BASIS_COUNT],
                                 const struct sn_diag_culprits *cul,
                                 const char *const *sources)
{
    for (size_t i = 0; i < cul->nunexplained; i++) {
        const struct pair_obs *o = &obs[cul->unexplained[i]];
        const struct sn_result *r = &rs->items[o->worst];
        struct sn_finding *f;
        sn__diag_result_finding(fs, t, cpu, r, cmp[o->worst],
                                sources ? sources[o->worst] : NULL);
        f = &fs->items[fs->n - 1];
        f->kind = SN_FIND_UNEXPLAINED;
        free(f->next_step);
        f->next_step = sn_xstrdup(
            "no single link explains this pair: re-run it; if it stays "
            "slow, check both devices and their links with 'supernode "
            "doctor' and that the communication library sees the real "
            "topology");
    }
}

/* Whether result i's traffic never crossed the designed links: the
 * caller gave it no design value because its ranks share a host the spec
 * gives them apart, or because the cpu backend moved host memory where
 * the design has a scale-up fabric. */
static bool off_design(const struct sn_diag_input *in, size_t i)
{
    const char *s = in->expected_source ? in->expected_source[i] : NULL;

    return s &&
           (s == sn_expect_colocated_note || s == sn_expect_cpu_fabric_note);
}

/* A link is measured only when traffic that crossed the designed links
 * crossed it: cul->crossed again from the pairs none of whose results
 * is off the design (a link the cpu backend's host-memory copies stood
 * in for is not measured, never a PASS). */
static int designed_crossings(const struct sn_diag_input *in,
                              const struct pair_obs *obs, size_t nobs,
                              const struct sn_diag_pair *dp,
                              struct sn_diag_culprits *cul,
                              struct sn_error *err)
{
    const struct sn_results *rs = in->results;
    uint8_t *off = sn_xcalloc(nobs + 1, 1);
    struct sn_diag_pair *kept = NULL;
    struct sn_diag_culprits c2;
    size_t nkept = 0, noff = 0;
    int rc = SN_OK;

    for (size_t i = 0; i < rs->n; i++) {
        const struct sn_result *r = &rs->items[i];
        uint32_t a, b;
        if (r->subject != SN_SUBJECT_PAIR || !off_design(in, i))
            continue;
        a = r->a < r->b ? r->a : r->b;
        b = r->a < r->b ? r->b : r->a;
        for (size_t k = 0; k < nobs; k++)
            if (obs[k].a == a && obs[k].b == b && !off[k]) {
                off[k] = 1;
                noff++;
            }
    }
    if (!noff)
        goto out;
    kept = sn_xmalloc((nobs + 1) * sizeof(*kept));
    for (size_t k = 0; k < nobs; k++)
        if (!off[k])
            kept[nkept++] = dp[k];
    memset(&c2, 0, sizeof(c2));
    if (!nkept) {
        memset(cul->crossed, 0, cul->nlinks);
        goto out;
    }
    rc = sn_diag_localise(in->topo, kept, nkept, &c2, err);
    if (rc)
        goto out;
    memcpy(cul->crossed, c2.crossed,
           cul->nlinks < c2.nlinks ? cul->nlinks : c2.nlinks);
    sn_diag_culprits_release(&c2);
out:
    free(kept);
    free(off);
    return rc;
}

/* Localise the slow pairs of a run to links when there is a topology,
 * and add the findings for pairs: a link each culprit, an unexplained
 * pair each pair no link explains, and a pair finding each flagged
 * result that localisation did not take (a lone slow measurement, or a
 * latency); without a topology, a pair finding each flagged pair. */
int sn__diag_pair_findings(struct findings *fs, const struct sn_diag_input *in,
                           const struct sn_diag_config *cfg,
                           struct sn_diag_cmp (*cmp)[SN_BASIS_COUNT],
                           struct pair_obs **obs_out, size_t *nobs_out,
                           struct sn_diag_culprits *cul, struct sn_error *err)
{
    const struct sn_results *rs = in->results;
    const struct sn_topo *t = in->topo;
    struct sn_diag_pair *dp = NULL;
    struct pair_obs *obs = NULL;
    size_t nobs;
    int rc = SN_OK;

    nobs = collect_pairs(cfg, rs, cmp, &obs);
    *obs_out = obs;
    *nobs_out = nobs;
    if (t && nobs) {
        dp = sn_xmalloc(nobs * sizeof(*dp));
        for (size_t i = 0; i < nobs; i++) {
            dp[i].a = obs[i].a;
            dp[i].b = obs[i].b;
            dp[i].slow = obs[i].slow;
            dp[i].severity = obs[i].severity;
            dp[i].ratio = obs[i].ratio;
        }
        rc = sn_diag_localise(t, dp, nobs, cul, err);
        if (!rc)
            rc = designed_crossings(in, obs, nobs, dp, cul, err);
        if (rc)
            goto out;
        link_findings(fs, t, sn__diag_cpu(in), rs, obs, cul);
        unexplained_findings(fs, t, sn__diag_cpu(in), rs, obs, cmp, cul,
                             in->expected_source);
    }
    for (size_t i = 0; i < nobs; i++) {
        /* with a topology, the slow ones are the links' findings above */
        if ((t && obs[i].slow) || obs[i].verdict == SN_SEV_PASS)
            continue;
        sn__diag_result_finding(
            fs, t, sn__diag_cpu(in), &rs->items[obs[i].worst],
            cmp[obs[i].worst],
            in->expected_source ? in->expected_source[obs[i].worst] : NULL);
    }
out:
    free(dp);
    return rc;
}
