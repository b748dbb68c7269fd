/* test-watch-scenarios.c: the node agent end to end over simulated time:
 * every collector real (the fake NVML reading a fixture the test rewrites
 * each interval, a sysfs tree under --fsroot, the Redfish mock serving a
 * BMC made by tests/fixtures/watch/make-bmc.py), the rules against the
 * GB200 NVL72 design (a tray: 4 GPUs, 4 fabric NICs, one cold-plate loop
 * with a branch per GPU), the events in a real store. The physics of the
 * fixtures: a GPU's temperature is its coolant supply plus its power
 * times its cold plate's thermal resistance, R = 0.010 + 0.015 (F0/F)^0.8
 * K/W (a conduction part, and a convection part that follows the flow F
 * as turbulent forced convection does, Nu ~ Re^0.8: Dittus-Boelter).
 *
 * Scenarios: a healthy week fires nothing; a branch losing 30% of its
 * flow over six hours fires coolant_flow_low for the branch and
 * gpu_thermal_creep for its GPU long before the GPU nears its slowdown
 * temperature; an inlet sensor drifting 3 K in a day fires sensor_drift;
 * a PSU falling from 94% to 88% fires psu_efficiency_low; a real process
 * holding GPU memory that ends fires gpu_zombie_memory naming its pid; a
 * GPU that falls off the bus fires device_missing. Skipped, saying so,
 * without python3 or the fake NVML library. */
/* covers: metrics spec store watch */
/* runs: shards slow */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "harness.h"
#include "sn/spec.h"
#include "sn/store.h"
#include "sn/util.h"
#include "sn/watch.h"

#define NG 4        /* GPUs of a GB200 compute tray */
#define NPSU 4      /* power supplies, feeds A and B in turn */
#define DAY 86400.0 /* seconds */
#define T0 1.8e9    /* the simulation's start, Unix time */

struct gpu_state {
    double power_w, flow_lpm; /* the branch's flow */
    double supply_c;
    unsigned reasons;
    int lost;
    int pid;        /* a process holding memory, 0 none */
    double proc_sm; /* its utilisation, percent */
    double energy_j;
};

struct scen {
    char dir[64], root[128], nvml[128], bmc[128], cred[128];
    pid_t mock;
    unsigned port;
    struct sn_store *st;
    struct sn_spec spec;
    struct sn_watch *w;
    struct gpu_state g[NG];
    double inlet_c[4]; /* four inlet sensors, one per hwmon chip */
    double psu_in[NPSU], psu_out[NPSU];
    double now;
    unsigned long long rng;
};

/* ---- small helpers ------------------------------------------------------ */

/* a fixed-seed generator: noise in [-1, 1] */
static double noise(struct scen *s)
{
    s->rng = s->rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(s->rng >> 11) / (double)(1ULL << 53) * 2 - 1;
}

static int put(const char *dir, const char *rel, const char *fmt, ...)
    SN_PRINTF(3, 4);
static int put(const char *dir, const char *rel, const char *fmt, ...)
{
    char path[512], tmp[520], *slash;
    va_list ap;
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, rel);
    for (slash = path + strlen(dir) + 1; (slash = strchr(slash, '/'));
         slash++) {
        *slash = 0;
        mkdir(path, 0755);
        *slash = '/';
    }
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    f = fopen(tmp, "w");
    if (!f)
        return -1;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fclose(f);
    return rename(tmp, path); /* a reader sees the old file or the new */
}

static int sh(const char *cmd)
{
    int st = system(cmd);
    return st == -1 ? -1 : WEXITSTATUS(st);
}

/* POST body to the mock's control path; 0 on a 200. */
static int mock_post(const struct scen *s, const char *path, const char *body)
{
    struct sockaddr_in a = {0};
    char req[16384], resp[256];
    int fd, n, ok = -1;

    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)s->port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    snprintf(req, sizeof(req),
             "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
             "application/json\r\nContent-Length: %zu\r\nConnection: "
             "close\r\n\r\n%s",
             path, strlen(body), body);
    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    if (connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
        send(fd, req, strlen(req), MSG_NOSIGNAL) > 0 &&
        (n = (int)recv(fd, resp, sizeof(resp) - 1, MSG_WAITALL)) > 12) {
        resp[n] = 0;
        ok = strncmp(resp + 9, "200", 3) == 0 ? 0 : -1;
    }
    close(fd);
    return ok;
}

