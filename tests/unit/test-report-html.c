/* test-report-html.c: the HTML report: the page frame, and each section
 * present when its data is and absent otherwise, with the numbers in its
 * SVG equal to the data's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/lib/html/html-int.h"
#include "harness.h"
#include "sn/coll.h"
#include "sn/html.h"
#include "sn/plan.h"
#include "sn/render.h"
#include "sn/spec.h"

/* A spec loaded with its topology and plan, and the report drawn. */
struct drawn {
    struct sn_spec spec;
    struct sn_topo *topo;
    struct sn_plan *plan;
    struct sn_buf page;
};

static int draw(struct drawn *d, const char *path)
{
    struct sn_html_in in = {0};
    struct sn_error err;

    memset(d, 0, sizeof(*d));
    sn_buf_init(&d->page);
    if (sn_spec_load(path, &d->spec, &err) ||
        sn_topo_build(&d->spec, &d->topo, &err) ||
        sn_plan_build(d->topo, &d->plan, &err)) {
        printf("  %s: %s\n", path, err.msg);
        return -1;
    }
    in.spec = &d->spec;
    in.topo = d->topo;
    in.spec_path = path;
    in.now = 1;
    return sn_html_report(&in, &d->page, &err);
}

static void drawn_release(struct drawn *d)
{
    sn_buf_release(&d->page);
    sn_plan_free(d->plan);
    sn_topo_free(d->topo);
    sn_spec_release(&d->spec);
}

/* The figure with that id, <figure id="id"> to </figure>: a heap copy,
 * or NULL when the page has none. */
static char *figure(const char *page, const char *id)
{
    char open[96];
    const char *a, *z;

    snprintf(open, sizeof(open), "<figure id=\"%s\">", id);
    a = strstr(page, open);
    z = a ? strstr(a, "</figure>") : NULL;
    return a && z ? sn_xstrndup(a, (size_t)(z - a)) : NULL;
}

static void test_empty_report_is_a_whole_page_that_says_so(void)
{
    struct sn_html_in in = {0};
    struct sn_buf out = SN_BUF_INIT;
    struct sn_error err;

    REQUIRE(sn_html_report(&in, &out, &err) == 0);
    CHECK(strncmp(out.data, "<!doctype html>\n", 16) == 0);
    CHECK_CONTAINS(out.data, "<meta charset=\"utf-8\"/>");
    CHECK_CONTAINS(out.data, "prefers-color-scheme:dark");
    CHECK_CONTAINS(out.data, "@media print");
    CHECK_CONTAINS(out.data, "Nothing to show");
    CHECK(strstr(out.data, "<section") == NULL);
    CHECK(strstr(out.data, "<nav") == NULL);
    /* self-contained: no reference to anything outside the file */
    CHECK(strstr(out.data, "src=") == NULL);
    CHECK(strstr(out.data, "href=\"http") == NULL);
    CHECK(strstr(out.data, "@import") == NULL);
    CHECK(strstr(out.data, "</html>\n") != NULL);
    sn_buf_release(&out);
}

static void test_title_and_path_are_escaped(void)
{
    struct sn_html_in in = {0};
    struct sn_buf out = SN_BUF_INIT;
    struct sn_error err;

    in.title = "<script>x</script>";
    in.spec_path = "a&b.yaml";
    in.now = 86400;
    REQUIRE(sn_html_report(&in, &out, &err) == 0);
    CHECK(strstr(out.data, "<script>x") == NULL); /* the page's own only */
    CHECK_CONTAINS(out.data, "<h1>&lt;script&gt;x&lt;/script&gt;</h1>");
    CHECK_CONTAINS(out.data, "spec a&amp;b.yaml");
    CHECK_CONTAINS(out.data, "generated 1970-01-02 00:00 UTC");
    sn_buf_release(&out);
}

