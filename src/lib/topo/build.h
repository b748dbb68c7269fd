/* build.h: internal interface of the topology builders (build*.c): the
 * builder state shared by the scale-up fabrics, the scale-out networks and
 * the placement that gives every device a rack and a unit.
 *
 * The builders run twice over the same code: a counting pass that only
 * tallies nodes and links, then, with the arrays allocated to those exact
 * sizes, a filling pass. Node ids are arithmetic (sn__topo_server_base and
 * friends), so neither pass needs a lookup table.
 */
#ifndef SN_TOPO_BUILD_H
#define SN_TOPO_BUILD_H

#include <stdbool.h>
#include <stdint.h>

#include "sn/topo.h"

/* A standard rack: 42 usable units of 44.45 mm (EIA-310), unless the spec
 * says otherwise (racks.rack_units). */
#define SN__RACK_UNITS 42u
#define SN__UNIT_HEIGHT 0.04445

/* Caps checked before anything is allocated. */
#define SN__MAX_ACCELS (1u << 22)
#define SN__MAX_LINKS_PER_ACCEL 1024u
#define SN__MAX_NICS_PER_NODE 1024u
#define SN__MAX_NODES 50000000ull
#define SN__MAX_LINKS 100000000ull

/* Where a supernode's off-board scale-up switch chips go. */
enum sn__tray_mode {
    SN__TRAYS_NONE,      /* none, or all on the servers' boards */
    SN__TRAYS_IN_RACK,   /* trays spread over the compute racks */
    SN__TRAYS_OWN_RACKS, /* dedicated switch racks in the middle of the
                            supernode's racks: L2 chips (CloudMatrix-style),
                            or trays that do not fit the compute racks */
};

/* The scale-out network's shape. */
struct sn__topo_net {
    uint32_t radix;
    uint32_t tiers;
    uint32_t down, up; /* leaf ports to NICs and to spines */
    uint32_t ports;    /* NIC ports in the cluster */
    uint32_t leaves, spines, cores;
    uint32_t sus;        /* rail-optimised: scalable units */
    uint32_t pods;       /* 3 tiers: pods of leaves */
    uint32_t pod_leaves; /* leaves per pod = spine down ports */
    uint32_t spine_up;   /* 3 tiers: spine ports to cores */
    uint32_t core_group; /* 3 tiers: cores per spine position */
    uint32_t first;      /* node id of the first network switch */
    uint32_t units;      /* rack units per switch box */
    double bw;           /* per link, per direction */
    double hop;          /* latency of one switch hop */
    uint32_t *nic_uses;  /* explicit: switches listing each server */
};

struct sn__topo_build {
    struct sn_topo *t;
    const struct sn_spec *s;
    struct sn_error *err;
    bool fill; /* false: count only */
    size_t nnodes, nlinks;

    /* shape */
    uint32_t supernodes;
    uint32_t accels;       /* per supernode */
    uint32_t per_node;     /* accelerators per server */
    uint32_t servers;      /* servers per supernode */
    uint32_t nics;         /* NIC ports per server facing the network */
    uint32_t onboard_sw;   /* switch chips on each server's board */
    uint32_t cpus;         /* host CPUs per server */
    uint32_t server_block; /* node ids per server */
    uint32_t offboard_sw;  /* scale-up switch chips per supernode off board */
    uint32_t sn_block;     /* node ids per supernode */

    /* scale-up fabric */
    uint32_t links; /* per accelerator */
    uint32_t planes;
    uint32_t links_per_plane; /* per accelerator per plane */
    uint32_t sw_groups;       /* 1 tier: switch groups (NVL36x2: 2) */
    uint32_t trunk;           /* links between two groups' chips of a
                                 plane position */
    uint32_t spp;             /* switches per plane (L1, or L2 with 2
                                 tiers) */
    uint32_t l1_up;           /* 2 tiers: uplinks per L1 chip */
    uint32_t pcie_per_server; /* PCIe tree: switches per server */
    uint32_t mesh_parallel;   /* full/partial mesh: links per pair in a
                                 group; torus: per neighbour */
    uint32_t group, groups;   /* partial mesh */
    uint32_t group_parallel;  /* partial mesh: links per pair of groups */

