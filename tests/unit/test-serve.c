/* test-serve.c: the node agent's HTTP endpoint (serve.h), fetched with a
 * raw HTTP/1.1 client over a socket to 127.0.0.1 (no other traffic). */
/* covers: metrics */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "sn/metrics.h"
#include "sn/serve.h"
#include "sn/util.h"

struct reply {
    int status;
    char *head; /* status line and headers, NUL-terminated */
    char *body; /* NUL-terminated */
    size_t body_len;
};

static void reply_release(struct reply *r)
{
    free(r->head);
    free(r->body);
    memset(r, 0, sizeof(*r));
}

/* Send request verbatim to 127.0.0.1:port and read the reply to EOF (the
 * requests say Connection: close); 5 s at most per read. */
static int http_raw(unsigned port, const char *request, struct reply *r)
{
    struct sockaddr_in a = {0};
    struct timeval tv = {5, 0};
    struct sn_buf in = SN_BUF_INIT;
    char chunk[4096], *end;
    ssize_t n;
    int fd, rc = -1;

    memset(r, 0, sizeof(*r));
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        goto out;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
        send(fd, request, strlen(request), MSG_NOSIGNAL) < 0)
        goto out;
    while ((n = recv(fd, chunk, sizeof(chunk), 0)) > 0)
        sn_buf_append(&in, chunk, (size_t)n);
    end = in.len ? strstr(in.data, "\r\n\r\n") : NULL;
    if (!end || sscanf(in.data, "HTTP/1.1 %d ", &r->status) != 1)
        goto out;
    r->head = sn_xstrndup(in.data, (size_t)(end - in.data) + 2);
    r->body_len = in.len - (size_t)(end + 4 - in.data);
    r->body = sn_xstrndup(end + 4, r->body_len);
    rc = 0;
out:
    if (fd >= 0)
        close(fd);
    sn_buf_release(&in);
    return rc;
}

/* GET path with extra header lines (each ending in \r\n, or ""). */
static int http_get(unsigned port, const char *path, const char *headers,
                    struct reply *r)
{
    char req[1024];

    snprintf(req, sizeof(req),
             "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%sConnection: close"
             "\r\n\r\n",
             path, headers);
    return http_raw(port, req, r);
}

/* the header's value (to the line's end) in a fresh string, or NULL */
static char *header(const struct reply *r, const char *name)
{
    char key[128];
    const char *p;

    snprintf(key, sizeof(key), "\r\n%s: ", name);
    p = r->head ? strcasestr(r->head, key) : NULL;
    if (!p)
        return NULL;
    p += strlen(key);
    return sn_xstrndup(p, strcspn(p, "\r\n"));
}

static void check_header(const struct reply *r, const char *name,
                         const char *want)
{
    char *v = header(r, name);
    CHECK_STR(v, want);
    free(v);
}

static void sample_registry(struct sn_metrics *m, double temperature)
{
    struct sn_error err = {0};
    struct sn_metrics_label gpu0[] = {{"gpu", "0"}};
    struct sn_metrics_label pw[] = {{"reason", "sw_power_cap"}};
    int rc = 0;

    rc |= sn_metrics_add_family(m, "supernode_gpu_temperature_celsius",
                                "GPU temperature.", SN_METRICS_GAUGE, &err);
    rc |= sn_metrics_add_family(m, "supernode_gpu_throttle_seconds_total",
                                "Seconds throttled.", SN_METRICS_COUNTER, &err);
    rc |= sn_metrics_add(m, "supernode_gpu_temperature_celsius", gpu0, 1,
                         temperature, &err);
    rc |= sn_metrics_add(m, "supernode_gpu_throttle_seconds_total", pw, 1, 3,
                         &err);
    if (rc)
        printf("  sample registry: %s\n", err.msg);
}

/* a server on 127.0.0.1, a free port, with the registry published */
static struct sn_metrics_server *start(double stale_after_s,
                                       struct sn_metrics *m)
{
    struct sn_metrics_server_opts o = {.stale_after_s = stale_after_s};
    struct sn_metrics_server *s = NULL;
    struct sn_error err = {0};

