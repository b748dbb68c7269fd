/* plan.c: sn_plan_build(), the physical plan of a built topology: counts
 * of devices, switches, links, cables and optics; bandwidth; power per
 * rack and for the cluster; cooling; storage; memory fit; warnings. One
 * pass over the nodes and one over the links, so it scales with the
 * topology. Formulas and their sources: docs/plan.md and
 * reference hardware-catalog.md section 4.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/plan.h"

/* Defaults when neither the spec nor the catalog gives a value. */
#define DEFAULT_HEADROOM 1.5 /* DOMAIN.md: provision at least 1.5x */
#define DEFAULT_DELTA_T                                                        \
    10.0 /* K across cold plates (ASHRAE W-class                               \
            secondary loops run 8-12 K) */
#define DEFAULT_AIR_LIMIT                                                      \
    40e3 /* W per rack: NVIDIA's air-cooled DGX H100                           \
            racks run just over 40 kW with                                     \
            containment (SuperPOD RA) */
#define DEFAULT_LIQUID_SHARE                                                   \
    0.8 /* cold plates take ~80% of the heat:                                  \
         direct-to-chip racks leave 20-30% to                                  \
         air (DCD, hardware-catalog.md 4.2) [E] */
#define DEFAULT_BYTES_PER_PARAM_CKPT                                           \
    14.0                                   /* fp32 master + Adam m, v +        \
                                   bf16 weights (ZeRO, SC20; BLOOM) */
#define DEFAULT_BYTES_PER_PARAM_TRAIN 16.0 /* mixed-precision Adam (ZeRO) */

/* Coolant properties at about 30 C (hardware-catalog.md 4.2): water
 * 996 kg/m^3, 4.18 kJ/(kg K); PG25 specific gravity 1.020 (Perry's
 * Table 5.13), c_p 3.9 kJ/(kg K) [E], which gives the 181 L/min for
 * 120 kW at 10 K of the worked example. */
#define WATER_RHO 996.0
#define WATER_CP 4180.0
#define PG25_RHO 1020.0
#define PG25_CP 3900.0

/* Pluggable optics when the catalog has no entry: 9 W per end, the
 * NVIDIA LinkX 400G OSFP SR4/DR4 modules (MMA4Z00-NS400,
 * MMS4X00-NS400). */
#define DEFAULT_TRANSCEIVER_W 9.0
/* Copper reach when the catalog has no cable: 2-3 m at 100G-PAM4 lanes
 * (LinkX DAC), active copper ~5 m [E]. */
#define DEFAULT_COPPER_REACH 3.0
#define DEFAULT_ACC_REACH 5.0

/* HBM bandwidth to compute: below this many bytes per FLOP (a ridge point
 * above 400 FLOP/B) an accelerator is more compute-heavy than any NVIDIA
 * data-centre part to date (H100 and B200 sit at 280-300 FLOP/B,
 * hardware-catalog.md table 1): memory-bound work starves. A screening
 * threshold, not a physical limit. */
#define MIN_BYTES_PER_FLOP (1.0 / 400.0)

/* A standard rack: 42 usable units (EIA-310), unless the spec says. */
#define RACK_UNITS 42u

const char *sn_rack_kind_name(enum sn_rack_kind k)
{
    switch (k) {
    case SN_RACK_COMPUTE:
        return "compute";
    case SN_RACK_SCALEUP:
        return "scale-up switch";
    case SN_RACK_NETWORK:
        return "network";
    }
    return "?";
}

/* A count as warnings print it, with thousands separators: 12,501. */
#define COUNT(v) sn_fmt_count((size_t)(v), (char[32]){0}, 32)

static void warn(struct sn_plan *p, const char *topic, double value,
                 double limit, const char *fmt, ...) SN_PRINTF(5, 6);

static void warn(struct sn_plan *p, const char *topic, double value,
                 double limit, const char *fmt, ...)
{
    struct sn_plan_warning *w;
    struct sn_buf b;
    va_list ap;

    SN_GROW(p->warn, p->warn_cap, p->nwarn + 1);
    w = &p->warn[p->nwarn++];
    sn_buf_init(&b);
    va_start(ap, fmt);
    sn_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    w->topic = topic;
    w->msg = sn_buf_detach(&b, NULL);
    w->value = value;
    w->limit = limit;
}

void sn_plan_free(struct sn_plan *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nwarn; i++)
        free(p->warn[i].msg);
    free(p->warn);
    free(p->rack);
    free(p);
}

/* ---- catalog lookups ---------------------------------------------------- */

/* The catalog cable of a medium for a link of `bw`: the first of the
 * link's fabric (scale-up cables for scale-up links) that carries the
 * rate, else the first of any fabric that does, else the first of the
 * medium; NULL when the catalog has none. */
static const struct sn_cable_info *cable_of(const struct sn_spec *s,
                                            enum sn_medium m,
                                            enum sn_link_class cls, double bw)
{
    const struct sn_cable_info *any = NULL, *fits = NULL;
    bool up = cls == SN_LINK_SCALE_UP;

    for (size_t i = 0; i < s->catalog.ncables; i++) {
        const struct sn_cable_info *c = s->catalog.cables[i];
        if (!c || c->medium != m)
            continue;
        if (c->rate >= bw * 0.999) {
            if (c->scale_up == up)
                return c;
            if (!fits)
                fits = c;
        }
        if (!any)
            any = c;
    }
    return fits ? fits : any;
}

