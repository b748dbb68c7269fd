/* serve.c: the node agent's HTTP endpoint of serve.h on libmicrohttpd,
 * serving the last published registry from MHD's internal thread. The
 * listening socket is ours (bound here, handed to MHD), so a refused bind
 * comes back with its errno.
 *
 * Slow clients: MHD's timeout is per idle period, so a client that sends
 * a byte now and then holds its connection for as long as it likes. The
 * server keeps its own table of connections (the notify-connection
 * callback): a request head not complete within its deadline has its
 * socket shut down by a watchdog thread, and an accept policy shares the
 * slots out: so many per address, so many per range (an IPv4 /24, an
 * IPv6 /64), and the last slots only for a range holding none. Clients
 * on a few addresses, however slow, leave room for a scrape. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "sn/serve.h"
#include "sn/util.h"

/* the handler's return type is an enum from 0.9.71 on, int before */
#if MHD_VERSION < 0x00097002
typedef int mhd_result;
#else
typedef enum MHD_Result mhd_result;
#endif

/* 413, spelled PAYLOAD_TOO_LARGE or CONTENT_TOO_LARGE by MHD's versions */
#define HTTP_CONTENT_TOO_LARGE 413

/* how much a connection's read buffer grows at a time: MHD's default
 * (1 KiB), said here because the pool is sized with it in mind: the
 * buffer grows by steps as the head arrives, so a head of n bytes takes
 * n and at most one step of the pool, and the rest stays for the answer */
#define HEAD_INCREMENT 1024

#define CT_TEXT "text/plain; version=0.0.4; charset=utf-8"
#define CT_OPENMETRICS                                                         \
    "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define CT_PLAIN "text/plain; charset=utf-8"
#define CT_HTML "text/html; charset=utf-8"

static const char landing[] =
    "<!DOCTYPE html>\n<html><head><title>supernode watch</title></head>\n"
    "<body><h1>supernode watch</h1>\n<ul>\n"
    "<li><a href=\"/metrics\">/metrics</a></li>\n"
    "<li><a href=\"/healthz\">/healthz</a></li>\n"
    "</ul></body></html>\n";

/* One open connection (the server's table, under slots_lock). */
struct slot {
    struct sockaddr_storage addr; /* the client */
    int fd;
    struct timespec head_since; /* when its request head began: accepted,
                                   or the last request completed */
    bool in_request;            /* its head is complete, being answered */
    bool cut;                   /* shut down past its deadline */
    struct slot *next;
};

struct sn_metrics_server {
    struct MHD_Daemon *daemon;
    /* the connections and their shares */
    pthread_mutex_t slots_lock;
    struct slot *slots;
    unsigned nslots, limit, per_address, per_range, reserved;
    double head_s;
    pthread_t watchdog;
    bool watchdog_on, stopping;
    pthread_cond_t stop; /* wakes the watchdog to stop */
    unsigned port;
    double stale_after_s;
    pthread_mutex_t lock; /* guards everything below */
    struct sn_buf text, openmetrics;
    int published;
    struct timespec published_at; /* CLOCK_MONOTONIC */
    char *problem;                /* what makes /healthz fail, or NULL */
    char *user, *password;        /* basic authentication, or NULL */
};