static void test_design_section_present_with_a_spec(void)
{
    struct drawn d;

    REQUIRE(draw(&d, "examples/gb200-nvl72.yaml") == 0);
    CHECK_CONTAINS(d.page.data, "<section id=\"design\"><h2>Design</h2>");
    CHECK_CONTAINS(d.page.data, "<figure id=\"design-topology\">");
    CHECK_CONTAINS(d.page.data, "<figure id=\"design-racks\">");
    CHECK_CONTAINS(d.page.data, "<figure id=\"design-power\">");
    CHECK_CONTAINS(d.page.data, "<figure id=\"design-cables\">");
    /* the table of contents links each of them */
    CHECK_CONTAINS(d.page.data, "<li><a href=\"#design-racks\">");
    /* the collectives and pairs come from the spec; no model was given,
     * so no layout search; no runs, no history */
    CHECK_CONTAINS(d.page.data, "<section id=\"predict\">");
    CHECK_CONTAINS(d.page.data, "<figure id=\"predict-pairs\">");
    CHECK(strstr(d.page.data, "predict-search") == NULL);
    CHECK(strstr(d.page.data, "predict-sweep") == NULL);
    CHECK(strstr(d.page.data, "<section id=\"run") == NULL);
    drawn_release(&d);
}

static void test_design_power_equals_the_plan(void)
{
    struct drawn d;
    char want[64], *fig;

    REQUIRE(draw(&d, "examples/dgx-h100-superpod-su.yaml") == 0);
    fig = figure(d.page.data, "design-power");
    REQUIRE(fig != NULL);
    snprintf(
        want, sizeof(want), ">%s</td>",
        sn_unit_format(d.plan->steady_w, SN_UNIT_POWER, (char[48]){0}, 48));
    CHECK_CONTAINS(fig, want);
    snprintf(want, sizeof(want), ">peak %s</text>",
             sn_unit_format(d.plan->peak_w, SN_UNIT_POWER, (char[48]){0}, 48));
    CHECK_CONTAINS(fig, want);
    snprintf(
        want, sizeof(want), "servers %s",
        sn_unit_format(d.plan->servers_w, SN_UNIT_POWER, (char[48]){0}, 48));
    CHECK_CONTAINS(fig, want);
    free(fig);
    drawn_release(&d);
}

static void test_design_cable_totals_equal_the_plan(void)
{
    struct drawn d;
    char want[64], *fig;
    int media = 0;

    REQUIRE(draw(&d, "examples/dgx-h100-superpod-4su.yaml") == 0);
    fig = figure(d.page.data, "design-cables");
    REQUIRE(fig != NULL);
    for (int m = 0; m < SN_MEDIUM_COUNT; m++) {
        if (!d.plan->cables[m])
            continue;
        /* the row's total, in bold, as the plan counts it */
        snprintf(want, sizeof(want), "class=\"hd\">%s</text>",
                 sn_fmt_count(d.plan->cables[m], (char[32]){0}, 32));
        CHECK_CONTAINS(fig, want);
        media++;
    }
    CHECK(media >= 2);
    free(fig);
    drawn_release(&d);
}

static void test_design_racks_collapse_alike_racks(void)
{
    struct drawn d;
    char want[64], *fig;

    REQUIRE(draw(&d, "examples/dgx-h100-superpod-su.yaml") == 0);
    fig = figure(d.page.data, "design-racks");
    REQUIRE(fig != NULL);
    snprintf(want, sizeof(want), "Rack elevations: %zu racks", d.plan->nrack);
    CHECK_CONTAINS(fig, want);
    /* the compute racks are alike: one drawing with a count */
    CHECK_CONTAINS(fig, "\xc3\x97");
    /* the worst rack's peak is printed */
    snprintf(want, sizeof(want), "peak %s",
             sn_unit_format(d.plan->worst->peak_w, SN_UNIT_POWER, (char[48]){0},
                            48));
    CHECK_CONTAINS(fig, want);
    free(fig);
    drawn_release(&d);
}

static void test_design_topology_counts_switches(void)
{
    struct drawn d;
    char want[64], *fig;

    REQUIRE(draw(&d, "examples/dgx-h100-superpod-su.yaml") == 0);
    fig = figure(d.page.data, "design-topology");
    REQUIRE(fig != NULL);
    /* the spines are shared: their whole count, as plan's chips */
    snprintf(want, sizeof(want), ">\xc3\x97%s",
             sn_fmt_count(d.plan->sw[SN_SW_SPINE].chips, (char[32]){0}, 32));
    CHECK(d.plan->sw[SN_SW_SPINE].chips > 0);
    CHECK_CONTAINS(fig, want);
    CHECK_CONTAINS(fig, ">spine</text>");
    free(fig);
    drawn_release(&d);
}

