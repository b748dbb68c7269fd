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

#include "sn/util.h"

struct sn_spec;
struct sn_topo;
struct sn_store;
struct sn_model_info;

/* ---- schema ids -------------------------------------------------------- */
/* (the renderers' schema constants are added here as they move in) */
#define SN_SCHEMA_REPORT "supernode.report/1"
#define SN_SCHEMA_POWER "supernode.power/1" /* bench power */

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
