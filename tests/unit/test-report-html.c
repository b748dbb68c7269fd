/* test-report-html.c: the HTML report: the page frame, and each section
 * present when its data is and absent otherwise, with the numbers in its
 * SVG equal to the data's. */
#include <string.h>

#include "../../src/lib/report/report-int.h"
#include "harness.h"
#include "sn/report.h"

static void test_empty_report_is_a_whole_page_that_says_so(void)
{
    struct sn_report_html_in in = {0};
    struct sn_buf out = SN_BUF_INIT;
    struct sn_error err;

    REQUIRE(sn_report_html(&in, &out, &err) == 0);
    CHECK(strncmp(out.data, "<!doctype html>\n", 16) == 0);
    CHECK_CONTAINS(out.data, "<meta charset=\"utf-8\">");
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
    struct sn_report_html_in in = {0};
    struct sn_buf out = SN_BUF_INIT;
    struct sn_error err;

    in.title = "<script>x</script>";
    in.spec_path = "a&b.yaml";
    in.now = 86400;
    REQUIRE(sn_report_html(&in, &out, &err) == 0);
    CHECK(strstr(out.data, "<script>") == NULL);
    CHECK_CONTAINS(out.data, "<h1>&lt;script&gt;x&lt;/script&gt;</h1>");
    CHECK_CONTAINS(out.data, "spec a&amp;b.yaml");
    CHECK_CONTAINS(out.data, "generated 1970-01-02 00:00 UTC");
    sn_buf_release(&out);
}

static const struct sn_test cases[] = {
    T(test_empty_report_is_a_whole_page_that_says_so),
    T(test_title_and_path_are_escaped),
};

SN_TEST_MAIN(cases)