static double since(const struct timespec *t)
{
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) +
           (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* The q of a media range's parameters ("; version=1.0.0; q=0.5"), 1 when
 * none is given (RFC 9110 12.4.2). */
static double range_q(const char *params, size_t len)
{
    for (size_t i = 0; i + 1 < len; i++) {
        if (params[i] != ';')
            continue;
        size_t j = i + 1;
        while (j < len && (params[j] == ' ' || params[j] == '\t'))
            j++;
        if (j + 1 < len && (params[j] == 'q' || params[j] == 'Q') &&
            params[j + 1] == '=') {
            char num[16] = {0};
            size_t k = 0;
            for (j += 2; j < len && k + 1 < sizeof(num); j++)
                num[k++] = params[j];
            return strtod(num, NULL);
        }
    }
    return 1.0;
}

/* OpenMetrics when the Accept header lists it with a q above zero and at
 * least that of text/plain (Prometheus lists it first, q=1, and 0.0.4 at
 * q=0.5); the text format otherwise, the default of every scraper. */
static int wants_openmetrics(const char *accept)
{
    static const char om[] = "application/openmetrics-text";
    static const char text[] = "text/plain";
    double q_om = 0, q_text = 0;

    if (!accept)
        return 0;
    while (*accept) {
        size_t len = strcspn(accept, ",");
        const char *r = accept;
        size_t skip = strspn(r, " \t");
        r += skip;
        size_t rlen = len - skip, type_len = strcspn(r, ";");
        if (type_len > rlen)
            type_len = rlen;
        while (type_len && (r[type_len - 1] == ' ' || r[type_len - 1] == '\t'))
            type_len--;
        double q = range_q(r + type_len, rlen - type_len);
        if (type_len == sizeof(om) - 1 && !strncasecmp(r, om, type_len))
            q_om = fmax(q_om, q);
        else if (type_len == sizeof(text) - 1 &&
                 !strncasecmp(r, text, type_len))
            q_text = fmax(q_text, q);
        accept += len + (accept[len] == ',');
    }
    return q_om > 0 && q_om >= q_text;
}

/* Queue response r (NULL: it could not be made) with the headers every
 * answer carries, and release it. */
static mhd_result queue(struct MHD_Connection *c, unsigned status,
                        const char *type, struct MHD_Response *r)
{
    mhd_result rc;

    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

/* Queue a response of len bytes copied from body. */
static mhd_result reply(struct MHD_Connection *c, unsigned status,
                        const char *type, const void *body, size_t len)
{
    return queue(c, status, type,
                 MHD_create_response_from_buffer(len, (void *)body,
                                                 MHD_RESPMEM_MUST_COPY));
}

static mhd_result reply_str(struct MHD_Connection *c, unsigned status,
                            const char *body)
{
    return reply(c, status, CT_PLAIN, body, strlen(body));
}

/* /metrics: a copy of the current rendering, taken under the lock. */
static mhd_result serve_metrics(struct sn_metrics_server *s,
                                struct MHD_Connection *c)
{
    const char *accept =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
    int om = wants_openmetrics(accept);
    struct MHD_Response *r = NULL;
    const struct sn_buf *b;
    int published;

    pthread_mutex_lock(&s->lock);
    b = om ? &s->openmetrics : &s->text;
    published = s->published;
    if (published)
        r = MHD_create_response_from_buffer(b->len, b->data,
                                            MHD_RESPMEM_MUST_COPY);
    pthread_mutex_unlock(&s->lock);
    if (!published)
        return reply_str(c, MHD_HTTP_SERVICE_UNAVAILABLE,
                         "no metrics published yet\n");
    if (r)
        MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept");
    return queue(c, MHD_HTTP_OK, om ? CT_OPENMETRICS : CT_TEXT, r);
}

/* /healthz: ok while the last publish is younger than the limit. */
static mhd_result serve_health(struct sn_metrics_server *s,
                               struct MHD_Connection *c)
{
    char body[320] = "";
    int published;
    double age = 0;

    pthread_mutex_lock(&s->lock);
    published = s->published;
    if (published)
        age = since(&s->published_at);
    if (s->problem)
        snprintf(body, sizeof(body), "unhealthy: %s\n", s->problem);
    pthread_mutex_unlock(&s->lock);
    if (!published)
        return reply_str(c, MHD_HTTP_SERVICE_UNAVAILABLE,
                         "stale: no metrics published yet\n");
    if (sn_startswith(body, "unhealthy: "))
        return reply_str(c, MHD_HTTP_SERVICE_UNAVAILABLE, body);
    if (age <= s->stale_after_s)
        return reply_str(c, MHD_HTTP_OK, "ok\n");
    snprintf(body, sizeof(body),
             "stale: last publish %.3f s ago (limit %.3f s)\n", age,
             s->stale_after_s);
    return reply_str(c, MHD_HTTP_SERVICE_UNAVAILABLE, body);
}

/* A request with a body: GET and HEAD take none, so one is refused
 * rather than read (a declared length or any transfer coding). */
static int has_body(struct MHD_Connection *c)
{
    const char *len = MHD_lookup_connection_value(
        c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    const char *te = MHD_lookup_connection_value(
        c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);

    return te || (len && strtoull(len, NULL, 10) != 0);
}

/* Equal strings, in time that depends on b's length only. */
static bool same_secret(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    unsigned char d = la != lb;
    for (size_t i = 0; i < lb; i++)
        d |= (unsigned char)(a[i < la ? i : 0] ^ b[i]);
    return d == 0;
}

/* Whether the request carries the configured user and password (always,
 * when none is configured). */
static bool authorised(struct sn_metrics_server *s, struct MHD_Connection *c)
{
    char *pass = NULL, *user;
    bool ok;

    if (!s->user)
        return true;
    user = MHD_basic_auth_get_username_password(c, &pass);
    ok = false;
    if (user && pass) {
        /* both compared, whichever differs */
        bool u = same_secret(user, s->user);
        bool p = same_secret(pass, s->password);
        ok = u && p;
    }
    MHD_free(user);
    MHD_free(pass);
    return ok;
}

static mhd_result refuse_auth(struct MHD_Connection *c)
{
    static const char body[] = "authentication required\n";
    struct MHD_Response *r = MHD_create_response_from_buffer(
        sizeof(body) - 1, (void *)body, MHD_RESPMEM_PERSISTENT);
    mhd_result rc;

    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, CT_PLAIN);
    rc = MHD_queue_basic_auth_fail_response(c, "supernode watch", r);
    MHD_destroy_response(r);
    return rc;
}

/* ---- slots --------------------------------------------------------------- */

/* The client's address and its range as comparable bytes: 16 of them,
 * IPv4 mapped into IPv6 (::ffff:a.b.c.d), so one client has one key on
 * either listener. The range is the first 64 bits of an IPv6 address
 * (the /64 one subnet gets, RFC 4291 2.5.1) or an IPv4 /24. */
static void key_of(const struct sockaddr *sa, unsigned char key[16],
                   size_t *range_len)
{
    memset(key, 0, 16);
    *range_len = 16;
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)sa;
        key[10] = key[11] = 0xff;
        memcpy(key + 12, &a->sin_addr, 4);
        *range_len = 15;
    } else if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)sa;
        memcpy(key, &a->sin6_addr, 16);
        *range_len = IN6_IS_ADDR_V4MAPPED(&a->sin6_addr) ? 15 : 8;
    }
}