/* ---- the fixtures ------------------------------------------------------- */

static double resistance(double flow, double flow0)
{
    return 0.010 + 0.015 * pow(flow0 / flow, 0.8);
}

/* The fake NVML's fixture for this interval. */
static void write_nvml(struct scen *s)
{
    struct sn_buf b = SN_BUF_INIT;
    sn_buf_puts(&b, "driver: 570.124.06\ncuda: 12080\ngpus:\n");
    for (int i = 0; i < NG; i++) {
        struct gpu_state *g = &s->g[i];
        double t = g->supply_c + g->power_w * resistance(g->flow_lpm, 3.9);
        sn_buf_printf(&b,
                      "  - bus: \"00000000:1%d:00.0\"\n"
                      "    name: NVIDIA GB200\n"
                      "    uuid: GPU-5c0a0000-0000-4000-8000-00000000000%d\n"
                      "    lost: %d\n    pstate: 0\n"
                      "    ecc: {mode: on, volatile_corrected: 0, "
                      "volatile_uncorrected: 0, aggregate_corrected: 0, "
                      "aggregate_uncorrected: 0}\n"
                      "    remapped_rows: {corrected: 0, uncorrected: 0, "
                      "pending: 0, failure: 0}\n"
                      "    reasons: %u\n"
                      "    power: {limit_w: 1200, default_w: 1200, min_w: "
                      "200, max_w: 1200, usage_mw: %.0f, energy_mj: %.0f}\n"
                      "    clocks: {mem: 3996, mem_max: 3996, sm: 1965, "
                      "sm_max: 2062}\n"
                      "    temperature: {gpu: %.0f, slowdown: 87, shutdown: "
                      "92}\n"
                      "    memory: {used_mib: 150000, total_mib: 189471}\n"
                      "    nvlink: {links: 18}\n    utilization: 95\n",
                      i, i, g->lost, g->reasons, g->power_w * 1000,
                      g->energy_j * 1000, t);
        if (g->pid)
            sn_buf_printf(&b,
                          "    processes:\n      - {pid: %d, memory_mib: "
                          "20480, sm: %.0f}\n",
                          g->pid, g->proc_sm);
    }
    put(s->dir, "nvml.yaml", "%s", b.data);
    sn_buf_release(&b);
}

/* The host: the GPUs and NICs on the PCI bus, four inlet sensors and a
 * room sensor, an empty kernel log. */
static void write_host(struct scen *s)
{
    for (int i = 0; i < NG; i++) {
        char rel[128];
        snprintf(rel, sizeof(rel), "sys/bus/pci/devices/0000:1%d:00.0", i);
        if (s->g[i].lost) {
            char cmd[300];
            snprintf(cmd, sizeof(cmd), "rm -rf '%s/%s'", s->root, rel);
            sh(cmd);
            continue;
        }
#define DEV(attr, ...)                                                         \
    do {                                                                       \
        char r_[160];                                                          \
        snprintf(r_, sizeof(r_), "%s/%s", rel, attr);                          \
        put(s->root, r_, __VA_ARGS__);                                         \
    } while (0)
        DEV("class", "0x030200\n");
        DEV("vendor", "0x10de\n");
        DEV("device", "0x2941\n");
        DEV("current_link_speed", "32.0 GT/s PCIe\n");
        DEV("max_link_speed", "32.0 GT/s PCIe\n");
        DEV("current_link_width", "16\n");
        DEV("max_link_width", "16\n");
        snprintf(rel, sizeof(rel), "sys/bus/pci/devices/0000:2%d:00.0", i);
        DEV("class", "0x020700\n");
        DEV("vendor", "0x15b3\n");
        DEV("device", "0x1021\n");
        DEV("current_link_speed", "32.0 GT/s PCIe\n");
        DEV("max_link_speed", "32.0 GT/s PCIe\n");
        DEV("current_link_width", "16\n");
        DEV("max_link_width", "16\n");
#undef DEV
    }
    for (int c = 0; c < 4; c++) {
        char rel[96];
        snprintf(rel, sizeof(rel), "sys/class/hwmon/hwmon%d/name", c);
        put(s->root, rel, "nct7802\n");
        snprintf(rel, sizeof(rel), "sys/class/hwmon/hwmon%d/temp1_label", c);
        put(s->root, rel, "Inlet %d\n", c + 1);
        snprintf(rel, sizeof(rel), "sys/class/hwmon/hwmon%d/temp1_input", c);
        put(s->root, rel, "%.0f\n", s->inlet_c[c] * 1000);
    }
    put(s->root, "sys/class/hwmon/hwmon9/name", "sht3x\n");
    put(s->root, "sys/class/hwmon/hwmon9/temp1_input", "24000\n");
    put(s->root, "sys/class/hwmon/hwmon9/humidity1_input", "45000\n");
}

