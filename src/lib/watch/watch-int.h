/* watch-int.h: the node agent's inside (issue 15). Collectors read the
 * machine (NVML, sysfs, the kernel log, the BMC over Redfish) each
 * interval, each on its own thread, into two things of their own: typed
 * observations (struct sn__watch_obs) for the rules, and metric samples
 * (struct sn_metrics) for the scrape. The agent (agent.c) merges what
 * came back in time, runs the rules (rules.c) over the merged
 * observations, stores events and publishes one registry.
 *
 * A collector never sees another's output and never blocks the scrape: a
 * collector that has not answered by the deadline is reported down
 * (supernode_collector_up 0, its timeout counted) and is not asked again
 * until it returns; what it read is evaluated when it does (agent.c).
 * Not part of the public API. */
#ifndef SN_WATCH_INT_H
#define SN_WATCH_INT_H

#if !defined(SN_MODULE_watch) && !defined(SN_TESTS)
#error "private to src/lib/watch (tests/layers/table)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sn/metrics.h"
#include "sn/spec.h"
#include "sn/util.h"
#include "sn/watch.h"

#define SN_WATCH_NAME_MAX 64    /* bytes of a name or label, with NUL */
#define SN_WATCH_PROCS_MAX 32   /* processes kept per GPU */
#define SN_WATCH_XIDS_MAX 16    /* new XIDs kept per GPU per interval */
#define SN_WATCH_ITEMS_MAX 4096 /* entries of any one obs array */

/* ---- observations ------------------------------------------------------ */
/* NaN marks a value the source could not give. Counters are totals since
 * the source started (the agent and the rules take differences). */

struct sn__watch_proc {
    unsigned pid;
    double mem_bytes; /* GPU memory it holds */
    char state;       /* /proc/<pid>/stat state: 'R','S','D','Z',...;
                         0 when /proc/<pid> is gone */
    double sm_util;   /* 0..1, NaN when unknown */
};

struct sn__watch_gpu {
    int index;                   /* NVML index */
    char bus[SN_WATCH_NAME_MAX]; /* sysfs form, "0000:17:00.0" */
    char uuid[SN_WATCH_NAME_MAX];
    char name[SN_WATCH_NAME_MAX];
    bool lost; /* NVML has it but it answers GPU_IS_LOST */
    double temp_c, temp_slowdown_c;
    double power_w, power_limit_w;
    double energy_j; /* counter */
    double sm_clock_hz, mem_clock_hz, sm_clock_max_hz;
    uint64_t reasons; /* clock event reason bits now */
    bool reasons_read;
    double ecc_corrected, ecc_uncorrected;             /* volatile counters */
    double remap_pending, remap_failure;               /* 0 or 1; NaN unknown */
    double nvlink_recovery, nvlink_replay, nvlink_crc; /* summed over links */
    int nvlink_up, nvlink_links; /* links up of links present */
    double mem_used_bytes, mem_total_bytes;
    double util; /* 0..1 */
    struct sn__watch_proc procs[SN_WATCH_PROCS_MAX];
    size_t nprocs;
    unsigned xids[SN_WATCH_XIDS_MAX]; /* new this interval, in order */
    size_t nxids;
};

enum sn__watch_sensor_kind {
    SN_WATCH_TEMP,     /* celsius */
    SN_WATCH_VOLT,     /* volts */
    SN_WATCH_CURR,     /* amperes */
    SN_WATCH_POWER,    /* watts */
    SN_WATCH_FAN,      /* rpm */
    SN_WATCH_HUMIDITY, /* ratio 0..1 */
};

/* A host sensor (hwmon) or a BMC sensor. group puts sensors that should
 * agree side by side ("inlet", a loop name); "" when none. */
struct sn__watch_sensor {
    char chip[SN_WATCH_NAME_MAX];   /* hwmon chip ("coretemp") or "bmc" */
    char sensor[SN_WATCH_NAME_MAX]; /* "temp1", or the BMC's id */
    char label[SN_WATCH_NAME_MAX];  /* tempN_label or the BMC's name */
    char group[SN_WATCH_NAME_MAX];
    enum sn__watch_sensor_kind kind;
    double value;
};

/* One coolant branch (a Redfish CoolantConnector: a cold-plate loop). */
struct sn__watch_coolant {
    char branch[SN_WATCH_NAME_MAX]; /* connector id */
    char loop[SN_WATCH_NAME_MAX];   /* CoolingLoopName, "" when none */
    /* what the connector feeds: "gpu" or "cpu" (a cold plate), "cdu" (a
     * CDU's primary or secondary connector), "other" (a manifold, a
     * tray's inlet, anything else) */
    char kind[8];
    double flow_lpm, supply_c, return_c, supply_kpa, return_kpa;
    double rated_flow_lpm;
};

