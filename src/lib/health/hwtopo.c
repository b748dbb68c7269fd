/* hwtopo.c: expected against found. hwloc discovers the node (NUMA
 * nodes, PCI devices with class and ids, the bridges between them) and
 * the checks compare it with what the design expects: how many
 * accelerators and of which model, how many NICs, on which NUMA node each
 * sits, and which NIC shares a PCIe switch with each accelerator (the path
 * GPUDirect RDMA takes). A node that differs from the design says so. */
#include <ctype.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "health-int.h"

/* One device hwloc found. */
struct tdev {
    hwloc_obj_t obj;
    char bdf[16];
    enum hpci_kind kind;
    unsigned vendor, device;
    int numa;      /* NUMA node (OS index), -1 unknown or several */
    char name[96]; /* NVML's name, or the OS device (mlx5_0, eth0) */
};

struct tctx {
    struct hctx *c;
    const struct sn_health_node *want;
    hwloc_topology_t topo;
    struct tdev *dev;
    size_t ndev, cap;
    int nnuma;
};

static bool contains_word(const char *hay, const char *word)
{
    size_t n = strlen(word);

    for (; *hay; hay++)
        if (strncasecmp(hay, word, n) == 0)
            return true;
    return false;
}

static void os_name(hwloc_obj_t pci, char *buf, size_t size)
{
    /* the OpenFabrics name (mlx5_0) first, then the network interface */
    for (int pass = 0; pass < 2; pass++)
        for (hwloc_obj_t o = pci->io_first_child; o; o = o->next_sibling) {
            if (o->type != HWLOC_OBJ_OS_DEVICE || !o->name)
                continue;
            if ((pass == 0 &&
                 o->attr->osdev.type == HWLOC_OBJ_OSDEV_OPENFABRICS) ||
                (pass == 1 && o->attr->osdev.type != HWLOC_OBJ_OSDEV_GPU)) {
                snprintf(buf, size, "%s", o->name);
                return;
            }
        }
}

/* Does this NIC count as a compute NIC? The spec's nic_id when given;
 * otherwise InfiniBand adapters and NVIDIA/Mellanox ConnectX-class
 * functions when the node has any, else every NIC. */
static bool counts_as_nic(const struct tctx *t, const struct tdev *d,
                          bool fabric_nics_present)
{
    char id[16];

    if (d->kind != HPCI_NIC)
        return false;
    if (t->want && t->want->nic_id[0]) {
        snprintf(id, sizeof(id), "%04x:%04x", d->vendor, d->device);
        return !strcmp(id, t->want->nic_id);
    }
    if (!fabric_nics_present)
        return true;
    return d->vendor == 0x15b3 || (d->obj->attr->pcidev.class_id == 0x0207);
}

static int numa_of(hwloc_topology_t topo, hwloc_obj_t obj)
{
    hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(topo, obj);

    if (!anc || !anc->nodeset || hwloc_bitmap_weight(anc->nodeset) != 1)
        return -1;
    /* the machine-wide nodeset of a one-node machine is that node too */
    return (int)hwloc_bitmap_first(anc->nodeset);
}

static void collect(struct tctx *t)
{
    for (hwloc_obj_t o = hwloc_get_next_pcidev(t->topo, NULL); o;
         o = hwloc_get_next_pcidev(t->topo, o)) {
        const struct hwloc_pcidev_attr_s *a = &o->attr->pcidev;
        /* hwloc keeps class and subclass; NVMe's programming interface
         * (0x02) is the only one of class 0x0108 in use */
        unsigned cls =
            (unsigned)a->class_id << 8 | (a->class_id == 0x0108 ? 0x02 : 0);
        enum hpci_kind k = sn__hw_pci_classify(cls, a->vendor_id);
        struct tdev *d;
        const struct hpci *p;
        const struct hgpu *g;

        if (k != HPCI_ACCEL && k != HPCI_NIC && k != HPCI_NVME)
            continue;
        SN_GROW(t->dev, t->cap, t->ndev + 1);
        d = &t->dev[t->ndev++];
        memset(d, 0, sizeof(*d));
        d->obj = o;
        d->kind = k;
        d->vendor = a->vendor_id;
        d->device = a->device_id;
        snprintf(d->bdf, sizeof(d->bdf), "%04x:%02x:%02x.%01x",
                 a->domain & 0xffffu, a->bus, a->dev, a->func);
        d->numa = numa_of(t->topo, o);
        p = sn__health_pci_find(t->c, d->bdf);
        /* an SR-IOV virtual function is not a device of its own */
        if (p && p->is_vf) {
            t->ndev--;
            continue;
        }
        g = sn__health_gpu_find(t->c, d->bdf);
        if (g && g->name[0])
            snprintf(d->name, sizeof(d->name), "%s", g->name);
        else
            os_name(o, d->name, sizeof(d->name));
    }
}