/* How far a link's medium reaches: the longest catalog cable of that
 * medium for the link's fabric (scale-up cables for scale-up links) that
 * carries its rate, else of that medium at any rate. */
static double reach_of(const struct sn_spec *s, enum sn_medium m,
                       enum sn_link_class cls, double bw)
{
    double best = 0, any = 0;
    bool up = cls == SN_LINK_SCALE_UP;

    for (size_t i = 0; i < s->catalog.ncables; i++) {
        const struct sn_cable_info *c = s->catalog.cables[i];
        if (!c || c->medium != m)
            continue;
        if (c->max_reach > any)
            any = c->max_reach;
        if (c->scale_up == up && c->rate >= bw * 0.999 && c->max_reach > best)
            best = c->max_reach;
    }
    if (best > 0)
        return best;
    if (any > 0)
        return any;
    if (m == SN_MEDIUM_COPPER)
        return DEFAULT_COPPER_REACH;
    if (m == SN_MEDIUM_ACC)
        return DEFAULT_ACC_REACH;
    return INFINITY;
}

/* Optics per link end: whether the medium takes pluggable transceivers
 * and their power. Cached per (medium, rate) since a cluster has few. */
struct optics {
    uint8_t medium, cls;
    float bw;
    bool needs;     /* pluggable modules at both ends */
    double w;       /* per end: a module's share, or an active end */
    double per_end; /* modules per link end (1 / links_per_module) */
    double reach;
    const struct sn_cable_info *forced; /* the spec's cable for the class */
    const struct sn_cable_info *cable;  /* its catalog cable, or NULL */
};

static const struct optics *optics_of(const struct sn_spec *s,
                                      struct optics *cache, size_t *n,
                                      size_t cap, enum sn_medium m,
                                      enum sn_link_class cls, float bw)
{
    const struct sn_cable_info *c;
    struct optics o;

    for (size_t i = 0; i < *n; i++)
        if (cache[i].medium == m && cache[i].cls == cls && cache[i].bw == bw)
            return &cache[i];
    /* a cable the spec forces for the class is the cable of its links */
    c = cls == SN_LINK_SCALE_UP    ? s->scaleup.cable
        : cls == SN_LINK_SCALE_OUT ? s->scaleout.cable
                                   : NULL;
    if (!c || c->medium != m)
        c = cable_of(s, m, cls, bw);
    o.medium = (uint8_t)m;
    o.cls = (uint8_t)cls;
    o.bw = bw;
    o.forced =
        c && c->medium == m && (c == s->scaleup.cable || c == s->scaleout.cable)
            ? c
            : NULL;
    o.reach = o.forced ? c->max_reach : reach_of(s, m, cls, bw);
    o.per_end = 1;
    o.cable = c;
    if (c) {
        o.needs = c->needs_transceivers;
        if (o.needs && c->links_per_module > 1)
            o.per_end = 1.0 / c->links_per_module;
        /* active copper and AOC ends draw power too, without modules */
        o.w = c->transceiver_power_w * o.per_end;
    } else {
        o.needs = m == SN_MEDIUM_MMF || m == SN_MEDIUM_SMF;
        o.w = o.needs ? DEFAULT_TRANSCEIVER_W : 0;
    }
    if (*n < cap) {
        cache[*n] = o;
        return &cache[(*n)++];
    }
    cache[cap - 1] = o; /* more kinds than slots: reuse the last */
    return &cache[cap - 1];
}

/* ---- counting ---------------------------------------------------------- */

static uint32_t height_of(const struct sn_spec *s, const struct sn_node *n)
{
    const struct sn_switch_info *sw = NULL;

    if (n->kind != SN_NODE_SWITCH)
        return s->racks.node_units > 0 ? (uint32_t)s->racks.node_units : 1;
    if (n->server != SN_NONE)
        return 1; /* on a server's board: the server's units count */
    if (n->role == SN_SW_SCALEUP_L1 || n->role == SN_SW_SCALEUP_L2)
        sw = s->scaleup.sw;
    else
        sw = s->scaleout.sw;
    return sw && sw->rack_units > 0 ? (uint32_t)sw->rack_units : 1;
}

