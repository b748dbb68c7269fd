/* test-watch-redfish.c: the BMC collector (col-redfish.c) against the
 * Redfish mock (tests/lib/redfish-mock.py, started here on a free port of
 * 127.0.0.1) and the fixtures under tests/fixtures/redfish, shaped like
 * DMTF's public-liquid-cooled-server and public-cooling-unit mockups.
 * The cases change readings and set faults through the mock's control
 * endpoints between collections. */
/* covers: metrics watch */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <curl/curl.h>

#include "harness.h"
#include "sn/metrics.h"
#include "sn/util.h"

#include "../../src/lib/watch/redfish-int.h"
#include "../../src/lib/watch/watch-int.h"

#define MOCK_USER "admin"
#define MOCK_PASS "secret"
#define PSUS "/redfish/v1/Chassis/1U/PowerSubsystem/PowerSupplies/"
#define LEAKS "/redfish/v1/Chassis/1U/ThermalSubsystem/LeakDetection/"
#define CONNS "/redfish/v1/Chassis/1U/ThermalSubsystem/CoolantConnectors/"

static pid_t mock_pid = -1;
static int mock_port;
static bool mock_failed;
static char mock_url[64];

/* Start a mock with the extra arguments (NULL-terminated, at most 4);
 * its pid, or -1 when it did not start. */