/* "0000:03:00.0 (NVIDIA H100 80GB HBM3)" items joined by ", ". */
static void list_devices(const struct tctx *t, enum hpci_kind k,
                         bool (*keep)(const struct tctx *, const struct tdev *,
                                      bool),
                         bool arg, char *buf, size_t size)
{
    size_t len = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < t->ndev && len < size; i++) {
        const struct tdev *d = &t->dev[i];
        int n;
        if (d->kind != k || (keep && !keep(t, d, arg)))
            continue;
        n = snprintf(buf + len, size - len, "%s%s", len ? ", " : "", d->bdf);
        if (n > 0)
            len += (size_t)n;
        if (d->name[0] && len < size) {
            n = snprintf(buf + len, size - len, " (%s)", d->name);
            if (n > 0)
                len += (size_t)n;
        }
    }
}

static size_t count_kind(const struct tctx *t, enum hpci_kind k)
{
    size_t n = 0;

    for (size_t i = 0; i < t->ndev; i++)
        n += t->dev[i].kind == k;
    return n;
}

static void check_accelerators(struct tctx *t)
{
    const struct sn_health_node *w = t->want;
    size_t found = count_kind(t, HPCI_ACCEL);
    char list[2048];

    list_devices(t, HPCI_ACCEL, NULL, false, list, sizeof(list));
    if (w && w->accelerators >= 0) {
        if ((int)found < w->accelerators)
            sn_health_report_add(
                t->c->rep, "topo.accelerators", SN_HEALTH_FAIL, "node",
                "an accelerator the design expects is missing: check its "
                "slot's presence and power in the BMC, look for XID 79 in "
                "the kernel log, reseat it; compare the addresses with a "
                "good node's doctor report",
                "found %zu of the %d the design expects%s%s", found,
                w->accelerators, found ? ": " : "", list);
        else if ((int)found > w->accelerators)
            sn_health_report_add(
                t->c->rep, "topo.accelerators", SN_HEALTH_WARN, "node",
                "more accelerators than the design: update the spec's node "
                "section, or check this is the node you meant",
                "found %zu, the design expects %d: %s", found, w->accelerators,
                list);
        else
            sn_health_report_add(t->c->rep, "topo.accelerators", SN_HEALTH_PASS,
                                 "node", NULL, "%zu as designed%s%s", found,
                                 found ? ": " : "", list);
    } else if (found == 0) {
        sn_health_report_add(
            t->c->rep, "topo.accelerators", SN_HEALTH_WARN, "node",
            "no accelerator on this node: if it should have some, check "
            "their power and seating; for a CPU-only node write `node: "
            "{accelerators: 0}` in the spec and pass it with --spec",
            "no accelerator on the PCI bus (no spec to say whether that is "
            "the design)");
    } else {
        sn_health_report_add(t->c->rep, "topo.accelerators", SN_HEALTH_PASS,
                             "node", NULL, "found %zu: %s", found, list);
    }
    /* the model, from NVML's name where there is one */
    if (!w || !w->model[0] || found == 0)
        return;
    for (size_t i = 0; i < t->ndev; i++) {
        const struct tdev *d = &t->dev[i];
        char subject[128];
        if (d->kind != HPCI_ACCEL)
            continue;
        snprintf(subject, sizeof(subject), "%s gpu %04x:%04x", d->bdf,
                 d->vendor, d->device);
        if (!sn__health_gpu_find(t->c, d->bdf))
            sn_health_report_add(t->c->rep, "topo.model", SN_HEALTH_SKIP,
                                 subject, NULL,
                                 "no name from NVML to compare with the "
                                 "design's '%s'",
                                 w->model);
        else if (!contains_word(d->name, w->model))
            sn_health_report_add(
                t->c->rep, "topo.model", SN_HEALTH_FAIL, subject,
                "the node holds another accelerator than the design: fix "
                "the spec or move the part",
                "'%s', the design expects '%s'", d->name, w->model);
        else
            sn_health_report_add(t->c->rep, "topo.model", SN_HEALTH_PASS,
                                 subject, NULL, "'%s' as designed ('%s')",
                                 d->name, w->model);
    }
}

