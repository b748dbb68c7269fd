/* diagnose.h: judging measured results: against the design and against a
 * baseline (a noise interval from the repeated samples). Same input, same
 * verdicts.
 *
 * Ownership: the comparison structs are caller-owned.
 *
 * To add a comparison: 1. a field in struct sn_diag_config with its source
 * 2. its code in src/lib/diagnose/compare.c  3. its evidence in the
 * renderers (render.c)  4. a case in tests/unit/test-diagnose.c
 * 5. docs/check.md.
 */
#ifndef SN_DIAGNOSE_H
#define SN_DIAGNOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sn/store.h"
#include "sn/topo.h"
#include "sn/util.h"

enum sn_severity { SN_SEV_PASS, SN_SEV_WARN, SN_SEV_FAIL };

const char *sn_severity_name(enum sn_severity s); /* "PASS", ... */

/* Thresholds. sn_diag_config_default() fills them with the values and
 * sources documented in docs/check.md. */
struct sn_diag_config {
    /* design: measured / expected (oriented so that < 1 is worse) */
    double design_warn;   /* below: WARN */
    double design_fail;   /* below: FAIL */
    /* baseline: z = (now - baseline) / combined noise, < 0 is worse */
    double baseline_warn_z;
    double baseline_fail_z;
    /* the least relative noise of one run's median, whatever the samples
     * say: run-to-run drift no sample set inside one run can see */
    double noise_floor;
    /* peers: modified z-score 0.6745 (x - median) / MAD */
    double peer_z;
    size_t peer_min;      /* fewest members for a peer comparison */
    double peer_fail;     /* a peer outlier below this share of the peer
                             median: FAIL */
};

void sn_diag_config_default(struct sn_diag_config *cfg);

/* ---- one comparison of one result ----------------------------------------- */

enum sn_diag_basis { SN_BASIS_DESIGN, SN_BASIS_BASELINE, SN_BASIS_PEERS,
                     SN_BASIS_COUNT };

const char *sn_diag_basis_name(enum sn_diag_basis b); /* "design", ... */

/* A result against one reference. ratio and z are oriented so that lower
 * is worse whatever the unit (a latency that doubled has ratio 0.5). */
struct sn_diag_cmp {
    bool valid;
    enum sn_severity severity;
    double reference;     /* expected value, baseline centre, peer median */
    double ratio;         /* measured / reference, oriented */
    double z;             /* standardised difference (baseline, peers) */
    double lo, hi;        /* the interval the value was expected in */
    double noise;         /* the combined standard deviation used */
    size_t npeers;        /* peers: group size */
};

/* A result against the baseline entry for its subject. The noise of a
 * run's median is its robust sample sigma, combined with the baseline's
 * and floored at cfg->noise_floor of the baseline (relative). */
void sn_diag_vs_baseline(const struct sn_diag_config *cfg,
                         const struct sn_result *r,
                         const struct sn_baseline_entry *e,
                         struct sn_diag_cmp *out);

/* A measured value against an expected one (design). */
void sn_diag_vs_design(const struct sn_diag_config *cfg,
                       const struct sn_result *r, double expected,
                       struct sn_diag_cmp *out);

#endif
