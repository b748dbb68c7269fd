/* test-report-svg.c: the report's SVG toolkit: scales, nice ticks and
 * domains, tick labels, escaping, fitted text, paths and colours. */
#include <math.h>
#include <string.h>

#include "../../src/lib/html/svg.h"
#include "harness.h"

static void test_linear_scale_maps_ends_and_middle(void)
{
    struct sn__svg_scale s = {0, 100, 50, 450, false};

    CHECK_NEAR(sn__svg_map(&s, 0), 50, 1e-12);
    CHECK_NEAR(sn__svg_map(&s, 100), 450, 1e-12);
    CHECK_NEAR(sn__svg_map(&s, 25), 150, 1e-12);
    /* a y axis runs downwards: the range may be reversed */
    s.p0 = 300;
    s.p1 = 20;
    CHECK_NEAR(sn__svg_map(&s, 50), 160, 1e-12);
}

static void test_log_scale_maps_decades_evenly(void)
{
    struct sn__svg_scale s = {1, 1e4, 0, 400, true};

    CHECK_NEAR(sn__svg_map(&s, 10), 100, 1e-9);
    CHECK_NEAR(sn__svg_map(&s, 1000), 300, 1e-9);
    /* zero on a log scale lands on the low edge's side, not at -inf */
    CHECK(isfinite(sn__svg_map(&s, 0)));
}

static void test_linear_ticks_are_nice_numbers(void)
{
    struct sn__svg_scale s = {0, 97, 0, 1, false};
    double t[16];
    size_t n = sn__svg_ticks(&s, 6, t);

    /* 97 / 5 = 19.4 -> step 20: 0 20 40 60 80 */
    REQUIRE(n == 5);
    for (size_t i = 0; i < n; i++)
        CHECK_NEAR(t[i], 20.0 * (double)i, 1e-12);
    s.d0 = -0.3;
    s.d1 = 0.7;
    n = sn__svg_ticks(&s, 11, t);
    /* step 0.1: -0.3 .. 0.7, and zero is exactly zero */
    CHECK(n == 11);
    CHECK(t[3] == 0);
    CHECK_NEAR(t[10], 0.7, 1e-12);
}

static void test_ticks_never_exceed_max(void)
{
    static const double ends[][2] = {
        {0, 1}, {0, 7}, {3, 1234567}, {-5, 5}, {0.001, 0.0042}};
    double t[16];

    for (size_t i = 0; i < SN_ARRAY_LEN(ends); i++)
        for (size_t max = 2; max <= 16; max++) {
            struct sn__svg_scale s = {ends[i][0], ends[i][1], 0, 1, false};
            size_t n = sn__svg_ticks(&s, max, t);
            CHECK(n >= 1 && n <= max);
            for (size_t k = 1; k < n; k++)
                CHECK(t[k] > t[k - 1]);
        }
}

static void test_log_ticks_are_powers_of_ten_with_2_and_5(void)
{
    struct sn__svg_scale s = {1, 100, 0, 1, true};
    double t[16];
    size_t n = sn__svg_ticks(&s, 16, t);
    static const double want[] = {1, 2, 5, 10, 20, 50, 100};

    REQUIRE(n == SN_ARRAY_LEN(want));
    for (size_t i = 0; i < n; i++)
        CHECK_NEAR(t[i], want[i], 1e-12);
    /* ten decades in four ticks: every third power */
    s.d0 = 1e-3;
    s.d1 = 1e9;
    n = sn__svg_ticks(&s, 5, t);
    CHECK(n <= 5 && n >= 3);
    CHECK_NEAR(t[0], 1e-3, 1e-9);
}

static void test_binary_ticks_land_on_kib_and_mib(void)
{
    struct sn__svg_scale s = {8, 8.0 * 1024 * 1024 * 1024, 0, 1, true};
    double t[16];
    size_t n = sn__svg_ticks_bin(&s, 6, t);
    bool kib = false, mib = false;

    CHECK(n >= 2 && n <= 6);
    for (size_t i = 0; i < n; i++) {
        kib |= t[i] == 1024;
        mib |= t[i] == 1024.0 * 1024;
        CHECK(t[i] >= 8 && t[i] <= 8.0 * 1024 * 1024 * 1024);
    }
    CHECK(kib && mib);
}

