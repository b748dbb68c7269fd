/* coll-fixtures.c: hand-built topologies for the model tests (see
 * coll-fixtures.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll-fixtures.h"

static uint32_t add(struct sn_topo *t, int kind, int role, uint32_t sn,
                    uint32_t server, uint32_t index, uint32_t rank,
                    uint16_t plane)
{
    struct sn_node n;

    memset(&n, 0, sizeof(n));
    n.kind = (uint8_t)kind;
    n.role = (uint8_t)role;
    n.supernode = sn;
    n.server = server;
    n.rack = sn == SN_NONE ? 999 : sn;
    n.unit = (uint16_t)(server + 1);
    n.index = index;
    n.rank = rank;
    n.plane = plane;
    return sn_topo_add_node(t, &n);
}

struct sn_topo *fx_ring(uint32_t n, double bw, double lat)
{
    struct sn_topo *t = sn_topo_new(NULL);
    uint32_t *id = malloc(n * sizeof(uint32_t));
    struct sn_error err;

    for (uint32_t i = 0; i < n; i++)
        id[i] = add(t, SN_NODE_ACCEL, SN_SW_NONE, 0, 0, i, i, SN_NONE16);
    for (uint32_t i = 0; i < n; i++)
        sn_topo_add_link(t, id[i], id[(i + 1) % n], SN_LINK_SCALE_UP,
                         SN_MEDIUM_COPPER, bw, lat, 1);
    t->accel_transit = true;
    if (sn_topo_finish(t, &err)) {
        fprintf(stderr, "fx_ring: %s\n", err.msg);
        abort();
    }
    free(id);
    return t;
}

void fx_rail_network(struct fx_cluster *c)
{
    memset(c, 0, sizeof(*c));
    c->servers = 4;
    c->nics = 4;
    c->nic_bw = 25e9;
    c->pcie_bw = 64e9;
    c->rail = true;
    c->hosts_per_leaf = 4;
    c->spines = 2;
    c->uplinks = 4;
    c->uplink_bw = 25e9;
}

void fx_two_server_domains(struct fx_cluster *c, uint32_t servers,
                           uint32_t spines)
{
    memset(c, 0, sizeof(*c));
    c->servers = servers;
    c->gpus = 4;
    c->servers_per_domain = 2;
    c->chips = 2;
    c->links_per_gpu = 4;
    c->up_bw = 25e9;
    c->nics = 4;
    c->nic_bw = 50e9;
    c->pcie_bw = 64e9;
    c->hosts_per_leaf = 8;
    c->spines = spines;
    c->uplinks = 4;
    c->uplink_bw = 50e9;
}

struct sn_topo *fx_build(const struct fx_cluster *c)
{
    struct sn_topo *t = sn_topo_new(NULL);
    uint32_t spd = c->servers_per_domain ? c->servers_per_domain : 1;
    uint32_t ndom = (c->servers + spd - 1) / spd;
    uint32_t *chip =
        calloc((size_t)ndom * (c->chips + 1) + 1, sizeof(uint32_t));
    uint32_t *gpu = calloc((size_t)c->servers * c->gpus + 1, sizeof(uint32_t));
    uint32_t *nic =
        calloc((size_t)c->servers * (c->nics + 1) + 1, sizeof(uint32_t));
    uint32_t *cpu = calloc(c->servers + 1, sizeof(uint32_t));
    uint32_t nports = c->servers * c->nics, nleaves = 0, *leaf, *spine;
    uint32_t per_rail = 0;
    struct sn_error err;

    for (uint32_t s = 0; s < c->servers; s++) {
        uint32_t d = s / spd;
        for (uint32_t g = 0; g < c->gpus; g++)
            gpu[s * c->gpus + g] = add(t, SN_NODE_ACCEL, SN_SW_NONE, d, s % spd,
                                       g, s * c->gpus + g, SN_NONE16);
        cpu[s] =
            add(t, SN_NODE_CPU, SN_SW_NONE, d, s % spd, 0, SN_NONE, SN_NONE16);
        for (uint32_t k = 0; k < c->nics; k++)
            nic[s * c->nics + k] = add(t, SN_NODE_NIC, SN_SW_NONE, d, s % spd,
                                       k, SN_NONE, (uint16_t)k);
    }
    for (uint32_t d = 0; d < ndom; d++)
        for (uint32_t k = 0; k < c->chips; k++)
            chip[d * c->chips + k] = add(t, SN_NODE_SWITCH, SN_SW_SCALEUP_L1, d,
                                         0, k, SN_NONE, (uint16_t)k);
    /* leaves: per rail, or over all NIC ports in order */
    if (c->nics && c->hosts_per_leaf) {
        if (c->rail) {
            per_rail = (c->servers + c->hosts_per_leaf - 1) / c->hosts_per_leaf;
            nleaves = per_rail * c->nics;
        } else {
            nleaves = (nports + c->hosts_per_leaf - 1) / c->hosts_per_leaf;
        }
    }
    leaf = calloc(nleaves + 1, sizeof(uint32_t));
    spine = calloc(c->spines + 1, sizeof(uint32_t));
    for (uint32_t l = 0; l < nleaves; l++)
        leaf[l] = add(t, SN_NODE_SWITCH, SN_SW_LEAF, SN_NONE, 0, l, SN_NONE,
                      SN_NONE16);
    for (uint32_t k = 0; k < c->spines; k++)
        spine[k] = add(t, SN_NODE_SWITCH, SN_SW_SPINE, SN_NONE, 0, k, SN_NONE,
                       SN_NONE16);
    /* scale-up: links dealt round-robin over the domain's chips */
    for (uint32_t s = 0; s < c->servers; s++)
        for (uint32_t g = 0; g < c->gpus; g++)
            for (uint32_t i = 0; c->chips && i < c->links_per_gpu; i++)
                sn_topo_add_link(t, gpu[s * c->gpus + g],
                                 chip[(s / spd) * c->chips + i % c->chips],
                                 SN_LINK_SCALE_UP, SN_MEDIUM_COPPER, c->up_bw,
                                 c->up_lat, 1);
    /* network */
    for (uint32_t s = 0; s < c->servers; s++)
        for (uint32_t k = 0; k < c->nics && nleaves; k++) {
            uint32_t l = c->rail ? k * per_rail + s / c->hosts_per_leaf
                                 : (s * c->nics + k) / c->hosts_per_leaf;
            sn_topo_add_link(t, nic[s * c->nics + k], leaf[l],
                             SN_LINK_SCALE_OUT, SN_MEDIUM_AOC, c->nic_bw,
                             c->net_lat, 10);
        }
    for (uint32_t l = 0; l < nleaves && c->spines; l++)
        for (uint32_t u = 0; u < c->uplinks; u++)
            sn_topo_add_link(t, leaf[l], spine[(l + u) % c->spines],
                             SN_LINK_SCALE_OUT, SN_MEDIUM_MMF, c->uplink_bw,
                             c->net_lat, 30);
    /* host: every NIC and every accelerator to the CPU, every accelerator
     * to its NIC (GPUDirect) */
    for (uint32_t s = 0; s < c->servers; s++)
        for (uint32_t k = 0; k < c->nics; k++)
            sn_topo_add_link(t, nic[s * c->nics + k], cpu[s], SN_LINK_HOST,
                             SN_MEDIUM_BOARD, c->pcie_bw, 1e-7, 0.2);
    for (uint32_t s = 0; s < c->servers; s++)
        for (uint32_t g = 0; g < c->gpus; g++) {
            for (uint32_t j = 0;
                 c->nics && j < (c->nic_links ? c->nic_links : 1); j++)
                sn_topo_add_link(
                    t, gpu[s * c->gpus + g],
                    nic[s * c->nics + (g * c->nics / c->gpus + j) % c->nics],
                    SN_LINK_HOST, SN_MEDIUM_BOARD, c->pcie_bw, 1e-7, 0.2);
            sn_topo_add_link(t, gpu[s * c->gpus + g], cpu[s], SN_LINK_HOST,
                             SN_MEDIUM_BOARD, c->pcie_bw, 1e-7, 0.2);
        }
    if (sn_topo_finish(t, &err)) {
        fprintf(stderr, "fx_build: %s\n", err.msg);
        abort();
    }
    free(chip);
    free(gpu);
    free(nic);
    free(cpu);
    free(leaf);
    free(spine);
    return t;
}

