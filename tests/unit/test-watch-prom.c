/* test-watch-prom.c: the watch rules as a Prometheus rule file
 * (sn_watch_rules_file). With SN_WATCH_RULES_OUT set to a directory, the
 * file of every example spec is also written there as NAME.yml, for
 * tests/watch-rules/suite.sh to give to `promtool check rules` and
 * `promtool test rules`. */
/* covers: spec watch */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/lib/watch/rules-int.h"
#include "harness.h"
#include "sn/watch.h"

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;

    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

static void test_rules_file_has_every_rule_of_the_table(void)
{
    struct sn_buf b;
    struct sn_error err = {0};
    char line[128];

    sn_buf_init(&b);
    REQUIRE(sn_watch_rules_file(NULL, &b, &err) == SN_OK);
    for (int i = 0; i < SN__RULE_COUNT; i++) {
        snprintf(line, sizeof(line), "          rule: %s\n",
                 sn__watch_rule_table[i].name);
        /* once each; the XIDs in two tiers */
        CHECK(count(b.data, line) == (i == SN__RULE_GPU_XID ? 2u : 1u));
    }
    /* and the three that watch the agent from outside */
    CHECK(count(b.data, "- alert: ") == SN__RULE_COUNT + 1 + 3);
    CHECK(count(b.data, "- alert: SupernodeAgentDown\n") == 1);
    CHECK(count(b.data, "- alert: SupernodeCollectorDown\n") == 1);
    CHECK(count(b.data, "- alert: SupernodeAgentStale\n") == 1);
    CHECK(strstr(b.data, "- alert: SupernodeCoolantFlowLow\n") != NULL);
    CHECK(strstr(b.data, "xid=~\"48|63|64|74|79|94|95|119|120\"") != NULL);
    CHECK(strstr(b.data, "xid!~\"48|63|64|74|79|94|95|119|120\"") != NULL);
    CHECK(strstr(b.data, "        for: 5m\n") != NULL);
    CHECK(strstr(b.data, "{{ $labels.subject }}") != NULL);
    /* every format was filled (the descriptions' templates have printf
     * of their own); without a spec, no design figures */
    for (const char *p = b.data; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char buf[4096];
        snprintf(buf, sizeof(buf), "%.*s", (int)len, p);
        if (!strstr(buf, "description: "))
            CHECK(strstr(buf, "%s") == NULL && strstr(buf, "%g") == NULL);
        p = nl ? nl + 1 : NULL;
    }
    CHECK(strstr(b.data, "/ count by") == NULL);
    CHECK(strstr(b.data, "supernode_gpu_temperature_celsius") == NULL);
    sn_buf_release(&b);
}

static const struct sn_accel_info accel = {.name = "test-gpu", .tdp_w = 1000};

static void test_rules_file_fills_the_design(void)
{
    struct sn_spec s;
    struct sn_buf b;
    struct sn_error err = {0};

    memset(&s, 0, sizeof(s));
    s.accel = &accel;
    s.scaleup.per_node = 4;
    s.cooling.type = SN_COOL_COLD_PLATE;
    s.cooling.delta_t = 10;
    s.cooling.liquid_share = 0.8;
    sn_buf_init(&b);
    REQUIRE(sn_watch_rules_file(&s, &b, &err) == SN_OK);
    /* 4 x 1000 W x 0.8 / (996 kg/m^3 x 4180 J/(kg K) x 10 K) = 4.612
     * L/min for the node's loop */
    CHECK(strstr(b.data, "(4.612 / count by (instance, job)") != NULL);
    CHECK(strstr(b.data, "supernode_nvml_devices|supernode_pci_gpus\"}) "
                         "< 4") != NULL);
    CHECK(strstr(b.data, "- 0.03)") != NULL); /* the PSU's threshold */
    sn_buf_release(&b);
}

/* Write b to $SN_WATCH_RULES_OUT/NAME.yml when asked. */
static void save(const char *spec_path, const struct sn_buf *b)
{
    const char *dir = getenv("SN_WATCH_RULES_OUT");
    const char *base = strrchr(spec_path, '/');
    char path[4096];
    size_t len;
    FILE *f;

    if (!dir || !*dir)
        return;
    base = base ? base + 1 : spec_path;
    len = strcspn(base, ".");
    snprintf(path, sizeof(path), "%s/%.*s.yml", dir, (int)len, base);
    f = fopen(path, "w");
    REQUIRE(f != NULL);
    CHECK(fwrite(b->data, 1, b->len, f) == b->len);
    CHECK(fclose(f) == 0);
}

static void test_rules_file_for_every_example_spec(void)
{
    glob_t g;
    size_t done = 0;

    REQUIRE(glob("examples/*.yaml", 0, NULL, &g) == 0);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        struct sn_spec s = {0};
        struct sn_error err = {0};
        struct sn_buf b;
        if (sn_spec_load(g.gl_pathv[i], &s, &err)) {
            printf("  %s: %s\n", g.gl_pathv[i], err.msg);
            CHECK(0);
            continue;
        }
        sn_buf_init(&b);
        CHECK(sn_watch_rules_file(&s, &b, &err) == SN_OK);
        CHECK(strstr(b.data, s.name) != NULL);
        save(g.gl_pathv[i], &b);
        sn_buf_release(&b);
        sn_spec_release(&s);
        done++;
    }
    CHECK(done >= 10);
    globfree(&g);
}

static const struct sn_test cases[] = {
    T(test_rules_file_has_every_rule_of_the_table),
    T(test_rules_file_fills_the_design),
    T(test_rules_file_for_every_example_spec),
};

SN_TEST_MAIN(cases)