static void count_nodes(struct sn_plan *p)
{
    const struct sn_topo *t = p->topo;
    const struct sn_spec *s = p->spec;
    const struct sn_switch_info *nsw = s->scaleout.sw;
    const struct sn_switch_info *usw = s->scaleup.sw;
    double accel_w = s->accel ? s->accel->tdp_w : 0;
    uint32_t prev_rack = SN_NONE, prev_unit = 0;
    int prev_role = -1;
    bool *has_accel, *has_up;

    p->nrack = t->nracks;
    p->rack = sn_xcalloc(p->nrack ? p->nrack : 1, sizeof(*p->rack));
    has_accel = sn_xcalloc(p->nrack + 1, sizeof(bool));
    has_up = sn_xcalloc(p->nrack + 1, sizeof(bool));
    for (size_t r = 0; r < p->nrack; r++) {
        p->rack[r].rack = (uint32_t)r;
        p->rack[r].supernode = SN_NONE - 1; /* not yet seen */
    }
    for (size_t v = 0; v < t->nnodes; v++) {
        const struct sn_node *n = &t->nodes[v];
        struct sn_plan_rack *rk = n->rack < p->nrack ? &p->rack[n->rack] : NULL;
        double w = 0;
        switch (n->kind) {
        case SN_NODE_ACCEL:
            p->accelerators++;
            w = accel_w * p->node_overhead;
            if (rk)
                has_accel[n->rack] = true;
            break;
        case SN_NODE_CPU:
            p->cpus++;
            break;
        case SN_NODE_NIC:
            p->nics++;
            break;
        case SN_NODE_SWITCH: {
            struct sn_plan_switches *sw = &p->sw[n->role < 8 ? n->role : 0];
            bool up = n->role == SN_SW_SCALEUP_L1 ||
                      n->role == SN_SW_SCALEUP_L2 || n->role == SN_SW_PCIE;
            if (n->role == SN_SW_EXTERNAL)
                break;
            if (n->server != SN_NONE) {
                /* on a server's board: the node's own figure (node
                 * overhead x accelerator power, taken from the system's
                 * published power, DGX H100 10.2 kW with its 4 NVSwitch
                 * chips) already holds them */
                sw->chips++;
                sw->onboard++;
            } else if (up) {
                /* chips of one tray share a rack and unit and come one
                 * after the other */
                sw->chips++;
                if (n->rack != prev_rack || n->unit != prev_unit ||
                    prev_role != n->role)
                    sw->boxes++;
                w = usw ? usw->power_w : 0;
                if (rk)
                    has_up[n->rack] = true;
            } else {
                /* a network box */
                sw->boxes++;
                sw->chips += nsw && nsw->chips_per_box > 0
                                 ? (size_t)nsw->chips_per_box
                                 : 1;
                w = nsw ? nsw->power_w : 0;
            }
            sw->power_w += w;
            p->switches_w += w;
            prev_rack = n->rack;
            prev_unit = n->unit;
            prev_role = n->role;
            break;
        }
        }
        if (rk) {
            uint32_t top = n->unit + height_of(s, n) - 1;
            rk->steady_w += w;
            if (top > rk->units)
                rk->units = top;
            if (rk->supernode == SN_NONE - 1)
                rk->supernode = n->supernode;
            else if (rk->supernode != n->supernode)
                rk->supernode = SN_NONE;
        }
    }
    for (size_t r = 0; r < p->nrack; r++) {
        struct sn_plan_rack *rk = &p->rack[r];
        rk->kind = has_accel[r] ? SN_RACK_COMPUTE
                   : has_up[r]  ? SN_RACK_SCALEUP
                                : SN_RACK_NETWORK;
        if (rk->supernode == SN_NONE - 1)
            rk->supernode = SN_NONE;
        if (rk->kind == SN_RACK_COMPUTE)
            p->racks_compute++;
        else if (rk->kind == SN_RACK_SCALEUP)
            p->racks_scaleup++;
        else
            p->racks_network++;
    }
    p->racks = p->nrack;
    for (int r = 0; r < 8; r++) {
        p->switch_chips += p->sw[r].chips;
        p->switch_boxes += p->sw[r].boxes;
    }
    free(has_accel);
    free(has_up);
}

/* Links longer than their cable reaches, for one class and medium. */
struct overreach {
    size_t n;
    double longest, reach;
    uint32_t link; /* the longest */
    const struct sn_cable_info *forced;
};

/* WARN cabling for the links of one class and medium that outrun their
 * cable: naming the cable when the spec forces it, so the fix is clear. */
static void warn_reach(struct sn_plan *p, enum sn_link_class cls,
                       enum sn_medium m, const struct overreach *o)
{
    char label[400];

    sn_topo_link_label(p->topo, o->link, label, sizeof(label));
    if (o->forced)
        warn(p, "cabling", o->longest, o->reach,
             "%s %s links outrun the cable the spec names for them: %s "
             "reaches %.2f m, the longest link is %.2f m (%s); move the "
             "devices closer or name a longer-reach cable",
             COUNT(o->n), sn_link_class_name(cls),
             o->forced->display ? o->forced->display : o->forced->name,
             o->reach, o->longest, label);
    else
        warn(p, "cabling", o->longest, o->reach,
             "%s %s %s links outrun their medium: %s reaches %.2f m, the "
             "longest link is %.2f m (%s); move the racks closer or use a "
             "longer-reach medium",
             COUNT(o->n), sn_link_class_name(cls), sn_medium_name(m),
             sn_medium_name(m), o->reach, o->longest, label);
}

/* One optical link end in a cage: the module part it takes (an index
 * into p->module), the device whose cage it sits in, and the ports that
 * cage carries. */
struct cage_end {
    uint32_t slot, owner, ports;
};

static int cmp_cage_end(const void *x, const void *y)
{
    const struct cage_end *a = x, *b = y;

    if (a->slot != b->slot)
        return a->slot < b->slot ? -1 : 1;
    return a->owner < b->owner ? -1 : a->owner > b->owner;
}

/* The slot of module part `sku` drawing `w` a module; the last slot takes
 * what does not fit. */
static uint32_t module_slot(struct sn_plan *p, const char *sku, double w)
{
    size_t i;

    for (i = 0; i < p->nmodule; i++)
        if (p->module[i].sku == sku && p->module[i].w == w)
            return (uint32_t)i;
    if (p->nmodule == SN_ARRAY_LEN(p->module))
        return (uint32_t)(p->nmodule - 1);
    p->module[p->nmodule].sku = sku;
    p->module[p->nmodule].w = w; /* a module's, until the counts are in */
    return (uint32_t)p->nmodule++;
}

