/* nccl.c (export): the NCCL topology file of one node
 * (NCCL_TOPO_FILE), read from the built topology: CPUs, the PCIe tree
 * with its switches, GPUs with their NVLink counts, NICs with their
 * speed. NCCL's own parser (src/graph/xml.cc) sets the rules this file
 * keeps: no XML declaration, spaces and newlines only, at most 16
 * attributes a node, strings under 255 characters. docs/export.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export-int.h"
#include "sn/export.h"
#include "sn/spec.h"
#include "sn/topo.h"

/* What one node may hold here: NCCL's MAX_SUBS was 32 children a node in
 * its older parsers (xml.h; 640 in 2.30), and one CPU's bus domain has
 * 256 bus numbers for its switches and devices. */
#define MAX_GPUS 32
#define MAX_NICS 32
#define MAX_CPUS 8
#define MAX_NVSW 32

/* PCI class codes NCCL keys on (topo.cc kvDictPciClass). */
#define CLASS_BRIDGE "0x060400"
#define CLASS_NVSWITCH "0x068000"

/* Placeholder NIC GUIDs: "SN" in the top bytes, node and NIC below. */
#define GUID_BASE 0x534e000000000000ull

/* A GPU's identity as NCCL wants it: compute capability (sm) and PCI ids.
 * sm: CUDA's compute capability list (developer.nvidia.com/cuda-gpus);
 * device ids: the PCI ID repository (pci-ids.ucw.cz, vendor 10de); 0:
 * not written (NCCL reads the device id only to tell GPUs apart). */
struct gpu_ident {
    const char *prefix; /* catalog name prefix */
    int sm;
    unsigned device;
};

static const struct gpu_ident gpu_idents[] = {
    {"a100", 80, 0x20b2},
    {"a800", 80, 0},
    {"h100", 90, 0x2330},
    {"h200", 90, 0x2335},
    {"h800", 90, 0},
    {"h20", 90, 0},
    {"b200", 100, 0x2901},
    {"gb200", 100, 0},
    {"b300", 103, 0},
    {"gb300", 103, 0},
    {"l20", 89, 0},
    /* AMD (RCCL writes HIP's major x 10 + minor: gfx942 is 9.4, gfx950
     * 9.5, ROCm's GPU list); MI300X 1002:74a1 (pci-ids) */
    {"mi300x", 94, 0x74a1},
    {"mi325x", 94, 0},
    {"mi355x", 95, 0},
};

struct node_view {
    const struct sn_topo *t;
    uint32_t sn, server, index;
    bool amd; /* RCCL: <xgmi> links, AMD ids */
    bool c2c; /* GPUs on their CPU by NVLink-C2C (Grace) */
    const struct sn_nccl_machine *m; /* the machine's names, or NULL */
    uint32_t gpu[MAX_GPUS], nic[MAX_NICS], cpu[MAX_CPUS], nvsw[MAX_NVSW];
    size_t ngpu, nnic, ncpu, nnvsw;
    int gpu_cpu[MAX_GPUS], nic_cpu[MAX_NICS];
    int nic_gpu[MAX_NICS]; /* the GPU a NIC sits beside, -1: none */
    int gpu_sw[MAX_GPUS];  /* PCIe switch (per CPU) of a GPU, -1: none */
    char gpu_bus[MAX_GPUS][24], nic_bus[MAX_NICS][24], nvsw_bus[MAX_NVSW][24];
};

static uint32_t other_end(const struct sn_link *l, uint32_t v)
{
    return l->a == v ? l->b : l->a;
}

static int index_of(const uint32_t *ids, size_t n, uint32_t id)
{
    for (size_t i = 0; i < n; i++)
        if (ids[i] == id)
            return (int)i;
    return -1;
}

