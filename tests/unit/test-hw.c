/* test-hw.c: the hardware layer (src/lib/hw/) that doctor, bench and the
 * node agent read the machine through: files under a root, and NVML
 * opened through dlopen() (the fake NVML here), sampled by bench. */
/* covers: bench hw */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/lib/bench/bench-int.h"
#include "../../src/lib/hw/hw-int.h"
#include "harness.h"
#include "hw-fixtures.h"

static void put(const char *root, const char *rel, const char *text)
{
    char path[1024], dir[1024];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
        snprintf(dir, sizeof(dir), "%.*s", (int)(p - path), path);
        mkdir(dir, 0755);
    }
    f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_hw_reads_under_the_root(void)
{
    char root[] = "/tmp/sn-hw-XXXXXX", buf[64], unit[8], fifo[1100];
    long long v = 0;
    double d = 0;

    REQUIRE(mkdtemp(root));
    put(root, "sys/a/speed", "16.0 GT/s PCIe\n");
    put(root, "sys/a/count", "0x1f\n");
    put(root, "sys/a/bad", "12 apples\n");
    put(root, "sys/a/size", "32768K\n");
    /* a path with or without its leading slash names the same file */
    CHECK(sn__hw_read(root, "/sys/a/speed", buf, sizeof(buf)) == 0);
    CHECK_STR(buf, "16.0 GT/s PCIe");
    CHECK(sn__hw_read(root, "sys/a/speed", buf, sizeof(buf)) == 0);
    /* too large for the buffer is a failure, not a truncation */
    CHECK(sn__hw_read(root, "sys/a/speed", buf, 8) == -1);
    CHECK(sn__hw_read_long(root, "sys/a/count", &v) == 0 && v == 31);
    CHECK(sn__hw_read_long(root, "sys/a/bad", &v) == -1);
    CHECK(sn__hw_read_double(root, "sys/a/size", &d, unit, sizeof(unit)) == 0);
    CHECK(d == 32768);
    CHECK_STR(unit, "K");
    CHECK(sn__hw_read(root, "sys/a/absent", buf, sizeof(buf)) == -1);
    CHECK(sn__hw_exists(root, "sys/a/count"));
    CHECK(!sn__hw_exists(root, "sys/b"));
    /* a FIFO planted where an attribute should be is not waited on */
    snprintf(fifo, sizeof(fifo), "%s/sys/a/fifo", root);
    REQUIRE(mkfifo(fifo, 0600) == 0);
    CHECK(sn__hw_read(root, "sys/a/fifo", buf, sizeof(buf)) == -1);
    unlink(fifo);
    {
        char cmd[1100];
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
        CHECK(system(cmd) == 0);
    }
}

static void test_hw_nvml_open_says_why_not(void)
{
    char why[256];

    CHECK(!sn__hw_nvml_open("", why, sizeof(why)));
    CHECK_STR(why, "NVML not loaded (turned off)");
    CHECK(
        !sn__hw_nvml_open("/nonexistent/libnvidia-ml.so.1", why, sizeof(why)));
    CHECK_CONTAINS(why, "not loaded");
    CHECK(!sn__hw_nvml_open("libm.so.6", why, sizeof(why)));
    CHECK_CONTAINS(why, "not an NVML library");
    sn_test_fake_nvml(SN_TEST_NVML "no-driver.yaml");
    CHECK(!sn__hw_nvml_open(sn_test_fake_nvml(NULL), why, sizeof(why)));
    CHECK_CONTAINS(why, "nvmlInit failed: Driver Not Loaded");
}

static void test_hw_nvml_sample_reads_what_the_driver_gives(void)
{
    char why[256];
    const char *lib = sn_test_fake_nvml(SN_TEST_NVML "good.yaml");
    struct sn__hw_nvml *n = sn__hw_nvml_open(lib, why, sizeof(why));
    struct sn__hw_gpu_sample s;
    nvmlDevice_t dev = NULL;

    REQUIRE(n);
    /* both spellings of the address find the first GPU of the fixture */
    REQUIRE(n->GetHandleByPci);
    CHECK(n->GetHandleByPci("0000:03:00.0", &dev) == NVML_SUCCESS);
    REQUIRE(n->GetHandleByPci("00000000:03:00.0", &dev) == NVML_SUCCESS);
    CHECK(sn__hw_nvml_sample(n, dev, &s) >= 5);
    CHECK(s.sm_clock_hz == 1980e6);
    CHECK(s.mem_clock_hz == 2619e6);
    CHECK(s.temp_c == 41);
    CHECK_NEAR(s.power_w, 512.345, 1e-9);
    CHECK_NEAR(s.energy_j, 123456.789, 1e-9);
    CHECK(s.reasons_read);
    /* the second GPU has no power reading: NaN, not 0 */
    REQUIRE(n->GetHandleByPci("0000:04:00.0", &dev) == NVML_SUCCESS);
    sn__hw_nvml_sample(n, dev, &s);
    CHECK(isnan(s.power_w) && isnan(s.energy_j) && isnan(s.sm_clock_hz));
    CHECK(n->GetHandleByPci("0000:99:00.0", &dev) != NVML_SUCCESS);
    sn__hw_nvml_close(n);
}

/* bench reads the device through the library its options name: the fake
 * NVML stands in as it does for doctor, and "" turns NVML off */
static void test_bench_state_uses_the_nvml_the_options_name(void)
{
    struct sn__bench_ctx c;
    struct sn_bench_state st;
    char driver[96] = "";

    memset(&c, 0, sizeof(c));
    sn_bench_opts_init(&c.o);
    c.o.nvml_library = sn_test_fake_nvml(SN_TEST_NVML "good.yaml");
    memset(&st, 0, sizeof(st));
    st.power_w = NAN;
    CHECK(sn__bench_nvml_state(&c, "00000000:03:00.0", &st));
    CHECK_NEAR(st.power_w, 512.345, 1e-9);
    CHECK(st.sm_clock_hz == 1980e6);
    CHECK(st.temp_c == 41);
    CHECK(st.valid);
    CHECK(sn__bench_nvml_driver(&c, driver, sizeof(driver)));
    CHECK(driver[0] != '\0');
    CHECK(!sn__bench_nvml_state(&c, "0000:99:00.0", &st));
    sn__bench_nvml_close(&c);

    c.o.nvml_library = "";
    memset(&st, 0, sizeof(st));
    CHECK(!sn__bench_nvml_state(&c, "00000000:03:00.0", &st));
    CHECK(!st.valid);
    sn__bench_nvml_close(&c);
}

static const struct sn_test cases[] = {
    T(test_hw_reads_under_the_root),
    T(test_hw_nvml_open_says_why_not),
    T(test_hw_nvml_sample_reads_what_the_driver_gives),
    T(test_bench_state_uses_the_nvml_the_options_name),
};

SN_TEST_MAIN(cases)
