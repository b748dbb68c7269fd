/* render.h: the renderers of every result, each named
 * sn_render_<result>_<format>.
 *
 * The renderers compute nothing: they format what the library built (a
 * plan, a prediction, a run, findings) as text, JSON, CSV, DOT or JUnit.
 * Every JSON document's schema id is one of the SN_SCHEMA_* constants of
 * sn/schema.h. The module sits above every module whose results it
 * renders; the HTML report (sn/html.h) and the CLI sit above it.
 *
 * To add a renderer of a result: 1. sn_render_<result>_<format> here
 * 2. src/lib/render/<command>.c, named for the command that prints it
 * 3. a JSON document's SN_SCHEMA_* constant in sn/schema.h  4. its CLI
 * golden case.
 */
#ifndef SN_RENDER_H
#define SN_RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "sn/diagnose.h" /* struct sn_diag_cmp in a diff row */
#include "sn/pairs.h"    /* enum sn_pair_relation */
#include "sn/schema.h"
#include "sn/util.h"

struct sn_spec;
struct sn_topo;
struct sn_store;
struct sn_model_info;
struct sn_bench_power_curve;

/* ---- text and JSON renderers, by result type ---------------------------
 * Each writes one result as the CLI prints it into out (appended; the
 * caller owns out and everything passed in). They compute nothing: the
 * figures come from the library that made the result. _text is for
 * people, _json the versioned document named by its SN_SCHEMA_*. */

struct sn_run;
struct sn_results;
struct sn_store_finding;
struct sn_store_health;

/* runs (`supernode runs`): the list (newest first, as given) */
void sn_render_runs_text(const struct sn_run *runs, size_t n,
                         struct sn_buf *out);
void sn_render_runs_json(const struct sn_run *runs, size_t n,
                         struct sn_buf *out);
/* One run with everything stored of it; f and h may be NULL when their
 * counts are 0. */
struct sn_render_run {
    const struct sn_run *run;
    const struct sn_results *rs;
    const struct sn_store_finding *f;
    size_t nf;
    const struct sn_store_health *h;
    size_t nh;
};
/* Text: the run's facts, its results table, findings, node health. JSON:
 * the SN_SCHEMA_RUN document with every raw sample. */
void sn_render_run_text(const struct sn_render_run *w, struct sn_buf *out);
void sn_render_run_json(const struct sn_render_run *w, struct sn_buf *out);
/* The line that heads check's report of a stored run: "run ID on SPEC,
 * SUITE suite, N ranks" (id: the row it is stored as). */
void sn_render_run_line(int64_t id, const char *spec, const struct sn_run *r,
                        struct sn_buf *out);

struct sn_baseline;
struct sn_baseline_entry;
struct sn_result;

/* baselines (`supernode baseline`): the list, one baseline's subjects */
void sn_render_baselines_text(const struct sn_baseline *list, size_t n,
                              struct sn_buf *out);
void sn_render_baselines_json(const struct sn_baseline *list, size_t n,
                              struct sn_buf *out);
void sn_render_baseline_text(const struct sn_baseline *b, struct sn_buf *out);
void sn_render_baseline_json(const struct sn_baseline *b, struct sn_buf *out);
/* A run against a baseline: one row per result the baseline has, with
 * the comparison sn_diag_vs_baseline() made; unmatched counts the
 * results it lacks. Text ends with the PASS/WARN/FAIL counts. */
struct sn_render_diff_row {
    const struct sn_result *r;
    const struct sn_baseline_entry *e;
    struct sn_diag_cmp cmp;
};
struct sn_render_diff {
    const struct sn_baseline *baseline;
    int64_t run;
    const struct sn_render_diff_row *rows;
    size_t n;
    size_t unmatched;
};
void sn_render_baseline_diff_text(const struct sn_render_diff *d,
                                  struct sn_buf *out);
void sn_render_baseline_diff_json(const struct sn_render_diff *d,
                                  struct sn_buf *out);

struct sn_store_event;

/* events (`supernode events`): the list (a message when empty), and one
 * event with its state (JSON: the state as an object where it parses) */
void sn_render_events_text(const struct sn_store_event *ev, size_t n,
                           struct sn_buf *out);
void sn_render_events_json(const struct sn_store_event *ev, size_t n,
                           struct sn_buf *out);
