/* diagnose.h: findings from measured results: against the design (catalog
 * peaks, modelled pair and collective bandwidth), against a baseline (a
 * noise interval from the repeated samples) and against peers in the same
 * run (median and MAD); slow pairs localised to the links that explain
 * them (boolean network tomography over the topology's routes); verdicts
 * PASS/WARN/FAIL per device, pair and link, with the evidence and the
 * next step the field recommends. Same input, same findings, same order.
 *
 * Ownership: sn_diag_run() returns a report freed with
 * sn_diag_report_free(); it borrows nothing after it returns. The
 * localisation result of sn_diag_localise() is released with
 * sn_diag_culprits_release().
 *
 * To add a comparison: 1. a field in struct sn_diag_config with its source
 * 2. its code in src/lib/diagnose/compare.c  3. its evidence in the
 * renderers (src/lib/render/check.c)  4. a case in tests/unit/test-diagnose.c
 * 5. docs/check.md.
 */
#ifndef SN_DIAGNOSE_H
#define SN_DIAGNOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sn/expect.h"
#include "sn/store.h"
#include "sn/topo.h"
#include "sn/util.h"

enum sn_severity { SN_SEV_PASS, SN_SEV_WARN, SN_SEV_FAIL };

const char *sn_severity_name(enum sn_severity s); /* "PASS", ... */

/* Thresholds. sn_diag_config_default() fills them with the values and
 * sources documented in docs/check.md. */
struct sn_diag_config {
    /* design: measured / expected (oriented so that < 1 is worse) */
    double design_warn; /* below: WARN */
    double design_fail; /* below: FAIL */
    /* baseline: z = (now - baseline) / combined noise, < 0 is worse */
    double baseline_warn_z;
    double baseline_fail_z;
    /* the least relative noise of one run's median, whatever the samples
     * say: run-to-run drift no sample set inside one run can see */
    double noise_floor;
    /* peers: modified z-score 0.6745 (x - median) / MAD */
    double peer_z;
    size_t peer_min;  /* fewest members for a peer comparison */
    double peer_fail; /* a peer outlier below this share of the peer
                         median: FAIL */
};

void sn_diag_config_default(struct sn_diag_config *cfg);

/* ---- one comparison of one result -----------------------------------------
 */

enum sn_diag_basis {
    SN_BASIS_DESIGN,
    SN_BASIS_BASELINE,
    SN_BASIS_PEERS,
    SN_BASIS_COUNT
};

const char *sn_diag_basis_name(enum sn_diag_basis b); /* "design", ... */

/* A result against one reference. ratio and z are oriented so that lower
 * is worse whatever the unit (a latency that doubled has ratio 0.5). */
struct sn_diag_cmp {
    bool valid;
    enum sn_severity severity;
    double reference; /* design: what the design lets this subject
                         reach given what its best peers reach (see
                         sn_diag_run); baseline centre; peer median */
    double expected;  /* design: the design's own value */
    double ratio;     /* measured / reference, oriented */
    double z;         /* standardised difference (baseline, peers) */
    double lo, hi;    /* the interval the value was expected in */
    double noise;     /* the combined standard deviation used */
    size_t npeers;    /* peers: group size */
};

/* A result against the baseline entry for its subject. The noise of the
 * difference of medians: the baseline's run-to-run drift when it measured
 * one (several runs), else this run's standard error of the median; plus
 * the baseline centre's standard error; floored at cfg->noise_floor of
 * the baseline (relative). */
void sn_diag_vs_baseline(const struct sn_diag_config *cfg,
                         const struct sn_result *r,
                         const struct sn_baseline_entry *e,
                         struct sn_diag_cmp *out);

/* A measured value against an expected one (design). */
void sn_diag_vs_design(const struct sn_diag_config *cfg,
                       const struct sn_result *r, double expected,
                       struct sn_diag_cmp *out);

/* ---- what the design says ------------------------------------------------ */

/* Fill expected[i] (NaN where the design says nothing) and source[i] (a
 * static phrase, may be NULL) for each result on topology t (backend: the
 * run's, "cuda" for the accelerators): what sn_expect_design() (expect.h)
 * gives the measurement each result names. Devices: "compute.*" in
 * FLOP/s with its dtype, "memory.*" in B/s; pairs: any B/s pair result,
 * sharing with the results of its round and direction ("pairs.bidir" one
 * phase, uni low to high and high to low the others), alone when it has
 * no round; collectives: "coll.<op>.busbw" of the b ranks from rank a,
 * with its bytes. Latencies get no design value. Pair results whose ranks
 * share a host the spec gives them apart (check --allow-colocated) get no
 * design value and sn_expect_colocated_note as their source;
 * sn_diag_run() says so in one finding. Errors: sn_expect_design()'s. */
int sn_diag_expect(const struct sn_topo *t, const char *backend,
                   const struct sn_results *rs, double *expected,
                   const char **source, struct sn_error *err);

/* ---- localisation
 * ------------------------------------------------------------ */

/* A pair observation for localisation: two accelerator ranks, whether the
 * pair was slow, and how slow (measured / reference, oriented). */
struct sn_diag_pair {
    uint32_t a, b;
    bool slow;
    enum sn_severity severity;
    double ratio;
};

/* A link that explains slow pairs. */
struct sn_diag_culprit {
    uint32_t link;
    double confidence;         /* 0..1: prior share among the links that no
                                  observation tells apart, less conflicts */
    double health;             /* median ratio of the pairs it explains */
    enum sn_severity severity; /* strongest of those pairs */
    uint32_t *support;         /* indices into the pair array, ascending */
    size_t nsupport;
    uint32_t *alternatives; /* links the data cannot tell from this one */
    size_t nalternatives;
    size_t conflicts; /* healthy pairs that cross it */
};