void fx_ideal_params(struct sn_coll_params *p)
{
    sn_coll_params_default(NULL, p);
    for (int c = 0; c < SN_LINK_CLASS_COUNT; c++)
        p->link_eff[c] = 1;
    for (int k = 0; k < SN_PROTO_COUNT; k++) {
        p->proto_on[k] = k == SN_PROTO_SIMPLE;
        p->proto_eff[k] = 1;
        p->ring_base[k] = p->tree_base[k] = 0;
        for (int c = 0; c < SN_LINK_CLASS_COUNT; c++)
            p->ring_hop[c][k] = p->tree_hop[c][k] = 0;
    }
    p->nvls_hop = p->nvls_net_hop = 0;
    p->ring_plateau = 1;
    p->tree_eff = 1;
    p->nvls = false;
}

struct sn_topo *fx_dgx_a100(uint32_t servers)
{
    struct fx_cluster c;

    memset(&c, 0, sizeof(c));
    c.servers = servers;
    c.gpus = 8;
    c.chips = 6;
    c.links_per_gpu = 12;
    c.up_bw = 25e9;
    c.up_lat = 0.35e-6;
    c.nics = 8;
    c.nic_bw = 25e9; /* HDR 200 Gb/s */
    c.net_lat = 0.3e-6;
    c.pcie_bw = 32e9;
    c.rail = true;
    c.hosts_per_leaf = 32;
    c.spines = servers > 1 ? 8 : 0;
    c.uplinks = 32;
    c.uplink_bw = 25e9;
    return fx_build(&c);
}

