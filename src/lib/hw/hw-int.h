/* hw-int.h: the one layer through which the library reads the machine:
 * files under a configurable root (sysfs, procfs; a fixture tree in a
 * test, hwloc's HWLOC_FSROOT idea), the PCI bus and the kernel log read
 * there, and NVML loaded with dlopen(). Doctor's probes (src/lib/health/),
 * bench's state samples (src/lib/bench/) and the node agent all read
 * through here. Not part of the public API. */
#ifndef SN_HW_INT_H
#define SN_HW_INT_H

#if !defined(SN_MODULE_hw) && !defined(SN_MODULE_bench) &&                     \
    !defined(SN_MODULE_health) && !defined(SN_MODULE_watch) &&                 \
    !defined(SN_TESTS)
#error "private to src/lib/hw (tests/layers/table)"
#endif

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sn/util.h"

#include "nvml-api.h"

#define SN_HW_PATH_MAX 4096
/* Caps on what is trusted from the machine (or a fixture). */
#define SN_HW_MAX_PCI 4096   /* PCI functions enumerated */
#define SN_HW_MAX_DEPTH 16   /* bridges between a device and the root */
#define SN_HW_FILE_MAX 65536 /* one sysfs/procfs attribute */

/* ---- files under a root (fs.c) ------------------------------------------ */

/* A root is a directory path without a trailing slash, or "" (or NULL)
 * for the live machine; rel is a path under it, with or without its
 * leading slash ("sys/bus/pci/devices"). No read blocks: a FIFO or device
 * where an attribute should be is not read (sn_read_attr). */

/* The path of rel under root, in buf. Returns buf, or NULL when it does
 * not fit. */
char *sn__hw_path(const char *root, const char *rel, char *buf, size_t size);
/* Read a small attribute into buf, trailing whitespace removed, invalid
 * bytes and control characters escaped (line breaks kept; a NUL inside is
 * escaped too, and the value must then fit escaped). Returns 0, or -1
 * when missing, unreadable or larger than size - 1. */
int sn__hw_read(const char *root, const char *rel, char *buf, size_t size);
/* Read a whole file (at most max bytes) into a heap buffer the caller
 * frees; NULL when missing or unreadable. */
char *sn__hw_read_all(const char *root, const char *rel, size_t max,
                      size_t *len);
/* From <root>/proc/<pid>/stat: the state letter ('R', 'S', 'D', 'Z',
 * ...) and the start time in seconds since boot. Returns 0, or -1 when
 * the process does not exist under the root (or its stat is not one). */
int sn__hw_proc_stat(const char *root, unsigned pid, char *state,
                     double *start);
/* An attribute that is one whole number (decimal, or hex with 0x) and
 * nothing else. */
int sn__hw_read_long(const char *root, const char *rel, long long *out);
/* An attribute that starts with a number: "32768K" gives 32768, with
 * "K" in suffix when suffix is not NULL. */
int sn__hw_read_double(const char *root, const char *rel, double *out,
                       char *suffix, size_t suffix_size);
/* opendir() under the root; NULL when absent. */
DIR *sn__hw_opendir(const char *root, const char *rel);
/* readlink() under the root: 0 and a NUL-terminated, escaped target. */
int sn__hw_readlink(const char *root, const char *rel, char *buf, size_t size);
/* Whether rel exists under the root (a dangling link counts). */
bool sn__hw_exists(const char *root, const char *rel);

/* ---- the PCI bus (pci.c) ---------------------------------------------------
 * Doctor's probes and the node agent's collector read the same scan. */

/* What a PCI function is. */
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

/* The PCI functions under a root. The caller sets root (and zeroes the
 * rest) and frees pci. */
struct hbus {
    const char *root; /* "" or NULL for the live machine */
    struct hpci *pci; /* sorted by address */
    size_t npci;
    bool pci_done; /* scanned: a second scan reads nothing */
};

/* Enumerate sys/bus/pci/devices once into c->pci, sorted by address.
 * Returns SN_OK (an absent bus is an empty list) or SN_ENOMEM when the
 * device cap is hit (the functions listed so far are kept). */
