/* col-redfish.c: the BMC collector (issue 15). Each interval it walks the
 * Redfish service of the node's BMC over libcurl: ServiceRoot -> Chassis
 * -> ThermalSubsystem (CoolantConnectors, LeakDetection), PowerSubsystem
 * (PowerSupplies and their Metrics) and EnvironmentMetrics, and
 * ThermalEquipment -> CDUs, into typed observations and metrics. The
 * responses are hostile input: parsed with jansson under our own caps,
 * every string cleaned, every link checked to stay on the service. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <curl/curl.h>
#include <jansson.h>

#include "sn/util.h"

#include "redfish-int.h"
#include "watch-int.h"

#define RF_CONNECT_S 2.0   /* connect timeout per request */
#define RF_REQUEST_S 5.0   /* whole request, at most */
#define RF_REDIRECTS_MAX 3 /* redirects followed on the service's host */
#define RF_CRED_MAX 4096   /* bytes of a credentials file */
#define RF_URL_MAX 512     /* bytes of the base URL */
#define RF_ROOT "/redfish/v1/"

static const char *const outcome_names[SN_RF_NOUTCOMES] = {
    "ok",        "http_error", "auth",     "timeout",
    "transport", "too_large",  "redirect", "deadline"};

/* The parts of a URL that say which service it is; false when curl's
 * parser refuses it. */
struct rf_where {
    char scheme[16], host[256], port[16], path[SN_RF_PATH_MAX];
};

struct rf {
    char *base;            /* the service's URL without a trailing '/' */
    struct rf_where where; /* its parts: redirects must stay on them */
    double budget_s;       /* the whole walk */
    double request_s;      /* one request: min(the collector's timeout, 5 s) */
    CURL *curl;
    struct curl_slist *headers;
    struct curl_slist *pin; /* CURLOPT_RESOLVE: the addresses checked */
    char curl_err[CURL_ERROR_SIZE];
    struct sn_buf *sink; /* where the body being received goes */
    bool too_large;
    sn_rf_fetch_fn fetch;
    void *ctx;
    /* counters since open() */
    double requests[SN_RF_NOUTCOMES];
    double parse_errors;
    double reading_errors; /* readings outside their physical range */
    /* where the last walk stopped: per phase, the member to start at */
    size_t resume[4];
    /* one walk */
    int phase;      /* RF_LEAKS, ... */
    int pass;       /* 0: from resume[phase] on; 1: the ones before it */
    size_t seen;    /* members of this phase met so far in this pass */
    size_t stop_at; /* the first member the time ran out on; SIZE_MAX */
    bool out_of_time;
    bool partial; /* the last walk ran out of time */
    double deadline;
    size_t nrequests;
    int fatal; /* SN_OK, or why the walk stopped (credentials refused) */
    struct sn_error fatal_err;
    struct sn_buf body;
    struct sn__watch_obs *obs;
};

/* The walk's phases, what is critical first: a leak is read before a
 * PSU, a PSU before a coolant flow, and the room's air last. When the
 * interval's time runs out, the next walk takes up each phase's members
 * where this one stopped, so a large or slow BMC is read whole over a
 * few intervals while its leak detectors are read every interval. */
enum { RF_LEAKS, RF_PSUS, RF_FLOWS, RF_ENV, RF_NPHASES };

/* Who owns the resources of a sub-walk: their names are qualified with
 * it ("1/primary/A") always for a CDU, only on a clash for a chassis. */
struct rf_owner {
    const char *name;
    bool qualify;
};

/* ---- credentials --------------------------------------------------------
 */

static int cred_line(const char *path, char *line, char *user, size_t usize,
                     char *pass, size_t psize, struct sn_error *err)
{
    char *colon = strchr(line, ':');
    size_t nl = strcspn(line, "\n");

    line[nl] = '\0';
    if (nl > 0 && line[nl - 1] == '\r')
        line[nl - 1] = '\0';
    if (!colon || colon > line + strlen(line))
        return sn_error_at(err, SN_EINPUT, path, 1, 0,
                           "expected 'user:password' on the first line");
    *colon = '\0';
    if (!*line)
        return sn_error_at(err, SN_EINPUT, path, 1, 1, "empty user name");
    if (!colon[1])
        return sn_error_at(err, SN_EINPUT, path, 1, (int)(colon - line) + 2,
                           "empty password");
    if (strlen(line) >= usize || strlen(colon + 1) >= psize)
        return sn_error_at(err, SN_EINPUT, path, 1, 0,
                           "user name or password longer than %zu bytes",
                           (usize < psize ? usize : psize) - 1);
    sn_strlcpy(user, line, usize);
    sn_strlcpy(pass, colon + 1, psize);
    return SN_OK;
}

int sn__watch_read_credentials(const char *path, char *user, size_t usize,
                               char *pass, size_t psize, struct sn_error *err)
{
    char buf[RF_CRED_MAX + 1];
    struct stat st;
    ssize_t got = 0;
    int rc = SN_OK;
    int fd;

    if (usize)
        user[0] = '\0';
    if (psize)
        pass[0] = '\0';
    /* non-blocking: a FIFO planted there must not hang the agent */
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return sn_error_set(err, errno == ENOENT ? SN_EINPUT : SN_EIO,
                            "credentials file '%s': %s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        rc = sn_error_set(err, SN_EINPUT,
                          "credentials file '%s': not a regular file", path);
        goto out;
    }
    if (st.st_mode & 077) {
        rc = sn_error_set(err, SN_EINPUT,
                          "credentials file '%s': mode %04o lets group or "
                          "others read the password (chmod 600 '%s')",
                          path, (unsigned)(st.st_mode & 07777), path);
        goto out;
    }
    while (got <= RF_CRED_MAX) {
        ssize_t n = read(fd, buf + got, sizeof(buf) - 1 - (size_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = sn_error_set(err, SN_EIO, "credentials file '%s': %s", path,
                              strerror(errno));
            goto out;
        }
        if (n == 0)
            break;
        got += n;
        if ((size_t)got == sizeof(buf) - 1) {
            rc = sn_error_set(err, SN_EINPUT,
                              "credentials file '%s': more than %d bytes", path,
                              RF_CRED_MAX - 1);
            goto out;
        }
    }
    buf[got] = '\0';
    if (memchr(buf, '\0', (size_t)got)) {
        rc = sn_error_set(err, SN_EINPUT,
                          "credentials file '%s': binary content", path);
        goto out;
    }
    rc = cred_line(path, buf, user, usize, pass, psize, err);
out:
    memset(buf, 0, sizeof(buf));
    close(fd);
    return rc;
}

/* ---- transport (libcurl) ----------------------------------------------
 */

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_rc;