/* The cage a link end at node `id` plugs into: its owner (the switch, or
 * the first NIC port of the cage in its server) and the ports it carries;
 * 0 ports where the end is no NIC or network switch port (an
 * accelerator's own optics: the cable says how many links a module
 * carries). */
static uint32_t cage_of(const struct sn_spec *s, const struct sn_topo *t,
                        uint32_t id, uint32_t *owner)
{
    const struct sn_node *n = &t->nodes[id];
    int ports;

    *owner = id;
    if (n->kind == SN_NODE_NIC)
        ports = s->scaleout.nic ? s->scaleout.nic->ports_per_cage : 0;
    else if (n->kind == SN_NODE_SWITCH &&
             (n->role == SN_SW_LEAF || n->role == SN_SW_SPINE ||
              n->role == SN_SW_CORE))
        ports = s->scaleout.sw ? s->scaleout.sw->ports_per_cage : 0;
    else
        return 0;
    if (ports < 1)
        ports = 1;
    if (n->kind == SN_NODE_NIC)
        *owner = id - n->index % (uint32_t)ports;
    return (uint32_t)ports;
}

/* Record one optical link end: a module in a cage, or a share of a
 * module the cable carries several links on. Returns the end's share of
 * its module's power. */
static double add_module_end(struct sn_plan *p, const struct optics *o,
                             uint32_t id, struct cage_end *ends, size_t *nends,
                             double *frac)
{
    const struct sn_cable_info *c = o->cable;
    uint32_t owner, ports = cage_of(p->spec, p->topo, id, &owner);
    const char *sku = c ? c->module : NULL;
    double w = c ? c->transceiver_power_w : DEFAULT_TRANSCEIVER_W;

    if (ports == 0) {
        uint32_t k = module_slot(p, sku, w);
        p->module[k].ends++;
        frac[k] += o->per_end;
        return w * o->per_end;
    }
    if (ports > 1 && c && c->twin_module) {
        sku = c->twin_module;
        w = c->twin_module_w;
    } else {
        ports = 1; /* no twin-port part: a module a port */
    }
    ends[*nends].slot = module_slot(p, sku, w);
    ends[*nends].owner = owner;
    ends[*nends].ports = ports;
    p->module[ends[*nends].slot].ends++;
    (*nends)++;
    return w / ports;
}

/* Whole modules: per cage owner and part, its ends over the ports a
 * module carries, rounded up (a half-used twin-port module is bought
 * whole); shares of modules rounded up per part. */
static void count_modules(struct sn_plan *p, struct cage_end *ends,
                          size_t nends, const double *frac)
{
    size_t i, j;

    if (nends)
        qsort(ends, nends, sizeof(*ends), cmp_cage_end);
    for (i = 0; i < p->nmodule; i++)
        p->module[i].count = (size_t)ceil(frac[i] - 1e-9);
    for (i = 0; i < nends; i = j) {
        for (j = i; j < nends && ends[j].slot == ends[i].slot &&
                    ends[j].owner == ends[i].owner;
             j++)
            ;
        p->module[ends[i].slot].count +=
            (j - i + ends[i].ports - 1) / ends[i].ports;
    }
    p->transceivers = 0;
    for (i = 0; i < p->nmodule; i++) {
        p->module[i].w *= (double)p->module[i].count;
        p->transceivers += p->module[i].count;
        p->transceiver_w += p->module[i].w;
    }
}

const struct sn_cable_info *sn_plan_link_cable(const struct sn_spec *s,
                                               const struct sn_link *l)
{
    const struct sn_cable_info *c;

    if (l->cls == SN_LINK_HOST || l->medium == SN_MEDIUM_BOARD)
        return NULL;
    c = l->cls == SN_LINK_SCALE_UP    ? s->scaleup.cable
        : l->cls == SN_LINK_SCALE_OUT ? s->scaleout.cable
                                      : NULL;
    if (c && c->medium == l->medium)
        return c;
    return cable_of(s, (enum sn_medium)l->medium, (enum sn_link_class)l->cls,
                    l->bw);
}

const char *sn_plan_end_module(const struct sn_topo *t, uint32_t link,
                               bool b_end)
{
    const struct sn_link *l = &t->links[link];
    const struct sn_cable_info *c = sn_plan_link_cable(t->spec, l);
    uint32_t owner, ports;

    if (!c || !c->needs_transceivers)
        return NULL;
    ports = cage_of(t->spec, t, b_end ? l->b : l->a, &owner);
    return ports > 1 && c->twin_module ? c->twin_module : c->module;
}