/* The node's devices, in index order, and how they hang together. */
static int gather(struct node_view *v, struct sn_error *err)
{
    const struct sn_topo *t = v->t;

    for (size_t i = 0; i < t->nnodes; i++) {
        const struct sn_node *n = &t->nodes[i];
        bool here = n->supernode == v->sn && n->server == v->server;
        if (!here)
            continue;
        if (n->kind == SN_NODE_ACCEL && v->ngpu < MAX_GPUS)
            v->gpu[v->ngpu++] = (uint32_t)i;
        else if (n->kind == SN_NODE_NIC && v->nnic < MAX_NICS)
            v->nic[v->nnic++] = (uint32_t)i;
        else if (n->kind == SN_NODE_CPU && v->ncpu < MAX_CPUS)
            v->cpu[v->ncpu++] = (uint32_t)i;
        else if (n->kind == SN_NODE_SWITCH && n->role == SN_SW_SCALEUP_L1 &&
                 v->nnvsw < MAX_NVSW)
            v->nvsw[v->nnvsw++] = (uint32_t)i;
        else if (n->kind != SN_NODE_SWITCH)
            return sn_error_set(err, SN_EINPUT,
                                "node %u has more devices than an NCCL "
                                "topology file takes here (%d GPUs, %d NICs, "
                                "%d CPUs)",
                                v->index, MAX_GPUS, MAX_NICS, MAX_CPUS);
    }
    if (v->ngpu == 0 || v->ncpu == 0)
        return sn_error_set(err, SN_EINPUT,
                            "node %u has no accelerators or no host CPU",
                            v->index);
    for (size_t g = 0; g < v->ngpu; g++) {
        v->gpu_cpu[g] = sn__export_cpu_index(t, v->gpu[g]);
        if (v->gpu_cpu[g] >= (int)v->ncpu)
            v->gpu_cpu[g] = 0;
    }
    for (size_t j = 0; j < v->nnic; j++) {
        uint32_t id = v->nic[j];
        v->nic_cpu[j] = sn__export_cpu_index(t, id);
        if (v->nic_cpu[j] >= (int)v->ncpu)
            v->nic_cpu[j] = 0;
        v->nic_gpu[j] = -1;
        for (uint32_t k = t->adj_off[id]; k < t->adj_off[id + 1]; k++) {
            int g =
                index_of(v->gpu, v->ngpu, other_end(&t->links[t->adj[k]], id));
            if (g >= 0 && t->links[t->adj[k]].cls == SN_LINK_HOST) {
                v->nic_gpu[j] = g;
                break;
            }
        }
    }
    return SN_OK;
}

/* The common layout (HGX/DGX boards): GPUs split over the CPUs by the
 * topology, one PCIe switch per pair of GPUs of a CPU with the NICs that
 * sit beside them; bus numbers given in NCCL's form, domain = CPU. A
 * C2C-attached GPU (Grace) hangs from its CPU with no switch. */
static void lay_out(struct node_view *v, const struct sn_nccl_machine *m)
{
    int pos[MAX_CPUS] = {0};

    for (size_t g = 0; g < v->ngpu; g++) {
        int c = v->gpu_cpu[g];
        if (v->c2c) {
            v->gpu_sw[g] = -1;
            snprintf(v->gpu_bus[g], sizeof(v->gpu_bus[g]), "%04x:%02x:00.0", c,
                     0x01 + pos[c]++);
            continue;
        }
        v->gpu_sw[g] = pos[c] / 2;
        snprintf(v->gpu_bus[g], sizeof(v->gpu_bus[g]), "%04x:%02x:00.0", c,
                 0x10 + 0x10 * v->gpu_sw[g] + 1 + pos[c] % 2);
        pos[c]++;
    }
    for (size_t j = 0; j < v->nnic; j++) {
        int g = v->nic_gpu[j], c = v->nic_cpu[j];
        if (g >= 0 && v->gpu_sw[g] >= 0 && v->gpu_cpu[g] == c) {
            /* beside its GPU: buses 3.. of that switch, in NIC order */
            int k = 0;
            for (size_t i = 0; i < j; i++)
                k += v->nic_gpu[i] >= 0 &&
                     v->gpu_sw[v->nic_gpu[i]] == v->gpu_sw[g] &&
                     v->nic_cpu[i] == c;
            snprintf(v->nic_bus[j], sizeof(v->nic_bus[j]), "%04x:%02x:00.0", c,
                     0x10 + 0x10 * v->gpu_sw[g] + 3 + k);
        } else {
            snprintf(v->nic_bus[j], sizeof(v->nic_bus[j]), "%04x:%02x:00.0", c,
                     0xc0 + (int)j);
        }
    }
    /* the machine's own ids where given: NCCL matches GPUs by bus id */
    for (size_t g = 0; m && g < v->ngpu; g++)
        if (m->gpu_busid[g][0])
            sn_strlcpy(v->gpu_bus[g], m->gpu_busid[g], sizeof(v->gpu_bus[g]));
    for (size_t j = 0; m && j < v->nnic; j++)
        if (m->nic_busid[j][0])
            sn_strlcpy(v->nic_bus[j], m->nic_busid[j], sizeof(v->nic_bus[j]));
    for (size_t s = 0; s < v->nnvsw; s++)
        snprintf(v->nvsw_bus[s], sizeof(v->nvsw_bus[s]), "%04x:%02x:00.0",
                 (int)v->ncpu, 0x10 + (int)s);
}