/* Whether a client at sa may have one more connection (under
 * slots_lock): below its address's share and its range's, and, for the
 * last reserved slots, from a range that holds none. */
static bool may_connect(const struct sn_metrics_server *s,
                        const struct sockaddr *sa)
{
    unsigned char k[16], o[16];
    size_t rl, ol;
    unsigned same = 0, range = 0;

    key_of(sa, k, &rl);
    for (const struct slot *x = s->slots; x; x = x->next) {
        key_of((const struct sockaddr *)&x->addr, o, &ol);
        same += memcmp(k, o, 16) == 0;
        range += memcmp(k, o, rl) == 0;
    }
    if (same >= s->per_address || range >= s->per_range)
        return false;
    return s->nslots + s->reserved < s->limit || range == 0;
}

static mhd_result on_accept(void *cls, const struct sockaddr *addr,
                            socklen_t len)
{
    struct sn_metrics_server *s = cls;
    bool ok;

    if (!addr || len < sizeof(sa_family_t))
        return MHD_NO;
    pthread_mutex_lock(&s->slots_lock);
    ok = may_connect(s, addr);
    pthread_mutex_unlock(&s->slots_lock);
    return ok ? MHD_YES : MHD_NO;
}

/* Connections as MHD opens and closes them: the table the shares and the
 * watchdog read. MHD closes a socket only after this hears it closed,
 * so a descriptor in the table is always that connection's. */
static void on_connection(void *cls, struct MHD_Connection *c, void **ctx,
                          enum MHD_ConnectionNotificationCode what)
{
    struct sn_metrics_server *s = cls;
    struct slot *x = *ctx;

    if (what == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ai =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        const union MHD_ConnectionInfo *fi =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        x = sn_xcalloc(1, sizeof(*x));
        x->fd = fi ? fi->connect_fd : -1;
        if (ai && ai->client_addr) {
            size_t n = ai->client_addr->sa_family == AF_INET6
                           ? sizeof(struct sockaddr_in6)
                           : sizeof(struct sockaddr_in);
            memcpy(&x->addr, ai->client_addr, n);
        }
        clock_gettime(CLOCK_MONOTONIC, &x->head_since);
        pthread_mutex_lock(&s->slots_lock);
        x->next = s->slots;
        s->slots = x;
        s->nslots++;
        pthread_mutex_unlock(&s->slots_lock);
        *ctx = x;
        return;
    }
    if (!x)
        return;
    pthread_mutex_lock(&s->slots_lock);
    for (struct slot **p = &s->slots; *p; p = &(*p)->next)
        if (*p == x) {
            *p = x->next;
            s->nslots--;
            break;
        }
    pthread_mutex_unlock(&s->slots_lock);
    free(x);
    *ctx = NULL;
}

