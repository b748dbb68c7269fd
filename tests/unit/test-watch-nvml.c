/* test-watch-nvml.c: the node agent's GPU collector (col-nvml.c) on the
 * fake NVML (tests/lib/fake-nvml.c) answering from an eight-GPU, HGX-like
 * fixture this file writes, and rewrites between intervals to move the
 * GPUs over simulated time. */
/* covers: metrics watch */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../src/lib/watch/watch-int.h"
#include "harness.h"
#include "hw-fixtures.h"
#include "sn/metrics.h"
#include "sn/util.h"

#define NGPU 8
#define GHOST_PID 4999999u /* above the kernel's largest pid_max (2^22) */

/* What a test varies per GPU between intervals. */
struct fgpu {
    unsigned long long reasons;
    const char *xids; /* a YAML list, "" for none */
    int lost, lost_calls;
    unsigned recovery; /* link 3's recovery counter */
    const char *extra; /* more YAML for the GPU's map, "" for none */
};

static char dir[64];
static char fixture[128];

/* Eight H100 SXM GPUs on eight buses, as on an HGX baseboard. */
static const unsigned buses[NGPU] = {0x18, 0x2a, 0x3a, 0x5d,
                                     0x9a, 0xab, 0xba, 0xdb};

/* Write the fixture for g[] to a temporary file and rename it over the
 * one the fake reads: it sees a new inode at its next look-up. */
static int write_fixture(const struct fgpu *g)
{
    char tmp[160];
    FILE *f;

    snprintf(tmp, sizeof(tmp), "%s/next.yaml", dir);
    f = fopen(tmp, "w");
    if (!f)
        return -1;
    fprintf(f, "driver: 550.54.15\ncuda: 12040\ngpus:\n");
    for (int i = 0; i < NGPU; i++) {
        fprintf(f,
                "  - bus: \"00000000:%02X:00.0\"\n"
                "    name: NVIDIA H100 80GB HBM3\n"
                "    uuid: GPU-5e1b0000-0000-4000-8000-0000000000%02x\n"
                "    lost: %d\n"
                "    lost_calls: %d\n"
                "    ecc: {mode: on, volatile_corrected: %d, "
                "volatile_uncorrected: 0}\n"
                "    remapped_rows: {corrected: 1, uncorrected: %d, "
                "pending: %d, failure: 0}\n"
                "    reasons: 0x%llx\n"
                "    power: {limit_w: 700, default_w: 700, min_w: 200, "
                "max_w: 700, usage_mw: %d, energy_mj: %d}\n"
                "    clocks: {mem: 2619, mem_max: 2619, sm: 1980, "
                "sm_max: 1980}\n"
                "    temperature: {gpu: %d, slowdown: 87, shutdown: 92}\n"
                "    memory: {used_mib: %d, total_mib: 81559}\n"
                "    nvlink: {links: 18, down: [%s], errors: [{link: 3, "
                "replay: 2, recovery: %u, crc_flit: 1, crc_data: 5}]}\n"
                "    utilization: 97\n"
                "    pcie_replays: %d\n"
                "    xids: [%s]\n%s",
                buses[i], i, g[i].lost, g[i].lost_calls, i, i == 5, i == 5,
                g[i].reasons, 512345 + i * 1000, 123456789 + i, 40 + i,
                1024 * (i + 1), i == 2 ? "5" : "", g[i].recovery, 3 * i,
                g[i].xids ? g[i].xids : "", g[i].extra ? g[i].extra : "");
    }
    if (fclose(f) != 0)
        return -1;
    return rename(tmp, fixture);
}

/* A scratch directory, a healthy fixture and the collector opened on it;
 * NULL when it could not open (having printed why). */
static void *start(struct fgpu *g)
{
    struct sn__watch_cfg cfg = {0};
    struct sn_error err = {0};
    void *state = NULL;

    snprintf(dir, sizeof(dir), "/tmp/sn-watch-nvml-XXXXXX");
    if (!mkdtemp(dir))
        return NULL;
    snprintf(fixture, sizeof(fixture), "%s/nvml.yaml", dir);
    if (write_fixture(g))
        return NULL;
    cfg.fsroot = "";
    cfg.nvml = sn_test_fake_nvml(fixture);
    if (sn__watch_col_nvml.open(&cfg, &state, &err)) {
        printf("  open: %s\n", err.msg);
        return NULL;
    }
    return state;
}

