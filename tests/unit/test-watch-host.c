/* test-watch-host.c: the node agent's host collectors (hwmon, PCI,
 * network, kernel log) on the tree of tests/fixtures/watch/host/ (written
 * by make-host.sh there) and on trees the cases write and change between
 * two collects. */
/* covers: metrics watch */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/lib/watch/host-int.h"
#include "harness.h"

#define HOST "tests/fixtures/watch/host"

/* ---- helpers ----------------------------------------------------------- */

/* One collector's life over a root: open, collects, close. */
struct run {
    const struct sn__watch_collector *col;
    void *state;
    struct sn__watch_obs obs;
    struct sn_metrics m;
    struct sn_buf text;
};

static int run_open(struct run *r, const struct sn__watch_collector *col,
                    const char *root)
{
    struct sn__watch_cfg cfg = {0};
    struct sn_error err = {0};
    int rc;

    memset(r, 0, sizeof(*r));
    r->col = col;
    sn__watch_obs_init(&r->obs, 0);
    sn_buf_init(&r->text);
    cfg.fsroot = root;
    rc = col->open(&cfg, &r->state, &err);
    if (rc)
        printf("  open %s: %s\n", col->name, err.msg);
    return rc;
}

/* One interval: obs, m and text hold what it gave. */
static int run_collect(struct run *r)
{
    struct sn_error err = {0};
    int rc;

    sn__watch_obs_release(&r->obs);
    sn_metrics_release(&r->m);
    sn_buf_reset(&r->text);
    rc = r->col->collect(r->state, &r->obs, &r->m, &err);
    if (rc)
        printf("  collect %s: %s\n", r->col->name, err.msg);
    sn_metrics_render_text(&r->m, &r->text);
    return rc;
}

static void run_close(struct run *r)
{
    r->col->close(r->state);
    sn__watch_obs_release(&r->obs);
    sn_metrics_release(&r->m);
    sn_buf_release(&r->text);
}

static const char *next_line(const char *p)
{
    p = strchr(p, '\n');
    return p ? p + 1 : NULL;
}

/* The value of the sample line that starts with series (the name and its
 * labels, sorted by label name, as rendered); NaN when there is none. */
static double value_of(struct run *r, const char *series)
{
    const char *text = r->text.data ? r->text.data : "";
    size_t len = strlen(series);

    for (const char *p = text; p && *p; p = next_line(p))
        if (!strncmp(p, series, len) && p[len] == ' ')
            return strtod(p + len + 1, NULL);
    return NAN;
}

/* Sample lines of family name (exactly: not name_bucket). */
static size_t count_series(struct run *r, const char *name)
{
    const char *text = r->text.data ? r->text.data : "";
    size_t len = strlen(name), n = 0;

    for (const char *p = text; p && *p; p = next_line(p))
        if (!strncmp(p, name, len) && (p[len] == '{' || p[len] == ' '))
            n++;
    return n;
}

static const struct sn__watch_sensor *sensor(const struct sn__watch_obs *o,
                                             const char *chip, const char *s)
{
    for (size_t i = 0; i < o->nsensors; i++)
        if (!strcmp(o->sensors[i].chip, chip) &&
            !strcmp(o->sensors[i].sensor, s))
            return &o->sensors[i];
    return NULL;
}

static const struct sn__watch_link *link_of(const struct sn__watch_obs *o,
                                            const char *dev)
{
    for (size_t i = 0; i < o->nlinks; i++)
        if (!strcmp(o->links[i].dev, dev))
            return &o->links[i];
    return NULL;
}

/* A scratch root, removed by rm -rf at the end of the case. */
static char *scratch(void)
{
    char *dir = sn_xstrdup("/tmp/sn-watch-host-XXXXXX");

    if (!mkdtemp(dir)) {
        free(dir);
        return NULL;
    }
    return dir;
}

static void scratch_free(char *dir)
{
    char cmd[256];

    if (!dir)
        return;
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("  could not remove %s\n", dir);
    free(dir);
}

/* Write (or, with append, add to) root/rel, making its directories. */
static int put(const char *root, const char *rel, const void *data, size_t len,
               bool append)
{
    char path[1024], cmd[1200];
    FILE *f;
    size_t ok;

    snprintf(path, sizeof(path), "%s/%s", root, rel);
    snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
    if (system(cmd) != 0)
        return -1;
    if (!(f = fopen(path, append ? "ab" : "wb")))
        return -1;
    ok = fwrite(data, 1, len, f);
    return fclose(f) == 0 && ok == len ? 0 : -1;
}

static int puts_at(const char *root, const char *rel, const char *s)
{
    return put(root, rel, s, strlen(s), false);
}

static int append_at(const char *root, const char *rel, const char *s)
{
    return put(root, rel, s, strlen(s), true);
}

