/* topo.h: the graph every stage shares. Nodes are accelerators, CPUs, NICs
 * and switches with a physical location; links join two ports and carry a
 * class, a medium, a per-direction bandwidth, a latency, a length estimate
 * and a health factor. Every link has a stable human label built from its
 * two ends, and a short ledger id; `plan` prints them, `sim` degrades them
 * by label, `check` names them.
 *
 * Ownership: sn_topo_build() hands back a heap object the caller frees
 * with sn_topo_free(); it borrows the spec, which must outlive it. Paths
 * filled by the routing calls are caller-owned arrays.
 *
 * To add a fabric: 1. enum sn_fabric in spec.h, its name and the keys
 * that apply to it (scaleup_scope) in src/lib/spec/scaleup.c, its sizing
 * in src/lib/spec/shape.c when the spec checks it too  2. a builder in
 * src/lib/topo/  3. its case in sn_topo_build()  4. closed-form tests in
 * tests/unit/test-topo-build.c  5. docs/topology.md.
 */
#ifndef SN_TOPO_H
#define SN_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sn/spec.h"
#include "sn/util.h"

#define SN_NONE UINT32_MAX

enum sn_node_kind {
    SN_NODE_ACCEL,
    SN_NODE_CPU,
    SN_NODE_NIC,
    SN_NODE_SWITCH,
};

/* The role a switch plays. */
enum sn_switch_role {
    SN_SW_NONE,
    SN_SW_SCALEUP_L1, /* scale-up chip the accelerators plug into */
    SN_SW_SCALEUP_L2, /* second scale-up tier (CloudMatrix-style) */
    SN_SW_LEAF,       /* scale-out tiers */
    SN_SW_SPINE,
    SN_SW_CORE,
    SN_SW_PCIE,     /* PCIe switch in a PCIe-tree fabric */
    SN_SW_EXTERNAL, /* where uplinks end on a site network that is not
                       designed here (net.site0): not a switch to buy */
};

enum sn_link_class {
    SN_LINK_SCALE_UP,  /* accelerator fabric (NVLink, UB, IF, ICI) */
    SN_LINK_SCALE_OUT, /* compute network (InfiniBand, RoCE) */
    SN_LINK_HOST,      /* inside a node: PCIe between accelerator, NIC, CPU */
    SN_LINK_CLASS_COUNT
};

/* One device. Locations are 0-based indices; racks are numbered across
 * the whole cluster, units from the bottom of the rack starting at 1. */
struct sn_node {
    uint8_t kind;       /* enum sn_node_kind */
    uint8_t role;       /* enum sn_switch_role, switches only */
    uint16_t plane;     /* scale-up plane or scale-out rail; SN_NONE16 */
    uint32_t supernode; /* SN_NONE for shared network switches */
    uint32_t server;    /* node (server or tray) within the supernode */
    uint32_t rack;      /* global rack index */
    uint16_t unit;      /* rack unit, 1-based */
    uint32_t nports;    /* ports in use (a site network can have many) */
    uint32_t index;     /* number within its kind in its server, or the
                           switch number within its role (and plane) */
    uint32_t rank;      /* accelerators: global rank 0..N-1, else SN_NONE */
};

#define SN_NONE16 UINT16_MAX

/* One physical link between two ports. Bandwidth is per direction. */
struct sn_link {
    uint32_t a, b; /* node ids */
    uint32_t a_port, b_port;
    uint8_t cls;    /* enum sn_link_class */
    uint8_t medium; /* enum sn_medium */
    uint16_t lanes; /* links bundled in this one (1 unless aggregated) */
    float bw;       /* nominal bytes/s per direction */
    float latency;  /* seconds */
    float length;   /* metres (estimate from placement) */
    float health;   /* 1 nominal, 0.5 trained down to half, 0 failed */
};

struct sn_topo {
    const struct sn_spec *spec; /* borrowed */
    struct sn_node *nodes;
    size_t nnodes, nodes_cap;
    struct sn_link *links;
    size_t nlinks, links_cap;
    /* adjacency in CSR form, built by sn_topo_finish(): the links at node
     * v are adj[adj_off[v] .. adj_off[v+1]) (link ids) */
    uint32_t *adj_off;
    uint32_t *adj;
    /* accelerator node id by global rank */
    uint32_t *accel;
    size_t naccel;
    size_t nracks;
    /* accelerators forward traffic between their scale-up links (torus,
     * partial mesh); set by the builders, false by default */
    bool accel_transit;
    bool finished;
};