static void stop(void *state)
{
    char tmp[160];

    sn__watch_col_nvml.close(state);
    snprintf(tmp, sizeof(tmp), "%s/next.yaml", dir);
    unlink(tmp);
    unlink(fixture);
    rmdir(dir);
}

/* One interval at now: obs (initialised here) and the text rendering of
 * its samples in text (the caller releases both). */
static int collect(void *state, double now, struct sn__watch_obs *obs,
                   struct sn_buf *text)
{
    struct sn_metrics m = {0};
    struct sn_error err = {0};
    int rc;

    sn__watch_obs_init(obs, now);
    rc = sn__watch_col_nvml.collect(state, obs, &m, &err);
    if (rc)
        printf("  collect: %s\n", err.msg);
    sn_buf_init(text);
    sn_metrics_render_text(&m, text);
    sn_metrics_release(&m);
    return rc;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct sn_metrics_label *)a)->name,
                  ((const struct sn_metrics_label *)b)->name);
}

/* The labels of GPU i, with one more when name is not NULL, rendered as
 * the registry does: sorted by name. The string is static. */
static const char *labels(int i, const char *name, const char *value)
{
    static char buf[256];
    char bus[16], uuid[64], idx[8];
    struct sn_metrics_label l[4] = {
        {"gpu", idx}, {"pci_bus_id", bus}, {"uuid", uuid}, {name, value}};
    size_t n = name ? 4 : 3, len = 0;

    snprintf(idx, sizeof(idx), "%d", i);
    snprintf(bus, sizeof(bus), "0000:%02x:00.0", buses[i]);
    snprintf(uuid, sizeof(uuid), "GPU-5e1b0000-0000-4000-8000-0000000000%02x",
             i);
    qsort(l, n, sizeof(l[0]), by_name);
    for (size_t k = 0; k < n; k++)
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s=\"%s\"",
                                k ? "," : "{", l[k].name, l[k].value);
    snprintf(buf + len, sizeof(buf) - len, "}");
    return buf;
}

/* Whether text holds the line "metric{labels} value". */
static int has_line(const struct sn_buf *text, const char *metric,
                    const char *lab, const char *value)
{
    char line[512];
    const char *p;

    snprintf(line, sizeof(line), "\n%s%s %s\n", metric, lab, value);
    p = text->data ? strstr(text->data, line) : NULL;
    if (!p)
        printf("  no line: %s", line + 1);
    return p != NULL;
}

/* With SN_METRICS_OUT set to a directory, save text there as NAME.prom
 * for promtool (as test-metrics does). */
static void save(const struct sn_buf *text, const char *name)
{
    const char *out = getenv("SN_METRICS_OUT");
    char path[512];
    FILE *f;

    if (!out || !*out)
        return;
    snprintf(path, sizeof(path), "%s/%s.prom", out, name);
    f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fwrite(text->data, 1, text->len, f);
        fclose(f);
    }
}

/* ---- opening ------------------------------------------------------------ */

static void test_nvml_turned_off_fails_open_clearly(void)
{
    struct sn__watch_cfg cfg = {0};
    struct sn_error err = {0};
    void *state = (void *)&cfg;

    cfg.fsroot = "";
    CHECK(sn__watch_col_nvml.open(&cfg, &state, &err) == SN_ENOTSUP);
    CHECK(state == NULL);
    CHECK_CONTAINS(err.msg, "NVML turned off");
}

