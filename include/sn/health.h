/* health.h: probes of one node, `supernode doctor`'s library. Each probe
 * reads the machine (sysfs and procfs under a configurable root, NVML
 * loaded with dlopen, hwloc) and adds checks to a report: a name, a status
 * (pass, warn, fail, or skip when the probe could not look), the device it
 * is about, the evidence read and the remedy the field knows.
 *
 * Ownership: sn_health_run() fills a caller-owned report that
 * sn_health_report_release() frees; every string in it is owned by the
 * report. The configuration is borrowed for the duration of the call.
 *
 * To add a check: 1. a probe function in src/lib/health/ that calls
 * sn_health_report_add() with a stable dotted name  2. its call in
 * sn_health_run() (health.c) under a probe bit  3. docs/doctor.md (name,
 * statuses, remedy)  4. a fixture that makes it pass and one that makes it
 * warn or fail, and a test on each.
 */
#ifndef SN_HEALTH_H
#define SN_HEALTH_H

#include <stdbool.h>
#include <stddef.h>

#include "sn/spec.h"
#include "sn/util.h"

/* Statuses, in increasing order of concern: the worst status of a report
 * is its largest value. */
enum sn_health_status {
    SN_HEALTH_PASS,
    SN_HEALTH_SKIP, /* the probe could not look (no library, no file) */
    SN_HEALTH_WARN,
    SN_HEALTH_FAIL,
    SN_HEALTH_STATUS_COUNT
};

/* One finding. Strings are never NULL (empty when there is nothing to
 * say); remedy is empty for a pass. */
struct sn_health_check {
    char *name; /* stable dotted id: "pcie.link", "nvml.ecc" */
    enum sn_health_status status;
    char *subject;  /* the device or setting: "0000:17:00.0 gpu 10de:2330" */
    char *evidence; /* what was read: "8.0 GT/s x8 of 16.0 GT/s x16" */
    char *remedy;   /* what the field does about it */
};

/* The checks in the order they were made (probes run in a fixed order
 * and walk devices sorted by PCI address, so the order is stable). */
struct sn_health_report {
    struct sn_health_check *checks;
    size_t nchecks;
    size_t cap;
    char *host;   /* host name read under the root, "" when unknown */
    char *fsroot; /* the root the probes read under */
};

/* Probe groups, for sn_health_config.probes. */
enum {
    SN_HEALTH_PROBE_PCIE = 1u << 0,     /* PCIe link speed/width, AER */
    SN_HEALTH_PROBE_NVML = 1u << 1,     /* GPUs through NVML */
    SN_HEALTH_PROBE_TOPO = 1u << 2,     /* expected against found (hwloc) */
    SN_HEALTH_PROBE_VERSIONS = 1u << 3, /* versions against the matrix */
    SN_HEALTH_PROBE_CPU = 1u << 4,  /* governor, NUMA balancing, huge pages */
    SN_HEALTH_PROBE_KLOG = 1u << 5, /* kernel log: XID, AER, link down */
    SN_HEALTH_PROBE_ALL = 0xffffu,
};

/* ---- what the design expects of one node ------------------------------ */

#define SN_HEALTH_MAX_NUMA 64

/* PCIe generation and width a kind of device should run at (0: no
 * expectation). */
struct sn_health_pcie_want {
    int gen;
    int width;
};

/* The spec's `node:` section with its defaults (docs/doctor.md). A count
 * of -1, an empty string, a zero or false means "not checked". */
struct sn_health_node {
    int accelerators; /* per node: supernode.per_node by default */
    char model[64];   /* a word of the accelerator's name ("h100") */
    int nics;         /* compute NIC ports: scaleout.nics_per_node */
    char nic_id[16];  /* "15b3:1021": only these count as NICs */
    int numa_nodes;
    int numa_accels[SN_HEALTH_MAX_NUMA]; /* per NUMA node, nnuma entries */
    int numa_nics[SN_HEALTH_MAX_NUMA];
    int nnuma;           /* entries in the two lists above, 0 = none */
    bool balanced;       /* accelerators and NICs split evenly */
    bool nic_per_switch; /* every accelerator shares a PCIe switch with
                            a NIC (GPUDirect RDMA without the CPU) */
    struct sn_health_pcie_want pcie_accel, pcie_nic, pcie_nvme;
    int nvlinks;          /* active NVLinks per GPU: links_per_accel */
    double power_limit_w; /* the limit the site sets on purpose */
    char thp[16];         /* transparent huge pages: always, madvise,
                             never */
    int hugepages_2m;     /* reserved 2 MiB pages */
    int hugepages_1g;     /* reserved 1 GiB pages */
};

