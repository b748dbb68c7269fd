/* pci.c: the PCI functions of a node as sysfs shows them under the root:
 * class, ids, NUMA node, link speed and width, AER counters, slot, and the
 * bridge each hangs from (read from the device link's target path, the
 * same tree `lspci -t` draws). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw-int.h"

#define PCI_DIR "sys/bus/pci/devices"

/* "0000:17:00.0": domain, bus, device, function in hex. */
static bool is_bdf(const char *s)
{
    static const char shape[] = "xxxx:xx:xx.x";

    if (strlen(s) != sizeof(shape) - 1)
        return false;
    for (size_t i = 0; shape[i]; i++) {
        if (shape[i] == 'x' ? !isxdigit((unsigned char)s[i]) : s[i] != shape[i])
            return false;
    }
    return true;
}

enum hpci_kind sn__hw_pci_classify(unsigned cls, unsigned vendor)
{
    unsigned base = cls >> 16, sub = (cls >> 8) & 0xff, prog = cls & 0xff;

    if (base == 0x06 && sub == 0x04)
        return HPCI_BRIDGE;
    if (base == 0x02)
        return HPCI_NIC;
    if (base == 0x01 && sub == 0x08 && prog == 0x02)
        return HPCI_NVME;
    /* 3D and "other" display controllers are compute GPUs; a VGA
     * controller counts only from a GPU vendor (servers carry a BMC VGA). */
    if (base == 0x03 && (sub == 0x02 || sub == 0x80))
        return HPCI_ACCEL;
    if (base == 0x03 && sub == 0x00 && (vendor == 0x10de || vendor == 0x1002))
        return HPCI_ACCEL;
    /* processing accelerators (class 0x12) and co-processors (0x0b40) */
    if (base == 0x12 || (base == 0x0b && sub == 0x40))
        return HPCI_ACCEL;
    return HPCI_OTHER;
}

const char *sn__hw_pci_kind_name(enum hpci_kind k)
{
    switch (k) {
    case HPCI_ACCEL:
        return "gpu";
    case HPCI_NIC:
        return "nic";
    case HPCI_NVME:
        return "nvme";
    case HPCI_BRIDGE:
        return "bridge";
    default:
        return "device";
    }
}

int sn__hw_pcie_gen(double gts)
{
    static const double rate[] = {2.5, 5.0, 8.0, 16.0, 32.0, 64.0};

    for (size_t i = 0; i < SN_ARRAY_LEN(rate); i++)
        if (gts > rate[i] * 0.9 && gts < rate[i] * 1.1)
            return (int)i + 1;
    return 0;
}

/* "16.0 GT/s PCIe", "8 GT/s", "Unknown" -> GT/s or 0. */
static double parse_speed(const char *s)
{
    char *end;
    double v = strtod(s, &end);

    if (end == s || v <= 0 || v > 1000)
        return 0;
    return v;
}

static int read_speed(const struct hbus *c, const char *bdf, const char *attr,
                      double *out)
{
    char rel[256], buf[64];

    snprintf(rel, sizeof(rel), PCI_DIR "/%s/%s", bdf, attr);
    if (sn__hw_read(c->root, rel, buf, sizeof(buf)))
        return -1;
    *out = parse_speed(buf);
    return 0;
}

static void read_width(const struct hbus *c, const char *bdf, const char *attr,
                       int *out)
{
    char rel[256];
    long long v;

    snprintf(rel, sizeof(rel), PCI_DIR "/%s/%s", bdf, attr);
    if (sn__hw_read_long(c->root, rel, &v) == 0 && v >= 0 && v <= 32)
        *out = (int)v;
}

/* One AER file: "RxErr 0\nBadTLP 3\n...TOTAL_ERR_COR 3". Returns the
 * total (the TOTAL_ line when present, else the sum) or -1 when absent,
 * and appends "BadTLP=3" for every non-zero counter to detail. */
static long long read_aer(const struct hbus *c, const char *bdf,
                          const char *attr, char *detail, size_t size)
{
    char rel[256];
    char *text, *line, *save = NULL;
    long long sum = 0, total = -1;

    snprintf(rel, sizeof(rel), PCI_DIR "/%s/%s", bdf, attr);
    text = sn__hw_read_all(c->root, rel, SN_HW_FILE_MAX, NULL);
    if (!text)
        return -1;
    for (save = text; (line = sn_tok_next(&save, '\n'));) {
        char name[64], *end;
        long long v;
        int at = 0;
        /* the kernel's counters are u64 (%llu): read as unsigned, with no
         * sign, and past LLONG_MAX held there; so is the sum */
        if (sscanf(line, "%63s %n", name, &at) != 1 || !at ||
            !isdigit((unsigned char)line[at]))
            continue;
        errno = 0;
        unsigned long long u = strtoull(line + at, &end, 10);
        v = errno == ERANGE || u > (unsigned long long)LLONG_MAX ? LLONG_MAX
                                                                 : (long long)u;
        if (sn_startswith(name, "TOTAL_")) {
            total = v;
            continue;
        }
        sum = v > LLONG_MAX - sum ? LLONG_MAX : sum + v;
        if (v > 0) {
            size_t len = strlen(detail);
            snprintf(detail + len, size - len, "%s%s=%lld", len ? " " : "",
                     name, v);
        }
    }
    free(text);
    return total >= 0 ? total : sum;
}