static void test_nvml_missing_library_fails_open_clearly(void)
{
    struct sn__watch_cfg cfg = {0};
    struct sn_error err = {0};
    void *state = NULL;

    cfg.fsroot = "";
    cfg.nvml = "/nonexistent/libnvidia-ml.so.1";
    CHECK(sn__watch_col_nvml.open(&cfg, &state, &err) == SN_ERUNTIME);
    CHECK(state == NULL);
    CHECK_CONTAINS(err.msg, "NVML library /nonexistent/libnvidia-ml.so.1 "
                            "not loaded");
    sn_error_clear(&err);
    cfg.nvml = "libyaml-0.so.2";
    CHECK(sn__watch_col_nvml.open(&cfg, &state, &err) == SN_ERUNTIME);
    CHECK_CONTAINS(err.msg, "not an NVML library");
}

static void test_nvml_driver_not_loaded_fails_open(void)
{
    struct sn__watch_cfg cfg = {0};
    struct sn_error err = {0};
    void *state = NULL;

    cfg.fsroot = "";
    cfg.nvml = sn_test_fake_nvml(SN_TEST_NVML "no-driver.yaml");
    CHECK(sn__watch_col_nvml.open(&cfg, &state, &err) == SN_ERUNTIME);
    CHECK(state == NULL);
    CHECK_CONTAINS(err.msg, "nvmlInit failed: Driver Not Loaded");
}

/* A slow nvmlInit is the agent's deadline to enforce; open itself comes
 * back when the driver does and works. */
static void test_nvml_slow_init_opens_when_the_driver_answers(void)
{
    struct sn__watch_cfg cfg = {0};
    struct sn_error err = {0};
    struct sn__watch_obs obs;
    struct sn_buf text;
    void *state = NULL;
    char path[] = "/tmp/sn-watch-slow-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

    REQUIRE(f);
    fprintf(f, "hang_init: 1\ngpus:\n  - {bus: \"00000000:18:00.0\", "
               "temperature: {gpu: 33}}\n");
    fclose(f);
    cfg.fsroot = "";
    cfg.nvml = sn_test_fake_nvml(path);
    CHECK(sn__watch_col_nvml.open(&cfg, &state, &err) == SN_OK);
    if (state) {
        CHECK(collect(state, 0, &obs, &text) == 0);
        CHECK(obs.ngpus == 1 && obs.gpus[0].temp_c == 33);
        sn__watch_obs_release(&obs);
        sn_buf_release(&text);
        sn__watch_col_nvml.close(state);
    }
    unlink(path);
}

/* ---- readings ----------------------------------------------------------- */