/* The BMC's readings of this interval, set in one request. */
static void write_bmc(struct scen *s)
{
    struct sn_buf b = SN_BUF_INIT;
    const char *cc = "/redfish/v1/Chassis/1U/ThermalSubsystem/"
                     "CoolantConnectors";
    const char *ps = "/redfish/v1/Chassis/1U/PowerSubsystem/PowerSupplies";
    sn_buf_putc(&b, '[');
    for (int i = 0; i < NG; i++) {
        const struct gpu_state *g = &s->g[i];
        double ret = g->supply_c + g->power_w / (g->flow_lpm / 60 * 4.18);
        sn_buf_printf(&b,
                      "%s{\"path\":\"%s/GPU%d\",\"pointer\":"
                      "\"/FlowLitersPerMinute/Reading\",\"value\":%.4f},"
                      "{\"path\":\"%s/GPU%d\",\"pointer\":"
                      "\"/SupplyTemperatureCelsius/Reading\",\"value\":%.3f},"
                      "{\"path\":\"%s/GPU%d\",\"pointer\":"
                      "\"/ReturnTemperatureCelsius/Reading\",\"value\":%.3f}",
                      i ? "," : "", cc, i + 1, g->flow_lpm, cc, i + 1,
                      g->supply_c, cc, i + 1, ret);
    }
    for (int p = 0; p < NPSU; p++)
        sn_buf_printf(&b,
                      ",{\"path\":\"%s/Bay%d/Metrics\",\"pointer\":"
                      "\"/InputPowerWatts/Reading\",\"value\":%.2f},"
                      "{\"path\":\"%s/Bay%d/Metrics\",\"pointer\":"
                      "\"/OutputPowerWatts/Reading\",\"value\":%.2f}",
                      ps, p + 1, s->psu_in[p], ps, p + 1, s->psu_out[p]);
    sn_buf_putc(&b, ']');
    CHECK(mock_post(s, "/_mock/set", b.data) == 0);
    sn_buf_release(&b);
}

/* ---- a scenario's life -------------------------------------------------- */

static void healthy(struct scen *s)
{
    for (int i = 0; i < NG; i++) {
        s->g[i].power_w = 1000;
        s->g[i].flow_lpm = 3.9;
        s->g[i].supply_c = 25;
    }
    for (int c = 0; c < 4; c++)
        s->inlet_c[c] = 24;
    for (int p = 0; p < NPSU; p++) {
        s->psu_in[p] = 1600;
        s->psu_out[p] = 1504; /* 94% */
    }
}