static void count_links(struct sn_plan *p)
{
    const struct sn_topo *t = p->topo;
    const struct sn_spec *s = p->spec;
    struct optics cache[32];
    size_t ncache = 0;
    struct overreach over[SN_LINK_CLASS_COUNT][SN_MEDIUM_COUNT];
    struct cage_end *ends = NULL;
    size_t nends = 0;
    double frac[SN_ARRAY_LEN(p->module)] = {0};

    memset(over, 0, sizeof(over));
    for (size_t i = 0; i < t->nlinks; i++) {
        const struct sn_link *l = &t->links[i];
        const struct sn_node *a = &t->nodes[l->a], *b = &t->nodes[l->b];
        bool sw_a = a->kind == SN_NODE_SWITCH, sw_b = b->kind == SN_NODE_SWITCH;
        const struct optics *o;
        double wa, wb;

        p->links[l->cls]++;
        if (l->cls == SN_LINK_HOST)
            continue;
        if (l->cls == SN_LINK_SCALE_UP) {
            if (sw_a && sw_b)
                p->scaleup_switch++;
            else
                p->scaleup_accel++;
        } else {
            if (sw_a && sw_b)
                p->scaleout_switch++;
            else
                p->scaleout_nic++;
        }
        p->cables[l->medium]++;
        p->cable_m[l->medium] += l->length;
        if (l->length > p->longest_m[l->medium])
            p->longest_m[l->medium] = l->length;
        o = optics_of(s, cache, &ncache, SN_ARRAY_LEN(cache),
                      (enum sn_medium)l->medium, (enum sn_link_class)l->cls,
                      l->bw);
        if (l->medium != SN_MEDIUM_BOARD && l->length > o->reach) {
            struct overreach *ov = &over[l->cls][l->medium];
            ov->n++;
            ov->reach = o->reach;
            ov->forced = o->forced;
            if (l->length > ov->longest) {
                ov->longest = l->length;
                ov->link = (uint32_t)i;
            }
        }
        if (!o->needs && !(o->w > 0))
            continue;
        wa = wb = o->w;
        if (o->needs) {
            if (!ends)
                ends = sn_xcalloc(2 * t->nlinks, sizeof(*ends));
            wa = add_module_end(p, o, l->a, ends, &nends, frac);
            wb = add_module_end(p, o, l->b, ends, &nends, frac);
        } else {
            p->active_ends += 2;
            p->transceiver_w += 2 * o->w;
        }
        if (a->rack < p->nrack)
            p->rack[a->rack].steady_w += wa;
        if (b->rack < p->nrack)
            p->rack[b->rack].steady_w += wb;
    }
    count_modules(p, ends, nends, frac);
    free(ends);
    p->links_total = p->links[SN_LINK_SCALE_UP] + p->links[SN_LINK_SCALE_OUT];
    for (int c = 0; c < SN_LINK_CLASS_COUNT; c++)
        for (int m = 0; m < SN_MEDIUM_COUNT; m++)
            if (over[c][m].n)
                warn_reach(p, (enum sn_link_class)c, (enum sn_medium)m,
                           &over[c][m]);
}

/* ---- bandwidth -------------------------------------------------------- */

/* Bisection of one supernode's scale-up fabric: the least bandwidth
 * across a cut into two halves, from the fabric's closed form. */
static double scaleup_bisection(const struct sn_spec *s, double per_accel)
{
    const struct sn_scaleup *su = &s->scaleup;
    double a = su->accelerators, bw = su->link_bw;

    switch (su->fabric) {
    case SN_FABRIC_NONE:
        return 0;
    case SN_FABRIC_SWITCHED: /* non-blocking crossbar of chips */
        return floor(a / 2) * per_accel;
    case SN_FABRIC_FULL_MESH: { /* every pair across the cut */
        double m = a > 1 ? su->links_per_accel / (a - 1) : 0;
        return floor(a / 2) * ceil(a / 2) * m * bw;
    }
    case SN_FABRIC_PARTIAL_MESH: {
        double g = su->group > 0 ? su->group : a, ng = a / g;
        double m2 = ng > 1 ? (su->links_per_accel - (g - 1)) / (ng - 1) : 0;
        double by_group = floor(ng / 2) * ceil(ng / 2) * g * m2;
        double by_pos = ng * floor(g / 2) * ceil(g / 2);
        if (ng < 2)
            return by_pos * bw;
        return fmin(by_group, by_pos) * bw;
    }
    case SN_FABRIC_TORUS: { /* a cut across the longest ring cuts it twice */
        double kmax = 1, nb = 0;
        for (int d = 0; d < su->ndims; d++) {
            if (su->dims[d] > kmax)
                kmax = su->dims[d];
            if (su->dims[d] >= 2)
                nb += 2;
        }
        if (kmax < 2 || nb == 0)
            return 0;
        return 2 * (a / kmax) * (su->links_per_accel / nb) * bw;
    }
    case SN_FABRIC_PCIE_TREE: /* through the switches' uplinks */
        return floor(a / 2) * per_accel;
    }
    return 0;
}

static void bandwidth(struct sn_plan *p)
{
    const struct sn_spec *s = p->spec;
    const struct sn_scaleout *so = &s->scaleout;
    double nic_bw = so->nic_bw > 0 ? so->nic_bw : so->nic ? so->nic->rate : 0;
    double ports = (double)p->nics;

    p->scaleup_per_accel =
        s->scaleup.fabric == SN_FABRIC_NONE
            ? 0
            : s->scaleup.links_per_accel * s->scaleup.link_bw;
    p->scaleout_per_accel =
        p->accelerators ? ports * nic_bw / (double)p->accelerators : 0;
    p->convergence = p->scaleout_per_accel > 0
                         ? p->scaleup_per_accel / p->scaleout_per_accel
                         : 0;
    p->scaleup_aggregate = p->scaleup_per_accel * (double)p->accelerators;
    p->scaleout_aggregate = ports * nic_bw;
    p->scaleup_bisection = scaleup_bisection(s, p->scaleup_per_accel);
    switch (so->topology) {
    case SN_NET_NONE:
        p->scaleout_bisection = 0;
        break;
    case SN_NET_RAIL_FAT_TREE:
    case SN_NET_FAT_TREE:
        /* full bisection at the spines; the leaves' oversubscription
         * divides it */
        p->scaleout_bisection =
            floor(ports / 2) * nic_bw /
            (so->oversubscription > 1 ? so->oversubscription : 1);
        break;
    case SN_NET_EXTERNAL:
    case SN_NET_EXPLICIT:
        p->scaleout_bisection = NAN; /* not designed here */
        break;
    }
}