void sn_render_event_text(const struct sn_store_event *e, struct sn_buf *out);
void sn_render_event_json(const struct sn_store_event *e, struct sn_buf *out);
/* The watch events that held on the hosts of run r (its own, then each
 * other host of its node health h, in that order; newest first within a
 * host) while it ran, to now when it has not finished: read from st into
 * w (released with sn_render_run_events_release()); none when r has no
 * start time, and none of a host whose events cannot be read. */
struct sn_render_run_events {
    struct sn_store_event *ev;
    size_t n, cap;
};
void sn_render_run_events(struct sn_store *st, const struct sn_run *r,
                          const struct sn_store_health *h, size_t nh,
                          double now, struct sn_render_run_events *w);
void sn_render_run_events_release(struct sn_render_run_events *w);
/* As a section of text ("watch events on its hosts while it ran:", a
 * line each); nothing when there are none. */
void sn_render_run_events_text(const struct sn_render_run_events *w,
                               struct sn_buf *out);

struct sn_catalog;

/* catalog (`supernode catalog`): the kinds of entry, in list order */
enum sn_render_catalog_kind {
    SN_RENDER_CATALOG_ACCEL,
    SN_RENDER_CATALOG_SWITCH,
    SN_RENDER_CATALOG_NIC,
    SN_RENDER_CATALOG_CABLE,
    SN_RENDER_CATALOG_MODEL
};
/* The kind a word names ("accelerators", "accelerator", "nic"), or -1
 * with *near a close kind's name (or NULL). */
int sn_render_catalog_kind(const char *word, const char **near);
/* A table per kind (kind -1: all, with the confidence legend), or the
 * SN_SCHEMA_CATALOG document with an array per kind. */
void sn_render_catalog_list(const struct sn_catalog *c, int kind, bool json,
                            struct sn_buf *out);
/* Every field of the entry named name (of any kind, or a model alias)
 * with its source. Returns SN_EINPUT with a suggestion in err, writing
 * nothing, when no entry has that name. */
int sn_render_catalog_show(const struct sn_catalog *c, const char *name,
                           bool json, struct sn_buf *out, struct sn_error *err);

/* spec (`supernode spec`): check's one line ("FILE: ok: ..."), and show:
 * every resolved value as text (people's units) or SN_SCHEMA_SPEC */
void sn_render_spec_summary(const struct sn_spec *s, struct sn_buf *out);
void sn_render_spec_text(const struct sn_spec *s, struct sn_buf *out);
void sn_render_spec_json(const struct sn_spec *s, struct sn_buf *out);

struct sn_coll_result;

/* sim (`supernode sim coll`, `sim pairs`): written row by row. Set the
 * inputs of a zeroed struct, then _begin (the head), _row per row, _end
 * (the tail and legend); _release frees the table, also after an error
 * between rows. A link a what-if changed (--degrade, --fail): */
struct sn_render_change {
    const char *label; /* as the user gave it; found again in t */
    double health;     /* share of its rate; 0 failed */
};
struct sn_render_coll {
    /* inputs */
    const struct sn_topo *t; /* nominal topology: link ids and labels */
    const char *spec;        /* the design's name */
    const struct sn_render_change *changes;
    size_t nchanges;          /* rows then carry the nominal busbw too */
    int op, algo;             /* enum sn_coll_op, the algorithm requested */
    const char *group, *type; /* "cluster", "domain 0"...; nccl-tests type */
    uint32_t ranks;
    bool json;
    /* the renderer's */
    struct sn_buf *out;
    struct sn_json j;
    struct sn_table tb;
};
void sn_render_coll_begin(struct sn_render_coll *p, struct sn_buf *out);
/* One message size; nominal is read only when links changed. */
void sn_render_coll_row(struct sn_render_coll *p, double bytes, uint64_t count,
                        int root, const struct sn_coll_result *r,
                        const struct sn_coll_result *nominal);
void sn_render_coll_end(struct sn_render_coll *p);
void sn_render_coll_release(struct sn_render_coll *p);

