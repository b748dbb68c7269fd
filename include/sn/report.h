/* report.h: renderers of every result type, and the HTML report.
 *
 * The renderers compute nothing: they format what the library built
 * (a plan, a prediction, a run, findings) as text, JSON, CSV, DOT,
 * HTML+SVG or the files the runtime reads. Every JSON document's schema
 * id is one of the SN_SCHEMA_* constants of sn/schema.h.
 */
#ifndef SN_REPORT_H
#define SN_REPORT_H

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
 * people, _json the versioned document named by its SN_SCHEMA_*.
 *
 * Four live in src/lib/report/ but are declared beside the structs they
 * render (so the lower headers need not include this one): the plan
 * (sn_report_plan_text/_json, sn_report_ledger_csv, sn_report_topo_dot
 * in sn/plan.h; report/plan.c), bench results (sn_bench_json,
 * sn_bench_render in sn/bench.h; report/bench.c), a diagnosis
 * (sn_diag_render_text/_json/_junit/_health in sn/diagnose.h;
 * report/check.c) and the doctor's checklist (sn_health_report_text/_json
 * in sn/health.h; report/doctor.c). */

struct sn_run;
struct sn_results;
struct sn_store_finding;
struct sn_store_health;

/* runs (`supernode runs`): the list (newest first, as given) */
void sn_report_runs_text(const struct sn_run *runs, size_t n,
                         struct sn_buf *out);
void sn_report_runs_json(const struct sn_run *runs, size_t n,
                         struct sn_buf *out);
/* One run with everything stored of it; f and h may be NULL when their
 * counts are 0. */
struct sn_report_run {
    const struct sn_run *run;
    const struct sn_results *rs;
    const struct sn_store_finding *f;
    size_t nf;
    const struct sn_store_health *h;
    size_t nh;
};
/* Text: the run's facts, its results table, findings, node health. JSON:
 * the SN_SCHEMA_RUN document with every raw sample. */
void sn_report_run_text(const struct sn_report_run *w, struct sn_buf *out);
void sn_report_run_json(const struct sn_report_run *w, struct sn_buf *out);
/* The line that heads check's report of a stored run: "run ID on SPEC,
 * SUITE suite, N ranks" (id: the row it is stored as). */
void sn_report_run_line(int64_t id, const char *spec, const struct sn_run *r,
                        struct sn_buf *out);

struct sn_baseline;
struct sn_baseline_entry;
struct sn_result;

/* baselines (`supernode baseline`): the list, one baseline's subjects */
void sn_report_baselines_text(const struct sn_baseline *list, size_t n,
                              struct sn_buf *out);
void sn_report_baselines_json(const struct sn_baseline *list, size_t n,
                              struct sn_buf *out);
void sn_report_baseline_text(const struct sn_baseline *b, struct sn_buf *out);
void sn_report_baseline_json(const struct sn_baseline *b, struct sn_buf *out);
/* A run against a baseline: one row per result the baseline has, with
 * the comparison sn_diag_vs_baseline() made; unmatched counts the
 * results it lacks. Text ends with the PASS/WARN/FAIL counts. */
struct sn_report_diff_row {
    const struct sn_result *r;
    const struct sn_baseline_entry *e;
    struct sn_diag_cmp cmp;
};
struct sn_report_diff {
    const struct sn_baseline *baseline;
    int64_t run;
    const struct sn_report_diff_row *rows;
    size_t n;
    size_t unmatched;
};
void sn_report_baseline_diff_text(const struct sn_report_diff *d,
                                  struct sn_buf *out);
void sn_report_baseline_diff_json(const struct sn_report_diff *d,
                                  struct sn_buf *out);

struct sn_store_event;

/* events (`supernode events`): the list (a message when empty), and one
 * event with its state (JSON: the state as an object where it parses) */
void sn_report_events_text(const struct sn_store_event *ev, size_t n,
                           struct sn_buf *out);
void sn_report_events_json(const struct sn_store_event *ev, size_t n,
                           struct sn_buf *out);
void sn_report_event_text(const struct sn_store_event *e, struct sn_buf *out);
void sn_report_event_json(const struct sn_store_event *e, struct sn_buf *out);
/* The watch events that held on the hosts of run r (its own, then each
 * other host of its node health h, in that order; newest first within a
 * host) while it ran, to now when it has not finished: read from st into
 * w (released with sn_report_run_events_release()); none when r has no
 * start time, and none of a host whose events cannot be read. */
