/* test-metrics.c: the metric registry and its two renderers (metrics.h).
 * With SN_METRICS_OUT set to a directory, the text expositions of the
 * sample, escaping, cleaning and special-value cases are also written there as
 * NAME.prom, for tests/metrics/suite.sh to give to promtool. */
/* covers: metrics */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sn/metrics.h"
#include "sn/util.h"

/* A small registry of every type, in the names of issue 15. */
static void sample_registry(struct sn_metrics *m)
{
    struct sn_error err = {0};
    struct sn_metrics_label gpu0[] = {{"gpu", "0"}, {"uuid", "GPU-a"}};
    struct sn_metrics_label gpu1[] = {{"uuid", "GPU-b"}, {"gpu", "1"}};
    struct sn_metrics_label pw[] = {{"reason", "sw_power_cap"}};
    struct sn_metrics_label build[] = {{"version", "0.1"}};
    int rc = 0;

    rc |=
        sn_metrics_add_family(m, "supernode_gpu_temperature_celsius",
                              "GPU core temperature.", SN_METRICS_GAUGE, &err);
    rc |= sn_metrics_add_family(m, "supernode_gpu_throttle_seconds_total",
                                "Seconds throttled, by reason.",
                                SN_METRICS_COUNTER, &err);
    rc |=
        sn_metrics_add_family(m, "supernode_build_info",
                              "The build of supernode.", SN_METRICS_INFO, &err);
    rc |= sn_metrics_add_family(m, "supernode_legacy", "Untyped.",
                                SN_METRICS_UNTYPED, &err);
    rc |= sn_metrics_add(m, "supernode_gpu_temperature_celsius", gpu0, 2, 41.5,
                         &err);
    rc |= sn_metrics_add(m, "supernode_gpu_throttle_seconds_total", pw, 1, 12,
                         &err);
    rc |= sn_metrics_add(m, "supernode_build_info", build, 1, 1, &err);
    /* back to the first family: its samples still render together */
    rc |= sn_metrics_add(m, "supernode_gpu_temperature_celsius", gpu1, 2, 43,
                         &err);
    rc |= sn_metrics_add(m, "supernode_legacy", NULL, 0, 0.1, &err);
    CHECK(rc == 0);
    CHECK_STR(err.msg, "");
}

/* Write a rendering to $SN_METRICS_OUT/NAME.prom when asked. */
static void save_exposition(const char *name, const struct sn_buf *out)
{
    const char *dir = getenv("SN_METRICS_OUT");
    char path[4096];
    FILE *f;

    if (!dir || !*dir)
        return;
    snprintf(path, sizeof(path), "%s/%s.prom", dir, name);
    f = fopen(path, "w");
    REQUIRE(f != NULL);
    CHECK(fwrite(out->data, 1, out->len, f) == out->len);
    CHECK(fclose(f) == 0);
}

static const char sample_text[] =
    "# HELP supernode_gpu_temperature_celsius GPU core temperature.\n"
    "# TYPE supernode_gpu_temperature_celsius gauge\n"
    "supernode_gpu_temperature_celsius{gpu=\"0\",uuid=\"GPU-a\"} 41.5\n"
    "supernode_gpu_temperature_celsius{gpu=\"1\",uuid=\"GPU-b\"} 43\n"
    "# HELP supernode_gpu_throttle_seconds_total Seconds throttled, by "
    "reason.\n"
    "# TYPE supernode_gpu_throttle_seconds_total counter\n"
    "supernode_gpu_throttle_seconds_total{reason=\"sw_power_cap\"} 12\n"
    "# HELP supernode_build_info The build of supernode.\n"
    "# TYPE supernode_build_info gauge\n"
    "supernode_build_info{version=\"0.1\"} 1\n"
    "# HELP supernode_legacy Untyped.\n"
    "# TYPE supernode_legacy untyped\n"
    "supernode_legacy 0.1\n";

static const char sample_om[] =
    "# TYPE supernode_gpu_temperature_celsius gauge\n"
    "# HELP supernode_gpu_temperature_celsius GPU core temperature.\n"
    "supernode_gpu_temperature_celsius{gpu=\"0\",uuid=\"GPU-a\"} 41.5\n"
    "supernode_gpu_temperature_celsius{gpu=\"1\",uuid=\"GPU-b\"} 43\n"
    "# TYPE supernode_gpu_throttle_seconds counter\n"
    "# HELP supernode_gpu_throttle_seconds Seconds throttled, by reason.\n"
    "supernode_gpu_throttle_seconds_total{reason=\"sw_power_cap\"} 12\n"
    "# TYPE supernode_build info\n"
    "# HELP supernode_build The build of supernode.\n"
    "supernode_build_info{version=\"0.1\"} 1\n"
    "# TYPE supernode_legacy unknown\n"
    "# HELP supernode_legacy Untyped.\n"
    "supernode_legacy 0.1\n"
    "# EOF\n";

