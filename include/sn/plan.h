/* plan.h: the physical plan of a built topology: bill of materials
 * (accelerators, servers, racks, switch chips and boxes, NICs, links by
 * class, cables by medium, transceivers), bandwidth (aggregate, bisection,
 * the scale-up : scale-out convergence ratio), power (steady, peak,
 * provisioned, per rack, feed current), cooling (air or liquid, coolant
 * flow), storage (checkpoint size and bandwidth) and memory fit, with
 * warnings that give the reason and the number. Its renderers (text,
 * JSON SN_SCHEMA_PLAN, CSV cable ledger, Graphviz) are in sn/render.h.
 *
 * Ownership: sn_plan_build() returns a heap object freed with
 * sn_plan_free(); it borrows the topology (and through it the spec), which
 * must outlive it.
 *
 * To add a figure: 1. a field below  2. its computation in src/lib/plan/
 * 3. the text and JSON renderers in src/lib/render/plan.c (JSON keys are
 * only ever added, never renamed)  4. a unit test in tests/unit/test-plan.c
 * 5. docs/plan.md.
 */
#ifndef SN_PLAN_H
#define SN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sn/spec.h"
#include "sn/topo.h"
#include "sn/util.h"

enum sn_rack_kind {
    SN_RACK_COMPUTE, /* servers (and maybe scale-up switch trays) */
    SN_RACK_SCALEUP, /* scale-up switch trays only */
    SN_RACK_NETWORK, /* scale-out switches */
};

/* One rack: what it draws and what cooling it needs. */
struct sn_plan_rack {
    uint32_t rack;
    enum sn_rack_kind kind;
    uint32_t supernode; /* SN_NONE for shared racks */
    uint32_t units;     /* highest unit in use */
    double steady_w;
    double peak_w;
    double provisioned_w;
    double current_a;   /* feed current at peak */
    double liquid_w;    /* heat taken by liquid */
    double air_w;       /* heat left to air */
    double coolant_m3s; /* coolant flow for liquid_w */
};

/* A warning: the topic ("power", "cooling", ...), a sentence with the
 * reason and the number, and the number against its limit. */
struct sn_plan_warning {
    const char *topic; /* static string */
    char *msg;
    double value;
    double limit;
};

/* Counts of switch chips (the silicon) and boxes (trays or 1U/2U boxes
 * that hold them) for one role. On-board chips have no box. */
struct sn_plan_switches {
    size_t chips;
    size_t boxes;
    size_t onboard; /* chips on a server's board */
    double power_w;
};

struct sn_plan {
    const struct sn_topo *topo; /* borrowed */
    const struct sn_spec *spec; /* borrowed, topo->spec */

    /* compute */
    size_t supernodes, accelerators, servers, cpus, nics;
    size_t per_supernode; /* accelerators */
    size_t racks, racks_compute, racks_scaleup, racks_network;

    /* switches by enum sn_switch_role (SN_SW_EXTERNAL: the site, 0 chips) */
    struct sn_plan_switches sw[8];
    size_t switch_chips; /* all roles, chips */
    size_t switch_boxes;

    /* links */
    size_t links[SN_LINK_CLASS_COUNT];
    size_t links_total;              /* scale-up + scale-out (host excluded:
                                        on board, not cabled) */
    size_t scaleup_accel;            /* scale-up links at an accelerator */
    size_t scaleup_switch;           /* scale-up switch-to-switch (L1-L2) */
    size_t scaleout_nic;             /* NIC uplinks */
    size_t scaleout_switch;          /* scale-out switch-to-switch */
    size_t cables[SN_MEDIUM_COUNT];  /* fabric links by medium */
    double cable_m[SN_MEDIUM_COUNT]; /* metres of cable by medium */
    double longest_m[SN_MEDIUM_COUNT];
    size_t transceivers; /* pluggable optics modules, all parts
                            (the sum of module[].count) */
    /* the modules to order, by part: a module sits in a cage of the
     * device at a link end and carries as many links as the cage has
     * ports (a twin-port OSFP: two), per device; NULL sku: the catalog
     * names no part for the medium */
    struct sn_plan_module {
        const char *sku;
        size_t count;
        size_t ends; /* link ends they carry */
        double w;    /* all of them */
    } module[8];
    size_t nmodule;
    size_t active_ends;   /* ends of active copper and optical
                             cables (their electronics draw power) */
    double transceiver_w; /* modules and active ends */

