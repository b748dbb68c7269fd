/* svg.h (html, internal): a small SVG toolkit for the HTML report:
 * linear and log scales, ticks at nice numbers, axes, text that fits
 * its box, colour scales with a legend. Every figure is written into an
 * sn_buf as an inline <svg> element; text is XML-escaped here, so
 * callers pass raw strings. Colours are never the only carrier of a
 * value: callers print the value or a pattern beside it.
 */
#ifndef SN_HTML_SVG_H
#define SN_HTML_SVG_H

#include <stdbool.h>
#include <stddef.h>

#include "sn/util.h"

/* A scale maps a data interval onto a pixel interval. */
struct sn__svg_scale {
    double d0, d1; /* data domain */
    double p0, p1; /* pixel range */
    bool log;      /* log10 scale (domain > 0) */
};

double sn__svg_map(const struct sn__svg_scale *s, double v);

/* Ticks at nice numbers (1, 2, 5 × 10^k; powers of ten, 2 and 5 on a log
 * scale) covering [d0, d1]; at most max ticks written to t. Returns the
 * count. sn__svg_nice_domain widens [*lo, *hi] to tick boundaries. */
size_t sn__svg_ticks(const struct sn__svg_scale *s, size_t max, double *t);
void sn__svg_nice_domain(double *lo, double *hi, bool log);

/* A value as a short tick label with SI or binary unit prefix
 * ("512 KiB", "1.5 G", "200"). unit may be "" or e.g. "B" or "B/s". */
const char *sn__svg_fmt(double v, const char *unit, bool binary, char *buf,
                        size_t n);

/* Elements. Text is escaped; class names are the page's CSS classes. */
void sn__svg_open(struct sn_buf *b, double w, double h, const char *label);
void sn__svg_close(struct sn_buf *b);
void sn__svg_text(struct sn_buf *b, double x, double y, const char *anchor,
                  const char *cls, const char *text);
/* Text shortened with an ellipsis so it fits width px at the font size
 * px (a conservative per-character width); the full text goes into a
 * <title> so hover shows it. */
void sn__svg_text_fit(struct sn_buf *b, double x, double y, double width,
                      double px, const char *anchor, const char *cls,
                      const char *text);
void sn__svg_rect(struct sn_buf *b, double x, double y, double w, double h,
                  const char *cls, const char *fill, const char *title);
void sn__svg_line(struct sn_buf *b, double x1, double y1, double x2, double y2,
                  const char *cls);
/* A polyline through n points (x[i], y[i]) already in pixels; NaN
 * values break the line. */
void sn__svg_path(struct sn_buf *b, const double *x, const double *y, size_t n,
                  const char *cls);
/* A point marker (circle, square, triangle by shape 0/1/2) so series are
 * told apart without colour. */
void sn__svg_marker(struct sn_buf *b, double x, double y, int shape,
                    const char *cls, const char *title);

/* An x axis along the bottom of the plot area and a y axis along its
 * left, with ticks, grid lines and titles. */
void sn__svg_axis_x(struct sn_buf *b, const struct sn__svg_scale *s, double y,
                    double gy0, const char *title, const char *unit, bool bin);
void sn__svg_axis_y(struct sn_buf *b, const struct sn__svg_scale *s, double x,
                    double gx1, const char *title, const char *unit, bool bin);

/* A sequential colour scale for a share in [0, 1] (1 = as designed),
 * perceptually ordered and readable by colour-blind viewers; writes
 * "#rrggbb". sn__svg_legend draws the scale with its values. */
const char *sn__svg_color_share(double share, char buf[8]);
void sn__svg_legend_share(struct sn_buf *b, double x, double y, double w,
                          const char *title);

/* ---- added with the toolkit ---------------------------------------------
 *
 * CSS classes the toolkit writes (the page defines them): "axis" (group),
 * "ax" axis lines and tick marks, "grid" grid lines, "tk" tick labels,
 * "at" axis titles, "legend"/"lg" the share legend and its text. */

/* Average glyph width of the page's sans-serif font, in em, taken large
 * so fitted text stays inside its box. */
#define SVG_CHAR_EM 0.62
/* Most ticks an axis draws. */
#define SVG_TICKS_MAX 16
/* Distance from a y axis to the centre of its turned title: room for
 * tick labels of up to eight characters. */
#define SVG_AXIS_Y_GAP 56

/* Text escaped for XML content and attribute values; control characters
 * and invalid UTF-8 become "\xNN" first (sn_buf_put_clean). */
void sn__svg_escape(struct sn_buf *b, const char *s);
/* The width sn__svg_text_fit assumes text takes at font size px. */
double sn__svg_text_width(const char *text, double px);
/* Ticks at powers of two (every 1, 2, 5 or 10 octaves), for log axes of
 * sizes in bytes; sn__svg_axis_* use them when a log axis is binary. */
size_t sn__svg_ticks_bin(const struct sn__svg_scale *s, size_t max, double *t);

#endif