static void curl_init(void)
{
    curl_init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

static size_t on_body(char *p, size_t size, size_t n, void *ud)
{
    struct rf *s = ud;
    size_t len = size * n;

    if (len > SN_RF_BODY_MAX - s->sink->len) {
        s->too_large = true;
        return 0; /* curl stops with CURLE_WRITE_ERROR */
    }
    sn_buf_append(s->sink, p, len);
    return len;
}

/* Whether path is one of this service's resources: "/redfish/v1..." of
 * URL path characters only (no query, fragment, space, control or
 * non-ASCII byte), no "." or ".." segment, shorter than the cap. */
static bool path_ok(const char *p)
{
    static const char extra[] = "/-._~%!$&'()*+,;=:@";
    size_t n = strlen(p);

    if (n >= SN_RF_PATH_MAX || !sn_startswith(p, "/redfish/v1"))
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (!(c < 128 && (isalnum(c) || strchr(extra, c))))
            return false;
        if (c == '/' && p[i + 1] == '.' &&
            (p[i + 2] == '/' || p[i + 2] == '\0' ||
             (p[i + 2] == '.' && (p[i + 3] == '/' || p[i + 3] == '\0'))))
            return false;
    }
    return true;
}

/* Split url into w; false when curl's parser refuses it, it has a query,
 * or a part does not fit. */
static bool url_parts(const char *url, struct rf_where *w)
{
    static const CURLUPart parts[] = {CURLUPART_SCHEME, CURLUPART_HOST,
                                      CURLUPART_PORT, CURLUPART_PATH};
    char *dst[] = {w->scheme, w->host, w->port, w->path};
    size_t size[] = {sizeof(w->scheme), sizeof(w->host), sizeof(w->port),
                     sizeof(w->path)};
    CURLU *u = curl_url();
    char *v = NULL;
    bool ok = u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
              curl_url_get(u, CURLUPART_QUERY, &v, 0) == CURLUE_NO_QUERY;

    for (size_t i = 0; ok && i < SN_ARRAY_LEN(parts); i++) {
        ok = curl_url_get(u, parts[i], &v, CURLU_DEFAULT_PORT) == CURLUE_OK &&
             strlen(v) < size[i];
        if (ok)
            sn_strlcpy(dst[i], v, size[i]);
        curl_free(v);
        v = NULL;
    }
    curl_url_cleanup(u);
    return ok;
}

/* A redirect target on the service's own scheme, host and port, under its
 * path: that path into path. Otherwise false, and the host it named (never
 * the whole URL: curl writes the credentials into it) into host. */
static bool same_service(const struct rf *s, const char *loc, char *path,
                         size_t size, char *host, size_t hsize)
{
    struct rf_where w;
    size_t n = strlen(s->where.path);

    sn_strlcpy(host, "?", hsize);
    if (!url_parts(loc, &w))
        return false;
    sn_str_clean(host, hsize, w.host, 0);
    if (!sn_strcaseeq(w.scheme, s->where.scheme) ||
        !sn_strcaseeq(w.host, s->where.host) ||
        strcmp(w.port, s->where.port) != 0 ||
        strncmp(w.path, s->where.path, n) != 0 || !path_ok(w.path + n))
        return false;
    sn_strlcpy(path, w.path + n, size);
    return true;
}

/* The outcome of one transfer that was not a redirect, err filled. */
static enum sn_rf_outcome curl_result(struct rf *s, CURLcode cc, long status,
                                      const char *path, struct sn_error *err)
{
    const char *why = s->curl_err[0] ? s->curl_err : curl_easy_strerror(cc);

    if (cc == CURLE_OPERATION_TIMEDOUT) {
        sn_error_set(err, SN_ETIMEOUT, "GET %s: no answer in time (%s)", path,
                     why);
        return SN_RF_TIMEOUT;
    }
    if (s->too_large || cc == CURLE_FILESIZE_EXCEEDED) {
        sn_error_set(err, SN_EINPUT, "GET %s: response larger than %zu bytes",
                     path, SN_RF_BODY_MAX);
        return SN_RF_TOO_LARGE;
    }
    if (cc != CURLE_OK) {
        sn_error_set(err, SN_EIO, "GET %s: %s", path, why);
        return SN_RF_TRANSPORT;
    }
    if (status == 401 || status == 403) {
        sn_error_set(err, SN_EINPUT,
                     "GET %s: HTTP %ld: the BMC refused the user and "
                     "password (check the credentials file)",
                     path, status);
        return SN_RF_AUTH;
    }
    if (status != 200) {
        sn_error_set(err, SN_EIO, "GET %s: HTTP %ld", path, status);
        return SN_RF_HTTP;
    }
    return SN_RF_OK;
}

static enum sn_rf_outcome curl_fetch(void *ctx, const char *path,
                                     struct sn_buf *body, struct sn_error *err)
{
    struct rf *s = ctx;
    char cur[SN_RF_PATH_MAX], url[RF_URL_MAX + SN_RF_PATH_MAX], host[256];

    sn_strlcpy(cur, path, sizeof(cur));
    for (int hop = 0;; hop++) {
        double t = fmin(s->request_s, s->deadline - sn_now());
        long status = 0;
        char *loc = NULL;
        CURLcode cc;

        if (t < 0.001)
            return sn_error_set(err, SN_ETIMEOUT, "GET %s: no time left", cur),
                   SN_RF_DEADLINE;
        snprintf(url, sizeof(url), "%s%s", s->base, cur);
        sn_buf_reset(body);
        s->sink = body;
        s->too_large = false;
        s->curl_err[0] = '\0';
        curl_easy_setopt(s->curl, CURLOPT_URL, url);
        curl_easy_setopt(s->curl, CURLOPT_TIMEOUT_MS, (long)(t * 1000));
        curl_easy_setopt(s->curl, CURLOPT_CONNECTTIMEOUT_MS,
                         (long)(fmin(t, RF_CONNECT_S) * 1000));
        cc = curl_easy_perform(s->curl);
        curl_easy_getinfo(s->curl, CURLINFO_RESPONSE_CODE, &status);
        if (cc != CURLE_OK || status < 300 || status >= 400)
            return curl_result(s, cc, status, cur, err);
        curl_easy_getinfo(s->curl, CURLINFO_REDIRECT_URL, &loc);
        if (!loc || hop >= RF_REDIRECTS_MAX ||
            !same_service(s, loc, cur, sizeof(cur), host, sizeof(host))) {
            sn_error_set(err, SN_EIO,
                         "GET %s: redirect to host '%s' not followed (off "
                         "the service, or more than %d)",
                         path, host, RF_REDIRECTS_MAX);
            return SN_RF_REDIRECT;
        }
    }
}

/* Check the base URL and keep it without a trailing '/' or "/redfish/v1"
 * (both spellings name the same service). */