static void test_metrics_renders_text_format(void)
{
    struct sn_metrics m = {0};
    struct sn_buf out = SN_BUF_INIT;

    sample_registry(&m);
    sn_metrics_render_text(&m, &out);
    CHECK_STR(out.data, sample_text);
    save_exposition("sample", &out);
    sn_buf_release(&out);
    sn_metrics_release(&m);
}

static void test_metrics_renders_openmetrics(void)
{
    struct sn_metrics m = {0};
    struct sn_buf out = SN_BUF_INIT;

    sample_registry(&m);
    sn_metrics_render_openmetrics(&m, &out);
    CHECK_STR(out.data, sample_om);
    sn_buf_release(&out);
    sn_metrics_release(&m);
}

static void test_metrics_empty_registry(void)
{
    struct sn_metrics m = {0};
    struct sn_buf out = SN_BUF_INIT;

    sn_metrics_render_text(&m, &out);
    CHECK_STR(out.data, "");
    sn_metrics_render_openmetrics(&m, &out);
    CHECK_STR(out.data, "# EOF\n");
    sn_buf_release(&out);
    sn_metrics_release(&m);
    sn_metrics_release(NULL);
}

static void test_metrics_escapes_help_and_label_values(void)
{
    struct sn_metrics m = {0};
    struct sn_buf out = SN_BUF_INIT;
    struct sn_error err = {0};
    struct sn_metrics_label l[] = {{"path", "C:\\dir \"x\"\nnext"}};

    REQUIRE(sn_metrics_add_family(&m, "a", "back\\slash \"q\"\nline two",
                                  SN_METRICS_GAUGE, &err) == SN_OK);
    REQUIRE(sn_metrics_add(&m, "a", l, 1, 1, &err) == SN_OK);
    sn_metrics_render_text(&m, &out);
    CHECK_STR(out.data, "# HELP a back\\\\slash \"q\"\\nline two\n"
                        "# TYPE a gauge\n"
                        "a{path=\"C:\\\\dir \\\"x\\\"\\nnext\"} 1\n");
    save_exposition("escapes", &out);
    sn_buf_reset(&out);
    sn_metrics_render_openmetrics(&m, &out);
    CHECK_CONTAINS(out.data, "# HELP a back\\\\slash \\\"q\\\"\\nline two\n");
    sn_buf_release(&out);
    sn_metrics_release(&m);
}

static void test_metrics_cleans_and_caps_label_values(void)
{
    struct sn_metrics m = {0};
    struct sn_buf out = SN_BUF_INIT;
    struct sn_error err = {0};
    char long_value[600];
    struct sn_metrics_label bad[] = {{"v", "ok\xff\x01"}};
    struct sn_metrics_label big[] = {{"v", long_value}};
    const char *start, *end;

    memset(long_value, 'x', sizeof(long_value) - 1);
    long_value[sizeof(long_value) - 1] = '\0';
    REQUIRE(sn_metrics_add_family(&m, "a", "h", SN_METRICS_GAUGE, &err) ==
            SN_OK);
    REQUIRE(sn_metrics_add(&m, "a", bad, 1, 1, &err) == SN_OK);
    REQUIRE(sn_metrics_add(&m, "a", big, 1, 2, &err) == SN_OK);
    sn_metrics_render_text(&m, &out);
    /* the cleaner's \xNN, its backslash escaped in the exposition */
    CHECK_CONTAINS(out.data, "a{v=\"ok\\\\xff\\\\x01\"} 1\n");
    save_exposition("cleaned", &out);
    start = strstr(out.data, "a{v=\"xxx");
    REQUIRE(start != NULL);
    end = strchr(start + 5, '"');
    REQUIRE(end != NULL);
    CHECK((size_t)(end - (start + 5)) == SN_METRICS_VALUE_MAX - 1);
    sn_buf_release(&out);
    sn_metrics_release(&m);
}

