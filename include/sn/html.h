/* html.h: the HTML report (`supernode report`): one self-contained page
 * (inline SVG and CSS) with the design, the model's predictions, stored
 * runs against what the design expects, their history and a bench power
 * curve. The top floor of the library: it asks the plan, the models and
 * the store, and writes with the renderers (sn/render.h) and its own SVG
 * toolkit (src/lib/html/svg.h). Sections and layout: docs/report.md.
 */
#ifndef SN_HTML_H
#define SN_HTML_H

#include <stddef.h>
#include <stdint.h>

#include "sn/util.h"

struct sn_spec;
struct sn_topo;
struct sn_store;
struct sn_model_info;
struct sn_bench_power_curve;

/* What the report is made from. Every pointer may be NULL: a section
 * appears only for what was given. The caller owns everything. */
struct sn_html_in {
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
    const struct sn_bench_power_curve *power; /* bench power's curve */
    /* the overrides (--set KEY=VALUE) already applied to spec, in order:
     * the size sweep re-loads spec_path at each size and applies them
     * again, so its points are of the same design as the rest */
    const char *const *set_keys;
    const char *const *set_values;
    size_t nsets;
};

/* Writes one self-contained HTML document (inline SVG and CSS, no
 * network fetch) to out. Returns 0, or SN_EINPUT/SN_ERUNTIME with err. */
int sn_html_report(const struct sn_html_in *in, struct sn_buf *out,
                   struct sn_error *err);

#endif