/* The first entry of a device's subdirectory (net/eth0, nvme/nvme0). */
static void first_entry(const struct hbus *c, const char *bdf, const char *sub,
                        char *buf, size_t size)
{
    char rel[256];
    DIR *d;
    struct dirent *e;
    char best[64] = "";

    snprintf(rel, sizeof(rel), PCI_DIR "/%s/%s", bdf, sub);
    d = sn__hw_opendir(c->root, rel);
    if (!d)
        return;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        /* the smallest name, so the choice does not depend on readdir */
        if (!best[0] || strcmp(e->d_name, best) < 0)
            sn_strlcpy(best, e->d_name, sizeof(best));
    }
    closedir(d);
    if (best[0])
        sn_strlcpy(buf, best, size);
}

/* A virtio NIC keeps its interface one level down: virtioN/net/eth0. */
static void virtio_net(const struct hbus *c, struct hpci *d)
{
    char rel[256];
    DIR *dir;
    struct dirent *e;

    snprintf(rel, sizeof(rel), PCI_DIR "/%s", d->bdf);
    dir = sn__hw_opendir(c->root, rel);
    if (!dir)
        return;
    while ((e = readdir(dir)) && !d->ifname[0]) {
        char sub[128];
        if (!sn_startswith(e->d_name, "virtio") || strlen(e->d_name) > 32)
            continue;
        snprintf(sub, sizeof(sub), "%.32s/net", e->d_name);
        first_entry(c, d->bdf, sub, d->ifname, sizeof(d->ifname));
    }
    closedir(dir);
}

/* Fill the parent's address and the depth from the link target
 * "../../../devices/pci0000:00/0000:00:01.0/0000:17:00.0". */
static void read_path(const struct hbus *c, struct hpci *d, char *parent,
                      size_t psize)
{
    char rel[256], target[SN_HW_PATH_MAX];
    char *tok, *save = NULL;
    char prev[16] = "";
    int n = 0;

    parent[0] = '\0';
    snprintf(rel, sizeof(rel), PCI_DIR "/%s", d->bdf);
    if (sn__hw_readlink(c->root, rel, target, sizeof(target)))
        return; /* a plain directory (hand-made tree): no hierarchy */
    for (save = target; (tok = sn_tok_next(&save, '/'));) {
        if (!is_bdf(tok))
            continue;
        if (strcmp(tok, d->bdf) == 0)
            break;
        sn_strlcpy(prev, tok, sizeof(prev));
        n++;
    }
    d->depth = n > SN_HW_MAX_DEPTH ? SN_HW_MAX_DEPTH : n;
    sn_strlcpy(parent, prev, psize);
}

static void read_device(const struct hbus *c, struct hpci *d, char *parent,
                        size_t psize)
{
    char rel[256], buf[SN_HW_PATH_MAX];
    long long v;
    const char *slash;

    d->numa_node = -1;
    d->parent = -1;
    d->aer_cor = d->aer_nonfatal = d->aer_fatal = -1;
    snprintf(rel, sizeof(rel), PCI_DIR "/%s/class", d->bdf);
    if (sn__hw_read_long(c->root, rel, &v) == 0)
        d->cls = (unsigned)v & 0xffffff;
    snprintf(rel, sizeof(rel), PCI_DIR "/%s/vendor", d->bdf);
    if (sn__hw_read_long(c->root, rel, &v) == 0)
        d->vendor = (unsigned)v & 0xffff;
    snprintf(rel, sizeof(rel), PCI_DIR "/%s/device", d->bdf);
    if (sn__hw_read_long(c->root, rel, &v) == 0)
        d->device = (unsigned)v & 0xffff;
    snprintf(rel, sizeof(rel), PCI_DIR "/%s/numa_node", d->bdf);
    if (sn__hw_read_long(c->root, rel, &v) == 0 && v >= 0 && v < 4096)
        d->numa_node = (int)v;
    d->kind = sn__hw_pci_classify(d->cls, d->vendor);
    snprintf(rel, sizeof(rel), PCI_DIR "/%s/physfn", d->bdf);
    d->is_vf = sn__hw_exists(c->root, rel);

    read_speed(c, d->bdf, "current_link_speed", &d->cur_speed);
    read_speed(c, d->bdf, "max_link_speed", &d->max_speed);
    read_width(c, d->bdf, "current_link_width", &d->cur_width);
    read_width(c, d->bdf, "max_link_width", &d->max_width);

    d->aer_cor = read_aer(c, d->bdf, "aer_dev_correctable", d->aer_detail,
                          sizeof(d->aer_detail));
    d->aer_nonfatal = read_aer(c, d->bdf, "aer_dev_nonfatal", d->aer_detail,
                               sizeof(d->aer_detail));
    d->aer_fatal = read_aer(c, d->bdf, "aer_dev_fatal", d->aer_detail,
                            sizeof(d->aer_detail));

    if (d->kind == HPCI_NIC) {
        first_entry(c, d->bdf, "infiniband", d->ifname, sizeof(d->ifname));
        if (!d->ifname[0])
            first_entry(c, d->bdf, "net", d->ifname, sizeof(d->ifname));
        if (!d->ifname[0])
            virtio_net(c, d);
    } else if (d->kind == HPCI_NVME) {
        first_entry(c, d->bdf, "nvme", d->ifname, sizeof(d->ifname));
    }
    snprintf(rel, sizeof(rel), PCI_DIR "/%s/driver", d->bdf);
    if (sn__hw_readlink(c->root, rel, buf, sizeof(buf)) == 0) {
        slash = strrchr(buf, '/');
        sn_strlcpy(d->driver, slash ? slash + 1 : buf, sizeof(d->driver));
    }
    read_path(c, d, parent, psize);
}

