/* svg.c (html): the HTML report's SVG toolkit: scales, nice ticks,
 * tick labels with unit prefixes, escaped and fitted text, shapes, axes
 * and the share colour scale. Everything is written into an sn_buf;
 * styling is left to the page's CSS classes, so elements stay short.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "svg.h"

/* ---- numbers ------------------------------------------------------------ */

/* A pixel coordinate with one decimal and no trailing ".0", so a figure of
 * thousands of elements stays small. Non-finite values become 0. */
static void num(struct sn_buf *b, double v)
{
    char t[32];
    int n;

    if (!isfinite(v))
        v = 0;
    v = round(v * 10) / 10;
    if (v == 0)
        v = 0; /* no "-0" */
    n = snprintf(t, sizeof(t), "%.1f", v);
    if (n > 2 && t[n - 1] == '0' && t[n - 2] == '.')
        t[n - 2] = '\0';
    sn_buf_puts(b, t);
}

/* An attribute ` name="v"`. */
static void attr_num(struct sn_buf *b, const char *name, double v)
{
    sn_buf_printf(b, " %s=\"", name);
    num(b, v);
    sn_buf_putc(b, '"');
}

static void attr_str(struct sn_buf *b, const char *name, const char *v)
{
    if (!v || !*v)
        return;
    sn_buf_printf(b, " %s=\"", name);
    sn__svg_escape(b, v);
    sn_buf_putc(b, '"');
}

double sn__svg_map(const struct sn__svg_scale *s, double v)
{
    double a = s->d0, z = s->d1;

    if (s->log) {
        /* the domain is positive by contract; guard against a caller's
         * zero so a point lands on the edge instead of at -inf */
        a = log10(fmax(a, DBL_MIN));
        z = log10(fmax(z, DBL_MIN));
        v = log10(fmax(v, DBL_MIN));
    }
    if (z == a)
        return (s->p0 + s->p1) / 2;
    return s->p0 + (v - a) / (z - a) * (s->p1 - s->p0);
}

/* The smallest 1, 2 or 5 x 10^k at least x (x > 0). */
static double nice_step(double x)
{
    double p = pow(10, floor(log10(x)));
    double m = x / p;

    if (m <= 1 + 1e-9)
        return p;
    if (m <= 2 + 1e-9)
        return 2 * p;
    if (m <= 5 + 1e-9)
        return 5 * p;
    return 10 * p;
}

static size_t ticks_linear(double lo, double hi, size_t max, double *t)
{
    double step = nice_step((hi - lo) / (double)(max > 1 ? max - 1 : 1));
    double k0, k1;
    size_t n = 0;

    /* a narrow domain between two ticks of the first step gets finer
     * steps (5, 2, 1 under it) until two ticks fall inside */
    for (int i = 0; i < 6; i++) {
        k0 = ceil(lo / step - 1e-9);
        k1 = floor(hi / step + 1e-9);
        if (k1 - k0 >= 1 || max < 2)
            break;
        step = nice_step(step * 0.45);
    }
    if (k1 - k0 + 1 > (double)max || k1 < k0) {
        t[0] = lo; /* nothing nice fits: the ends, labelled */
        t[1] = hi;
        return max < 2 ? 1 : 2;
    }
    for (double k = k0; k <= k1 && n < max; k++) {
        double v = k * step;
        t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
    }
    return n;
}

/* Log ticks: powers of ten (every m-th when there are too many), with 2
 * and 5 between them when the domain spans under three decades. */
static size_t ticks_log(double lo, double hi, size_t max, double *t)
{
    int e0 = (int)floor(log10(lo) + 1e-9), e1 = (int)ceil(log10(hi) - 1e-9);
    int span = e1 - e0, every = 1;
    static const double sub[] = {1, 2, 5};
    size_t n = 0, nsub = span < 3 ? 3 : 1;

    if (max == 0)
        return 0;
    while ((size_t)(span / every + 1) > max)
        every++;
    for (int e = e0; e <= e1; e += every)
        for (size_t j = 0; j < nsub; j++) {
            double v = sub[j] * pow(10, e);
            if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9) && n < max)
                t[n++] = v;
        }
    return n;
}