    /* bandwidth, bytes/s per direction */
    double scaleup_per_accel;
    double scaleout_per_accel;
    double convergence;        /* scale-up : scale-out per accelerator;
                                  0 without a network */
    double scaleup_aggregate;  /* all accelerators' scale-up */
    double scaleout_aggregate; /* all NIC ports */
    double scaleup_bisection;  /* per supernode */
    double scaleout_bisection; /* cluster; NAN when not designed here */

    /* power, W */
    double accel_tdp_w; /* accelerators alone */
    double servers_w;   /* servers: accelerators x node overhead */
    double switches_w;
    double steady_w, peak_w, provisioned_w, facility_w;
    double node_overhead, transient, headroom, pue;
    const struct sn_plan_rack *worst; /* the rack with the highest peak */
    struct sn_plan_rack *rack;
    size_t nrack;

    /* cooling */
    double liquid_w, air_w;
    double coolant_m3s;                 /* whole cluster */
    double coolant_node_m3s;            /* one node's cold-plate loop (a
                                           branch) at its accelerators'
                                           TDP: sn_plan_branch_flow() */
    double coolant_density, coolant_cp; /* kg/m^3, J/(kg K) */
    double air_limit_w;                 /* heat air carries per rack */
    double rack_max_steady_w;           /* the rack dissipating most */
    bool air_alone;                     /* every rack's whole heat within
                                           air_limit_w: air could cool it all */

    /* storage (when the spec has a workload or storage section) */
    bool storage;
    double params;
    double checkpoint_bytes;
    double required_write_Bps;       /* to write within the window */
    double write_time, restore_time; /* s at the file system's bandwidth;
                                        NAN when not given */
    double checkpoint_share;         /* write time / interval */

    /* memory */
    bool memory;
    double train_bytes; /* parameters x training bytes/param */
    double hbm_supernode, hbm_cluster;
    size_t min_accels;     /* to hold the state fully sharded */
    double bytes_per_flop; /* HBM bandwidth / BF16 compute */

    struct sn_plan_warning *warn;
    size_t nwarn, warn_cap;
};

/* The coolant flow (m^3/s) one node's cold-plate loop (a branch) needs
 * at its accelerators' TDP: Q = P / (rho c_p dT) with P the node's
 * accelerators x TDP x node overhead x the liquid share, and the spec's
 * (or the default) coolant and dT. 0 for air cooling or when the spec
 * names no accelerator. The figure plan prints and `watch` holds the
 * branches to. */
double sn_plan_branch_flow(const struct sn_spec *spec);

/* Plan a finished topology built by sn_topo_build(). SN_EINPUT when the
 * topology has no spec. */
int sn_plan_build(const struct sn_topo *t, struct sn_plan **out,
                  struct sn_error *err);
void sn_plan_free(struct sn_plan *p);

const char *sn_rack_kind_name(enum sn_rack_kind k);

/* The catalog cable of link l of a topology built from s (the spec's
 * cable for its class, else the catalog's of its medium and rate); NULL
 * on the board or where the catalog has none. */
const struct sn_cable_info *sn_plan_link_cable(const struct sn_spec *s,
                                               const struct sn_link *l);
/* The module part at one end of a topology's link (b_end: its b end), as
 * the cage there takes it; NULL where the link takes no module or the
 * catalog names none. */
const char *sn_plan_end_module(const struct sn_topo *t, uint32_t link,
                               bool b_end);

#endif
