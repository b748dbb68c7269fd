/* power.c (html): the `bench power` curve, given to the report
 * as its JSON document: GEMM throughput and its efficiency against the
 * power limit (or the locked SM clock), the point of best efficiency and
 * the lowest setting within 5% of full throughput marked and named. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "html-int.h"
#include "sn/bench.h"

/* The points in the order of their setting, lowest first. */
static size_t order(const struct sn_bench_power_curve *c, size_t *idx)
{
    size_t n = c->n < SN_BENCH_POWER_MAX ? c->n : SN_BENCH_POWER_MAX;

    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0; j--) {
            const struct sn_bench_power_point *a = &c->points[idx[j - 1]];
            const struct sn_bench_power_point *b = &c->points[idx[j]];
            double xa = c->by_clocks ? a->sm_mhz : a->limit_w;
            double xb = c->by_clocks ? b->sm_mhz : b->limit_w;
            size_t t;
            if (xa <= xb)
                break;
            t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    return n;
}

static double setting(const struct sn_bench_power_curve *c, size_t i)
{
    return c->by_clocks ? c->points[i].sm_mhz : c->points[i].limit_w;
}

static const char *setting_text(const struct sn_bench_power_curve *c, size_t i,
                                char *buf, size_t n)
{
    if (c->by_clocks)
        snprintf(buf, n, "%u MHz", c->points[i].sm_mhz);
    else
        snprintf(buf, n, "%.0f W", c->points[i].limit_w);
    return buf;
}

/* One chart: y(point) against the setting, the two marked points ringed
 * and labelled. yscale turns the value into the unit shown. */
static void chart(struct sn_buf *b, const struct sn_bench_power_curve *c,
                  const size_t *idx, size_t n, bool eff, const char *id,
                  const char *cap)
{
    double px[SN_BENCH_POWER_MAX], py[SN_BENCH_POWER_MAX];
    double xlo = setting(c, idx[0]), xhi = setting(c, idx[n - 1]);
    double ylo = 0, yhi = 0;
    struct sn__svg_scale sx, sy;
    const int marks[2] = {eff ? c->best : c->knee, eff ? c->knee : c->best};
    /* efficiency drawn as a share of the best (TFLOP/s per W in the
     * table), so its ticks read 0-100% */
    double top = c->best >= 0 ? c->points[c->best].flops_per_w : 1;

    for (size_t k = 0; k < n; k++) {
        const struct sn_bench_power_point *p = &c->points[idx[k]];
        yhi = fmax(yhi, eff ? 100 * p->flops_per_w / top : p->flops / 1e12);
    }
    if (xhi <= xlo)
        xhi = xlo + 1;
    xlo = fmax(0, xlo - 0.05 * (xhi - xlo));
    xhi += 0.05 * (xhi - xlo);
    sn__svg_nice_domain(&xlo, &xhi, false);
    sn__svg_nice_domain(&ylo, &yhi, false);
    sx = (struct sn__svg_scale){xlo, xhi, 90, 960, false};
    sy = (struct sn__svg_scale){ylo, yhi, 250, 20, false};
    sn__html_figure_open(b, id, cap);
    sn__svg_open(b, 1000, 300, cap);
    sn__svg_axis_x(b, &sx, 250, 20, c->by_clocks ? "SM clock" : "power limit",
                   c->by_clocks ? "MHz" : "W", false);
    sn__svg_axis_y(b, &sy, 90, 960,
                   eff ? "work per joule, % of the best"
                       : "GEMM throughput, TFLOP/s",
                   eff ? "%" : "", false);
    for (size_t k = 0; k < n; k++) {
        const struct sn_bench_power_point *p = &c->points[idx[k]];
        char tip[128], s[32];
        px[k] = sn__svg_map(&sx, setting(c, idx[k]));
        py[k] = sn__svg_map(&sy,
                            eff ? 100 * p->flops_per_w / top : p->flops / 1e12);
        snprintf(tip, sizeof(tip),
                 "%s: %.1f TFLOP/s at %.0f W, %.2f TFLOP/s per W",
                 setting_text(c, idx[k], s, sizeof(s)), p->flops / 1e12,
                 p->power_w, p->flops_per_w / 1e12);
        sn__svg_marker(b, px[k], py[k], 0, "f0 mk", tip);
    }
    sn__svg_path(b, px, py, n, "s0");
    for (int m = 0; m < 2; m++) {
        char label[96], s[32];
        size_t k;
        if (marks[m] < 0)
            continue;
        for (k = 0; k < n && idx[k] != (size_t)marks[m]; k++)
            ;
        if (k == n)
            continue;
        sn_buf_printf(b,
                      "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"8\" "
                      "class=\"pick\"/>\n",
                      px[k], py[k]);
        snprintf(label, sizeof(label), "%s %s",
                 marks[m] == c->best ? "best efficiency," : "within 5%,",
                 setting_text(c, (size_t)marks[m], s, sizeof(s)));
        /* above the point, or below it where the plot's top edge
         * would cut the label */
        sn__svg_text(b, px[k] > 700 ? px[k] - 12 : px[k] + 12,
                     py[k] + (m || py[k] < 40 ? 22 : -12),
                     px[k] > 700 ? "end" : "start", "hd", label);
    }
    sn__svg_close(b);
    sn__html_figure_close(b);
}