struct sn_render_pairs {
    /* inputs */
    const struct sn_topo *t; /* nominal topology: names, link ids */
    const char *spec;
    const struct sn_render_change *changes;
    size_t nchanges;
    uint32_t ranks;
    bool every; /* a row per pair; else per class of equal pairs */
    bool json;
    /* the renderer's */
    struct sn_buf *out;
    struct sn_json j;
    struct sn_table tb;
    uint64_t total, lowered; /* pairs seen, those the changes lowered */
};
void sn_render_pairs_begin(struct sn_render_pairs *p, struct sn_buf *out);
/* A pair (count 1) or a class of count pairs like it; nominal is read
 * only when links changed. */
void sn_render_pairs_row(struct sn_render_pairs *p, const struct sn_pair *pair,
                         const struct sn_pair *nominal,
                         enum sn_pair_relation rel, uint64_t count);
void sn_render_pairs_end(struct sn_render_pairs *p);
void sn_render_pairs_release(struct sn_render_pairs *p);

struct sn_train_layout;
struct sn_train_result;
struct sn_train_candidate;
struct sn_train_search_stats;
struct sn_goodput_result;

/* sim train (`supernode sim train`): one layout (memory, step time,
 * throughput, goodput; SN_SCHEMA_TRAIN), or with stats set the search's
 * ranking (SN_SCHEMA_TRAIN_SEARCH). Set what the case needs, zero the
 * rest. */
struct sn_render_train {
    const struct sn_spec *spec; /* name, accelerator, scale-up domain */
    const struct sn_model_info *model;
    int gpus;
    const struct sn_train_layout *layout; /* search: its gbs, seq, dtype */
    /* one layout */
    const struct sn_train_result *result;
    const struct sn_goodput_result *goodput; /* NULL: not computed... */
    const char *goodput_why;                 /* ...for this reason */
    /* the search */
    const struct sn_train_search_stats *stats;
    const struct sn_train_candidate *top; /* ranked, ntop of them */
    size_t ntop;
    size_t explain; /* text: the explain-th of top in full (0: none) */
    double peak;    /* text: the dense peak FLOP/s of layout's dtype */
    /* no layout fits (result's memory does not, or ntop is 0): the
     * smallest count at which one does, searched in multiples of the
     * spec's node up to max_gpus (0: none up to there) */
    int min_gpus, max_gpus;
    /* the software profile the figures are for; software_assumed: the
     * user gave none, so the figure is the best recipe's and `plain`
     * (one layout) the same layout on the plain eager stack */
    const char *software, *host_cpu;
    bool software_assumed;
    const struct sn_train_result *plain;
};
void sn_render_train_text(const struct sn_render_train *w, struct sn_buf *out);
void sn_render_train_json(const struct sn_render_train *w, struct sn_buf *out);
/* A training layout as one line ("tp 8  pp 4  dp 16 ...") for people,
 * and as the JSON object "layout" shared by the documents that hold
 * layouts (train, sweep, validate): tp, pp, dp, cp, ep, [etp for MoE],
 * vpp, mbs, gbs, [seq], recompute, zero, [sp, dtype]; what picks the
 * bracketed ones. */
#define SN_RENDER_LAYOUT_SEQ 1u
#define SN_RENDER_LAYOUT_PRECISION 2u
#define SN_RENDER_LAYOUT_ALL (SN_RENDER_LAYOUT_SEQ | SN_RENDER_LAYOUT_PRECISION)
void sn_render_train_layout_line(const struct sn_train_layout *l,
                                 struct sn_buf *out);
void sn_render_train_layout_json(struct sn_json *j,
                                 const struct sn_train_layout *l,
                                 unsigned what);

struct sn_infer_layout;
struct sn_infer_work;
struct sn_infer_result;
struct sn_infer_point;
struct sn_infer_search_stats;
struct sn_infer_disagg;
struct sn_infer_disagg_stats;
struct sn_infer_served_search;

/* sim infer (`supernode sim infer`): serving one layout, the search's
 * throughput-latency front (stats set) or disaggregated prefill and
 * decode (disagg set); text, or the SN_SCHEMA_INFER document whose
 * "mode" says which. */