static const struct gpu_ident *ident_of(const struct sn_accel_info *a)
{
    const struct gpu_ident *best = NULL;

    for (size_t i = 0; i < sizeof(gpu_idents) / sizeof(gpu_idents[0]); i++)
        if (sn_startswith(a->name, gpu_idents[i].prefix) &&
            (!best || strlen(gpu_idents[i].prefix) > strlen(best->prefix)))
            best = &gpu_idents[i];
    return best;
}

/* One NVLink (or xGMI) target of a GPU and how many links reach it. */
struct nvl_target {
    char busid[24];
    const char *tclass;
    int count;
};

/* The GPU's scale-up links grouped by what they reach: each on-board
 * switch chip, the off-board switches as one (NCCL merges every NVSwitch
 * into one node; MNNVL dumps name them "fffffff:ffff:ff"), each peer GPU
 * of the node. Returns the number of targets. */
static size_t nvl_targets(const struct node_view *v, size_t g,
                          struct nvl_target *out, size_t max)
{
    const struct sn_topo *t = v->t;
    uint32_t id = v->gpu[g];
    size_t n = 0;

    for (uint32_t k = t->adj_off[id]; k < t->adj_off[id + 1]; k++) {
        const struct sn_link *l = &t->links[t->adj[k]];
        uint32_t o = other_end(l, id);
        char busid[24];
        const char *tclass;
        int s, p;
        size_t i;
        if (l->cls != SN_LINK_SCALE_UP)
            continue;
        if ((s = index_of(v->nvsw, v->nnvsw, o)) >= 0) {
            sn_strlcpy(busid, v->nvsw_bus[s], sizeof(busid));
            tclass = CLASS_NVSWITCH;
        } else if ((p = index_of(v->gpu, v->ngpu, o)) >= 0) {
            sn_strlcpy(busid, v->gpu_bus[p], sizeof(busid));
            tclass = v->amd ? "0x038000" : "0x030200";
        } else if (t->nodes[o].kind == SN_NODE_SWITCH) {
            sn_strlcpy(busid, "fffffff:ffff:ff", sizeof(busid));
            tclass = CLASS_NVSWITCH;
        } else {
            continue; /* a GPU of another node: not this node's file */
        }
        for (i = 0; i < n && strcmp(out[i].busid, busid); i++)
            ;
        if (i == n) {
            if (n == max)
                continue;
            sn_strlcpy(out[n].busid, busid, sizeof(out[n].busid));
            out[n].tclass = tclass;
            out[n++].count = 0;
        }
        out[i].count += l->lanes ? l->lanes : 1;
    }
    return n;
}

static const char *pcie_speed(double bw)
{
    /* per direction of an x16 link: PCIe 5.0 63 GB/s, 6.0 twice that
     * (PCI-SIG); NCCL's strings (topo.cc kvDictPciGen) */
    return bw > SN_PCIE5_X16 * 1.01 ? "64.0 GT/s PCIe" : "32.0 GT/s PCIe";
}