/* ---- hwmon --------------------------------------------------------------- */

static void test_hwmon_reads_every_chip_in_base_units(void)
{
    struct run r;
    const struct sn__watch_sensor *s;

    REQUIRE(run_open(&r, &sn__watch_col_hwmon, HOST) == 0);
    CHECK(run_collect(&r) == 0);
    /* nct7802 5, sht3x 2, two PSUs 6 each, nvme 1 (energy is no sensor) */
    CHECK(r.obs.nsensors == 20);
    REQUIRE((s = sensor(&r.obs, "nct7802", "temp1")));
    CHECK_NEAR(s->value, 24.5, 1e-12);
    CHECK(s->kind == SN_WATCH_TEMP);
    CHECK_STR(s->label, "Inlet");
    CHECK_STR(s->group, "inlet");
    REQUIRE((s = sensor(&r.obs, "nct7802", "temp2")));
    CHECK_STR(s->group, "outlet");
    REQUIRE((s = sensor(&r.obs, "nct7802", "in0")));
    CHECK_NEAR(s->value, 12, 1e-12);
    CHECK(s->kind == SN_WATCH_VOLT);
    REQUIRE((s = sensor(&r.obs, "nct7802", "fan1")));
    CHECK_NEAR(s->value, 9800, 1e-12);
    CHECK_STR(s->group, "");
    /* two chips named pmbus, told apart by their I2C devices */
    REQUIRE((s = sensor(&r.obs, "pmbus:1-0058", "power1")));
    CHECK_NEAR(s->value, 960, 1e-12); /* power1_input, not its average */
    CHECK(s->kind == SN_WATCH_POWER);
    REQUIRE((s = sensor(&r.obs, "pmbus:1-0059", "power2")));
    CHECK_NEAR(s->value, 890, 1e-12); /* only power2_average there */
    REQUIRE((s = sensor(&r.obs, "pmbus:1-0059", "curr2")));
    CHECK_NEAR(s->value, 78, 1e-12);
    CHECK(s->kind == SN_WATCH_CURR);
    REQUIRE((s = sensor(&r.obs, "sht3x", "humidity1")));
    CHECK_NEAR(s->value, 0.455, 1e-12);
    /* the room: the temperature beside the humidity sensor beats the
     * inlet */
    CHECK_NEAR(r.obs.room_c, 22, 1e-12);
    CHECK_NEAR(r.obs.room_humidity, 0.455, 1e-12);

    CHECK_NEAR(value_of(&r, "supernode_hwmon_temperature_celsius{chip="
                            "\"nct7802\",label=\"Inlet\",sensor=\"temp1\"}"),
               24.5, 1e-12);
    CHECK_NEAR(value_of(&r, "supernode_hwmon_temperature_celsius{chip="
                            "\"sht3x\",sensor=\"temp1\"}"),
               22, 1e-12);
    CHECK_NEAR(value_of(&r, "supernode_hwmon_voltage_volts{chip=\"nct7802\","
                            "label=\"12V\",sensor=\"in0\"}"),
               12, 1e-12);
    CHECK_NEAR(value_of(&r, "supernode_hwmon_voltage_volts{chip=\"pmbus:1-"
                            "0058\",label=\"vin\",sensor=\"in1\"}"),
               230, 1e-12);
    CHECK_NEAR(value_of(&r, "supernode_hwmon_current_amperes{chip=\"pmbus:1-"
                            "0058\",label=\"iin\",sensor=\"curr1\"}"),
               4.2, 1e-12);
    CHECK_NEAR(value_of(&r, "supernode_hwmon_power_watts{chip=\"pmbus:1-0058\""
                            ",label=\"pout1\",sensor=\"power2\"}"),
               903, 1e-12);
    CHECK_NEAR(value_of(&r, "supernode_hwmon_fan_rpm{chip=\"nct7802\",sensor="
                            "\"fan1\"}"),
               9800, 1e-12);
    CHECK_NEAR(value_of(&r, "supernode_hwmon_humidity_ratio{chip=\"sht3x\","
                            "sensor=\"humidity1\"}"),
               0.455, 1e-12);
    CHECK_NEAR(value_of(&r, "supernode_hwmon_energy_joules_total{chip="
                            "\"nct7802\",sensor=\"energy1\"}"),
               123456.789, 1e-12);
    CHECK_CONTAINS(r.text.data, "# TYPE supernode_hwmon_energy_joules_total "
                                "counter\n");
    CHECK(value_of(&r, "supernode_hwmon_read_errors_total{chip=\"nvme\"}") ==
          0);
    CHECK(count_series(&r, "supernode_hwmon_read_errors_total") == 5);
    CHECK(count_series(&r, "supernode_hwmon_power_watts") == 4);
    run_close(&r);
}

