/* report.h: renderers of every result type, and the HTML report.
 *
 * The renderers compute nothing: they format what the library built
 * (a plan, a prediction, a run, findings) as text, JSON, CSV, DOT,
 * HTML+SVG or the files the runtime reads. Every JSON document's schema
 * id is one of the SN_SCHEMA_* constants below, so a document's kind and
 * version are written in one place.
 */
#ifndef SN_REPORT_H
#define SN_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "sn/diagnose.h" /* struct sn_diag_cmp in a diff row */
#include "sn/pairs.h"    /* enum sn_pair_relation */
#include "sn/util.h"

struct sn_spec;
struct sn_topo;
struct sn_store;
struct sn_model_info;

/* ---- schema ids -------------------------------------------------------- */
/* Every JSON document's "schema": supernode.<kind>/<version>. These are
 * the only place a schema id is written (tests/banned checks it): a
 * renderer writes the constant, a parser compares with it. A document
 * whose shape changes incompatibly gets a new version here. */
#define SN_SCHEMA_REPORT "supernode.report/1"
#define SN_SCHEMA_SPEC "supernode.spec/1"                 /* spec show */
#define SN_SCHEMA_CATALOG "supernode.catalog/1"           /* catalog */
#define SN_SCHEMA_PLAN "supernode.plan/1"                 /* plan */
#define SN_SCHEMA_COLL "supernode.coll/1"                 /* sim coll */
#define SN_SCHEMA_PAIRS "supernode.pairs/1"               /* sim pairs */
#define SN_SCHEMA_TRAIN "supernode.train/1"               /* sim train */
#define SN_SCHEMA_TRAIN_SEARCH "supernode.train-search/1" /* --search */
#define SN_SCHEMA_INFER "supernode.infer/1"               /* sim infer */
#define SN_SCHEMA_SWEEP "supernode.sweep/1"               /* sweep */
#define SN_SCHEMA_VALIDATE "supernode.validate/1"         /* validate */
#define SN_SCHEMA_BENCH "supernode.bench/1"               /* bench */
#define SN_SCHEMA_CHECK "supernode.check/1"               /* check's findings */
#define SN_SCHEMA_RUN "supernode.run/1"             /* runs show, import */
#define SN_SCHEMA_RUNS "supernode.runs/1"           /* runs list */
#define SN_SCHEMA_BASELINE "supernode.baseline/1"   /* baseline show */
#define SN_SCHEMA_BASELINES "supernode.baselines/1" /* baseline list */
#define SN_SCHEMA_BASELINE_DIFF "supernode.baseline-diff/1"
#define SN_SCHEMA_DOCTOR "supernode.doctor/1" /* doctor */
#define SN_SCHEMA_EVENTS "supernode.events/1" /* events list */
#define SN_SCHEMA_EVENT "supernode.event/1"   /* events show */
/* Not JSON: the tag that opens a node's health record on the wire
 * between ranks (store/health.c), versioned the same way. */
#define SN_SCHEMA_HEALTH_PACK "supernode.health-pack/1"

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

/* ---- the HTML report (`supernode report`) ------------------------------ */

/* What the report is made from. Every pointer may be NULL: a section
 * appears only for what was given. The caller owns everything. */
struct sn_report_html_in {
    const char *title;                 /* page title; NULL: from the spec */
    const char *spec_path;             /* shown in the header */
    const struct sn_spec *spec;        /* design section */
    const struct sn_topo *topo;        /* built from spec */
    const struct sn_model_info *model; /* predictions for a model */
    int gpus;                          /* accelerators for --model (0: all) */
    struct sn_store *store;            /* runs and history */
    const int64_t *runs;               /* run ids to show (store) */
    size_t nruns;
    const char *baseline; /* baseline name for the run curves */
    double now;           /* generation time (unix s), shown */
};

/* Writes one self-contained HTML document (inline SVG and CSS, no
 * network fetch) to out. Returns 0, or SN_EINPUT/SN_ERUNTIME with err. */
int sn_report_html(const struct sn_report_html_in *in, struct sn_buf *out,
                   struct sn_error *err);

#endif
