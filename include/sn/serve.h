/* serve.h: the node agent's HTTP endpoint (issue 15) on libmicrohttpd:
 * /metrics (text 0.0.4, or OpenMetrics 1.0 when the Accept header asks),
 * /healthz and a landing page, answered from an internal thread.
 *
 * Ownership: a struct sn_metrics_server is a heap object, made by
 * sn_metrics_server_new() and freed by sn_metrics_server_free(); it keeps
 * its own rendering of the last published registry, so the caller's
 * registry may be changed or released as soon as publish returns.
 *
 * A scrape never waits on collection: the collector renders both formats
 * in sn_metrics_server_publish() and swaps them in under a mutex; the
 * request handler only copies the current bytes.
 */
#ifndef SN_SERVE_H
#define SN_SERVE_H

#include "sn/metrics.h"
#include "sn/util.h"

#define SN_METRICS_SERVER_ADDRESS "127.0.0.1"
#define SN_METRICS_SERVER_STALE_S 60.0    /* /healthz limit by default */
#define SN_METRICS_SERVER_CONNECTIONS 32  /* open connections by default */
#define SN_METRICS_SERVER_TIMEOUT_S 10    /* idle seconds per connection */
#define SN_METRICS_SERVER_HEADER_MAX 8192 /* bytes of a request's head */
/* bytes of a connection's memory beyond the head: the answer's status line
 * and header fields (under 512 bytes: ours are a fixed handful), MHD's
 * record of each field of the head (7 pointers and sizes, 56 bytes, for
 * up to ~50 fields) and its pool's bookkeeping. A head up to the cap
 * leaves this much for the answer; one past it is answered 431. */
#define SN_METRICS_SERVER_ANSWER_ROOM 4096
/* seconds a request head may take, however steadily it trickles in:
 * Prometheus' default scrape_timeout (10 s, its configuration docs); a
 * scraper sends its head in one segment, and one that cannot in 10 s
 * has given up on the scrape anyway */
#define SN_METRICS_SERVER_HEAD_S 10.0

struct sn_metrics_server_opts {
    const char *address;       /* numeric IPv4 or IPv6; NULL: 127.0.0.1 */
    unsigned port;             /* 0: a free port, see sn_metrics_server_port */
    double stale_after_s;      /* /healthz fails past it; 0: the default */
    unsigned connection_limit; /* 0: SN_METRICS_SERVER_CONNECTIONS */
    unsigned connection_timeout_s; /* 0: SN_METRICS_SERVER_TIMEOUT_S */
    /* connections per client address; 0: a sixteenth of the limit, at
     * least 2. A range (IPv4 /24, IPv6 /64) holds at most half of them,
     * and the last quarter are kept for ranges that hold none */
    unsigned per_ip_limit;
    double head_timeout_s; /* a request head's deadline; 0: the default */
    /* HTTPS when both are given: the certificate chain and its key, PEM
     * text (the caller reads the files) */
    const char *tls_cert_pem, *tls_key_pem;
    /* HTTP basic authentication on every path when user is given */
    const char *auth_user, *auth_password;
};

struct sn_metrics_server; /* private to serve.c */

/* Listen on opts' address and port (opts may be NULL: every default) and
 * serve from an internal thread until sn_metrics_server_free(). Until the
 * first publish, /metrics and /healthz answer 503. Fails with SN_EINPUT
 * for an address that is not a numeric IPv4 or IPv6 one, a port past
 * 65535, a negative staleness limit, a certificate without its key (or
 * the other way round), a user without a password; SN_ENOTSUP for HTTPS
 * from a libmicrohttpd built without TLS; SN_EIO when the socket cannot be
 * bound (the address is in use, or not this host's) or the server cannot
 * start. *out is NULL on failure. */
int sn_metrics_server_new(const struct sn_metrics_server_opts *opts,
                          struct sn_metrics_server **out, struct sn_error *err);

/* The port the server listens on (the one picked when opts asked for 0). */
unsigned sn_metrics_server_port(const struct sn_metrics_server *s);

/* Render m in both formats and make it what /metrics serves; marks the
 * time of the publish for /healthz. Safe to call from any one thread
 * while the server answers requests. */
void sn_metrics_server_publish(struct sn_metrics_server *s,
                               const struct sn_metrics *m);

/* Make /healthz fail with problem (a sentence: "collector nvml: no
 * reading for 62 s") until it is cleared with NULL, whatever the age of
 * the last publish. */
void sn_metrics_server_set_problem(struct sn_metrics_server *s,
                                   const char *problem);

/* Stop serving (waits for the internal thread) and free everything. NULL
 * does nothing. */
void sn_metrics_server_free(struct sn_metrics_server *s);

#endif