/* Two chips of one name whose devices have one basename too (one I2C
 * address on two adapters) are told apart by their hwmonN: both read,
 * the collector up, no clash of samples. */
static void test_hwmon_same_name_and_device_are_told_apart(void)
{
    char *root = scratch(), dev[400], link[400];
    struct run r;
    const struct sn__watch_sensor *s;

    REQUIRE(root);
    for (int i = 0; i < 2; i++) {
        char rel[64];
        snprintf(rel, sizeof(rel), "sys/class/hwmon/hwmon%d/name", i);
        CHECK(puts_at(root, rel, "pmbus\n") == 0);
        snprintf(rel, sizeof(rel), "sys/class/hwmon/hwmon%d/temp1_input", i);
        CHECK(puts_at(root, rel, i ? "41000\n" : "40000\n") == 0);
        snprintf(rel, sizeof(rel), "sys/devices/i2c-%d/1-0058/x", i);
        CHECK(puts_at(root, rel, "") == 0);
        snprintf(dev, sizeof(dev), "%s/sys/devices/i2c-%d/1-0058", root, i);
        snprintf(link, sizeof(link), "%s/sys/class/hwmon/hwmon%d/device", root,
                 i);
        CHECK(symlink(dev, link) == 0);
    }
    REQUIRE(run_open(&r, &sn__watch_col_hwmon, root) == 0);
    CHECK(run_collect(&r) == 0);
    CHECK(r.obs.nsensors == 2);
    REQUIRE((s = sensor(&r.obs, "pmbus:hwmon0", "temp1")));
    CHECK_NEAR(s->value, 40, 1e-12);
    REQUIRE((s = sensor(&r.obs, "pmbus:hwmon1", "temp1")));
    CHECK_NEAR(s->value, 41, 1e-12);
    run_close(&r);
    scratch_free(root);
}

static void test_hwmon_room_is_the_inlet_without_a_room_sensor(void)
{
    char *root = scratch();
    struct run r;

    REQUIRE(root);
    CHECK(puts_at(root, "sys/class/hwmon/hwmon0/name", "board\n") == 0);
    CHECK(puts_at(root, "sys/class/hwmon/hwmon0/temp1_input", "31000\n") == 0);
    CHECK(puts_at(root, "sys/class/hwmon/hwmon0/temp2_input", "27500\n") == 0);
    CHECK(puts_at(root, "sys/class/hwmon/hwmon0/temp2_label", "Front Inlet") ==
          0);
    REQUIRE(run_open(&r, &sn__watch_col_hwmon, root) == 0);
    CHECK(run_collect(&r) == 0);
    CHECK_NEAR(r.obs.room_c, 27.5, 1e-12);
    CHECK(isnan(r.obs.room_humidity));
    run_close(&r);
    scratch_free(root);
}

static void test_hwmon_hostile_values_are_skipped_and_counted(void)
{
    static const char binary[] = {'4', '5', 0, 1, (char)0xff, '\n'};
    char *root = scratch(), *big;
    struct run r;
    size_t big_len = (size_t)10 << 20;
    const char *d = "sys/class/hwmon/hwmon0/";
    char rel[128];

    REQUIRE(root);
    big = sn_xmalloc(big_len);
    memset(big, '7', big_len);
    snprintf(rel, sizeof(rel), "%sname", d);
    CHECK(puts_at(root, rel, "evil\n") == 0);
    snprintf(rel, sizeof(rel), "%stemp1_input", d);
    CHECK(put(root, rel, binary, sizeof(binary), false) == 0);
    snprintf(rel, sizeof(rel), "%stemp2_input", d);
    CHECK(put(root, rel, big, big_len, false) == 0);
    snprintf(rel, sizeof(rel), "%stemp3_input", d);
    CHECK(puts_at(root, rel, "1e999\n") == 0);
    snprintf(rel, sizeof(rel), "%sfan1_input", d);
    CHECK(puts_at(root, rel, "-5\n") == 0);
    snprintf(rel, sizeof(rel), "%stemp4_input", d);
    CHECK(puts_at(root, rel, "2000000\n") == 0); /* 2000 degrees */
    snprintf(rel, sizeof(rel), "%shumidity1_input", d);
    CHECK(puts_at(root, rel, "150000\n") == 0); /* 150 % */
    snprintf(rel, sizeof(rel), "%stemp5_input", d);
    CHECK(puts_at(root, rel, "45000\n") == 0);
    snprintf(rel, sizeof(rel), "%stemp5_label", d);
    CHECK(put(root, rel, binary, sizeof(binary), false) == 0);
    free(big);

    REQUIRE(run_open(&r, &sn__watch_col_hwmon, root) == 0);
    CHECK(run_collect(&r) == 0);
    REQUIRE(r.obs.nsensors == 1);
    CHECK_STR(r.obs.sensors[0].sensor, "temp5");
    CHECK_NEAR(r.obs.sensors[0].value, 45, 1e-12);
    /* the label's bytes are escaped, not passed on */
    CHECK_STR(r.obs.sensors[0].label, "45\\x00\\x01\\xff");
    CHECK(value_of(&r, "supernode_hwmon_read_errors_total{chip=\"evil\"}") ==
          6);
    CHECK(count_series(&r, "supernode_hwmon_temperature_celsius") == 1);
    /* counted again in the next interval: a total */
    CHECK(run_collect(&r) == 0);
    CHECK(value_of(&r, "supernode_hwmon_read_errors_total{chip=\"evil\"}") ==
          12);
    run_close(&r);
    scratch_free(root);
}