struct sn_diag_culprits {
    struct sn_diag_culprit *items;
    size_t n;
    uint32_t *unexplained; /* slow pairs no link explains */
    size_t nunexplained;
    uint8_t *crossed; /* per link: 1 when some pair's route uses it */
    size_t nlinks;
};

/* The smallest set of links whose routes explain the slow pairs and not
 * the healthy ones: links on more than half of a healthy pair's ECMP
 * paths are cleared; greedy set cover of the slow pairs by the others,
 * ties broken by prior (cabled before board traces) then label. Slow
 * pairs left then go to cleared links with at least twice as many slow
 * pairs as healthy ones plus one (at most WARN). Pairs whose ranks are
 * not in the topology are refused (SN_EINPUT). */
int sn_diag_localise(const struct sn_topo *t, const struct sn_diag_pair *p,
                     size_t n, struct sn_diag_culprits *out,
                     struct sn_error *err);
void sn_diag_culprits_release(struct sn_diag_culprits *c);

/* ---- the whole diagnosis
 * ------------------------------------------------------ */

enum sn_finding_kind {
    SN_FIND_LINK,        /* a link localised as the cause of slow pairs */
    SN_FIND_SYSTEMIC,    /* a whole class of subjects short of design:
                            the best of them too, so not one part */
    SN_FIND_UNEXPLAINED, /* a slow pair no link explains */
    SN_FIND_DEVICE,      /* one accelerator below design, baseline, peers */
    SN_FIND_PAIR,        /* a pair result that was not localised: no
                            topology, a lone slow measurement, a latency */
    SN_FIND_GROUP,       /* a collective below design or baseline */
    SN_FIND_MISSING,     /* a baseline subject this run did not measure */
    SN_FIND_HEALTH,      /* a node-health check (doctor) failed on a host */
    SN_FIND_KIND_COUNT
};

const char *sn_finding_kind_name(enum sn_finding_kind k); /* "link", ... */

/* One finding: what, how sure, the numbers behind it and what to do. */
struct sn_finding {
    enum sn_severity severity;
    enum sn_finding_kind kind;
    char subject[64]; /* short id: "L000012", "rank3", "rank0~rank2" */
    char label[192];  /* ledger label or device location */
    char test[SN_RESULT_TEST_MAX];
    char params[SN_RESULT_PARAMS_MAX];
    char unit[SN_RESULT_UNIT_MAX];
    double measured; /* the result's median (NaN for links) */
    struct sn_diag_cmp cmp[SN_BASIS_COUNT];
    double confidence; /* links: see struct sn_diag_culprit; else 1 */
    double health;     /* links: estimated share of expected rate */
    char **support;    /* links: the slow pairs it explains (names) */
    size_t nsupport;
    char **alternatives; /* links: labels it cannot be told from */
    size_t nalternatives;
    size_t conflicts;
    char *evidence;  /* one or two sentences with the numbers */
    char *next_step; /* what the field does next */
    double score;    /* order within a severity: larger first */
};

/* Verdict of one subject (device, pair or link). */
struct sn_verdict {
    char subject[64];
    char label[192];
    enum sn_severity severity;
    bool measured; /* links: some measured route crosses it */
};

struct sn_diag_report {
    struct sn_finding *findings; /* strongest first */
    size_t n;
    enum sn_severity verdict; /* the strongest finding, PASS if none */
    struct sn_verdict *devices, *pairs, *links;
    size_t ndevices, npairs, nlinks;
    size_t nresults;
    bool baseline_used;
    struct sn_store_health *health; /* the run's doctor checks, copied */
    size_t nhealth;
};

/* How the design comparison works: the design value of each result is
 * scaled by what the best quarter of its peers (same test, parameters,
 * kind of subject and fabric) reach of theirs, capped at 1. A subject is
 * then judged against what the design lets it reach here, so a shortfall
 * every subject shares (the transport, a setting, the software stack)
 * becomes one systemic finding rather than a failure on every pair and a
 * cable blamed for it; the differential shortfall of some subjects is
 * what localisation works on. Groups of one are judged against the
 * design directly. */

/* What one diagnosis looks at. topo may be NULL (no localisation, subjects
 * named by rank); expected may be NULL or hold NaN where the design says
 * nothing; baseline may be NULL; cfg NULL means the defaults. */
struct sn_diag_input {
    const struct sn_topo *topo;
    const struct sn_results *results;
    const double *expected;             /* per result */
    const char *const *expected_source; /* per result, may be NULL */
    const struct sn_baseline *baseline;
    const struct sn_diag_config *cfg;
    /* what doctor found on the run's hosts (may be NULL): a FAIL becomes
     * a health finding naming the host and the device, with the remedy as
     * its next step; the other statuses are shown, never findings, so
     * they cannot raise the verdict */
    const struct sn_store_health *health;
    size_t nhealth;
};

/* Judge every result of in->results against the design (in->expected,
 * per result), the baseline and the peers, and localise slow pairs to
 * devices and cable labels on in->topo (which may be NULL: then nothing is
 * localised). in->cfg NULL takes sn_diag_config_default(). Findings come
 * worst first; the report's verdict is the first finding's severity, or
 * PASS. A result naming a rank the topology lacks, or a topology not
 * finished, is SN_EINPUT with nothing allocated. On success *out is a heap
 * report the caller frees with sn_diag_report_free(); it copies what it
 * keeps of in->health and owns every string in it. */
int sn_diag_run(const struct sn_diag_input *in, struct sn_diag_report **out,
                struct sn_error *err);
void sn_diag_report_free(struct sn_diag_report *r);

#endif
