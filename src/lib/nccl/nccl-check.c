/* nccl-check.c: NCCL's detected topology against the design. The design
 * comes from the spec through the node section's rules (health/node.c);
 * the findings are health checks named "nccl.topo.*", in health/hwtopo.c's
 * style: what NCCL sees, what the design has, what to do about it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/nccl.h"

void sn_nccl_design_init(struct sn_nccl_design *d)
{
    memset(d, 0, sizeof(*d));
    d->gpus = -1;
    d->nvlinks = -1;
    d->nics = -1;
    d->numa_nodes = -1;
}

int sn_nccl_design_from_spec(const struct sn_spec *spec,
                             struct sn_nccl_design *d, struct sn_error *err)
{
    struct sn_health_node node;
    int rc;

    sn_nccl_design_init(d);
    rc = sn_health_node_from_spec(spec, &node, err);
    if (rc)
        return rc;
    d->gpus = node.accelerators;
    d->nvlinks = node.nvlinks;
    d->nvswitch = spec->scaleup.fabric == SN_FABRIC_SWITCHED;
    d->nics = node.nics;
    if (d->nics > 0 && spec->scaleout.nic_bw > 0)
        d->nic_gbps = spec->scaleout.nic_bw * 8 / 1e9; /* bytes/s -> Gb/s */
    /* GPUDirect RDMA without the CPU: the node section says so, or the
     * design gives every GPU a NIC of its own (rail-optimised) */
    d->nic_near = node.nic_per_switch ||
                  (d->nics > 0 && d->gpus > 0 && d->nics >= d->gpus);
    d->nvls = d->nvswitch && spec->scaleup.in_network_reduction && d->gpus > 1;
    d->numa_nodes = node.numa_nodes > 0 ? node.numa_nodes : -1;
    return SN_OK;
}

int sn_nccl_design_load(const char *spec_path, struct sn_nccl_design *d,
                        struct sn_error *err)
{
    struct sn_spec spec;
    int rc;

    sn_nccl_design_init(d);
    if (!spec_path)
        return SN_OK;
    rc = sn_spec_load(spec_path, &spec, err);
    if (rc)
        return rc;
    rc = sn_nccl_design_from_spec(&spec, d, err);
    sn_spec_release(&spec);
    return rc;
}

static void gpu_subject(const struct sn_nccl_gpu *g, char *buf, size_t size)
{
    snprintf(buf, size, "GPU %d (%s)", g->dev, g->busid);
}

static void check_gpus(const struct sn_nccl_topo *t,
                       const struct sn_nccl_design *d,
                       struct sn_health_report *rep)
{
    char list[1024] = "";
    size_t len = 0;

    for (int i = 0; i < t->ngpus && len < sizeof(list); i++) {
        int n = snprintf(list + len, sizeof(list) - len, "%s%d:%s",
                         i ? ", " : "", t->gpus[i].dev, t->gpus[i].busid);
        if (n > 0)
            len += (size_t)n;
    }
    if (d->gpus < 0)
        sn_health_report_add(rep, "nccl.topo.gpus", SN_HEALTH_PASS, "node",
                             NULL, "NCCL sees %d GPU%s: %s", t->ngpus,
                             t->ngpus == 1 ? "" : "s", list);
    else if (t->ngpus < d->gpus)
        sn_health_report_add(
            rep, "nccl.topo.gpus", SN_HEALTH_FAIL, "node",
            "a GPU is hidden from NCCL: check CUDA_VISIBLE_DEVICES and the "
            "job's GPU binding (the dump holds what the ranks of this node "
            "see), then nvidia-smi and the kernel log for a GPU off the bus",
            "NCCL sees %d GPU%s, the design has %d: %s", t->ngpus,
            t->ngpus == 1 ? "" : "s", d->gpus, list);
    else
        sn_health_report_add(
            rep, "nccl.topo.gpus",
            t->ngpus > d->gpus ? SN_HEALTH_WARN : SN_HEALTH_PASS, "node",
            t->ngpus > d->gpus ? "more GPUs than the design: check the spec"
                               : NULL,
            "NCCL sees %d GPU%s%s: %s", t->ngpus, t->ngpus == 1 ? "" : "s",
            t->ngpus == d->gpus ? " as designed" : "", list);
}

/* On a mesh the design's links split evenly over the peers. */
static void check_mesh_links(const struct sn_nccl_topo *t,
                             const struct sn_nccl_design *d,
                             const struct sn_nccl_gpu *g,
                             struct sn_health_report *rep)
{
    int peers = d->gpus > 1 ? d->gpus - 1 : 0;
    int want = peers > 0 && d->nvlinks % peers == 0 ? d->nvlinks / peers : 0;
    char subject[96];
    bool bad = false;

