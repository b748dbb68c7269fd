/* spec.h: a supernode cluster as the architect describes it (YAML), parsed,
 * defaulted and validated into struct sn_spec with SI units, its parts
 * taken from the catalog (sn/catalog.h) and the entries it adds there.
 *
 * Ownership: sn_spec_load()/sn_spec_parse() fill a caller-owned struct that
 * sn_spec_release() frees; a zeroed struct ({0}) is released already, and
 * a failed load leaves it so, so callers release on every path without a
 * flag. The catalog entries a spec adds are owned by the spec.
 *
 * To add a spec field: 1. the struct below  2. the schema table and its
 * check in src/lib/spec/  3. docs/spec.md  4. a good and a bad case in
 * tests/ (unit test and tests/fixtures/specs/bad/).
 * To add a catalog entry: see sn/catalog.h.
 */
#ifndef SN_SPEC_H
#define SN_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sn/catalog.h"
#include "sn/util.h"

/* ---- the spec ------------------------------------------------------------ */

/* Where a value came from, for every field a user may set: the line and
 * column of its YAML node (0 when defaulted). */
struct sn_pos {
    int line, col;
};

enum sn_net_topology {
    SN_NET_NONE,          /* no scale-out network (one supernode) */
    SN_NET_EXTERNAL,      /* uplinks end on a site network not designed here */
    SN_NET_RAIL_FAT_TREE, /* one leaf per rail, fat tree above */
    SN_NET_FAT_TREE,      /* k-ary fat tree, nodes' NICs on any leaf */
    SN_NET_EXPLICIT,      /* switches and switch links listed by name */
};

/* An explicitly listed scale-out switch: its name and the nodes whose NIC
 * ports plug into it (global node index = supernode * nodes per supernode
 * + node within the supernode). */
struct sn_net_switch {
    char *name;
    int *nodes;
    size_t nnodes;
    int tier; /* 0 leaf, 1 spine, 2 core; for labels */
    struct sn_pos pos;
};

/* An explicitly listed switch-to-switch link (count parallel links). */
struct sn_net_link {
    int a, b; /* indices into the switch list */
    int count;
    double bw; /* bytes/s per direction; 0 = the NIC rate */
    struct sn_pos pos;
};

enum sn_feed { SN_FEED_AC_1PH, SN_FEED_AC_3PH, SN_FEED_HVDC };

enum sn_cooling { SN_COOL_AIR, SN_COOL_COLD_PLATE, SN_COOL_IMMERSION };

enum sn_coolant { SN_COOLANT_WATER, SN_COOLANT_PG25 };

struct sn_scaleup {
    int accelerators; /* per supernode */
    int per_node;     /* accelerators per node (server or tray) */
    enum sn_fabric fabric;
    int links_per_accel;
    double link_bw;      /* bytes/s per direction per link */
    double link_latency; /* seconds, one hop */
    /* switched */
    int planes; /* independent switch planes; links spread
                   evenly over them */
    int tiers;  /* 1: accelerators to switch chips; 2: on-node
                   L1 chips, then L2 chips per plane */
    const struct sn_switch_info *sw; /* NULL when given by radix alone */
    int radix;              /* ports per switch chip (from sw or given) */
    int switches_per_plane; /* computed when not given */
    int switch_groups;      /* 1 tier: groups of nodes (racks) with chips
                               of their own, a plane's chips joined group
                               to group (GB200 NVL36x2: 2); 1 = one set */
    /* partial mesh */
    int group; /* accelerators per fully connected group */
    /* torus */
    int dims[3];
    int ndims;
    enum sn_medium medium;             /* default copper for scale-up */
    bool medium_given;                 /* medium or cable named in the spec;
                                          else each cable between chassis
                                          is chosen by its reach */
    const struct sn_cable_info *cable; /* forced for every scale-up cable;
                                          NULL = chosen by reach */
    bool in_network_reduction;         /* NVLS-like; default from the switch */
    struct sn_pos pos;
};

struct sn_scaleout {
    enum sn_net_topology topology;
    int nics_per_node; /* NIC ports facing the compute fabric */
    const struct sn_nic_info *nic;
    double nic_bw;           /* bytes/s per direction per port */
    int tiers;               /* 2 or 3 switch tiers */
    int radix;               /* switch ports */
    double oversubscription; /* down:up at the leaf tier (1 = non-blocking) */
    const struct sn_switch_info *sw;
    double latency;                    /* seconds per switch hop */
    const struct sn_cable_info *cable; /* forced for every network cable;
                                          NULL = sn_catalog_cable_for() */
    /* explicit topology */
    struct sn_net_switch *switches;
    size_t nswitches;
    struct sn_net_link *links;
    size_t nlinks;
    struct sn_pos pos;
};