static int set_base(struct rf *s, const char *url, struct sn_error *err)
{
    size_t n = strlen(url);

    if (n >= RF_URL_MAX ||
        !(sn_startswith(url, "http://") || sn_startswith(url, "https://")))
        return sn_error_set(err, SN_EINPUT,
                            "redfish URL must be http:// or https:// and "
                            "shorter than %d bytes",
                            RF_URL_MAX);
    if (strchr(url, '@'))
        return sn_error_set(err, SN_EINPUT,
                            "redfish URL: put the user and password in the "
                            "credentials file, not in the URL");
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)url[i] <= ' ' || (unsigned char)url[i] >= 127)
            return sn_error_set(err, SN_EINPUT,
                                "redfish URL: a space, control or non-ASCII "
                                "byte at %zu",
                                i + 1);
    s->base = sn_xstrdup(url);
    while (n > 0 && s->base[n - 1] == '/')
        s->base[--n] = '\0';
    if (n >= 11 && strcmp(s->base + n - 11, "/redfish/v1") == 0)
        s->base[n - 11] = '\0';
    if (!url_parts(s->base, &s->where))
        return sn_error_set(err, SN_EINPUT,
                            "redfish URL '%s' cannot be parsed (or has a "
                            "query)",
                            s->base);
    /* the service's own path prefix, "" for most ("/" is none) */
    n = strlen(s->where.path);
    while (n > 0 && s->where.path[n - 1] == '/')
        s->where.path[--n] = '\0';
    return SN_OK;
}

/* Whether sa is a loopback address: 127.0.0.0/8 (RFC 1122 3.2.1.3),
 * ::1 (RFC 4291 2.5.3), or 127.0.0.0/8 mapped into IPv6 (::ffff:127.x). */
static bool loopback(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)sa;
        return (ntohl(a->sin_addr.s_addr) >> 24) == 127;
    }
    if (sa->sa_family == AF_INET6) {
        const struct in6_addr *a =
            &((const struct sockaddr_in6 *)sa)->sin6_addr;
        if (IN6_IS_ADDR_LOOPBACK(a))
            return true;
        return IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127;
    }
    return false;
}

int sn__watch_redfish_pin(const char *host, const char *port,
                          const struct addrinfo *ai, char *pin, size_t size,
                          struct sn_error *err)
{
    size_t n;

    if (!ai)
        return sn_error_set(err, SN_EINPUT,
                            "redfish: '%s' has no address to check", host);
    n = (size_t)snprintf(pin, size, "%s:%s:", host, port);
    for (const struct addrinfo *a = ai; a; a = a->ai_next) {
        char text[INET6_ADDRSTRLEN] = "?";
        const void *bin =
            a->ai_family == AF_INET6
                ? (const void *)&((struct sockaddr_in6 *)a->ai_addr)->sin6_addr
                : (const void *)&((struct sockaddr_in *)a->ai_addr)->sin_addr;
        if (a->ai_family == AF_INET || a->ai_family == AF_INET6)
            inet_ntop(a->ai_family, bin, text, sizeof(text));
        if (!loopback(a->ai_addr))
            return sn_error_set(err, SN_EINPUT,
                                "redfish: the password would cross the "
                                "network in clear text (http:// to '%s', "
                                "which is %s, not this host); use https:// "
                                "or turn TLS verification off explicitly",
                                host, text);
        if (n < size)
            n += (size_t)snprintf(pin + n, size - n,
                                  a->ai_family == AF_INET6 ? "%s[%s]" : "%s%s",
                                  a == ai ? "" : ",", text);
    }
    if (n >= size)
        return sn_error_set(err, SN_EINPUT,
                            "redfish: '%s' has too many addresses", host);
    return SN_OK;
}

/* Basic auth over plain http sends the password as it is: refused but to
 * this host itself (the tests' mock, a local proxy to the BMC) unless
 * the operator turned verification off too. "This host" is decided on
 * the addresses the name resolves to, every one loopback (a name is only
 * a name: "127.bmc.example" may be anywhere), and the transfers are
 * pinned to the addresses checked (CURLOPT_RESOLVE), so a second lookup
 * cannot send them elsewhere. */
static int clear_text(struct rf *s, const struct sn__watch_cfg *cfg,
                      struct sn_error *err)
{
    char host[256], pin[1024];
    struct addrinfo hints = {0}, *ai = NULL;
    size_t n;
    int rc, gai;

    if (!cfg->redfish_user || cfg->redfish_insecure ||
        !sn_strcaseeq(s->where.scheme, "http"))
        return SN_OK;
    /* "[::1]" in a URL, "::1" to the resolver */
    sn_strlcpy(host, s->where.host + (s->where.host[0] == '['), sizeof(host));
    n = strlen(host);
    if (n > 0 && host[n - 1] == ']')
        host[n - 1] = '\0';
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    gai = getaddrinfo(host, s->where.port, &hints, &ai);
    if (gai != 0)
        return sn_error_set(err, SN_EINPUT,
                            "redfish: cannot resolve '%s' (%s) to check "
                            "that the password, in clear text over "
                            "http://, stays on this host; use https://",
                            s->where.host, gai_strerror(gai));
    rc = sn__watch_redfish_pin(s->where.host, s->where.port, ai, pin,
                               sizeof(pin), err);
    freeaddrinfo(ai);
    /* an address literal is not looked up again: nothing to pin */
    unsigned char lit[sizeof(struct in6_addr)];
    if (inet_pton(AF_INET, host, lit) == 1 ||
        inet_pton(AF_INET6, host, lit) == 1)
        return rc;
    if (rc == SN_OK)
        s->pin = curl_slist_append(NULL, pin);
    if (rc == SN_OK && !s->pin)
        rc = sn_error_set(err, SN_ENOMEM, "redfish: out of memory");
    return rc;
}

static int curl_setup(struct rf *s, const struct sn__watch_cfg *cfg,
                      struct sn_error *err)
{
    CURL *c;
    CURLcode cc = CURLE_OK;

