/* rules-int.h: what the files of the watch rules share (rules.c the
 * engine, rules-cool.c cooling and sensors, rules-dev.c devices, power
 * and links, rules-prom.c the Prometheus rule file): the one table of
 * rule names, severities and thresholds, the slow state per series and
 * the evaluation context. Not part of the public API.
 *
 * To add a rule: 1. its row in sn__watch_rule_table (rules.c) and its
 * SN__RULE_ enum  2. the check in rules-cool.c or rules-dev.c, called
 * from eval_all() in rules.c  3. its PromQL in the row  4. a scenario in
 * tests/unit/test-watch-rules.c and a case under tests/watch-rules/. */
#ifndef SN_WATCH_RULES_INT_H
#define SN_WATCH_RULES_INT_H

#if !defined(SN_MODULE_watch) && !defined(SN_TESTS)
#error "private to src/lib/watch (tests/layers/table)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sn/store.h"
#include "watch-int.h"

enum sn__rule_id {
    SN__RULE_COOLANT_FLOW_LOW,
    SN__RULE_GPU_THERMAL_CREEP,
    SN__RULE_SENSOR_DRIFT,
    SN__RULE_PSU_EFFICIENCY_LOW,
    SN__RULE_FEED_IMBALANCE,
    SN__RULE_GPU_ZOMBIE_MEMORY,
    SN__RULE_DEVICE_MISSING,
    SN__RULE_NIC_MISSING,
    SN__RULE_LINK_DEGRADED,
    SN__RULE_LINK_FLAPPING,
    SN__RULE_GPU_XID,
    SN__RULE_GPU_ECC_UNCORRECTED,
    SN__RULE_GPU_ROW_REMAP,
    SN__RULE_GPU_HW_SLOWDOWN,
    SN__RULE_CONDENSATION_RISK,
    SN__RULE_LEAK_DETECTED,
    SN__RULE_COUNT
};

/* One rule: the one owner of its name, severity, threshold and the
 * PromQL the rule file carries. expr is a format with at most one %s,
 * filled with the threshold (as %g) or, for spec-dependent rules, by the
 * renderer. */
struct sn__watch_rule_def {
    const char *name;
    const char *severity; /* the usual one; a check may raise or lower it */
    double threshold;     /* the rule's figure, in the rule's unit */
    const char *unit;     /* of threshold, as the docs write it */
    double for_s;         /* `for:` of the fleet rule */
    const char *summary;  /* one line, what holds */
    const char *remedy;   /* what to do */
    const char *expr;     /* PromQL over the agent's metrics; NULL: made
                             from the fields below (rules-prom.c) */
    /* A rule that compares a part with its peers: the kinds of part it
     * judges ("gpu|cpu", an alternation of the kind label's values), the
     * labels beyond instance and job that make a peer group ("loop,
     * kind") and the least group, itself included, whose median is
     * trusted. The agent (rules-cool.c) and the rule file read these same
     * fields. */
    const char *subjects;
    const char *peers_by;
    int peers_min;
};

extern const struct sn__watch_rule_def sn__watch_rule_table[SN__RULE_COUNT];

/* ---- tuning, each with its reason ----------------------------------- */

/* The slow detectors (EWMA baseline, CUSUM) take the mean of the samples
 * of one bucket, so that they see the same series at a 15 s interval
 * as at 15 min (a CUSUM fed 60 times as many samples would alarm 60
 * times as often on noise). */
#define SN__SLOW_BUCKET_S 900.0
#define SN__SLOW_WARMUP 8           /* buckets before a baseline is trusted */
#define SN__SLOW_TAU_S 259200.0     /* EWMA baseline time constant: 3 days */
#define SN__CUSUM_K 1.0             /* slack, in sigmas: shifts > 2 sigma */
#define SN__CUSUM_H 8.0             /* decision interval, in sigmas */
#define SN__CUSUM_ZMAX 4.0          /* a single glitch adds at most 3 */
#define SN__STATE_EXPIRE_S 604800.0 /* state untouched for a week goes */

/* One series' slow state, as kept in the store (8 numbers). */
struct sn__slow {
    double mean, var;    /* EWMA baseline and variance of the buckets */
    double hi, lo;       /* one-sided CUSUM sums, upward and downward */
    double n;            /* buckets seen (warm-up) */
    double sum, cnt, t0; /* the open bucket */
};

