/* health-int.h: what the probes of src/lib/health/ share: the probe
 * context and the PCI device list every probe names devices from. They
 * read the machine through the hardware layer (../hw/hw-int.h), which this
 * header brings in. Not part of the public API. */
#ifndef SN_HEALTH_INT_H
#define SN_HEALTH_INT_H

#if !defined(SN_MODULE_health) && !defined(SN_MODULE_watch) &&                 \
    !defined(SN_TESTS)
#error "private to src/lib/health (tests/layers/table)"
#endif

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>

#include "sn/health.h"

#include "../hw/hw-int.h"

/* Caps on what a probe trusts from the machine (or a fixture). */
#define HEALTH_MAX_PCI 4096   /* PCI functions enumerated */
#define HEALTH_MAX_DEPTH 16   /* bridges between a device and the root */
#define HEALTH_FILE_MAX 65536 /* one sysfs/procfs attribute */
#define HEALTH_PATH_MAX SN_HW_PATH_MAX

/* What a PCI function is for doctor. */
enum hpci_kind {
    HPCI_OTHER,
    HPCI_ACCEL,  /* GPU or other accelerator */
    HPCI_NIC,    /* Ethernet, InfiniBand or other network controller */
    HPCI_NVME,   /* NVMe controller */
    HPCI_BRIDGE, /* PCI bridge or PCIe port */
};

/* One PCI function as sysfs shows it. Link fields are 0 when the
 * attribute is absent (virtual devices, old kernels); AER counts are -1
 * when the kernel does not export them. */
struct hpci {
    char bdf[16]; /* "0000:17:00.0" */
    unsigned cls; /* class code, 0x030200 */
    unsigned vendor, device;
    enum hpci_kind kind;
    int numa_node; /* -1 when the firmware did not say */
    int parent;    /* index of the upstream bridge, -1 at a root bus */
    int depth;     /* PCI functions above it on the path */
    bool is_vf;    /* SR-IOV virtual function: no link of its own */
    double cur_speed, max_speed; /* GT/s per lane */
    int cur_width, max_width;    /* lanes */
    long long aer_cor, aer_nonfatal, aer_fatal;
    char aer_detail[256]; /* the non-zero AER counters by name */
    char slot[32];        /* physical slot name, "" when unknown */
    char ifname[64];      /* net interface, nvme controller, "" if none */
    char driver[32];
};

/* An NVIDIA GPU as NVML reports it, for the probes that name GPUs. */
struct hgpu {
    unsigned index; /* NVML index */
    char bdf[16];   /* sysfs form, "0000:17:00.0" */
    char name[96];
    char uuid[96];
    char vbios[64]; /* VBIOS version, "" when unknown */
    int pstate;     /* 0 (P0) .. 15, 32 when unknown */
    bool lost;      /* NVML says the GPU is lost or needs a reset */
    void *handle;   /* nvmlDevice_t */
};

/* What an XID code means and what to do (xid.c). */
struct hxid {
    unsigned code;
    const char *meaning;
    enum sn_health_status status;
    const char *remedy;
};

struct sn__hw_nvml; /* the loaded library (../hw/hw-int.h) */

/* The components whose versions the matrix constrains (versions.c). */
enum hver_component {
    HV_KERNEL,
    HV_DRIVER,
    HV_CUDA_DRIVER,
    HV_CUDA,
    HV_NCCL,
    HV_MPI,
    HV_BLAS,
    HV_BIOS,
    HV_NIC_FW,
    HV_GPU_VBIOS,
    HV_NVME_FW,
    HV_COUNT
};

#define HEALTH_MAX_VERSIONS 32 /* values of one component (per device) */

/* One component's version(s): one value, or one per device (firmware). */
struct hversion {
    const char *name; /* "nccl", "nic_firmware" */
    struct {
        char value[64];
        char subject[64]; /* the device, "" for the node */
    } vals[HEALTH_MAX_VERSIONS];
    int n;
    char source[160]; /* where the first value was read */
};

/* A probe run: the configuration, the report, the root, and what earlier
 * probes learnt that later ones reuse. */
struct hctx {
    const struct sn_health_config *cfg;
    struct sn_health_report *rep;
    char root[HEALTH_PATH_MAX]; /* "" for the live root, else no trailing / */
    struct hpci *pci;
    size_t npci;
    bool pci_done;
    struct sn__hw_nvml *nvml; /* NULL when NVML is not loaded */
    char nvml_skip[512];      /* why NVML is not loaded */
    struct hgpu *gpus;
    size_t ngpus;
    char driver_version[96]; /* from NVML, "" when unknown */
    int cuda_driver_version; /* 12040 = 12.4, 0 when unknown */
    struct hversion versions[HV_COUNT];
    bool versions_done;
};

/* ---- the probes' words (age.c) --------------------------------------------
 * Files under the root are read through ../hw/hw-int.h (sn__hw_read and
 * the like, with c->root). */