    pthread_once(&curl_once, curl_init);
    if (curl_init_rc != CURLE_OK)
        return sn_error_set(err, SN_ERUNTIME, "redfish: curl_global_init: %s",
                            curl_easy_strerror(curl_init_rc));
    c = s->curl = curl_easy_init();
    if (!c)
        return sn_error_set(err, SN_ENOMEM, "redfish: curl_easy_init failed");
    s->headers = curl_slist_append(NULL, "Accept: application/json");
    /* NOSIGNAL: the collector runs on a thread of its own; no proxy: the
     * BMC sits on the node's management network; redirects by hand, only
     * on the service's host (curl_fetch) */
    cc |= curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    cc |= curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    cc |= curl_easy_setopt(c, CURLOPT_PROXY, "");
    cc |= curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    cc |= curl_easy_setopt(c, CURLOPT_HTTPHEADER, s->headers);
    if (s->pin)
        cc |= curl_easy_setopt(c, CURLOPT_RESOLVE, s->pin);
    cc |= curl_easy_setopt(c, CURLOPT_USERAGENT, "supernode-watch");
    cc |= curl_easy_setopt(c, CURLOPT_ERRORBUFFER, s->curl_err);
    cc |= curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    cc |= curl_easy_setopt(c, CURLOPT_WRITEDATA, s);
    cc |= curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE,
                           (curl_off_t)SN_RF_BODY_MAX);
    cc |= curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER,
                           cfg->redfish_insecure ? 0L : 1L);
    cc |= curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST,
                           cfg->redfish_insecure ? 0L : 2L);
    if (cfg->redfish_ca)
        cc |= curl_easy_setopt(c, CURLOPT_CAINFO, cfg->redfish_ca);
    if (cfg->redfish_user) {
        cc |= curl_easy_setopt(c, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
        cc |= curl_easy_setopt(c, CURLOPT_USERNAME, cfg->redfish_user);
        cc |= curl_easy_setopt(c, CURLOPT_PASSWORD,
                               cfg->redfish_password ? cfg->redfish_password
                                                     : "");
    }
    if (cc != CURLE_OK || !s->headers)
        return sn_error_set(err, SN_ERUNTIME,
                            "redfish: this libcurl lacks an option the "
                            "collector needs (7.85 or later)");
    return SN_OK;
}

/* ---- the walk -----------------------------------------------------------
 */

int sn__watch_redfish_parse(const char *what, const char *text, size_t len,
                            json_t **out, struct sn_error *err)
{
    int rc;

    *out = NULL;
    if (len > SN_RF_BODY_MAX)
        return sn_error_set(err, SN_EINPUT,
                            "%s: %zu bytes, more than the %zu a response may "
                            "have",
                            what, len, SN_RF_BODY_MAX);
    if (len == 0)
        return sn_error_set(err, SN_EINPUT, "%s: empty response", what);
    rc = sn_json_read(what, text, len, SN_RF_DEPTH_MAX, out, err);
    if (rc)
        return rc;
    if (!json_is_object(*out)) {
        json_decref(*out);
        *out = NULL;
        return sn_error_at(err, SN_EINPUT, what, 1, 1,
                           "expected a JSON object (a Redfish resource)");
    }
    return SN_OK;
}

/* GET path and parse it. NULL when that failed (counted; err, when
 * given, says why) or when the walk has stopped. */
static json_t *rf_get(struct rf *s, const char *path, struct sn_error *err)
{
    struct sn_error e = {0};
    enum sn_rf_outcome o;
    json_t *doc = NULL;

    if (s->fatal)
        return NULL;
    if (s->nrequests >= SN_RF_REQUESTS_MAX || sn_now() >= s->deadline) {
        s->requests[SN_RF_DEADLINE]++;
        s->out_of_time = true;
        sn_error_set(err, SN_ETIMEOUT,
                     "GET %s: the interval's time or "
                     "request budget is spent",
                     path);
        return NULL;
    }
    s->nrequests++;
    o = s->fetch(s->ctx, path, &s->body, &e);
    s->requests[o]++;
    /* a request cut short by the walk's deadline ran out of time too:
     * the next walk starts again with it, not after it */
    if (o == SN_RF_DEADLINE ||
        (o == SN_RF_TIMEOUT && sn_now() >= s->deadline - 0.01))
        s->out_of_time = true;
    if (o == SN_RF_AUTH) {
        /* every other request would be refused too: stop, say so */
        s->fatal = e.code ? e.code : SN_EINPUT;
        s->fatal_err = e;
    } else if (o == SN_RF_OK &&
               sn__watch_redfish_parse(path, s->body.data, s->body.len, &doc,
                                       &e) != SN_OK) {
        s->parse_errors++;
    }
    if (!doc && err)
        *err = e;
    return doc;
}

/* obj[key]["@odata.id"] (obj["@odata.id"] when key is NULL) into path.
 * False when absent; a link that is there but leaves the service is
 * counted as a parse error. */
static bool rf_link(struct rf *s, const json_t *obj, const char *key,
                    char path[SN_RF_PATH_MAX])
{
    const json_t *l = key ? json_object_get(obj, key) : obj;
    const char *id;

    if (!l)
        return false;
    id = json_string_value(json_object_get(l, "@odata.id"));
    if (!id || !path_ok(id)) {
        s->parse_errors++;
        return false;
    }
    sn_strlcpy(path, id, SN_RF_PATH_MAX);
    return true;
}

/* A reading: a SensorExcerpt's "Reading" or a bare number. NaN when
 * absent, null or not a number. */
static double reading(const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);

    if (json_is_object(v))
        v = json_object_get(v, "Reading");
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The ranges a BMC's reading can physically take, as hwmon's: wide on
 * purpose, to catch garbage (1e308 L/min, an unset register, a sign
 * error), not faults. Flow: the largest CDUs move a few thousand L/min;
 * pressure: vacuum to 100 bar, gauge; temperature: absolute zero to
 * 1,000 C; power, capacity: a megawatt; voltage: 2 kV. */
static const struct rf_range {
    double min, max;
} RF_FLOW = {0, 1e4}, RF_KPA = {-101.325, 1e4}, RF_TEMP = {-273.15, 1000},
  RF_WATTS = {0, 1e6}, RF_VOLTS = {0, 2000};

/* reading() within r; outside it NaN, and counted. */
static double reading_in(struct rf *s, const json_t *obj, const char *key,
                         struct rf_range r)
{
    double v = reading(obj, key);

    if (isnan(v) || (v >= r.min && v <= r.max))
        return v;
    s->reading_errors++;
    return NAN;
}

/* A string member, cleaned into out; "" when absent. */
static void rf_str(const json_t *obj, const char *key, char *out, size_t size)
{
    const char *v = json_string_value(json_object_get(obj, key));
    sn_str_clean(out, size, v ? v : "", 0);
}

static void join(char *out, size_t size, const char *a, const char *b)
{
    size_t k = sn_strlcpy(out, a, size);
    if (k + 1 < size) {
        out[k] = '/';
        sn_strlcpy(out + k + 1, b, size - k - 1);
    }
}

static bool taken(const void *arr, size_t n, size_t stride, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp((const char *)arr + i * stride, name) == 0)
            return true;
    return false;
}

/* The name of a resource: its Id (else the last segment of its path),
 * qualified with its owner when the owner asks or when the plain name
 * is taken in arr (each obs struct starts with its name). False (a parse
 * error) when two resources still answer to one name. */