static void test_hwmon_follows_a_tree_that_changes(void)
{
    char *root = scratch();
    struct run r;
    const char *t = "sys/class/hwmon/hwmon0/temp1_input";

    REQUIRE(root);
    CHECK(puts_at(root, "sys/class/hwmon/hwmon0/name", "board\n") == 0);
    CHECK(puts_at(root, t, "45000\n") == 0);
    REQUIRE(run_open(&r, &sn__watch_col_hwmon, root) == 0);
    CHECK(run_collect(&r) == 0);
    CHECK_NEAR(value_of(&r, "supernode_hwmon_temperature_celsius{chip="
                            "\"board\",sensor=\"temp1\"}"),
               45, 1e-12);
    CHECK(puts_at(root, t, "47250\n") == 0);
    CHECK(puts_at(root, "sys/class/hwmon/hwmon1/name", "late\n") == 0);
    CHECK(puts_at(root, "sys/class/hwmon/hwmon1/fan1_input", "5000\n") == 0);
    CHECK(run_collect(&r) == 0);
    CHECK_NEAR(value_of(&r, "supernode_hwmon_temperature_celsius{chip="
                            "\"board\",sensor=\"temp1\"}"),
               47.25, 1e-12);
    CHECK_NEAR(value_of(&r, "supernode_hwmon_fan_rpm{chip=\"late\",sensor="
                            "\"fan1\"}"),
               5000, 1e-12);
    CHECK(r.obs.nsensors == 2);
    run_close(&r);
    scratch_free(root);
}

/* ---- PCI ----------------------------------------------------------------- */

static void test_pci_lists_the_bus_and_the_links_that_matter(void)
{
    struct run r;
    const struct sn__watch_link *k;
    const char *gpu = "{device=\"gpu\",pci_bus_id=\"0000:17:00.0\"}";
    char series[160];

    REQUIRE(run_open(&r, &sn__watch_col_pci, HOST) == 0);
    CHECK(run_collect(&r) == 0);
    REQUIRE(r.obs.npci == 6);
    CHECK_STR(r.obs.pci[2].bdf, "0000:17:00.0");
    CHECK(r.obs.pci[2].vendor == 0x10de);
    CHECK(r.obs.pci[2].device == 0x2330);
    CHECK(r.obs.pci[2].class_code == 0x0302);
    /* GPU, two NICs, NVMe; not the host bridge nor the BMC's VGA */
    CHECK(r.obs.nlinks == 4);
    CHECK(!link_of(&r.obs, "0000:02:00.0"));
    REQUIRE((k = link_of(&r.obs, "0000:17:00.0")));
    CHECK(k->kind == SN_WATCH_PCIE);
    CHECK_STR(k->what, "gpu");
    CHECK_NEAR(k->speed, 16, 1e-12);
    CHECK_NEAR(k->max_speed, 32, 1e-12);
    CHECK(k->width == 8 && k->max_width == 16 && k->up);
    REQUIRE((k = link_of(&r.obs, "0000:5e:00.0")));
    CHECK_STR(k->what, "nic");
    REQUIRE((k = link_of(&r.obs, "0000:c1:00.0")));
    CHECK_STR(k->what, "nvme");
    CHECK(k->width == 4);

    snprintf(series, sizeof(series), "supernode_pcie_link_speed_gts%s", gpu);
    CHECK_NEAR(value_of(&r, series), 16, 1e-12);
    snprintf(series, sizeof(series), "supernode_pcie_link_max_speed_gts%s",
             gpu);
    CHECK_NEAR(value_of(&r, series), 32, 1e-12);
    snprintf(series, sizeof(series), "supernode_pcie_link_width_lanes%s", gpu);
    CHECK_NEAR(value_of(&r, series), 8, 1e-12);
    snprintf(series, sizeof(series), "supernode_pcie_link_max_width_lanes%s",
             gpu);
    CHECK_NEAR(value_of(&r, series), 16, 1e-12);
    CHECK(count_series(&r, "supernode_pcie_link_width_lanes") == 4);
    CHECK_NEAR(value_of(&r, "supernode_pcie_aer_errors_total{pci_bus_id="
                            "\"0000:17:00.0\",severity=\"correctable\"}"),
               3, 1e-12);
    CHECK(value_of(&r, "supernode_pcie_aer_errors_total{pci_bus_id="
                       "\"0000:17:00.0\",severity=\"fatal\"}") == 0);
    /* devices without AER files have no AER series */
    CHECK(count_series(&r, "supernode_pcie_aer_errors_total") == 3);
    run_close(&r);
}