struct sn_racks {
    int nodes_per_rack;
    int node_units;       /* rack units per node */
    int rack_units;       /* usable height of one rack (42 default) */
    double power_limit_w; /* per rack; 0 = not given */
    double row_pitch;     /* metres between rack centres (0.6 default) */
    struct sn_pos pos;
};

struct sn_power_spec {
    enum sn_feed feed;
    double voltage; /* V (line-to-line for three-phase) */
    double power_factor;
    double transient_factor; /* peak = steady x this; from the accelerator */
    double headroom;         /* provisioned = peak x this (1.5 default) */
    double node_overhead;    /* node power / accelerator power (CPUs, DRAM,
                                fans, NICs); from the accelerator unless
                                given */
    double pue;              /* default for the cooling type unless given */
    struct sn_pos pos;
};

struct sn_cooling_spec {
    enum sn_cooling type;
    enum sn_coolant coolant;
    double delta_t;         /* K across the cold plates or tank */
    double liquid_share;    /* heat taken by liquid, 0..1 */
    double air_limit_w;     /* what air can carry per rack */
    double coolant_density; /* kg/m^3 of the coolant (0 for air) */
    double coolant_cp;      /* J/(kg K) of the coolant (0 for air) */
    struct sn_pos pos;
};

struct sn_storage_spec {
    double checkpoint_interval; /* s */
    double write_window;        /* s allowed for one checkpoint write */
    double write_bw;            /* parallel file system, bytes/s; 0 = none */
    double read_bw;
    double bytes_per_param; /* checkpoint bytes per parameter (14) */
    bool given;
    struct sn_pos pos;
};

struct sn_workload_spec {
    const struct sn_model_info *model; /* preset or inline */
    double params;                /* overrides the model's count when > 0 */
    double train_bytes_per_param; /* 16 for mixed-precision Adam */
    bool given;
    struct sn_pos pos;
};

/* A whole spec. Every pointer inside is owned by the spec (or is a static
 * built-in catalog entry). */
struct sn_spec {
    char *file; /* the name errors are reported under */
    char *name;
    const struct sn_accel_info *accel;
    struct sn_scaleup scaleup;
    struct sn_scaleout scaleout;
    int supernodes;
    struct sn_racks racks;
    struct sn_power_spec power;
    struct sn_cooling_spec cooling;
    struct sn_storage_spec storage;
    struct sn_workload_spec workload;
    struct sn_catalog catalog; /* built-in plus the spec's own entries */
    void *owned;               /* private: storage for the spec's own entries */
    uint64_t hash;             /* of the spec text, for run records */
    /* `hosts:`, the host name of every node in rank order (node 0 of
     * supernode 0 first), to hold a job's placement to; NULL when the
     * spec has none (then mpirun's order: ranks of one node on one host,
     * nodes on hosts of their own) */
    const char **hosts;
    size_t nhosts;
    /* The parsed document, kept for the sections other modules own and
     * validate themselves with the same located errors: `collectives`
     * (model constants), `reliability` (goodput), `software` (training
     * stack, sn_train_software_parse), `node` (doctor's
     * expected node). The spec parser accepts these keys and checks only
     * that each is a mapping. */
    struct sn_yaml_doc doc;
};

/* The section of the spec's document a module owns, or NULL. */
const struct sn_yaml *sn_spec_section(const struct sn_spec *spec,
                                      const char *name);

/* The built-in default spec text: the 64-accelerator supernode, four of
 * them (64 x 8 scale-up links into switch chips, 2 uplinks each). */
extern const char sn_spec_default_text[];
#define SN_SPEC_DEFAULT_NAME "<default>"

/* Parse YAML text into *spec: schema, units, defaults, validation. Errors
 * are "file:line:col: what is wrong (what was expected)" with SN_EINPUT; on
 * failure *spec is left released. */
int sn_spec_parse(const char *file, const char *text, size_t len,
                  struct sn_spec *spec, struct sn_error *err);
/* Read and parse a file; NULL path loads the built-in default. */
int sn_spec_load(const char *path, struct sn_spec *spec, struct sn_error *err);
void sn_spec_release(struct sn_spec *spec);

/* Override one value by its dotted key ("supernode.accelerators", "64")
 * and re-validate, as `sweep --set` does. SN_EINPUT when the key is unknown
 * or the result does not validate. */
int sn_spec_set(struct sn_spec *spec, const char *key, const char *value,
                struct sn_error *err);
/* Several overrides (keys[i] = values[i]) applied in order, then the
 * spec validated once: values that must change together (a faster NIC
 * with the switch and cable it needs) do not depend on their order.
 * SN_EINPUT names every override when the result does not validate; on
 * any error *spec is left as it was. */
