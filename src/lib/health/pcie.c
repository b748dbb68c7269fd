/* pcie.c: the physical layer first. For every accelerator, NIC and NVMe
 * device, and every PCIe link between it and the root port, the link's
 * current speed and width against what both of its ends support; and the
 * device's AER error counters. A link that trained down is the silent
 * fault the field meets most: it shows only as missing bandwidth. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "health-int.h"

static const char remedy_trained_down[] =
    "reseat the card and its riser or cable, look for dirt or bent pins, "
    "check the slot's BIOS settings (forced generation, bifurcation); "
    "compare LnkSta with LnkCap in `lspci -vv -s ADDRESS`; if it stays "
    "down after a reseat, swap slots to tell the card from the slot";

static const char remedy_gpu_idle[] =
    "GPUs lower their PCIe speed when idle to save power: read it again "
    "under load (`nvidia-smi -q -d PCI`); a lower speed under load is a "
    "trained-down link: reseat the card and its riser or cable";

static const char remedy_design_slot[] =
    "the slot or the port above it cannot run the link the design "
    "expects: move the card to a slot that can, or correct the spec's "
    "node.pcie";

static const char remedy_link_down[] =
    "the link is down: check that the device is powered and seated, read "
    "the kernel log for the moment it dropped, reseat or replace the "
    "card, riser or cable";

static const char remedy_aer_uncorrectable[] =
    "uncorrectable PCIe errors lose transactions: reseat the device and "
    "its riser or cable, update the device and BIOS firmware, and replace "
    "the part if they come back";

static const char remedy_aer_correctable[] =
    "correctable PCIe errors are link retries on a marginal link: compare "
    "the count with the next run; if it grows, reseat or clean the "
    "connector and check the riser or cable";

/* "Gen4 x16 (16.0 GT/s)" or "16.0 GT/s x16" when the rate is unusual. */
static void fmt_link(double speed, int width, char *buf, size_t size)
{
    int gen = sn__hw_pcie_gen(speed);

    if (gen)
        snprintf(buf, size, "Gen%d x%d (%.1f GT/s)", gen, width, speed);
    else if (speed > 0)
        snprintf(buf, size, "%.1f GT/s x%d", speed, width);
    else
        snprintf(buf, size, "unknown speed x%d", width);
}

static bool has_link(const struct hpci *d)
{
    return d->max_width > 0 || d->max_speed > 0;
}

/* Check the link above d (its own link attributes), whose far end is d's
 * parent; `below` is the endpoint whose path it lies on, or NULL when d is
 * that endpoint. */
static void check_link(struct hctx *c, const struct hpci *d,
                       const struct hpci *below)
{
    const struct hpci *p = d->parent >= 0 ? &c->pci[d->parent] : NULL;
    double cap_speed = d->max_speed;
    int cap_width = d->max_width;
    bool slot_limited = false;
    char subject[256], cur[64], cap[64], dev[64], ev[512];
    enum sn_health_status st = SN_HEALTH_PASS;
    const char *remedy = NULL;

    sn__hw_pci_subject(d, subject, sizeof(subject));
    if (below) {
        size_t n = strlen(subject);
        snprintf(subject + n, sizeof(subject) - n, " above %s %s",
                 sn__hw_pci_kind_name(below->kind), below->bdf);
    }
    /* the link runs at most at what the weaker end supports */
    if (p && has_link(p)) {
        if (p->max_speed > 0 && p->max_speed < cap_speed) {
            cap_speed = p->max_speed;
            slot_limited = true;
        }
        if (p->max_width > 0 && p->max_width < cap_width) {
            cap_width = p->max_width;
            slot_limited = true;
        }
    }
    fmt_link(d->cur_speed, d->cur_width, cur, sizeof(cur));
    fmt_link(cap_speed, cap_width, cap, sizeof(cap));
    if (d->cur_width == 0 && cap_width > 0) {
        st = SN_HEALTH_FAIL;
        remedy = remedy_link_down;
        snprintf(ev, sizeof(ev), "link down (width 0), capable of %s", cap);
    } else if (d->cur_width < cap_width) {
        st = SN_HEALTH_FAIL;
        remedy = remedy_trained_down;
        snprintf(ev, sizeof(ev), "trained down: %s, capable of %s", cur, cap);
    } else if (cap_speed > 0 && d->cur_speed < cap_speed * 0.99) {
        const struct hgpu *g = sn__health_gpu_find(c, d->bdf);
        if (d->kind == HPCI_ACCEL && g && g->pstate == 0) {
            /* in P0 the GPU runs at full speed: no power saving there */
            st = SN_HEALTH_FAIL;
            remedy = remedy_trained_down;
            snprintf(ev, sizeof(ev),
                     "trained down: %s in P0 (full performance), capable "
                     "of %s",
                     cur, cap);
        } else if (d->kind == HPCI_ACCEL) {
            char ps[16] = "";
            if (g && g->pstate >= 0 && g->pstate < 16)
                snprintf(ps, sizeof(ps), " in P%d", g->pstate);
            st = SN_HEALTH_WARN;
            remedy = remedy_gpu_idle;
            snprintf(ev, sizeof(ev),
                     "%s%s, capable of %s (idle power saving or trained "
                     "down)",
                     cur, ps, cap);
        } else {
            st = SN_HEALTH_FAIL;
            remedy = remedy_trained_down;
            snprintf(ev, sizeof(ev), "trained down: %s, capable of %s", cur,
                     cap);
        }
    } else {
        snprintf(ev, sizeof(ev), "%s at its maximum", cur);
    }
    if (slot_limited) {
        size_t n = strlen(ev);
        fmt_link(d->max_speed, d->max_width, dev, sizeof(dev));
        snprintf(ev + n, sizeof(ev) - n,
                 "; the device supports %s, the port above it less", dev);
    }
    /* the design's expectation for this kind of device */
    if (!below && c->cfg->node) {
        const struct sn_health_node *w = c->cfg->node;
        const struct sn_health_pcie_want *want =
            d->kind == HPCI_ACCEL ? &w->pcie_accel
            : d->kind == HPCI_NIC ? &w->pcie_nic
                                  : &w->pcie_nvme;
        int gen = sn__hw_pcie_gen(d->cur_speed);
        if ((want->gen && gen < want->gen) ||
            (want->width && d->cur_width < want->width)) {
            size_t n = strlen(ev);
            snprintf(ev + n, sizeof(ev) - n, "; the design expects Gen%d x%d",
                     want->gen, want->width);
            if (st != SN_HEALTH_FAIL) {
                st = SN_HEALTH_FAIL;
                remedy =
                    slot_limited ? remedy_design_slot : remedy_trained_down;
            }
        }
    }
    sn_health_report_add(c->rep, "pcie.link", st, subject, remedy, "%s", ev);
}