static void test_nice_domain_widens_to_ticks(void)
{
    double lo = 3, hi = 97;

    sn__svg_nice_domain(&lo, &hi, false);
    CHECK(lo == 0 && hi == 100);
    lo = 3;
    hi = 970;
    sn__svg_nice_domain(&lo, &hi, true);
    CHECK_NEAR(lo, 1, 1e-12);
    CHECK_NEAR(hi, 1000, 1e-12);
    /* one value: a band around it, zero kept as the floor */
    lo = hi = 5;
    sn__svg_nice_domain(&lo, &hi, false);
    CHECK(lo == 0 && hi > 5);
    lo = hi = NAN;
    sn__svg_nice_domain(&lo, &hi, false);
    CHECK(lo == 0 && hi == 1);
}

static void test_fmt_uses_si_and_binary_prefixes(void)
{
    char b[48];

    CHECK_STR(sn__svg_fmt(512 * 1024, "B", true, b, sizeof(b)), "512 KiB");
    CHECK_STR(sn__svg_fmt(1.5e9, "", false, b, sizeof(b)), "1.5 G");
    CHECK_STR(sn__svg_fmt(200, "", false, b, sizeof(b)), "200");
    CHECK_STR(sn__svg_fmt(0, "W", false, b, sizeof(b)), "0 W");
    CHECK_STR(sn__svg_fmt(450e9, "B/s", false, b, sizeof(b)), "450 GB/s");
    CHECK_STR(sn__svg_fmt(2e-6, "s", false, b, sizeof(b)), "2 \xc2\xb5s");
    /* 999.7 rounds to the next prefix, not to "1e+03" */
    CHECK_STR(sn__svg_fmt(999.7e3, "", false, b, sizeof(b)), "1 M");
    CHECK_STR(sn__svg_fmt(1000, "B", true, b, sizeof(b)), "1000 B");
    CHECK_STR(sn__svg_fmt(NAN, "B", true, b, sizeof(b)), "n/a");
}

static void test_text_is_escaped_and_cleaned(void)
{
    struct sn_buf b = SN_BUF_INIT;

    sn__svg_text(&b, 1, 2, "middle", "lbl", "a<b & \"c\" 'd'>\x01");
    CHECK_STR(b.data, "<text x=\"1\" y=\"2\" text-anchor=\"middle\" "
                      "class=\"lbl\">a&lt;b &amp; &quot;c&quot; &#39;d&#39;"
                      "&gt;\\x01</text>\n");
    sn_buf_reset(&b);
    sn__svg_rect(&b, 0.25, 1, 10, 5, "node", "#ff0000", "<x>");
    CHECK_STR(b.data, "<rect x=\"0.3\" y=\"1\" width=\"10\" height=\"5\" "
                      "class=\"node\" fill=\"#ff0000\"><title>&lt;x&gt;"
                      "</title></rect>\n");
    sn_buf_release(&b);
}