static void test_nvml_hgx_readings_in_base_units(void)
{
    struct fgpu g[NGPU] = {{0}};
    struct sn__watch_obs obs;
    struct sn_buf text;
    void *state;
    const struct sn__watch_gpu *g0, *g2, *g5;

    g[0].recovery = 4;
    REQUIRE((state = start(g)));
    REQUIRE(collect(state, 100, &obs, &text) == 0);
    CHECK(obs.nvml);
    CHECK(obs.nvml_count == NGPU);
    REQUIRE(obs.ngpus == NGPU);
    g0 = &obs.gpus[0];
    g2 = &obs.gpus[2];
    g5 = &obs.gpus[5];
    CHECK(g0->index == 0 && obs.gpus[7].index == 7);
    CHECK_STR(g0->bus, "0000:18:00.0");
    CHECK_STR(obs.gpus[7].bus, "0000:db:00.0");
    CHECK_STR(g0->uuid, "GPU-5e1b0000-0000-4000-8000-000000000000");
    CHECK_STR(g0->name, "NVIDIA H100 80GB HBM3");
    CHECK(!g0->lost);
    /* mW -> W, mJ -> J, MHz -> Hz, MiB -> bytes, percent -> ratio */
    CHECK_NEAR(g0->power_w, 512.345, 1e-12);
    CHECK_NEAR(g0->power_limit_w, 700, 1e-12);
    CHECK_NEAR(g0->energy_j, 123456.789, 1e-12);
    CHECK_NEAR(g0->sm_clock_hz, 1.98e9, 1e-12);
    CHECK_NEAR(g0->sm_clock_max_hz, 1.98e9, 1e-12);
    CHECK_NEAR(g0->mem_clock_hz, 2.619e9, 1e-12);
    CHECK_NEAR(obs.gpus[3].temp_c, 43, 1e-12);
    CHECK_NEAR(g0->temp_slowdown_c, 87, 1e-12);
    CHECK_NEAR(obs.gpus[1].mem_used_bytes, 2048.0 * 1048576, 1e-12);
    CHECK_NEAR(g0->mem_total_bytes, 81559.0 * 1048576, 1e-12);
    CHECK_NEAR(g0->util, 0.97, 1e-12);
    CHECK_NEAR(obs.gpus[4].ecc_corrected, 4, 1e-12);
    CHECK(g0->ecc_uncorrected == 0);
    CHECK(g5->remap_pending == 1 && g0->remap_pending == 0);
    CHECK(g5->remap_failure == 0);
    CHECK(g0->nvlink_links == 18 && g0->nvlink_up == 18);
    CHECK(g2->nvlink_links == 18 && g2->nvlink_up == 17);
    CHECK(g0->nvlink_recovery == 4 && g0->nvlink_replay == 2);
    CHECK(g0->nvlink_crc == 6); /* flit 1 + data 5 */
    CHECK(g0->reasons_read && g0->reasons == 0);
    CHECK(g0->nprocs == 0 && g0->nxids == 0);

    CHECK(has_line(&text, "supernode_gpu_power_watts", labels(0, NULL, NULL),
                   "512.345"));
    CHECK(has_line(&text, "supernode_gpu_energy_joules_total",
                   labels(0, NULL, NULL), "123456.789"));
    CHECK(has_line(&text, "supernode_gpu_sm_clock_hertz", labels(0, NULL, NULL),
                   "1980000000"));
    CHECK(has_line(&text, "supernode_gpu_memory_clock_hertz",
                   labels(7, NULL, NULL), "2619000000"));
    CHECK(has_line(&text, "supernode_gpu_temperature_celsius",
                   labels(7, NULL, NULL), "47"));
    CHECK(has_line(&text, "supernode_gpu_memory_used_bytes",
                   labels(0, NULL, NULL), "1073741824"));
    CHECK(has_line(&text, "supernode_gpu_utilization_ratio",
                   labels(0, NULL, NULL), "0.97"));
    CHECK(has_line(&text, "supernode_gpu_nvlink_recoveries_total",
                   labels(0, "link", "3"), "4"));
    CHECK(has_line(&text, "supernode_gpu_nvlink_up", labels(2, "link", "5"),
                   "0"));
    CHECK(has_line(&text, "supernode_gpu_nvlink_up", labels(2, "link", "4"),
                   "1"));
    CHECK(has_line(&text, "supernode_gpu_remapped_rows_total",
                   labels(5, "cause", "uncorrectable"), "1"));
    CHECK(has_line(&text, "supernode_gpu_pcie_replays_total",
                   labels(4, NULL, NULL), "12"));
    CHECK(has_line(&text, "supernode_gpu_row_remap_pending",
                   labels(5, NULL, NULL), "1"));
    CHECK(has_line(&text, "supernode_gpu_lost", labels(0, NULL, NULL), "0"));
    CHECK(has_line(&text, "supernode_nvml_devices", "", "8"));
    CHECK_CONTAINS(text.data,
                   "# TYPE supernode_gpu_energy_joules_total counter\n");
    CHECK_CONTAINS(text.data,
                   "# TYPE supernode_gpu_throttle_seconds_total counter\n");
    CHECK_CONTAINS(text.data, "supernode_nvml_driver_info{driver_version="
                              "\"550.54.15\"} 1\n");
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);
    stop(state);
}

/* Each interval adds its length to every reason set at its end: three
 * intervals at 0, 15 and 30 s with the bits changing in between. */