/* ---- power and cooling ----------------------------------------------- */

/* Feed current [hardware-catalog.md 4.1]: single-phase I = P / (V PF);
 * three-phase line current I = P / (sqrt(3) V_LL PF); DC I = P / V. */
static double feed_current(const struct sn_power_spec *pw, double watts)
{
    double pf = pw->power_factor > 0 ? pw->power_factor : 1;

    if (!(pw->voltage > 0))
        return NAN;
    switch (pw->feed) {
    case SN_FEED_AC_1PH:
        return watts / (pw->voltage * pf);
    case SN_FEED_AC_3PH:
        return watts / (sqrt(3.0) * pw->voltage * pf);
    case SN_FEED_HVDC:
        return watts / pw->voltage;
    }
    return NAN;
}

static double default_pue(enum sn_cooling c)
{
    /* planner defaults of hardware-catalog.md 4.3 [E]: air 1.4-1.5,
     * cold-plate hybrid 1.15-1.25, immersion 1.05-1.1 (midpoints) */
    switch (c) {
    case SN_COOL_AIR:
        return 1.45;
    case SN_COOL_COLD_PLATE:
        return 1.2;
    case SN_COOL_IMMERSION:
        return 1.07;
    }
    return 1.45;
}

/* The liquid share of the heat, dT and the coolant's properties the
 * spec gives or the defaults. */
struct coolant_props {
    double share, dt, rho, cp;
};

static struct coolant_props coolant_props(const struct sn_cooling_spec *cs)
{
    struct coolant_props c;

    c.share = cs->type == SN_COOL_AIR         ? 0
              : cs->liquid_share > 0          ? cs->liquid_share
              : cs->type == SN_COOL_IMMERSION ? 1
                                              : DEFAULT_LIQUID_SHARE;
    c.dt = cs->delta_t > 0 ? cs->delta_t : DEFAULT_DELTA_T;
    if (cs->coolant_density > 0 && cs->coolant_cp > 0) {
        c.rho = cs->coolant_density;
        c.cp = cs->coolant_cp;
    } else if (cs->coolant == SN_COOLANT_PG25) {
        c.rho = PG25_RHO;
        c.cp = PG25_CP;
    } else {
        c.rho = WATER_RHO;
        c.cp = WATER_CP;
    }
    return c;
}

double sn_plan_branch_flow(const struct sn_spec *s)
{
    struct coolant_props c = coolant_props(&s->cooling);
    double overhead = s->power.node_overhead > 0 ? s->power.node_overhead : 1;
    double tdp = s->accel ? s->accel->tdp_w : 0;
    int per_node = s->scaleup.per_node > 0 ? s->scaleup.per_node : 0;

    /* Q = P / (rho c_p dT) [hardware-catalog.md 4.2] */
    return tdp * per_node * overhead * c.share / (c.rho * c.cp * c.dt);
}

