/* health-int.h: what the probes of src/lib/health/ share: the probe
 * context and the PCI device list every probe names devices from. They
 * read the machine (the PCI bus and the kernel log among it) through the
 * hardware layer (../hw/hw-int.h), which this header brings in. Not part
 * of the public API. */
#ifndef SN_HEALTH_INT_H
#define SN_HEALTH_INT_H

#if !defined(SN_MODULE_health) && !defined(SN_TESTS)
#error "private to src/lib/health (tests/layers/table)"
#endif

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>

#include "sn/health.h"

#include "../hw/hw-int.h"

/* Caps on what a probe trusts from the machine (or a fixture). */
#define HEALTH_MAX_DEPTH SN_HW_MAX_DEPTH /* bridges, device to root */
#define HEALTH_FILE_MAX SN_HW_FILE_MAX   /* one sysfs/procfs attribute */
#define HEALTH_PATH_MAX SN_HW_PATH_MAX

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

/* ---- PCI (../hw/pci.c) ---------------------------------------------------
 * The probes name devices from one scan per run (health.c). */

/* Scan the bus under c->root once per run into c->pci
 * (sn__hw_pci_scan). */
int sn__health_pci_scan(struct hctx *c, struct sn_error *err);
/* The device at an address ("0000:17:00.0") in c->pci, or NULL. */
const struct hpci *sn__health_pci_find(const struct hctx *c, const char *bdf);

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