struct sn__watch_psu {
    char psu[SN_WATCH_NAME_MAX];
    char feed[SN_WATCH_NAME_MAX]; /* the input it draws from, "" unknown */
    double input_w, output_w, input_v, capacity_w;
};

struct sn__watch_leak {
    char detector[SN_WATCH_NAME_MAX];
    char state[16]; /* "OK", "Warning", "Critical", "Unavailable", ... */
};

enum sn__watch_link_kind { SN_WATCH_PCIE, SN_WATCH_NIC, SN_WATCH_IB };

struct sn__watch_link {
    enum sn__watch_link_kind kind;
    char dev[SN_WATCH_NAME_MAX];  /* BDF, interface or "mlx5_0/1" */
    char what[SN_WATCH_NAME_MAX]; /* "gpu", "nic", "nvme", ... or "" */
    double speed, max_speed;      /* GT/s (PCIe) or bits/s (NIC, IB) */
    int width, max_width;         /* lanes; 0 for NICs */
    bool up;
    double down_events; /* counter: carrier or link-down changes */
};

/* A PCI function on the bus: for devices the spec or NVML expect. */
struct sn__watch_pcidev {
    char bdf[16];
    unsigned vendor, device, class_code; /* class_code = class >> 8 */
};

enum sn__watch_klog_kind {
    SN_WATCH_KLOG_XID,
    SN_WATCH_KLOG_AER,
    SN_WATCH_KLOG_LINKDOWN,
    SN_WATCH_KLOG_OFFBUS
};

/* A kernel log line read since the last interval. */
struct sn__watch_klog {
    enum sn__watch_klog_kind kind;
    char dev[SN_WATCH_NAME_MAX]; /* BDF or interface */
    int code;                    /* XID code; 0 otherwise */
    char text[160];              /* the line, cleaned */
};

/* What every collector read in one interval. Arrays are heap-owned,
 * grown with sn__watch_push (at most SN_WATCH_ITEMS_MAX entries each). */
struct sn__watch_obs {
    double now;    /* seconds, the interval's time */
    bool nvml;     /* the NVML collector answered */
    bool pci_read; /* the PCI collector read the bus (it found devices) */
    struct sn__watch_gpu *gpus;
    size_t ngpus, cap_gpus;
    int nvml_count; /* devices NVML counts (lost ones included) */
    struct sn__watch_sensor *sensors;
    size_t nsensors, cap_sensors;
    struct sn__watch_coolant *coolant;
    size_t ncoolant, cap_coolant;
    struct sn__watch_psu *psus;
    size_t npsus, cap_psus;
    struct sn__watch_leak *leaks;
    size_t nleaks, cap_leaks;
    struct sn__watch_link *links;
    size_t nlinks, cap_links;
    struct sn__watch_pcidev *pci;
    size_t npci, cap_pci;
    struct sn__watch_klog *klog;
    size_t nklog, cap_klog;
    double room_c, room_humidity; /* NaN when not read */
    bool partial; /* the collector ran out of time before reading all it
                     knows of (the rest is read at the next interval) */
};

/* Append one zeroed entry to an obs array (p: &obs->gpus, n, cap);
 * returns it, or NULL past SN_WATCH_ITEMS_MAX entries. */
void *sn__watch_push(void *p, size_t *n, size_t *cap, size_t size);
#define SN_WATCH_PUSH(obs, arr)                                                \
    sn__watch_push(&(obs)->arr, &(obs)->n##arr, &(obs)->cap_##arr,             \
                   sizeof(*(obs)->arr))

/* Move every entry of src onto dst (src is released). Returns 0, or -1
 * when dst would pass SN_WATCH_ITEMS_MAX (what fits is kept). */
int sn__watch_obs_absorb(struct sn__watch_obs *dst, struct sn__watch_obs *src);
/* Move only src's events (kernel-log lines and GPU XIDs: what happened,
 * not what is) onto dst, a later reading of the same collector, whose
 * snapshots supersede src's (src is released). An XID goes into the
 * same GPU's list in dst, in front of dst's own, or, without room or
 * without that GPU in dst, becomes a kernel-log XID entry for its bus.
 * Returns 0, or -1 when dst would pass SN_WATCH_ITEMS_MAX. */
int sn__watch_obs_carry_events(struct sn__watch_obs *dst,
                               struct sn__watch_obs *src);
/* Free the arrays; the obs is all zero again but for now, room_c and
 * room_humidity, which are NaN. */