static bool rf_name(struct rf *s, const json_t *doc, const char *path,
                    const struct rf_owner *o, const void *arr, size_t n,
                    size_t stride, char out[SN_WATCH_NAME_MAX])
{
    char id[SN_WATCH_NAME_MAX];
    const char *last = strrchr(path, '/');

    rf_str(doc, "Id", id, sizeof(id));
    if (!id[0])
        sn_str_clean(id, sizeof(id), last ? last + 1 : path, 0);
    if (o && o->qualify)
        join(out, SN_WATCH_NAME_MAX, o->name, id);
    else
        sn_strlcpy(out, id, SN_WATCH_NAME_MAX);
    if (!taken(arr, n, stride, out))
        return true;
    if (o && !o->qualify) {
        join(out, SN_WATCH_NAME_MAX, o->name, id);
        if (!taken(arr, n, stride, out))
            return true;
    }
    s->parse_errors++;
    return false;
}

typedef void (*rf_member_fn)(struct rf *s, const char *path, json_t *doc,
                             const struct rf_owner *o);

/* GET the collection behind obj[key] and call fn on each member that
 * could be read, the first SN_RF_MEMBERS_MAX of them. */
static void rf_each(struct rf *s, const json_t *obj, const char *key,
                    rf_member_fn fn, const struct rf_owner *o)
{
    char path[SN_RF_PATH_MAX], mp[SN_RF_PATH_MAX];
    json_t *coll, *members;
    size_t n;

    if (!rf_link(s, obj, key, path) || !(coll = rf_get(s, path, NULL)))
        return;
    members = json_object_get(coll, "Members");
    n = json_array_size(members);
    if (!json_is_array(members) || n > SN_RF_MEMBERS_MAX)
        s->parse_errors++; /* not a collection, or cut to the cap */
    if (n > SN_RF_MEMBERS_MAX)
        n = SN_RF_MEMBERS_MAX;
    for (size_t i = 0; i < n && !s->fatal; i++) {
        json_t *m;
        /* the member's place in its phase: the first pass starts where
         * the last walk stopped, the second reads the ones before */
        size_t at = s->seen++;
        if ((s->pass == 0) != (at >= s->resume[s->phase]))
            continue;
        if (!rf_link(s, json_array_get(members, i), NULL, mp))
            continue;
        m = rf_get(s, mp, NULL);
        if (!m && s->out_of_time && s->stop_at == SIZE_MAX)
            s->stop_at = at;
        if (!m)
            continue;
        fn(s, mp, m, o);
        json_decref(m);
    }
    json_decref(coll);
}

static void on_connector(struct rf *s, const char *path, json_t *doc,
                         const struct rf_owner *o)
{
    struct sn__watch_obs *obs = s->obs;
    struct sn__watch_coolant *c;
    char name[SN_WATCH_NAME_MAX];

    if (!rf_name(s, doc, path, o, obs->coolant, obs->ncoolant,
                 sizeof(*obs->coolant), name) ||
        !(c = SN_WATCH_PUSH(obs, coolant)))
        return;
    sn_strlcpy(c->branch, name, sizeof(c->branch));
    rf_str(doc, "CoolingLoopName", c->loop, sizeof(c->loop));
    c->flow_lpm = reading_in(s, doc, "FlowLitersPerMinute", RF_FLOW);
    c->supply_c = reading_in(s, doc, "SupplyTemperatureCelsius", RF_TEMP);
    c->return_c = reading_in(s, doc, "ReturnTemperatureCelsius", RF_TEMP);
    c->supply_kpa = reading_in(s, doc, "SupplyPressurekPa", RF_KPA);
    c->return_kpa = reading_in(s, doc, "ReturnPressurekPa", RF_KPA);
    c->rated_flow_lpm = reading_in(s, doc, "RatedFlowLitersPerMinute", RF_FLOW);
}

static void push_leak(struct rf *s, const char *name, const json_t *state)
{
    struct sn__watch_leak *l = SN_WATCH_PUSH(s->obs, leaks);
    const char *v = json_string_value(state);

    if (!l)
        return;
    sn_strlcpy(l->detector, name, sizeof(l->detector));
    /* no state is not OK: the detector cannot say it is dry */
    sn_str_clean(l->state, sizeof(l->state), v && *v ? v : "Unknown", 0);
}

static void on_leak(struct rf *s, const char *path, json_t *doc,
                    const struct rf_owner *o)
{
    char name[SN_WATCH_NAME_MAX];
    struct sn__watch_obs *obs = s->obs;

    if (rf_name(s, doc, path, o, obs->leaks, obs->nleaks, sizeof(*obs->leaks),
                name))
        push_leak(s, name, json_object_get(doc, "DetectorState"));
}

/* LeakDetection without a LeakDetectors collection: the excerpts of its
 * LeakDetectorGroups[].Detectors[] ({DataSourceUri, DetectorState}),
 * each named by the last segment of its DataSourceUri. */
static void leak_groups(struct rf *s, const json_t *ld,
                        const struct rf_owner *o)
{
    const json_t *groups = json_object_get(ld, "LeakDetectorGroups");

    for (size_t g = 0; g < json_array_size(groups); g++) {
        const json_t *dets =
            json_object_get(json_array_get(groups, g), "Detectors");
        for (size_t i = 0; i < json_array_size(dets); i++) {
            const json_t *d = json_array_get(dets, i);
            const char *uri =
                json_string_value(json_object_get(d, "DataSourceUri"));
            char name[SN_WATCH_NAME_MAX];
            if (!uri || !path_ok(uri)) {
                s->parse_errors++;
                continue;
            }
            /* no resource, no Id: named from the path */
            if (rf_name(s, NULL, uri, o, s->obs->leaks, s->obs->nleaks,
                        sizeof(*s->obs->leaks), name))
                push_leak(s, name, json_object_get(d, "DetectorState"));
        }
    }
}

static void walk_leaks(struct rf *s, const json_t *parent,
                       const struct rf_owner *o)
{
    char path[SN_RF_PATH_MAX];
    json_t *ld;

    if (!rf_link(s, parent, "LeakDetection", path) ||
        !(ld = rf_get(s, path, NULL)))
        return;
    if (json_object_get(ld, "LeakDetectors"))
        rf_each(s, ld, "LeakDetectors", on_leak, o);
    else
        leak_groups(s, ld, o);
    json_decref(ld);
}

/* The feed a PSU draws from: the power equipment that owns the outlet in
 * Links.PowerOutlets[0] (".../RackPDUs/A/Outlets/A3" -> "A"); else a
 * single trailing letter of its Name or Id after a separator ("Power
 * Supply B", "PS-A" -> "B", "A"); else "" (unknown). */
