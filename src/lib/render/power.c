/* power.c (render): `bench power`'s curve as text (a row per point with
 * a bar of its throughput, then the three points in words) and as its
 * SN_SCHEMA_POWER document; the curve is measured and analysed in bench.
 */
#include <math.h>
#include <stdio.h>

#include "sn/bench.h"
#include "sn/render.h"

/* The setting a point is known by: its limit, or its SM clock. */
static double setting(const struct sn_bench_power_curve *c, size_t i)
{
    return c->by_clocks ? (double)c->points[i].sm_mhz : c->points[i].limit_w;
}

/* "400 W" or "1410 MHz" */
static void say_setting(const struct sn_bench_power_curve *c, int i,
                        struct sn_buf *out)
{
    if (c->by_clocks)
        sn_buf_printf(out, "SM %u MHz", c->points[i].sm_mhz);
    else
        sn_buf_printf(out, "%.0f W", c->points[i].limit_w);
}

void sn_render_power_text(const struct sn_bench_power_curve *c,
                          struct sn_buf *out)
{
    double top = c->full >= 0 ? c->points[c->full].flops : 0;

    sn_buf_printf(out, "# power: %s, GEMM %s %d^3", c->device, c->dtype,
                  c->gemm_size);
    if (!c->by_clocks)
        sn_buf_printf(out, ", limit %.0f W before (allowed %.0f-%.0f W)",
                      c->limit_before_w, c->min_w, c->max_w);
    else
        sn_buf_printf(out, ", memory locked at %u MHz", c->mem_mhz);
    sn_buf_printf(out, "; put back after\n#%11s %9s %9s %11s\n",
                  c->by_clocks ? "SM(MHz)" : "limit(W)", "TFLOP/s", "power(W)",
                  "TFLOP/s/W");
    for (size_t i = 0; i < c->n; i++) {
        const struct sn_bench_power_point *p = &c->points[i];
        int bar = top > 0 ? (int)lround(30 * p->flops / top) : 0;
        sn_buf_printf(out, " %11.0f %9.2f %9.1f %11.4f  ", setting(c, i),
                      p->flops / 1e12, p->power_w, p->flops_per_w * 1e-12);
        for (int k = 0; k < bar && k < 30; k++)
            sn_buf_putc(out, '#');
        if ((int)i == c->best)
            sn_buf_puts(out, " best efficiency");
        if ((int)i == c->knee)
            sn_buf_puts(out, " lowest within 5%");
        sn_buf_putc(out, '\n');
    }
    if (c->full < 0)
        return;
    sn_buf_printf(out, "# full performance: %.2f TFLOP/s at ", top / 1e12);
    say_setting(c, c->full, out);
    if (c->best >= 0) {
        sn_buf_printf(out, "\n# best efficiency: %.4f TFLOP/s per W at ",
                      c->points[c->best].flops_per_w * 1e-12);
        say_setting(c, c->best, out);
    }
    if (c->knee >= 0) {
        const struct sn_bench_power_point *k = &c->points[c->knee];
        sn_buf_puts(out, "\n# lowest setting within 5% of full: ");
        say_setting(c, c->knee, out);
        sn_buf_printf(out, " (%.1f%% of the throughput at %.0f%% of the power)",
                      100 * k->flops / top,
                      100 * k->power_w / c->points[c->full].power_w);
    }
    sn_buf_putc(out, '\n');
}

static void json_index(struct sn_json *j, const char *key, int i)
{
    if (i >= 0)
        sn_json_kint(j, key, i);
    else {
        sn_json_key(j, key);
        sn_json_null(j);
    }
}

void sn_render_power_json(const struct sn_bench_power_curve *c,
                          struct sn_buf *out)
{
    struct sn_json j;

    sn_json_init(&j, out, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_POWER);
    sn_json_kstr(&j, "device", c->device);
    sn_json_kstr(&j, "dtype", c->dtype);
    sn_json_kint(&j, "gemm_size", c->gemm_size);
    sn_json_kstr(&j, "sweep", c->by_clocks ? "sm_clock" : "power_limit");
    sn_json_knum(&j, "limit_before_w", c->limit_before_w);
    sn_json_knum(&j, "min_limit_w", c->min_w);
    sn_json_knum(&j, "max_limit_w", c->max_w);
    if (c->by_clocks)
        sn_json_kint(&j, "mem_mhz", c->mem_mhz);
    sn_json_knum(&j, "knee_fraction", SN_BENCH_POWER_KNEE);
    sn_json_key(&j, "points");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < c->n; i++) {
        const struct sn_bench_power_point *p = &c->points[i];
        sn_json_obj_begin(&j);
        if (c->by_clocks)
            sn_json_kint(&j, "sm_mhz", p->sm_mhz);
        else
            sn_json_knum(&j, "limit_w", p->limit_w);
        sn_json_knum(&j, "flops", p->flops);
        sn_json_knum(&j, "power_w", p->power_w);
        sn_json_knum(&j, "flops_per_w", p->flops_per_w);
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);
    json_index(&j, "full", c->full);
    json_index(&j, "best_efficiency", c->best);
    json_index(&j, "knee", c->knee);
    sn_json_obj_end(&j);
    sn_buf_putc(out, '\n');
}