static void test_nvml_throttle_seconds_accumulate_per_reason(void)
{
    struct fgpu g[NGPU] = {{0}};
    struct sn__watch_obs obs;
    struct sn_buf text;
    void *state;

    g[0].reasons = 0x4; /* sw_power_cap */
    REQUIRE((state = start(g)));
    REQUIRE(collect(state, 0, &obs, &text) == 0);
    /* the first interval has no length: every counter starts at 0 */
    CHECK(obs.gpus[0].reasons == 0x4);
    CHECK(has_line(&text, "supernode_gpu_throttle_seconds_total",
                   labels(0, "reason", "sw_power_cap"), "0"));
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);

    g[0].reasons = 0x4 | 0x20; /* + sw_thermal */
    g[1].reasons = 0x8;        /* hw_slowdown */
    REQUIRE(write_fixture(g) == 0);
    REQUIRE(collect(state, 15, &obs, &text) == 0);
    CHECK(obs.gpus[0].reasons == 0x24 && obs.gpus[1].reasons == 0x8);
    CHECK(has_line(&text, "supernode_gpu_throttle_seconds_total",
                   labels(0, "reason", "sw_power_cap"), "15"));
    CHECK(has_line(&text, "supernode_gpu_throttle_seconds_total",
                   labels(0, "reason", "sw_thermal"), "15"));
    CHECK(has_line(&text, "supernode_gpu_throttle_seconds_total",
                   labels(1, "reason", "hw_slowdown"), "15"));
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);

    g[0].reasons = 0x20;       /* sw_thermal alone */
    g[1].reasons = 0x8 | 0x80; /* + hw_power_brake */
    REQUIRE(write_fixture(g) == 0);
    REQUIRE(collect(state, 30, &obs, &text) == 0);
    CHECK(has_line(&text, "supernode_gpu_throttle_seconds_total",
                   labels(0, "reason", "sw_power_cap"), "15"));
    CHECK(has_line(&text, "supernode_gpu_throttle_seconds_total",
                   labels(0, "reason", "sw_thermal"), "30"));
    CHECK(has_line(&text, "supernode_gpu_throttle_seconds_total",
                   labels(1, "reason", "hw_slowdown"), "30"));
    CHECK(has_line(&text, "supernode_gpu_throttle_seconds_total",
                   labels(1, "reason", "hw_power_brake"), "15"));
    CHECK(has_line(&text, "supernode_gpu_throttle_seconds_total",
                   labels(1, "reason", "gpu_idle"), "0"));
    CHECK(has_line(&text, "supernode_gpu_throttle_seconds_total",
                   labels(7, "reason", "display_clocks"), "0"));
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);

    /* a clock that goes back charges nothing; the next interval counts
     * from where it went */
    REQUIRE(collect(state, 20, &obs, &text) == 0);
    CHECK(has_line(&text, "supernode_gpu_throttle_seconds_total",
                   labels(0, "reason", "sw_thermal"), "30"));
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);
    REQUIRE(collect(state, 27.5, &obs, &text) == 0);
    CHECK(has_line(&text, "supernode_gpu_throttle_seconds_total",
                   labels(0, "reason", "sw_thermal"), "37.5"));
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);
    stop(state);
}