static void test_metrics_spells_special_values(void)
{
    struct sn_metrics m = {0};
    struct sn_buf out = SN_BUF_INIT;
    struct sn_error err = {0};
    struct sn_metrics_label l[4] = {
        {"v", "a"}, {"v", "b"}, {"v", "c"}, {"v", "d"}};
    double v[4] = {INFINITY, -INFINITY, NAN, 1e-7};
    struct sn_metrics_label c[] = {{"v", "inf"}};

    REQUIRE(sn_metrics_add_family(&m, "g", "h", SN_METRICS_GAUGE, &err) ==
            SN_OK);
    for (int i = 0; i < 4; i++)
        REQUIRE(sn_metrics_add(&m, "g", &l[i], 1, v[i], &err) == SN_OK);
    REQUIRE(sn_metrics_add_family(&m, "c_total", "h", SN_METRICS_COUNTER,
                                  &err) == SN_OK);
    REQUIRE(sn_metrics_add(&m, "c_total", c, 1, INFINITY, &err) == SN_OK);
    sn_metrics_render_text(&m, &out);
    CHECK_CONTAINS(out.data, "g{v=\"a\"} +Inf\n"
                             "g{v=\"b\"} -Inf\n"
                             "g{v=\"c\"} NaN\n"
                             "g{v=\"d\"} 1e-07\n");
    CHECK_CONTAINS(out.data, "c_total{v=\"inf\"} +Inf\n");
    save_exposition("special", &out);
    sn_buf_release(&out);
    sn_metrics_release(&m);
}

static void test_metrics_refuses_bad_metric_names(void)
{
    static const char *const bad[] = {
        "",    "0abc", "a-b", "a b",         "__x",
        "a.b", "é",    "a\n", "gauge_total", "x_info"};
    struct sn_metrics m = {0};

    for (size_t i = 0; i < SN_ARRAY_LEN(bad); i++) {
        struct sn_error err = {0};
        CHECK(sn_metrics_add_family(&m, bad[i], "h", SN_METRICS_GAUGE, &err) ==
              SN_EINPUT);
        CHECK(err.msg[0] != '\0');
    }
    CHECK(m.n_families == 0);
    {
        struct sn_error err = {0};
        CHECK(sn_metrics_add_family(&m, "a\033[2J", "h", SN_METRICS_GAUGE,
                                    &err) == SN_EINPUT);
        CHECK_CONTAINS(err.msg, "metric name 'a\\x1b[2J' is not");
        CHECK(sn_metrics_add_family(&m, NULL, "h", SN_METRICS_GAUGE, NULL) ==
              SN_EINPUT);
        CHECK(sn_metrics_add(&m, NULL, NULL, 0, 1, NULL) == SN_EINPUT);
    }
    /* colons and digits are fine after the first character */
    CHECK(sn_metrics_add_family(&m, "job:rate5m_2", "h", SN_METRICS_GAUGE,
                                NULL) == SN_OK);
    sn_metrics_release(&m);
}