static void psu_feed(const json_t *psu, char *feed, size_t size)
{
    const json_t *outs =
        json_object_get(json_object_get(psu, "Links"), "PowerOutlets");
    const char *o = json_string_value(
        json_object_get(json_array_get(outs, 0), "@odata.id"));
    static const char *const keys[] = {"Name", "Id"};
    const char *k;

    feed[0] = '\0';
    if (o && path_ok(o) && (k = strstr(o, "/Outlets/")) && k > o) {
        const char *b = k;
        char seg[SN_WATCH_NAME_MAX];
        while (b > o && b[-1] != '/')
            b--;
        if ((size_t)(k - b) < sizeof(seg) && k > b) {
            memcpy(seg, b, (size_t)(k - b));
            seg[k - b] = '\0';
            sn_str_clean(feed, size, seg, 0);
            return;
        }
    }
    for (size_t i = 0; i < SN_ARRAY_LEN(keys); i++) {
        const char *v = json_string_value(json_object_get(psu, keys[i]));
        size_t n = v ? strlen(v) : 0;
        if (n >= 2 && isalpha((unsigned char)v[n - 1]) &&
            !isalnum((unsigned char)v[n - 2]) &&
            (unsigned char)v[n - 2] < 128) {
            char f[2] = {(char)toupper((unsigned char)v[n - 1]), '\0'};
            sn_strlcpy(feed, f, size);
            return;
        }
    }
}

static void on_psu(struct rf *s, const char *path, json_t *doc,
                   const struct rf_owner *o)
{
    struct sn__watch_obs *obs = s->obs;
    struct sn__watch_psu *p;
    char name[SN_WATCH_NAME_MAX], mp[SN_RF_PATH_MAX];
    json_t *m;

    if (!rf_name(s, doc, path, o, obs->psus, obs->npsus, sizeof(*obs->psus),
                 name) ||
        !(p = SN_WATCH_PUSH(obs, psus)))
        return;
    sn_strlcpy(p->psu, name, sizeof(p->psu));
    psu_feed(doc, p->feed, sizeof(p->feed));
    p->capacity_w = reading_in(s, doc, "PowerCapacityWatts", RF_WATTS);
    p->input_w = p->output_w = p->input_v = NAN;
    /* a PSU whose metrics fail stays, with nothing measured */
    if (!rf_link(s, doc, "Metrics", mp) || !(m = rf_get(s, mp, NULL)))
        return;
    p->input_w = reading_in(s, m, "InputPowerWatts", RF_WATTS);
    p->output_w = reading_in(s, m, "OutputPowerWatts", RF_WATTS);
    p->input_v = reading_in(s, m, "InputVoltage", RF_VOLTS);
    json_decref(m);
}

/* Whether an EnvironmentMetrics temperature is the room's or the inlet's:
 * the Sensor its DataSourceUri names has PhysicalContext Room or Intake;
 * when that Sensor cannot be read or gives no context, the URI's last
 * segment says Ambient, Inlet, Intake or Room. No URI: not known. */
static bool ambient(struct rf *s, const json_t *excerpt)
{
    static const char *const words[] = {"ambient", "inlet", "intake", "room"};
    const char *uri =
        json_string_value(json_object_get(excerpt, "DataSourceUri"));
    const char *last;
    json_t *sensor;

    if (!uri || !path_ok(uri))
        return false;
    sensor = rf_get(s, uri, NULL);
    if (sensor) {
        const char *ctx =
            json_string_value(json_object_get(sensor, "PhysicalContext"));
        bool yes =
            ctx && (strcmp(ctx, "Room") == 0 || strcmp(ctx, "Intake") == 0);
        json_decref(sensor);
        if (ctx)
            return yes;
    }
    last = strrchr(uri, '/') + 1;
    for (size_t i = 0; i < SN_ARRAY_LEN(words); i++)
        if (strcasestr(last, words[i]))
            return true;
    return false;
}

static void push_sensor(struct rf *s, const char *owner,
                        enum sn__watch_sensor_kind kind, double v)
{
    struct sn__watch_sensor *x = SN_WATCH_PUSH(s->obs, sensors);

    if (!x)
        return;
    sn_strlcpy(x->chip, "bmc", sizeof(x->chip));
    sn_strlcpy(x->sensor, owner, sizeof(x->sensor));
    sn_strlcpy(x->label,
               kind == SN_WATCH_TEMP ? "inlet temperature" : "inlet humidity",
               sizeof(x->label));
    sn_strlcpy(x->group, "inlet", sizeof(x->group));
    x->kind = kind;
    x->value = v;
}

static void walk_environment(struct rf *s, const json_t *chassis,
                             const char *owner)
{
    char path[SN_RF_PATH_MAX];
    json_t *env;
    double t, h;

    if (!rf_link(s, chassis, "EnvironmentMetrics", path) ||
        !(env = rf_get(s, path, NULL)))
        return;
    t = reading_in(s, env, "TemperatureCelsius", RF_TEMP);
    h = reading(env, "HumidityPercent");
    if (!isnan(h) && !(h >= 0 && h <= 100)) {
        s->reading_errors++;
        h = NAN;
    }
    if (isfinite(t) && ambient(s, json_object_get(env, "TemperatureCelsius"))) {
        push_sensor(s, owner, SN_WATCH_TEMP, t);
        if (isnan(s->obs->room_c))
            s->obs->room_c = t;
        /* the humidity where that temperature is read, as a ratio */
        if (isfinite(h) && h >= 0 && h <= 100) {
            push_sensor(s, owner, SN_WATCH_HUMIDITY, h / 100);
            if (isnan(s->obs->room_humidity))
                s->obs->room_humidity = h / 100;
        }
    }
    json_decref(env);
}

/* A chassis or a CDU, read once per walk: its document and, for a
 * chassis, its ThermalSubsystem (leaks and flows both hang there). */
struct rf_unit {
    char name[SN_WATCH_NAME_MAX];
    json_t *doc, *thermal;
    bool cdu;
};

static void chassis_phase(struct rf *s, struct rf_unit *u)
{
    struct rf_owner o = {u->name, false};
    char p[SN_RF_PATH_MAX];
    json_t *sub;

    switch (s->phase) {
    case RF_LEAKS:
        if (u->thermal)
            walk_leaks(s, u->thermal, &o);
        break;
    case RF_PSUS:
        if (rf_link(s, u->doc, "PowerSubsystem", p) &&
            (sub = rf_get(s, p, NULL))) {
            rf_each(s, sub, "PowerSupplies", on_psu, &o);
            json_decref(sub);
        }
        break;
    case RF_FLOWS:
        if (u->thermal)
            rf_each(s, u->thermal, "CoolantConnectors", on_connector, &o);
        break;
    case RF_ENV:
        walk_environment(s, u->doc, u->name);
        break;
    }
}

