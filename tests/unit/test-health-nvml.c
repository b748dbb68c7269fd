/* test-health-nvml.c: the NVML checks, on the fake NVML library
 * (tests/lib/fake-nvml.c, loaded through the same dlopen() path as the
 * real one) answering from tests/fixtures/nvml/, over the sysfs trees in
 * tests/fixtures/sysfs/. */
/* covers: health */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "health-fixtures.h"
#include "hw-fixtures.h"
#include "sn/health.h"

#define SYS SN_TEST_SYSFS
#define NV SN_TEST_NVML

/* Run doctor's probes on a sysfs tree with the fake NVML answering from
 * a fixture (NULL: the library path given instead). */
static int run(const char *tree, const char *fixture, const char *library,
               double idle_after, struct sn_health_report *rep)
{
    struct sn_health_config cfg;
    const char *fake = sn_test_fake_nvml(fixture);

    fx_health_config(&cfg, tree, SN_HEALTH_PROBE_PCIE | SN_HEALTH_PROBE_NVML);
    cfg.nvml_library = library ? library : fake;
    cfg.xid_wait_ms = 10;
    if (idle_after > 0)
        cfg.idle_after = idle_after;
    return fx_health_run(&cfg, rep);
}

/* ---- loading ----------------------------------------------------------- */

static void test_nvml_absent_library_is_a_skip_that_says_why(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "captured-vm", NULL, "/nonexistent/libnvidia-ml.so.1", 0,
                &rep) == SN_OK);
    ck = fx_expect_check(&rep, "nvml.library", "node", SN_HEALTH_SKIP);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "not loaded");
    CHECK_CONTAINS(ck->evidence, "0 NVIDIA GPUs on the PCI bus");
    CHECK(fx_find_check(&rep, "nvml.ecc", "") == NULL);
    sn_health_report_release(&rep);
}

static void test_nvml_absent_library_with_gpus_on_the_bus_fails(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "node-good", NULL, "/nonexistent/libnvidia-ml.so.1", 0,
                &rep) == SN_OK);
    ck = fx_expect_check(&rep, "nvml.library", "node", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "4 NVIDIA GPUs on the PCI bus");
    CHECK_CONTAINS(ck->remedy, "driver");
    sn_health_report_release(&rep);
}

static void test_nvml_turned_off_is_a_skip(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "captured-vm", NULL, "", 0, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "nvml.library", "node", SN_HEALTH_SKIP);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "turned off");
    sn_health_report_release(&rep);
}

static void test_nvml_a_library_that_is_not_nvml_is_refused(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "captured-vm", NULL, "libyaml-0.so.2", 0, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "nvml.library", "node", SN_HEALTH_SKIP);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "not an NVML library");
    sn_health_report_release(&rep);
}

static void test_nvml_driver_not_loaded_fails(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "node-good", NV "no-driver.yaml", NULL, 0, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "nvml.library", "node", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "nvmlInit failed: Driver Not Loaded");
    sn_health_report_release(&rep);
}

/* ---- a healthy node ---------------------------------------------------- */

static void test_nvml_healthy_gpus_pass_every_check(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "node-good", NV "good.yaml", NULL, 0, &rep) == SN_OK);
    CHECK(sn_health_report_worst(&rep) == SN_HEALTH_PASS);
    CHECK(fx_count_checks(&rep, "nvml.ecc", SN_HEALTH_PASS) == 4);
    CHECK(fx_count_checks(&rep, "nvml.row_remap", SN_HEALTH_PASS) == 4);
    CHECK(fx_count_checks(&rep, "nvml.throttle", SN_HEALTH_PASS) == 4);
    CHECK(fx_count_checks(&rep, "nvml.power_limit", SN_HEALTH_PASS) == 4);
    CHECK(fx_count_checks(&rep, "nvml.clocks", SN_HEALTH_PASS) == 4);
    CHECK(fx_count_checks(&rep, "nvml.temperature", SN_HEALTH_PASS) == 4);
    CHECK(fx_count_checks(&rep, "nvml.nvlink", SN_HEALTH_PASS) == 4);
    CHECK(fx_count_checks(&rep, "nvml.processes", SN_HEALTH_PASS) == 4);
    CHECK(fx_count_checks(&rep, "nvml.xid", SN_HEALTH_PASS) == 4);
    ck = fx_find_check(&rep, "nvml.devices", "node");
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "4 GPUs in NVML, 4 NVIDIA GPUs on the PCI");
    CHECK_CONTAINS(ck->evidence, "driver 550.54.15");
    /* GPU checks name the address, the NVML index, the model, the slot */
    ck = fx_find_check(&rep, "nvml.processes", "0000:03:00.0");
    REQUIRE(ck);
    CHECK_STR(ck->subject, "0000:03:00.0 gpu0 NVIDIA H100 80GB HBM3 slot GPU0");
    CHECK_CONTAINS(ck->evidence, "1 compute process, all alive");
    sn_health_report_release(&rep);
}