/* Nothing expected. */
void sn_health_node_init(struct sn_health_node *node);
/* Read the spec's `node:` section (optional) into *node, defaults from
 * the rest of the spec: accelerators from supernode.per_node, model from
 * the accelerator's catalog name, NICs from scaleout.nics_per_node,
 * NVLinks from links_per_accelerator for NVIDIA switched or mesh fabrics.
 * SN_EINPUT with "file:line:col: what is wrong (what was expected)". */
int sn_health_node_from_spec(const struct sn_spec *spec,
                             struct sn_health_node *node, struct sn_error *err);

/* ---- the compatibility matrix --------------------------------------- */

/* Allowed combinations of kernel, driver, CUDA, NCCL, MPI, BLAS and
 * firmware versions (docs/doctor.md), loaded from YAML. Opaque; freed with
 * sn_health_matrix_free(). */
struct sn_health_matrix;

/* Load a matrix file into *out (NULL on failure). SN_EINPUT with
 * "file:line:col: what is wrong (what was expected)". */
int sn_health_matrix_load(const char *path, struct sn_health_matrix **out,
                          struct sn_error *err);
void sn_health_matrix_free(struct sn_health_matrix *m);

/* The NVML library loaded by default (the driver's, on the loader path). */
#define SN_HEALTH_NVML_DEFAULT "libnvidia-ml.so.1"

/* What to probe and where. Initialise with sn_health_config_init() and
 * set what differs. */
struct sn_health_config {
    /* every sysfs/procfs path is read under this directory; "/" (the
     * default) is the live node */
    const char *fsroot;
    unsigned probes;          /* SN_HEALTH_PROBE_* bits; default all */
    const char *nvml_library; /* dlopen()ed; SN_HEALTH_NVML_DEFAULT by
                                 default, "" or NULL: NVML checks skipped */
    unsigned xid_wait_ms;     /* how long to listen for XID events (100) */
    double idle_after;        /* seconds a process may hold GPU memory
                                 without work before it is suspect (600) */
    const struct sn_health_node *node;     /* expectations; NULL: none */
    const struct sn_health_matrix *matrix; /* allowed versions; NULL: none */
};

void sn_health_config_init(struct sn_health_config *cfg);

/* Run the probes cfg selects and add their checks to rep (initialised by
 * the caller). The topology probe uses hwloc, which reads its root from
 * the environment variable HWLOC_FSROOT: a caller that sets cfg->fsroot
 * sets HWLOC_FSROOT to the same directory (the CLI does); when hwloc read
 * another root than cfg->fsroot the topology checks are skipped, saying
 * so. A failing check is not an error: the call returns SN_OK
 * and the report says FAIL. Errors are SN_EINPUT for a configuration that
 * cannot be used (an fsroot that is not a directory) and SN_ENOMEM when a
 * size cap is hit; checks made before the error stay in rep. */
int sn_health_run(const struct sn_health_config *cfg,
                  struct sn_health_report *rep, struct sn_error *err);

void sn_health_report_init(struct sn_health_report *rep);
void sn_health_report_release(struct sn_health_report *rep);
/* Append a check; subject and remedy may be NULL (stored as ""), evidence
 * is a printf format. The strings are copied. */
void sn_health_report_add(struct sn_health_report *rep, const char *name,
                          enum sn_health_status status, const char *subject,
                          const char *remedy, const char *evidence_fmt, ...)
    SN_PRINTF(6, 7);
/* How many checks have each status (counts[SN_HEALTH_STATUS_COUNT]). */
void sn_health_report_counts(const struct sn_health_report *rep,
                             size_t *counts);
/* The report's verdict: FAIL, else WARN, else PASS when any check
 * passed (or there are none), SKIP only when every check was skipped. */
enum sn_health_status
sn_health_report_worst(const struct sn_health_report *rep);

/* "pass", "skip", "warn", "fail". */
const char *sn_health_status_name(enum sn_health_status s);
/* The hwloc library's version in buf, "2.9.0". */
void sn_health_hwloc_version(char *buf, size_t len);
/* "PASS", "SKIP", "WARN", "FAIL": the checklist's labels, as the store
 * and check write them. */
const char *sn_health_status_label(enum sn_health_status s);

#endif