struct sn_topo *fx_dgx_h100(uint32_t servers)
{
    struct fx_cluster c;

    memset(&c, 0, sizeof(c));
    c.servers = servers;
    c.gpus = 8;
    c.chips = 4;
    c.links_per_gpu = 18;
    c.up_bw = 25e9;
    c.up_lat = 0.35e-6;
    c.nics = 8;
    c.nic_bw = 50e9; /* NDR 400 Gb/s */
    c.net_lat = 0.3e-6;
    c.pcie_bw = 64e9;
    c.rail = true;
    c.hosts_per_leaf = 32;
    c.spines = servers > 1 ? 8 : 0;
    c.uplinks = 32;
    c.uplink_bw = 50e9;
    return fx_build(&c);
}

void fx_params_nvlink(int gen, bool nvls, struct sn_coll_params *p)
{
    /* the same table sn_coll_params_default() reads from a spec's
     * accelerator; built here through a stub spec with only the fields
     * it looks at */
    static struct sn_accel_info a3 = {.name = "a100",
                                      .scaleup_name = "NVLink 3"};
    static struct sn_accel_info a4 = {.name = "h100",
                                      .scaleup_name = "NVLink 4"};
    static struct sn_accel_info a5 = {.name = "b200",
                                      .scaleup_name = "NVLink 5"};
    static struct sn_spec spec;
    struct sn_topo t;

    memset(&spec, 0, sizeof(spec));
    memset(&t, 0, sizeof(t));
    spec.accel = gen == 3 ? &a3 : gen == 4 ? &a4 : &a5;
    spec.scaleup.in_network_reduction = nvls;
    t.spec = &spec;
    sn_coll_params_default(&t, p);
}

struct sn_coll_model *fx_model(const struct sn_topo *t,
                               const struct sn_coll_params *p)
{
    struct sn_coll_model *m = NULL;
    struct sn_error err;

    if (sn_coll_model_new_params(t, p, &m, &err) != SN_OK)
        printf("  sn_coll_model_new_params: %s\n", err.msg);
    return m;
}

struct sn_coll_model *fx_model_nvlink(const struct sn_topo *t, int gen,
                                      bool nvls)
{
    struct sn_coll_params p;

    fx_params_nvlink(gen, nvls, &p);
    return fx_model(t, &p);
}

struct sn_coll_model *fx_model_ideal(const struct sn_topo *t)
{
    struct sn_coll_params p;

    fx_ideal_params(&p);
    return fx_model(t, &p);
}