/* Start the mock on a BMC made for the scenario; 0 when it runs. */
static int start_mock(struct scen *s)
{
    char cmd[512], line[32] = "";
    int fds[2];
    FILE *f;

    snprintf(s->bmc, sizeof(s->bmc), "%s/bmc", s->dir);
    snprintf(cmd, sizeof(cmd),
             "python3 tests/fixtures/watch/make-bmc.py '%s' --gpus %d "
             "--psus %d",
             s->bmc, NG, NPSU);
    if (sh(cmd) != 0 || pipe(fds) != 0)
        return -1;
    s->mock = fork();
    if (s->mock == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        execlp("python3", "python3", "tests/lib/redfish-mock.py", "--dir",
               s->bmc, "--user", "watch", "--password", "pw", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    f = fdopen(fds[0], "r");
    if (!f || !fgets(line, sizeof(line), f)) {
        if (f)
            fclose(f);
        return -1;
    }
    fclose(f); /* the mock prints nothing more */
    s->port = (unsigned)atoi(line);
    return s->port ? 0 : -1;
}

static int setup(struct scen *s, bool with_spec)
{
    struct sn_error err = {0};
    struct sn_watch_opts o = {0};
    char url[64], lib[256], db[160];

    memset(s, 0, sizeof(*s));
    s->rng = 12345;
    s->now = T0;
    snprintf(s->dir, sizeof(s->dir), "/tmp/sn-scen-XXXXXX");
    if (!mkdtemp(s->dir))
        return -1;
    snprintf(s->root, sizeof(s->root), "%s/root", s->dir);
    snprintf(s->nvml, sizeof(s->nvml), "%s/nvml.yaml", s->dir);
    snprintf(s->cred, sizeof(s->cred), "%s/cred", s->dir);
    if (mkdir(s->root, 0755) != 0)
        return -1;
    put(s->dir, "cred", "watch:pw\n");
    chmod(s->cred, 0600);
    put(s->root, "dev/kmsg", "%s", "");
    snprintf(lib, sizeof(lib), "%s/proc", s->root);
    if (symlink("/proc", lib) != 0) /* the processes are this machine's */
        return -1;
    healthy(s);
    write_host(s);
    write_nvml(s);
    setenv("SN_FAKE_NVML", s->nvml, 1);
    if (start_mock(s)) {
        printf("  setup: the Redfish mock did not start\n");
        return -1;
    }
    snprintf(db, sizeof(db), "%s/watch.db", s->dir);
    if (sn_store_open(db, &s->st, &err) ||
        (with_spec &&
         sn_spec_load("examples/gb200-nvl72.yaml", &s->spec, &err))) {
        printf("  setup: %s\n", err.msg);
        return -1;
    }
    snprintf(url, sizeof(url), "http://127.0.0.1:%u", s->port);
    snprintf(lib, sizeof(lib), "%s/lib/fake-nvml.so",
             getenv("SN_BUILD") ? getenv("SN_BUILD") : "build/test");
    o.spec = with_spec ? &s->spec : NULL;
    o.store = s->st;
    o.host = "tray07";
    o.fsroot = s->root;
    o.nvml = lib;
    o.redfish_url = url;
    o.redfish_credentials = s->cred;
    o.interval_s = 900;
    o.timeout_s = 10;
    if (sn_watch_new(&o, &s->w, &err)) {
        printf("  setup: %s\n", err.msg);
        return -1;
    }
    return 0;
}

static void teardown(struct scen *s)
{
    char cmd[128];
    sn_watch_free(s->w);
    sn_store_close(s->st);
    sn_spec_release(&s->spec);
    if (s->mock > 0) {
        kill(s->mock, SIGTERM);
        waitpid(s->mock, NULL, 0);
    }
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s->dir);
    sh(cmd);
}

/* One interval dt seconds after the last: small noise on every reading,
 * the fixtures written, the agent ticked. */
static void step(struct scen *s, double dt)
{
    struct sn_metrics m = {0};
    struct sn_error err = {0};
    struct gpu_state save[NG];
    double inlet[4];

    s->now += dt;
    memcpy(save, s->g, sizeof(save));
    memcpy(inlet, s->inlet_c, sizeof(inlet));
    for (int i = 0; i < NG; i++) {
        s->g[i].power_w *= 1 + 0.02 * noise(s);
        s->g[i].flow_lpm *= 1 + 0.01 * noise(s);
        s->g[i].supply_c += 0.2 * noise(s);
        s->g[i].energy_j += save[i].power_w * dt;
    }
    for (int c = 0; c < 4; c++)
        s->inlet_c[c] += 0.3 * noise(s);
    write_host(s);
    write_nvml(s);
    write_bmc(s);
    CHECK(sn_watch_tick(s->w, s->now, &m, &err) == SN_OK);
    sn_metrics_release(&m);
    /* the noise is this interval's only */
    for (int i = 0; i < NG; i++) {
        double e = s->g[i].energy_j;
        s->g[i] = save[i];
        s->g[i].energy_j = e;
    }
    memcpy(s->inlet_c, inlet, sizeof(inlet));
}

/* The alert of rule for a subject containing part, or NULL. */
static const struct sn_watch_alert *active(const struct scen *s,
                                           const char *rule, const char *part)
{
    const struct sn_watch_alert *a;
    size_t n = sn_watch_alerts(s->w, &a);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(a[i].rule, rule) && strstr(a[i].subject, part))
            return &a[i];
    return NULL;
}