    if (sn_metrics_server_new(&o, &s, &err)) {
        printf("  start: %s\n", err.msg);
        return NULL;
    }
    if (m)
        sn_metrics_server_publish(s, m);
    return s;
}

static void sleep_s(double s)
{
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&t, NULL);
}

static void test_serve_metrics_text_by_default(void)
{
    struct sn_metrics m = {0};
    struct sn_buf want = SN_BUF_INIT;
    struct sn_metrics_server *s;
    struct reply r;

    sample_registry(&m, 41.5);
    sn_metrics_render_text(&m, &want);
    s = start(0, &m);
    REQUIRE(s);
    CHECK(sn_metrics_server_port(s) > 0);
    CHECK(http_get(sn_metrics_server_port(s), "/metrics", "", &r) == 0);
    CHECK(r.status == 200);
    check_header(&r, "Content-Type",
                 "text/plain; version=0.0.4; charset=utf-8");
    check_header(&r, "Vary", "Accept");
    CHECK(r.body_len == want.len);
    CHECK_STR(r.body, want.data);
    reply_release(&r);
    sn_metrics_server_free(s);
    sn_buf_release(&want);
    sn_metrics_release(&m);
}

static void test_serve_metrics_openmetrics_by_accept(void)
{
    struct sn_metrics m = {0};
    struct sn_buf want = SN_BUF_INIT, text = SN_BUF_INIT;
    struct sn_metrics_server *s;
    struct reply r;
    unsigned port;

    sample_registry(&m, 41.5);
    sn_metrics_render_openmetrics(&m, &want);
    sn_metrics_render_text(&m, &text);
    s = start(0, &m);
    REQUIRE(s);
    port = sn_metrics_server_port(s);
    /* Prometheus' own Accept header */
    CHECK(http_get(port, "/metrics",
                   "Accept: application/openmetrics-text;version=1.0.0,"
                   "application/openmetrics-text;version=0.0.1;q=0.75,"
                   "text/plain;version=0.0.4;q=0.5,*/*;q=0.1\r\n",
                   &r) == 0);
    CHECK(r.status == 200);
    check_header(&r, "Content-Type",
                 "application/openmetrics-text; version=1.0.0; charset=utf-8");
    CHECK_STR(r.body, want.data);
    CHECK_CONTAINS(r.body, "# EOF\n");
    reply_release(&r);
    /* refused with q=0, or preferred less than text: the text format */
    CHECK(http_get(port, "/metrics",
                   "Accept: application/openmetrics-text; q=0, "
                   "text/plain\r\n",
                   &r) == 0);
    check_header(&r, "Content-Type",
                 "text/plain; version=0.0.4; charset=utf-8");
    CHECK_STR(r.body, text.data);
    reply_release(&r);
    CHECK(http_get(port, "/metrics",
                   "Accept: application/openmetrics-text;q=0.2,text/plain;"
                   "q=0.9\r\n",
                   &r) == 0);
    CHECK_STR(r.body, text.data);
    reply_release(&r);
    sn_metrics_server_free(s);
    sn_buf_release(&want);
    sn_buf_release(&text);
    sn_metrics_release(&m);
}

static void test_serve_publish_replaces_the_metrics(void)
{
    struct sn_metrics m = {0}, m2 = {0};
    struct sn_metrics_server *s;
    struct reply r;

    s = start(0, NULL);
    REQUIRE(s);
    /* nothing published yet: no empty exposition passed off as data */
    CHECK(http_get(sn_metrics_server_port(s), "/metrics", "", &r) == 0);
    CHECK(r.status == 503);
    reply_release(&r);
    sample_registry(&m, 41.5);
    sn_metrics_server_publish(s, &m);
    sn_metrics_release(&m); /* the server keeps its own rendering */
    CHECK(http_get(sn_metrics_server_port(s), "/metrics", "", &r) == 0);
    CHECK_CONTAINS(r.body, "supernode_gpu_temperature_celsius{gpu=\"0\"} 41.5");
    reply_release(&r);
    sample_registry(&m2, 77);
    sn_metrics_server_publish(s, &m2);
    CHECK(http_get(sn_metrics_server_port(s), "/metrics", "", &r) == 0);
    CHECK_CONTAINS(r.body, "supernode_gpu_temperature_celsius{gpu=\"0\"} 77");
    CHECK(!strstr(r.body, "41.5"));
    reply_release(&r);
    sn_metrics_server_free(s);
    sn_metrics_release(&m2);
}

