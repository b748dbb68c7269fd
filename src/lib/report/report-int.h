/* report-int.h (report, internal): the HTML report's page frame and its
 * sections. html.c writes the page (head, CSS for the light and dark
 * themes, the little inline script, the table of contents) and calls
 * each section; a section writes nothing when its data is absent and
 * returns 0. Sections share the frame's helpers to open a section with
 * its id and heading and to write a figure with its caption.
 */
#ifndef SN_REPORT_INT_H
#define SN_REPORT_INT_H

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

#endif
