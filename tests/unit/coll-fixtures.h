/* coll-fixtures.h: hand-built topologies for the collective-model, flow
 * and pair tests: a physical ring, and clusters of servers with scale-up
 * switch chips, NICs, leaves and spines in the shapes the closed forms
 * and the published measurements need. */
#ifndef SN_TEST_COLL_FIXTURES_H
#define SN_TEST_COLL_FIXTURES_H

#include <stdbool.h>
#include <stdint.h>

#include "sn/model.h"

/* n accelerators, accelerator i linked to i+1 (mod n) with one scale-up
 * link of bw bytes/s and latency lat; accelerators forward (torus-like). */
struct sn_topo *fx_ring(uint32_t n, double bw, double lat);

struct fx_cluster {
    uint32_t servers;            /* servers (nodes) */
    uint32_t gpus;               /* accelerators per server */
    uint32_t servers_per_domain; /* servers sharing one scale-up domain
                                    (0 or 1: one server each) */
    uint32_t chips;              /* scale-up switch chips per domain */
    uint32_t links_per_gpu;      /* scale-up links per accelerator, dealt
                                    round-robin over the chips */
    double up_bw, up_lat;        /* per scale-up link */
    uint32_t nics;               /* NICs per server; accelerator g uses NIC
                                    g * nics / gpus */
    uint32_t nic_links;          /* NICs per accelerator (0 or 1: one);
                                    the next ones in order, wrapping */
    double nic_bw, net_lat;      /* per NIC port, per network link */
    double pcie_bw;              /* accelerator-NIC and accelerator-CPU */
    uint32_t hosts_per_leaf;     /* NIC ports per leaf */
    bool rail;                   /* a leaf serves one NIC index (rail) */
    uint32_t spines;             /* 0: a single leaf, no spines */
    uint32_t uplinks;            /* links per leaf, dealt over the spines */
    double uplink_bw;            /* per leaf-spine link */
};

/* c zeroed, then the network the rail tests share: 4 servers of 4 NICs
 * of 25 GB/s on PCIe Gen5 (64 GB/s), rail-optimised leaves of 4 ports
 * with 4 uplinks of 25 GB/s each over 2 spines. The caller adds the
 * GPUs. */
void fx_rail_network(struct fx_cluster *c);

/* c zeroed, then servers of 4 GPUs in scale-up domains of two servers
 * (2 switch chips, 4 links of 25 GB/s a GPU), a 50 GB/s NIC per GPU on
 * PCIe Gen5 (64 GB/s), leaves of 8 ports with 4 uplinks of 50 GB/s each
 * over spines. */
void fx_two_server_domains(struct fx_cluster *c, uint32_t servers,
                           uint32_t spines);

/* Build a cluster; NULL spec. Aborts the test binary on a bad layout. */
struct sn_topo *fx_build(const struct fx_cluster *c);

/* Constants with every latency and efficiency neutral: link efficiency 1,
 * Simple only with payload share 1, no base or hop latency. What is left
 * is the wire: the closed forms of the textbooks. */
void fx_ideal_params(struct sn_coll_params *p);

/* DGX-style 8-GPU servers (perf-model-anchors.md section 3): */
/* DGX A100: 12 NVLink 3 links of 25 GB/s per GPU over 6 NVSwitch chips,
 * one 200 Gb/s HDR NIC per GPU, PCIe Gen4 x16 (32 GB/s). */
struct sn_topo *fx_dgx_a100(uint32_t servers);
/* DGX H100: 18 NVLink 4 links of 25 GB/s per GPU over 4 NVSwitch chips
 * (NVLS capable), one 400 Gb/s NDR NIC per GPU, PCIe Gen5 x16 (64 GB/s),
 * rail-optimised leaves. */
struct sn_topo *fx_dgx_h100(uint32_t servers);
/* Params for an NVLink generation as sn_coll_params_default() picks them
 * for an accelerator with that generation. */
void fx_params_nvlink(int gen, bool nvls, struct sn_coll_params *p);

/* The collective model of t with the constants p (copied); NULL, having
 * said why, when it cannot be built. The caller frees it before t. */
struct sn_coll_model *fx_model(const struct sn_topo *t,
                               const struct sn_coll_params *p);
/* The same with fx_params_nvlink(gen, nvls), or with fx_ideal_params. */
struct sn_coll_model *fx_model_nvlink(const struct sn_topo *t, int gen,
                                      bool nvls);
struct sn_coll_model *fx_model_ideal(const struct sn_topo *t);

#endif