/* ---- network ------------------------------------------------------------- */

/* Virtual interfaces do not count against the cap on interfaces read:
 * with 4,000 veths beside them, all 8 physical NICs are read. */
static void test_net_cap_counts_physical_nics_only(void)
{
    char *root = scratch(), rel[128];
    struct run r;
    size_t nics = 0;

    REQUIRE(root);
    CHECK(puts_at(root, "sys/class/net/lo/operstate", "up\n") == 0);
    for (int i = 0; i < 4000; i++) { /* a directory each, no device */
        char dir[512];
        snprintf(dir, sizeof(dir), "%s/sys/class/net/veth%04d", root, i);
        CHECK(mkdir(dir, 0755) == 0);
    }
    for (int i = 0; i < 8; i++) {
        snprintf(rel, sizeof(rel), "sys/class/net/ens%d/operstate", i);
        CHECK(puts_at(root, rel, "up\n") == 0);
        snprintf(rel, sizeof(rel), "sys/class/net/ens%d/device/vendor", i);
        CHECK(puts_at(root, rel, "0x15b3\n") == 0);
    }
    REQUIRE(run_open(&r, &sn__watch_col_net, root) == 0);
    CHECK(run_collect(&r) == 0);
    for (size_t i = 0; i < r.obs.nlinks; i++)
        nics += r.obs.links[i].kind == SN_WATCH_NIC;
    CHECK(nics == 8);
    CHECK(link_of(&r.obs, "ens7") != NULL);
    run_close(&r);
    scratch_free(root);
}

static void test_net_reads_physical_nics_and_ib_ports(void)
{
    struct run r;
    const struct sn__watch_link *k;

    REQUIRE(run_open(&r, &sn__watch_col_net, HOST) == 0);
    CHECK(run_collect(&r) == 0);
    /* eth0, eth1, ib0 (lo and bond0 have no device), two IB ports */
    CHECK(r.obs.nlinks == 5);
    CHECK(!link_of(&r.obs, "lo") && !link_of(&r.obs, "bond0"));
    REQUIRE((k = link_of(&r.obs, "eth0")));
    CHECK(k->kind == SN_WATCH_NIC && k->up);
    CHECK_NEAR(k->speed, 100e9, 1e-12);
    CHECK(isnan(k->max_speed));
    CHECK_NEAR(k->down_events, 3, 1e-12);
    REQUIRE((k = link_of(&r.obs, "eth1")));
    CHECK(!k->up && isnan(k->speed));
    REQUIRE((k = link_of(&r.obs, "mlx5_0/1")));
    CHECK(k->kind == SN_WATCH_IB && k->up);
    CHECK_STR(k->what, "ib");
    CHECK_NEAR(k->speed, 400e9, 1e-12);
    CHECK(k->width == 4);
    CHECK_NEAR(k->down_events, 2, 1e-12);
    REQUIRE((k = link_of(&r.obs, "mlx5_1/1")));
    CHECK(!k->up);

    CHECK(value_of(&r, "supernode_net_up{interface=\"eth0\"}") == 1);
    CHECK(value_of(&r, "supernode_net_up{interface=\"eth1\"}") == 0);
    CHECK_NEAR(value_of(&r, "supernode_net_speed_bytes_per_second{interface="
                            "\"eth0\"}"),
               100e9 / 8, 1e-12);
    /* -1 is unknown: no sample rather than a made-up one */
    CHECK(isnan(value_of(&r, "supernode_net_speed_bytes_per_second{interface="
                             "\"eth1\"}")));
    CHECK(value_of(&r, "supernode_net_carrier_changes_total{interface="
                       "\"eth1\"}") == 7);
    CHECK(value_of(&r, "supernode_ib_port_up{device=\"mlx5_0\",port=\"1\"}") ==
          1);
    CHECK(value_of(&r, "supernode_ib_port_up{device=\"mlx5_1\",port=\"1\"}") ==
          0);
    CHECK_NEAR(value_of(&r, "supernode_ib_port_rate_bytes_per_second{device="
                            "\"mlx5_0\",port=\"1\"}"),
               400e9 / 8, 1e-12);
    CHECK(value_of(&r, "supernode_ib_port_link_downed_total{device=\"mlx5_0\","
                       "port=\"1\"}") == 2);
    CHECK(value_of(&r, "supernode_ib_port_link_error_recovery_total{device="
                       "\"mlx5_0\",port=\"1\"}") == 5);
    run_close(&r);
}