static struct slot *slot_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *i =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return i ? i->socket_context : NULL;
}

/* A request answered: the connection's next head starts its deadline. */
static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode why)
{
    struct sn_metrics_server *s = cls;
    struct slot *x = slot_of(c);

    if (!x)
        return;
    pthread_mutex_lock(&s->slots_lock);
    x->in_request = false;
    clock_gettime(CLOCK_MONOTONIC, &x->head_since);
    pthread_mutex_unlock(&s->slots_lock);
}

/* The watchdog: every tenth of the deadline (at most 0.25 s), shut down
 * each connection whose head has taken longer than the deadline; MHD
 * sees the end of its stream and closes it. */
static void *watchdog_main(void *arg)
{
    struct sn_metrics_server *s = arg;
    double step = fmin(0.25, s->head_s / 10);

    pthread_mutex_lock(&s->slots_lock);
    while (!s->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        double end = (double)until.tv_sec + (double)until.tv_nsec / 1e9 + step;
        until.tv_sec = (time_t)end;
        until.tv_nsec = (long)((end - (double)until.tv_sec) * 1e9);
        pthread_cond_timedwait(&s->stop, &s->slots_lock, &until);
        for (struct slot *x = s->slots; x && !s->stopping; x = x->next)
            if (!x->in_request && !x->cut && x->fd >= 0 &&
                since(&x->head_since) > s->head_s) {
                shutdown(x->fd, SHUT_RDWR);
                x->cut = true;
            }
    }
    pthread_mutex_unlock(&s->slots_lock);
    return NULL;
}

static mhd_result handle(void *cls, struct MHD_Connection *c, const char *url,
                         const char *method, const char *version,
                         const char *upload_data, size_t *upload_data_size,
                         void **con_cls)
{
    struct sn_metrics_server *s = cls;

    /* every answer is queued at the first call, before any body is read;
     * a later call can only bring body bytes, which are not wanted */
    if (*con_cls)
        return MHD_NO;
    *con_cls = s;
    struct slot *x = slot_of(c); /* its head is complete: off the clock */
    if (x) {
        pthread_mutex_lock(&s->slots_lock);
        x->in_request = true;
        pthread_mutex_unlock(&s->slots_lock);
    }
    /* the pool holds a head somewhat past the cap (the answer's room);
     * the cap itself is kept here, whatever the pool let through */
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    if (ci && ci->header_size > SN_METRICS_SERVER_HEADER_MAX)
        return reply_str(c, MHD_HTTP_REQUEST_HEADER_FIELDS_TOO_LARGE,
                         "request head too large\n");
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 &&
        strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return reply_str(c, MHD_HTTP_METHOD_NOT_ALLOWED,
                         "method not allowed\n");
    if (has_body(c) || *upload_data_size)
        return reply_str(c, HTTP_CONTENT_TOO_LARGE,
                         "a request body is not accepted\n");
    if (!authorised(s, c))
        return refuse_auth(c);
    if (!strcmp(url, "/metrics"))
        return serve_metrics(s, c);
    if (!strcmp(url, "/healthz"))
        return serve_health(s, c);
    if (!strcmp(url, "/"))
        return reply(c, MHD_HTTP_OK, CT_HTML, landing, sizeof(landing) - 1);
    return reply_str(c, MHD_HTTP_NOT_FOUND, "not found\n");
}

/* A bound, listening socket for address:port in *out, the port bound in
 * *bound. Returns SN_OK, SN_EINPUT (not an address) or SN_EIO (the bind,
 * with errno's words). */