/* ---- building ----------------------------------------------------------- */

/* An empty topology for hand-built graphs (tests, custom fabrics). */
struct sn_topo *sn_topo_new(const struct sn_spec *spec);
/* Build the whole cluster a spec describes: accelerators, CPUs, NICs,
 * switches, every link with its medium and length, finished (adjacency
 * ready). SN_EINPUT when the spec's counts cannot be built. */
int sn_topo_build(const struct sn_spec *spec, struct sn_topo **out,
                  struct sn_error *err);
void sn_topo_free(struct sn_topo *t);

/* Add a node; returns its id. */
uint32_t sn_topo_add_node(struct sn_topo *t, const struct sn_node *n);
/* Add a link between nodes a and b; ports are assigned in order on each
 * node. Returns the link id. */
uint32_t sn_topo_add_link(struct sn_topo *t, uint32_t a, uint32_t b,
                          enum sn_link_class cls, enum sn_medium medium,
                          double bw, double latency, double length);
/* Build the adjacency and rank tables; call once after the last add.
 * SN_EINPUT when ranks are not 0..N-1 exactly once. */
int sn_topo_finish(struct sn_topo *t, struct sn_error *err);

/* ---- names and labels -----------------------------------------------------
 */

/* The location of a node: "sn1.r03.u12.gpu5", "net.r40.u10.leaf3". */
char *sn_topo_node_name(const struct sn_topo *t, uint32_t node, char *buf,
                        size_t size);
/* The label of a link: both ports, "sn0.r00.u01.gpu0.p3~sn0.r00.u20.nvsw3.p0",
 * in a fixed order (lower node id first). Stable for the same spec. */
char *sn_topo_link_label(const struct sn_topo *t, uint32_t link, char *buf,
                         size_t size);
/* The short ledger id: "L" and the link id zero-padded ("L000123"). */
char *sn_topo_link_id(const struct sn_topo *t, uint32_t link, char *buf,
                      size_t size);
/* Find a link by label or ledger id; SN_ENOTFOUND with a "did you mean"
 * when absent. */
int sn_topo_find_link(const struct sn_topo *t, const char *label,
                      uint32_t *link, struct sn_error *err);
/* Set a link's health (0 failed .. 1 nominal). */
int sn_topo_set_health(struct sn_topo *t, uint32_t link, double health,
                       struct sn_error *err);

const char *sn_link_class_name(enum sn_link_class c);
const char *sn_node_kind_name(enum sn_node_kind k);
/* The label of a switch role for people ("scale-up switch", "leaf",
 * "site network"): sn_switch_role_info(r)->label. */
const char *sn_switch_role_name(enum sn_switch_role r);

/* The one table of switch roles: every name a role goes by and its level.
 * To add a role: the enum above, a row in src/lib/topo/graph.c. */
struct sn_switch_role_info {
    enum sn_switch_role role;
    const char *tag;   /* in device names: "sw", "l2sw", "leaf", "pcisw" */
    const char *key;   /* JSON key of the plan's switch counts:
                          "scale_up_l1"; NULL for a role not counted there
                          (none, the site network) */
    const char *label; /* for people: "scale-up switch", "PCIe switch" */
    int tier;          /* level above the devices: 1 beside the NICs (PCIe
                          switch), 2 the first switch tier (scale-up L1,
                          leaf), 3 the second (scale-up L2, spine), 4 core,
                          5 outside the design (site network, none) */
};
/* The row of role r; an unknown role gets the row of SN_SW_NONE. Static,
 * never NULL. */
const struct sn_switch_role_info *sn_switch_role_info(enum sn_switch_role r);

/* ---- routing ----------------------------------------------------------------
 */

#define SN_PATH_MAX_HOPS 16

/* One route: the links in order from source to destination. */
struct sn_path {
    uint32_t nhops;
    uint32_t link[SN_PATH_MAX_HOPS];
};

/* The equal-cost shortest paths (ECMP set) from src to dst over links with
 * health > 0: fewest host (PCIe) hops first, then fewest hops. Accelerators and
 * CPUs are never transit nodes except in mesh and torus fabrics, where
 * accelerators forward between scale-up links. Writes up to max paths to out
 * (may be NULL with max 0 to count) and their number to *n (capped at max when
 * out is given). SN_ENOTFOUND when dst is unreachable. */