/* ---- kernel log ---------------------------------------------------------- */

static char *fixture_kmsg(void)
{
    char *data = NULL;
    struct sn_error err;

    if (sn_read_file(HOST "/dev/kmsg", 1 << 16, &data, NULL, &err))
        printf("  %s\n", err.msg);
    return data;
}

static size_t count_klog(const struct sn__watch_obs *o,
                         enum sn__watch_klog_kind kind)
{
    size_t n = 0;

    for (size_t i = 0; i < o->nklog; i++)
        n += o->klog[i].kind == kind;
    return n;
}

#define XID(bus, code)                                                         \
    "supernode_kernel_xid_total{pci_bus_id=\"" bus "\",xid=\"" code "\"}"

static void test_klog_history_is_not_counted(void)
{
    struct run r;

    REQUIRE(run_open(&r, &sn__watch_col_klog, HOST) == 0);
    CHECK(run_collect(&r) == 0);
    CHECK(r.obs.nklog == 0);
    CHECK(count_series(&r, "supernode_kernel_xid_total") == 0);
    CHECK(value_of(&r, "supernode_kernel_log_capped_total") == 0);
    run_close(&r);
}

static void test_klog_counts_each_new_line_once(void)
{
    char *root = scratch(), *lines = fixture_kmsg();
    struct run r;
    const char *log = "dev/kmsg";

    REQUIRE(root && lines);
    /* the ring's history when the agent starts: not counted */
    CHECK(puts_at(root, log,
                  "4,1,1,-;NVRM: Xid (PCI:0000:17:00): 31, pid=1, "
                  "MMU Fault\n") == 0);
    REQUIRE(run_open(&r, &sn__watch_col_klog, root) == 0);
    CHECK(run_collect(&r) == 0);
    CHECK(r.obs.nklog == 0);

    CHECK(append_at(root, log, lines) == 0);
    CHECK(run_collect(&r) == 0);
    CHECK(r.obs.nklog == 5);
    CHECK(count_klog(&r.obs, SN_WATCH_KLOG_XID) == 2);
    CHECK(count_klog(&r.obs, SN_WATCH_KLOG_OFFBUS) == 1);
    CHECK(count_klog(&r.obs, SN_WATCH_KLOG_AER) == 1);
    CHECK(count_klog(&r.obs, SN_WATCH_KLOG_LINKDOWN) == 1);
    REQUIRE(r.obs.nklog >= 1);
    CHECK(r.obs.klog[0].kind == SN_WATCH_KLOG_XID);
    CHECK_STR(r.obs.klog[0].dev, "0000:17:00.0");
    CHECK(r.obs.klog[0].code == 79);
    CHECK_CONTAINS(r.obs.klog[0].text, "fallen off the bus");
    CHECK(value_of(&r, XID("0000:17:00.0", "79")) == 1);
    CHECK(value_of(&r, XID("0000:17:00.0", "48")) == 1);
    CHECK(isnan(value_of(&r, XID("0000:17:00.0", "31"))));
    CHECK(value_of(&r, "supernode_kernel_aer_total{pci_bus_id=\"0000:17:00."
                       "0\",severity=\"uncorrectable\"}") == 1);
    CHECK(value_of(&r, "supernode_kernel_link_down_total{device=\"0000:5e:00."
                       "0\"}") == 1);
    CHECK(value_of(&r, "supernode_kernel_fallen_off_bus_total{pci_bus_id="
                       "\"0000:17:00.0\"}") == 1);
    CHECK_CONTAINS(r.text.data, "# TYPE supernode_kernel_xid_total counter\n");

    /* one more XID 79 and half of an XID 48 line: the half waits */
    CHECK(append_at(root, log,
                    "4,3000,1,-;NVRM: Xid (PCI:0000:17:00): 79, pid=0\n"
                    "4,3001,2,-;NVRM: Xid (PCI:0000:17:00): 4") == 0);
    CHECK(run_collect(&r) == 0);
    CHECK(r.obs.nklog == 1);
    CHECK(value_of(&r, XID("0000:17:00.0", "79")) == 2);
    CHECK(value_of(&r, XID("0000:17:00.0", "48")) == 1);
    CHECK(append_at(root, log, "8, pid=7\n") == 0);
    CHECK(run_collect(&r) == 0);
    CHECK(r.obs.nklog == 1);
    CHECK(value_of(&r, XID("0000:17:00.0", "48")) == 2);
    /* nothing new: the counters stay, nothing is observed */
    CHECK(run_collect(&r) == 0);
    CHECK(r.obs.nklog == 0);
    CHECK(value_of(&r, XID("0000:17:00.0", "79")) == 2);

    /* the log truncated (rotated): its lines are all new */
    CHECK(puts_at(root, log, "4,1,1,-;NVRM: Xid (PCI:0000:17:00): 79, x\n") ==
          0);
    CHECK(run_collect(&r) == 0);
    CHECK(r.obs.nklog == 1);
    CHECK(value_of(&r, XID("0000:17:00.0", "79")) == 3);
    run_close(&r);
    free(lines);
    scratch_free(root);
}