/* ---- a node in bad shape (bad.yaml) -------------------------------------- */

static void test_nvml_uncorrected_ecc_and_pending_remap_fail(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "node-good", NV "bad.yaml", NULL, 0, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "nvml.ecc", "0000:03:00.0", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "uncorrected 2 volatile");
    ck =
        fx_expect_check(&rep, "nvml.row_remap", "0000:03:00.0", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "remap pending");
    CHECK_CONTAINS(ck->remedy, "reset");
    sn_health_report_release(&rep);
}

static void test_nvml_xids_are_explained_and_graded(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "node-good", NV "bad.yaml", NULL, 0, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "nvml.xid", "0000:03:00.0", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "XID 48 (double-bit (uncorrectable) ECC");
    CHECK_CONTAINS(ck->evidence, "XID 63 (ECC page retirement or row");
    /* an application fault and an unknown code only warn */
    ck = fx_expect_check(&rep, "nvml.xid", "0000:04:00.0", SN_HEALTH_WARN);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "XID 13 (graphics engine exception)");
    CHECK_CONTAINS(ck->evidence, "XID 200 (uncommon XID)");
    ck = fx_expect_check(&rep, "nvml.xid", "0000:83:00.0", SN_HEALTH_PASS);
    REQUIRE(ck);
    sn_health_report_release(&rep);
}

static void test_nvml_power_brake_and_low_power_limit_fail(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "node-good", NV "bad.yaml", NULL, 0, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "nvml.throttle", "0000:04:00.0", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "hardware slowdown, hardware power brake");
    CHECK_CONTAINS(ck->remedy, "power");
    ck = fx_expect_check(&rep, "nvml.power_limit", "0000:04:00.0",
                         SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "limit 500 W, below the default 700 W");
    /* a software power cap alone is a GPU at its limit, not a fault */
    sn_health_report_release(&rep);
    REQUIRE(run(SYS "node-good", NV "good.yaml", NULL, 0, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "nvml.throttle", "0000:83:00.0", SN_HEALTH_PASS);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "software power cap");
    sn_health_report_release(&rep);
}

static void test_nvml_floating_memory_clock_and_heat_warn(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "node-good", NV "bad.yaml", NULL, 0, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "nvml.clocks", "0000:04:00.0", SN_HEALTH_WARN);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "1593 MHz of 2619 MHz max in P8");
    CHECK_CONTAINS(ck->remedy, "nvidia-smi -lmc");
    ck = fx_expect_check(&rep, "nvml.temperature", "0000:04:00.0",
                         SN_HEALTH_WARN);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "87 C, slowdown at 90 C");
    sn_health_report_release(&rep);
}

static void test_nvml_nvlink_down_fails_naming_the_links(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "node-good", NV "bad.yaml", NULL, 0, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "nvml.nvlink", "0000:83:00.0", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "16 of 18 links up; down: 3,7");
    CHECK_CONTAINS(ck->evidence, "link 5 replay 12, link 5 crc_flit 4");
    sn_health_report_release(&rep);
}