static void table(struct sn_buf *b, const struct sn_bench_power_curve *c,
                  const size_t *idx, size_t n)
{
    double full = c->full >= 0 ? c->points[c->full].flops : 0;

    sn_buf_printf(b,
                  "<table class=\"data\"><thead><tr><th>%s</th>"
                  "<th class=\"n\">TFLOP/s</th><th class=\"n\">of full</th>"
                  "<th class=\"n\">board power</th><th class=\"n\">TFLOP/s "
                  "per W</th><th></th></tr></thead><tbody>\n",
                  c->by_clocks ? "SM clock" : "power limit");
    for (size_t k = n; k-- > 0;) {
        const struct sn_bench_power_point *p = &c->points[idx[k]];
        char s[32];
        int i = (int)idx[k];
        sn_buf_printf(b,
                      "<tr><td>%s</td><td class=\"n\">%.1f</td>"
                      "<td class=\"n\">%.1f%%</td><td class=\"n\">%.0f W</td>"
                      "<td class=\"n\">%.2f</td><td>%s%s%s</td></tr>\n",
                      setting_text(c, idx[k], s, sizeof(s)), p->flops / 1e12,
                      full > 0 ? 100 * p->flops / full : 0, p->power_w,
                      p->flops_per_w / 1e12, i == c->full ? "full " : "",
                      i == c->best ? "best efficiency " : "",
                      i == c->knee ? "lowest within 5%" : "");
    }
    sn_buf_puts(b, "</tbody></table>\n");
}

int sn__html_power(struct sn_buf *b, const struct sn_html_in *in,
                   struct sn_error *err)
{
    const struct sn_bench_power_curve *c = in->power;
    size_t idx[SN_BENCH_POWER_MAX], n;
    char cap[256], s1[32], s2[32];

    (void)err;
    if (!c || c->n == 0)
        return SN_OK;
    n = order(c, idx);
    sn__html_section_open(b, "power", "Power and clocks");
    sn_buf_puts(b, "<p>");
    sn__html_escape(b, c->device[0] ? c->device : "the accelerator");
    sn_buf_puts(b, ", ");
    sn__html_escape(b, c->dtype[0] ? c->dtype : "?");
    sn_buf_printf(b, " GEMM of %d: ", c->gemm_size);
    if (c->best >= 0 && c->knee >= 0 && c->full >= 0)
        sn_buf_printf(b,
                      "the most work per joule at %s (%.2f TFLOP/s per W, "
                      "%.0f%% of full throughput); the lowest setting within "
                      "5%% of full is %s, at %.0f%% of full power.",
                      setting_text(c, (size_t)c->best, s1, sizeof(s1)),
                      c->points[c->best].flops_per_w / 1e12,
                      100 * c->points[c->best].flops / c->points[c->full].flops,
                      setting_text(c, (size_t)c->knee, s2, sizeof(s2)),
                      100 * c->points[c->knee].power_w /
                          c->points[c->full].power_w);
    sn_buf_puts(b, "</p>\n");
    snprintf(cap, sizeof(cap), "GEMM throughput against the %s",
             c->by_clocks ? "locked SM clock" : "power limit");
    chart(b, c, idx, n, false, "power-throughput", cap);
    snprintf(cap, sizeof(cap), "Efficiency against the %s",
             c->by_clocks ? "locked SM clock" : "power limit");
    chart(b, c, idx, n, true, "power-efficiency", cap);
    table(b, c, idx, n);
    sn__html_section_close(b);
    return SN_OK;
}