struct sn_report_run_events {
    struct sn_store_event *ev;
    size_t n, cap;
};
void sn_report_run_events(struct sn_store *st, const struct sn_run *r,
                          const struct sn_store_health *h, size_t nh,
                          double now, struct sn_report_run_events *w);
void sn_report_run_events_release(struct sn_report_run_events *w);
/* As a section of text ("watch events on its hosts while it ran:", a
 * line each); nothing when there are none. */
void sn_report_run_events_text(const struct sn_report_run_events *w,
                               struct sn_buf *out);

struct sn_catalog;

/* catalog (`supernode catalog`): the kinds of entry, in list order */
enum sn_report_catalog_kind {
    SN_REPORT_CATALOG_ACCEL,
    SN_REPORT_CATALOG_SWITCH,
    SN_REPORT_CATALOG_NIC,
    SN_REPORT_CATALOG_CABLE,
    SN_REPORT_CATALOG_MODEL
};
/* The kind a word names ("accelerators", "accelerator", "nic"), or -1
 * with *near a close kind's name (or NULL). */
int sn_report_catalog_kind(const char *word, const char **near);
/* A table per kind (kind -1: all, with the confidence legend), or the
 * SN_SCHEMA_CATALOG document with an array per kind. */
void sn_report_catalog_list(const struct sn_catalog *c, int kind, bool json,
                            struct sn_buf *out);
/* Every field of the entry named name (of any kind, or a model alias)
 * with its source. Returns SN_EINPUT with a suggestion in err, writing
 * nothing, when no entry has that name. */
int sn_report_catalog_show(const struct sn_catalog *c, const char *name,
                           bool json, struct sn_buf *out, struct sn_error *err);

/* spec (`supernode spec`): check's one line ("FILE: ok: ..."), and show:
 * every resolved value as text (people's units) or SN_SCHEMA_SPEC */
void sn_report_spec_summary(const struct sn_spec *s, struct sn_buf *out);
void sn_report_spec_text(const struct sn_spec *s, struct sn_buf *out);
void sn_report_spec_json(const struct sn_spec *s, struct sn_buf *out);

struct sn_coll_result;

/* sim (`supernode sim coll`, `sim pairs`): written row by row. Set the
 * inputs of a zeroed struct, then _begin (the head), _row per row, _end
 * (the tail and legend); _release frees the table, also after an error
 * between rows. A link a what-if changed (--degrade, --fail): */
