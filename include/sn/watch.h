/* watch.h: the node agent of `supernode watch` (issue 15). One agent per
 * node reads the GPUs (NVML), the host (sysfs under a root, the kernel
 * log) and the BMC (Redfish) each interval, each collector on a thread
 * of its own with a deadline, evaluates the rules against the design and
 * the peers, stores events, and hands one registry of metrics to the
 * caller (who serves it, writes it for node_exporter, or prints it).
 *
 * Ownership: a struct sn_watch is a heap object from sn_watch_new(),
 * freed by sn_watch_free(); it copies what it keeps of the options. The
 * spec, when given, is the caller's and must outlive the agent.
 */
#ifndef SN_WATCH_H
#define SN_WATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "sn/metrics.h"
#include "sn/spec.h"
#include "sn/util.h"

/* 9100-9999 of Prometheus' default port allocations (the project wiki) is
 * all taken; 10384 is past the allocations made so far. */
#define SN_WATCH_PORT 10384
#define SN_WATCH_INTERVAL_S 15.0
#define SN_WATCH_INTERVAL_MIN_S 0.05 /* shortest interval accepted */
#define SN_WATCH_INTERVAL_MAX_S 86400.0

struct sn_store;

struct sn_watch_opts {
    const struct sn_spec *spec; /* the design; NULL: peers only */
    struct sn_store *store;     /* events and slow state; NULL: none kept */
    const char *host;           /* this node's name; NULL: gethostname() */
    const char *fsroot;         /* root of sysfs and procfs; NULL: "/" */
    const char *nvml;           /* NVML library; NULL: the driver's,
                                   "none": no GPU collector */
    const char *redfish_url;    /* BMC base URL; NULL: no BMC collector */
    const char *redfish_credentials; /* file "user:password", mode 0600 */
    const char *redfish_ca;          /* CA bundle; NULL: the system's */
    bool redfish_insecure;           /* skip TLS verification */
    double timeout_s;  /* per collector per interval; 0: 80% of interval */
    double interval_s; /* for the timeout's default; 0: 15 s */
    /* What goes wrong while the agent runs, one line at a time without
     * a newline ("collector nvml: ...", "collector pci: answering again",
     * "rules: ..."): called on the thread that calls sn_watch_tick(), and
     * a collector's complaint only when it changes. NULL: not said (the
     * library prints nothing; the CLI prints these). */
    void (*log)(void *log_ctx, const char *line);
    void *log_ctx;
};

struct sn_watch; /* private to src/lib/watch/agent.c */

/* Start the agent's collector threads. Fails with SN_EINPUT for options
 * that contradict (a credentials file without a URL, one readable by
 * others), SN_ENOMEM. A collector that cannot start is not a failure: it
 * reports itself down. */
int sn_watch_new(const struct sn_watch_opts *opts, struct sn_watch **out,
                 struct sn_error *err);

/* One interval at time now (seconds; the caller's clock, simulated in
 * tests): ask every idle collector to read, wait until all answered or
 * the deadline passed, merge what came back, evaluate the rules, store
 * events, and fill m (released first) with every sample plus the agent's
 * own: supernode_collector_up{collector}, its duration and errors, and
 * supernode_build_info. Returns 0; SN_ENOMEM when the registry cap is
 * hit (m holds what fitted). */
int sn_watch_tick(struct sn_watch *w, double now, struct sn_metrics *m,
                  struct sn_error *err);

/* A rule that holds now for one subject. */
struct sn_watch_alert {
    char rule[64];     /* "coolant_flow_low", ... */
    char severity[16]; /* "warning" or "critical" */
    char subject[128]; /* "gpu 0000:17:00.0", "branch CPU1" */
    char message[256]; /* what holds and what to do */
    double value;      /* the figure the rule compared */
};

/* The rules that hold after the last tick (*out points inside w, valid
 * until the next tick). */
size_t sn_watch_alerts(const struct sn_watch *w,
                       const struct sn_watch_alert **out);

/* Whether every collector gave a good reading within three intervals of
 * now; when not, why says which and how long ago (for /healthz). */
bool sn_watch_healthy(const struct sn_watch *w, double now, char *why,
                      size_t size);

/* Read "user:password" (one line) from a file only its owner may read
 * or write (mode 0600 or stricter): the BMC's credentials, the HTTP basic
 * authentication's. SN_EINPUT naming the file ("credentials file
 * 'PATH': ...", the caller says which option) for a looser mode or a
 * malformed line (an empty user or password among them), SN_EIO when it
 * cannot be read. */
int sn_watch_read_credentials(const char *path, char *user, size_t user_size,
                              char *pass, size_t pass_size,
                              struct sn_error *err);

/* Stop the collectors (a hung one is detached, not waited for) and free
 * everything. NULL does nothing. */
void sn_watch_free(struct sn_watch *w);

/* The watch rules as a Prometheus rule file (YAML: one group of alerting
 * rules with `for:` durations, labels rule and severity, annotations
 * summary and description naming {{ $labels.subject }}) on the agent's
 * metric names, for evaluation over a fleet; the design's figures (the
 * coolant flow of a node's loop, GPUs a node) come from spec (NULL:
 * peers only). Appends to out. Returns SN_OK. */
int sn_watch_rules_file(const struct sn_spec *spec, struct sn_buf *out,
                        struct sn_error *err);

#endif
