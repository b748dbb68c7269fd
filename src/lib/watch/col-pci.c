/* col-pci.c: the node agent's PCI collector: every function on the bus
 * (for the missing-device rule) and the PCIe links and AER counters of
 * the accelerators, NICs and NVMe drives, read each interval through
 * the hardware layer's PCI scan (../hw/pci.c), doctor's too, so both see
 * the bus alike. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host-int.h"
#include "watch-int.h"

#include "../hw/hw-int.h"

struct pci_state {
    char root[SN_HW_PATH_MAX];
    struct hbus c; /* c.root is root */
};

static int pci_open(const struct sn__watch_cfg *cfg, void **state,
                    struct sn_error *err)
{
    struct pci_state *s = sn_xcalloc(1, sizeof(*s));
    int rc = sn__watch_root(cfg, s->root, sizeof(s->root), err);

    if (rc) {
        free(s);
        return rc;
    }
    s->c.root = s->root;
    *state = s;
    return SN_OK;
}

static void pci_close(void *state)
{
    struct pci_state *s = state;

    if (!s)
        return;
    free(s->c.pci);
    free(s);
}

/* The links the rules look at: what doctor checks, less the SR-IOV
 * virtual functions (no link of their own). */
static bool watched(const struct hpci *d)
{
    return !d->is_vf && (d->max_width > 0 || d->max_speed > 0) &&
           (d->kind == HPCI_ACCEL || d->kind == HPCI_NIC ||
            d->kind == HPCI_NVME);
}

static void add_link(const struct hpci *d, struct sn__watch_obs *obs,
                     struct sn_metrics *m, struct sn_error *err)
{
    const char *what = sn__hw_pci_kind_name(d->kind);
    struct sn_metrics_label l[] = {{"pci_bus_id", d->bdf}, {"device", what}};
    struct sn__watch_link *k = SN_WATCH_PUSH(obs, links);

    if (k) {
        k->kind = SN_WATCH_PCIE;
        sn_strlcpy(k->dev, d->bdf, sizeof(k->dev));
        sn_strlcpy(k->what, what, sizeof(k->what));
        /* 0 is "Unknown" in sysfs (a link down reads so) */
        k->speed = d->cur_speed > 0 ? d->cur_speed : NAN;
        k->max_speed = d->max_speed > 0 ? d->max_speed : NAN;
        k->width = d->cur_width;
        k->max_width = d->max_width;
        k->up = d->cur_width > 0;
        k->down_events = NAN;
    }
    if (d->cur_speed > 0)
        sn__watch_gauge(m, "supernode_pcie_link_speed_gts",
                        "PCIe link speed the device trained at, GT/s per "
                        "lane (sysfs current_link_speed)",
                        l, 2, d->cur_speed, err);
    if (d->max_speed > 0)
        sn__watch_gauge(m, "supernode_pcie_link_max_speed_gts",
                        "PCIe link speed the device supports, GT/s per lane "
                        "(sysfs max_link_speed)",
                        l, 2, d->max_speed, err);
    sn__watch_gauge(m, "supernode_pcie_link_width_lanes",
                    "PCIe lanes the link trained at; 0 is a link down "
                    "(sysfs current_link_width)",
                    l, 2, d->cur_width, err);
    if (d->max_width > 0)
        sn__watch_gauge(m, "supernode_pcie_link_max_width_lanes",
                        "PCIe lanes the device supports (sysfs "
                        "max_link_width)",
                        l, 2, d->max_width, err);
}

static void add_aer(const struct hpci *d, struct sn_metrics *m,
                    struct sn_error *err)
{
    const struct {
        const char *severity;
        long long v;
    } aer[] = {{"correctable", d->aer_cor},
               {"nonfatal", d->aer_nonfatal},
               {"fatal", d->aer_fatal}};

    for (size_t i = 0; i < SN_ARRAY_LEN(aer); i++) {
        struct sn_metrics_label l[] = {{"pci_bus_id", d->bdf},
                                       {"severity", aer[i].severity}};
        if (aer[i].v < 0)
            continue; /* the kernel does not export it */
        sn__watch_counter(m, "supernode_pcie_aer_errors_total",
                          "PCIe AER errors the device reported since boot "
                          "(sysfs aer_dev_correctable, aer_dev_nonfatal, "
                          "aer_dev_fatal: TOTAL_ERR_*)",
                          l, 2, (double)aer[i].v, err);
    }
}

static int pci_collect(void *state, struct sn__watch_obs *obs,
                       struct sn_metrics *m, struct sn_error *err)
{
    struct pci_state *s = state;
    struct sn_error e = {0};

    /* a fresh scan each interval: devices come and go (hot plug, a GPU
     * that fell off the bus) */
    free(s->c.pci);
    s->c.pci = NULL;
    s->c.npci = 0;
    s->c.pci_done = false;
    /* past the device cap what was read is still reported */
    sn__hw_pci_scan(&s->c, &e);
    for (size_t i = 0; i < s->c.npci; i++) {
        const struct hpci *d = &s->c.pci[i];
        struct sn__watch_pcidev *p = SN_WATCH_PUSH(obs, pci);

        if (p) {
            sn_strlcpy(p->bdf, d->bdf, sizeof(p->bdf));
            p->vendor = d->vendor;
            p->device = d->device;
            p->class_code = d->cls >> 8;
        }
        if (!watched(d))
            continue;
        add_link(d, obs, m, &e);
        add_aer(d, m, &e);
    }
    if (e.code && err)
        *err = e;
    return e.code;
}

const struct sn__watch_collector sn__watch_col_pci = {
    "pci",
    pci_open,
    pci_collect,
    pci_close,
};