static void say_alerts(const struct scen *s)
{
    const struct sn_watch_alert *a;
    size_t n = sn_watch_alerts(s->w, &a);
    for (size_t i = 0; i < n; i++)
        printf("  %.1f h: %s %s %s: %s\n", (s->now - T0) / 3600, a[i].severity,
               a[i].rule, a[i].subject, a[i].message);
}

static bool skip(void)
{
    char lib[256];
    snprintf(lib, sizeof(lib), "%s/lib/fake-nvml.so",
             getenv("SN_BUILD") ? getenv("SN_BUILD") : "build/test");
    if (sh("command -v python3 >/dev/null") != 0 || access(lib, R_OK) != 0) {
        printf("  skipped: python3 or %s missing\n", lib);
        return true;
    }
    return false;
}

/* ---- the scenarios ------------------------------------------------------ */

/* A healthy tray over a simulated week, every half hour, with noise on
 * every reading: no rule ever holds. */
static void test_watch_scenario_healthy_week_fires_nothing(void)
{
    struct scen s;
    int fired = 0;

    if (skip())
        return;
    REQUIRE(setup(&s, true) == 0);
    for (int k = 0; k < 7 * 48; k++) {
        step(&s, 1800);
        const struct sn_watch_alert *a;
        if (sn_watch_alerts(s.w, &a) && fired++ < 3)
            say_alerts(&s);
    }
    CHECK(fired == 0);
    teardown(&s);
}

/* Three quiet days, then GPU 0's branch loses 30% of its flow over six
 * hours (a clogging filter): the branch's flow rule and the GPU's creep
 * rule fire, naming the branch and the GPU, while the GPU is still more
 * than 20 K below its slowdown temperature and no throttle reason is
 * set; the other GPUs stay quiet; each rule's rising edge is an event
 * in the store. */
static void test_watch_scenario_flow_loss_fires_before_throttle(void)
{
    const struct sn_watch_alert *a;
    struct scen s;
    double flow_at = NAN, creep_at = NAN, temp_at_creep = NAN;

    if (skip())
        return;
    REQUIRE(setup(&s, true) == 0);
    for (int k = 0; k < 3 * 96; k++)
        step(&s, 900);
    CHECK(!sn_watch_alerts(s.w, &a));
    for (int k = 1; k <= 24 * 4; k++) { /* a day, the loss in six hours */
        double f = k <= 24 ? 1 - 0.30 * k / 24 : 0.70;
        s.g[0].flow_lpm = 3.9 * f;
        step(&s, 900);
        if (isnan(flow_at) && active(&s, "coolant_flow_low", "GPU1"))
            flow_at = (s.now - T0) / 3600 - 72;
        if (isnan(creep_at) &&
            active(&s, "gpu_thermal_creep", "0000:10:00.0")) {
            creep_at = (s.now - T0) / 3600 - 72;
            temp_at_creep = s.g[0].supply_c +
                            s.g[0].power_w * resistance(s.g[0].flow_lpm, 3.9);
        }
    }
    printf("  flow rule after %.2f h, creep rule after %.2f h at %.1f C "
           "(slowdown 87 C)\n",
           flow_at, creep_at, temp_at_creep);
    CHECK(!isnan(flow_at));
    CHECK(!isnan(creep_at));
    CHECK(temp_at_creep < 87 - 20);
    CHECK(s.g[0].reasons == 0); /* nothing throttled */
    for (int i = 1; i < NG; i++) {
        char bus[32];
        snprintf(bus, sizeof(bus), "0000:1%d:00.0", i);
        CHECK(!active(&s, "gpu_thermal_creep", bus));
    }
    if (!active(&s, "coolant_flow_low", "GPU1"))
        say_alerts(&s);
    teardown(&s);
}

