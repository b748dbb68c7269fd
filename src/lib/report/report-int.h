/* report-int.h (report, internal): the HTML report's page frame and its
 * sections. html.c writes the page (head, CSS for the light and dark
 * themes, the little inline script, the table of contents) and calls
 * each section; a section writes nothing when its data is absent and
 * returns 0. Sections share the frame's helpers to open a section with
 * its id and heading and to write a figure with its caption.
 */
#ifndef SN_REPORT_INT_H
#define SN_REPORT_INT_H

#if !defined(SN_MODULE_report) && !defined(SN_TESTS)
#error "private to src/lib/report (tests/layers/table)"
#endif

#include "sn/report.h"
#include "svg.h"

/* Frame helpers (html.c). id is the anchor; title the heading. */
void rep_section_open(struct sn_buf *b, const char *id, const char *title);
void rep_section_close(struct sn_buf *b);
void rep_figure_open(struct sn_buf *b, const char *id, const char *caption);
void rep_figure_close(struct sn_buf *b);
/* Text escaped for HTML element content and attribute values. */
void rep_escape(struct sn_buf *b, const char *s);

/* Sections. Each returns 0 or an error code with err. */
int rep_design(struct sn_buf *b, const struct sn_report_html_in *in,
               struct sn_error *err); /* report-design.c */
int rep_predict(struct sn_buf *b, const struct sn_report_html_in *in,
                struct sn_error *err); /* report-predict.c */
int rep_run(struct sn_buf *b, const struct sn_report_html_in *in,
            struct sn_error *err); /* report-run.c */
int rep_power(struct sn_buf *b, const struct sn_report_html_in *in,
              struct sn_error *err); /* report-power.c */
int rep_history(struct sn_buf *b, const struct sn_report_html_in *in,
                struct sn_error *err); /* report-history.c */

/* ---- the collapsed topology (collapse.c) ------------------------------
 *
 * Devices grouped into classes (kind, switch role, inside a supernode or
 * shared) and links between classes grouped by class, medium and
 * bandwidth, with counts: what the Graphviz drawing (plan.c) and the
 * design section draw, so a 10,000-device cluster is a handful of boxes.
 * Counts are over the whole cluster; an edge or class inside a supernode
 * (rep_class_shared() false at both ends) repeats in each of supernodes. */
struct sn_node;
struct sn_topo;
#define REP_NCLASS (4 * 8 * 2)
#define rep_class_kind(c) ((c) / 16)       /* enum sn_node_kind */
#define rep_class_role(c) (((c) / 2) % 8)  /* enum sn_switch_role */
#define rep_class_shared(c) ((c) % 2 == 1) /* outside every supernode */
struct rep_edge {
    int ca, cb; /* classes, ca <= cb */
    int cls;    /* enum sn_link_class */
    int medium; /* enum sn_medium */
    size_t count;
    double bw; /* bytes/s per direction per link */
};
struct rep_collapsed {
    size_t count[REP_NCLASS]; /* devices per class */
    struct rep_edge *e;       /* in order of first appearance */
    size_t ne;
    size_t supernodes;
};
int rep_class_of(const struct sn_node *n);
const char *rep_class_label(int c);
/* Fill c from t; release with rep_collapse_release(). */
void rep_collapse(const struct sn_topo *t, struct rep_collapsed *c);
void rep_collapse_release(struct rep_collapsed *c);

#endif
