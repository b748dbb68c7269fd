/* test-health.c: the health report and the PCIe probe, on the hand-made
 * trees in tests/fixtures/sysfs/ and on small trees built here. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "health-fixtures.h"
#include "sn/health.h"
#include "sn/render.h"

#define FIX "tests/fixtures/sysfs/"

/* ---- helpers ------------------------------------------------------------- */

static int run_on(const char *root, unsigned probes,
                  struct sn_health_report *rep)
{
    struct sn_health_config cfg;

    fx_health_config(&cfg, root, probes);
    return fx_health_run(&cfg, rep);
}

/* The first check with this name whose subject starts with prefix. */
/* A scratch tree: tmpdir plus helpers to write files and links in it. */
static char scratch[256];

static void mk(const char *rel, const char *fmt, ...)
{
    char path[1024], *p;
    va_list ap;
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", scratch, rel);
    for (p = path + strlen(scratch) + 1; (p = strchr(p, '/')); p++) {
        *p = '\0';
        mkdir(path, 0755);
        *p = '/';
    }
    f = fopen(path, "w");
    if (!f)
        return;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fclose(f);
}

static void mklink(const char *rel, const char *target)
{
    char path[1024];

    mk(rel, "x"); /* creates the directories */
    snprintf(path, sizeof(path), "%s/%s", scratch, rel);
    unlink(path);
    if (symlink(target, path))
        perror(path);
}

/* One PCI function under sys/devices/PATH with its bus link. */
static void mkdev(const char *path, unsigned cls, unsigned vendor,
                  const char *speed, int width, const char *maxspeed,
                  int maxwidth)
{
    char rel[512], target[512];
    const char *bdf = strrchr(path, '/') + 1;

    snprintf(rel, sizeof(rel), "sys/devices/%s/class", path);
    mk(rel, "0x%06x\n", cls);
    snprintf(rel, sizeof(rel), "sys/devices/%s/vendor", path);
    mk(rel, "0x%04x\n", vendor);
    snprintf(rel, sizeof(rel), "sys/devices/%s/device", path);
    mk(rel, "0x1234\n");
    if (speed) {
        snprintf(rel, sizeof(rel), "sys/devices/%s/current_link_speed", path);
        mk(rel, "%s\n", speed);
        snprintf(rel, sizeof(rel), "sys/devices/%s/current_link_width", path);
        mk(rel, "%d\n", width);
        snprintf(rel, sizeof(rel), "sys/devices/%s/max_link_speed", path);
        mk(rel, "%s\n", maxspeed);
        snprintf(rel, sizeof(rel), "sys/devices/%s/max_link_width", path);
        mk(rel, "%d\n", maxwidth);
    }
    snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s", bdf);
    snprintf(target, sizeof(target), "../../../devices/%s", path);
    mklink(rel, target);
}

/* A fresh scratch tree; false when none could be made. */
static bool scratch_new(void)
{
    snprintf(scratch, sizeof(scratch), "/tmp/sn-test-health.XXXXXX");
    if (!mkdtemp(scratch))
        scratch[0] = '\0';
    return scratch[0] != '\0';
}

/* A fresh scratch tree with a Gen4 x16 root port at 0000:00:01.0 for a
 * device below it; false when no tree could be made. */
static bool scratch_with_root_port(void)
{
    if (!scratch_new())
        return false;
    mkdev("pci0000:00/0000:00:01.0", 0x060400, 0x8086, "16.0 GT/s PCIe", 16,
          "16.0 GT/s PCIe", 16);
    return true;
}

static void scratch_free(void)
{
    char cmd[512];

    if (!scratch[0])
        return;
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
    if (system(cmd) != 0)
        printf("  could not remove %s\n", scratch);
}

/* ---- report -------------------------------------------------------------- */