/* One entry of the state map: a slow series or a rule's own memory
 * (the time a condition began, a counter's last value), keyed
 * "<rule>/<subject>". */
struct sn__state {
    char key[128];
    union {
        struct sn__slow slow;
        double v[SN_STORE_WATCH_VALUES];
    } u;
    double updated; /* last time touched (the agent's clock) */
    bool used;
};

/* A rule found to hold in this evaluation. */
struct sn__hit {
    struct sn_watch_alert a;
    enum sn__rule_id rule;
    int kind; /* what the subject is, for the event's state: HIT_* */
    char part[SN_WATCH_NAME_MAX]; /* bus id, branch, psu, feed, ... */
};

enum { SN__HIT_GPU, SN__HIT_BRANCH, SN__HIT_PSU, SN__HIT_OTHER };

/* The evaluation context the checks fill. */
struct sn__rules_ctx {
    struct sn__watch_rules *r;
    const struct sn__watch_obs *obs;
    struct sn_metrics *m;
    struct sn_error *err;
    int rc; /* the first metrics error */
};

/* The state of key, made (zeroed) when new; NULL past the cap. */
struct sn__state *sn__rules_state(struct sn__watch_rules *r, const char *key);
/* The i-th entry of the state map (its key copied into key), without
 * touching it; false past the last. */
bool sn__rules_state_at(struct sn__watch_rules *r, size_t i, char *key,
                        size_t size, struct sn__state **out);
/* Feed x to the slow series key at time now; returns its drift score
 * (the CUSUM sum over the decision interval: 1 at the threshold; NaN in
 * warm-up) in the direction dir (+1 upward, -1 downward, 0 either) and
 * exports it as supernode_drift_score{rule,subject}. floor is the least
 * sigma (noise) the baseline may claim. */
double sn__rules_slow(struct sn__rules_ctx *c, enum sn__rule_id rule,
                      const char *subject, double x, double floor, int dir);
/* Record that rule holds for subject with value and message (printf). */
void sn__rules_hit(struct sn__rules_ctx *c, enum sn__rule_id rule,
                   const char *severity, int kind, const char *part,
                   const char *subject, double value, const char *fmt, ...)
    SN_PRINTF(8, 9);
/* The median of n values (x is reordered); NaN when n is 0. */
double sn__rules_median(double *x, size_t n);
/* The design's coolant flow of one node's cold-plate loop in L/min (0
 * without a spec or liquid cooling), and the accelerators and fabric
 * NICs a node should have (0: the spec does not say). */
double sn__rules_design_flow(const struct sn__watch_rules *r);
int sn__rules_expect_gpus(const struct sn__watch_rules *r);
int sn__rules_expect_nics(const struct sn__watch_rules *r);

/* Whether kind is one of the alternatives of set ("gpu|cpu"). */
bool sn__rules_kind_in(const char *kind, const char *set);

/* The checks, by file. */
void sn__rules_cooling(struct sn__rules_ctx *c);    /* flow, creep, dew, leak */
void sn__rules_sensors(struct sn__rules_ctx *c);    /* sensor drift */
void sn__rules_power(struct sn__rules_ctx *c);      /* psu, feeds */
void sn__rules_devices(struct sn__rules_ctx *c);    /* zombie, missing */
void sn__rules_links(struct sn__rules_ctx *c);      /* degraded, flapping */
void sn__rules_gpu_events(struct sn__rules_ctx *c); /* xid, ecc, remap,
                                                       slowdown */

/* The branch a GPU sits on (its coolant entry), or NULL: a branch named
 * "GPU<index+1>" (Redfish numbers from 1; "GPU<index>" when a "GPU0" is
 * there) or whose name holds the GPU's bus id. */
const struct sn__watch_coolant *
sn__rules_gpu_branch(const struct sn__watch_obs *obs,
                     const struct sn__watch_gpu *g);

/* Dew point (Celsius) of air at t Celsius and relative humidity rh
 * (0..1); NaN when either is not a number or rh <= 0. */
double sn__rules_dew_point(double t, double rh);

#endif