    gpu_subject(g, subject, sizeof(subject));
    for (int k = 0; k < g->npeers && want > 0; k++) {
        const struct sn_nccl_peer *pe = &g->peers[k];
        char other[48];
        if (pe->count >= want)
            continue;
        if (pe->gpu >= 0)
            snprintf(other, sizeof(other), "GPU %d", t->gpus[pe->gpu].dev);
        else
            snprintf(other, sizeof(other), "%s", pe->target);
        bad = true;
        sn_health_report_add(
            rep, "nccl.topo.nvlink", SN_HEALTH_FAIL, subject,
            "a link between the two GPUs is down or was not trained: "
            "nvidia-smi nvlink -s and -e on both, reseat the bridge or "
            "board, check the fabric's XID events",
            "NCCL sees %d NVLink%s between GPU %d and %s, the design has %d",
            pe->count, pe->count == 1 ? "" : "s", g->dev, other, want);
    }
    if (want > 0 && g->npeers < peers) {
        bad = true;
        sn_health_report_add(
            rep, "nccl.topo.nvlink", SN_HEALTH_FAIL, subject,
            "every link to a peer is down or the peer is hidden from NCCL: "
            "nvidia-smi topo -m and nvidia-smi nvlink -s on this GPU",
            "NCCL sees NVLinks to %d of the %d other GPUs, the design links "
            "every pair",
            g->npeers, peers);
    }
    if (!bad)
        sn_health_report_add(rep, "nccl.topo.nvlink", SN_HEALTH_PASS, subject,
                             NULL, "%d NVLink peer%s, %d link%s each or more",
                             g->npeers, g->npeers == 1 ? "" : "s", want,
                             want == 1 ? "" : "s");
}

static void check_nvlinks(const struct sn_nccl_topo *t,
                          const struct sn_nccl_design *d,
                          struct sn_health_report *rep)
{
    for (int i = 0; i < t->ngpus; i++) {
        const struct sn_nccl_gpu *g = &t->gpus[i];
        int total = g->nvs_links + g->cpu_links;
        char subject[96];

        for (int k = 0; k < g->npeers; k++)
            total += g->peers[k].count;
        gpu_subject(g, subject, sizeof(subject));
        if (d->nvlinks <= 0) {
            sn_health_report_add(rep, "nccl.topo.nvlink", SN_HEALTH_PASS,
                                 subject, NULL,
                                 "%d NVLink%s (%d to NVSwitch, %d to GPU "
                                 "peers); the design does not say",
                                 total, total == 1 ? "" : "s", g->nvs_links,
                                 total - g->nvs_links - g->cpu_links);
        } else if (!d->nvswitch) {
            check_mesh_links(t, d, g, rep);
        } else if (g->nvs_links != d->nvlinks) {
            sn_health_report_add(
                rep, "nccl.topo.nvlink", SN_HEALTH_FAIL, subject,
                g->nvs_links < d->nvlinks
                    ? "an NVLink is down: nvidia-smi nvlink -s on this GPU, "
                      "the fabric manager's log, XID 74/79 in the kernel "
                      "log; reset the GPU or reseat the baseboard; until "
                      "then NCCL's all-reduce runs at the slowest GPU's "
                      "share"
                    : "more NVLinks than the design: check the spec's "
                      "links_per_accelerator",
                "NCCL sees %d NVLink%s from GPU %d to the NVSwitches, the "
                "design has %d",
                g->nvs_links, g->nvs_links == 1 ? "" : "s", g->dev, d->nvlinks);
        } else {
            sn_health_report_add(
                rep, "nccl.topo.nvlink", SN_HEALTH_PASS, subject, NULL,
                "%d NVLinks to the NVSwitches as designed", g->nvs_links);
        }
    }
}

static void check_nics(const struct sn_nccl_topo *t,
                       const struct sn_nccl_design *d,
                       struct sn_health_report *rep)
{
    char list[1536] = "";
    size_t len = 0;
    bool slow = false;