/* An XID code is digits that fit: "-1" and 4294967296 are not codes (they
 * read as 4294967295 and 0 before), and neither is counted or observed. */
static void test_klog_xid_codes_do_not_wrap(void)
{
    char *root = scratch();
    struct run r;
    const char *log = "dev/kmsg";

    REQUIRE(root);
    CHECK(puts_at(root, log, "") == 0);
    REQUIRE(run_open(&r, &sn__watch_col_klog, root) == 0);
    CHECK(run_collect(&r) == 0);
    CHECK(append_at(root, log,
                    "4,1,1,-;NVRM: Xid (PCI:0000:17:00): -1, pid=1\n"
                    "4,2,1,-;NVRM: Xid (PCI:0000:17:00): 4294967296, x\n"
                    "4,3,1,-;NVRM: Xid (PCI:0000:17:00): 2147483648, x\n"
                    "4,4,1,-;NVRM: Xid (PCI:0000:17:00): 94, x\n") == 0);
    CHECK(run_collect(&r) == 0);
    CHECK(count_klog(&r.obs, SN_WATCH_KLOG_XID) == 1);
    CHECK(r.obs.nklog >= 1 && r.obs.klog[0].code == 94);
    CHECK(isnan(value_of(&r, XID("0000:17:00.0", "4294967295"))));
    CHECK(isnan(value_of(&r, XID("0000:17:00.0", "0"))));
    CHECK(isnan(value_of(&r, XID("0000:17:00.0", "2147483648"))));
    CHECK(value_of(&r, XID("0000:17:00.0", "94")) == 1);
    run_close(&r);
    scratch_free(root);
}

static void test_klog_caps_label_sets_and_bytes(void)
{
    char *root = scratch();
    struct run r;
    struct sn_buf b = SN_BUF_INIT;
    const char *log = "dev/kmsg";

    REQUIRE(root);
    CHECK(puts_at(root, log, "") == 0);
    REQUIRE(run_open(&r, &sn__watch_col_klog, root) == 0);
    /* 300 GPUs (bus 0x00..0x12b on domains 0 and 1): 256 label sets,
     * the other 44 in one */
    for (unsigned i = 0; i < 300; i++)
        sn_buf_printf(&b, "4,%u,1,-;NVRM: Xid (PCI:%04x:%02x:00): 13, x\n", i,
                      i / 256, i % 256);
    CHECK(append_at(root, log, b.data) == 0);
    CHECK(run_collect(&r) == 0);
    CHECK(r.obs.nklog == 300);
    CHECK(count_series(&r, "supernode_kernel_xid_total") == 257);
    CHECK(value_of(&r, XID("other", "other")) == 44);
    CHECK(value_of(&r, XID("0000:ff:00.0", "13")) == 1);

    /* 2 MiB at once: 1 MiB is read, the rest skipped and counted (a
     * GPU of the first 256, so its own series would show a count) */
    sn_buf_reset(&b);
    while (b.len < ((size_t)2 << 20))
        sn_buf_printf(&b, "6,1,1,-;%0100d\n", 0);
    CHECK(append_at(root, log, b.data) == 0);
    CHECK(append_at(root, log, "4,1,1,-;NVRM: Xid (PCI:0000:01:00): 13, x\n") ==
          0);
    CHECK(run_collect(&r) == 0);
    CHECK(value_of(&r, "supernode_kernel_log_capped_total") == 1);
    CHECK(value_of(&r, XID("0000:01:00.0", "13")) == 1);
    /* what follows is read again */
    CHECK(append_at(root, log, "4,1,1,-;NVRM: Xid (PCI:0000:01:00): 13, x\n") ==
          0);
    CHECK(run_collect(&r) == 0);
    CHECK(value_of(&r, XID("0000:01:00.0", "13")) == 2);
    CHECK(value_of(&r, "supernode_kernel_log_capped_total") == 1);
    run_close(&r);
    sn_buf_release(&b);
    scratch_free(root);
}