/* XIDs are a counter by code that grows by the new events only. */
static void test_nvml_xids_count_new_events_only(void)
{
    struct fgpu g[NGPU] = {{0}};
    struct sn__watch_obs obs;
    struct sn_buf text;
    void *state;

    REQUIRE((state = start(g)));
    REQUIRE(collect(state, 0, &obs, &text) == 0);
    CHECK(obs.gpus[3].nxids == 0);
    CHECK(!strstr(text.data, "supernode_gpu_xid_total{"));
    CHECK(has_line(&text, "supernode_nvml_xid_events_enabled", "", "1"));
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);

    g[3].xids = "48, 63";
    REQUIRE(write_fixture(g) == 0);
    REQUIRE(collect(state, 15, &obs, &text) == 0);
    REQUIRE(obs.gpus[3].nxids == 2);
    CHECK(obs.gpus[3].xids[0] == 48 && obs.gpus[3].xids[1] == 63);
    CHECK(obs.gpus[2].nxids == 0);
    CHECK(has_line(&text, "supernode_gpu_xid_total", labels(3, "xid", "48"),
                   "1"));
    CHECK(has_line(&text, "supernode_gpu_xid_total", labels(3, "xid", "63"),
                   "1"));
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);

    /* the fixture changes elsewhere: no new event, the counts stay */
    g[0].reasons = 0x1;
    REQUIRE(write_fixture(g) == 0);
    REQUIRE(collect(state, 30, &obs, &text) == 0);
    CHECK(obs.gpus[3].nxids == 0);
    CHECK(has_line(&text, "supernode_gpu_xid_total", labels(3, "xid", "48"),
                   "1"));
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);

    g[3].xids = "48";
    REQUIRE(write_fixture(g) == 0);
    REQUIRE(collect(state, 45, &obs, &text) == 0);
    CHECK(obs.gpus[3].nxids == 1 && obs.gpus[3].xids[0] == 48);
    CHECK(has_line(&text, "supernode_gpu_xid_total", labels(3, "xid", "48"),
                   "2"));
    CHECK(has_line(&text, "supernode_gpu_xid_total", labels(3, "xid", "63"),
                   "1"));
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);

    /* a burst of one code does not push out a critical one after it:
     * each code is observed once an interval, in the order last seen */
    g[3].xids = "13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, "
                "13, 13, 13, 13, 13, 13, 31, 13, 79";
    REQUIRE(write_fixture(g) == 0);
    REQUIRE(collect(state, 60, &obs, &text) == 0);
    REQUIRE(obs.gpus[3].nxids == 3);
    CHECK(obs.gpus[3].xids[0] == 31 && obs.gpus[3].xids[1] == 13 &&
          obs.gpus[3].xids[2] == 79);
    CHECK(has_line(&text, "supernode_gpu_xid_total", labels(3, "xid", "13"),
                   "21"));
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);
    stop(state);
}

/* A GPU that falls off the bus between two intervals is a metric and an
 * observation, still named by what it was. */
static void test_nvml_gpu_lost_between_intervals_is_reported(void)
{
    struct fgpu g[NGPU] = {{0}};
    struct sn__watch_obs obs;
    struct sn_buf text;
    void *state;

    g[6].reasons = 0x40; /* hw_thermal */
    REQUIRE((state = start(g)));
    REQUIRE(collect(state, 0, &obs, &text) == 0);
    CHECK(!obs.gpus[6].lost);
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);
    REQUIRE(collect(state, 15, &obs, &text) == 0);
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);

    g[6].lost = 1;       /* its handle answers lost */
    g[6].xids = "79";    /* fallen off the bus: the event names it */
    g[1].lost_calls = 1; /* its handle opens, every reading answers lost */
    REQUIRE(write_fixture(g) == 0);
    REQUIRE(collect(state, 30, &obs, &text) == 0);
    CHECK(obs.nvml_count == NGPU);
    REQUIRE(obs.ngpus == NGPU);
    CHECK(obs.gpus[6].lost);
    CHECK(obs.gpus[1].lost);
    CHECK(!obs.gpus[5].lost);
    CHECK_STR(obs.gpus[1].bus, "0000:2a:00.0");
    CHECK(has_line(&text, "supernode_gpu_lost", labels(1, NULL, NULL), "1"));
    CHECK_STR(obs.gpus[6].bus, "0000:ba:00.0");
    CHECK_STR(obs.gpus[6].uuid, "GPU-5e1b0000-0000-4000-8000-000000000006");
    CHECK(isnan(obs.gpus[6].temp_c) && isnan(obs.gpus[6].power_w));
    CHECK(obs.gpus[6].nxids == 1 && obs.gpus[6].xids[0] == 79);
    CHECK(has_line(&text, "supernode_gpu_xid_total", labels(6, "xid", "79"),
                   "1"));
    CHECK(has_line(&text, "supernode_gpu_lost", labels(6, NULL, NULL), "1"));
    CHECK(has_line(&text, "supernode_gpu_lost", labels(5, NULL, NULL), "0"));
    /* its counters go on; no reading of it is made up */
    CHECK(has_line(&text, "supernode_gpu_throttle_seconds_total",
                   labels(6, "reason", "hw_thermal"), "15"));
    CHECK(!strstr(text.data, "supernode_gpu_temperature_celsius{gpu=\"6\""));
    save(&text, "nvml-lost");
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);
    stop(state);
}