static void test_report_counts_and_worst_status(void)
{
    struct sn_health_report rep;
    size_t counts[SN_HEALTH_STATUS_COUNT];

    sn_health_report_init(&rep);
    CHECK(sn_health_report_worst(&rep) == SN_HEALTH_PASS);
    /* nothing could be looked at: the verdict says so */
    sn_health_report_add(&rep, "b", SN_HEALTH_SKIP, NULL, NULL, "n=%d", 3);
    CHECK(sn_health_report_worst(&rep) == SN_HEALTH_SKIP);
    /* one check passed: the skipped one does not turn the verdict */
    sn_health_report_add(&rep, "a", SN_HEALTH_PASS, "x", "ignored", "ok");
    CHECK(sn_health_report_worst(&rep) == SN_HEALTH_PASS);
    sn_health_report_add(&rep, "c", SN_HEALTH_WARN, "y", "fix", "w");
    CHECK(sn_health_report_worst(&rep) == SN_HEALTH_WARN);
    sn_health_report_add(&rep, "d", SN_HEALTH_FAIL, "z", "fix", "f");
    sn_health_report_add(&rep, "e", SN_HEALTH_PASS, "z", NULL, "p");
    CHECK(sn_health_report_worst(&rep) == SN_HEALTH_FAIL);
    sn_health_report_counts(&rep, counts);
    CHECK(counts[SN_HEALTH_PASS] == 2);
    CHECK(counts[SN_HEALTH_SKIP] == 1);
    CHECK(counts[SN_HEALTH_WARN] == 1);
    CHECK(counts[SN_HEALTH_FAIL] == 1);
    /* a pass carries no remedy; NULL subject becomes "" */
    CHECK_STR(rep.checks[1].remedy, "");
    CHECK_STR(rep.checks[0].subject, "");
    CHECK_STR(rep.checks[0].evidence, "n=3");
    sn_health_report_release(&rep);
}

static void test_report_json_has_schema_and_every_field(void)
{
    struct sn_health_report rep;
    struct sn_buf out;

    sn_health_report_init(&rep);
    sn_health_report_add(&rep, "pcie.link", SN_HEALTH_FAIL, "gpu \"0\"",
                         "reseat", "x%d", 8);
    sn_buf_init(&out);
    sn_render_health_json(&rep, &out);
    CHECK_CONTAINS(out.data, "\"schema\": \"supernode.doctor/1\"");
    CHECK_CONTAINS(out.data, "\"name\": \"pcie.link\"");
    CHECK_CONTAINS(out.data, "\"status\": \"fail\"");
    CHECK_CONTAINS(out.data, "\"subject\": \"gpu \\\"0\\\"\"");
    CHECK_CONTAINS(out.data, "\"evidence\": \"x8\"");
    CHECK_CONTAINS(out.data, "\"remedy\": \"reseat\"");
    CHECK_CONTAINS(out.data, "\"fail\": 1");
    sn_buf_release(&out);
    sn_health_report_release(&rep);
}

static void test_report_text_puts_remedy_under_problems_only(void)
{
    struct sn_health_report rep;
    struct sn_buf out;

    sn_health_report_init(&rep);
    sn_health_report_add(&rep, "x.ok", SN_HEALTH_PASS, "dev0", "never", "fine");
    sn_health_report_add(&rep, "x.bad", SN_HEALTH_WARN, "dev1", "do this",
                         "odd");
    sn_buf_init(&out);
    sn_render_health_text(&rep, &out);
    CHECK_CONTAINS(out.data, "PASS  x.ok");
    CHECK_CONTAINS(out.data, "WARN  x.bad");
    CHECK_CONTAINS(out.data, "      remedy: do this\n");
    CHECK(strstr(out.data, "never") == NULL);
    CHECK_CONTAINS(out.data, "WARN: 1 pass, 1 warn, 0 fail, 0 skipped");
    sn_buf_release(&out);
    sn_health_report_release(&rep);
}

/* ---- PCIe probe on the hand-made trees -------------------------------- */