static void test_nvml_memory_held_by_a_dead_process_fails(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck = NULL;

    REQUIRE(run(SYS "node-good", NV "bad.yaml", NULL, 0, &rep) == SN_OK);
    for (size_t i = 0; i < rep.nchecks; i++)
        if (!strcmp(rep.checks[i].name, "nvml.processes") &&
            strstr(rep.checks[i].evidence, "pid 4343"))
            ck = &rep.checks[i];
    REQUIRE(ck);
    CHECK(ck->status == SN_HEALTH_FAIL);
    CHECK_CONTAINS(ck->evidence, "holds 40.0 GiB but /proc/4343 does not");
    CHECK_CONTAINS(ck->remedy, "zombie occupancy");
    sn_health_report_release(&rep);
}

/* Drivers have filled the same entry point with 16-, 24- and 32-byte
 * entries (see read_processes in nvml.c); every size must give the same
 * two processes on 0000:83:00.0, and a size no driver used must be said,
 * not misread. */
static void test_nvml_process_list_read_at_every_driver_layout(void)
{
    static const char *const strides[] = {"16", "24", "32"};
    struct sn_health_report rep;

    for (size_t s = 0; s < SN_ARRAY_LEN(strides); s++) {
        bool dead = false, idle = false;
        setenv("SN_FAKE_NVML_STRIDE", strides[s], 1);
        REQUIRE(run(SYS "node-good", NV "bad.yaml", NULL, 0, &rep) == SN_OK);
        for (size_t i = 0; i < rep.nchecks; i++) {
            const struct sn_health_check *c = &rep.checks[i];
            if (strcmp(c->name, "nvml.processes"))
                continue;
            dead |= c->status == SN_HEALTH_FAIL &&
                    strstr(c->evidence, "pid 4343 holds 40.0 GiB") != NULL;
            idle |= c->status == SN_HEALTH_WARN &&
                    strstr(c->evidence, "pid 4242 (state S) holds 20.0 GiB") !=
                        NULL;
        }
        if (!dead || !idle)
            printf("  stride %s: dead %d idle %d\n", strides[s], dead, idle);
        CHECK(dead && idle);
        sn_health_report_release(&rep);
    }
    setenv("SN_FAKE_NVML_STRIDE", "40", 1);
    REQUIRE(run(SYS "node-good", NV "bad.yaml", NULL, 0, &rep) == SN_OK);
    {
        const struct sn_health_check *ck =
            fx_find_check(&rep, "nvml.processes", "0000:83:00.0");
        REQUIRE(ck);
        CHECK(ck->status == SN_HEALTH_WARN);
        CHECK_CONTAINS(ck->evidence, "entries of no known size");
    }
    sn_health_report_release(&rep);
    unsetenv("SN_FAKE_NVML_STRIDE");
}

static void test_nvml_idle_holder_warns_only_after_the_idle_time(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck = NULL;

    /* pid 4242 has run for 10 days (proc/uptime, proc/4242/stat) with no
     * GPU work: suspect after the default 10 minutes */
    REQUIRE(run(SYS "node-good", NV "bad.yaml", NULL, 0, &rep) == SN_OK);
    for (size_t i = 0; i < rep.nchecks; i++)
        if (!strcmp(rep.checks[i].name, "nvml.processes") &&
            strstr(rep.checks[i].evidence, "pid 4242"))
            ck = &rep.checks[i];
    REQUIRE(ck);
    CHECK(ck->status == SN_HEALTH_WARN);
    CHECK_CONTAINS(ck->evidence, "holds 20.0 GiB, running 10 days");
    sn_health_report_release(&rep);
    /* allowed to sit idle for 11 days: no longer suspect */
    REQUIRE(run(SYS "node-good", NV "bad.yaml", NULL, 11 * 86400.0, &rep) ==
            SN_OK);
    for (size_t i = 0; i < rep.nchecks; i++)
        CHECK(!strstr(rep.checks[i].evidence, "pid 4242"));
    sn_health_report_release(&rep);
}