static int listen_on(const char *address, unsigned port, int *out,
                     unsigned *bound, int *ipv6, struct sn_error *err)
{
    struct sockaddr_storage ss = {0};
    struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
    socklen_t sl;
    int fd = -1, one = 1;

    if (inet_pton(AF_INET, address, &in4->sin_addr) == 1) {
        in4->sin_family = AF_INET;
        in4->sin_port = htons((uint16_t)port);
        sl = sizeof(*in4);
    } else if (inet_pton(AF_INET6, address, &in6->sin6_addr) == 1) {
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons((uint16_t)port);
        sl = sizeof(*in6);
    } else {
        return sn_error_set(err, SN_EINPUT,
                            "bad listen address '%s': expected a numeric "
                            "IPv4 or IPv6 address",
                            address);
    }
    *ipv6 = ss.ss_family == AF_INET6;
    fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        goto fail;
    /* rebinding past TIME_WAIT after a restart; a live listener on the
     * port still refuses the bind (Linux) */
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (*ipv6)
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
    /* the kernel's largest backlog: a flood of connections the accept
     * policy turns away must not fill the queue and drop a scraper's SYN
     * (a dropped SYN costs it a 1 s retransmission, RFC 6298 2.1) */
    if (bind(fd, (struct sockaddr *)&ss, sl) < 0 || listen(fd, SOMAXCONN) < 0)
        goto fail;
    sl = sizeof(ss);
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
        goto fail;
    *bound = ntohs(*ipv6 ? in6->sin6_port : in4->sin_port);
    *out = fd;
    return SN_OK;
fail:
    sn_error_set(err, SN_EIO, "cannot listen on %s%s%s:%u: %s",
                 *ipv6 ? "[" : "", address, *ipv6 ? "]" : "", port,
                 strerror(errno));
    if (fd >= 0)
        close(fd);
    return SN_EIO;
}

/* The TLS and authentication options: both halves or neither, and TLS
 * only from a libmicrohttpd built with it (flags gains MHD_USE_TLS). */
static int check_secrets(const struct sn_metrics_server_opts *o,
                         unsigned *flags, struct sn_error *err)
{
    if (!o->tls_cert_pem != !o->tls_key_pem)
        return sn_error_set(err, SN_EINPUT,
                            "HTTPS needs both a certificate and its key");
    if (o->auth_user && (!o->auth_password || !*o->auth_user))
        return sn_error_set(err, SN_EINPUT,
                            "basic authentication needs a user name and a "
                            "password");
    if (!o->tls_cert_pem)
        return SN_OK;
    if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES)
        return sn_error_set(err, SN_ENOTSUP,
                            "HTTPS: this libmicrohttpd was built without TLS");
    *flags |= MHD_USE_TLS;
    return SN_OK;
}

int sn_metrics_server_new(const struct sn_metrics_server_opts *opts,
                          struct sn_metrics_server **out, struct sn_error *err)
{
    struct sn_metrics_server_opts o = {0};
    struct sn_metrics_server *s = NULL;
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD;
    int fd = -1, ipv6 = 0, rc = SN_OK;