static void test_pcie_good_tree_passes_every_link(void)
{
    struct sn_health_report rep;

    REQUIRE(run_on(FIX "node-good", SN_HEALTH_PROBE_PCIE, &rep) == SN_OK);
    CHECK(sn_health_report_worst(&rep) == SN_HEALTH_PASS);
    /* 4 GPUs, 2 NICs, 1 NVMe, and the uplinks of the 2 switches */
    CHECK(fx_count_checks(&rep, "pcie.link", SN_HEALTH_PASS) == 9);
    CHECK(fx_count_checks(&rep, "pcie.aer", SN_HEALTH_PASS) == 7);
    CHECK_STR(rep.host, "gpu-node-01");
    /* the BMC's VGA is not an accelerator */
    CHECK(fx_find_check(&rep, "pcie.link", "0000:07:00.0") == NULL);
    sn_health_report_release(&rep);
}

static void test_pcie_trained_down_gpu_fails_naming_slot(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run_on(FIX "node-trained-down", SN_HEALTH_PROBE_PCIE, &rep) ==
            SN_OK);
    ck = fx_expect_check(&rep, "pcie.link", "0000:83:00.0", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->subject, "gpu 10de:2330 slot GPU2");
    CHECK_CONTAINS(ck->evidence, "trained down: Gen5 x8");
    CHECK_CONTAINS(ck->evidence, "capable of Gen5 x16");
    CHECK_CONTAINS(ck->remedy, "reseat");
    sn_health_report_release(&rep);
}

static void test_pcie_trained_down_switch_uplink_fails(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run_on(FIX "node-trained-down", SN_HEALTH_PROBE_PCIE, &rep) ==
            SN_OK);
    ck = fx_expect_check(&rep, "pcie.link", "0000:01:00.0", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->subject, "above gpu 0000:03:00.0");
    CHECK_CONTAINS(ck->evidence, "x8");
    /* reported once, though two GPUs and a NIC hang below it */
    {
        size_t n = 0;
        for (size_t i = 0; i < rep.nchecks; i++)
            if (sn_startswith(rep.checks[i].subject, "0000:01:00.0"))
                n++;
        CHECK(n == 1);
    }
    sn_health_report_release(&rep);
}

static void test_pcie_slow_nic_fails_but_idle_gpu_warns(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *nic, *gpu;

    REQUIRE(run_on(FIX "node-trained-down", SN_HEALTH_PROBE_PCIE, &rep) ==
            SN_OK);
    nic = fx_find_check(&rep, "pcie.link", "0000:85:00.0");
    gpu = fx_find_check(&rep, "pcie.link", "0000:04:00.0");
    REQUIRE(nic && gpu);
    CHECK(nic->status == SN_HEALTH_FAIL);
    CHECK_CONTAINS(nic->evidence, "Gen3 x16");
    CHECK_CONTAINS(nic->subject, "(mlx5_1)");
    /* GPUs drop PCIe speed at idle: a warning, not a failure */
    CHECK(gpu->status == SN_HEALTH_WARN);
    CHECK_CONTAINS(gpu->evidence, "Gen1 x16");
    CHECK_CONTAINS(gpu->remedy, "under load");
    CHECK(fx_count_checks(&rep, "pcie.link", SN_HEALTH_FAIL) == 3);
    sn_health_report_release(&rep);
}

static void test_pcie_aer_errors_by_severity(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run_on(FIX "node-aer", SN_HEALTH_PROBE_PCIE, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "pcie.aer", "0000:03:00.0", SN_HEALTH_WARN);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "correctable 12");
    CHECK_CONTAINS(ck->evidence, "BadTLP=12");
    ck = fx_expect_check(&rep, "pcie.aer", "0000:05:00.0", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "CmpltTO=1");
    ck = fx_expect_check(&rep, "pcie.aer", "0000:06:00.0", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "fatal 1");
    ck = fx_expect_check(&rep, "pcie.aer", "0000:83:00.0", SN_HEALTH_PASS);
    REQUIRE(ck);
    sn_health_report_release(&rep);
}

/* ---- PCIe probe on trees built here ----------------------------------- */