struct sn_report_change {
    const char *label; /* as the user gave it; found again in t */
    double health;     /* share of its rate; 0 failed */
};
struct sn_report_coll {
    /* inputs */
    const struct sn_topo *t; /* nominal topology: link ids and labels */
    const char *spec;        /* the design's name */
    const struct sn_report_change *changes;
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
void sn_report_coll_begin(struct sn_report_coll *p, struct sn_buf *out);
/* One message size; nominal is read only when links changed. */
void sn_report_coll_row(struct sn_report_coll *p, double bytes, uint64_t count,
                        int root, const struct sn_coll_result *r,
                        const struct sn_coll_result *nominal);
void sn_report_coll_end(struct sn_report_coll *p);
void sn_report_coll_release(struct sn_report_coll *p);

struct sn_report_pairs {
    /* inputs */
    const struct sn_topo *t; /* nominal topology: names, link ids */
    const char *spec;
    const struct sn_report_change *changes;
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
void sn_report_pairs_begin(struct sn_report_pairs *p, struct sn_buf *out);
/* A pair (count 1) or a class of count pairs like it; nominal is read
 * only when links changed. */
void sn_report_pairs_row(struct sn_report_pairs *p, const struct sn_pair *pair,
                         const struct sn_pair *nominal,
                         enum sn_pair_relation rel, uint64_t count);
void sn_report_pairs_end(struct sn_report_pairs *p);
void sn_report_pairs_release(struct sn_report_pairs *p);

struct sn_train_layout;
struct sn_train_result;
struct sn_train_candidate;
struct sn_train_search_stats;
struct sn_goodput_result;

/* sim train (`supernode sim train`): one layout (memory, step time,
 * throughput, goodput; SN_SCHEMA_TRAIN), or with stats set the search's
 * ranking (SN_SCHEMA_TRAIN_SEARCH). Set what the case needs, zero the
 * rest. */
struct sn_report_train {
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
void sn_report_train_text(const struct sn_report_train *w, struct sn_buf *out);
void sn_report_train_json(const struct sn_report_train *w, struct sn_buf *out);
/* A training layout as one line ("tp 8  pp 4  dp 16 ...") for people,
 * and as the JSON object "layout" shared by the documents that hold
 * layouts (train, sweep, validate): tp, pp, dp, cp, ep, [etp for MoE],
 * vpp, mbs, gbs, [seq], recompute, zero, [sp, dtype]; what picks the
 * bracketed ones. */
#define SN_REPORT_LAYOUT_SEQ 1u
#define SN_REPORT_LAYOUT_PRECISION 2u
#define SN_REPORT_LAYOUT_ALL (SN_REPORT_LAYOUT_SEQ | SN_REPORT_LAYOUT_PRECISION)
void sn_report_train_layout_line(const struct sn_train_layout *l,
                                 struct sn_buf *out);
void sn_report_train_layout_json(struct sn_json *j,
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
struct sn_report_infer {
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
void sn_report_infer_text(const struct sn_report_infer *w, struct sn_buf *out);
void sn_report_infer_json(const struct sn_report_infer *w, struct sn_buf *out);

struct sn_validate_report;

/* validate (`supernode validate`): predicted against measured per row,
 * the error summary and worst rows, the error by source and the layout
 * ranking per (source, model, GPU count); or SN_SCHEMA_VALIDATE. */
void sn_report_validate_text(const struct sn_validate_report *rep,
                             struct sn_buf *out);
void sn_report_validate_json(const struct sn_validate_report *rep,
                             struct sn_buf *out);

struct sn_band_pick;
/* A figure's trust in JSON: "band" (sn_report_band_json), the figure at
 * the band's P10 and P90 as "<figure>_p10" and "<figure>_p90", and
 * "gaps", the ids of the known gaps in the mask (docs/model.md). */
void sn_report_trust_json(struct sn_json *j, const struct sn_band_pick *b,
                          const char *figure, double value, unsigned gaps);
/* A band under `key`: {class, label, rows, sources, p10, p50, p90,
 * wanted, wanted_rows, fallback}; null when b is NULL. */
void sn_report_band_json(struct sn_json *j, const char *key,
                         const struct sn_band_pick *b);
/* "band 2,900-3,600, MoE Blackwell, 11 rows from 4 sources" for a figure
 * v (lower_better: a time, divided by the ratios), appended to out; with
 * the class asked for when a parent stood in. */
void sn_report_band_text(struct sn_buf *out, double v, bool lower_better,
                         const struct sn_band_pick *b);
/* The band's ends alone ("2,900-3,600"; "-" without a band). */
void sn_report_band_range(struct sn_buf *out, double v, bool lower_better,
                          const struct sn_band_pick *b);

/* ---- layouts and sweeps (`sim train`, `sim infer`, `sweep`) -------------
 * A training layout as the JSON object "layout" shared by the documents
 * that hold layouts (train, sweep, validate): tp, pp, dp, cp, ep, [etp for
 * MoE], vpp, mbs, gbs, [seq], recompute, zero, [sp, dtype]; what picks
 * the bracketed ones. */
struct sn_json;
struct sn_train_layout;
#define SN_REPORT_LAYOUT_SEQ 1u
#define SN_REPORT_LAYOUT_PRECISION 2u
#define SN_REPORT_LAYOUT_ALL (SN_REPORT_LAYOUT_SEQ | SN_REPORT_LAYOUT_PRECISION)
void sn_report_train_layout_json(struct sn_json *j,
                                 const struct sn_train_layout *l,
                                 unsigned what);
/* A serving layout as the JSON object "layout" (tp, ep, pp, dp_attention,
 * tbo, batch) and its prediction as "result" (memory, largest batch,
 * TTFT, TPOT, tokens/s, the decode step's parts): `sim infer` and
 * `sweep --infer` (SN_SCHEMA_INFER, SN_SCHEMA_SWEEP_INFER). */
struct sn_infer_layout;
struct sn_infer_result;
void sn_report_infer_layout_json(struct sn_json *j,
                                 const struct sn_infer_layout *l);
void sn_report_infer_result_json(struct sn_json *j,
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
void sn_report_sweep_text(const struct sn_sweep *s,
                          const struct sn_sweep_point *pts, size_t n,
                          struct sn_buf *out);
void sn_report_sweep_json(const struct sn_sweep *s,
                          const struct sn_sweep_point *pts, size_t n,
                          struct sn_buf *out);
void sn_report_sweep_infer_text(const struct sn_sweep_infer *s,
                                const struct sn_sweep_infer_point *pts,
                                size_t n, struct sn_buf *out);
void sn_report_sweep_infer_json(const struct sn_sweep_infer *s,
                                const struct sn_sweep_infer_point *pts,
                                size_t n, struct sn_buf *out);

#endif