static void put_gpu(struct sn_buf *b, const struct node_view *v, size_t g,
                    const struct gpu_ident *id, int indent)
{
    struct nvl_target tg[MAX_NVSW + MAX_GPUS + 1];
    size_t n = nvl_targets(v, g, tg, sizeof(tg) / sizeof(tg[0]));
    struct sn_accel_host host;

    sn_accel_host(v->t->spec->accel, &host);
    sn_buf_printf(b, "%*s<pci busid=\"%s\" class=\"%s\" vendor=\"%s\"", indent,
                  "", v->gpu_bus[g], v->amd ? "0x038000" : "0x030200",
                  v->amd ? "0x1002" : "0x10de");
    if (id && id->device)
        sn_buf_printf(b, " device=\"0x%04x\"", id->device);
    sn_buf_printf(b, " link_speed=\"%s\" link_width=\"16\">\n",
                  pcie_speed(v->c2c ? SN_PCIE5_X16 : host.bw));
    sn_buf_printf(b, "%*s<gpu dev=\"%zu\" sm=\"%d\" rank=\"%zu\" gdr=\"1\"",
                  indent + 2, "", g, id ? id->sm : 0, g);
    if (!n && !v->c2c) {
        sn_buf_puts(b, "/>\n");
    } else {
        sn_buf_puts(b, ">\n");
        for (size_t i = 0; i < n; i++)
            sn_buf_printf(b,
                          "%*s<%s target=\"%s\" count=\"%d\" "
                          "tclass=\"%s\"/>\n",
                          indent + 4, "", v->amd ? "xgmi" : "nvlink",
                          tg[i].busid, tg[i].count, tg[i].tclass);
        /* NVLink-C2C to the Grace CPU: NCCL takes count x bw (MB/s) as
         * the link's GB/s x 1000 (topo.cc ncclTopoAddC2c); written as
         * one link of the whole per-direction bandwidth */
        if (v->c2c)
            sn_buf_printf(b, "%*s<c2c count=\"1\" bw=\"%.0f\"/>\n", indent + 4,
                          "", host.bw / 1e6);
        sn_buf_printf(b, "%*s</gpu>\n", indent + 2, "");
    }
    sn_buf_printf(b, "%*s</pci>\n", indent, "");
}

/* A NIC's RDMA device name: the machine's where given (NCCL finds a NIC
 * of the file by it), else mlx5_J for NVIDIA (Mellanox) NICs, netJ. */
static const char *net_name(const struct node_view *v, size_t j, bool mlx,
                            char *buf)
{
    bool named = false;

    for (size_t i = 0; v->m && i < SN_NCCL_MAX_DEV; i++)
        named |= v->m->nic_name[i][0] != '\0';
    if (named && v->m->nic_name[j][0])
        return v->m->nic_name[j];
    /* the machine names some NICs: the others must not take their names */
    snprintf(buf, 64, "%s%zu", named ? "sn_nic" : mlx ? "mlx5_" : "net", j);
    return buf;
}

static void put_nic(struct sn_buf *b, const struct node_view *v, size_t j,
                    int indent)
{
    char name[64];
    const struct sn_scaleout *so = &v->t->spec->scaleout;
    const struct sn_nic_info *nic = so->nic;
    bool mlx = nic && sn_strcaseeq(nic->vendor, "NVIDIA");
    double rate = so->nic_bw > 0 ? so->nic_bw : (nic ? nic->rate : 0);

    sn_buf_printf(b, "%*s<pci busid=\"%s\" class=\"%s\"", indent, "",
                  v->nic_bus[j], mlx ? "0x020700" : "0x020000");
    if (mlx)
        sn_buf_puts(b, " vendor=\"0x15b3\"");
    sn_buf_printf(b, " link_speed=\"%s\" link_width=\"16\">\n",
                  pcie_speed(rate > 50e9 ? 2 * SN_PCIE5_X16 : SN_PCIE5_X16));
    /* speed in Mb/s (topo.cc: bw = speed / 8000 GB/s); guid distinct per
     * NIC so NCCL keeps them apart (ports of one NIC share a guid) */
    sn_buf_printf(b,
                  "%*s<nic>\n%*s<net name=\"%s\" dev=\"%zu\" "
                  "speed=\"%.0f\" port=\"1\" latency=\"0\" "
                  "guid=\"0x%016llx\" maxconn=\"131072\" gdr=\"1\"/>\n"
                  "%*s</nic>\n",
                  indent + 2, "", indent + 4, "", net_name(v, j, mlx, name), j,
                  rate * 8 / 1e6,
                  GUID_BASE | (unsigned long long)v->index << 16 |
                      (unsigned long long)(j + 1),
                  indent + 2, "");
    sn_buf_printf(b, "%*s</pci>\n", indent, "");
}

