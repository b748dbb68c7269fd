/* test-health-host.c: versions and the compatibility matrix, the CPU
 * side and the kernel log, on the trees of tests/fixtures/sysfs/ and the
 * matrices of tests/fixtures/matrix/. */
/* covers: health */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "health-fixtures.h"
#include "sn/health.h"

#define SYS "tests/fixtures/sysfs/"
#define MX "tests/fixtures/matrix/"

static int run(const char *tree, unsigned probes,
               const struct sn_health_matrix *m,
               const struct sn_health_node *node, struct sn_health_report *rep)
{
    struct sn_health_config cfg;

    fx_health_config(&cfg, tree, probes);
    cfg.matrix = m;
    cfg.node = node;
    return fx_health_run(&cfg, rep);
}

/* The version.matrix verdict of the versions probe on tree, held to the
 * matrix at path, when it has status st; else NULL, having said why. rep
 * is the caller's to release once the run has been made. */
static const struct sn_health_check *
matrix_verdict(const char *path, const char *tree, enum sn_health_status st,
               struct sn_health_report *rep)
{
    struct sn_health_matrix *m = NULL;
    struct sn_error err;
    int rc;

    if (sn_health_matrix_load(path, &m, &err)) {
        printf("  %s\n", err.msg);
        return NULL;
    }
    rc = run(tree, SN_HEALTH_PROBE_VERSIONS, m, NULL, rep);
    sn_health_matrix_free(m);
    return rc ? NULL : fx_expect_check(rep, "version.matrix", "node", st);
}

/* ---- versions ---------------------------------------------------------- */

static void test_versions_are_read_from_where_installs_leave_them(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "node-good", SN_HEALTH_PROBE_VERSIONS, NULL, NULL, &rep) ==
            SN_OK);
    ck = fx_find_check(&rep, "version.kernel", "node");
    REQUIRE(ck);
    CHECK_STR(ck->evidence, "6.1.0-18-amd64 [proc/sys/kernel/osrelease]");
    ck = fx_find_check(&rep, "version.driver", "node");
    REQUIRE(ck);
    CHECK_STR(ck->evidence, "550.54.15 [proc/driver/nvidia/version]");
    ck = fx_find_check(&rep, "version.cuda", "node");
    REQUIRE(ck);
    CHECK_STR(ck->evidence, "12.4.1 [usr/local/cuda/version.json]");
    ck = fx_find_check(&rep, "version.nccl", "node");
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "2.20.5 [usr/lib/x86_64-linux-gnu/libnccl");
    ck = fx_find_check(&rep, "version.mpi", "node");
    REQUIRE(ck);
    CHECK_STR(ck->evidence, "4.1.4-3+b1 [dpkg libopenmpi3]");
    ck = fx_find_check(&rep, "version.blas", "node");
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "0.3.21 [");
    ck = fx_expect_check(&rep, "version.nic_firmware", "node", SN_HEALTH_PASS);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "28.39.1002 (mlx5_0), 28.39.1002 (mlx5_1)");
    ck = fx_find_check(&rep, "version.nvme_firmware", "node");
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "GDC5602Q (nvme0)");
    /* no NVML: no CUDA driver version, said as a skip */
    ck = fx_expect_check(&rep, "version.cuda_driver", "node", SN_HEALTH_SKIP);
    REQUIRE(ck);
    ck = fx_expect_check(&rep, "version.matrix", "node", SN_HEALTH_SKIP);
    REQUIRE(ck);
    sn_health_report_release(&rep);
}

static void test_versions_mixed_firmware_warns(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "node-drift", SN_HEALTH_PROBE_VERSIONS, NULL, NULL, &rep) ==
            SN_OK);
    ck = fx_expect_check(&rep, "version.nic_firmware", "node", SN_HEALTH_WARN);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "28.37.1014 (mlx5_1)");
    CHECK_CONTAINS(ck->evidence, "(mixed)");
    sn_health_report_release(&rep);
}

static void test_matrix_cannot_confirm_an_unreadable_version(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    /* with no NVML the CUDA driver version cannot be read, so an entry
     * that constrains it cannot be confirmed: that is a failure */
    ck = matrix_verdict(MX "h100-any.yaml", SYS "node-good", SN_HEALTH_FAIL,
                        &rep);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "cuda_driver not found (allowed 12.4)");
    sn_health_report_release(&rep);
}