static pid_t mock_spawn(const char *const *extra, int *port)
{
    const char *argv[16] = {"python3",    "tests/lib/redfish-mock.py",
                            "--user",     MOCK_USER,
                            "--password", MOCK_PASS};
    size_t n = 6;
    int fds[2];
    FILE *f;
    char line[32];
    pid_t pid;

    for (size_t i = 0; extra && extra[i] && n < 14; i++)
        argv[n++] = extra[i];
    if (pipe(fds) != 0)
        return -1;
    pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execvp("python3", (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    f = fdopen(fds[0], "r");
    /* the pipe stays open (the mock prints nothing more) */
    if (pid < 0 || !f || !fgets(line, sizeof(line), f) || atoi(line) <= 0) {
        if (pid > 0) {
            kill(pid, SIGTERM);
            waitpid(pid, NULL, 0);
        }
        return -1;
    }
    *port = atoi(line);
    return pid;
}

/* Start the plain mock once; false (the case then skips, and says so)
 * when python3 is not there. */
static bool mock_start(void)
{
    if (mock_pid > 0)
        return true;
    if (mock_failed)
        return false;
    if (system("command -v python3 >/dev/null 2>&1") != 0) {
        printf("  skipped: no python3 for the Redfish mock\n");
        mock_failed = true;
        return false;
    }
    mock_pid = mock_spawn(NULL, &mock_port);
    if (mock_pid < 0) {
        printf("  the Redfish mock did not start\n");
        mock_failed = true;
        return false;
    }
    snprintf(mock_url, sizeof(mock_url), "http://127.0.0.1:%d", mock_port);
    return true;
}

static void mock_stop(void)
{
    if (mock_pid > 0) {
        kill(mock_pid, SIGTERM);
        waitpid(mock_pid, NULL, 0);
        mock_pid = -1;
    }
}

static size_t discard(char *p, size_t size, size_t n, void *ud)
{
    return size * n;
}

/* POST json to the mock's control endpoint; the HTTP status. */
static long mock_post(const char *what, const char *json)
{
    char url[128];
    long status = 0;
    CURL *c = curl_easy_init();

    if (!c)
        return 0;
    snprintf(url, sizeof(url), "%s/_mock/%s", mock_url, what);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, json);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(c, CURLOPT_PROXY, "");
    if (curl_easy_perform(c) == CURLE_OK)
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(c);
    return status;
}

static void mock_reset(void)
{
    CHECK(mock_post("reset", "{}") == 200);
}

static long mock_fault(const char *path, const char *mode)
{
    char json[512];
    snprintf(json, sizeof(json), "{\"path\": \"%s\", \"mode\": \"%s\"}", path,
             mode);
    return mock_post("fault", json);
}

/* One collection: a fresh collector (counters from zero) with timeout_s,
 * its return code, the observations and the rendered metrics. */
struct run {
    int rc;
    struct sn_error err;
    struct sn__watch_obs obs;
    struct sn_metrics m;
    struct sn_buf text;
    double seconds;
};

static void run_cfg(struct run *r, const struct sn__watch_cfg *cfg, int times)
{
    void *st = NULL;

    memset(r, 0, sizeof(*r));
    sn_buf_init(&r->text);
    sn__watch_obs_init(&r->obs, 0);
    r->rc = sn__watch_col_redfish.open(cfg, &st, &r->err);
    if (r->rc)
        return;
    for (int i = 0; i < times; i++) {
        double t0 = sn_now();
        sn__watch_obs_release(&r->obs);
        sn_metrics_release(&r->m);
        sn_error_clear(&r->err);
        r->rc = sn__watch_col_redfish.collect(st, &r->obs, &r->m, &r->err);
        r->seconds = sn_now() - t0;
    }
    sn__watch_col_redfish.close(st);
    sn_metrics_render_text(&r->m, &r->text);
}

static void run_with(struct run *r, const char *url, const char *user,
                     const char *pass, double timeout_s, int times)
{
    struct sn__watch_cfg cfg = {0};

    cfg.redfish_url = url;
    cfg.redfish_user = user;
    cfg.redfish_password = pass;
    cfg.timeout_s = timeout_s;
    run_cfg(r, &cfg, times);
}

static void run(struct run *r, double timeout_s)
{
    run_with(r, mock_url, MOCK_USER, MOCK_PASS, timeout_s, 1);
}

static void run_release(struct run *r)
{
    sn__watch_obs_release(&r->obs);
    sn_metrics_release(&r->m);
    sn_buf_release(&r->text);
}

static const struct sn__watch_psu *psu(const struct run *r, const char *name)
{
    for (size_t i = 0; i < r->obs.npsus; i++)
        if (strcmp(r->obs.psus[i].psu, name) == 0)
            return &r->obs.psus[i];
    return NULL;
}

static const struct sn__watch_coolant *branch(const struct run *r,
                                              const char *name)
{
    for (size_t i = 0; i < r->obs.ncoolant; i++)
        if (strcmp(r->obs.coolant[i].branch, name) == 0)
            return &r->obs.coolant[i];
    return NULL;
}

static const struct sn__watch_leak *leak(const struct run *r, const char *name)
{
    for (size_t i = 0; i < r->obs.nleaks; i++)
        if (strcmp(r->obs.leaks[i].detector, name) == 0)
            return &r->obs.leaks[i];
    return NULL;
}

/* ---- the walk over the fixtures ---------------------------------------- */

static void test_redfish_reads_coolant_with_units(void)
{
    struct run r;
    const struct sn__watch_coolant *c;

    if (!mock_start())
        return;
    mock_reset();
    run(&r, 5);
    CHECK(r.rc == 0);
    REQUIRE(r.obs.ncoolant == 4);
    c = branch(&r, "CPU1");
    REQUIRE(c);
    CHECK_STR(c->loop, "Rack3 secondary");
    CHECK_NEAR(c->flow_lpm, 2.1, 1e-12);
    CHECK_NEAR(c->supply_c, 14.8, 1e-12);
    CHECK_NEAR(c->return_c, 38.2, 1e-12);
    CHECK_NEAR(c->supply_kpa, 210, 1e-12);
    CHECK_NEAR(c->rated_flow_lpm, 2.5, 1e-12);
    /* the CDU's connectors, qualified with the CDU and the side */
    CHECK(branch(&r, "1/primary/A") && branch(&r, "1/secondary/A"));
    CHECK_CONTAINS(r.text.data, "supernode_coolant_flow_liters_per_minute{"
                                "branch=\"GPU1\",kind=\"gpu\","
                                "loop=\"Rack3 secondary\"} 3.9\n");
    /* kPa to Pa */
    CHECK_CONTAINS(r.text.data, "supernode_coolant_supply_pressure_pascals{"
                                "branch=\"CPU1\",kind=\"cpu\","
                                "loop=\"Rack3 secondary\"} 210000\n");
    CHECK_CONTAINS(r.text.data, "supernode_coolant_return_pressure_pascals{"
                                "branch=\"GPU1\",kind=\"gpu\","
                                "loop=\"Rack3 secondary\"} 180500\n");
    CHECK_CONTAINS(r.text.data, "supernode_coolant_return_temperature_celsius{"
                                "branch=\"1/primary/A\",kind=\"cdu\","
                                "loop=\"Facility\"} 27.5\n");
    /* what each connector feeds: the cold plates by their Id, the CDU's
     * connectors as the CDU's */
    REQUIRE(branch(&r, "CPU1") && branch(&r, "GPU1"));
    CHECK_STR(branch(&r, "CPU1")->kind, "cpu");
    CHECK_STR(branch(&r, "GPU1")->kind, "gpu");
    CHECK_STR(branch(&r, "1/secondary/A")->kind, "cdu");
    CHECK_CONTAINS(r.text.data,
                   "supernode_redfish_requests_total{outcome=\"ok\"} 27\n");
    CHECK_CONTAINS(r.text.data, "supernode_redfish_parse_errors_total 0\n");
    run_release(&r);
}

static void test_redfish_reads_psus_feeds_and_room(void)
{
    struct run r;
    const struct sn__watch_psu *a, *b;

    if (!mock_start())
        return;
    mock_reset();
    run(&r, 5);
    CHECK(r.rc == 0);
    a = psu(&r, "Bay1");
    b = psu(&r, "Bay2");
    REQUIRE(a && b);
    /* Bay1 from its PDU outlet link, Bay2 from its name "Power Supply B" */
    CHECK_STR(a->feed, "A");
    CHECK_STR(b->feed, "B");
    CHECK_NEAR(a->input_w, 1000, 1e-12);
    CHECK_NEAR(a->output_w, 940, 1e-12);
    CHECK_NEAR(a->input_v, 230.2, 1e-12);
    CHECK_NEAR(a->capacity_w, 2000, 1e-12);
    CHECK_CONTAINS(r.text.data, "supernode_psu_efficiency_ratio{feed=\"A\","
                                "psu=\"Bay1\"} 0.94\n");
    CHECK_CONTAINS(r.text.data, "supernode_psu_input_voltage_volts{feed=\"B\","
                                "psu=\"Bay2\"} 229.6\n");
    /* the chassis' EnvironmentMetrics reads an Intake sensor */
    CHECK_NEAR(r.obs.room_c, 24.5, 1e-12);
    CHECK_NEAR(r.obs.room_humidity, 0.41, 1e-12);
    CHECK_CONTAINS(r.text.data,
                   "supernode_inlet_temperature_celsius{chassis=\"1U\"} "
                   "24.5\n");
    run_release(&r);
}

static void test_redfish_efficiency_is_live_output_over_input(void)
{
    struct run r;
    const struct sn__watch_psu *a;

    if (!mock_start())
        return;
    mock_reset();
    /* the rated EfficiencyPercent (96) must not be what is reported */
    REQUIRE(mock_post("set", "[{\"path\": \"" PSUS "Bay1/Metrics\", "
                             "\"pointer\": \"/OutputPowerWatts/Reading\", "
                             "\"value\": 880}, "
                             "{\"path\": \"" PSUS "Bay2/Metrics\", "
                             "\"pointer\": \"/InputPowerWatts/Reading\", "
                             "\"value\": 1250}]") == 200);
    run(&r, 5);
    a = psu(&r, "Bay1");
    REQUIRE(a);
    CHECK_NEAR(a->output_w / a->input_w, 0.88, 1e-12);
    CHECK_CONTAINS(r.text.data, "supernode_psu_efficiency_ratio{feed=\"A\","
                                "psu=\"Bay1\"} 0.88\n");
    /* 940 W out of 1250 W in */
    CHECK_CONTAINS(r.text.data, "supernode_psu_efficiency_ratio{feed=\"B\","
                                "psu=\"Bay2\"} 0.752\n");
    run_release(&r);
}

/* A reading outside what its quantity can physically be (1e308 L/min, a
 * negative power) is skipped and counted, as hwmon's are, rather than
 * shifting the branches' median into false alarms. */
static void test_redfish_readings_outside_their_range_skipped(void)
{
    struct run r;
    const struct sn__watch_coolant *c;

    if (!mock_start())
        return;
    mock_reset();
    REQUIRE(mock_post("set", "{\"path\": \"" CONNS "GPU1\", \"pointer\": "
                             "\"/FlowLitersPerMinute/Reading\", \"value\": "
                             "1e308}") == 200);
    REQUIRE(mock_post("set", "{\"path\": \"" CONNS "CPU1\", \"pointer\": "
                             "\"/SupplyTemperatureCelsius/Reading\", "
                             "\"value\": -300}") == 200);
    run(&r, 5);
    CHECK(r.rc == 0);
    c = branch(&r, "GPU1");
    REQUIRE(c);
    CHECK(isnan(c->flow_lpm));
    c = branch(&r, "CPU1");
    REQUIRE(c);
    CHECK(isnan(c->supply_c));
    CHECK_NEAR(c->flow_lpm, 2.1, 1e-12); /* the rest of it stays */
    CHECK(!strstr(r.text.data, "branch=\"GPU1\",kind=\"gpu\","
                               "loop=\"Rack3 secondary\"} 1e+308"));
    CHECK_CONTAINS(r.text.data, "supernode_redfish_reading_errors_total 2\n");
    run_release(&r);
    mock_reset();
}

static void test_redfish_leak_detector_goes_critical(void)
{
    struct run r;
    const struct sn__watch_leak *l;

    if (!mock_start())
        return;
    mock_reset();
    run(&r, 5);
    l = leak(&r, "GPU1ColdPlate");
    REQUIRE(l);
    CHECK_STR(l->state, "OK");
    CHECK(leak(&r, "1/Moisture") && leak(&r, "1/Overflow"));
    CHECK_CONTAINS(r.text.data, "supernode_leak_detector_ok{detector="
                                "\"GPU1ColdPlate\",state=\"OK\"} 1\n");
    run_release(&r);
    REQUIRE(mock_post("set", "{\"path\": \"" LEAKS "LeakDetectors/"
                             "GPU1ColdPlate\", \"pointer\": "
                             "\"/DetectorState\", \"value\": "
                             "\"Critical\"}") == 200);
    run(&r, 5);
    l = leak(&r, "GPU1ColdPlate");
    REQUIRE(l);
    CHECK_STR(l->state, "Critical");
    CHECK_CONTAINS(r.text.data, "supernode_leak_detector_ok{detector="
                                "\"GPU1ColdPlate\",state=\"Critical\"} 0\n");
    CHECK_CONTAINS(r.text.data, "supernode_leak_detector_ok{detector="
                                "\"CPU1ColdPlate\",state=\"OK\"} 1\n");
    run_release(&r);
}

/* What the collector exports passes Prometheus' own linter. */
static void test_redfish_metrics_pass_promtool(void)
{
    char path[64], cmd[160];
    struct run r;
    FILE *f;

    if (!mock_start())
        return;
    if (system("command -v promtool >/dev/null 2>&1") != 0) {
        printf("  skipped: no promtool (Debian package prometheus)\n");
        return;
    }
    mock_reset();
    run(&r, 5);
    CHECK(r.rc == 0);
    snprintf(path, sizeof(path), "/tmp/sn-rf-prom-%d", (int)getpid());
    f = fopen(path, "w");
    REQUIRE(f);
    fwrite(r.text.data, 1, r.text.len, f);
    fclose(f);
    snprintf(cmd, sizeof(cmd), "promtool check metrics < %s", path);
    CHECK(system(cmd) == 0);
    unlink(path);
    run_release(&r);
}

/* ---- faults: counted, skipped, the rest collected ----------------------- */

static void test_redfish_malformed_psu_metrics_counted_rest_kept(void)
{
    struct run r;
    const struct sn__watch_psu *b;

    if (!mock_start())
        return;
    mock_reset();
    REQUIRE(mock_fault(PSUS "Bay2/Metrics", "malformed") == 200);
    run(&r, 5);
    CHECK(r.rc == 0);
    b = psu(&r, "Bay2");
    REQUIRE(b && psu(&r, "Bay1"));
    /* the PSU stays, with nothing measured, and exports no NaN */
    CHECK(isnan(b->input_w) && isnan(b->output_w));
    CHECK(strstr(r.text.data, "psu=\"Bay2\"} NaN") == NULL);
    CHECK_CONTAINS(r.text.data, "supernode_psu_capacity_watts{feed=\"B\","
                                "psu=\"Bay2\"} 2000\n");
    CHECK_CONTAINS(r.text.data, "supernode_psu_efficiency_ratio{feed=\"A\","
                                "psu=\"Bay1\"} 0.94\n");
    CHECK_CONTAINS(r.text.data, "supernode_redfish_parse_errors_total 1\n");
    CHECK(r.obs.ncoolant == 4 && r.obs.nleaks == 4);
    run_release(&r);
}

static void test_redfish_500_on_one_psu_counted_rest_kept(void)
{
    struct run r;

    if (!mock_start())
        return;
    mock_reset();
    REQUIRE(mock_fault(PSUS "Bay1", "500") == 200);
    run(&r, 5);
    CHECK(r.rc == 0);
    CHECK(psu(&r, "Bay1") == NULL);
    CHECK(psu(&r, "Bay2") != NULL);
    CHECK_CONTAINS(r.text.data,
                   "supernode_redfish_requests_total{outcome=\"http_error\"} "
                   "1\n");
    CHECK(r.obs.ncoolant == 4);
    run_release(&r);
}

static void test_redfish_huge_and_deep_bodies_refused(void)
{
    struct run r;

    if (!mock_start())
        return;
    mock_reset();
    REQUIRE(mock_fault(PSUS "Bay1/Metrics", "huge") == 200);
    REQUIRE(mock_fault(PSUS "Bay2/Metrics", "huge-stream") == 200);
    REQUIRE(mock_fault(CONNS "CPU1", "deep") == 200);
    REQUIRE(mock_fault(CONNS "GPU1", "binary") == 200);
    run(&r, 5);
    CHECK(r.rc == 0);
    CHECK_CONTAINS(r.text.data,
                   "supernode_redfish_requests_total{outcome=\"too_large\"} "
                   "2\n");
    CHECK_CONTAINS(r.text.data, "supernode_redfish_parse_errors_total 2\n");
    CHECK(branch(&r, "CPU1") == NULL && branch(&r, "GPU1") == NULL);
    CHECK(branch(&r, "1/primary/A") != NULL);
    CHECK(psu(&r, "Bay1") && isnan(psu(&r, "Bay1")->input_w));
    run_release(&r);
}

static void test_redfish_hang_returns_within_timeout(void)
{
    struct run r;

    if (!mock_start())
        return;
    mock_reset();
    REQUIRE(mock_fault(CONNS "GPU1", "hang") == 200);
    run(&r, 1.0);
    /* the walk's budget is 90% of the collector's timeout */
    CHECK(r.seconds < 1.0);
    CHECK(r.rc == 0);
    CHECK(branch(&r, "CPU1") != NULL);
    CHECK_CONTAINS(r.text.data,
                   "supernode_redfish_requests_total{outcome=\"timeout\"} 1\n");
    run_release(&r);
    /* the service root hangs: the collector is down, in time */
    mock_reset();
    REQUIRE(mock_fault("/redfish/v1", "hang") == 200);
    run(&r, 1.0);
    CHECK(r.seconds < 1.0);
    CHECK(r.rc == SN_ETIMEOUT);
    CHECK_CONTAINS(r.err.msg, "GET /redfish/v1/: no answer in time");
    run_release(&r);
}

static void test_redfish_wrong_credentials_clear_error(void)
{
    struct run r;

    if (!mock_start())
        return;
    mock_reset();
    run_with(&r, mock_url, MOCK_USER, "wrong", 5, 1);
    CHECK(r.rc == SN_EINPUT);
    CHECK_CONTAINS(r.err.msg, "redfish 'http://127.0.0.1:");
    CHECK_CONTAINS(r.err.msg, "HTTP 401: the BMC refused the user and "
                              "password (check the credentials file)");
    /* the walk stopped at the first refusal */
    CHECK_CONTAINS(r.text.data,
                   "supernode_redfish_requests_total{outcome=\"auth\"} 1\n");
    CHECK(r.obs.ncoolant == 0);
    run_release(&r);
}

static void test_redfish_root_500_marks_collector_down(void)
{
    struct run r;

    if (!mock_start())
        return;
    mock_reset();
    REQUIRE(mock_fault("/redfish/v1", "500") == 200);
    run(&r, 5);
    CHECK(r.rc == SN_EIO);
    CHECK_CONTAINS(r.err.msg, "GET /redfish/v1/: HTTP 500");
    /* the counters still go out */
    CHECK_CONTAINS(r.text.data,
                   "supernode_redfish_requests_total{outcome=\"http_error\"} "
                   "1\n");
    run_release(&r);
    /* nothing listens: a transport error */
    run_with(&r, "http://127.0.0.1:1", NULL, NULL, 2, 1);
    CHECK(r.rc == SN_EIO);
    CHECK_CONTAINS(r.text.data,
                   "supernode_redfish_requests_total{outcome=\"transport\"} "
                   "1\n");
    run_release(&r);
}

static void test_redfish_redirects_only_on_the_host(void)
{
    struct run r;

    if (!mock_start())
        return;
    mock_reset();
    REQUIRE(mock_fault(PSUS "Bay1", "redirect-off") == 200);
    REQUIRE(mock_post("fault", "{\"path\": \"" PSUS "Bay2\", \"mode\": "
                               "\"redirect-on\", \"times\": 1}") == 200);
    run(&r, 5);
    CHECK(r.rc == 0);
    CHECK(psu(&r, "Bay1") == NULL);
    CHECK(psu(&r, "Bay2") != NULL);
    CHECK_CONTAINS(r.text.data,
                   "supernode_redfish_requests_total{outcome=\"redirect\"} "
                   "1\n");
    run_release(&r);
    /* the message names the host, never the URL curl wrote the
     * credentials into */
    mock_reset();
    REQUIRE(mock_fault("/redfish/v1", "redirect-off") == 200);
    run(&r, 5);
    CHECK(r.rc == SN_EIO);
    CHECK_CONTAINS(r.err.msg, "redirect to host '127.0.0.2' not followed");
    CHECK(strstr(r.err.msg, MOCK_PASS) == NULL);
    run_release(&r);
}

static void test_redfish_counters_accumulate_over_intervals(void)
{
    struct run r;

    if (!mock_start())
        return;
    mock_reset();
    run_with(&r, mock_url, MOCK_USER, MOCK_PASS, 5, 3);
    CHECK(r.rc == 0);
    CHECK_CONTAINS(r.text.data,
                   "supernode_redfish_requests_total{outcome=\"ok\"} 81\n");
    CHECK(r.obs.npsus == 2);
    run_release(&r);
}

/* TLS: a self-signed certificate for 127.0.0.1 made here with openssl,
 * a second mock serving HTTPS with it. */
static void test_redfish_tls_verified_by_default(void)
{
    char dir[] = "/tmp/sn-rf-tls-XXXXXX", cmd[512], cert[64], key[64];
    char url[64];
    const char *extra[] = {"--tls-cert", cert, "--tls-key", key, NULL};
    struct sn__watch_cfg cfg = {0};
    struct run r;
    pid_t pid;
    int port = 0;

    if (!mock_start())
        return;
    if (system("command -v openssl >/dev/null 2>&1") != 0) {
        printf("  skipped: no openssl to make a certificate\n");
        return;
    }
    REQUIRE(mkdtemp(dir));
    snprintf(cert, sizeof(cert), "%s/cert.pem", dir);
    snprintf(key, sizeof(key), "%s/key.pem", dir);
    snprintf(cmd, sizeof(cmd),
             "openssl req -x509 -newkey ec -pkeyopt "
             "ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "
             "/CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout %s "
             "-out %s >/dev/null 2>&1",
             key, cert);
    REQUIRE(system(cmd) == 0);
    pid = mock_spawn(extra, &port);
    REQUIRE(pid > 0);
    snprintf(url, sizeof(url), "https://127.0.0.1:%d", port);
    cfg.redfish_url = url;
    cfg.redfish_user = MOCK_USER;
    cfg.redfish_password = MOCK_PASS;
    cfg.timeout_s = 5;
    /* the system's CAs do not know it: refused */
    run_cfg(&r, &cfg, 1);
    CHECK(r.rc == SN_EIO);
    CHECK_CONTAINS(r.err.msg, "GET /redfish/v1/: SSL certificate problem");
    run_release(&r);
    /* its CA given: verified and read */
    cfg.redfish_ca = cert;
    run_cfg(&r, &cfg, 1);
    CHECK(r.rc == 0);
    CHECK(r.obs.npsus == 2 && r.obs.ncoolant == 4);
    run_release(&r);
    /* verification off, as asked */
    cfg.redfish_ca = NULL;
    cfg.redfish_insecure = true;
    run_cfg(&r, &cfg, 1);
    CHECK(r.rc == 0);
    CHECK(r.obs.npsus == 2);
    run_release(&r);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    unlink(cert);
    unlink(key);
    rmdir(dir);
}

static void test_redfish_open_refuses_bad_url(void)
{
    struct sn__watch_cfg cfg = {0};
    struct sn_error err = {0};
    void *st = (void *)1;

    cfg.redfish_url = "ftp://bmc";
    CHECK(sn__watch_col_redfish.open(&cfg, &st, &err) == SN_EINPUT);
    CHECK(st == NULL);
    CHECK_CONTAINS(err.msg, "http:// or https://");
    cfg.redfish_url = "https://bmc/red fish";
    CHECK(sn__watch_col_redfish.open(&cfg, &st, &err) == SN_EINPUT);
    cfg.redfish_url = "https://root:pw@bmc";
    CHECK(sn__watch_col_redfish.open(&cfg, &st, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "credentials file, not in the URL");
    CHECK(strstr(err.msg, "pw") == NULL);
    /* a password over plain http, but to this host, is refused (here
     * the name does not resolve: no address can be checked) */
    cfg.redfish_url = "http://bmc.example";
    cfg.redfish_user = "root";
    cfg.redfish_password = "pw";
    CHECK(sn__watch_col_redfish.open(&cfg, &st, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "'bmc.example'");
    CHECK_CONTAINS(err.msg, "clear text");
    cfg.redfish_insecure = true;
    CHECK(sn__watch_col_redfish.open(&cfg, &st, &err) == 0);
    sn__watch_col_redfish.close(st);
    cfg.redfish_url = NULL;
    CHECK(sn__watch_col_redfish.open(&cfg, &st, &err) == SN_EINPUT);
}

/* A password over plain http:// goes only to this host, decided on the
 * addresses, not the name: "127.bmc.example" resolving to 10.77.0.1 is
 * refused, naming the address; loopback addresses (127/8, ::1, mapped
 * 127/8) are pinned as curl's resolve entry, so the transfer connects to
 * the address that was checked. A name that does not resolve is
 * refused. */
static void test_redfish_clear_text_decided_on_the_address(void)
{
    struct sockaddr_in v4 = {.sin_family = AF_INET};
    struct sockaddr_in6 v6 = {.sin6_family = AF_INET6};
    struct addrinfo a6 = {.ai_family = AF_INET6,
                          .ai_addr = (struct sockaddr *)&v6,
                          .ai_addrlen = sizeof(v6)};
    struct addrinfo a4 = {.ai_family = AF_INET,
                          .ai_addr = (struct sockaddr *)&v4,
                          .ai_addrlen = sizeof(v4),
                          .ai_next = &a6};
    struct sn__watch_cfg cfg = {0};
    struct sn_error err = {0};
    char pin[256];
    void *st = NULL;

    inet_pton(AF_INET, "10.77.0.1", &v4.sin_addr);
    inet_pton(AF_INET6, "::1", &v6.sin6_addr);
    CHECK(sn__watch_redfish_pin("127.bmc.example", "80", &a4, pin, sizeof(pin),
                                &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "'127.bmc.example', which is 10.77.0.1, not "
                            "this host");
    inet_pton(AF_INET, "127.0.0.2", &v4.sin_addr);
    sn_error_clear(&err);
    CHECK(sn__watch_redfish_pin("bmc-proxy", "8080", &a4, pin, sizeof(pin),
                                &err) == SN_OK);
    CHECK_STR(pin, "bmc-proxy:8080:127.0.0.2,[::1]");
    inet_pton(AF_INET6, "::ffff:10.0.0.1", &v6.sin6_addr);
    CHECK(sn__watch_redfish_pin("bmc-proxy", "8080", &a4, pin, sizeof(pin),
                                &err) == SN_EINPUT);
    inet_pton(AF_INET6, "::ffff:127.0.0.1", &v6.sin6_addr);
    CHECK(sn__watch_redfish_pin("bmc-proxy", "8080", &a4, pin, sizeof(pin),
                                &err) == SN_OK);
    /* through open(): a name that does not resolve is refused */
    cfg.redfish_url = "http://127.bmc.invalid";
    cfg.redfish_user = "root";
    cfg.redfish_password = "pw";
    CHECK(sn__watch_col_redfish.open(&cfg, &st, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "cannot resolve '127.bmc.invalid'");
    CHECK(st == NULL);
    if (st) /* opened: the name was taken for an address */
        sn__watch_col_redfish.close(st);
    st = NULL;
    cfg.redfish_url = "http://localhost:1";
    CHECK(sn__watch_col_redfish.open(&cfg, &st, &err) == SN_OK);
    sn__watch_col_redfish.close(st);
}

/* ---- a large, slow BMC -------------------------------------------------- */

/* A BMC of one chassis with BIG_CONNECTORS coolant connectors, one PSU
 * and one leak detector (Critical), served from memory; each connector
 * costs BIG_DELAY_US, the others nothing. */
#define BIG_CONNECTORS 250
#define BIG_DELAY_US 4000
static int big_reads[BIG_CONNECTORS];

static enum sn_rf_outcome big_bmc(void *ctx, const char *path,
                                  struct sn_buf *body, struct sn_error *err)
{
    static const char *const fixed[][2] = {
        {"/redfish/v1/", "{\"Chassis\": {\"@odata.id\": \"/redfish/v1/C\"}}"},
        {"/redfish/v1/C",
         "{\"Members\": [{\"@odata.id\": \"/redfish/v1/C/1\"}]}"},
        {"/redfish/v1/C/1",
         "{\"Id\": \"1\", \"ThermalSubsystem\": {\"@odata.id\": "
         "\"/redfish/v1/C/1/T\"}, \"PowerSubsystem\": {\"@odata.id\": "
         "\"/redfish/v1/C/1/P\"}}"},
        {"/redfish/v1/C/1/T",
         "{\"CoolantConnectors\": {\"@odata.id\": \"/redfish/v1/C/1/T/CC\"}, "
         "\"LeakDetection\": {\"@odata.id\": \"/redfish/v1/C/1/T/L\"}}"},
        {"/redfish/v1/C/1/T/L",
         "{\"LeakDetectors\": {\"@odata.id\": \"/redfish/v1/C/1/T/L/D\"}}"},
        {"/redfish/v1/C/1/T/L/D",
         "{\"Members\": [{\"@odata.id\": \"/redfish/v1/C/1/T/L/D/tray\"}]}"},
        {"/redfish/v1/C/1/T/L/D/tray",
         "{\"Id\": \"tray\", \"DetectorState\": \"Critical\"}"},
        {"/redfish/v1/C/1/P",
         "{\"PowerSupplies\": {\"@odata.id\": \"/redfish/v1/C/1/P/S\"}}"},
        {"/redfish/v1/C/1/P/S",
         "{\"Members\": [{\"@odata.id\": \"/redfish/v1/C/1/P/S/PS1\"}]}"},
        {"/redfish/v1/C/1/P/S/PS1", "{\"Id\": \"PS1\"}"},
    };
    int k;

    sn_buf_reset(body);
    for (size_t i = 0; i < SN_ARRAY_LEN(fixed); i++)
        if (!strcmp(path, fixed[i][0])) {
            sn_buf_puts(body, fixed[i][1]);
            return SN_RF_OK;
        }
    if (!strcmp(path, "/redfish/v1/C/1/T/CC")) {
        sn_buf_puts(body, "{\"Members\": [");
        for (int i = 0; i < BIG_CONNECTORS; i++)
            sn_buf_printf(body,
                          "%s{\"@odata.id\": \"/redfish/v1/C/1/T/CC/%d\"}",
                          i ? ", " : "", i);
        sn_buf_puts(body, "]}");
        return SN_RF_OK;
    }
    if (sscanf(path, "/redfish/v1/C/1/T/CC/%d", &k) == 1 && k >= 0 &&
        k < BIG_CONNECTORS) {
        usleep(BIG_DELAY_US);
        big_reads[k]++;
        sn_buf_printf(body,
                      "{\"Id\": \"B%d\", \"FlowLitersPerMinute\": "
                      "{\"Reading\": 1.5}}",
                      k);
        return SN_RF_OK;
    }
    sn_error_set(err, SN_EIO, "GET %s: HTTP 404", path);
    return SN_RF_HTTP;
}

/* The walk reads what is critical first: with a budget for about a third
 * of the connectors, the leak detector and the PSU are read in every
 * walk, the answer says it is partial, and the walks go on where they
 * stopped, so every connector is read within a few intervals. */
static void test_redfish_slow_large_bmc_reads_leaks_first(void)
{
    struct sn__watch_cfg cfg = {.timeout_s = 0.4};
    struct sn_error err = {0};
    void *st = NULL;
    int walks;

    memset(big_reads, 0, sizeof(big_reads));
    REQUIRE(sn__watch_redfish_open_with(&cfg, big_bmc, NULL, &st, &err) ==
            SN_OK);
    for (walks = 1; walks <= 8; walks++) {
        struct sn__watch_obs obs;
        struct sn_metrics m = {0};
        int unread = 0;
        sn__watch_obs_init(&obs, walks);
        sn_error_clear(&err);
        sn__watch_col_redfish.collect(st, &obs, &m, &err);
        CHECK(obs.nleaks == 1 && obs.nleaks &&
              !strcmp(obs.leaks[0].state, "Critical"));
        CHECK(obs.npsus == 1);
        CHECK(obs.ncoolant < BIG_CONNECTORS); /* the budget is short */
        CHECK(obs.partial);
        for (int i = 0; i < BIG_CONNECTORS; i++)
            unread += big_reads[i] == 0;
        sn__watch_obs_release(&obs);
        sn_metrics_release(&m);
        if (!unread)
            break;
    }
    CHECK(walks <= 6); /* ~90 a walk: 250 in three, slack for a slow host */
    sn__watch_col_redfish.close(st);
}

/* ---- the parser --------------------------------------------------------- */

static void test_redfish_parse_errors_are_located(void)
{
    struct sn_error err = {0};
    json_t *doc = NULL;
    char deep[200];

    CHECK(sn__watch_redfish_parse("r", "{\"A\": 1,\n \"B\": [1, }", 21, &doc,
                                  &err) == SN_EINPUT);
    CHECK(doc == NULL);
    CHECK_CONTAINS(err.msg, "r:2:");
    CHECK(sn__watch_redfish_parse("r", "{\"A\": 1, \"A\": 2}", 16, &doc,
                                  &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "duplicate");
    CHECK(sn__watch_redfish_parse("r", "[1, 2]", 6, &doc, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "expected a JSON object");
    CHECK(sn__watch_redfish_parse("r", "{\"A\": \"\\u0000\"}", 15, &doc,
                                  &err) == SN_EINPUT);
    /* 64 levels pass, 65 do not, and the place is the 65th bracket */
    memset(deep, 0, sizeof(deep));
    deep[0] = '{';
    memcpy(deep + 1, "\"a\":", 4);
    memset(deep + 5, '[', 63);
    memset(deep + 68, ']', 63);
    deep[131] = '}';
    CHECK(sn__watch_redfish_parse("r", deep, strlen(deep), &doc, &err) == 0);
    json_decref(doc);
    deep[5 + 63] = '[';
    memset(deep + 69, ']', 64);
    deep[133] = '}';
    CHECK(sn__watch_redfish_parse("r", deep, strlen(deep), &doc, &err) ==
          SN_EINPUT);
    CHECK_CONTAINS(err.msg, "r:1:69: nested deeper than 64 levels");
}

/* ---- the credentials file ----------------------------------------------- */

static const char *cred_file(const char *text, mode_t mode)
{
    static char path[64];
    int fd;

    snprintf(path, sizeof(path), "/tmp/sn-rf-cred-%d", (int)getpid());
    unlink(path);
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
        return NULL;
    close(fd);
    chmod(path, mode);
    return path;
}

static void test_redfish_credentials_file(void)
{
    char user[64], pass[64];
    struct sn_error err = {0};
    const char *p = cred_file("admin:se:cr et\r\n", 0600);

    REQUIRE(p);
    CHECK(sn__watch_read_credentials(p, user, sizeof(user), pass, sizeof(pass),
                                     &err) == 0);
    CHECK_STR(user, "admin");
    CHECK_STR(pass, "se:cr et");
    p = cred_file("admin:secret\n", 0644);
    CHECK(sn__watch_read_credentials(p, user, sizeof(user), pass, sizeof(pass),
                                     &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "mode 0644 lets group or others read the "
                            "password (chmod 600");
    CHECK(strstr(err.msg, "secret") == NULL);
    CHECK_STR(user, "");
    p = cred_file("admin:secret\n", 0640);
    CHECK(sn__watch_read_credentials(p, user, sizeof(user), pass, sizeof(pass),
                                     &err) == SN_EINPUT);
    p = cred_file("adminsecret\n", 0600);
    CHECK(sn__watch_read_credentials(p, user, sizeof(user), pass, sizeof(pass),
                                     &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, ":1: expected 'user:password'");
    p = cred_file(":secret\n", 0600);
    CHECK(sn__watch_read_credentials(p, user, sizeof(user), pass, sizeof(pass),
                                     &err) == SN_EINPUT);
    /* an empty password is no password: refused, where it is */
    p = cred_file("admin:\n", 0600);
    CHECK(sn__watch_read_credentials(p, user, sizeof(user), pass, sizeof(pass),
                                     &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, ":1:7: empty password");
    p = cred_file("admin:0123456789\n", 0600);
    CHECK(sn__watch_read_credentials(p, user, sizeof(user), pass, 8, &err) ==
          SN_EINPUT);
    unlink(p);
    CHECK(sn__watch_read_credentials(p, user, sizeof(user), pass, sizeof(pass),
                                     &err) == SN_EINPUT);
    CHECK(sn__watch_read_credentials("/", user, sizeof(user), pass,
                                     sizeof(pass), &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "not a regular file");
}

static const struct sn_test cases[] = {
    T(test_redfish_reads_coolant_with_units),
    T(test_redfish_reads_psus_feeds_and_room),
    T(test_redfish_efficiency_is_live_output_over_input),
    T(test_redfish_leak_detector_goes_critical),
    T(test_redfish_readings_outside_their_range_skipped),
    T(test_redfish_metrics_pass_promtool),
    T(test_redfish_malformed_psu_metrics_counted_rest_kept),
    T(test_redfish_500_on_one_psu_counted_rest_kept),
    T(test_redfish_huge_and_deep_bodies_refused),
    T(test_redfish_hang_returns_within_timeout),
    T(test_redfish_wrong_credentials_clear_error),
    T(test_redfish_root_500_marks_collector_down),
    T(test_redfish_redirects_only_on_the_host),
    T(test_redfish_counters_accumulate_over_intervals),
    T(test_redfish_tls_verified_by_default),
    T(test_redfish_open_refuses_bad_url),
    T(test_redfish_clear_text_decided_on_the_address),
    T(test_redfish_slow_large_bmc_reads_leaks_first),
    T(test_redfish_parse_errors_are_located),
    T(test_redfish_credentials_file),
};

SN_TEST_MAIN_TEARDOWN(cases, mock_stop)
