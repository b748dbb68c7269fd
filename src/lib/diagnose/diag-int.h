/* diag-int.h: what the files of the diagnose module share. */
#ifndef SN_DIAG_INT_H
#define SN_DIAG_INT_H

#if !defined(SN_MODULE_diagnose) && !defined(SN_TESTS)
#error "private to src/lib/diagnose (tests/layers/table)"
#endif

#include "sn/diagnose.h"

/* How likely a link is a priori to be the one at fault (relative). */
double sn__diag_link_prior(const struct sn_topo *t, uint32_t link);

/* ---- shared by diagnose.c and pairs.c ---- */

/* The findings of one diagnosis, growing. */
struct findings {
    struct sn_finding *items;
    size_t n, cap;
};

/* One observation of an unordered pair, merged from all its results. */
struct pair_obs {
    uint32_t a, b;             /* a < b */
    bool slow;                 /* for localisation: its bandwidth is */
    enum sn_severity severity; /* of the bandwidth, as localisation
                                  sees it */
    double ratio;
    enum sn_severity verdict; /* the worst of all its results */
    size_t worst;             /* the result behind the verdict */
    size_t nbw;               /* bandwidth results (scratch) */
    bool both_ways;           /* one exchange both ways (scratch) */
};

/* A new finding at the end of fs, zeroed, with NAN measured and health
 * and confidence 1; valid until the next call. */
struct sn_finding *sn__diag_finding_new(struct findings *fs);
/* The worst severity of a result's valid comparisons. */
enum sn_severity sn__diag_worst(const struct sn_diag_cmp *c);
/* The oriented ratio of its most damning flagged comparison (1: none). */
double sn__diag_worst_ratio(const struct sn_diag_cmp *c);
/* A rank's device name in t, or "rankN" without one; a CPU rank (cpu:
 * the run's backend is the cpu one) is named as one at its place,
 * "sn0.r00.u01.cpu-rank1". */
void sn__diag_device_label(const struct sn_topo *t, bool cpu, uint32_t rank,
                           char *buf, size_t size);
/* Whether in's run measured CPU ranks (the cpu backend). */
bool sn__diag_cpu(const struct sn_diag_input *in);
/* What to do about a slow link of t, by its medium (a static string). */
const char *sn__diag_link_next_step(const struct sn_topo *t, uint32_t l);
/* Add the finding of one flagged result (device, collective, or pair);
 * design_source says where its design value came from, or NULL. */
void sn__diag_result_finding(struct findings *fs, const struct sn_topo *t,
                             bool cpu, const struct sn_result *r,
                             const struct sn_diag_cmp *c,
                             const char *design_source);
/* pairs.c: "deviceA~deviceB", the pair o's name in t. */
void sn__diag_pair_name(const struct sn_topo *t, bool cpu,
                        const struct pair_obs *o, char *buf, size_t size);
/* pairs.c: the observations of the pair results (*obs, *nobs: the
 * caller's to free, set even on failure), localised to links in *cul
 * when in->topo is given, and their findings added to fs. Returns
 * sn_diag_localise's code. */
int sn__diag_pair_findings(struct findings *fs, const struct sn_diag_input *in,
                           const struct sn_diag_config *cfg,
                           struct sn_diag_cmp (*cmp)[SN_BASIS_COUNT],
                           struct pair_obs **obs, size_t *nobs,
                           struct sn_diag_culprits *cul, struct sn_error *err);

#endif