/* Physical slots: sys/bus/pci/slots/NAME/address holds "0000:17:00"
 * (domain:bus:device, every function of the device sits in the slot). */
static void read_slots(struct hbus *c)
{
    DIR *d = sn__hw_opendir(c->root, "sys/bus/pci/slots");
    struct dirent *e;

    if (!d)
        return;
    while ((e = readdir(d))) {
        char rel[512], addr[64];
        if (e->d_name[0] == '.' || strlen(e->d_name) >= 32)
            continue;
        snprintf(rel, sizeof(rel), "sys/bus/pci/slots/%s/address", e->d_name);
        if (sn__hw_read(c->root, rel, addr, sizeof(addr)) || strlen(addr) != 10)
            continue;
        for (size_t i = 0; i < c->npci; i++) {
            struct hpci *p = &c->pci[i];
            /* several slot entries can claim a device (hotplug and ACPI
             * both register one); keep the smallest name for stability */
            if (strncmp(p->bdf, addr, 10) == 0 &&
                (!p->slot[0] || strcmp(e->d_name, p->slot) < 0))
                sn_strlcpy(p->slot, e->d_name, sizeof(p->slot));
        }
    }
    closedir(d);
}

static int cmp_bdf(const void *a, const void *b)
{
    return strcmp(((const struct hpci *)a)->bdf, ((const struct hpci *)b)->bdf);
}

int sn__hw_pci_scan(struct hbus *c, struct sn_error *err)
{
    DIR *d;
    struct dirent *e;
    char(*parents)[16] = NULL;
    size_t cap = 0;
    int rc = SN_OK;

    if (c->pci_done)
        return SN_OK;
    c->pci_done = true;
    d = sn__hw_opendir(c->root, PCI_DIR);
    if (!d)
        return SN_OK;
    while ((e = readdir(d))) {
        if (!is_bdf(e->d_name))
            continue;
        if (c->npci >= SN_HW_MAX_PCI) {
            rc = sn_error_set(err, SN_ENOMEM, "%s: more than %d PCI functions",
                              PCI_DIR, SN_HW_MAX_PCI);
            goto out;
        }
        SN_GROW(c->pci, cap, c->npci + 1);
        memset(&c->pci[c->npci], 0, sizeof(c->pci[0]));
        sn_strlcpy(c->pci[c->npci].bdf, e->d_name, sizeof(c->pci[0].bdf));
        c->npci++;
    }
    if (c->npci)
        qsort(c->pci, c->npci, sizeof(c->pci[0]), cmp_bdf);
    parents = sn_xcalloc(c->npci ? c->npci : 1, sizeof(*parents));
    for (size_t i = 0; i < c->npci; i++)
        read_device(c, &c->pci[i], parents[i], sizeof(parents[i]));
    for (size_t i = 0; i < c->npci; i++) {
        const struct hpci *p =
            parents[i][0] ? sn__hw_pci_find(c, parents[i]) : NULL;
        c->pci[i].parent = p ? (int)(p - c->pci) : -1;
    }
    read_slots(c);
out:
    free(parents);
    closedir(d);
    return rc;
}

const struct hpci *sn__hw_pci_find(const struct hbus *c, const char *bdf)
{
    struct hpci key;

    if (!c->npci)
        return NULL;
    sn_strlcpy(key.bdf, bdf, sizeof(key.bdf));
    return bsearch(&key, c->pci, c->npci, sizeof(c->pci[0]), cmp_bdf);
}

void sn__hw_pci_subject(const struct hpci *d, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%s %s %04x:%04x", d->bdf,
                     sn__hw_pci_kind_name(d->kind), d->vendor, d->device);

    if (n < 0 || (size_t)n >= size)
        return;
    if (d->slot[0])
        n += snprintf(buf + n, size - (size_t)n, " slot %s", d->slot);
    if (n >= 0 && (size_t)n < size && d->ifname[0])
        snprintf(buf + n, size - (size_t)n, " (%s)", d->ifname);
}