    /* placement */
    uint32_t rack_units; /* usable units per rack */
    uint32_t nodes_per_rack, node_units;
    uint32_t compute_racks; /* per supernode */
    uint32_t switch_racks;  /* per supernode (own-rack trays) */
    uint32_t racks_per_sn;  /* 0 when supernodes share racks */
    uint32_t sn_per_rack;   /* small supernodes packed into a rack */
    uint32_t sn_units;      /* units one packed supernode takes */
    uint32_t trays;         /* scale-up trays per supernode */
    uint32_t chips_per_tray, tray_units, trays_per_rack;
    enum sn__tray_mode tray_mode;
    uint32_t net_rack0; /* first network rack */
    uint32_t net_slot;  /* next free unit counted from net_rack0 */
    double pitch;       /* metres between neighbouring racks */

    struct sn__topo_net net;
};

/* Report a spec that cannot be built (SN_EINPUT), pointing at pos. */
int sn__topo_build_fail(struct sn__topo_build *b, const struct sn_pos *pos,
                        const char *fmt, ...) SN_PRINTF(3, 4);

/* Add a node (counting pass: only counted). Returns its id. */
uint32_t sn__topo_build_node(struct sn__topo_build *b, const struct sn_node *n);
/* Add a link. Its medium, length and latency follow from the class and
 * the placement of both ends; hop_latency is the latency of the device
 * hops the link stands for (propagation is added). */
uint32_t sn__topo_build_link(struct sn__topo_build *b, uint32_t a, uint32_t z,
                             enum sn_link_class cls, double bw,
                             double hop_latency);

/* Node ids by location (the same in both passes). */
uint32_t sn__topo_server_base(const struct sn__topo_build *b, uint32_t sn,
                              uint32_t server);
uint32_t sn__topo_accel_id(const struct sn__topo_build *b, uint32_t sn,
                           uint32_t local_rank);
uint32_t sn__topo_cpu_id(const struct sn__topo_build *b, uint32_t sn,
                         uint32_t server);
uint32_t sn__topo_nic_id(const struct sn__topo_build *b, uint32_t sn,
                         uint32_t server, uint32_t nic);
uint32_t sn__topo_onboard_id(const struct sn__topo_build *b, uint32_t sn,
                             uint32_t server, uint32_t k);
uint32_t sn__topo_offboard_id(const struct sn__topo_build *b, uint32_t sn,
                              uint32_t k);

/* Placement: the rack and unit of a server and of an off-board scale-up
 * chip; the next free slot in the network racks for a box of `units`. */
void sn__topo_place_server(const struct sn__topo_build *b, uint32_t sn,
                           uint32_t server, uint32_t *rack, uint16_t *unit);
void sn__topo_place_tray(const struct sn__topo_build *b, uint32_t sn,
                         uint32_t chip, uint32_t *rack, uint16_t *unit);
void sn__topo_place_net(struct sn__topo_build *b, uint32_t units,
                        uint32_t *rack, uint16_t *unit);

/* The scale-up fabric (build-scaleup.c): its shape from the spec, checked;
 * the switch chips a server carries on its board (k-th of onboard_sw);
 * the supernode's off-board chips; the fabric's links. */
int sn__topo_scaleup_shape(struct sn__topo_build *b);
void sn__topo_scaleup_onboard(struct sn__topo_build *b, uint32_t sn,
                              uint32_t server, uint32_t rack, uint16_t unit);
void sn__topo_scaleup_nodes(struct sn__topo_build *b, uint32_t sn);
void sn__topo_scaleup_links(struct sn__topo_build *b, uint32_t sn);

/* The scale-out network (build-net.c): shape, switches, links. */
int sn__topo_net_shape(struct sn__topo_build *b);
void sn__topo_net_nodes(struct sn__topo_build *b);
void sn__topo_net_links(struct sn__topo_build *b);
void sn__topo_net_release(struct sn__topo_build *b);

#endif