static void power_and_cooling(struct sn_plan *p)
{
    const struct sn_spec *s = p->spec;
    const struct sn_power_spec *pw = &s->power;
    const struct sn_cooling_spec *cs = &s->cooling;
    double tdp = s->accel ? s->accel->tdp_w : 0;
    double limit = s->racks.power_limit_w;
    double air_limit =
        cs->air_limit_w > 0 ? cs->air_limit_w : DEFAULT_AIR_LIMIT;
    double share, dt, flow_div;
    struct coolant_props cp;
    size_t over_power = 0, over_air = 0;
    const struct sn_plan_rack *worst_air = NULL;

    p->accel_tdp_w = tdp * (double)p->accelerators;
    p->servers_w = p->accel_tdp_w * p->node_overhead;
    p->steady_w = p->servers_w + p->switches_w + p->transceiver_w;
    p->peak_w = p->steady_w + p->accel_tdp_w * (p->transient - 1);
    p->provisioned_w = p->peak_w * p->headroom;
    p->pue = pw->pue > 0 ? pw->pue : default_pue(cs->type);
    p->facility_w = p->steady_w * p->pue;

    cp = coolant_props(cs);
    share = cp.share;
    dt = cp.dt;
    p->coolant_density = cp.rho;
    p->coolant_cp = cp.cp;
    /* Q = P / (rho c_p dT) [hardware-catalog.md 4.2] */
    flow_div = p->coolant_density * p->coolant_cp * dt;
    p->coolant_node_m3s = sn_plan_branch_flow(s);

    /* transients ride on the accelerators' TDP only */
    for (size_t v = 0; v < p->topo->nnodes; v++) {
        const struct sn_node *n = &p->topo->nodes[v];
        if (n->kind == SN_NODE_ACCEL && n->rack < p->nrack)
            p->rack[n->rack].peak_w += tdp * (p->transient - 1);
    }
    for (size_t r = 0; r < p->nrack; r++) {
        struct sn_plan_rack *rk = &p->rack[r];
        rk->peak_w += rk->steady_w;
        rk->liquid_w = rk->steady_w * share;
        rk->air_w = rk->steady_w - rk->liquid_w;
        rk->coolant_m3s = rk->liquid_w / flow_div;
        p->liquid_w += rk->liquid_w;
        p->air_w += rk->air_w;
        p->coolant_m3s += rk->coolant_m3s;
    }
    p->worst = NULL;
    p->air_limit_w = air_limit;
    p->air_alone = true;
    for (size_t r = 0; r < p->nrack; r++) {
        struct sn_plan_rack *rk = &p->rack[r];
        if (rk->steady_w > p->rack_max_steady_w)
            p->rack_max_steady_w = rk->steady_w;
        /* could air carry the rack's whole heat, liquid or not */
        if (rk->steady_w > air_limit)
            p->air_alone = false;
        rk->provisioned_w = rk->peak_w * p->headroom;
        rk->current_a = feed_current(pw, rk->peak_w);
        if (!p->worst || rk->peak_w > p->worst->peak_w)
            p->worst = rk;
        if (limit > 0 && rk->peak_w > limit)
            over_power++;
        if (rk->air_w > air_limit) {
            over_air++;
            if (!worst_air || rk->air_w > worst_air->air_w)
                worst_air = rk;
        }
    }
    if (over_power)
        warn(p, "power", p->worst->peak_w, limit,
             "%s of %s racks draw more than the rack limit of %.1f kW at "
             "peak (worst: rack r%02u at %.1f kW)",
             COUNT(over_power), COUNT(p->nrack), limit / 1e3,
             (unsigned)p->worst->rack, p->worst->peak_w / 1e3);
    if (over_air)
        warn(p, "cooling", worst_air->air_w, air_limit,
             "%s racks leave more heat to air than air carries (%.1f kW "
             "per rack; worst: rack r%02u at %.1f kW)%s",
             COUNT(over_air), air_limit / 1e3, (unsigned)worst_air->rack,
             worst_air->air_w / 1e3,
             cs->type == SN_COOL_AIR ? ": liquid cooling is needed" : "");
}

/* ---- storage and memory -------------------------------------------- */

static void storage_and_memory(struct sn_plan *p)
{
    const struct sn_spec *s = p->spec;
    const struct sn_storage_spec *st = &s->storage;
    const struct sn_workload_spec *wl = &s->workload;
    const struct sn_accel_info *acc = s->accel;
    double bpp, tpp, read_bw;

    p->params = wl->params > 0 ? wl->params : wl->model ? wl->model->params : 0;
    if (acc && acc->bf16_flops > 0 && acc->hbm_bw > 0) {
        p->bytes_per_flop = acc->hbm_bw / acc->bf16_flops;
        if (p->bytes_per_flop < MIN_BYTES_PER_FLOP)
            warn(p, "compute", p->bytes_per_flop, MIN_BYTES_PER_FLOP,
                 "the %s moves %.2f bytes of HBM per 1,000 FLOP (ridge "
                 "point %.0f FLOP/B, above %.0f): memory-bound work such "
                 "as attention and decoding will starve",
                 acc->display ? acc->display : acc->name,
                 p->bytes_per_flop * 1e3, 1 / p->bytes_per_flop,
                 1 / MIN_BYTES_PER_FLOP);
    }
    if (!(p->params > 0))
        return;
    bpp = st->bytes_per_param > 0 ? st->bytes_per_param
                                  : DEFAULT_BYTES_PER_PARAM_CKPT;
    p->storage = true;
    p->checkpoint_bytes = p->params * bpp;
    p->required_write_Bps =
        st->write_window > 0 ? p->checkpoint_bytes / st->write_window : NAN;
    p->write_time = st->write_bw > 0 ? p->checkpoint_bytes / st->write_bw : NAN;
    read_bw = st->read_bw > 0 ? st->read_bw : 0;
    p->restore_time = read_bw > 0 ? p->checkpoint_bytes / read_bw : NAN;
    p->checkpoint_share = st->checkpoint_interval > 0 && p->write_time > 0
                              ? p->write_time / st->checkpoint_interval
                              : NAN;
    if (st->write_window > 0 && p->write_time > st->write_window)
        warn(p, "storage", p->write_time, st->write_window,
             "a checkpoint of %.0f GB takes %.0f s at the file system's "
             "write bandwidth, longer than the %.0f s window (it needs "
             "%.1f GB/s)",
             p->checkpoint_bytes / 1e9, p->write_time, st->write_window,
             p->required_write_Bps / 1e9);

    if (!acc || !(acc->hbm_bytes > 0))
        return;
    tpp = wl->train_bytes_per_param > 0 ? wl->train_bytes_per_param
                                        : DEFAULT_BYTES_PER_PARAM_TRAIN;
    p->memory = true;
    p->train_bytes = p->params * tpp;
    p->hbm_supernode = acc->hbm_bytes * (double)p->per_supernode;
    p->hbm_cluster = acc->hbm_bytes * (double)p->accelerators;
    p->min_accels = (size_t)ceil(p->train_bytes / acc->hbm_bytes);
    if (p->train_bytes > p->hbm_cluster)
        warn(p, "memory", p->train_bytes, p->hbm_cluster,
             "the training state of %.0f GB (%.0f B per parameter, "
             "activations not counted) does not fit the cluster's %.0f GB "
             "of HBM even fully sharded: it needs at least %s "
             "accelerators",
             p->train_bytes / 1e9, tpp, p->hbm_cluster / 1e9,
             COUNT(p->min_accels));
}