static void test_text_fit_cuts_with_ellipsis_and_title(void)
{
    struct sn_buf b = SN_BUF_INIT;
    double px = 10, w = 10 * px * SVG_CHAR_EM; /* room for 10 chars */

    sn__svg_text_fit(&b, 0, 0, w, px, "start", NULL, "0123456789");
    CHECK(strstr(b.data, ">0123456789</text>") != NULL);
    CHECK(strstr(b.data, "<title>") == NULL);
    sn_buf_reset(&b);
    sn__svg_text_fit(&b, 0, 0, w, px, "start", NULL, "0123456789abc");
    CHECK(strstr(b.data, "<title>0123456789abc</title>012345678\xe2\x80\xa6"
                         "</text>") != NULL);
    sn_buf_reset(&b);
    /* multi-byte characters are cut whole: 12 x "é" into 10 */
    sn__svg_text_fit(&b, 0, 0, w, px, "start", NULL,
                     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
    CHECK(strstr(b.data,
                 "</title>\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                 "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xe2\x80\xa6<") != NULL);
    CHECK_NEAR(sn__svg_text_width("\xc3\xa9x", px), 2 * px * SVG_CHAR_EM,
               1e-12);
    sn_buf_release(&b);
}

static void test_path_breaks_at_nan(void)
{
    struct sn_buf b = SN_BUF_INIT;
    double x[] = {0, 1, 2, 3, 4}, y[] = {5, 6, NAN, 8, 9};

    sn__svg_path(&b, x, y, 5, "s0");
    CHECK_STR(b.data, "<path d=\"M0 5L1 6M3 8L4 9\" class=\"s0\" "
                      "fill=\"none\"/>\n");
    sn_buf_reset(&b);
    /* nothing drawable: nothing written */
    sn__svg_path(&b, x, (double[]){NAN, NAN, NAN, NAN, NAN}, 5, "s0");
    CHECK(b.len == 0);
    sn_buf_release(&b);
}

static void test_markers_differ_by_shape(void)
{
    struct sn_buf b = SN_BUF_INIT;

    sn__svg_marker(&b, 5, 5, 0, "f0", NULL);
    CHECK(strncmp(b.data, "<circle", 7) == 0);
    sn_buf_reset(&b);
    sn__svg_marker(&b, 5, 5, 1, "f1", "p");
    CHECK(strncmp(b.data, "<rect", 5) == 0);
    CHECK(strstr(b.data, "<title>p</title>") != NULL);
    sn_buf_reset(&b);
    sn__svg_marker(&b, 5, 5, 2, "f2", NULL);
    CHECK(strncmp(b.data, "<path", 5) == 0 && strstr(b.data, "z\""));
    sn_buf_release(&b);
}

static void test_axes_label_every_tick(void)
{
    struct sn_buf b = SN_BUF_INIT;
    struct sn__svg_scale x = {0, 100, 60, 460, false};
    struct sn__svg_scale y = {1e9, 1e12, 300, 20, true};

    sn__svg_axis_x(&b, &x, 300, 20, "load", "W", false);
    /* 400 px at 72 px per label: up to 6 ticks; 0 20 .. 100 */
    CHECK(strstr(b.data, ">0 W</text>") && strstr(b.data, ">100 W</text>"));
    CHECK(strstr(b.data, "class=\"grid\""));
    CHECK(strstr(b.data, ">load</text>"));
    sn_buf_reset(&b);
    sn__svg_axis_y(&b, &y, 60, 460, "busbw", "B/s", false);
    CHECK(strstr(b.data, ">1 GB/s</text>") && strstr(b.data, ">1 TB/s<"));
    CHECK(strstr(b.data, "rotate(-90)"));
    sn_buf_release(&b);
}

static void test_share_colours_are_ordered_and_legend_printed(void)
{
    char lo[8], mid[8], hi[8], nan[8];
    struct sn_buf b = SN_BUF_INIT;

    CHECK_STR(sn__svg_color_share(0, lo), "#440154");
    CHECK_STR(sn__svg_color_share(1, hi), "#fde725");
    CHECK_STR(sn__svg_color_share(2, hi), "#fde725"); /* clamped */
    CHECK_STR(sn__svg_color_share(0.5, mid), "#21918c");
    CHECK_STR(sn__svg_color_share(NAN, nan), "#9e9e9e");
    sn__svg_legend_share(&b, 0, 0, 200, "share of design");
    CHECK(strstr(b.data, ">0%</text>") && strstr(b.data, ">100%</text>"));
    CHECK(strstr(b.data, ">share of design</text>"));
    sn_buf_release(&b);
}

static void test_svg_open_is_labelled(void)
{
    struct sn_buf b = SN_BUF_INIT;

    sn__svg_open(&b, 640, 200.5, "a & b");
    sn__svg_close(&b);
    CHECK(strstr(b.data, "viewBox=\"0 0 640 200.5\""));
    CHECK(strstr(b.data, "aria-label=\"a &amp; b\""));
    CHECK(strstr(b.data, "<title>a &amp; b</title>"));
    CHECK(strstr(b.data, "</svg>"));
    sn_buf_release(&b);
}

static const struct sn_test cases[] = {
    T(test_linear_scale_maps_ends_and_middle),
    T(test_log_scale_maps_decades_evenly),
    T(test_linear_ticks_are_nice_numbers),
    T(test_ticks_never_exceed_max),
    T(test_log_ticks_are_powers_of_ten_with_2_and_5),
    T(test_binary_ticks_land_on_kib_and_mib),
    T(test_nice_domain_widens_to_ticks),
    T(test_fmt_uses_si_and_binary_prefixes),
    T(test_text_is_escaped_and_cleaned),
    T(test_text_fit_cuts_with_ellipsis_and_title),
    T(test_path_breaks_at_nan),
    T(test_markers_differ_by_shape),
    T(test_axes_label_every_tick),
    T(test_share_colours_are_ordered_and_legend_printed),
    T(test_svg_open_is_labelled),
};

SN_TEST_MAIN(cases)