/* A GPU lost before the agent ever read it has no address to give. */
static void test_nvml_gpu_lost_from_the_start_is_reported(void)
{
    struct fgpu g[NGPU] = {{0}};
    struct sn__watch_obs obs;
    struct sn_buf text;
    void *state;

    g[7].lost = 1;
    REQUIRE((state = start(g)));
    REQUIRE(collect(state, 0, &obs, &text) == 0);
    REQUIRE(obs.ngpus == NGPU);
    CHECK(obs.gpus[7].lost);
    CHECK_STR(obs.gpus[7].bus, "");
    CHECK(has_line(&text, "supernode_gpu_lost",
                   "{gpu=\"7\",pci_bus_id=\"\",uuid=\"\"}", "1"));
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);
    stop(state);
}

/* ---- processes ---------------------------------------------------------- */

/* The state letter of pid in /proc, or 0 when it has none. */
static char proc_state(pid_t pid)
{
    char path[64], buf[512], *p;
    FILE *f;
    size_t n;

    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    if (!(f = fopen(path, "r")))
        return 0;
    n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    p = strrchr(buf, ')');
    return p && p[1] == ' ' ? p[2] : 0;
}

/* Wait (at most 5 s) until pid is in one of the states of want. */
static int wait_state(pid_t pid, const char *want)
{
    struct timespec ms = {0, 1000000};

    for (int k = 0; k < 5000; k++) {
        char st = proc_state(pid);
        if (st && strchr(want, st))
            return 0;
        nanosleep(&ms, NULL);
    }
    return -1;
}

/* A real process holds memory on the fake GPU, then dies: while it is
 * alive its state is read, as a zombie it is 'Z', reaped it is gone (0)
 * while NVML still holds its memory. */
static void test_nvml_process_that_dies_is_seen_gone(void)
{
    struct fgpu g[NGPU] = {{0}};
    struct sn__watch_obs obs;
    struct sn_buf text;
    char extra[256], lab[64];
    void *state;
    pid_t child = fork();
    const struct sn__watch_proc *p;

    if (child == 0) {
        execlp("sleep", "sleep", "60", (char *)NULL);
        _exit(127);
    }
    REQUIRE(child > 0);
    snprintf(extra, sizeof(extra),
             "    processes: [{pid: %d, memory_mib: 4096, sm: 0}, "
             "{pid: %u, memory_mib: 1024}]\n",
             (int)child, GHOST_PID);
    g[0].extra = extra;
    state = start(g);
    if (!state || wait_state(child, "S") != 0) {
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
        REQUIRE(!"the collector opened and the child sleeps");
    }
    REQUIRE(collect(state, 0, &obs, &text) == 0);
    REQUIRE(obs.gpus[0].nprocs == 2);
    p = &obs.gpus[0].procs[0]; /* the most memory first */
    CHECK(p->pid == (unsigned)child);
    CHECK(p->state == 'S' || p->state == 'R');
    CHECK_NEAR(p->mem_bytes, 4096.0 * 1048576, 1e-12);
    CHECK(p->sm_util == 0);
    CHECK(obs.gpus[0].procs[1].pid == GHOST_PID);
    CHECK(obs.gpus[0].procs[1].state == 0);
    CHECK(isnan(obs.gpus[0].procs[1].sm_util));
    CHECK(obs.gpus[1].nprocs == 0);
    snprintf(lab, sizeof(lab), "{gpu=\"0\",pid=\"%d\"}", (int)child);
    CHECK(has_line(&text, "supernode_gpu_process_memory_bytes", lab,
                   "4294967296"));
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);

    kill(child, SIGKILL);
    CHECK(wait_state(child, "Z") == 0);
    REQUIRE(collect(state, 15, &obs, &text) == 0);
    CHECK(obs.gpus[0].procs[0].state == 'Z');
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);

    CHECK(waitpid(child, NULL, 0) == child);
    REQUIRE(collect(state, 30, &obs, &text) == 0);
    REQUIRE(obs.gpus[0].nprocs == 2);
    p = &obs.gpus[0].procs[0];
    CHECK(p->pid == (unsigned)child);
    CHECK(p->state == 0); /* gone, its memory still held */
    CHECK_NEAR(p->mem_bytes, 4096.0 * 1048576, 1e-12);
    CHECK(has_line(&text, "supernode_gpu_process_memory_bytes", lab,
                   "4294967296"));
    save(&text, "nvml-procs");
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);
    stop(state);
}