/* A CDU (CoolingUnit): its primary (facility) and secondary (rack)
 * connectors as branches "<cdu>/primary/<id>", "<cdu>/secondary/<id>",
 * its leak detectors as "<cdu>/<id>". */
static void cdu_phase(struct rf *s, struct rf_unit *u)
{
    char prim[SN_WATCH_NAME_MAX], sec[SN_WATCH_NAME_MAX];
    struct rf_owner o = {u->name, true}, po = {prim, true}, so = {sec, true};

    join(prim, sizeof(prim), u->name, "primary");
    join(sec, sizeof(sec), u->name, "secondary");
    if (s->phase == RF_LEAKS)
        walk_leaks(s, u->doc, &o);
    if (s->phase == RF_FLOWS) {
        rf_each(s, u->doc, "PrimaryCoolantConnectors", on_connector, &po);
        rf_each(s, u->doc, "SecondaryCoolantConnectors", on_connector, &so);
    }
}

/* Read the members of the collection obj[key] as units (at most
 * SN_RF_MEMBERS_MAX in all, from *n on). */
static void units(struct rf *s, const json_t *obj, const char *key, bool cdu,
                  struct rf_unit *u, size_t *n)
{
    char path[SN_RF_PATH_MAX], mp[SN_RF_PATH_MAX];
    json_t *coll, *members;
    size_t k;

    if (!rf_link(s, obj, key, path) || !(coll = rf_get(s, path, NULL)))
        return;
    members = json_object_get(coll, "Members");
    k = json_array_size(members);
    if (!json_is_array(members) || k > SN_RF_MEMBERS_MAX)
        s->parse_errors++;
    for (size_t i = 0; i < k && *n < SN_RF_MEMBERS_MAX && !s->fatal; i++) {
        struct rf_unit *x = &u[*n];
        const char *last;
        json_t *doc;
        if (!rf_link(s, json_array_get(members, i), NULL, mp) ||
            !(doc = rf_get(s, mp, NULL)))
            continue;
        x->doc = doc;
        x->cdu = cdu;
        rf_str(doc, "Id", x->name, sizeof(x->name));
        last = strrchr(mp, '/');
        if (!x->name[0])
            sn_str_clean(x->name, sizeof(x->name), last ? last + 1 : mp, 0);
        if (!cdu && rf_link(s, doc, "ThermalSubsystem", path))
            x->thermal = rf_get(s, path, NULL);
        (*n)++;
    }
    json_decref(coll);
}

static int walk(struct rf *s, struct sn_error *err)
{
    json_t *root, *te;
    char p[SN_RF_PATH_MAX];
    struct rf_unit *u;
    size_t n = 0;

    s->out_of_time = false;
    root = rf_get(s, RF_ROOT, err);
    if (!root) {
        s->partial = s->out_of_time;
        return err && err->code ? err->code : SN_EIO;
    }
    u = sn_xcalloc(SN_RF_MEMBERS_MAX, sizeof(*u));
    units(s, root, "Chassis", false, u, &n);
    if (rf_link(s, root, "ThermalEquipment", p) && (te = rf_get(s, p, NULL))) {
        units(s, te, "CDUs", true, u, &n);
        json_decref(te);
    }
    for (s->phase = 0; s->phase < RF_NPHASES; s->phase++) {
        s->stop_at = SIZE_MAX;
        for (s->pass = 0; s->pass < 2; s->pass++) {
            if (s->pass == 1 && (s->out_of_time || !s->resume[s->phase]))
                break;
            s->seen = 0;
            for (size_t i = 0; i < n && !s->fatal; i++) {
                if (u[i].cdu)
                    cdu_phase(s, &u[i]);
                else
                    chassis_phase(s, &u[i]);
            }
        }
        /* the next walk starts where this one stopped; a phase the time
         * ran out before starts where it was to start */
        if (s->stop_at != SIZE_MAX)
            s->resume[s->phase] = s->stop_at;
        else if (!s->out_of_time)
            s->resume[s->phase] = 0;
    }
    for (size_t i = 0; i < n; i++) {
        json_decref(u[i].doc);
        json_decref(u[i].thermal);
    }
    free(u);
    json_decref(root);
    s->partial = s->out_of_time;
    if (s->fatal) {
        if (err)
            *err = s->fatal_err;
        return s->fatal;
    }
    return SN_OK;
}

/* ---- metrics ------------------------------------------------------------
 */

/* A gauge sample unless v is NaN (the source could not say). */
static void gauge(struct sn_metrics *m, const char *name, const char *help,
                  const struct sn_metrics_label *l, size_t n, double v,
                  struct sn_error *err)
{
    if (!isnan(v))
        sn__watch_gauge(m, name, help, l, n, v, err);
}

static void emit_coolant(const struct sn__watch_obs *obs, struct sn_metrics *m,
                         struct sn_error *err)
{
    for (size_t i = 0; i < obs->ncoolant; i++) {
        const struct sn__watch_coolant *c = &obs->coolant[i];
        struct sn_metrics_label l[] = {{"branch", c->branch},
                                       {"loop", c->loop}};
        gauge(m, "supernode_coolant_flow_liters_per_minute",
              "Coolant flow through a branch (Redfish CoolantConnector "
              "FlowLitersPerMinute), litres per minute",
              l, 2, c->flow_lpm, err);
        gauge(m, "supernode_coolant_rated_flow_liters_per_minute",
              "Rated coolant flow of a branch (Redfish CoolantConnector "
              "RatedFlowLitersPerMinute), litres per minute",
              l, 2, c->rated_flow_lpm, err);
        gauge(m, "supernode_coolant_supply_temperature_celsius",
              "Coolant temperature entering a branch (Redfish "
              "SupplyTemperatureCelsius)",
              l, 2, c->supply_c, err);
        gauge(m, "supernode_coolant_return_temperature_celsius",
              "Coolant temperature leaving a branch (Redfish "
              "ReturnTemperatureCelsius)",
              l, 2, c->return_c, err);
        gauge(m, "supernode_coolant_supply_pressure_pascals",
              "Coolant pressure at a branch's supply (Redfish "
              "SupplyPressurekPa times 1000)",
              l, 2, c->supply_kpa * 1000, err);
        gauge(m, "supernode_coolant_return_pressure_pascals",
              "Coolant pressure at a branch's return (Redfish "
              "ReturnPressurekPa times 1000)",
              l, 2, c->return_kpa * 1000, err);
    }
}