static void test_pcie_slot_limited_link_passes_and_says_so(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    /* a Gen5 GPU in a Gen4 root port, running Gen4: the best it can do */
    REQUIRE(scratch_with_root_port());
    mkdev("pci0000:00/0000:00:01.0/0000:01:00.0", 0x030200, 0x10de,
          "16.0 GT/s PCIe", 16, "32.0 GT/s PCIe", 16);
    REQUIRE(run_on(scratch, SN_HEALTH_PROBE_PCIE, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "pcie.link", "0000:01:00.0", SN_HEALTH_PASS);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "Gen4 x16");
    CHECK_CONTAINS(ck->evidence, "the device supports Gen5 x16");
    sn_health_report_release(&rep);
    scratch_free();
}

static void test_pcie_link_down_fails(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(scratch_with_root_port());
    mkdev("pci0000:00/0000:00:01.0/0000:01:00.0", 0x020000, 0x8086, "Unknown",
          0, "16.0 GT/s PCIe", 8);
    REQUIRE(run_on(scratch, SN_HEALTH_PROBE_PCIE, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "pcie.link", "0000:01:00.0 nic", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "link down");
    /* no AER files anywhere: said once, as a skip */
    CHECK(fx_count_checks(&rep, "pcie.aer", SN_HEALTH_SKIP) == 1);
    sn_health_report_release(&rep);
    scratch_free();
}

static void test_pcie_virtual_function_and_virtio_are_not_links(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(scratch_new());
    /* a virtio NIC (no link attributes) and an SR-IOV VF of a NIC */
    mkdev("pci0000:00/0000:00:03.0", 0x020000, 0x1af4, NULL, 0, NULL, 0);
    mkdev("pci0000:00/0000:00:04.1", 0x020000, 0x15b3, "Unknown", 0, "Unknown",
          0);
    mklink("sys/devices/pci0000:00/0000:00:04.1/physfn", "../0000:00:04.0");
    REQUIRE(run_on(scratch, SN_HEALTH_PROBE_PCIE, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "pcie.link", "0000:00:03.0", SN_HEALTH_SKIP);
    REQUIRE(ck);
    CHECK(fx_find_check(&rep, "pcie.link", "0000:00:04.1") == NULL);
    CHECK(sn_health_report_worst(&rep) == SN_HEALTH_SKIP);
    sn_health_report_release(&rep);
    scratch_free();
}

static void test_pcie_empty_root_skips_and_says_why(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(scratch_new());
    REQUIRE(run_on(scratch, SN_HEALTH_PROBE_PCIE, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "pcie.link", "node", SN_HEALTH_SKIP);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "no accelerator, NIC or NVMe");
    CHECK_STR(rep.host, "");
    sn_health_report_release(&rep);
    scratch_free();
}

static void test_run_rejects_a_root_that_is_not_a_directory(void)
{
    struct sn_health_config cfg;
    struct sn_health_report rep;
    struct sn_error err;

    sn_health_config_init(&cfg);
    cfg.fsroot = "tests/fixtures/sysfs/make-trees.sh";
    sn_health_report_init(&rep);
    CHECK(sn_health_run(&cfg, &rep, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "not a directory");
    cfg.fsroot = "tests/fixtures/sysfs/no-such-tree";
    CHECK(sn_health_run(&cfg, &rep, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "no-such-tree");
    CHECK(rep.nchecks == 0);
    sn_health_report_release(&rep);
}

static const struct sn_test cases[] = {
    T(test_report_counts_and_worst_status),
    T(test_report_json_has_schema_and_every_field),
    T(test_report_text_puts_remedy_under_problems_only),
    T(test_pcie_good_tree_passes_every_link),
    T(test_pcie_trained_down_gpu_fails_naming_slot),
    T(test_pcie_trained_down_switch_uplink_fails),
    T(test_pcie_slow_nic_fails_but_idle_gpu_warns),
    T(test_pcie_aer_errors_by_severity),
    T(test_pcie_slot_limited_link_passes_and_says_so),
    T(test_pcie_link_down_fails),
    T(test_pcie_virtual_function_and_virtio_are_not_links),
    T(test_pcie_empty_root_skips_and_says_why),
    T(test_run_rejects_a_root_that_is_not_a_directory),
};

SN_TEST_MAIN(cases)