struct sn_render_infer {
    const struct sn_spec *spec; /* name, accelerator, scale-up domain */
    const struct sn_model_info *model;
    int gpus;
    const struct sn_infer_work *work;     /* isl, osl, precisions, mtp */
    const struct sn_infer_layout *layout; /* asked for (not the search) */
    const struct sn_infer_result *result; /* one layout */
    /* the search: n points, the front first, within the limits (s, 0:
     * none) */
    const struct sn_infer_search_stats *stats;
    const struct sn_infer_point *points;
    size_t npoints;
    double ttft_limit, tpot_limit;
    const struct sn_infer_disagg *disagg; /* disaggregated */
    /* served under a load (one layout, or the search's best); NULL: the
     * latencies are an idle replica's */
    const struct sn_infer_load *load;
    const struct sn_infer_served *served;
    /* the search under a load: how many layouts were served; limits
     * are then judged at the served percentile */
    const struct sn_infer_served_search *sserved;
    double percentile;
    /* the disaggregated search (disagg its best, unless !dstats->found) */
    const struct sn_infer_disagg_stats *dstats;
};
void sn_render_infer_text(const struct sn_render_infer *w, struct sn_buf *out);
void sn_render_infer_json(const struct sn_render_infer *w, struct sn_buf *out);

struct sn_validate_report;

/* validate (`supernode validate`): predicted against measured per row,
 * the error summary and worst rows, the error by source and the layout
 * ranking per (source, model, GPU count); or SN_SCHEMA_VALIDATE. */
void sn_render_validate_text(const struct sn_validate_report *rep,
                             struct sn_buf *out);
void sn_render_validate_json(const struct sn_validate_report *rep,
                             struct sn_buf *out);

struct sn_band_pick;
/* A figure's trust in JSON: "band" (sn_render_band_json), the figure at
 * the band's P10 and P90 as "<figure>_p10" and "<figure>_p90", and
 * "gaps", the ids of the known gaps in the mask (docs/model.md). */
void sn_render_trust_json(struct sn_json *j, const struct sn_band_pick *b,
                          const char *figure, double value, unsigned gaps);
/* A band under `key`: {class, label, rows, sources, p10, p50, p90,
 * wanted, wanted_rows, fallback}; null when b is NULL. */
void sn_render_band_json(struct sn_json *j, const char *key,
                         const struct sn_band_pick *b);
/* "band 2,900-3,600, MoE Blackwell, 11 rows from 4 sources" for a figure
 * v (lower_better: a time, divided by the ratios), appended to out; with
 * the class asked for when a parent stood in. */
void sn_render_band_text(struct sn_buf *out, double v, bool lower_better,
                         const struct sn_band_pick *b);
/* The band's ends alone ("2,900-3,600"; "-" without a band). */
void sn_render_band_range(struct sn_buf *out, double v, bool lower_better,
                          const struct sn_band_pick *b);

/* ---- layouts and sweeps (`sim train`, `sim infer`, `sweep`) ------------- */
/* A serving layout as the JSON object "layout" (tp, ep, pp, dp_attention,
 * tbo, batch) and its prediction as "result" (memory, largest batch,
 * TTFT, TPOT, tokens/s, the decode step's parts): `sim infer` and
 * `sweep --infer` (SN_SCHEMA_INFER, SN_SCHEMA_SWEEP_INFER). */
struct sn_infer_layout;
struct sn_infer_result;
void sn_render_infer_layout_json(struct sn_json *j,
                                 const struct sn_infer_layout *l);
void sn_render_infer_result_json(struct sn_json *j,
                                 const struct sn_infer_result *r);

/* sweep (`supernode sweep`): training, a row per value (the best layout,
 * goodput, links, switch chips, power; the sweet spot marked) as a table
 * with its legend or SN_SCHEMA_SWEEP; serving (`--infer`), a row per
 * value (the best layout and batch within the limits, TTFT, TPOT, tokens/s
 * per accelerator and per user, or why there is none) as a table or
 * SN_SCHEMA_SWEEP_INFER. */
struct sn_sweep;
struct sn_sweep_point;
struct sn_sweep_infer;
struct sn_sweep_infer_point;
void sn_render_sweep_text(const struct sn_sweep *s,
                          const struct sn_sweep_point *pts, size_t n,
                          struct sn_buf *out);
void sn_render_sweep_json(const struct sn_sweep *s,
                          const struct sn_sweep_point *pts, size_t n,
                          struct sn_buf *out);
void sn_render_sweep_infer_text(const struct sn_sweep_infer *s,
                                const struct sn_sweep_infer_point *pts,
                                size_t n, struct sn_buf *out);
void sn_render_sweep_infer_json(const struct sn_sweep_infer *s,
                                const struct sn_sweep_infer_point *pts,
                                size_t n, struct sn_buf *out);

