/* html-int.h (html, internal): the HTML report's page frame and its
 * sections. html.c writes the page (head, CSS for the light and dark
 * themes, the little inline script, the table of contents) and calls
 * each section; a section writes nothing when its data is absent and
 * returns 0. Sections share the frame's helpers to open a section with
 * its id and heading and to write a figure with its caption.
 */
#ifndef SN_HTML_INT_H
#define SN_HTML_INT_H

#if !defined(SN_MODULE_html) && !defined(SN_TESTS)
#error "private to src/lib/html (tests/layers/table)"
#endif

#include "sn/html.h"
#include "sn/render.h"
#include "svg.h"

/* Frame helpers (html.c). id is the anchor; title the heading. */
void sn__html_section_open(struct sn_buf *b, const char *id, const char *title);
void sn__html_section_close(struct sn_buf *b);
void sn__html_figure_open(struct sn_buf *b, const char *id,
                          const char *caption);
void sn__html_figure_close(struct sn_buf *b);
/* Text escaped for HTML element content and attribute values. */
void sn__html_escape(struct sn_buf *b, const char *s);

/* Sections. Each returns 0 or an error code with err. */
int sn__html_design(struct sn_buf *b, const struct sn_html_in *in,
                    struct sn_error *err); /* design.c */
int sn__html_predict(struct sn_buf *b, const struct sn_html_in *in,
                     struct sn_error *err); /* predict.c */
int sn__html_run(struct sn_buf *b, const struct sn_html_in *in,
                 struct sn_error *err); /* run.c */
int sn__html_power(struct sn_buf *b, const struct sn_html_in *in,
                   struct sn_error *err); /* power.c */
int sn__html_history(struct sn_buf *b, const struct sn_html_in *in,
                     struct sn_error *err); /* history.c */

#endif
