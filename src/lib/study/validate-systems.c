/* validate-systems.c: the clusters published training runs ran on, as
 * specs, so that `supernode validate` times their communication through
 * the same topology and collective model as any other spec. A row's gpu
 * column picks the system (first keyword that matches); NIC counts and
 * rates written in the gpu column or the notes ("8x200Gb HDR", "400G per
 * GPU") override the system's default. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/model.h"

struct system {
    const char *key; /* lowercase keyword in the gpu column */
    const char *name;
    const char *accel; /* catalog name, or an inline mapping */
    int per_node;
    int domain; /* accelerators per scale-up domain */
    int nics;   /* per node */
    double nic_gbps;
    const char *extra; /* more supernode keys */
    const char *source;
};

/* Order matters: the first key found in the gpu column wins. */
static const struct system systems[] = {
    {"vtrain", "vtrain-a100", "a100-sxm4-80gb", 8, 8, 4, 200, "",
     "vTrain's configs (VIA-Research/vTrain config/validation/multi): 8 "
     "GPUs a node, 800 Gb/s inter-node, taken as 4 HDR 200G NICs"},
    {"gb300", "gb300-nvl72", "gb300-nvl72", 4, 72, 4, 800, "",
     "GB300 NVL72: 72 GPUs in one NVLink domain, 4 a tray, one "
     "ConnectX-8 800G per GPU"},
    {"gb200", "gb200-nvl72", "gb200-nvl72", 4, 72, 4, 400, "",
     "GB200 NVL72: 72 GPUs in one NVLink domain, 4 a tray, one "
     "ConnectX-7 400G per GPU (DGX GB200)"},
    {"b300", "dgx-b300", "b300-hgx", 8, 8, 8, 800, "",
     "HGX B300: 8 GPUs on NVLink 5, one 800G NIC per GPU"},
    {"b200", "dgx-b200", "b200-hgx", 8, 8, 8, 400, "",
     "DGX B200: 8 GPUs on NVLink 5, one 400G NIC per GPU"},
    {"h800", "hgx-h800", "h800-sxm5", 8, 8, 8, 400, "",
     "H800: H100 compute with 8 NVLink 4 links (200 GB/s a direction); "
     "one 400G InfiniBand NIC per GPU (DeepSeek-V3 report)"},
    {"910c", "cloudmatrix-384", "ascend-910c", 8, 384, 8, 400,
     "  fabric: switched\n  tiers: 2\n  planes: 7\n  switch: ub-switch\n",
     "CloudMatrix 384: 384 Ascend 910C on one Unified Bus domain, 8 a "
     "server, one 400G RDMA port per NPU (Huawei CloudMatrix 384 paper, "
     "arXiv 2506.12708)"},
    {"h200", "hgx-h200", "h200-sxm-141gb", 8, 8, 8, 400, "",
     "HGX H200: 8 GPUs on NVLink 4, one 400G NIC per GPU"},
    {"h100", "dgx-h100", "h100-sxm5-80gb", 8, 8, 8, 400, "",
     "DGX H100 SuperPOD: 8 GPUs on NVLink 4, 8 ConnectX-7 400G"},
    {"a100", "dgx-a100", "a100-sxm4-80gb", 8, 8, 8, 200, "",
     "DGX A100 (Selene): 8 GPUs on NVLink 3, 8 HDR 200G NICs, fat tree"},
    {"mi355", "mi355x-8", "mi355x", 8, 8, 8, 400, "",
     "8 MI355X on Infinity Fabric, one 400G NIC per GPU"},
    {"mi325", "mi325x-8", "mi325x", 8, 8, 8, 400, "",
     "8 MI325X on Infinity Fabric, one 400G NIC per GPU"},
    {"mi300", "mi300x-8", "mi300x", 8, 8, 8, 400, "",
     "8 MI300X on Infinity Fabric, one 400G NIC per GPU"},
    {"gaudi", "gaudi3-8", "gaudi3-oam", 8, 8, 8, 400, "",
     "8 Gaudi 3 on their integrated RoCE links, 400G scale-out per card"},
};

static void lower(const char *s, char *out, size_t size)
{
    size_t i;

    for (i = 0; s && s[i] && i + 1 < size; i++)
        out[i] = (char)tolower((unsigned char)s[i]);
    out[i] = '\0';
}