static void test_matrix_passes_a_node_on_its_image(void)
{
    static const char text[] =
        "image: current\n"
        "allowed:\n"
        "  - {name: old, kernel: 5.15.*, driver: 525.*}\n"
        "  - name: current\n"
        "    kernel: 6.1.0-18-amd64\n"
        "    driver: [535.*, 550.54.*]\n"
        "    nccl: 2.20.*\n"
        "    nic_firmware: 28.39.*\n";
    struct sn_health_report rep;
    const struct sn_health_check *ck;
    char path[] = "/tmp/sn-test-matrix.XXXXXX";
    int fd = mkstemp(path);

    REQUIRE(fd >= 0);
    REQUIRE(write(fd, text, sizeof(text) - 1) == (ssize_t)sizeof(text) - 1);
    close(fd);
    ck = matrix_verdict(path, SYS "node-good", SN_HEALTH_PASS, &rep);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "matches 'current'");
    CHECK_CONTAINS(ck->evidence, "line 4");
    sn_health_report_release(&rep);
    unlink(path);
}

static void test_matrix_reports_what_drifted_from_the_image(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    ck = matrix_verdict(MX "h100-image.yaml", SYS "node-drift", SN_HEALTH_FAIL,
                        &rep);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "differs from its image 'h100-2024q1'");
    CHECK_CONTAINS(ck->evidence,
                   "kernel 6.1.0-21-amd64 (allowed 6.1.0-18-amd64)");
    CHECK_CONTAINS(ck->evidence, "driver 535.161.08 (allowed 550.54.*)");
    CHECK_CONTAINS(ck->evidence, "nccl 2.19.3 (allowed 2.20.*)");
    /* only the NIC whose firmware changed is named */
    CHECK_CONTAINS(ck->evidence, "nic_firmware 28.37.1014 (mlx5_1) (allowed");
    CHECK(strstr(ck->evidence, "(mlx5_0)") == NULL);
    /* unchanged components are not listed */
    CHECK(strstr(ck->evidence, "mpi") == NULL);
    sn_health_report_release(&rep);
}

static void test_matrix_without_image_holds_the_node_to_the_closest(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    ck = matrix_verdict(MX "h100-any.yaml", SYS "node-drift", SN_HEALTH_FAIL,
                        &rep);
    REQUIRE(ck);
    /* the 2023q4 entry differs in three components, 2024q1 in five */
    CHECK_CONTAINS(ck->evidence, "closest 'h100-2023q4'");
    CHECK_CONTAINS(ck->evidence, "line 16");
    sn_health_report_release(&rep);
}

static void test_matrix_errors_are_located(void)
{
    struct sn_health_matrix *m = NULL;
    struct sn_error err;
    char path[] = "/tmp/sn-test-matrix.XXXXXX";
    int fd;

    CHECK(sn_health_matrix_load(MX "bad-component.yaml", &m, &err) ==
          SN_EINPUT);
    CHECK(m == NULL);
    CHECK_STR(err.msg, MX "bad-component.yaml:5:5: unknown component 'ncll' "
                          "(did you mean 'nccl'?)");
    fd = mkstemp(path);
    REQUIRE(fd >= 0);
    REQUIRE(write(fd, "image: nope\nallowed:\n  - {name: a, kernel: 6.1}\n",
                  47) == 47);
    close(fd);
    CHECK(sn_health_matrix_load(path, &m, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, ":1:8: image: 'nope' is not the name of an "
                            "allowed entry");
    unlink(path);
    CHECK(sn_health_matrix_load(MX "no-such.yaml", &m, &err) != SN_OK);
}

/* ---- the CPU side -------------------------------------------------------- */

static void test_cpu_good_node_passes(void)
{
    struct sn_health_report rep;

    REQUIRE(run(SYS "node-good", SN_HEALTH_PROBE_CPU, NULL, NULL, &rep) ==
            SN_OK);
    CHECK(sn_health_report_worst(&rep) == SN_HEALTH_PASS);
    CHECK(rep.nchecks == 3);
    CHECK_CONTAINS(fx_find_check(&rep, "cpu.governor", "node")->evidence,
                   "'performance' on all 8 CPUs");
    sn_health_report_release(&rep);
}

static void test_cpu_powersave_and_numa_balancing_warn(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "node-drift", SN_HEALTH_PROBE_CPU, NULL, NULL, &rep) ==
            SN_OK);
    ck = fx_expect_check(&rep, "cpu.governor", "node", SN_HEALTH_WARN);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "4 of 8 CPUs not on 'performance' (e.g. "
                                 "'powersave')");
    ck = fx_expect_check(&rep, "cpu.numa_balancing", "node", SN_HEALTH_WARN);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->remedy, "kernel.numa_balancing=0");
    sn_health_report_release(&rep);
}