/* ---- design checks ------------------------------------------------- */

static void check_design(struct sn_plan *p)
{
    const struct sn_spec *s = p->spec;
    const struct sn_accel_info *acc = s->accel;
    const struct sn_scaleup *su = &s->scaleup;
    uint32_t units =
        s->racks.rack_units > 0 ? (uint32_t)s->racks.rack_units : RACK_UNITS;
    size_t over_units = 0;
    uint32_t worst_units = 0;

    if (acc && acc->max_domain > 0 && su->fabric != SN_FABRIC_NONE &&
        su->accelerators > acc->max_domain)
        warn(p, "scale-up", su->accelerators, acc->max_domain,
             "%d accelerators per supernode exceed the largest scale-up "
             "domain the %s supports (%d)",
             su->accelerators, acc->display ? acc->display : acc->name,
             acc->max_domain);
    if (acc && acc->scaleup_links > 0 && su->fabric != SN_FABRIC_NONE &&
        su->fabric != SN_FABRIC_PCIE_TREE &&
        su->links_per_accel > acc->scaleup_links)
        warn(p, "scale-up", su->links_per_accel, acc->scaleup_links,
             "the design gives each accelerator %d scale-up links; the %s "
             "has %d",
             su->links_per_accel, acc->display ? acc->display : acc->name,
             acc->scaleup_links);
    if (acc && acc->scaleup_bw > 0 &&
        p->scaleup_per_accel > acc->scaleup_bw * 1.001)
        warn(p, "scale-up", p->scaleup_per_accel, acc->scaleup_bw,
             "the design gives each accelerator %.0f GB/s of scale-up "
             "bandwidth per direction; the %s has %.0f GB/s",
             p->scaleup_per_accel / 1e9,
             acc->display ? acc->display : acc->name, acc->scaleup_bw / 1e9);
    for (size_t r = 0; r < p->nrack; r++) {
        if (p->rack[r].units > units) {
            over_units++;
            if (p->rack[r].units > worst_units)
                worst_units = p->rack[r].units;
        }
    }
    if (acc && acc->roadmap)
        warn(p, "catalog", 0, 0,
             "the %s is announced, not shipping: its figures are the "
             "vendor's roadmap and estimates (supernode catalog show %s)",
             acc->display ? acc->display : acc->name, acc->name);
    if (acc && !(acc->tdp_w > 0))
        warn(p, "power", 0, 0,
             "the catalog has no power figure for the %s: accelerators are "
             "counted at 0 W (give the accelerator's tdp in the spec)",
             acc->display ? acc->display : acc->name);
    for (int r = 0; r < 8; r++) {
        const struct sn_plan_switches *sw = &p->sw[r];
        const struct sn_switch_info *info =
            r == SN_SW_SCALEUP_L1 || r == SN_SW_SCALEUP_L2 ? su->sw
                                                           : s->scaleout.sw;
        if (!sw->chips || sw->power_w > 0 || r == SN_SW_PCIE ||
            (r == SN_SW_SCALEUP_L1 && sw->onboard == sw->chips))
            continue;
        warn(p, "power", 0, 0,
             "no power figure for the %s (%s): %s %s counted at 0 W",
             info ? (info->display ? info->display : info->name) : "switch",
             sn_switch_role_name((enum sn_switch_role)r),
             COUNT(sw->boxes ? sw->boxes : sw->chips),
             sw->boxes ? "boxes" : "chips");
    }
    if (over_units)
        warn(p, "placement", worst_units, units,
             "%s racks need more than %u units (up to %u): fewer nodes "
             "per rack",
             COUNT(over_units), units, worst_units);
}

int sn_plan_build(const struct sn_topo *t, struct sn_plan **out,
                  struct sn_error *err)
{
    const struct sn_spec *s = t ? t->spec : NULL;
    struct sn_plan *p;

    *out = NULL;
    if (!s || !t->finished)
        return sn_error_set(err, SN_EINPUT,
                            "a plan needs a finished topology built from a "
                            "spec");
    p = sn_xcalloc(1, sizeof(*p));
    p->topo = t;
    p->spec = s;
    p->supernodes = (size_t)s->supernodes;
    p->per_supernode = (size_t)s->scaleup.accelerators;
    p->servers = s->scaleup.per_node > 0 ? p->supernodes * p->per_supernode /
                                               (size_t)s->scaleup.per_node
                                         : 0;
    p->node_overhead = s->power.node_overhead > 0 ? s->power.node_overhead : 1;
    p->transient = s->power.transient_factor > 0 ? s->power.transient_factor
                   : s->accel && s->accel->transient_factor > 0
                       ? s->accel->transient_factor
                       : 1;
    p->headroom = s->power.headroom > 0 ? s->power.headroom : DEFAULT_HEADROOM;
    count_nodes(p);
    count_links(p);
    bandwidth(p);
    power_and_cooling(p);
    storage_and_memory(p);
    check_design(p);
    *out = p;
    return SN_OK;
}