/* A duration for people: "45 min", "7 h", "10 days". */
void sn__health_fmt_age(double seconds, char *buf, size_t size);

/* ---- PCI (pci.c) --------------------------------------------------------- */

/* Enumerate sys/bus/pci/devices once per run into c->pci, sorted by
 * address. Returns SN_OK (an absent bus is an empty list) or SN_ENOMEM when
 * the device cap is hit. */
int sn__health_pci_scan(struct hctx *c, struct sn_error *err);
/* The device at an address ("0000:17:00.0"), or NULL. */
const struct hpci *sn__health_pci_find(const struct hctx *c, const char *bdf);
/* What a function with this class code (0x030200) and vendor is. */
enum hpci_kind sn__health_pci_classify(unsigned cls, unsigned vendor);
/* "gpu", "nic", "nvme", "bridge", "device". */
const char *sn__health_pci_kind_name(enum hpci_kind k);
/* A subject naming a device the way an operator finds it:
 * "0000:17:00.0 gpu 10de:2330 slot 3 (mlx5_0)". */
void sn__health_pci_subject(const struct hpci *d, char *buf, size_t size);
/* PCIe generation for a per-lane rate in GT/s (2.5 -> 1 ... 64 -> 6),
 * 0 when unknown. */
int sn__health_pcie_gen(double gts);

/* The GPU NVML knows at a PCI address, or NULL. */
const struct hgpu *sn__health_gpu_find(const struct hctx *c, const char *bdf);

/* ---- NVML (nvml.c) and XID codes (xid.c) -------------------------------- */

/* Load NVML (cfg->nvml_library), initialise it and list the GPUs into
 * c->gpus. A library that is absent or fails to initialise is not an
 * error: c->nvml stays NULL and c->nvml_skip says why. */
void sn__health_nvml_open(struct hctx *c);
void sn__health_nvml_close(struct hctx *c);
/* The entry for an XID code (an "uncommon XID" entry for others). */
const struct hxid *sn__health_xid(unsigned code);

/* ---- the kernel log (klog.c), shared with the node agent ------------------
 */

/* What one kernel log record says, for doctor and for the node agent's
 * kernel log collector (../watch/col-klog.c). */
enum hklog_kind {
    HKLOG_CONT,      /* a continuation line ("  KEY=value"): no record */
    HKLOG_NONE,      /* a record about none of the below */
    HKLOG_XID,       /* "NVRM: Xid (PCI:0000:17:00): 79, ..." */
    HKLOG_AER_COR,   /* "AER: Corrected error received: BDF" */
    HKLOG_AER_UNCOR, /* "AER: Uncorrected (...) error received: BDF" */
    HKLOG_LINK_DOWN, /* "Link Down", "Link down", "NIC Link is Down" */
    HKLOG_LIMITED,   /* "... limited by 8.0 GT/s PCIe x8 link at BDF" */
    HKLOG_OFFBUS,    /* "NVRM: GPU BDF: GPU has fallen off the bus." */
};

struct hklog_line {
    enum hklog_kind kind;
    char device[32];  /* the PCI address the line names ("0000:17:00.0",
                         an XID's GPU with function .0), "?" when none */
    unsigned xid;     /* the XID code; 0 otherwise */
    double t;         /* seconds after boot; 0 for an unstamped line */
    const char *text; /* the message, inside the record given */
};

/* Classify one record: "prio,seq,usec,flags;text" as /dev/kmsg gives it,
 * or a plain text line (dmesg output). Fills out and returns its kind.
 * One AER event is one "AER: ... received" line: the "PCIe Bus Error"
 * lines after it are HKLOG_NONE. An XID 79 line is HKLOG_XID; the
 * driver's own "fallen off the bus" line after it is HKLOG_OFFBUS. */
enum hklog_kind sn__health_klog_parse(const char *rec, struct hklog_line *out);
/* Read the live ring open at fd (non-blocking): one record per read(),
 * each handed to fn without its newline, until the ring's end (EAGAIN) or
 * more than max bytes were read; a record the ring overwrote under the
 * reader (EPIPE) is skipped. Returns the bytes read. */
size_t sn__health_kmsg_drain(int fd, size_t max,
                             void (*fn)(void *arg, const char *rec), void *arg);

/* The probes. */
int sn__health_probe_pcie(struct hctx *c, struct sn_error *err);
int sn__health_probe_nvml(struct hctx *c, struct sn_error *err);
int sn__health_probe_topo(struct hctx *c, struct sn_error *err);
int sn__health_probe_versions(struct hctx *c, struct sn_error *err);
int sn__health_probe_cpu(struct hctx *c, struct sn_error *err);
int sn__health_probe_klog(struct hctx *c, struct sn_error *err);
/* Read every component's version into c->versions. */
void sn__health_versions_read(struct hctx *c);

#endif