void sn__watch_obs_release(struct sn__watch_obs *obs);
void sn__watch_obs_init(struct sn__watch_obs *obs, double now);

/* ---- collectors ------------------------------------------------------- */

/* What the agent was told, for every collector. */
struct sn__watch_cfg {
    const char *fsroot;      /* "" for the live machine */
    const char *nvml;        /* library path, NULL for none */
    const char *redfish_url; /* NULL for none */
    const char *redfish_user, *redfish_password;
    const char *redfish_ca;     /* CA bundle file, NULL for the system's */
    bool redfish_insecure;      /* skip TLS verification (said loudly) */
    double timeout_s;           /* per collector per interval */
    const struct sn_spec *spec; /* NULL when none was given */
};

/* One collector. open() is called once, on the collector's own thread,
 * and may fail (the collector is then down with that error each interval
 * and open() is tried again). collect() fills obs and m; it returns 0 or
 * an sn_code with err filled (what it added stays). close() releases the
 * state. Metric families are the collector's own: it registers each one
 * it uses in every collect(). */
struct sn__watch_collector {
    const char *name; /* the collector label: "nvml", "hwmon", ... */
    int (*open)(const struct sn__watch_cfg *cfg, void **state,
                struct sn_error *err);
    int (*collect)(void *state, struct sn__watch_obs *obs, struct sn_metrics *m,
                   struct sn_error *err);
    void (*close)(void *state);
};

/* The collectors, each in its own file (col-*.c). */
extern const struct sn__watch_collector sn__watch_col_nvml;
extern const struct sn__watch_collector sn__watch_col_hwmon;
extern const struct sn__watch_collector sn__watch_col_pci;
extern const struct sn__watch_collector sn__watch_col_net;
extern const struct sn__watch_collector sn__watch_col_klog;
extern const struct sn__watch_collector sn__watch_col_redfish;

/* Helpers for collectors: register a family and add one sample; errors
 * (a bad name is a bug, a full registry is not) are kept in err and the
 * first one is what collect() returns. */
int sn__watch_gauge(struct sn_metrics *m, const char *name, const char *help,
                    const struct sn_metrics_label *l, size_t n, double v,
                    struct sn_error *err);
int sn__watch_counter(struct sn_metrics *m, const char *name, const char *help,
                      const struct sn_metrics_label *l, size_t n, double v,
                      struct sn_error *err);

/* ---- the agent (agent.c) ---------------------------------------------- */

/* sn_watch_new with the collectors given (the tests' own, for the
 * agent's timeouts and failures). */
int sn__watch_new_with(const struct sn_watch_opts *opts,
                       const struct sn__watch_collector *const *cols,
                       size_t ncols, struct sn_watch **out,
                       struct sn_error *err);

/* ---- rules (rules.c) --------------------------------------------------- */

struct sn_store;

struct sn__watch_rules; /* private to rules.c */

/* The rules of this node against spec (NULL: peers and history only).
 * st (may be NULL) keeps the slow state (EWMA, CUSUM) and the events; host
 * names this node in them. */
int sn__watch_rules_new(const struct sn_spec *spec, struct sn_store *st,
                        const char *host, struct sn__watch_rules **out,
                        struct sn_error *err);
/* Evaluate every rule over one interval's merged observations: update the
 * slow state, add supernode_rule_active{rule,severity,subject} and the
 * drift scores to m, store an event (with the state of the moment) for
 * each rule that starts to hold. */
int sn__watch_rules_eval(struct sn__watch_rules *r,
                         const struct sn__watch_obs *obs, struct sn_metrics *m,
                         struct sn_error *err);
/* The alerts that hold after the last evaluation. */
size_t sn__watch_rules_active(const struct sn__watch_rules *r,
                              const struct sn_watch_alert **out);
void sn__watch_rules_free(struct sn__watch_rules *r);

/* ---- the BMC collector (col-redfish.c) -------------------------------- */

/* Read the Redfish credentials file: one line "user:password" (the
 * password may hold ':'; a trailing CR is dropped). Refused with
 * SN_EINPUT: a file group or others may read (mode & 077), not a regular
 * file, over 4 KiB, binary, no ':', an empty user or password, or a name or
 * password that does not fit usize or psize bytes; SN_EIO when it cannot
 * be read. user and pass are "" on failure; the password never appears in
 * a message. */
int sn__watch_read_credentials(const char *path, char *user, size_t usize,
                               char *pass, size_t psize, struct sn_error *err);

/* The accelerators a node of spec should have: its node: section's
 * accelerators when it says, else the design's per node; -1 without a
 * spec. 0 is a node with none, which needs no NVML (rules.c). */
int sn__watch_spec_gpus(const struct sn_spec *spec);

#endif