int sn__hw_pci_scan(struct hbus *c, struct sn_error *err);
/* The device at an address ("0000:17:00.0"), or NULL. */
const struct hpci *sn__hw_pci_find(const struct hbus *c, const char *bdf);
/* What a function with this class code (0x030200) and vendor is. */
enum hpci_kind sn__hw_pci_classify(unsigned cls, unsigned vendor);
/* "gpu", "nic", "nvme", "bridge", "device". */
const char *sn__hw_pci_kind_name(enum hpci_kind k);
/* A subject naming a device the way an operator finds it:
 * "0000:17:00.0 gpu 10de:2330 slot 3 (mlx5_0)". */
void sn__hw_pci_subject(const struct hpci *d, char *buf, size_t size);
/* PCIe generation for a per-lane rate in GT/s (2.5 -> 1 ... 64 -> 6),
 * 0 when unknown. */
int sn__hw_pcie_gen(double gts);

/* ---- the kernel log (klog.c) ------------------------------------------------
 * Records as <root>/dev/kmsg gives them, for doctor's kernel log probe
 * and the node agent's collector. */

/* What one kernel log record says. */
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
enum hklog_kind sn__hw_klog_parse(const char *rec, struct hklog_line *out);
/* Read the live ring open at fd (non-blocking): one record per read(),
 * each handed to fn without its newline, until the ring's end (EAGAIN) or
 * more than max bytes were read; a record the ring overwrote under the
 * reader (EPIPE) is skipped. Returns the bytes read. */
size_t sn__hw_kmsg_drain(int fd, size_t max,
                         void (*fn)(void *arg, const char *rec), void *arg);

/* ---- NVML (nvml.c) --------------------------------------------------------
 */

/* The library's entry points. Init, Shutdown, GetCount and GetHandle are
 * always bound in an opened library; any other may be NULL (an older
 * driver, a fake): its reading is then skipped. */
struct sn__hw_nvml {
    void *lib;
    nvmlReturn_t (*Init)(void);
    nvmlReturn_t (*Shutdown)(void);
    nvmlReturn_t (*GetCount)(unsigned *);
    nvmlReturn_t (*GetHandle)(unsigned, nvmlDevice_t *);
    nvmlReturn_t (*GetHandleByPci)(const char *, nvmlDevice_t *);
    const char *(*ErrorString)(nvmlReturn_t);
    nvmlReturn_t (*DriverVersion)(char *, unsigned);
    nvmlReturn_t (*CudaDriverVersion)(int *);
    nvmlReturn_t (*Name)(nvmlDevice_t, char *, unsigned);
    nvmlReturn_t (*Uuid)(nvmlDevice_t, char *, unsigned);
    nvmlReturn_t (*Vbios)(nvmlDevice_t, char *, unsigned);
    nvmlReturn_t (*PciInfo)(nvmlDevice_t, nvmlPciInfo_t *);
    nvmlReturn_t (*Pstate)(nvmlDevice_t, int *);
    nvmlReturn_t (*EccMode)(nvmlDevice_t, int *, int *);
    nvmlReturn_t (*EccTotal)(nvmlDevice_t, int, int, unsigned long long *);
    nvmlReturn_t (*RetiredPages)(nvmlDevice_t, int, unsigned *,
                                 unsigned long long *);
    nvmlReturn_t (*RetiredPending)(nvmlDevice_t, int *);
    nvmlReturn_t (*RemappedRows)(nvmlDevice_t, unsigned *, unsigned *,
                                 unsigned *, unsigned *);
    nvmlReturn_t (*Reasons)(nvmlDevice_t, unsigned long long *);
    nvmlReturn_t (*PowerLimit)(nvmlDevice_t, unsigned *);
    nvmlReturn_t (*PowerEnforced)(nvmlDevice_t, unsigned *);
    nvmlReturn_t (*PowerDefault)(nvmlDevice_t, unsigned *);
    nvmlReturn_t (*PowerConstraints)(nvmlDevice_t, unsigned *, unsigned *);
    nvmlReturn_t (*PowerUsage)(nvmlDevice_t, unsigned *);
    nvmlReturn_t (*Energy)(nvmlDevice_t, unsigned long long *);
    nvmlReturn_t (*Clock)(nvmlDevice_t, int, unsigned *);
    nvmlReturn_t (*MaxClock)(nvmlDevice_t, int, unsigned *);
    nvmlReturn_t (*Temperature)(nvmlDevice_t, int, unsigned *);
    nvmlReturn_t (*TempThreshold)(nvmlDevice_t, int, unsigned *);
    nvmlReturn_t (*NvLinkState)(nvmlDevice_t, unsigned, int *);
    nvmlReturn_t (*NvLinkErrors)(nvmlDevice_t, unsigned, int,
                                 unsigned long long *);
    /* the entries' layout depends on the driver: health/nvml.c reads
     * them by offset */
    nvmlReturn_t (*Processes)(nvmlDevice_t, unsigned *, void *);
    nvmlReturn_t (*ProcessUtil)(nvmlDevice_t, nvmlProcessUtilizationSample_t *,
                                unsigned *, unsigned long long);
    nvmlReturn_t (*Utilization)(nvmlDevice_t, nvmlUtilization_t *);
    nvmlReturn_t (*EventCreate)(nvmlEventSet_t *);
    nvmlReturn_t (*EventRegister)(nvmlDevice_t, unsigned long long,
                                  nvmlEventSet_t);
    nvmlReturn_t (*EventWait)(nvmlEventSet_t, nvmlEventData_t *, unsigned);
    nvmlReturn_t (*EventFree)(nvmlEventSet_t);
    nvmlReturn_t (*MemoryInfo)(nvmlDevice_t, nvmlMemory_t *);
    nvmlReturn_t (*PcieReplays)(nvmlDevice_t, unsigned *);
    /* setters (clocks.c); root, or NVML_ERROR_NO_PERMISSION */
    nvmlReturn_t (*SetGpuLocked)(nvmlDevice_t, unsigned, unsigned);
    nvmlReturn_t (*ResetGpuLocked)(nvmlDevice_t);
    nvmlReturn_t (*SetMemLocked)(nvmlDevice_t, unsigned, unsigned);
    nvmlReturn_t (*ResetMemLocked)(nvmlDevice_t);
    nvmlReturn_t (*SupportedMem)(nvmlDevice_t, unsigned *, unsigned *);
    nvmlReturn_t (*SupportedGfx)(nvmlDevice_t, unsigned, unsigned *,
                                 unsigned *);
    nvmlReturn_t (*SetPowerLimit)(nvmlDevice_t, unsigned);
};