int sn_topo_paths(const struct sn_topo *t, uint32_t src, uint32_t dst,
                  struct sn_path *out, size_t max, size_t *n,
                  struct sn_error *err);

/* Shortest-path distances from one source to every node, for callers that
 * route many destinations from one source. The search runs over states
 * (node, class of the link it was entered by) so that forwarding rules can
 * depend on where traffic came from: a NIC forwards between its host link
 * and the network, never host to host; a switch forwards within its
 * fabric; a transit accelerator forwards scale-up to scale-up. */
struct sn_route_tree {
    uint32_t src;
    uint32_t *dist;  /* per node: route cost (hops, plus 64 per host
                        hop), SN_NONE when unreachable */
    double *npaths;  /* per node: number of shortest paths */
    uint32_t *sdist; /* per state (node * SN_LINK_CLASS_COUNT + class) */
    double *spaths;
};

int sn_topo_route_tree(const struct sn_topo *t, uint32_t src,
                       struct sn_route_tree *rt, struct sn_error *err);
/* Paths to dst from a tree, as sn_topo_paths(). */
int sn_topo_route_paths(const struct sn_topo *t, const struct sn_route_tree *rt,
                        uint32_t dst, struct sn_path *out, size_t max,
                        size_t *n, struct sn_error *err);
void sn_route_tree_release(struct sn_route_tree *rt);

/* The shortest-path DAG of a route tree, for callers that need every
 * route to many destinations without enumerating paths (localisation):
 * for each state s (node * SN_LINK_CLASS_COUNT + class, as in sdist) the
 * links that enter it on a shortest path, in [off[s], off[s + 1]), and
 * the state each comes from (SN_NONE: from the source itself). */
struct sn_route_dag {
    uint32_t *off;
    uint32_t *link;
    uint32_t *from;
    size_t nstates;
};

int sn_topo_route_dag(const struct sn_topo *t, const struct sn_route_tree *rt,
                      struct sn_route_dag *dag, struct sn_error *err);
void sn_route_dag_release(struct sn_route_dag *dag);

/* ---- counting
 * ---------------------------------------------------------------- */

/* Links and devices by class, medium and kind, for plan and the tests. */
struct sn_topo_counts {
    size_t nodes[4];            /* by enum sn_node_kind */
    size_t switches_by_role[8]; /* by enum sn_switch_role */
    size_t links[SN_LINK_CLASS_COUNT];
    size_t links_by_medium[SN_MEDIUM_COUNT];
    size_t accel_links;  /* links with an accelerator or NIC at
                            one end: scale-up + NIC uplinks */
    size_t switch_links; /* switch-to-switch links */
};

void sn_topo_count(const struct sn_topo *t, struct sn_topo_counts *c);

/* ---- the collapsed topology (collapse.c) ------------------------------
 *
 * Devices grouped into classes (kind, switch role, inside a supernode or
 * shared) and links between classes grouped by class, medium and
 * bandwidth, with counts: what the Graphviz drawing (render) and the HTML
 * report's design section draw, so a 10,000-device cluster is a handful
 * of boxes. Counts are over the whole cluster; an edge or class inside a
 * supernode (sn_topo_class_shared() false at both ends) repeats in each
 * of supernodes. */
#define SN_TOPO_NCLASS (4 * 8 * 2)
#define sn_topo_class_kind(c) ((c) / 16)       /* enum sn_node_kind */
#define sn_topo_class_role(c) (((c) / 2) % 8)  /* enum sn_switch_role */
#define sn_topo_class_shared(c) ((c) % 2 == 1) /* outside every supernode */
struct sn_topo_class_edge {
    int ca, cb; /* classes, ca <= cb */
    int cls;    /* enum sn_link_class */
    int medium; /* enum sn_medium */
    size_t count;
    double bw; /* bytes/s per direction per link */
};
struct sn_topo_collapsed {
    size_t count[SN_TOPO_NCLASS]; /* devices per class */
    struct sn_topo_class_edge *e; /* in order of first appearance */
    size_t ne;
    size_t supernodes;
};
/* The class of a device, and its name for people ("accelerator", a
 * switch role's name). */
int sn_topo_class_of(const struct sn_node *n);
const char *sn_topo_class_label(int c);
/* Fill c from t; release with sn_topo_collapse_release() (c owns e). */
void sn_topo_collapse(const struct sn_topo *t, struct sn_topo_collapsed *c);
void sn_topo_collapse_release(struct sn_topo_collapsed *c);

#endif