static void test_serve_healthz_fails_when_stale(void)
{
    struct sn_metrics m = {0};
    struct sn_metrics_server *s;
    struct reply r;
    unsigned port;

    s = start(0.2, NULL);
    REQUIRE(s);
    port = sn_metrics_server_port(s);
    CHECK(http_get(port, "/healthz", "", &r) == 0);
    CHECK(r.status == 503);
    reply_release(&r);
    sample_registry(&m, 41.5);
    sn_metrics_server_publish(s, &m);
    CHECK(http_get(port, "/healthz", "", &r) == 0);
    CHECK(r.status == 200);
    CHECK_STR(r.body, "ok\n");
    reply_release(&r);
    sleep_s(0.3); /* past the 200 ms limit */
    CHECK(http_get(port, "/healthz", "", &r) == 0);
    CHECK(r.status == 503);
    CHECK_CONTAINS(r.body, "stale: last publish 0.");
    CHECK_CONTAINS(r.body, "(limit 0.200 s)");
    reply_release(&r);
    /* a publish makes it healthy again */
    sn_metrics_server_publish(s, &m);
    CHECK(http_get(port, "/healthz", "", &r) == 0);
    CHECK(r.status == 200);
    reply_release(&r);
    sn_metrics_server_free(s);
    sn_metrics_release(&m);
}

static void test_serve_landing_page_links(void)
{
    struct sn_metrics_server *s = start(0, NULL);
    struct reply r;

    REQUIRE(s);
    CHECK(http_get(sn_metrics_server_port(s), "/", "", &r) == 0);
    CHECK(r.status == 200);
    check_header(&r, "Content-Type", "text/html; charset=utf-8");
    CHECK_CONTAINS(r.body, "<a href=\"/metrics\">");
    CHECK_CONTAINS(r.body, "<a href=\"/healthz\">");
    reply_release(&r);
    sn_metrics_server_free(s);
}

static void test_serve_refuses_other_methods_and_paths(void)
{
    struct sn_metrics m = {0};
    struct sn_metrics_server *s;
    struct reply r;
    unsigned port;

    sample_registry(&m, 41.5);
    s = start(0, &m);
    REQUIRE(s);
    port = sn_metrics_server_port(s);
    CHECK(http_raw(port,
                   "POST /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   "Content-Length: 0\r\nConnection: close\r\n\r\n",
                   &r) == 0);
    CHECK(r.status == 405);
    check_header(&r, "Allow", "GET, HEAD");
    reply_release(&r);
    CHECK(http_raw(port,
                   "DELETE / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   "Connection: close\r\n\r\n",
                   &r) == 0);
    CHECK(r.status == 405);
    reply_release(&r);
    CHECK(http_get(port, "/nope", "", &r) == 0);
    CHECK(r.status == 404);
    reply_release(&r);
    CHECK(http_get(port, "/metrics/", "", &r) == 0);
    CHECK(r.status == 404);
    reply_release(&r);
    /* a GET with a body: refused, not read */
    CHECK(http_raw(port,
                   "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   "Content-Length: 5\r\nConnection: close\r\n\r\nhello",
                   &r) == 0);
    CHECK(r.status == 413);
    reply_release(&r);
    /* HEAD: the headers of GET and no body */
    CHECK(http_raw(port,
                   "HEAD /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   "Connection: close\r\n\r\n",
                   &r) == 0);
    CHECK(r.status == 200);
    CHECK(r.body_len == 0);
    reply_release(&r);
    sn_metrics_server_free(s);
    sn_metrics_release(&m);
}