/* The CPU element: arch and vendor NCCL needs to weigh the inter-socket
 * path (topo.cc ncclTopoAddCpu: x86 needs vendor, Intel also family and
 * model). Grace (C2C designs) is arm64. x86 hosts as the vendors' own
 * servers carry them [E: the spec names no CPU]: NVIDIA HGX/DGX H100 and
 * H200 2x Xeon Platinum 8480C (Sapphire Rapids, family 6 model 0x8f,
 * DGX H100 user guide), B200/B300 Xeon 8570 (Emerald Rapids, 0xcf); AMD
 * accelerators on AMD EPYC. Affinity is left out: NCCL fills it from
 * /sys/devices/system/node/nodeN/cpumap of the machine it runs on. */
static void put_cpu_open(struct sn_buf *b, const struct node_view *v, int c)
{
    const char *name = v->t->spec->accel->name;

    sn_buf_printf(b, "  <cpu numaid=\"%d\"", c);
    if (v->c2c)
        sn_buf_puts(b, " arch=\"arm64\" vendor=\"ARM\"");
    else if (v->amd)
        sn_buf_puts(b, " arch=\"x86_64\" vendor=\"AuthenticAMD\"");
    else
        sn_buf_printf(b,
                      " arch=\"x86_64\" vendor=\"GenuineIntel\" "
                      "familyid=\"6\" modelid=\"%d\"",
                      sn_startswith(name, "b200") || sn_startswith(name, "b300")
                          ? 0xcf
                          : 0x8f);
    sn_buf_puts(b, ">\n");
}

static void put_cpu(struct sn_buf *b, const struct node_view *v, int c,
                    const struct gpu_ident *id)
{
    int last_sw = -1;

    put_cpu_open(b, v, c);
    for (size_t g = 0; g < v->ngpu; g++) {
        int sw = v->gpu_sw[g];
        if (v->gpu_cpu[g] != c || sw < 0)
            continue;
        if (sw != last_sw) {
            /* a new switch: its GPUs and the NICs beside them */
            sn_buf_printf(b,
                          "    <pci busid=\"%04x:%02x:00.0\" class=\"%s\" "
                          "link_speed=\"%s\" link_width=\"16\">\n",
                          c, 0x10 + 0x10 * sw, CLASS_BRIDGE,
                          pcie_speed(SN_PCIE5_X16));
            for (size_t h = g; h < v->ngpu; h++)
                if (v->gpu_cpu[h] == c && v->gpu_sw[h] == sw)
                    put_gpu(b, v, h, id, 6);
            for (size_t j = 0; j < v->nnic; j++)
                if (v->nic_gpu[j] >= 0 && v->gpu_sw[v->nic_gpu[j]] == sw &&
                    v->gpu_cpu[v->nic_gpu[j]] == c && v->nic_cpu[j] == c)
                    put_nic(b, v, j, 6);
            sn_buf_puts(b, "    </pci>\n");
            last_sw = sw;
        }
    }
    for (size_t g = 0; g < v->ngpu; g++)
        if (v->gpu_cpu[g] == c && v->gpu_sw[g] < 0)
            put_gpu(b, v, g, id, 4);
    for (size_t j = 0; j < v->nnic; j++) {
        int g = v->nic_gpu[j];
        bool beside = g >= 0 && v->gpu_sw[g] >= 0 && v->gpu_cpu[g] == c &&
                      v->nic_cpu[j] == c;
        if (v->nic_cpu[j] == c && !beside)
            put_nic(b, v, j, 4);
    }
    sn_buf_puts(b, "  </cpu>\n");
}

/* Text inside an XML comment: letters, digits and " ._+/()" as they
 * are, a '-' unless it follows one (XML forbids "--" there), anything
 * else '_'; at most 64 characters. */