static bool fabric_nic(const struct tctx *t, const struct tdev *d, bool any)
{
    return counts_as_nic(t, d, any);
}

static void check_nics(struct tctx *t, bool fabric_present)
{
    const struct sn_health_node *w = t->want;
    size_t found = 0, all = count_kind(t, HPCI_NIC);
    char list[2048];

    for (size_t i = 0; i < t->ndev; i++)
        found += counts_as_nic(t, &t->dev[i], fabric_present);
    list_devices(t, HPCI_NIC, fabric_nic, fabric_present, list, sizeof(list));
    if (w && w->nics >= 0 && (int)found != w->nics)
        sn_health_report_add(
            t->c->rep, "topo.nics",
            (int)found < w->nics ? SN_HEALTH_FAIL : SN_HEALTH_WARN, "node",
            (int)found < w->nics
                ? "a NIC the design expects is missing: check its seating "
                  "and firmware (mlxfwmanager, ibstat), and that its driver "
                  "loaded (lspci -k)"
                : "more NICs than the design: set node.nic_id in the spec "
                  "to count only the compute NICs",
            "found %zu compute NIC%s of the %d the design expects (%zu NIC "
            "functions in all)%s%s",
            found, found == 1 ? "" : "s", w->nics, all, found ? ": " : "",
            list);
    else
        sn_health_report_add(
            t->c->rep, "topo.nics", SN_HEALTH_PASS, "node", NULL,
            "%zu compute NIC%s%s%s%s", found, found == 1 ? "" : "s",
            w && w->nics >= 0 ? " as designed" : "", found ? ": " : "", list);
}

static void check_numa(struct tctx *t, bool fabric_present)
{
    const struct sn_health_node *w = t->want;
    int na[SN_HEALTH_MAX_NUMA] = {0}, nn[SN_HEALTH_MAX_NUMA] = {0};
    char ev[2048] = "", unknown[512] = "";
    enum sn_health_status st = SN_HEALTH_PASS;
    const char *remedy = NULL;
    int nnodes = t->nnuma > SN_HEALTH_MAX_NUMA ? SN_HEALTH_MAX_NUMA : t->nnuma;
    size_t len = 0;

    for (size_t i = 0; i < t->ndev; i++) {
        const struct tdev *d = &t->dev[i];
        bool acc = d->kind == HPCI_ACCEL;
        bool nic = counts_as_nic(t, d, fabric_present);
        if (!acc && !nic)
            continue;
        if (d->numa < 0 || d->numa >= nnodes) {
            size_t ul = strlen(unknown);
            snprintf(unknown + ul, sizeof(unknown) - ul, "%s%s", ul ? ", " : "",
                     d->bdf);
            continue;
        }
        na[d->numa] += acc;
        nn[d->numa] += nic;
    }
    for (int i = 0; i < nnodes && len < sizeof(ev); i++) {
        int n = snprintf(ev + len, sizeof(ev) - len,
                         "%snode %d: %d accelerator%s, %d NIC%s", i ? "; " : "",
                         i, na[i], na[i] == 1 ? "" : "s", nn[i],
                         nn[i] == 1 ? "" : "s");
        if (n > 0)
            len += (size_t)n;
    }
    if (w && w->numa_nodes > 0 && w->numa_nodes != t->nnuma) {
        st = SN_HEALTH_FAIL;
        remedy = "the node shows another NUMA layout than the design: "
                 "check the BIOS (sub-NUMA clustering, NPS setting, "
                 "interleaving) and that every socket's memory is seated";
        snprintf(ev + strlen(ev), sizeof(ev) - strlen(ev),
                 " (%d NUMA node%s, the design expects %d)", t->nnuma,
                 t->nnuma == 1 ? "" : "s", w->numa_nodes);
    } else if (w && w->nnuma > 0) {
        bool has_a = false, has_n = false;
        for (int i = 0; i < w->nnuma; i++) {
            has_a |= w->numa_accels[i] != 0;
            has_n |= w->numa_nics[i] != 0;
        }
        for (int i = 0; i < w->nnuma; i++) {
            int ga = i < nnodes ? na[i] : 0, gn = i < nnodes ? nn[i] : 0;
            if ((has_a && ga != w->numa_accels[i]) ||
                (has_n && gn != w->numa_nics[i])) {
                st = SN_HEALTH_FAIL;
                remedy = "devices sit on other NUMA nodes than the design "
                         "says: check the riser and slot population against "
                         "the design, and the BIOS NUMA settings";
                snprintf(ev + strlen(ev), sizeof(ev) - strlen(ev),
                         " (the design: node %d with %d accelerator%s, %d "
                         "NIC%s)",
                         i, w->numa_accels[i],
                         w->numa_accels[i] == 1 ? "" : "s", w->numa_nics[i],
                         w->numa_nics[i] == 1 ? "" : "s");
                break;
            }
        }
    } else if (w && w->balanced && nnodes > 1) {
        for (int i = 1; i < nnodes; i++)
            if (na[i] != na[0] || nn[i] != nn[0]) {
                st = SN_HEALTH_FAIL;
                remedy = "the design wants accelerators and NICs split "
                         "evenly over the NUMA nodes: move cards or check "
                         "the riser population";
                break;
            }
    }
    if (unknown[0] && t->nnuma > 1) {
        size_t l = strlen(ev);
        snprintf(ev + l, sizeof(ev) - l, "; no NUMA node for %s", unknown);
        if (st < SN_HEALTH_WARN) {
            st = SN_HEALTH_WARN;
            remedy = "the firmware gives no NUMA locality for some devices "
                     "(numa_node -1): NCCL and the scheduler cannot place "
                     "work near them; enable the ACPI proximity (SRAT/_PXM) "
                     "settings in the BIOS";
        }
    }
    sn_health_report_add(t->c->rep, "topo.numa", st, "node", remedy,
                         "%d NUMA node%s; %s", t->nnuma,
                         t->nnuma == 1 ? "" : "s", ev);
}