static void test_nvml_gpu_on_the_bus_but_not_in_nvml_fails(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "node-good", NV "bad.yaml", NULL, 0, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "nvml.devices", "0000:84:00.0", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->subject, "slot GPU3");
    CHECK_CONTAINS(ck->evidence, "not among NVML's 3 GPUs");
    sn_health_report_release(&rep);
}

static void test_nvml_lost_gpu_is_reported_once(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "node-good", NV "lost.yaml", NULL, 0, &rep) == SN_OK);
    CHECK(fx_count_checks(&rep, "nvml.devices", SN_HEALTH_FAIL) == 1);
    ck = fx_find_check(&rep, "nvml.devices", "0000:84:00.0");
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "cannot open it");
    /* the three reachable GPUs are still checked */
    CHECK(fx_count_checks(&rep, "nvml.processes", SN_HEALTH_PASS) == 3);
    sn_health_report_release(&rep);
}

static void test_nvml_pre_ampere_page_retirement_and_ecc_off_warn(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "node-good", NV "pre-ampere.yaml", NULL, 0, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "nvml.retired_pages", "0000:03:00.0",
                         SN_HEALTH_WARN);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "retirement pending; 4 pages retired");
    CHECK(fx_find_check(&rep, "nvml.row_remap", "0000:03:00.0") == NULL);
    ck = fx_expect_check(&rep, "nvml.ecc", "0000:03:00.0", SN_HEALTH_WARN);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "ECC is off");
    /* an answer NVML does not give is a skip, not a pass */
    ck = fx_expect_check(&rep, "nvml.throttle", "0000:03:00.0", SN_HEALTH_SKIP);
    REQUIRE(ck);
    ck = fx_expect_check(&rep, "nvml.nvlink", "0000:03:00.0", SN_HEALTH_SKIP);
    REQUIRE(ck);
    sn_health_report_release(&rep);
}

/* ---- NVML informs the PCIe check ---------------------------------------- */

static void test_pcie_slow_gpu_link_in_p0_fails_and_in_p8_warns(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    /* node-trained-down's GPU 0000:04:00.0 runs at 2.5 GT/s */
    REQUIRE(run(SYS "node-trained-down", NV "good.yaml", NULL, 0, &rep) ==
            SN_OK);
    ck = fx_expect_check(&rep, "pcie.link", "0000:04:00.0", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "in P0 (full performance)");
    sn_health_report_release(&rep);
    REQUIRE(run(SYS "node-trained-down", NV "bad.yaml", NULL, 0, &rep) ==
            SN_OK);
    ck = fx_expect_check(&rep, "pcie.link", "0000:04:00.0", SN_HEALTH_WARN);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "in P8");
    sn_health_report_release(&rep);
}

static const struct sn_test cases[] = {
    T(test_nvml_absent_library_is_a_skip_that_says_why),
    T(test_nvml_absent_library_with_gpus_on_the_bus_fails),
    T(test_nvml_turned_off_is_a_skip),
    T(test_nvml_a_library_that_is_not_nvml_is_refused),
    T(test_nvml_driver_not_loaded_fails),
    T(test_nvml_healthy_gpus_pass_every_check),
    T(test_nvml_uncorrected_ecc_and_pending_remap_fail),
    T(test_nvml_xids_are_explained_and_graded),
    T(test_nvml_power_brake_and_low_power_limit_fail),
    T(test_nvml_floating_memory_clock_and_heat_warn),
    T(test_nvml_nvlink_down_fails_naming_the_links),
    T(test_nvml_memory_held_by_a_dead_process_fails),
    T(test_nvml_process_list_read_at_every_driver_layout),
    T(test_nvml_idle_holder_warns_only_after_the_idle_time),
    T(test_nvml_gpu_on_the_bus_but_not_in_nvml_fails),
    T(test_nvml_lost_gpu_is_reported_once),
    T(test_nvml_pre_ampere_page_retirement_and_ecc_off_warn),
    T(test_pcie_slow_gpu_link_in_p0_fails_and_in_p8_warns),
};

SN_TEST_MAIN(cases)