/* One of four inlet sensors drifts 3 K upward over a day while the
 * others read the room: sensor_drift names it, and only it. */
static void test_watch_scenario_sensor_drift(void)
{
    struct scen s;
    bool fired = false;

    if (skip())
        return;
    REQUIRE(setup(&s, true) == 0);
    for (int k = 0; k < 2 * 48; k++)
        step(&s, 1800);
    for (int k = 1; k <= 48 && !fired; k++) {
        s.inlet_c[2] = 24 + 3.0 * k / 48;
        step(&s, 1800);
        fired = active(&s, "sensor_drift", "temp1") != NULL;
    }
    CHECK(fired);
    const struct sn_watch_alert *a = active(&s, "sensor_drift", "temp1");
    if (a)
        CHECK_CONTAINS(a->subject, "hwmon2");
    else
        say_alerts(&s);
    teardown(&s);
}

/* PSU Bay3 falls from 94% to 88% efficiency over a day at the same
 * load: psu_efficiency_low names it. */
static void test_watch_scenario_psu_efficiency_falls(void)
{
    struct scen s;
    bool fired = false;

    if (skip())
        return;
    REQUIRE(setup(&s, true) == 0);
    for (int k = 0; k < 48; k++)
        step(&s, 1800);
    for (int k = 1; k <= 48; k++) {
        s.psu_out[2] = 1600 * (0.94 - 0.06 * k / 48);
        step(&s, 1800);
        fired = fired || active(&s, "psu_efficiency_low", "Bay3");
    }
    CHECK(fired);
    if (!fired)
        say_alerts(&s);
    teardown(&s);
}

/* A real process holds 20 GiB of GPU 1 (the fake NVML lists it) while it
 * works; it ends without the driver freeing the memory: the zombie rule
 * names the GPU and the pid. */
static void test_watch_scenario_zombie_memory(void)
{
    const struct sn_watch_alert *a;
    struct scen s;
    pid_t child;

    if (skip())
        return;
    REQUIRE(setup(&s, true) == 0);
    child = fork();
    if (child == 0) {
        pause();
        _exit(0);
    }
    REQUIRE(child > 0);
    s.g[1].pid = child;
    s.g[1].proc_sm = 80;
    for (int k = 0; k < 4; k++)
        step(&s, 900);
    CHECK(!active(&s, "gpu_zombie_memory", ""));
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    step(&s, 900);
    a = active(&s, "gpu_zombie_memory", "0000:11:00.0");
    CHECK(a != NULL);
    if (a) {
        char pid[32];
        snprintf(pid, sizeof(pid), "%d", (int)child);
        CHECK_CONTAINS(a->subject, pid);
        CHECK_CONTAINS(a->message, "GiB");
    } else {
        say_alerts(&s);
    }
    teardown(&s);
}

/* GPU 3 falls off the bus: NVML answers "lost" for it and it leaves the
 * PCI bus: device_missing holds, naming it. */
static void test_watch_scenario_gpu_falls_off_the_bus(void)
{
    struct scen s;

    if (skip())
        return;
    REQUIRE(setup(&s, true) == 0);
    for (int k = 0; k < 4; k++)
        step(&s, 900);
    CHECK(!active(&s, "device_missing", ""));
    s.g[3].lost = 1;
    step(&s, 900);
    CHECK(active(&s, "device_missing", "0000:13:00.0") != NULL);
    if (!active(&s, "device_missing", "0000:13:00.0"))
        say_alerts(&s);
    teardown(&s);
}

static const struct sn_test cases[] = {
    T(test_watch_scenario_healthy_week_fires_nothing),
    T(test_watch_scenario_flow_loss_fires_before_throttle),
    T(test_watch_scenario_sensor_drift),
    T(test_watch_scenario_psu_efficiency_falls),
    T(test_watch_scenario_zombie_memory),
    T(test_watch_scenario_gpu_falls_off_the_bus),
};

SN_TEST_MAIN(cases)