/* The bridges from obj up to (not including) the host bridge. */
static int ancestors(hwloc_obj_t obj, hwloc_obj_t *out, int max)
{
    int n = 0;

    for (hwloc_obj_t p = obj->parent; p && n < max; p = p->parent) {
        if (p->type != HWLOC_OBJ_BRIDGE)
            break;
        out[n++] = p;
    }
    return n;
}

/* How close a NIC is to an accelerator, in nvidia-smi topo's words:
 * PIX one PCIe switch, PXB several, PHB through the host bridge, NODE the
 * same NUMA node, SYS across NUMA nodes. Returns the rank (lower is
 * closer) and the bridge they share, if any. */
static int closeness(const struct tctx *t, const struct tdev *a,
                     const struct tdev *b, hwloc_obj_t *shared)
{
    hwloc_obj_t pa[HEALTH_MAX_DEPTH], pb[HEALTH_MAX_DEPTH];
    int na = ancestors(a->obj, pa, HEALTH_MAX_DEPTH);
    int nb = ancestors(b->obj, pb, HEALTH_MAX_DEPTH);

    *shared = NULL;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) {
            if (pa[i] != pb[j])
                continue;
            if (pa[i]->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_PCI) {
                *shared = pa[i];
                return i <= 1 && j <= 1 ? 0 : 1; /* PIX : PXB */
            }
            return 2; /* the host bridge itself: PHB */
        }
    (void)t;
    if (a->numa >= 0 && a->numa == b->numa)
        return 3;
    return 4;
}