static void emit_power(const struct sn__watch_obs *obs, struct sn_metrics *m,
                       struct sn_error *err)
{
    for (size_t i = 0; i < obs->npsus; i++) {
        const struct sn__watch_psu *p = &obs->psus[i];
        struct sn_metrics_label l[] = {{"feed", p->feed}, {"psu", p->psu}};
        double eff = p->input_w > 0 && isfinite(p->output_w)
                         ? p->output_w / p->input_w
                         : NAN;
        gauge(m, "supernode_psu_input_power_watts",
              "Power a PSU draws from its feed (Redfish PowerSupplyMetrics "
              "InputPowerWatts)",
              l, 2, p->input_w, err);
        gauge(m, "supernode_psu_output_power_watts",
              "Power a PSU delivers (Redfish PowerSupplyMetrics "
              "OutputPowerWatts)",
              l, 2, p->output_w, err);
        gauge(m, "supernode_psu_input_voltage_volts",
              "Input voltage of a PSU (Redfish PowerSupplyMetrics "
              "InputVoltage)",
              l, 2, p->input_v, err);
        gauge(m, "supernode_psu_efficiency_ratio",
              "Live PSU efficiency, output over input power now (not the "
              "rated EfficiencyPercent)",
              l, 2, eff, err);
        gauge(m, "supernode_psu_capacity_watts",
              "Rated output of a PSU (Redfish PowerCapacityWatts)", l, 2,
              p->capacity_w, err);
    }
}

static void emit_rest(const struct rf *s, const struct sn__watch_obs *obs,
                      struct sn_metrics *m, struct sn_error *err)
{
    for (size_t i = 0; i < obs->nleaks; i++) {
        const struct sn__watch_leak *d = &obs->leaks[i];
        struct sn_metrics_label l[] = {{"detector", d->detector},
                                       {"state", d->state}};
        sn__watch_gauge(m, "supernode_leak_detector_ok",
                        "1 when a leak detector says OK, 0 in any other "
                        "state (Redfish LeakDetector DetectorState, in the "
                        "state label)",
                        l, 2, strcmp(d->state, "OK") == 0, err);
    }
    for (size_t i = 0; i < obs->nsensors; i++) {
        const struct sn__watch_sensor *x = &obs->sensors[i];
        struct sn_metrics_label l[] = {{"chassis", x->sensor}};
        if (strcmp(x->chip, "bmc") != 0)
            continue;
        if (x->kind == SN_WATCH_TEMP)
            gauge(m, "supernode_inlet_temperature_celsius",
                  "Room or inlet air temperature a chassis reads (Redfish "
                  "EnvironmentMetrics TemperatureCelsius)",
                  l, 1, x->value, err);
        else if (x->kind == SN_WATCH_HUMIDITY)
            gauge(m, "supernode_inlet_humidity_ratio",
                  "Relative humidity of the room or inlet air, 0 to 1 "
                  "(Redfish EnvironmentMetrics HumidityPercent / 100)",
                  l, 1, x->value, err);
    }
    for (int o = 0; o < SN_RF_NOUTCOMES; o++) {
        struct sn_metrics_label l[] = {{"outcome", outcome_names[o]}};
        sn__watch_counter(m, "supernode_redfish_requests_total",
                          "Redfish requests by how they ended (ok, "
                          "http_error, auth, timeout, transport, too_large, "
                          "redirect; deadline: not sent, no time left)",
                          l, 1, s->requests[o], err);
    }
    sn__watch_counter(m, "supernode_redfish_reading_errors_total",
                      "Redfish readings skipped: outside what the quantity "
                      "can physically be (a flow of 1e308 L/min, a negative "
                      "power)",
                      NULL, 0, s->reading_errors, err);
    sn__watch_counter(m, "supernode_redfish_parse_errors_total",
                      "Redfish responses or resources refused: invalid or "
                      "too deep JSON, links off the service, clashing names",
                      NULL, 0, s->parse_errors, err);
}

/* ---- the collector ------------------------------------------------------
 */

static struct rf *rf_new(const struct sn__watch_cfg *cfg)
{
    struct rf *s = sn_xcalloc(1, sizeof(*s));
    double t = cfg->timeout_s > 0 ? cfg->timeout_s : 12;

    /* the walk ends a little before the agent's deadline, so what it
     * read arrives; one request never takes more than 5 s */
    s->budget_s = 0.9 * t;
    s->request_s = fmin(t, RF_REQUEST_S);
    sn_buf_init(&s->body);
    return s;
}

static void rf_close(void *state)
{
    struct rf *s = state;

    if (!s)
        return;
    if (s->curl)
        curl_easy_cleanup(s->curl);
    curl_slist_free_all(s->headers);
    curl_slist_free_all(s->pin);
    free(s->base);
    sn_buf_release(&s->body);
    free(s);
}

static int rf_open(const struct sn__watch_cfg *cfg, void **state,
                   struct sn_error *err)
{
    struct rf *s;
    int rc;

    *state = NULL;
    if (!cfg->redfish_url || !*cfg->redfish_url)
        return sn_error_set(err, SN_EINPUT, "redfish: no BMC URL given");
    s = rf_new(cfg);
    rc = set_base(s, cfg->redfish_url, err);
    if (!rc)
        rc = clear_text(s, cfg, err);
    if (!rc)
        rc = curl_setup(s, cfg, err);
    if (rc) {
        rf_close(s);
        return rc;
    }
    s->fetch = curl_fetch;
    s->ctx = s;
    *state = s;
    return SN_OK;
}

int sn__watch_redfish_open_with(const struct sn__watch_cfg *cfg,
                                sn_rf_fetch_fn fetch, void *ctx, void **state,
                                struct sn_error *err)
{
    struct rf *s = rf_new(cfg);

    s->base = sn_xstrdup(cfg->redfish_url ? cfg->redfish_url : "");
    s->fetch = fetch;
    s->ctx = ctx;
    *state = s;
    return SN_OK;
}

static int rf_collect(void *state, struct sn__watch_obs *obs,
                      struct sn_metrics *m, struct sn_error *err)
{
    struct rf *s = state;
    struct sn_error e = {0};
    int rc;

    s->obs = obs;
    s->deadline = sn_now() + s->budget_s;
    s->nrequests = 0;
    s->fatal = SN_OK;
    sn_error_clear(&s->fatal_err);
    rc = walk(s, &e);
    obs->partial = s->partial;
    if (rc) {
        char where[RF_URL_MAX + 16];
        snprintf(where, sizeof(where), "redfish '%s'", s->base);
        sn_error_prefix(&e, where);
    }
    emit_coolant(obs, m, &e);
    emit_power(obs, m, &e);
    emit_rest(s, obs, m, &e);
    s->obs = NULL;
    if (e.code && err)
        *err = e;
    return rc ? rc : e.code;
}

const struct sn__watch_collector sn__watch_col_redfish = {"redfish", rf_open,
                                                          rf_collect, rf_close};
