/* test-report-power.c: bench power's curve read back from its JSON
 * document (the report's --power) and drawn: the round trip keeps every
 * point, the verdicts are recomputed, bad documents are located errors,
 * and the section shows the numbers the curve holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sn/bench.h"
#include "sn/html.h"
#include "sn/render.h"

/* An H100-like limit sweep, worked by hand: TFLOP/s per W at 700..300 W
 * are 0.986, 1.104, 1.242, 1.353, 1.338, so the best efficiency is 400 W;
 * 95% of the full 680 TFLOP/s is 646, so the lowest limit within 5% is
 * 600 W. */
static void curve(struct sn_bench_power_curve *c)
{
    static const double pts[][3] = {{700, 680e12, 690},
                                    {600, 660e12, 598},
                                    {500, 620e12, 499},
                                    {400, 540e12, 399},
                                    {300, 400e12, 299}};

    memset(c, 0, sizeof(*c));
    snprintf(c->device, sizeof(c->device), "NVIDIA H100 <80GB>");
    snprintf(c->dtype, sizeof(c->dtype), "bf16");
    c->gemm_size = 8192;
    c->limit_before_w = 700;
    for (size_t i = 0; i < 5; i++) {
        c->points[i].limit_w = pts[i][0];
        c->points[i].flops = pts[i][1];
        c->points[i].power_w = pts[i][2];
    }
    c->n = 5;
    sn_bench_power_analyse(c);
}

static void test_power_json_round_trips(void)
{
    struct sn_bench_power_curve c, back;
    struct sn_buf doc = SN_BUF_INIT;
    struct sn_error err;

    curve(&c);
    CHECK(c.best == 3 && c.knee == 1 && c.full == 0);
    sn_render_power_json(&c, &doc);
    REQUIRE(sn_bench_power_parse("p.json", doc.data, doc.len, &back, &err) ==
            SN_OK);
    CHECK(back.n == 5 && !back.by_clocks);
    CHECK(back.best == 3 && back.knee == 1 && back.full == 0);
    CHECK_NEAR(back.points[2].flops, 620e12, 1e-12);
    CHECK_STR(back.device, "NVIDIA H100 <80GB>");
    sn_buf_release(&doc);
}

static void test_power_bad_documents_are_located(void)
{
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"{\"schema\": \"supernode.bench/1\"}", "not a bench power document"},
        {"{\n  \"schema\": \"supernode.power/1\",\n  \"sweep\": x\n}",
         "p.json:3:"},
        {"{\"schema\": \"supernode.power/1\", \"sweep\": \"power_limit\", "
         "\"points\": []}",
         "1 to 32 points"},
        {"{\"schema\": \"supernode.power/1\", \"sweep\": \"power_limit\", "
         "\"points\": [{\"limit_w\": 300, \"flops\": -1, \"power_w\": 2}]}",
         "point 1"},
        {"{\"schema\": \"supernode.power/1\", \"sweep\": \"volts\", "
         "\"points\": []}",
         "neither power_limit nor sm_clock"},
    };
    struct sn_bench_power_curve c;
    struct sn_error err;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        CHECK(sn_bench_power_parse("p.json", bad[i].text, strlen(bad[i].text),
                                   &c, &err) == SN_EINPUT);
        CHECK_CONTAINS(err.msg, bad[i].want);
    }
}

static void test_power_section_shows_the_curve(void)
{
    struct sn_bench_power_curve c;
    struct sn_html_in in = {0};
    struct sn_buf page = SN_BUF_INIT;
    struct sn_error err;

    in.now = 1;
    REQUIRE(sn_html_report(&in, &page, &err) == SN_OK);
    CHECK(!strstr(page.data, "id=\"power\""));
    sn_buf_reset(&page);
    curve(&c);
    in.power = &c;
    REQUIRE(sn_html_report(&in, &page, &err) == SN_OK);
    CHECK_CONTAINS(page.data, "id=\"power\"");
    /* the device name escaped, the two verdicts named with their
     * settings, every point's figures in the table */
    CHECK_CONTAINS(page.data, "NVIDIA H100 &lt;80GB&gt;");
    CHECK_CONTAINS(page.data, "best efficiency, 400 W");
    CHECK_CONTAINS(page.data, "within 5%, 600 W");
    CHECK_CONTAINS(page.data, "<td class=\"n\">540.0</td>");
    CHECK_CONTAINS(page.data, "1.35</td>");
    CHECK_CONTAINS(page.data, "of full is 600 W, at 87% of full power");
    sn_buf_release(&page);
}

static const struct sn_test cases[] = {
    T(test_power_json_round_trips),
    T(test_power_bad_documents_are_located),
    T(test_power_section_shows_the_curve),
};

SN_TEST_MAIN(cases)