static void check_aer(struct hctx *c, const struct hpci *d)
{
    char subject[256];
    enum sn_health_status st = SN_HEALTH_PASS;
    const char *remedy = NULL;

    sn__hw_pci_subject(d, subject, sizeof(subject));
    if (d->aer_fatal > 0 || d->aer_nonfatal > 0) {
        st = SN_HEALTH_FAIL;
        remedy = remedy_aer_uncorrectable;
    } else if (d->aer_cor > 0) {
        st = SN_HEALTH_WARN;
        remedy = remedy_aer_correctable;
    }
    sn_health_report_add(c->rep, "pcie.aer", st, subject, remedy,
                         "correctable %lld, non-fatal %lld, fatal %lld%s%s",
                         d->aer_cor < 0 ? 0 : d->aer_cor,
                         d->aer_nonfatal < 0 ? 0 : d->aer_nonfatal,
                         d->aer_fatal < 0 ? 0 : d->aer_fatal,
                         d->aer_detail[0] ? ": " : "", d->aer_detail);
}

static bool checked_kind(enum hpci_kind k)
{
    return k == HPCI_ACCEL || k == HPCI_NIC || k == HPCI_NVME;
}

int sn__health_probe_pcie(struct hctx *c, struct sn_error *err)
{
    bool *seen = NULL;
    size_t ndev = 0, naer = 0;
    int rc;

    rc = sn__health_pci_scan(c, err);
    if (rc)
        return rc;
    seen = sn_xcalloc(c->npci ? c->npci : 1, sizeof(*seen));
    for (size_t i = 0; i < c->npci; i++) {
        const struct hpci *d = &c->pci[i];
        char subject[256];

        if (!checked_kind(d->kind) || d->is_vf)
            continue;
        ndev++;
        if (!has_link(d)) {
            sn__hw_pci_subject(d, subject, sizeof(subject));
            sn_health_report_add(c->rep, "pcie.link", SN_HEALTH_SKIP, subject,
                                 NULL,
                                 "no link speed or width in sysfs "
                                 "(a virtual or non-PCIe device)");
        } else {
            check_link(c, d, NULL);
        }
        /* every link between the device and its root port: upstream-
         * facing ports (a switch's upstream port) sit at odd depths and
         * their attributes describe the link above them */
        for (int a = d->parent, hops = 0; a >= 0 && hops < HEALTH_MAX_DEPTH;
             a = c->pci[a].parent, hops++) {
            const struct hpci *up = &c->pci[a];
            if (seen[a] || up->depth % 2 == 0 || !has_link(up))
                continue;
            seen[a] = true;
            check_link(c, up, d);
        }
        if (d->aer_cor >= 0 || d->aer_nonfatal >= 0 || d->aer_fatal >= 0) {
            check_aer(c, d);
            naer++;
        }
    }
    if (ndev == 0)
        sn_health_report_add(c->rep, "pcie.link", SN_HEALTH_SKIP, "node", NULL,
                             "no accelerator, NIC or NVMe device on the "
                             "PCI bus");
    else if (naer == 0)
        sn_health_report_add(c->rep, "pcie.aer", SN_HEALTH_SKIP, "node", NULL,
                             "no AER counters in sysfs (kernel without "
                             "AER, or errors handled by firmware)");
    free(seen);
    return SN_OK;
}