int sn_spec_set_all(struct sn_spec *spec, const char *const *keys,
                    const char *const *values, size_t n, struct sn_error *err);

/* Totals derived from the spec alone (no topology needed). */
int sn_spec_total_accels(const struct sn_spec *spec);

/* PCIe 5.0 x16: 32 GT/s x 16 lanes x 128b/130b / 8 = 63 GB/s per
 * direction (PCI-SIG PCIe 5.0 base specification) [V]. */
#define SN_PCIE5_X16 63.0e9

/* The host side of one node of accelerator a as the topology, the plan
 * and the catalog take it: its catalog figures, or (none given) one host
 * complex with each accelerator on PCIe 5.0 x16. */
struct sn_accel_host {
    int cpus;
    double bw;        /* bytes/s per direction, accelerator to its CPU */
    const char *link; /* "PCIe", "NVLink-C2C" */
};
void sn_accel_host(const struct sn_accel_info *a, struct sn_accel_host *h);
int sn_spec_nodes_per_supernode(const struct sn_spec *spec);

/* A host name as `hosts:` takes it (and gethostname() gives it): 1 to 64
 * letters, digits, '.', '-' or '_'. */
bool sn_spec_host_name_ok(const char *s);

/* The node names of a design: from text (a hosts file, one name a line,
 * '#' comments and blank lines skipped; file names it in errors) when
 * text is not NULL, else the spec's `hosts:`, else "node" and the node's
 * number zero-padded to at least 3 digits. *names is a heap array of heap
 * strings the caller frees with sn_spec_hosts_free(). SN_EINPUT with
 * "file:line:col: ..." for a bad name, a repeated name or a count that is
 * not the design's. */
int sn_spec_hosts(const struct sn_spec *spec, const char *file,
                  const char *text, size_t len, char ***names, size_t *n,
                  struct sn_error *err);
void sn_spec_hosts_free(char **names, size_t n);

const char *sn_fabric_name(enum sn_fabric f);
const char *sn_net_topology_name(enum sn_net_topology t);

/* ---- fabric shapes --------------------------------------------------------
 * The arithmetic that sizes a switched fabric, owned here and used both by
 * the spec's checks (which fill the defaults) and by the topology builder
 * (src/lib/topo/build*.c), so the two cannot disagree. Pure functions of
 * their arguments. */

/* One tier of scale-up switch chips: the fewest chips per plane, each
 * radix ports, that take every link of the plane: members accelerators
 * of a switch group (all when groups is 1) with lpp links each in the
 * plane, doubled with two or more groups for the trunks to the other
 * groups' chips (GB200 NVL36x2). */
long long sn_scaleup_chips_one_tier(long long members, long long lpp,
                                    int groups, int radix);
/* The ports each of chips chips per plane takes in that fabric: every
 * member reaches every chip, ceil(lpp / chips) links to each, doubled
 * for the trunks when groups > 1. */
long long sn_scaleup_chip_ports(long long members, long long lpp, int groups,
                                long long chips);
/* Two tiers (CloudMatrix): the fewest L2 chips per plane such that each
 * takes ceil(down / chips) links from every one of nodes nodes' L1 chips
 * and the L1 chip's down links plus as many up, rounded to a multiple of
 * the L2 chips, fit its radix ports; down is per_node x links per plane.
 * When no count does, the fewest the L2 chips alone allow, else down: the
 * caller's check then says which chip is too small. */
long long sn_scaleup_chips_two_tiers(long long nodes, long long down,
                                     int radix);

/* The shape of a fat tree of radix-port switches over servers servers of
 * nics NIC ports each, leaf ports split down:up as oversubscription:1
 * (Al-Fares et al., SIGCOMM 2008; DGX SuperPOD RA-11333-001). */
struct sn_fat_tree_fit {
    int down;      /* leaf ports down, floor(radix o / (1 + o)) kept
                      within 1 to radix - 1 */
    bool split;    /* that floor was within 1 to radix - 1 already */
    double ports;  /* NIC ports: servers x nics */
    double leaves; /* leaves of a tree of two or more tiers: rail-
                      optimised, one per rail for every `down` servers;
                      else one for every `down` NIC ports */
    bool fits[3];  /* fits[t - 1]: t tiers join every port (one tier of
                      a rail-optimised tree: one switch per rail) */
    int tiers;     /* the fewest tiers that join every port, one only
                      when one switch takes them all; 0 when none does */
};
void sn_fat_tree_fit(int radix, double oversubscription, double servers,
                     int nics, bool rail, struct sn_fat_tree_fit *out);

#endif