static void test_serve_refuses_a_port_in_use(void)
{
    struct sn_metrics_server *s = start(0, NULL), *s2 = NULL;
    struct sn_metrics_server_opts o = {0};
    struct sn_error err = {0};
    char want[64];

    REQUIRE(s);
    o.address = "127.0.0.1";
    o.port = sn_metrics_server_port(s);
    CHECK(sn_metrics_server_new(&o, &s2, &err) == SN_EIO);
    CHECK(s2 == NULL);
    snprintf(want, sizeof(want), "cannot listen on 127.0.0.1:%u: ", o.port);
    CHECK_CONTAINS(err.msg, want);
    CHECK_CONTAINS(err.msg, "in use");
    sn_metrics_server_free(s2);
    sn_metrics_server_free(s);
}

static void test_serve_refuses_bad_options(void)
{
    struct sn_metrics_server_opts o = {0};
    struct sn_metrics_server *s = NULL;
    struct sn_error err = {0};

    o.address = "localhost:80";
    CHECK(sn_metrics_server_new(&o, &s, &err) == SN_EINPUT);
    CHECK(s == NULL);
    CHECK_CONTAINS(err.msg, "bad listen address 'localhost:80'");
    o.address = "127.0.0.1";
    o.port = 70000;
    CHECK(sn_metrics_server_new(&o, &s, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "bad listen port 70000");
    o.port = 0;
    o.stale_after_s = -1;
    CHECK(sn_metrics_server_new(&o, &s, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "bad staleness limit");
    CHECK(s == NULL);
    /* a documentation address (RFC 5737) is not this host's: no bind */
    o.address = "192.0.2.1";
    o.stale_after_s = 0;
    CHECK(sn_metrics_server_new(&o, &s, &err) == SN_EIO);
    CHECK_CONTAINS(err.msg, "cannot listen on 192.0.2.1:0");
    CHECK(s == NULL);
    sn_metrics_server_free(NULL);
}

/* /healthz tells the truth: a problem the agent reports (a collector
 * with no reading) fails it however fresh the publish, until cleared. */
static void test_serve_healthz_fails_on_a_problem(void)
{
    struct sn_metrics m = {0};
    struct sn_metrics_server *s;
    struct reply r;

    sample_registry(&m, 41.5);
    s = start(0, &m);
    REQUIRE(s);
    sn_metrics_server_set_problem(s, "collector nvml: no reading for 62 s");
    CHECK(http_get(sn_metrics_server_port(s), "/healthz", "", &r) == 0);
    CHECK(r.status == 503);
    CHECK_STR(r.body, "unhealthy: collector nvml: no reading for 62 s\n");
    reply_release(&r);
    /* /metrics still answers */
    CHECK(http_get(sn_metrics_server_port(s), "/metrics", "", &r) == 0);
    CHECK(r.status == 200);
    reply_release(&r);
    sn_metrics_server_set_problem(s, NULL);
    CHECK(http_get(sn_metrics_server_port(s), "/healthz", "", &r) == 0);
    CHECK(r.status == 200);
    reply_release(&r);
    sn_metrics_server_free(s);
    sn_metrics_release(&m);
}

/* Basic authentication on every path: none or a wrong password gets 401
 * with a challenge, the right one the page. */
static void test_serve_basic_auth(void)
{
    struct sn_metrics_server_opts o = {.auth_user = "prom",
                                       .auth_password = "s3cret"};
    struct sn_metrics m = {0};
    struct sn_metrics_server *s = NULL;
    struct sn_error err = {0};
    struct reply r;
    unsigned port;

    REQUIRE(sn_metrics_server_new(&o, &s, &err) == SN_OK);
    sample_registry(&m, 41.5);
    sn_metrics_server_publish(s, &m);
    port = sn_metrics_server_port(s);
    CHECK(http_get(port, "/metrics", "", &r) == 0);
    CHECK(r.status == 401);
    check_header(&r, "WWW-Authenticate", "Basic realm=\"supernode watch\"");
    reply_release(&r);
    /* "prom:wrong" and "prom:s3cret" in base64 */
    CHECK(http_get(port, "/metrics",
                   "Authorization: Basic cHJvbTp3cm9uZw==\r\n", &r) == 0);
    CHECK(r.status == 401);
    reply_release(&r);
    CHECK(http_get(port, "/healthz",
                   "Authorization: Basic cHJvbTpzM2NyZXQ=\r\n", &r) == 0);
    CHECK(r.status == 200);
    reply_release(&r);
    CHECK(http_get(port, "/metrics",
                   "Authorization: Basic cHJvbTpzM2NyZXQ=\r\n", &r) == 0);
    CHECK(r.status == 200);
    CHECK_CONTAINS(r.body, "supernode_gpu_temperature_celsius{gpu=\"0\"}");
    reply_release(&r);
    sn_metrics_server_free(s);
    sn_metrics_release(&m);
}

/* Run a shell command; its exit status (-1 when it could not run). */
static int sh(const char *cmd)
{
    int st = system(cmd);
    return st == -1 ? -1 : WEXITSTATUS(st);
}

/* HTTPS with a self-signed certificate made by openssl for the test: curl
 * trusting it gets the metrics; plain HTTP to the port gets none. Skipped
 * (and said) where openssl or curl is missing. */
static void test_serve_https(void)
{
    char dir[] = "/tmp/sn-tls-XXXXXX", cmd[1024], *cert, *key;
    struct sn_metrics_server_opts o = {0};
    struct sn_metrics m = {0};
    struct sn_metrics_server *s = NULL;
    struct sn_error err = {0};
    struct reply r;
    size_t len;

    if (sh("command -v openssl >/dev/null && command -v curl >/dev/null")) {
        printf("  skipped: openssl or curl missing\n");
        return;
    }
    REQUIRE(mkdtemp(dir));
    snprintf(cmd, sizeof(cmd),
             "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "
             "/CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout "
             "%s/key.pem -out %s/cert.pem 2>/dev/null",
             dir, dir);
    REQUIRE(sh(cmd) == 0);
    snprintf(cmd, sizeof(cmd), "%s/cert.pem", dir);
    REQUIRE(sn_read_file(cmd, 1 << 20, &cert, &len, &err) == SN_OK);
    snprintf(cmd, sizeof(cmd), "%s/key.pem", dir);
    REQUIRE(sn_read_file(cmd, 1 << 20, &key, &len, &err) == SN_OK);
    o.tls_cert_pem = cert;
    CHECK(sn_metrics_server_new(&o, &s, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "both a certificate and its key");
    o.tls_key_pem = key;
    REQUIRE(sn_metrics_server_new(&o, &s, &err) == SN_OK);
    sample_registry(&m, 41.5);
    sn_metrics_server_publish(s, &m);
    snprintf(cmd, sizeof(cmd),
             "curl -sf --max-time 5 --cacert %s/cert.pem "
             "https://127.0.0.1:%u/metrics | grep -q "
             "'^supernode_gpu_temperature_celsius{gpu=\"0\"} 41.5$'",
             dir, sn_metrics_server_port(s));
    CHECK(sh(cmd) == 0);
    /* plain HTTP gets no page */
    CHECK(http_get(sn_metrics_server_port(s), "/metrics", "", &r) != 0 ||
          r.status != 200);
    reply_release(&r);
    sn_metrics_server_free(s);
    sn_metrics_release(&m);
    free(cert);
    free(key);
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    sh(cmd);
}

/* A slow-loris client (another address on loopback, 127.0.0.2) opens
 * more connections than the per-client limit and sends its request
 * heads a byte short, never finishing: it holds at most its share, a
 * scraper from 127.0.0.1 is answered at once, and the idle connections
 * are closed after the connection timeout. */
static void test_serve_slow_loris_does_not_starve_a_scrape(void)
{
    struct sn_metrics_server_opts o = {.connection_limit = 8,
                                       .connection_timeout_s = 3};
    struct sn_metrics m = {0};
    struct sn_metrics_server *s = NULL;
    struct sn_error err = {0};
    struct timeval tv = {5, 0};
    struct reply r;
    int fds[12];
    struct timespec a, b;

    REQUIRE(sn_metrics_server_new(&o, &s, &err) == SN_OK);
    sample_registry(&m, 41.5);
    sn_metrics_server_publish(s, &m);
    for (int i = 0; i < 12; i++) {
        struct sockaddr_in src = {0}, dst = {0};
        fds[i] = socket(AF_INET, SOCK_STREAM, 0);
        REQUIRE(fds[i] >= 0);
        src.sin_family = AF_INET;
        src.sin_addr.s_addr = htonl(0x7f000002); /* 127.0.0.2 */
        dst.sin_family = AF_INET;
        dst.sin_port = htons((uint16_t)sn_metrics_server_port(s));
        dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        setsockopt(fds[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
        if (bind(fds[i], (struct sockaddr *)&src, sizeof(src)) == 0 &&
            connect(fds[i], (struct sockaddr *)&dst, sizeof(dst)) == 0)
            send(fds[i], "GET /metrics HTTP/1.1\r\nHost: x\r\n", 32,
                 MSG_NOSIGNAL);
    }
    sleep_s(0.1);
    clock_gettime(CLOCK_MONOTONIC, &a);
    CHECK(http_get(sn_metrics_server_port(s), "/metrics", "", &r) == 0);
    clock_gettime(CLOCK_MONOTONIC, &b);
    CHECK(r.status == 200);
    CHECK((double)(b.tv_sec - a.tv_sec) +
              (double)(b.tv_nsec - a.tv_nsec) / 1e9 <
          1.5); /* starved, it would wait for the 3 s timeout */
    reply_release(&r);
    /* past the 3 s timeout every slow connection is closed (or was
     * refused at once past the per-client limit): each read ends */
    int closed = 0;
    for (int i = 0; i < 12; i++) {
        char c;
        if (recv(fds[i], &c, 1, 0) <= 0)
            closed++;
        close(fds[i]);
    }
    CHECK(closed == 12);
    sn_metrics_server_free(s);
    sn_metrics_release(&m);
}

/* A client at 127.0.0.<a> connected to port: the socket, or -1. */
static int connect_from(unsigned a, unsigned port)
{
    struct sockaddr_in src = {0}, dst = {0};
    struct timeval tv = {0, 200000};
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    if (fd < 0)
        return -1;
    src.sin_family = AF_INET;
    src.sin_addr.s_addr = htonl(0x7f000000u | a);
    dst.sin_family = AF_INET;
    dst.sin_port = htons((uint16_t)port);
    dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
    if (bind(fd, (struct sockaddr *)&src, sizeof(src)) != 0 ||
        connect(fd, (struct sockaddr *)&dst, sizeof(dst)) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* The drippers: clients on 127.0.0.2-5 keep up to 16 connections each,
 * sending a header line's byte every 50 ms and reconnecting whatever is
 * closed, for a bounded number of rounds. */
#define DRIP_ADDRS 4
#define DRIP_CONNS 16
struct drip {
    unsigned port;
    int rounds;
    long connects, cut;
};

static void *drip_main(void *arg)
{
    struct drip *d = arg;
    int fds[DRIP_ADDRS * DRIP_CONNS];

    for (size_t i = 0; i < SN_ARRAY_LEN(fds); i++)
        fds[i] = -1;
    for (int r = 0; r < d->rounds; r++) {
        for (size_t i = 0; i < SN_ARRAY_LEN(fds); i++) {
            if (fds[i] < 0) {
                fds[i] = connect_from(2 + (unsigned)(i % DRIP_ADDRS), d->port);
                d->connects++;
                if (fds[i] >= 0 && send(fds[i], "GET /metrics HTTP/1.1\r\n", 24,
                                        MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
                    close(fds[i]);
                    fds[i] = -1;
                }
                continue;
            }
            if (send(fds[i], "X", 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
                close(fds[i]);
                fds[i] = -1;
                d->cut++;
            }
        }
        sleep_s(0.05);
    }
    for (size_t i = 0; i < SN_ARRAY_LEN(fds); i++)
        if (fds[i] >= 0)
            close(fds[i]);
    return NULL;
}

static double mono_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Clients on four addresses that drip their request heads, reconnecting
 * as fast as they are cut off, never hold every slot: with the default
 * limit (32), a scraper from another address is answered within 1 s,
 * again and again, while they drip. */
static void test_serve_dripping_clients_leave_room_for_a_scrape(void)
{
    struct sn_metrics m = {0};
    struct sn_metrics_server *s = start(0, NULL);
    struct drip d = {.rounds = 60};
    pthread_t t;
    struct reply r;
    int late = 0, answered = 0;

    REQUIRE(s);
    sample_registry(&m, 41.5);
    sn_metrics_server_publish(s, &m);
    d.port = sn_metrics_server_port(s);
    REQUIRE(pthread_create(&t, NULL, drip_main, &d) == 0);
    sleep_s(0.5); /* every dripper has connected */
    for (int i = 0; i < 5; i++) {
        double a = mono_s();
        if (http_get(d.port, "/metrics", "", &r) == 0 && r.status == 200)
            answered++;
        late += mono_s() - a > 1.0;
        reply_release(&r);
        sleep_s(0.2);
    }
    pthread_join(t, NULL);
    CHECK(answered == 5);
    CHECK(late == 0);
    sn_metrics_server_free(s);
    sn_metrics_release(&m);
}

/* A request head has a deadline for the whole of it: a client that
 * sends a byte every 50 ms (never idle for the idle timeout) is cut off
 * once the head has taken longer than the deadline. */
static void test_serve_head_deadline_cuts_a_trickle(void)
{
    struct sn_metrics_server_opts o = {.connection_timeout_s = 10,
                                       .head_timeout_s = 0.5};
    struct sn_metrics_server *s = NULL;
    struct sn_error err = {0};
    double a, cut = -1;
    int fd;

    REQUIRE(sn_metrics_server_new(&o, &s, &err) == SN_OK);
    fd = connect_from(2, sn_metrics_server_port(s));
    REQUIRE(fd >= 0);
    a = mono_s();
    send(fd, "GET / HTTP/1.1\r\n", 16, MSG_NOSIGNAL);
    for (int i = 0; i < 60 && cut < 0; i++) { /* 3 s at most */
        char c;
        sleep_s(0.05);
        if (send(fd, "X", 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 ||
            recv(fd, &c, 1, MSG_DONTWAIT) == 0)
            cut = mono_s() - a;
    }
    close(fd);
    CHECK(cut >= 0.45);
    CHECK(cut > 0 && cut < 1.5);
    sn_metrics_server_free(s);
}

static const struct sn_test cases[] = {
    T(test_serve_slow_loris_does_not_starve_a_scrape),
    T(test_serve_dripping_clients_leave_room_for_a_scrape),
    T(test_serve_head_deadline_cuts_a_trickle),
    T(test_serve_healthz_fails_on_a_problem),
    T(test_serve_basic_auth),
    T(test_serve_https),
    T(test_serve_metrics_text_by_default),
    T(test_serve_metrics_openmetrics_by_accept),
    T(test_serve_publish_replaces_the_metrics),
    T(test_serve_healthz_fails_when_stale),
    T(test_serve_landing_page_links),
    T(test_serve_refuses_other_methods_and_paths),
    T(test_serve_refuses_a_port_in_use),
    T(test_serve_refuses_bad_options),
};

SN_TEST_MAIN(cases)