static void test_cpu_huge_pages_against_the_design(void)
{
    struct sn_health_node node;
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    sn_health_node_init(&node);
    sn_strlcpy(node.thp, "madvise", sizeof(node.thp));
    REQUIRE(run(SYS "node-good", SN_HEALTH_PROBE_CPU, NULL, &node, &rep) ==
            SN_OK);
    ck = fx_expect_check(&rep, "cpu.hugepages", "node", SN_HEALTH_PASS);
    REQUIRE(ck);
    sn_health_report_release(&rep);
    REQUIRE(run(SYS "node-drift", SN_HEALTH_PROBE_CPU, NULL, &node, &rep) ==
            SN_OK);
    ck = fx_expect_check(&rep, "cpu.hugepages", "node", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "transparent huge pages always");
    sn_health_report_release(&rep);
    node.thp[0] = '\0';
    node.hugepages_1g = 64;
    REQUIRE(run(SYS "node-good", SN_HEALTH_PROBE_CPU, NULL, &node, &rep) ==
            SN_OK);
    ck = fx_expect_check(&rep, "cpu.hugepages", "node", SN_HEALTH_FAIL);
    REQUIRE(ck);
    sn_health_report_release(&rep);
}

/* ---- the kernel log ------------------------------------------------------ */

static void test_klog_clean_log_passes(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "node-good", SN_HEALTH_PROBE_KLOG, NULL, NULL, &rep) ==
            SN_OK);
    ck = fx_expect_check(&rep, "kernel.log", "node", SN_HEALTH_PASS);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "in 4 records");
    sn_health_report_release(&rep);
}

static void test_klog_xid_aer_and_link_down_are_found(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "node-aer", SN_HEALTH_PROBE_KLOG, NULL, NULL, &rep) ==
            SN_OK);
    /* XID 79 names the GPU with its slot, and fails */
    ck = fx_expect_check(&rep, "kernel.log", "0000:84:00.0", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->subject, "slot GPU3");
    CHECK_CONTAINS(ck->evidence, "XID 79 (GPU has fallen off the bus)");
    CHECK_CONTAINS(ck->evidence, "the last 10 days ago");
    /* two corrected AER events (the detail lines are not counted) */
    ck = fx_expect_check(&rep, "kernel.log", "0000:03:00.0", SN_HEALTH_WARN);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "corrected PCIe (AER) errors: 2 lines");
    ck = fx_expect_check(&rep, "kernel.log", "0000:05:00.0", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "uncorrectable PCIe (AER) errors: 1 line");
    {
        size_t link = 0, limited = 0, xid13 = 0;
        for (size_t i = 0; i < rep.nchecks; i++) {
            link += strstr(rep.checks[i].evidence, "link down:") != NULL;
            limited +=
                strstr(rep.checks[i].evidence, "bandwidth limited") != NULL;
            xid13 += strstr(rep.checks[i].evidence, "XID 13 (") != NULL &&
                     rep.checks[i].status == SN_HEALTH_WARN;
        }
        CHECK(link == 1);
        CHECK(limited == 1);
        CHECK(xid13 == 1);
    }
    sn_health_report_release(&rep);
}

static void test_klog_unreadable_is_a_skip(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *ck;
    char dir[] = "/tmp/sn-test-klog.XXXXXX";

    REQUIRE(mkdtemp(dir));
    REQUIRE(run(dir, SN_HEALTH_PROBE_KLOG, NULL, NULL, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "kernel.log", "node", SN_HEALTH_SKIP);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "kernel log not readable");
    sn_health_report_release(&rep);
    rmdir(dir);
}

static const struct sn_test cases[] = {
    T(test_versions_are_read_from_where_installs_leave_them),
    T(test_versions_mixed_firmware_warns),
    T(test_matrix_cannot_confirm_an_unreadable_version),
    T(test_matrix_passes_a_node_on_its_image),
    T(test_matrix_reports_what_drifted_from_the_image),
    T(test_matrix_without_image_holds_the_node_to_the_closest),
    T(test_matrix_errors_are_located),
    T(test_cpu_good_node_passes),
    T(test_cpu_powersave_and_numa_balancing_warn),
    T(test_cpu_huge_pages_against_the_design),
    T(test_klog_clean_log_passes),
    T(test_klog_xid_aer_and_link_down_are_found),
    T(test_klog_unreadable_is_a_skip),
};

SN_TEST_MAIN(cases)
