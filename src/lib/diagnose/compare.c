/* compare.c: one result against the design, its baseline and its peers;
 * the thresholds and where they come from. */
#include <math.h>
#include <string.h>

#include "sn/diagnose.h"

void sn_diag_config_default(struct sn_diag_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    /* "Half the theoretical value usually means topology detection failed
     * or a link is degraded" (field practice, docs/check.md): a link
     * trained down to half must fail with room for measurement noise,
     * so below 60% of what the design lets a subject reach is a failure.
     * Healthy devices reach 60-70% of peak or more, links about 80% of
     * line rate (nccl-tests#149, NVIDIA/nccl#1054): below 75% is worth a
     * look */
    cfg->design_warn = 0.75;
    cfg->design_fail = 0.60;
    /* a run's median outside 3 combined standard deviations of the
     * baseline: WARN; outside 6: FAIL (a normal deviate beyond 6 sigma
     * happens about once in 5e8) */
    cfg->baseline_warn_z = 3.0;
    cfg->baseline_fail_z = 6.0;
    /* day-to-day drift of 1-2% from DVFS and temperature (Llama 3,
     * section 3.3.4: "diurnal 1-2% throughput swing") that samples taken
     * in one run cannot show: at least 1% noise on any median */
    cfg->noise_floor = 0.01;
    /* modified z-score outlier rule |M| > 3.5 (Iglewicz and Hoaglin,
     * "How to Detect and Handle Outliers", ASQC 1993) */
    cfg->peer_z = 3.5;
    cfg->peer_min = 4;
    cfg->peer_fail = 0.50;
}

const char *sn_severity_name(enum sn_severity s)
{
    switch (s) {
    case SN_SEV_PASS:
        return "PASS";
    case SN_SEV_WARN:
        return "WARN";
    case SN_SEV_FAIL:
        return "FAIL";
    }
    return "?";
}

const char *sn_diag_basis_name(enum sn_diag_basis b)
{
    switch (b) {
    case SN_BASIS_DESIGN:
        return "design";
    case SN_BASIS_BASELINE:
        return "baseline";
    case SN_BASIS_PEERS:
        return "peers";
    default:
        return "?";
    }
}

/* measured / reference, oriented so that lower is worse */
static double oriented_ratio(bool lower_better, double measured,
                             double reference)
{
    if (lower_better)
        return measured > 0 ? reference / measured : 0.0;
    return reference > 0 ? measured / reference : 0.0;
}

/* Standard error of the median of n samples of standard deviation sigma
 * under normal noise: sqrt(pi/2) sigma / sqrt(n) (Kendall and Stuart,
 * the asymptotic efficiency of the median). */
static double median_se(double sigma, size_t n)
{
    return n ? 1.2533141373155 * sigma / sqrt((double)n) : sigma;
}

void sn_diag_vs_design(const struct sn_diag_config *cfg,
                       const struct sn_result *r, double expected,
                       struct sn_diag_cmp *out)
{
    double se, kind, best;

    memset(out, 0, sizeof(*out));
    if (!(expected > 0) || !isfinite(expected) || r->stats.n == 0)
        return;
    out->valid = true;
    out->reference = expected;
    out->ratio = oriented_ratio(r->lower_better, r->stats.median, expected);
    out->z = NAN;
    out->lo = r->lower_better ? 0 : expected * cfg->design_warn;
    out->hi = r->lower_better ? expected / cfg->design_warn : INFINITY;
    /* judged by the kindest value its samples allow, the median two
     * standard errors towards better: noisy samples earn the benefit of
     * the doubt, a steady shortfall does not */
    se = median_se(SN_STATS_MAD_TO_SIGMA * r->stats.mad, r->stats.n);
    kind = r->lower_better ? r->stats.median - 2.0 * se
                           : r->stats.median + 2.0 * se;
    if (r->lower_better && kind <= 0)
        kind = r->stats.median;
    best = oriented_ratio(r->lower_better, kind, expected);
    if (best < cfg->design_fail)
        out->severity = SN_SEV_FAIL;
    else if (best < cfg->design_warn)
        out->severity = SN_SEV_WARN;
}

void sn_diag_vs_baseline(const struct sn_diag_config *cfg,
                         const struct sn_result *r,
                         const struct sn_baseline_entry *e,
                         struct sn_diag_cmp *out)
{
    double se_now, se_base, var, noise, floor_sigma, d;

    memset(out, 0, sizeof(*out));
    if (!e || r->stats.n == 0)
        return;
    out->valid = true;
    out->reference = e->center;
    out->ratio = oriented_ratio(r->lower_better, r->stats.median, e->center);
    se_now = median_se(SN_STATS_MAD_TO_SIGMA * r->stats.mad, r->stats.n);
    se_base = median_se(e->noise, e->n);
    /* A run's median strays from the truth by more than its standard
     * error: runs shift. A baseline of several runs measured that drift
     * (the spread of their medians, standard error included); one run
     * could not, and then the two standard errors are all there is. */
    if (e->runs >= 2 && e->drift > 0) {
        d = e->drift * fabs(e->center);
        var = d * d + se_base * se_base;
    } else {
        var = se_now * se_now + se_base * se_base;
    }
    noise = sqrt(var);
    floor_sigma = cfg->noise_floor * fabs(e->center);
    if (noise < floor_sigma)
        noise = floor_sigma;
    out->noise = noise;
    d = r->stats.median - e->center;
    if (r->lower_better)
        d = -d;
    out->z = noise > 0 ? d / noise : (d < 0 ? -INFINITY : 0.0);
    out->lo = e->center - cfg->baseline_warn_z * noise;
    out->hi = e->center + cfg->baseline_warn_z * noise;
    if (out->z < -cfg->baseline_fail_z)
        out->severity = SN_SEV_FAIL;
    else if (out->z < -cfg->baseline_warn_z)
        out->severity = SN_SEV_WARN;
}