static void check_pcie_tree(struct tctx *t, bool fabric_present)
{
    static const char *const words[] = {"PIX, one PCIe switch",
                                        "PXB, several PCIe switches",
                                        "PHB, through the host bridge",
                                        "NODE, same NUMA node, another "
                                        "host bridge",
                                        "SYS, across NUMA nodes"};
    const struct sn_health_node *w = t->want;
    bool any_nic = false;

    for (size_t i = 0; i < t->ndev; i++)
        any_nic |= counts_as_nic(t, &t->dev[i], fabric_present);
    for (size_t i = 0; i < t->ndev; i++) {
        const struct tdev *a = &t->dev[i];
        const struct tdev *best = NULL;
        hwloc_obj_t shared = NULL, best_shared = NULL;
        int rank = 5;
        char subject[128], via[64] = "";

        if (a->kind != HPCI_ACCEL || !any_nic)
            continue;
        for (size_t j = 0; j < t->ndev; j++) {
            int r;
            if (!counts_as_nic(t, &t->dev[j], fabric_present))
                continue;
            r = closeness(t, a, &t->dev[j], &shared);
            if (r < rank) {
                rank = r;
                best = &t->dev[j];
                best_shared = shared;
            }
        }
        snprintf(subject, sizeof(subject), "%s gpu %04x:%04x", a->bdf,
                 a->vendor, a->device);
        if (best_shared) {
            const struct hwloc_pcidev_attr_s *u =
                &best_shared->attr->bridge.upstream.pci;
            snprintf(via, sizeof(via), " via bridge %04x:%02x:%02x.%01x",
                     u->domain & 0xffffu, u->bus, u->dev, u->func);
        }
        if (w && w->nic_per_switch && rank > 1)
            sn_health_report_add(
                t->c->rep, "topo.pcie_tree", SN_HEALTH_FAIL, subject,
                "the design puts a NIC under every accelerator's PCIe switch "
                "(GPUDirect RDMA); here RDMA traffic crosses the CPU: check "
                "the riser and slot population against the design",
                "nearest NIC %s%s%s%s: %s", best->bdf,
                best->name[0] ? " (" : "", best->name, best->name[0] ? ")" : "",
                words[rank]);
        else
            sn_health_report_add(t->c->rep, "topo.pcie_tree", SN_HEALTH_PASS,
                                 subject, NULL, "nearest NIC %s%s%s%s: %s%s",
                                 best->bdf, best->name[0] ? " (" : "",
                                 best->name, best->name[0] ? ")" : "",
                                 words[rank], via);
    }
}

int sn__health_probe_topo(struct hctx *c, struct sn_error *err)
{
    static const char *const unused[] = {"x86", "pci", "opencl", "gl"};
    struct tctx t;
    bool live = c->root[0] == '\0', fabric = false;

    (void)err;
    memset(&t, 0, sizeof(t));
    t.c = c;
    t.want = c->cfg->node;
    if (hwloc_topology_init(&t.topo)) {
        sn_health_report_add(c->rep, "topo.hwloc", SN_HEALTH_SKIP, "node", NULL,
                             "hwloc could not start");
        return SN_OK;
    }
    /* keep every PCI device and bridge. Leave out the x86 CPUID backend,
     * which reads the CPU doctor runs on whatever the root; libpciaccess
     * ("pci"), which reads /sys directly, so that Linux's own sysfs
     * backend finds the PCI devices under the root live and on a fixture
     * alike; and the OpenCL and GL plugins, which doctor does not use
     * (and whose libraries leak under the sanitizers) */
    hwloc_topology_set_io_types_filter(t.topo, HWLOC_TYPE_FILTER_KEEP_ALL);
    for (size_t i = 0; i < SN_ARRAY_LEN(unused); i++)
        hwloc_topology_set_components(
            t.topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, unused[i]);
    if (hwloc_topology_load(t.topo)) {
        sn_health_report_add(c->rep, "topo.hwloc", SN_HEALTH_SKIP, "node", NULL,
                             "hwloc could not read the topology");
        goto out;
    }
    /* hwloc takes its root from HWLOC_FSROOT; a live root shows as "this
     * system". Mixing a fixture's sysfs with the live topology would
     * report nonsense, so refuse it. */
    if (live != (hwloc_topology_is_thissystem(t.topo) != 0)) {
        sn_health_report_add(
            c->rep, "topo.hwloc", SN_HEALTH_SKIP, "node", NULL,
            "hwloc read %s while doctor reads %s: set HWLOC_FSROOT to the "
            "same root to check the topology",
            live ? "another root" : "the live system",
            live ? "the live system" : c->root);
        goto out;
    }
    t.nnuma = hwloc_get_nbobjs_by_type(t.topo, HWLOC_OBJ_NUMANODE);
    collect(&t);
    for (size_t i = 0; i < t.ndev; i++)
        fabric |= t.dev[i].kind == HPCI_NIC &&
                  (t.dev[i].vendor == 0x15b3 ||
                   t.dev[i].obj->attr->pcidev.class_id == 0x0207);
    check_accelerators(&t);
    check_nics(&t, fabric);
    check_numa(&t, fabric);
    check_pcie_tree(&t, fabric);
out:
    free(t.dev);
    hwloc_topology_destroy(t.topo);
    return SN_OK;
}

void sn_health_hwloc_version(char *buf, size_t len)
{
    unsigned v = hwloc_get_api_version();

    snprintf(buf, len, "%u.%u.%u", v >> 16, (v >> 8) & 0xff, v & 0xff);
}
