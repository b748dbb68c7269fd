/* redfish-int.h: the inside of the BMC collector (col-redfish.c) that its
 * tests and its fuzz harness reach: the bounded JSON parse (over util's
 * sn_json_read) and the walk with the transport swapped out. Not part of the
 * public API. */
#ifndef SN_WATCH_REDFISH_INT_H
#define SN_WATCH_REDFISH_INT_H

#if !defined(SN_MODULE_watch) && !defined(SN_TESTS)
#error "private to src/lib/watch (tests/layers/table)"
#endif

#include <stddef.h>

#include <jansson.h>

#include "watch-int.h"

#define SN_RF_BODY_MAX ((size_t)4 << 20) /* bytes of one response */
#define SN_RF_DEPTH_MAX 64               /* nesting of a document */
#define SN_RF_MEMBERS_MAX 256            /* members followed per collection */
#define SN_RF_REQUESTS_MAX 1024          /* requests per interval */
#define SN_RF_PATH_MAX 512               /* bytes of an @odata.id, with NUL */

/* How one request ended: the outcome label of
 * supernode_redfish_requests_total. */
enum sn_rf_outcome {
    SN_RF_OK,        /* 200 and a body within the cap */
    SN_RF_HTTP,      /* another HTTP status (404, 500, ...) */
    SN_RF_AUTH,      /* 401 or 403: the credentials were refused */
    SN_RF_TIMEOUT,   /* connect or request timeout */
    SN_RF_TRANSPORT, /* refused connection, TLS failure, reset, ... */
    SN_RF_TOO_LARGE, /* body over SN_RF_BODY_MAX */
    SN_RF_REDIRECT,  /* a redirect off the service's host, not followed */
    SN_RF_DEADLINE,  /* not sent: the interval's time was spent */
    SN_RF_NOUTCOMES
};

/* Fetch one path ("/redfish/v1/Chassis") into body (reset first);
 * returns an outcome, err filled for every one but SN_RF_OK. */
typedef enum sn_rf_outcome (*sn_rf_fetch_fn)(void *ctx, const char *path,
                                             struct sn_buf *body,
                                             struct sn_error *err);

/* Parse len bytes of text, a Redfish response named what in messages,
 * into a JSON object (*out, the caller's: json_decref). Refused with a
 * located SN_EINPUT ("what:line:col: ..."): more than SN_RF_BODY_MAX
 * bytes, nesting deeper than SN_RF_DEPTH_MAX, invalid JSON, duplicate
 * keys, NUL in strings, a document that is not an object. */
int sn__watch_redfish_parse(const char *what, const char *text, size_t len,
                            json_t **out, struct sn_error *err);

/* The collector's open() with the transport replaced by fetch (ctx
 * passed to it): for the fuzz harness and tests that serve documents
 * from memory. cfg->redfish_url may be NULL then. The state is closed
 * with sn__watch_col_redfish.close. */
int sn__watch_redfish_open_with(const struct sn__watch_cfg *cfg,
                                sn_rf_fetch_fn fetch, void *ctx, void **state,
                                struct sn_error *err);

/* Check that every address of host (ai, what the resolver answered for
 * host and port) is a loopback address, and write curl's CURLOPT_RESOLVE
 * entry "host:port:addr[,addr...]" pinning the transfers to them into pin.
 * SN_EINPUT naming the first address that is not loopback, for no
 * address, or when pin is too small. */
struct addrinfo;
int sn__watch_redfish_pin(const char *host, const char *port,
                          const struct addrinfo *ai, char *pin, size_t size,
                          struct sn_error *err);

#endif