/* "8x200Gb", "8 x HDR 200G", "8×400G": NICs per node and Gb/s each.
 * "400G per GPU", "400 Gb/s per GPU": one per accelerator. */
static void scan_nics(const char *t, int per_node, int *nics, double *gbps)
{
    for (const char *p = t; *p; p++) {
        char *end;
        long n;
        const char *q;

        if (!isdigit((unsigned char)*p) ||
            (p > t && isalnum((unsigned char)p[-1])))
            continue;
        n = strtol(p, &end, 10);
        q = end;
        while (*q == ' ')
            q++;
        if (n >= 1 && n <= 64 && (*q == 'x' || !strncmp(q, "\xc3\x97", 2))) {
            q += *q == 'x' ? 1 : 2;
            for (int k = 0; k < 16 && *q && !isdigit((unsigned char)*q); k++)
                q++;
            if (isdigit((unsigned char)*q)) {
                double r = strtod(q, &end);
                while (*end == ' ')
                    end++;
                if (r >= 10 && r <= 3200 && (*end == 'g')) {
                    *nics = (int)n;
                    *gbps = r;
                    return;
                }
            }
        }
        if (n >= 10 && n <= 3200) {
            q = end;
            while (*q == ' ')
                q++;
            if (*q == 'g' && strstr(q, "per gpu") &&
                strstr(q, "per gpu") - q < 24) {
                *nics = per_node;
                *gbps = (double)n;
                return;
            }
        }
    }
}

char *sn_validate_system_spec(const char *gpu, const char *notes, int gpus,
                              char *name, size_t name_size)
{
    char g[256], text[1024];
    const struct system *s = NULL;
    struct sn_buf b;
    int nics, per_node, domain, supernodes;
    double gbps;
    const char *accel;
    bool mem40;

    lower(gpu, g, sizeof(g));
    for (size_t i = 0; i < SN_ARRAY_LEN(systems) && !s; i++)
        if (strstr(g, systems[i].key))
            s = &systems[i];
    if (!s || gpus < 1)
        return NULL;
    nics = s->nics;
    gbps = s->nic_gbps;
    per_node = s->per_node;
    domain = s->domain;
    snprintf(text, sizeof(text), "%s %s", gpu ? gpu : "", notes ? notes : "");
    lower(text, text, sizeof(text));
    scan_nics(text, per_node, &nics, &gbps);
    /* a job smaller than one domain gets a domain of its size */
    if (gpus < domain) {
        domain = gpus;
        if (per_node > domain)
            per_node = domain;
    }
    if (gpus % per_node)
        return NULL;
    /* a job of whole nodes that does not fill whole domains runs on the
     * largest block of whole nodes of one domain that divides it, as a
     * scheduler places it (Slurm's topology/block segments: 256 GPUs on
     * NVL72 racks as 4 x 64, 16 trays of each rack) */
    domain -= domain % per_node;
    while (domain > per_node && gpus % domain)
        domain -= per_node;

    supernodes = gpus / domain;
    mem40 = strstr(g, "40gb") != NULL;
    accel = s->accel;
    sn_buf_init(&b);
    sn_buf_printf(&b, "name: %s\n", s->name);
    /* nvidia-smi's total on A100 40GB: 40960 MiB (modal-labs/modal-client
     * PR #2797) */
    if (mem40)
        sn_buf_printf(&b,
                      "accelerator: {base: %s, hbm: 40GB, "
                      "hbm_usable: 40960MiB}\n",
                      accel);
    else
        sn_buf_printf(&b, "accelerator: %s\n", accel);
    sn_buf_printf(&b,
                  "supernode:\n  accelerators: %d\n  per_node: %d\n%s"
                  "supernodes: %d\n",
                  domain, per_node, domain > 1 ? s->extra : "", supernodes);
    if (supernodes > 1 || domain > per_node)
        sn_buf_printf(&b,
                      "scaleout:\n  topology: rail_fat_tree\n"
                      "  nics_per_node: %d\n  nic_rate: %gGbps\n",
                      nics, gbps);
    else
        sn_buf_printf(&b, "scaleout:\n  topology: none\n");
    if (name)
        snprintf(name, name_size, "%s", s->name);
    return sn_buf_detach(&b, NULL);
}