/* dlopen() the library at path (a name on the loader path or a file),
 * bind its entry points (the newest names first, the older ones as
 * fallback) and initialise it. Returns the library, or NULL with why
 * filled ("NVML not loaded (turned off)" for a NULL or empty path). */
struct sn__hw_nvml *sn__hw_nvml_open(const char *path, char *why,
                                     size_t why_size);
/* nvmlShutdown and dlclose; NULL does nothing. */
void sn__hw_nvml_close(struct sn__hw_nvml *n);
/* NVML's words for an error, or "NVML error N" (into buf). */
const char *sn__hw_nvml_error(const struct sn__hw_nvml *n, nvmlReturn_t r,
                              char *buf, size_t size);
/* "00000000:17:00.0" (NVML) -> "0000:17:00.0" (sysfs), lower case. */
void sn__hw_bdf_from_nvml(const char *bus, char *out, size_t size);

/* The volatile (counter NVML_VOLATILE_ECC: since the driver loaded) or
 * aggregate (NVML_AGGREGATE_ECC: the GPU's life) ECC error counts of dev.
 * Returns NVML's first failing answer; NVML_ERROR_FUNCTION_NOT_FOUND
 * without the entry point. */
nvmlReturn_t sn__hw_nvml_ecc(const struct sn__hw_nvml *n, nvmlDevice_t dev,
                             int counter, unsigned long long *corrected,
                             unsigned long long *uncorrected);

/* A compute process holding memory on a GPU. */
struct sn__hw_gpu_proc {
    unsigned pid;
    unsigned long long mem_bytes;
};

/* The compute processes holding memory on dev, at most max of them, in a
 * heap array *out the caller frees (NULL when none could be read).
 * Returns NVML's answer (NVML_ERROR_FUNCTION_NOT_FOUND without the entry
 * point); *count is the number NVML listed (cut to max) and *stride the
 * entry size the library wrote: 16, 24 or 32 bytes, or 0 when it is none
 * of those (then *out is NULL and *count still what NVML listed). */
nvmlReturn_t sn__hw_nvml_processes(const struct sn__hw_nvml *n,
                                   nvmlDevice_t dev, unsigned max,
                                   struct sn__hw_gpu_proc **out,
                                   unsigned *count, size_t *stride);