    for (int k = 0; k < t->nnics && len < sizeof(list); k++) {
        const struct sn_nccl_nic *c = &t->nics[k];
        int n = snprintf(list + len, sizeof(list) - len, "%s%s (%s, %lld Gb/s)",
                         k ? ", " : "", c->name,
                         c->busid[0] ? c->busid : "no PCI address",
                         c->speed_mbps > 0 ? c->speed_mbps / 1000 : 0);
        if (n > 0)
            len += (size_t)n;
        slow |= d->nic_gbps > 0 && c->speed_mbps > 0 &&
                c->speed_mbps < d->nic_gbps * 1000 * 0.99;
    }
    if (d->nics >= 0 && t->nnics < d->nics)
        sn_health_report_add(
            rep, "nccl.topo.nics", SN_HEALTH_FAIL, "node",
            "NCCL cannot use a NIC the design has: check NCCL_IB_HCA and "
            "NCCL_SOCKET_IFNAME, that rdma-core and the NIC's driver are "
            "installed (ibv_devices, /dev/infiniband), and the port is "
            "Active (ibstat)",
            "NCCL sees %d network device%s, the design has %d%s%s", t->nnics,
            t->nnics == 1 ? "" : "s", d->nics, len ? ": " : "", list);
    else
        sn_health_report_add(rep, "nccl.topo.nics", SN_HEALTH_PASS, "node",
                             NULL, "NCCL sees %d network device%s%s%s%s",
                             t->nnics, t->nnics == 1 ? "" : "s",
                             d->nics >= 0 ? " as designed" : "",
                             len ? ": " : "", list);
    if (d->nic_gbps <= 0 || t->nnics == 0)
        return;
    sn_health_report_add(
        rep, "nccl.topo.nic_speed", slow ? SN_HEALTH_FAIL : SN_HEALTH_PASS,
        "node",
        slow ? "a port runs below the design's speed: ibstat or ethtool for "
               "the rate it trained at; check the cable and transceiver, "
               "the switch port's configuration and the NIC's firmware"
             : NULL,
        "%s; the design has %.0f Gb/s per port",
        slow ? "slower than designed" : "every device at the design's speed",
        d->nic_gbps);
}

static void check_affinity(const struct sn_nccl_topo *t,
                           const struct sn_nccl_design *d,
                           struct sn_health_report *rep)
{
    for (int i = 0; i < t->ngpus && t->nnics > 0; i++) {
        const struct sn_nccl_gpu *g = &t->gpus[i];
        const struct sn_nccl_nic *c = &t->nics[g->nic];
        bool far = g->path >= SN_NCCL_PATH_PHB;
        char subject[96];

        gpu_subject(g, subject, sizeof(subject));
        if (d->nic_near && far)
            sn_health_report_add(
                rep, "nccl.topo.nic_path", SN_HEALTH_FAIL, subject,
                g->path == SN_NCCL_PATH_SYS
                    ? "the GPU's NIC sits on the far socket: its RDMA "
                      "traffic crosses the CPUs' link (and GPUDirect RDMA "
                      "is off beyond PXB): move the NIC to the slot under "
                      "the GPU's PCIe switch as the design has it, or check "
                      "the riser cabling and the BIOS's PCIe bifurcation"
                    : "the GPU's NIC is not under its PCIe switch: traffic "
                      "goes through the host bridge; check the slot "
                      "population against the design",
                "its NIC %s (%s) is %s; the design expects PIX or PXB (a "
                "NIC under each GPU's PCIe switch)",
                c->name, c->busid[0] ? c->busid : "no PCI address",
                sn_nccl_path_name(g->path));
        else
            sn_health_report_add(rep, "nccl.topo.nic_path", SN_HEALTH_PASS,
                                 subject, NULL, "its NIC %s (%s) is %s",
                                 c->name,
                                 c->busid[0] ? c->busid : "no PCI address",
                                 sn_nccl_path_name(g->path));
        if (g->gdr == 0 && c->gdr != 0)
            sn_health_report_add(
                rep, "nccl.topo.gdr", SN_HEALTH_WARN, subject,
                "NCCL will not use GPUDirect RDMA for this GPU: load "
                "nvidia-peermem (or use DMA-BUF with a recent kernel and "
                "driver), check the IOMMU and ACS settings",
                "gdr=\"0\" on the GPU while its NIC %s supports it", c->name);
    }
}

static void check_numa(const struct sn_nccl_topo *t,
                       const struct sn_nccl_design *d,
                       struct sn_health_report *rep)
{
    if (d->numa_nodes < 0)
        return;
    sn_health_report_add(
        rep, "nccl.topo.numa",
        t->ncpus == d->numa_nodes ? SN_HEALTH_PASS : SN_HEALTH_FAIL, "node",
        t->ncpus == d->numa_nodes
            ? NULL
            : "NCCL groups devices under other NUMA nodes than the design: "
              "check the BIOS (sub-NUMA clustering, NPS) and that the "
              "devices report their numa_node",
        "NCCL sees %d CPU/NUMA node%s, the design has %d", t->ncpus,
        t->ncpus == 1 ? "" : "s", d->numa_nodes);
}

const struct sn_nccl_design *sn_nccl_design_none(void)
{
    static const struct sn_nccl_design none = {
        .gpus = -1, .nvlinks = -1, .nics = -1, .numa_nodes = -1};

    return &none;
}

void sn_nccl_topo_check(const struct sn_nccl_topo *t,
                        const struct sn_nccl_design *d,
                        struct sn_health_report *rep)
{
    if (!d)
        d = sn_nccl_design_none();
    check_gpus(t, d, rep);
    check_nvlinks(t, d, rep);
    check_nics(t, d, rep);
    check_affinity(t, d, rep);
    check_numa(t, d, rep);
}