static void test_predict_busbw_equals_the_model(void)
{
    struct drawn d;
    struct sn_coll_model *m = NULL;
    struct sn_coll_result r;
    struct sn_group g = {0, 0, 1, NULL};
    struct sn_error err;
    char want[128], *fig;

    REQUIRE(draw(&d, "examples/gb200-nvl72.yaml") == 0);
    REQUIRE(sn_coll_model_new(d.topo, &m, &err) == 0);
    g.n = (uint32_t)d.topo->naccel;
    /* the marker at 32 KiB carries the value sim coll prints */
    REQUIRE(sn_coll_predict(m, SN_COLL_ALLREDUCE, &g, 32768, SN_ALGO_RING, &r,
                            &err) == 0);
    snprintf(want, sizeof(want), "<title>ring allreduce at 32 KiB: %s</title>",
             sn_unit_format(r.busbw, SN_UNIT_BANDWIDTH, (char[48]){0}, 48));
    fig = figure(d.page.data, "predict-coll-allreduce");
    REQUIRE(fig != NULL);
    CHECK_CONTAINS(fig, want);
    free(fig);
    sn_coll_model_free(m);
    drawn_release(&d);
}

static void test_predict_model_adds_search_and_step(void)
{
    struct drawn d;
    struct sn_html_in in = {0};
    struct sn_buf page = SN_BUF_INIT;
    struct sn_error err;

    REQUIRE(draw(&d, "examples/gb200-nvl72.yaml") == 0);
    in.spec = &d.spec;
    in.topo = d.topo;
    in.spec_path = "examples/gb200-nvl72.yaml";
    in.model = sn_catalog_model(&d.spec.catalog, "llama3-8b");
    REQUIRE(in.model != NULL);
    REQUIRE(sn_html_report(&in, &page, &err) == 0);
    CHECK_CONTAINS(page.data, "<figure id=\"predict-search\">");
    CHECK_CONTAINS(page.data, "<figure id=\"predict-step\">");
    CHECK_CONTAINS(page.data, "class=\"pick\"");
    CHECK_CONTAINS(page.data, ">chosen: tp ");
    sn_buf_release(&page);
    drawn_release(&d);
}

/* One inline script, after the content (the page reads whole without
 * it), fetching nothing, wrapped so the page stays well-formed XML. */
static void test_page_script_is_inline_last_and_fetches_nothing(void)
{
    struct sn_html_in in = {0};
    struct sn_buf out = SN_BUF_INIT;
    struct sn_error err;
    const char *sc, *end;

    in.title = "t";
    REQUIRE(sn_html_report(&in, &out, &err) == 0);
    sc = strstr(out.data, "<script>//<![CDATA[");
    REQUIRE(sc != NULL);
    CHECK(strstr(sc + 1, "<script") == NULL);
    CHECK(strstr(out.data, "</main>") < sc);
    end = strstr(sc, "//]]></script>\n</body>");
    REQUIRE(end != NULL);
    for (const char *p = sc + strlen("<script>//<![CDATA["); p < end; p++)
        CHECK(*p != '<' && *p != '&'); /* XML-clean without CDATA too */
    CHECK(strstr(sc, "fetch") == NULL && strstr(sc, "XMLHttp") == NULL &&
          strstr(sc, "src=") == NULL);
    sn_buf_release(&out);
}

static const struct sn_test cases[] = {
    T(test_page_script_is_inline_last_and_fetches_nothing),
    T(test_predict_busbw_equals_the_model),
    T(test_predict_model_adds_search_and_step),
    T(test_design_section_present_with_a_spec),
    T(test_design_power_equals_the_plan),
    T(test_design_cable_totals_equal_the_plan),
    T(test_design_racks_collapse_alike_racks),
    T(test_design_topology_counts_switches),
    T(test_empty_report_is_a_whole_page_that_says_so),
    T(test_title_and_path_are_escaped),
};

SN_TEST_MAIN(cases)