static void put_comment_text(struct sn_buf *b, const char *s)
{
    for (size_t i = 0; s[i] && i < 64; i++) {
        char c = s[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  (c >= '0' && c <= '9') || strchr(" ._+/()", c) ||
                  (c == '-' && (i == 0 || s[i - 1] != '-'));
        sn_buf_putc(b, ok ? c : '_');
    }
}

int sn_export_nccl_topo(const struct sn_topo *t, uint32_t node,
                        struct sn_buf *out, struct sn_error *err)
{
    return sn_export_nccl_topo_on(t, node, NULL, out, err);
}

/* A device the machine file names that the node does not have. */
static int machine_extra(const struct node_view *v,
                         const struct sn_nccl_machine *m, struct sn_error *err)
{
    for (size_t i = 0; m && i < SN_NCCL_MAX_DEV; i++) {
        if (m->gpu_busid[i][0] && i >= v->ngpu)
            return sn_error_set(err, SN_EINPUT,
                                "the machine file names gpu %zu; node %u has "
                                "%zu GPUs",
                                i, v->index, v->ngpu);
        if (m->nic_busid[i][0] && i >= v->nnic)
            return sn_error_set(err, SN_EINPUT,
                                "the machine file names nic %zu; node %u has "
                                "%zu NICs",
                                i, v->index, v->nnic);
    }
    return SN_OK;
}

int sn_export_nccl_topo_on(const struct sn_topo *t, uint32_t node,
                           const struct sn_nccl_machine *m, struct sn_buf *out,
                           struct sn_error *err)
{
    const struct sn_spec *s = t->spec;
    int per = sn_spec_nodes_per_supernode(s);
    long long nodes = (long long)per * s->supernodes;
    struct node_view *v;
    const struct gpu_ident *id;
    struct sn_accel_host host;
    int rc;

    if (node >= nodes)
        return sn_error_set(err, SN_EINPUT,
                            "node %u is not in the design (expected 0 to "
                            "%lld)",
                            node, nodes - 1);
    if (!sn_strcaseeq(s->accel->vendor, "NVIDIA") &&
        !sn_strcaseeq(s->accel->vendor, "AMD"))
        return sn_error_set(err, SN_EINPUT,
                            "accelerator '%s' is %s's: an NCCL topology file "
                            "is read by NCCL (NVIDIA) and RCCL (AMD) only",
                            s->accel->name, s->accel->vendor);
    v = sn_xcalloc(1, sizeof(*v));
    v->t = t;
    v->index = node;
    v->sn = node / (uint32_t)per;
    v->server = node % (uint32_t)per;
    v->amd = sn_strcaseeq(s->accel->vendor, "AMD");
    sn_accel_host(s->accel, &host);
    v->c2c = strcmp(host.link, "PCIe") != 0;
    v->m = m;
    if ((rc = gather(v, err)) || (rc = machine_extra(v, m, err)))
        goto out;
    lay_out(v, m);
    id = ident_of(s->accel);
    sn_buf_puts(out, "<system version=\"1\">\n");
    sn_buf_puts(out, "  <!-- supernode export nccl-topo: design '");
    put_comment_text(out, s->name ? s->name : "");
    sn_buf_printf(out,
                  "', node %u (supernode %u, node %u) -->\n"
                  "  <!-- layout %s; %s -->\n",
                  node, v->sn, v->server,
                  v->c2c ? "GPUs on their CPU by NVLink-C2C, NICs on the CPU"
                         : "one PCIe switch per GPU pair of a CPU with the "
                           "NICs beside them (HGX/DGX)",
                  m ? "GPU and NIC bus ids the machine's where its file "
                      "gave them, the rest placeholders"
                    : "bus ids are placeholders in NCCL's form: NCCL keeps "
                      "only the GPUs whose bus id it finds on the machine "
                      "(docs/export.md: the machine file)");
    for (size_t c = 0; c < v->ncpu; c++)
        put_cpu(out, v, (int)c, id);
    sn_buf_puts(out, "</system>\n");
out:
    free(v);
    return rc;
}