static void test_klog_skips_binary_lines(void)
{
    static const char bad[] = "4,1,1,-;NVRM: Xid (PCI:0000:17:00): 7\0009\n"
                              "\xff\xfe garbage \x01\n";
    char *root = scratch();
    struct run r;

    REQUIRE(root);
    CHECK(puts_at(root, "dev/kmsg", "") == 0);
    REQUIRE(run_open(&r, &sn__watch_col_klog, root) == 0);
    CHECK(put(root, "dev/kmsg", bad, sizeof(bad) - 1, true) == 0);
    CHECK(append_at(root, "dev/kmsg",
                    "4,2,2,-;NVRM: Xid (PCI:0000:17:00): 48, x\n") == 0);
    CHECK(run_collect(&r) == 0);
    CHECK(r.obs.nklog == 1);
    CHECK(value_of(&r, XID("0000:17:00.0", "48")) == 1);
    CHECK(count_series(&r, "supernode_kernel_xid_total") == 1);
    run_close(&r);
    scratch_free(root);
}

/* This machine's own ring, where it may be read: collects return at once
 * (the reader never waits for the next record). */
static void test_klog_live_ring_never_blocks(void)
{
    struct sn__watch_cfg cfg = {0};
    struct sn_error err = {0};
    struct sn__watch_obs obs;
    struct sn_metrics m = {0};
    void *state = NULL;

    cfg.fsroot = "";
    if (sn__watch_col_klog.open(&cfg, &state, &err)) {
        printf("  skip: %s\n", err.msg);
        return;
    }
    sn__watch_obs_init(&obs, 0);
    for (int i = 0; i < 2; i++) {
        CHECK(sn__watch_col_klog.collect(state, &obs, &m, &err) == 0);
        sn__watch_obs_release(&obs);
        sn_metrics_release(&m);
    }
    sn__watch_col_klog.close(state);
}

/* ---- every collector ----------------------------------------------------- */

static void test_a_missing_root_is_empty_not_an_error(void)
{
    const struct sn__watch_collector *cols[] = {
        &sn__watch_col_hwmon, &sn__watch_col_pci, &sn__watch_col_net,
        &sn__watch_col_klog};

    for (size_t i = 0; i < SN_ARRAY_LEN(cols); i++) {
        struct run r;
        REQUIRE(run_open(&r, cols[i], "/nonexistent/sn-watch-root") == 0);
        CHECK(run_collect(&r) == 0);
        CHECK(r.text.len == 0);
        CHECK(r.obs.nsensors == 0 && r.obs.nlinks == 0 && r.obs.npci == 0 &&
              r.obs.nklog == 0);
        CHECK(isnan(r.obs.room_c));
        run_close(&r);
    }
}

/* The four collectors' exposition of the fixture host, saved under
 * $SN_WATCH_HOST_OUT when set (tests/metrics/suite.sh runs promtool on
 * it); the families are each registered once. */
static void test_the_host_exposition_is_whole(void)
{
    const struct sn__watch_collector *cols[] = {
        &sn__watch_col_hwmon, &sn__watch_col_pci, &sn__watch_col_net,
        &sn__watch_col_klog};
    struct sn_metrics all = {0};
    struct sn_buf text = SN_BUF_INIT;
    const char *dir = getenv("SN_WATCH_HOST_OUT");

    for (size_t i = 0; i < SN_ARRAY_LEN(cols); i++) {
        struct run r;
        REQUIRE(run_open(&r, cols[i], HOST) == 0);
        CHECK(run_collect(&r) == 0);
        CHECK(sn_metrics_merge(&all, &r.m, NULL) == 0);
        run_close(&r);
    }
    sn_metrics_render_text(&all, &text);
    CHECK_CONTAINS(text.data, "# HELP supernode_pcie_link_speed_gts ");
    CHECK(!strstr(text.data, "NaN"));
    if (dir) {
        char path[512];
        FILE *f;
        snprintf(path, sizeof(path), "%s/host.prom", dir);
        REQUIRE((f = fopen(path, "w")));
        fputs(text.data, f);
        CHECK(fclose(f) == 0);
    }
    sn_buf_release(&text);
    sn_metrics_release(&all);
}

static const struct sn_test cases[] = {
    T(test_hwmon_reads_every_chip_in_base_units),
    T(test_hwmon_same_name_and_device_are_told_apart),
    T(test_hwmon_room_is_the_inlet_without_a_room_sensor),
    T(test_hwmon_hostile_values_are_skipped_and_counted),
    T(test_hwmon_follows_a_tree_that_changes),
    T(test_pci_lists_the_bus_and_the_links_that_matter),
    T(test_net_reads_physical_nics_and_ib_ports),
    T(test_net_cap_counts_physical_nics_only),
    T(test_klog_history_is_not_counted),
    T(test_klog_counts_each_new_line_once),
    T(test_klog_xid_codes_do_not_wrap),
    T(test_klog_caps_label_sets_and_bytes),
    T(test_klog_skips_binary_lines),
    T(test_klog_live_ring_never_blocks),
    T(test_a_missing_root_is_empty_not_an_error),
    T(test_the_host_exposition_is_whole),
};

SN_TEST_MAIN(cases)
