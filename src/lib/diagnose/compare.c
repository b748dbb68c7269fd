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

void sn_diag_vs_design(const struct sn_diag_config *cfg,
                       const struct sn_result *r, double expected,
                       struct sn_diag_cmp *out)
{
    memset(out, 0, sizeof(*out));
    if (!(expected > 0) || !isfinite(expected) || r->stats.n == 0)
        return;
    out->valid = true;
    out->reference = expected;
    out->ratio = oriented_ratio(r->lower_better, r->stats.median, expected);
    out->z = NAN;
    out->lo = r->lower_better ? 0 : expected * cfg->design_warn;
    out->hi = r->lower_better ? expected / cfg->design_warn : INFINITY;
    if (out->ratio < cfg->design_fail)
        out->severity = SN_SEV_FAIL;
    else if (out->ratio < cfg->design_warn)
        out->severity = SN_SEV_WARN;
}

void sn_diag_vs_baseline(const struct sn_diag_config *cfg,
                         const struct sn_result *r,
                         const struct sn_baseline_entry *e,
                         struct sn_diag_cmp *out)
{
    double now_sigma, noise, floor_sigma, d;

    memset(out, 0, sizeof(*out));
    if (!e || r->stats.n == 0)
        return;
    out->valid = true;
    out->reference = e->center;
    out->ratio = oriented_ratio(r->lower_better, r->stats.median, e->center);
    /* the spread of one sample, not the standard error of the median:
     * samples inside a run are correlated and runs shift between each
     * other, so the median of a new run scatters about as widely as the
     * samples do */
    now_sigma = SN_STATS_MAD_TO_SIGMA * r->stats.mad;
    noise = sqrt(now_sigma * now_sigma + e->noise * e->noise);
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