size_t sn__svg_ticks(const struct sn__svg_scale *s, size_t max, double *t)
{
    double lo = fmin(s->d0, s->d1), hi = fmax(s->d0, s->d1);

    if (max == 0 || !isfinite(lo) || !isfinite(hi))
        return 0;
    if (hi == lo || (s->log && lo <= 0)) {
        t[0] = hi;
        return 1;
    }
    return s->log ? ticks_log(lo, hi, max, t) : ticks_linear(lo, hi, max, t);
}

size_t sn__svg_ticks_bin(const struct sn__svg_scale *s, size_t max, double *t)
{
    double lo = fmin(s->d0, s->d1), hi = fmax(s->d0, s->d1);
    int e0, e1, every = 1;
    size_t n = 0;

    if (max == 0 || !(lo > 0) || !isfinite(hi))
        return 0;
    e0 = (int)ceil(log2(lo) - 1e-9);
    e1 = (int)floor(log2(hi) + 1e-9);
    /* steps aligned to multiples of the step, so 1 KiB and 1 MiB are
     * among the ticks whenever 10 octaves divide by the step */
    for (;;) {
        int first = (int)ceil((double)e0 / every) * every;
        int last = (int)floor((double)e1 / every) * every;
        if (last < first || (last - first) / every + 1 <= (int)max) {
            e0 = first;
            e1 = last;
            break;
        }
        every = every < 2 ? 2 : every < 5 ? 5 : every * 2;
    }
    for (int e = e0; e <= e1 && n < max; e += every)
        t[n++] = ldexp(1, e);
    return n;
}

void sn__svg_nice_domain(double *lo, double *hi, bool log)
{
    double a = fmin(*lo, *hi), z = fmax(*lo, *hi), step;

    if (!isfinite(a) || !isfinite(z)) {
        *lo = log ? 1 : 0;
        *hi = log ? 10 : 1;
        return;
    }
    if (log) {
        if (z <= 0)
            z = 1;
        if (a <= 0)
            a = z / 10;
        *lo = pow(10, floor(log10(a) + 1e-9));
        *hi = pow(10, ceil(log10(z) - 1e-9));
        if (*hi <= *lo)
            *hi = *lo * 10;
        return;
    }
    if (z == a) {
        /* one value: from zero to twice it, so bars keep their base */
        a = fmin(a * 2, 0);
        z = z == 0 ? 1 : fmax(z * 2, 0);
    }
    step = nice_step((z - a) / 5);
    *lo = floor(a / step + 1e-9) * step;
    *hi = ceil(z / step - 1e-9) * step;
    if (*lo == 0)
        *lo = 0; /* no "-0" */
}