    *out = NULL;
    if (opts)
        o = *opts;
    if (!o.address)
        o.address = SN_METRICS_SERVER_ADDRESS;
    if (o.port > 65535) {
        rc = sn_error_set(err, SN_EINPUT, "bad listen port %u: past 65535",
                          o.port);
        goto out;
    }
    if (!(o.stale_after_s >= 0) || isinf(o.stale_after_s)) {
        rc = sn_error_set(err, SN_EINPUT,
                          "bad staleness limit %g s: not a finite number of "
                          "seconds >= 0",
                          o.stale_after_s);
        goto out;
    }
    rc = check_secrets(&o, &flags, err);
    if (rc)
        goto out;
    s = sn_xcalloc(1, sizeof(*s));
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->slots_lock, NULL);
    {
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_init(&s->stop, &ca);
        pthread_condattr_destroy(&ca);
    }
    if (o.auth_user) {
        s->user = sn_xstrdup(o.auth_user);
        s->password = sn_xstrdup(o.auth_password);
    }
    s->stale_after_s =
        o.stale_after_s ? o.stale_after_s : SN_METRICS_SERVER_STALE_S;
    rc = listen_on(o.address, o.port, &fd, &s->port, &ipv6, err);
    if (rc)
        goto out;
    if (ipv6)
        flags |= MHD_USE_IPv6;
    unsigned limit =
        o.connection_limit ? o.connection_limit : SN_METRICS_SERVER_CONNECTIONS;
    /* the shares: an address gets a sixteenth of the slots (at least 2:
     * a scraper and a person), a range half of them, and a quarter are
     * kept for ranges that hold none, so clients on a handful of
     * addresses leave most of the slots free and a new range always
     * finds one */
    s->limit = limit;
    s->per_address =
        o.per_ip_limit ? o.per_ip_limit : (limit / 16 > 2 ? limit / 16 : 2);
    s->per_range =
        (limit + 1) / 2 > s->per_address ? (limit + 1) / 2 : s->per_address;
    s->reserved = limit / 4;
    s->head_s =
        o.head_timeout_s > 0 ? o.head_timeout_s : SN_METRICS_SERVER_HEAD_S;
    if (pthread_create(&s->watchdog, NULL, watchdog_main, s) != 0) {
        close(fd);
        rc = sn_error_set(err, SN_ERUNTIME,
                          "cannot start the HTTP server's watchdog: %s",
                          strerror(errno));
        goto out;
    }
    s->watchdog_on = true;
    /* HTTPS takes its two options first; without it, an empty option
     * (MHD_OPTION_ARRAY of nothing) stands in their place */
    static const struct MHD_OptionItem none[] = {{MHD_OPTION_END, 0, NULL}};
    struct MHD_OptionItem tls[] = {
        {MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)o.tls_cert_pem},
        {MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)o.tls_key_pem},
        {MHD_OPTION_END, 0, NULL}};
    s->daemon = MHD_start_daemon(
        flags, (uint16_t)s->port, on_accept, s, handle, s, MHD_OPTION_ARRAY,
        o.tls_cert_pem ? tls : none, MHD_OPTION_LISTEN_SOCKET, fd,
        MHD_OPTION_CONNECTION_LIMIT, limit, MHD_OPTION_NOTIFY_CONNECTION,
        on_connection, s, MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
        MHD_OPTION_CONNECTION_TIMEOUT,
        o.connection_timeout_s ? o.connection_timeout_s
                               : SN_METRICS_SERVER_TIMEOUT_S,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)(SN_METRICS_SERVER_HEADER_MAX + SN_METRICS_SERVER_ANSWER_ROOM),
        MHD_OPTION_CONNECTION_MEMORY_INCREMENT, (size_t)HEAD_INCREMENT,
        MHD_OPTION_END);
    if (!s->daemon) {
        rc = sn_error_set(err, SN_EIO,
                          "cannot start the HTTP server on %s:%u "
                          "(libmicrohttpd refused%s)",
                          o.address, s->port,
                          o.tls_cert_pem ? ": is the certificate and key "
                                           "PEM, and the key unencrypted?"
                                         : "");
        /* MHD may have closed the socket it was given already */
        if (fcntl(fd, F_GETFD) != -1)
            close(fd);
        goto out;
    }
    *out = s;
    s = NULL;
out:
    sn_metrics_server_free(s);
    return rc;
}

unsigned sn_metrics_server_port(const struct sn_metrics_server *s)
{
    return s->port;
}

void sn_metrics_server_publish(struct sn_metrics_server *s,
                               const struct sn_metrics *m)
{
    struct sn_buf text = SN_BUF_INIT, om = SN_BUF_INIT, tmp;

    /* rendered outside the lock: a scrape waits only for the swap */
    sn_metrics_render_text(m, &text);
    sn_metrics_render_openmetrics(m, &om);
    pthread_mutex_lock(&s->lock);
    tmp = s->text;
    s->text = text;
    text = tmp;
    tmp = s->openmetrics;
    s->openmetrics = om;
    om = tmp;
    s->published = 1;
    clock_gettime(CLOCK_MONOTONIC, &s->published_at);
    pthread_mutex_unlock(&s->lock);
    sn_buf_release(&text);
    sn_buf_release(&om);
}

void sn_metrics_server_set_problem(struct sn_metrics_server *s,
                                   const char *problem)
{
    char *copy = problem ? sn_xstrdup_clean(problem, 0) : NULL, *old;
    pthread_mutex_lock(&s->lock);
    old = s->problem;
    s->problem = copy;
    pthread_mutex_unlock(&s->lock);
    free(old);
}

void sn_metrics_server_free(struct sn_metrics_server *s)
{
    if (!s)
        return;
    if (s->watchdog_on) {
        pthread_mutex_lock(&s->slots_lock);
        s->stopping = true;
        pthread_cond_signal(&s->stop);
        pthread_mutex_unlock(&s->slots_lock);
        pthread_join(s->watchdog, NULL);
    }
    if (s->daemon)
        MHD_stop_daemon(s->daemon); /* every slot closed, and freed */
    pthread_mutex_destroy(&s->slots_lock);
    pthread_cond_destroy(&s->stop);
    free(s->problem);
    if (s->password)
        memset(s->password, 0, strlen(s->password));
    free(s->user);
    free(s->password);
    pthread_mutex_destroy(&s->lock);
    sn_buf_release(&s->text);
    sn_buf_release(&s->openmetrics);
    free(s);
}