/* Forty processes on one GPU: the SN_WATCH_PROCS_MAX holding the most
 * memory are kept. */
static void test_nvml_processes_are_capped_by_memory(void)
{
    struct fgpu g[NGPU] = {{0}};
    struct sn__watch_obs obs;
    struct sn_buf text;
    struct sn_buf extra = SN_BUF_INIT;
    void *state;
    unsigned smallest = ~0u;

    sn_buf_puts(&extra, "    processes: [");
    for (unsigned k = 0; k < 40; k++)
        sn_buf_printf(&extra, "%s{pid: %u, memory_mib: %u}", k ? ", " : "",
                      GHOST_PID + k, 100 + (k * 7) % 40);
    sn_buf_puts(&extra, "]\n");
    g[4].extra = extra.data;
    state = start(g);
    sn_buf_release(&extra);
    REQUIRE(state);
    REQUIRE(collect(state, 0, &obs, &text) == 0);
    CHECK(obs.gpus[4].nprocs == SN_WATCH_PROCS_MAX);
    for (size_t k = 0; k < obs.gpus[4].nprocs; k++) {
        double mib = obs.gpus[4].procs[k].mem_bytes / 1048576;
        if (mib < smallest)
            smallest = (unsigned)mib;
        CHECK(k == 0 || obs.gpus[4].procs[k].mem_bytes <=
                            obs.gpus[4].procs[k - 1].mem_bytes);
    }
    /* memory 100..139 MiB, one process each: the 32 largest are >= 108 */
    CHECK(smallest == 108);
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);
    stop(state);
}

/* A process list in entries of no known size is counted, not guessed. */
static void test_nvml_unknown_process_layout_is_a_counted_fault(void)
{
    struct fgpu g[NGPU] = {{0}};
    struct sn__watch_obs obs;
    struct sn_buf text;
    void *state;

    g[0].extra = "    processes: [{pid: 4999999, memory_mib: 1024}]\n";
    REQUIRE((state = start(g)));
    setenv("SN_FAKE_NVML_STRIDE", "20", 1);
    CHECK(collect(state, 0, &obs, &text) == 0);
    unsetenv("SN_FAKE_NVML_STRIDE");
    CHECK(obs.gpus[0].nprocs == 0);
    CHECK(has_line(&text, "supernode_nvml_faults_total",
                   "{fault=\"process_layout\"}", "1"));
    CHECK(has_line(&text, "supernode_nvml_faults_total", "{fault=\"call\"}",
                   "0"));
    sn__watch_obs_release(&obs);
    sn_buf_release(&text);
    stop(state);
}

static const struct sn_test cases[] = {
    T(test_nvml_turned_off_fails_open_clearly),
    T(test_nvml_missing_library_fails_open_clearly),
    T(test_nvml_driver_not_loaded_fails_open),
    T(test_nvml_slow_init_opens_when_the_driver_answers),
    T(test_nvml_hgx_readings_in_base_units),
    T(test_nvml_throttle_seconds_accumulate_per_reason),
    T(test_nvml_xids_count_new_events_only),
    T(test_nvml_gpu_lost_between_intervals_is_reported),
    T(test_nvml_gpu_lost_from_the_start_is_reported),
    T(test_nvml_process_that_dies_is_seen_gone),
    T(test_nvml_processes_are_capped_by_memory),
    T(test_nvml_unknown_process_layout_is_a_counted_fault),
};

SN_TEST_MAIN(cases)