const char *sn__svg_fmt(double v, const char *unit, bool binary, char *buf,
                        size_t n)
{
    static const char *const si_up[] = {"", "k", "M", "G", "T", "P", "E"};
    static const char *const si_dn[] = {"", "m", "\xc2\xb5", "n", "p"};
    static const char *const bin[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    double base = binary ? 1024 : 1000, a = fabs(v);
    double up = binary ? 1023.5 : 999.5; /* where the next prefix starts */
    const char *prefix = "";
    char t[32];
    size_t i = 0;

    unit = unit ? unit : "";
    if (!isfinite(v)) {
        snprintf(buf, n, "n/a");
        return buf;
    }
    if (a != 0 && a >= up) {
        while (a >= up && i + 1 < SN_ARRAY_LEN(si_up)) {
            a /= base;
            v /= base;
            i++;
        }
        prefix = binary ? bin[i] : si_up[i];
    } else if (a != 0 && a < 1 && !binary) {
        while (a < 0.9995 && i + 1 < SN_ARRAY_LEN(si_dn)) {
            a *= 1000;
            v *= 1000;
            i++;
        }
        prefix = si_dn[i];
    }
    /* 1000..1023 of a binary prefix needs the fourth digit */
    sn_fmt_double(v, a >= 999.5 ? 4 : 3, t, sizeof(t));
    snprintf(buf, n, "%s%s%s%s", t, *prefix || *unit ? " " : "", prefix, unit);
    return buf;
}

/* ---- text -----------------------------------------------------------------
 */

void sn__svg_escape(struct sn_buf *b, const char *s)
{
    if (s)
        sn_buf_put_esc(b, SN_ESC_XML, s);
}

void sn__svg_open(struct sn_buf *b, double w, double h, const char *label)
{
    sn_buf_puts(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ");
    num(b, w);
    sn_buf_putc(b, ' ');
    num(b, h);
    sn_buf_putc(b, '"');
    attr_num(b, "width", w);
    attr_num(b, "height", h);
    sn_buf_puts(b, " role=\"img\"");
    attr_str(b, "aria-label", label);
    sn_buf_puts(b, ">");
    if (label && *label) {
        sn_buf_puts(b, "<title>");
        sn__svg_escape(b, label);
        sn_buf_puts(b, "</title>");
    }
    sn_buf_putc(b, '\n');
}

void sn__svg_close(struct sn_buf *b)
{
    sn_buf_puts(b, "</svg>\n");
}

static void text_open(struct sn_buf *b, double x, double y, const char *anchor,
                      const char *cls)
{
    sn_buf_puts(b, "<text");
    attr_num(b, "x", x);
    attr_num(b, "y", y);
    if (anchor && *anchor && !sn_streq(anchor, "start"))
        attr_str(b, "text-anchor", anchor);
    attr_str(b, "class", cls);
    sn_buf_putc(b, '>');
}

void sn__svg_text(struct sn_buf *b, double x, double y, const char *anchor,
                  const char *cls, const char *text)
{
    text_open(b, x, y, anchor, cls);
    sn__svg_escape(b, text);
    sn_buf_puts(b, "</text>\n");
}

double sn__svg_text_width(const char *text, double px)
{
    size_t chars = 0;

    for (const unsigned char *p = (const unsigned char *)text; p && *p; p++)
        chars += (*p & 0xc0) != 0x80; /* count UTF-8 lead bytes */
    return (double)chars * px * SVG_CHAR_EM;
}

void sn__svg_text_fit(struct sn_buf *b, double x, double y, double width,
                      double px, const char *anchor, const char *cls,
                      const char *text)
{
    struct sn_buf clean = SN_BUF_INIT;
    size_t fit, chars = 0, cut = 0;

    if (!text)
        text = "";
    sn_buf_put_clean(&clean, text, strlen(text), 0);
    fit = px > 0 && width > 0 ? (size_t)(width / (px * SVG_CHAR_EM)) : 0;
    for (size_t i = 0; i < clean.len; i++)
        if (((unsigned char)clean.data[i] & 0xc0) != 0x80) {
            /* the byte where the (fit)-th character starts: cut there
             * to keep fit - 1 characters and the ellipsis */
            if (fit > 0 && chars == fit - 1)
                cut = i;
            chars++;
        }
    text_open(b, x, y, anchor, cls);
    if (chars <= fit) {
        sn__svg_escape(b, clean.data ? clean.data : "");
    } else {
        sn_buf_puts(b, "<title>");
        sn__svg_escape(b, clean.data);
        sn_buf_puts(b, "</title>");
        clean.data[cut] = '\0'; /* the characters that fit */
        sn__svg_escape(b, clean.data);
        sn_buf_puts(b, "\xe2\x80\xa6"); /* … */
    }
    sn_buf_puts(b, "</text>\n");
    sn_buf_release(&clean);
}

/* ---- shapes ---------------------------------------------------------------
 */

/* Close an element: with a <title> child when there is one. */
static void close_titled(struct sn_buf *b, const char *tag, const char *title)
{
    if (!title || !*title) {
        sn_buf_puts(b, "/>\n");
        return;
    }
    sn_buf_puts(b, "><title>");
    sn__svg_escape(b, title);
    sn_buf_printf(b, "</title></%s>\n", tag);
}

void sn__svg_rect(struct sn_buf *b, double x, double y, double w, double h,
                  const char *cls, const char *fill, const char *title)
{
    sn_buf_puts(b, "<rect");
    attr_num(b, "x", x);
    attr_num(b, "y", y);
    attr_num(b, "width", fmax(w, 0));
    attr_num(b, "height", fmax(h, 0));
    attr_str(b, "class", cls);
    attr_str(b, "fill", fill);
    close_titled(b, "rect", title);
}

void sn__svg_line(struct sn_buf *b, double x1, double y1, double x2, double y2,
                  const char *cls)
{
    sn_buf_puts(b, "<line");
    attr_num(b, "x1", x1);
    attr_num(b, "y1", y1);
    attr_num(b, "x2", x2);
    attr_num(b, "y2", y2);
    attr_str(b, "class", cls);
    sn_buf_puts(b, "/>\n");
}

void sn__svg_path(struct sn_buf *b, const double *x, const double *y, size_t n,
                  const char *cls)
{
    bool pen = false, any = false;

    for (size_t i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !isfinite(y[i])) {
            pen = false; /* a gap: the next point starts a new piece */
            continue;
        }
        if (!any)
            sn_buf_puts(b, "<path d=\"");
        sn_buf_putc(b, pen ? 'L' : 'M');
        num(b, x[i]);
        sn_buf_putc(b, ' ');
        num(b, y[i]);
        pen = any = true;
    }
    if (!any)
        return;
    sn_buf_putc(b, '"');
    attr_str(b, "class", cls);
    sn_buf_puts(b, " fill=\"none\"/>\n");
}

/* An open <path with d: a move to (x, y), n relative lines by the pairs
 * of d, closed. The caller adds attributes and closes the element. */
static void rel_path(struct sn_buf *b, double x, double y, const double *d,
                     size_t n)
{
    sn_buf_puts(b, "<path d=\"M");
    num(b, x);
    sn_buf_putc(b, ' ');
    num(b, y);
    for (size_t i = 0; i < n; i++) {
        sn_buf_putc(b, 'l');
        num(b, d[2 * i]);
        sn_buf_putc(b, ' ');
        num(b, d[2 * i + 1]);
    }
    sn_buf_puts(b, "z\"");
}

void sn__svg_marker(struct sn_buf *b, double x, double y, int shape,
                    const char *cls, const char *title)
{
    const double r = 3.5;

    switch (((shape % 4) + 4) % 4) {
    case 0:
        sn_buf_puts(b, "<circle");
        attr_num(b, "cx", x);
        attr_num(b, "cy", y);
        attr_num(b, "r", r);
        attr_str(b, "class", cls);
        close_titled(b, "circle", title);
        return;
    case 1:
        sn__svg_rect(b, x - r, y - r, 2 * r, 2 * r, cls, NULL, title);
        return;
    case 2: { /* triangle, point up */
        const double d[] = {r * 1.2, r * 2, -r * 2.4, 0};
        rel_path(b, x, y - r * 1.2, d, 2);
        break;
    }
    default: { /* diamond */
        const double d[] = {r * 1.3, r * 1.3,  -r * 1.3,
                            r * 1.3, -r * 1.3, -r * 1.3};
        rel_path(b, x, y - r * 1.3, d, 3);
        break;
    }
    }
    attr_str(b, "class", cls);
    close_titled(b, "path", title);
}

/* ---- axes -----------------------------------------------------------------
 */

/* The ticks an axis of this pixel length can label without overlap:
 * about one per `spacing` px, at most SVG_TICKS_MAX. */
static size_t axis_ticks(const struct sn__svg_scale *s, bool bin,
                         double spacing, double *t)
{
    size_t max = (size_t)(fabs(s->p1 - s->p0) / spacing) + 1;

    if (max > SVG_TICKS_MAX)
        max = SVG_TICKS_MAX;
    if (max < 2)
        max = 2;
    if (s->log && bin)
        return sn__svg_ticks_bin(s, max, t);
    return sn__svg_ticks(s, max, t);
}

void sn__svg_axis_x(struct sn_buf *b, const struct sn__svg_scale *s, double y,
                    double gy0, const char *title, const char *unit, bool bin)
{
    double t[SVG_TICKS_MAX];
    size_t n = axis_ticks(s, bin, 72, t);
    char lbl[48];

    sn_buf_puts(b, "<g class=\"axis\">\n");
    for (size_t i = 0; i < n; i++) {
        double x = sn__svg_map(s, t[i]);
        if (gy0 != y)
            sn__svg_line(b, x, gy0, x, y, "grid");
        sn__svg_line(b, x, y, x, y + 4, "ax");
        sn__svg_text(b, x, y + 16, "middle", "tk",
                     sn__svg_fmt(t[i], unit, bin, lbl, sizeof(lbl)));
    }
    sn__svg_line(b, s->p0, y, s->p1, y, "ax");
    if (title && *title)
        sn__svg_text(b, (s->p0 + s->p1) / 2, y + 34, "middle", "at", title);
    sn_buf_puts(b, "</g>\n");
}

void sn__svg_axis_y(struct sn_buf *b, const struct sn__svg_scale *s, double x,
                    double gx1, const char *title, const char *unit, bool bin)
{
    double t[SVG_TICKS_MAX];
    size_t n = axis_ticks(s, bin, 30, t);
    double my = (s->p0 + s->p1) / 2;
    char lbl[48];

    sn_buf_puts(b, "<g class=\"axis\">\n");
    for (size_t i = 0; i < n; i++) {
        double y = sn__svg_map(s, t[i]);
        if (gx1 != x)
            sn__svg_line(b, x, y, gx1, y, "grid");
        sn__svg_line(b, x - 4, y, x, y, "ax");
        sn__svg_text(b, x - 7, y + 4, "end", "tk",
                     sn__svg_fmt(t[i], unit, bin, lbl, sizeof(lbl)));
    }
    sn__svg_line(b, x, s->p0, x, s->p1, "ax");
    if (title && *title) {
        /* turned to run up the axis, left of the tick labels */
        sn_buf_puts(b, "<text transform=\"translate(");
        num(b, x - SVG_AXIS_Y_GAP);
        sn_buf_putc(b, ' ');
        num(b, my);
        sn_buf_puts(b, ") rotate(-90)\" text-anchor=\"middle\" class=\"at\">");
        sn__svg_escape(b, title);
        sn_buf_puts(b, "</text>\n");
    }
    sn_buf_puts(b, "</g>\n");
}

/* ---- colour ----------------------------------------------------------------
 */

/* viridis (van der Walt and Smith, matplotlib's default map), nine stops:
 * perceptually uniform, ordered in lightness, readable with the common
 * colour-vision deficiencies and in grey print. */
static const unsigned char viridis[][3] = {
    {0x44, 0x01, 0x54}, {0x47, 0x2d, 0x7b}, {0x3b, 0x52, 0x8b},
    {0x2c, 0x72, 0x8e}, {0x21, 0x91, 0x8c}, {0x28, 0xae, 0x80},
    {0x5e, 0xc9, 0x62}, {0xad, 0xdc, 0x30}, {0xfd, 0xe7, 0x25},
};

const char *sn__svg_color_share(double share, char buf[8])
{
    const size_t last = SN_ARRAY_LEN(viridis) - 1;
    double pos, f;
    size_t i;
    int c[3];

    if (!isfinite(share)) {
        snprintf(buf, 8, "#9e9e9e"); /* no value: neutral grey */
        return buf;
    }
    pos = fmin(fmax(share, 0), 1) * (double)last;
    i = (size_t)pos;
    if (i >= last)
        i = last - 1;
    f = pos - (double)i;
    for (int k = 0; k < 3; k++)
        c[k] = (int)lround(viridis[i][k] +
                           f * (viridis[i + 1][k] - viridis[i][k]));
    snprintf(buf, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
    return buf;
}

void sn__svg_legend_share(struct sn_buf *b, double x, double y, double w,
                          const char *title)
{
    const int steps = 10;
    double cw = w / steps;
    char col[8], tip[48];

    sn_buf_puts(b, "<g class=\"legend\">\n");
    if (title && *title)
        sn__svg_text_fit(b, x, y + 10, w, 12, "start", "lg", title);
    for (int i = 0; i < steps; i++) {
        snprintf(tip, sizeof(tip), "%d-%d %% of the design", i * 10,
                 (i + 1) * 10);
        sn__svg_rect(b, x + i * cw, y + 16, cw, 12, NULL,
                     sn__svg_color_share((i + 0.5) / steps, col), tip);
    }
    for (int i = 0; i <= 4; i++) {
        char lbl[8];
        const char *anchor = i == 0 ? "start" : i == 4 ? "end" : "middle";
        snprintf(lbl, sizeof(lbl), "%d%%", i * 25);
        sn__svg_text(b, x + w * i / 4, y + 42, anchor, "lg", lbl);
    }
    sn_buf_puts(b, "</g>\n");
}