/* The per-process utilisation samples the driver keeps (the last few
 * seconds), at most max, in a heap array *out the caller frees; *count
 * of them (0, *out NULL, when there are none or they cannot be read). */
void sn__hw_nvml_process_util(const struct sn__hw_nvml *n, nvmlDevice_t dev,
                              unsigned max,
                              nvmlProcessUtilizationSample_t **out,
                              unsigned *count);

/* What changes from second to second on a GPU; NaN where NVML could not
 * say. */
struct sn__hw_gpu_sample {
    double sm_clock_hz, mem_clock_hz;
    double temp_c;
    double power_w;
    double energy_j;   /* since the driver loaded */
    uint64_t reasons;  /* clock event (throttle) reason bits */
    bool reasons_read; /* reasons holds NVML's answer (0 = none) */
};

/* Sample one GPU. Returns the number of fields read (0: none). */
int sn__hw_nvml_sample(const struct sn__hw_nvml *n, nvmlDevice_t dev,
                       struct sn__hw_gpu_sample *s);

/* ---- clocks and power limits (clocks.c) ----------------------------------
 * Locking a GPU's clocks and setting its power limit change the machine
 * for every process on it, so what is changed is recorded in a hold and
 * undone with sn__hw_clocks_restore(). NVML has no call that reads locked
 * clocks back: a restore resets them to the driver's default (unlocked),
 * and puts back the power limit read before the first change. */

#define SN_HW_CLOCKS_MAX 256 /* supported clocks kept per list */

/* What was changed on one GPU. Zero-initialised is an empty hold. */
struct sn__hw_clock_hold {
    nvmlDevice_t dev;
    bool sm_locked, mem_locked; /* reset these on restore */
    unsigned sm_mhz, mem_mhz;   /* the clocks held */
    bool power_set;             /* put power_before_mw back */
    unsigned power_before_mw, power_mw;
};

/* The clocks a lock may ask for on dev: the memory clocks, and the SM
 * (graphics) clocks at memory clock mem_mhz, each at most
 * SN_HW_CLOCKS_MAX, highest first (NVML's order). Returns NVML's answer
 * (NVML_ERROR_FUNCTION_NOT_FOUND without the entry points). */
nvmlReturn_t sn__hw_clocks_supported(const struct sn__hw_nvml *n,
                                     nvmlDevice_t dev, unsigned mem_mhz,
                                     unsigned *mem, unsigned *nmem,
                                     unsigned *sm, unsigned *nsm);
/* Resolve a request to clocks dev supports: *mem_mhz 0 asks for the
 * highest memory clock, *sm_mhz 0 for the highest SM clock at that
 * memory clock. NVML_ERROR_INVALID_ARGUMENT when a clock asked for is not
 * supported, with why naming it and the ones that are; other NVML
 * answers with why filled. */
nvmlReturn_t sn__hw_clocks_pick(const struct sn__hw_nvml *n, nvmlDevice_t dev,
                                unsigned *sm_mhz, unsigned *mem_mhz, char *why,
                                size_t why_size);
/* Lock dev's memory and SM clocks at mem_mhz and sm_mhz (min = max),
 * recording it in h. On failure what was locked is reset again. Returns
 * NVML's answer (NVML_ERROR_NO_PERMISSION when not root). */
nvmlReturn_t sn__hw_clocks_lock(const struct sn__hw_nvml *n, nvmlDevice_t dev,
                                unsigned sm_mhz, unsigned mem_mhz,
                                struct sn__hw_clock_hold *h);
/* Set dev's power limit to mw, after reading the limit it had (once per
 * hold) and checking mw against the limit's constraints
 * (NVML_ERROR_INVALID_ARGUMENT outside them). */
nvmlReturn_t sn__hw_power_limit_set(const struct sn__hw_nvml *n,
                                    nvmlDevice_t dev, unsigned mw,
                                    struct sn__hw_clock_hold *h);
/* The clocks dev runs at now, MHz (0 where NVML cannot say). */
void sn__hw_clocks_now(const struct sn__hw_nvml *n, nvmlDevice_t dev,
                       unsigned *sm_mhz, unsigned *mem_mhz);
/* Undo what h holds: reset locked clocks, put the power limit back. Each
 * step is tried; returns the first failing answer, and h is empty after.
 * An empty hold does nothing. */
nvmlReturn_t sn__hw_clocks_restore(const struct sn__hw_nvml *n,
                                   struct sn__hw_clock_hold *h);

#endif