/* ---- the plan (`supernode plan`; plan.c) ---------------------------- */

struct sn_plan;

/* The text summary, an engineering document with units and WARN lines. */
void sn_render_plan_text(const struct sn_plan *p, struct sn_buf *out);
/* The JSON document, schema SN_SCHEMA_PLAN, stable keys. */
void sn_render_plan_json(const struct sn_plan *p, struct sn_buf *out);
/* The cable ledger: one CSV row per link (fabric links first, then host
 * links): id, label, both endpoints, class, medium, length, bandwidth. */
void sn_render_ledger_csv(const struct sn_topo *t, struct sn_buf *out);
/* Graphviz of the topology with repeated units collapsed: one supernode
 * drawn for all, devices of a kind as one node with a count, links
 * between kinds as one edge with a count. Small topologies (max_nodes or
 * fewer devices) are drawn device by device. */
void sn_render_topo_dot(const struct sn_topo *t, size_t max_nodes,
                        struct sn_buf *out);

/* ---- bench results (`supernode bench`; bench.c) ---------------------- */

struct sn_bench_results;

/* The results as an SN_SCHEMA_BENCH JSON document (docs/bench.md). */
void sn_render_bench_json(const struct sn_bench_results *res,
                          struct sn_buf *out);
/* The results as text tables in the anchors' column names (nccl-tests for
 * collectives, STREAM for memory, nvbandwidth-style matrices for pairs,
 * OSU for latency). */
void sn_render_bench_text(const struct sn_bench_results *res,
                          struct sn_buf *out);

/* ---- bench power's curve (`supernode bench power`; power.c) ---------- */

struct sn_bench_power_curve;

/* The curve as text: one row per point with a bar of its throughput,
 * then the three points in words. */
void sn_render_power_text(const struct sn_bench_power_curve *c,
                          struct sn_buf *out);
/* The curve as a JSON document, SN_SCHEMA_POWER (docs/bench.md). */
void sn_render_power_json(const struct sn_bench_power_curve *c,
                          struct sn_buf *out);

/* ---- a diagnosis (`supernode check`; check.c) ------------------------ */

struct sn_diag_report;

/* The report for people: verdict, findings with evidence and next step,
 * a count of verdicts per kind of subject, and the node health section
 * when the run has doctor checks. */
void sn_render_diag_text(const struct sn_diag_report *r, bool verbose,
                         struct sn_buf *out);
/* The node health section alone: per host (in the order they come), the
 * count of each status and every check that did not pass, worst first,
 * with the remedy of each WARN (and of each FAIL when fail_remedies).
 * The SKIPs are listed one by one only when verbose; else one line
 * counts them. Nothing for n = 0. */
void sn_render_diag_health(const struct sn_store_health *h, size_t n,
                           bool fail_remedies, bool verbose,
                           struct sn_buf *out);
/* The SN_SCHEMA_CHECK JSON document; run_id 0 leaves it out. */
void sn_render_diag_json(const struct sn_diag_report *r, int64_t run_id,
                         const char *spec_name, struct sn_buf *out);
/* JUnit XML for CI: one test case per device, pair and link verdict, per
 * systemic or collective finding and per doctor check (a FAIL fails, a
 * SKIP is skipped); every case whose verdict is FAIL
 * carries one <failure> (a slow pair's names the link that explains it),
 * WARN findings go to <system-out>. */
void sn_render_diag_junit(const struct sn_diag_report *r,
                          const char *suite_name, struct sn_buf *out);

/* ---- the doctor's checklist (`supernode doctor`; doctor.c) ----------- */

struct sn_health_report;

/* Append the report as JSON, SN_SCHEMA_DOCTOR:
 * {"schema", "host", "fsroot", "summary": {pass, warn, fail, skip,
 * status}, "checks": [{name, status, subject, evidence, remedy}]}. */
void sn_render_health_json(const struct sn_health_report *rep,
                           struct sn_buf *out);
/* Append the report as a checklist for people: one line per check
 * ("FAIL pcie.link 0000:17:00.0 gpu ...: evidence"), the remedy indented
 * under every check that is not a pass, and a summary line. */
void sn_render_health_text(const struct sn_health_report *rep,
                           struct sn_buf *out);

#endif