static void test_metrics_refuses_counter_without_total(void)
{
    struct sn_metrics m = {0};
    struct sn_error err = {0};

    CHECK(sn_metrics_add_family(&m, "supernode_xid_events", "h",
                                SN_METRICS_COUNTER, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "'supernode_xid_events' must end in '_total'");
    CHECK(sn_metrics_add_family(&m, "_total", "h", SN_METRICS_COUNTER, NULL) ==
          SN_EINPUT);
    CHECK(sn_metrics_add_family(&m, "supernode_build", "h", SN_METRICS_INFO,
                                NULL) == SN_EINPUT);
    CHECK(sn_metrics_add_family(&m, "x_total", "h", SN_METRICS_UNTYPED, &err) ==
          SN_EINPUT);
    CHECK_CONTAINS(err.msg, "ends in '_total' but is not a counter");
    CHECK(sn_metrics_add_family(&m, "x", "h", (enum sn_metrics_type)9, NULL) ==
          SN_EINPUT);
    CHECK(m.n_families == 0);
    sn_metrics_release(&m);
}

static void test_metrics_refuses_family_with_other_type(void)
{
    struct sn_metrics m = {0};
    struct sn_error err = {0};

    REQUIRE(sn_metrics_add_family(&m, "a", "first", SN_METRICS_GAUGE, &err) ==
            SN_OK);
    CHECK(sn_metrics_add_family(&m, "a", "again", SN_METRICS_GAUGE, &err) ==
          SN_OK);
    CHECK(m.n_families == 1);
    CHECK(sn_metrics_add_family(&m, "a", "h", SN_METRICS_UNTYPED, &err) ==
          SN_EINPUT);
    CHECK_STR(err.msg,
              "metric 'a' is registered with type gauge already, not unknown");
    CHECK(m.n_families == 1);
    sn_metrics_release(&m);
}

static void test_metrics_refuses_bad_samples(void)
{
    struct sn_metrics m = {0};
    struct sn_error err = {0};
    struct sn_metrics_label badname[] = {{"1x", "v"}};
    struct sn_metrics_label reserved[] = {{"__name__", "v"}};
    struct sn_metrics_label colon[] = {{"a:b", "v"}};
    struct sn_metrics_label twice[] = {{"b", "1"}, {"a", "2"}, {"b", "3"}};
    struct sn_metrics_label many[SN_METRICS_LABELS_MAX + 1];
    struct sn_metrics_label one[] = {{"gpu", "0"}};
    struct sn_metrics_label pair[] = {{"a", "1"}, {"b", "2"}};
    struct sn_metrics_label swapped[] = {{"b", "2"}, {"a", "1"}};

    for (size_t i = 0; i < SN_ARRAY_LEN(many); i++)
        many[i] = (struct sn_metrics_label){"l", "v"};
    REQUIRE(sn_metrics_add_family(&m, "g", "h", SN_METRICS_GAUGE, NULL) ==
            SN_OK);
    REQUIRE(sn_metrics_add_family(&m, "c_total", "h", SN_METRICS_COUNTER,
                                  NULL) == SN_OK);
    REQUIRE(sn_metrics_add_family(&m, "i_info", "h", SN_METRICS_INFO, NULL) ==
            SN_OK);
    CHECK(sn_metrics_add(&m, "nope", NULL, 0, 1, &err) == SN_EINPUT);
    CHECK_STR(err.msg, "metric 'nope' is not registered");
    CHECK(sn_metrics_add(&m, "g", badname, 1, 1, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "label name '1x'");
    CHECK(sn_metrics_add(&m, "g", reserved, 1, 1, NULL) == SN_EINPUT);
    CHECK(sn_metrics_add(&m, "g", colon, 1, 1, NULL) == SN_EINPUT);
    CHECK(sn_metrics_add(&m, "g", twice, 3, 1, &err) == SN_EINPUT);
    CHECK_STR(err.msg, "metric 'g': label 'b' given twice");
    CHECK(sn_metrics_add(&m, "g", many, SN_ARRAY_LEN(many), 1, NULL) ==
          SN_EINPUT);
    CHECK(sn_metrics_add(&m, "c_total", NULL, 0, -1, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "not a count");
    CHECK(sn_metrics_add(&m, "c_total", NULL, 0, NAN, NULL) == SN_EINPUT);
    CHECK(sn_metrics_add(&m, "i_info", NULL, 0, 2, NULL) == SN_EINPUT);
    CHECK(m.n_series == 0);
    /* the same series twice, whatever the order of its labels */
    REQUIRE(sn_metrics_add(&m, "g", one, 1, 1, NULL) == SN_OK);
    CHECK(sn_metrics_add(&m, "g", one, 1, 2, &err) == SN_EINPUT);
    CHECK_STR(err.msg, "metric 'g{gpu=\"0\"}' is there already");
    CHECK(sn_metrics_add(&m, "g", pair, 2, 1, NULL) == SN_OK);
    CHECK(sn_metrics_add(&m, "g", swapped, 2, 1, &err) == SN_EINPUT);
    CHECK_STR(err.msg, "metric 'g{a=\"1\",b=\"2\"}' is there already");
    CHECK(m.n_series == 2);
    sn_metrics_release(&m);
}

static void test_metrics_caps_series(void)
{
    struct sn_metrics m = {0};
    struct sn_error err = {0};
    char value[16];
    struct sn_metrics_label l[] = {{"n", value}};
    int rc = SN_OK;
    size_t i;

    REQUIRE(sn_metrics_add_family(&m, "g", "h", SN_METRICS_GAUGE, NULL) ==
            SN_OK);
    for (i = 0; i < SN_METRICS_SERIES_MAX && rc == SN_OK; i++) {
        snprintf(value, sizeof(value), "%zu", i);
        rc = sn_metrics_add(&m, "g", l, 1, (double)i, &err);
    }
    CHECK(rc == SN_OK);
    CHECK(m.n_series == SN_METRICS_SERIES_MAX);
    snprintf(value, sizeof(value), "%zu", i);
    CHECK(sn_metrics_add(&m, "g", l, 1, 0, &err) == SN_ENOMEM);
    CHECK_CONTAINS(err.msg, "more than 100000 series");
    CHECK(m.n_series == SN_METRICS_SERIES_MAX);
    sn_metrics_release(&m);
    CHECK(m.families == NULL && m.n_series == 0 && m.index == NULL);

    /* a registry's own, lower cap */
    m.series_max = 2;
    REQUIRE(sn_metrics_add_family(&m, "g", "h", SN_METRICS_GAUGE, NULL) ==
            SN_OK);
    CHECK(sn_metrics_add(&m, "g", NULL, 0, 1, NULL) == SN_OK);
    snprintf(value, sizeof(value), "a");
    CHECK(sn_metrics_add(&m, "g", l, 1, 1, NULL) == SN_OK);
    snprintf(value, sizeof(value), "b");
    CHECK(sn_metrics_add(&m, "g", l, 1, 1, NULL) == SN_ENOMEM);
    sn_metrics_release(&m);
}

/* Two collectors' registries merge into one: families of both, samples
 * in order, a family both have gets the samples of each; a sample dst has
 * already and a family of another type are refused without losing the
 * rest. */
static void test_metrics_merges_registries(void)
{
    struct sn_metrics a = {0}, b = {0};
    struct sn_metrics_label g0[] = {{"gpu", "0"}}, g1[] = {{"gpu", "1"}};
    struct sn_error err = {0};
    struct sn_buf out = SN_BUF_INIT;

    REQUIRE(sn_metrics_add_family(&a, "t_celsius", "T.", SN_METRICS_GAUGE,
                                  NULL) == SN_OK);
    REQUIRE(sn_metrics_add(&a, "t_celsius", g0, 1, 40, NULL) == SN_OK);
    REQUIRE(sn_metrics_add_family(&b, "t_celsius", "T again.", SN_METRICS_GAUGE,
                                  NULL) == SN_OK);
    REQUIRE(sn_metrics_add(&b, "t_celsius", g1, 1, 41, NULL) == SN_OK);
    REQUIRE(sn_metrics_add_family(&b, "e_total", "E.", SN_METRICS_COUNTER,
                                  NULL) == SN_OK);
    REQUIRE(sn_metrics_add(&b, "e_total", g0, 1, 3, NULL) == SN_OK);
    CHECK(sn_metrics_merge(&a, &b, &err) == SN_OK);
    sn_metrics_render_text(&a, &out);
    CHECK_STR(out.data, "# HELP t_celsius T.\n# TYPE t_celsius gauge\n"
                        "t_celsius{gpu=\"0\"} 40\nt_celsius{gpu=\"1\"} 41\n"
                        "# HELP e_total E.\n# TYPE e_total counter\n"
                        "e_total{gpu=\"0\"} 3\n");
    CHECK(a.n_series == 3);

    /* again: every sample is there already, each refused, nothing lost */
    CHECK(sn_metrics_merge(&a, &b, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "is there already");
    CHECK(a.n_series == 3);
    sn_metrics_release(&b);
    REQUIRE(sn_metrics_add_family(&b, "t_celsius", "T.", SN_METRICS_COUNTER,
                                  NULL) == SN_EINPUT); /* no _total */
    REQUIRE(sn_metrics_add_family(&b, "x_total", "X.", SN_METRICS_COUNTER,
                                  NULL) == SN_OK);
    REQUIRE(sn_metrics_add(&b, "x_total", NULL, 0, 1, NULL) == SN_OK);
    CHECK(sn_metrics_merge(&a, &b, &err) == SN_OK);
    CHECK(a.n_series == 4);
    sn_buf_release(&out);
    sn_metrics_release(&a);
    sn_metrics_release(&b);
}

static const struct sn_test cases[] = {
    T(test_metrics_merges_registries),
    T(test_metrics_renders_text_format),
    T(test_metrics_renders_openmetrics),
    T(test_metrics_empty_registry),
    T(test_metrics_escapes_help_and_label_values),
    T(test_metrics_cleans_and_caps_label_values),
    T(test_metrics_spells_special_values),
    T(test_metrics_refuses_bad_metric_names),
    T(test_metrics_refuses_counter_without_total),
    T(test_metrics_refuses_family_with_other_type),
    T(test_metrics_refuses_bad_samples),
    T(test_metrics_caps_series),
};

SN_TEST_MAIN(cases)
