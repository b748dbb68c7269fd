/* nccl-judge.c: what NCCL chose (nccl-log.c) against the design: the
 * network, the transport between peers, GPUDirect RDMA, NVLS, CollNet and
 * channels, each mismatch a "nccl.log.*" check with its remedy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/nccl.h"

static void line_ref(const struct sn_nccl_log *l, int line, char *buf,
                     size_t size)
{
    snprintf(buf, size, "%s:%d", l->file, line);
}

static void check_version(const struct sn_nccl_log *l,
                          struct sn_health_report *rep)
{
    int ma = 0, mi = 0, dma = 0, dmi = 0;
    char at[300];

    if (!l->version[0]) {
        sn_health_report_add(rep, "nccl.log.version", SN_HEALTH_SKIP, "job",
                             NULL,
                             "no 'NCCL version' line (rank 0 writes "
                             "it with NCCL_DEBUG=VERSION or INFO)");
        return;
    }
    line_ref(l, l->version_line, at, sizeof(at));
    if (sscanf(l->built_cuda, "%d.%d", &ma, &mi) == 2 && l->cuda_driver) {
        dma = l->cuda_driver / 1000;
        dmi = l->cuda_driver % 1000 / 10;
    }
    if (dma && (ma > dma || (ma == dma && mi > dmi)))
        sn_health_report_add(
            rep, "nccl.log.version", ma > dma ? SN_HEALTH_FAIL : SN_HEALTH_WARN,
            "job",
            "NCCL is built for a newer CUDA than the driver supports: "
            "upgrade the driver, or use the NCCL build for the driver's CUDA "
            "(minor version compatibility covers a newer minor release "
            "only, with limits)",
            "NCCL %s built for CUDA %s; the driver supports CUDA %d.%d "
            "(cudaDriverVersion %d) (%s)",
            l->version, l->built_cuda, dma, dmi, l->cuda_driver, at);
    else
        sn_health_report_add(rep, "nccl.log.version", SN_HEALTH_PASS, "job",
                             NULL, "NCCL %s%s%s (%s)", l->version,
                             l->built_cuda[0] ? " built for CUDA " : "",
                             l->built_cuda, at);
}

static void check_ranks(const struct sn_nccl_log *l,
                        const struct sn_nccl_design *d,
                        struct sn_health_report *rep)
{
    if (l->nnodes < 0) {
        sn_health_report_add(rep, "nccl.log.ranks", SN_HEALTH_SKIP, "job", NULL,
                             "no 'comm ... nRanks ... nNodes' line (INIT "
                             "subsystem; NCCL 2.20 and later)");
        return;
    }
    sn_health_report_add(
        rep, "nccl.log.ranks",
        d->gpus > 0 && l->local_ranks < d->gpus ? SN_HEALTH_WARN
                                                : SN_HEALTH_PASS,
        "job",
        d->gpus > 0 && l->local_ranks < d->gpus
            ? "the job leaves GPUs of a node idle: check the launcher's "
              "ranks per node and CUDA_VISIBLE_DEVICES"
            : NULL,
        "%d rank%s on %d node%s, %d per node%s%s", l->nranks,
        l->nranks == 1 ? "" : "s", l->nnodes, l->nnodes == 1 ? "" : "s",
        l->local_ranks, l->mnnvl ? ", multi-node NVLink" : "",
        d->gpus > 0 && l->local_ranks < d->gpus ? " (the node has more GPUs)"
                                                : "");
}

static void check_net(const struct sn_nccl_log *l,
                      const struct sn_nccl_design *d,
                      struct sn_health_report *rep)
{
    bool socket =
        !strcmp(l->network, "Socket") || l->inter[SN_NCCL_TR_NET_SOCKET] > 0;
    char at[300];

    if (!l->network[0] && !socket) {
        sn_health_report_add(rep, "nccl.log.net", SN_HEALTH_SKIP, "job", NULL,
                             "no 'Using network' line (NET subsystem)");
        return;
    }
    line_ref(l, l->network_line, at, sizeof(at));
    if (socket && d->nics > 0)
        sn_health_report_add(
            rep, "nccl.log.net",
            l->nnodes > 1 ? SN_HEALTH_FAIL : SN_HEALTH_WARN, "job",
            "NET/Socket chosen: no IB device visible to NCCL: check "
            "NCCL_IB_HCA (and NCCL_IB_DISABLE), the rdma-core packages "
            "(ibv_devices lists the NICs), /dev/infiniband inside the "
            "container, and that the ports are Active (ibstat)",
            "NCCL uses NET/Socket%s%s%s (%s)%s; the design has %d NIC%s for "
            "the network",
            l->socket_if[0] ? " over " : "", l->socket_if,
            l->ib_none ? ", 'NET/IB : No device found'" : "", at,
            l->nnodes > 1 ? " between nodes" : "", d->nics,
            d->nics == 1 ? "" : "s");
    else if (!strcmp(l->network, "IB") && d->nics > 0 &&
             l->ib_devices < d->nics)
        sn_health_report_add(
            rep, "nccl.log.net", SN_HEALTH_WARN, "job",
            "NCCL leaves NICs of the design unused: check NCCL_IB_HCA's "
            "list and each port's state (ibstat)",
            "NET/IB with %d device%s, the design has %d (%s)", l->ib_devices,
            l->ib_devices == 1 ? "" : "s", d->nics, at);
    else
        sn_health_report_add(rep, "nccl.log.net", SN_HEALTH_PASS, "job", NULL,
                             "NET/%s, %d device%s listed (%s)", l->network,
                             l->ib_devices, l->ib_devices == 1 ? "" : "s", at);
}

static size_t list_counts(const long long *n, char *buf, size_t size)
{
    size_t len = 0;

    buf[0] = '\0';
    for (int t = 0; t < SN_NCCL_TR_COUNT && len < size; t++) {
        int w;
        if (!n[t])
            continue;
        w = snprintf(buf + len, size - len, "%s%lld %s", len ? ", " : "", n[t],
                     sn_nccl_transport_name((enum sn_nccl_transport)t));
        if (w > 0)
            len += (size_t)w;
    }
    if (!len)
        snprintf(buf, size, "none");
    return len;
}

static void check_transport(const struct sn_nccl_log *l,
                            const struct sn_nccl_design *d,
                            struct sn_health_report *rep)
{
    long long slow = l->intra[SN_NCCL_TR_SHM] + l->intra[SN_NCCL_TR_NET_IB] +
                     l->intra[SN_NCCL_TR_NET_SOCKET] +
                     l->intra[SN_NCCL_TR_NET_OTHER];
    char intra[256], inter[256], at[300];
    int first = 0;

    list_counts(l->intra, intra, sizeof(intra));
    list_counts(l->inter, inter, sizeof(inter));
    for (int t = SN_NCCL_TR_SHM; t <= SN_NCCL_TR_NET_OTHER; t++)
        if (l->intra[t] && (!first || l->intra_line[t] < first))
            first = l->intra_line[t];
    line_ref(l, first, at, sizeof(at));
    if (d->nvlinks > 0 && slow > 0)
        sn_health_report_add(
            rep, "nccl.log.transport", SN_HEALTH_FAIL, "job",
            "intra-node peers go through host memory or the network where "
            "the design has NVLink: nvidia-smi topo -m and nvidia-smi "
            "nvlink -s for the GPUs named, NCCL_P2P_DISABLE and "
            "NCCL_P2P_LEVEL in the environment, the fabric manager "
            "(systemctl status nvidia-fabricmanager), and the container's "
            "IPC namespace (P2P/IPC needs it shared)",
            "%lld intra-node connection%s over SHM or NET (first at %s), "
            "the design has NVLink between the GPUs of a node; within "
            "nodes: %s; between nodes: %s",
            slow, slow == 1 ? "" : "s", at, intra, inter);
    else
        sn_health_report_add(rep, "nccl.log.transport", SN_HEALTH_PASS, "job",
                             NULL,
                             "connections within nodes: %s; between nodes: "
                             "%s",
                             intra, inter);
}

static void check_gdr(const struct sn_nccl_log *l,
                      const struct sn_nccl_design *d,
                      struct sn_health_report *rep)
{
    char at[300];

    if (!l->ib_no_gdr && !l->ngdr_off) {
        if (l->inter[SN_NCCL_TR_NET_IB])
            sn_health_report_add(rep, "nccl.log.gdr", SN_HEALTH_PASS, "job",
                                 NULL,
                                 "every NET/IB connection uses GPUDirect "
                                 "RDMA (GDRDMA)");
        return;
    }
    line_ref(l, l->ngdr_off ? l->gdr_off[0].line : l->ib_no_gdr_line, at,
             sizeof(at));
    sn_health_report_add(
        rep, "nccl.log.gdr", d->nic_near ? SN_HEALTH_FAIL : SN_HEALTH_WARN,
        "job",
        "data between GPU and NIC is staged through host memory: NCCL "
        "turns GPUDirect RDMA off when the NIC is farther than "
        "NCCL_NET_GDR_LEVEL (PXB by default): find the GPU's NIC with "
        "'supernode doctor --nccl-topo', check nvidia-peermem (lsmod) or "
        "DMA-BUF support, and the NIC's slot",
        "%lld NET/IB connection%s without GDRDMA%s%s (%s)", l->ib_no_gdr,
        l->ib_no_gdr == 1 ? "" : "s", l->ngdr_off ? "; NCCL: " : "",
        l->ngdr_off ? l->gdr_off[0].text : "", at);
}

static void check_nvls(const struct sn_nccl_log *l,
                       const struct sn_nccl_design *d,
                       struct sn_health_report *rep)
{
    bool off = l->nvls == 0 || (l->channels_line && l->nvls_channels == 0);
    char at[300];

    if (l->nvls < 0 && !l->channels_line) {
        sn_health_report_add(rep, "nccl.log.nvls", SN_HEALTH_SKIP, "job", NULL,
                             "the log does not say (NCCL 2.17+, INIT)");
        return;
    }
    line_ref(l, l->nvls == 0 ? l->nvls_line : l->channels_line, at, sizeof(at));
    if (d->nvls && off)
        sn_health_report_add(
            rep, "nccl.log.nvls", SN_HEALTH_WARN, "job",
            "NVLS is off on an NVSwitch design: all-reduce loses the "
            "switch's in-network reduction; check nvidia-fabricmanager is "
            "running, every GPU's NVLinks are up (nvidia-smi nvlink -s), "
            "NCCL_NVLS_ENABLE, and CUDA 12.1+ with a driver that supports "
            "multicast",
            "NVLS off (%s, %s); the design's switch reduces in the network",
            l->nvls == 0 ? "'NVLS multicast support is not available'"
                         : "0 nvls channels",
            at);
    else
        sn_health_report_add(rep, "nccl.log.nvls", SN_HEALTH_PASS, "job", NULL,
                             "NVLS %s%s (%s)", off ? "off" : "on",
                             !off || d->nvls ? "" : "; the design has none",
                             at);
}

static void check_channels(const struct sn_nccl_log *l,
                           const struct sn_nccl_design *d,
                           struct sn_health_report *rep)
{
    bool collnet = l->collnet_channels > 0 || l->collnet_env > 0;
    char at[300];

    if (!l->channels_line) {
        sn_health_report_add(rep, "nccl.log.channels", SN_HEALTH_SKIP, "job",
                             NULL, "no 'coll channels' line (INIT)");
        return;
    }
    line_ref(l, l->channels_line, at, sizeof(at));
    if (l->nnodes > 1 && d->nics > 0 && l->coll_channels < d->nics)
        sn_health_report_add(
            rep, "nccl.log.channels", SN_HEALTH_WARN, "job",
            "fewer channels than NICs leave NICs idle between nodes: NCCL "
            "found a poorer topology than the design (run doctor "
            "--nccl-topo on its dump), or NCCL_MIN_NCHANNELS/"
            "NCCL_MAX_NCHANNELS limit it",
            "%d coll channels for %d NICs (%s)", l->coll_channels, d->nics, at);
    else
        sn_health_report_add(
            rep, "nccl.log.channels", SN_HEALTH_PASS, "job", NULL,
            "%d coll, %d nvls, %d p2p channels; %d ring "
            "line%s, %d tree line%s (%s)",
            l->coll_channels, l->nvls_channels, l->p2p_channels, l->rings,
            l->rings == 1 ? "" : "s", l->trees, l->trees == 1 ? "" : "s", at);
    sn_health_report_add(rep, "nccl.log.collnet", SN_HEALTH_PASS, "job", NULL,
                         "CollNet %s (%d collnet channels%s)",
                         collnet ? "on" : "off", l->collnet_channels,
                         l->collnet_env >= 0
                             ? (l->collnet_env ? ", NCCL_COLLNET_ENABLE=1"
                                               : ", NCCL_COLLNET_ENABLE=0")
                             : "");
}

static void check_warnings(const struct sn_nccl_log *l,
                           struct sn_health_report *rep)
{
    for (int i = 0; i < l->nwarns; i++) {
        char at[300];
        line_ref(l, l->warns[i].line, at, sizeof(at));
        sn_health_report_add(rep, "nccl.log.warn", SN_HEALTH_WARN, at,
                             "NCCL warned: read the lines around it; a "
                             "warning at init often names the missing "
                             "device or library",
                             "%s", l->warns[i].text);
    }
    if (l->warns_total > l->nwarns)
        sn_health_report_add(rep, "nccl.log.warn", SN_HEALTH_WARN, "job",
                             "read the log for the rest",
                             "%d more NCCL WARN lines",
                             l->warns_total - l->nwarns);
    if (l->cut_lines)
        sn_health_report_add(rep, "nccl.log.lines", SN_HEALTH_WARN, "job",
                             "lines this long are not NCCL's: check the "
                             "file is the log",
                             "%lld line%s longer than %d characters cut",
                             l->cut_lines, l->cut_lines == 1 ? "" : "s",
                             SN_NCCL_LOG_MAX_LINE);
}

void sn_nccl_log_check(const struct sn_nccl_log *l,
                       const struct sn_nccl_design *d,
                       struct sn_health_report *rep)
{
    if (!d)
        d = sn_nccl_design_none();
    check_version(l, rep);
    check_ranks(l, d, rep);
    check_net(l, d, rep);
    check_transport(l, d, rep);
    check_gdr(l, d, rep);
    check_nvls(l, d, rep);
    check_channels(l, d, rep);
    check_warnings(l, rep);
}
