/* build.c: sn_topo_build(), the whole cluster from a spec: servers with
 * their accelerators, CPU and NICs, the scale-up fabric (build-scaleup.c),
 * the scale-out network (build-net.c), host links, and the placement that
 * gives every device a rack and a unit and every link a length and a
 * medium. Two passes over the same code: count, then fill arrays sized
 * exactly, so 100,000 accelerators build in well under a second.
 */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "build.h"

/* Floor layout for length estimates [E]: racks stand in rows of 16;
 * neighbouring rows are 4.2 m apart (the common seven-tile pitch of
 * 0.6 m floor tiles for a hot aisle, a cold aisle and the racks). A cable
 * between racks rises from its unit to the overhead tray at the top of
 * the rack (plus 0.3 m), runs the Manhattan distance, drops the same way
 * at the other end, and carries 1 m of slack; inside a rack it runs the
 * unit distance in the rear cable spine plus 0.1 m at each connector;
 * between neighbouring racks of a row it passes the side wall: the rack
 * pitch, the unit distance and 0.5 m. */
#define RACKS_PER_ROW 16u
#define ROW_PITCH 4.2
#define TRAY_RISE 0.3
#define SLACK_BETWEEN 1.0
#define SLACK_INSIDE 0.2
#define SLACK_SIDE 0.3
#define IN_CHASSIS 0.2    /* board traces and backplanes */
#define DEFAULT_PITCH 0.6 /* a 600 mm wide rack */

/* Signal propagation, about 5 ns per metre in fibre (c / 1.47) and in
 * twinax copper (velocity factor ~0.7) [D]. */
#define PROPAGATION 5e-9

/* Host links [V: PCI-SIG base specifications]: PCIe 5.0 x16 runs
 * 32 GT/s x 16 lanes with 128b/130b coding = 63.0 GB/s per direction;
 * PCIe 6.0 x16 runs 64 GT/s with FLIT coding (242 of 256 bytes carry
 * data) = 121 GB/s. A NIC gets the first generation that carries its
 * rate. One host hop costs about half of the ~1 us round trip of a small
 * PCIe DMA read (Neugebauer et al., "Understanding PCIe performance for
 * end host networking", SIGCOMM 2018) [E]. */
#define PCIE5_X16 SN_PCIE5_X16
#define PCIE6_X16 121.0e9
#define HOST_HOP 0.5e-6

int sn__topo_build_fail(struct sn__topo_build *b, const struct sn_pos *pos,
                        const char *fmt, ...)
{
    char msg[SN_ERROR_MSG_MAX];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return sn_error_at(b->err, SN_EINPUT, b->s->file ? b->s->file : "<spec>",
                       pos ? pos->line : 0, pos ? pos->col : 0, "%s", msg);
}

/* ---- ids ---------------------------------------------------------------- */

uint32_t sn__topo_server_base(const struct sn__topo_build *b, uint32_t sn,
                              uint32_t server)
{
    return sn * b->sn_block + server * b->server_block;
}

uint32_t sn__topo_accel_id(const struct sn__topo_build *b, uint32_t sn,
                           uint32_t local_rank)
{
    return sn__topo_server_base(b, sn, local_rank / b->per_node) +
           local_rank % b->per_node;
}

uint32_t sn__topo_cpu_id(const struct sn__topo_build *b, uint32_t sn,
                         uint32_t server)
{
    return sn__topo_server_base(b, sn, server) + b->per_node;
}

/* The CPU the i-th of `of` devices of a server hangs from: the CPUs split
 * them in order (a GB200 tray: GPUs 0-1 on Grace 0, 2-3 on Grace 1). */
static uint32_t cpu_of(const struct sn__topo_build *b, uint32_t sn,
                       uint32_t server, uint32_t i, uint32_t of)
{
    return sn__topo_cpu_id(b, sn, server) +
           (uint32_t)((uint64_t)i * b->cpus / (of ? of : 1));
}

uint32_t sn__topo_nic_id(const struct sn__topo_build *b, uint32_t sn,
                         uint32_t server, uint32_t nic)
{
    return sn__topo_server_base(b, sn, server) + b->per_node + b->cpus + nic;
}

uint32_t sn__topo_onboard_id(const struct sn__topo_build *b, uint32_t sn,
                             uint32_t server, uint32_t k)
{
    return sn__topo_server_base(b, sn, server) + b->per_node + b->cpus +
           b->nics + k;
}

uint32_t sn__topo_offboard_id(const struct sn__topo_build *b, uint32_t sn,
                              uint32_t k)
{
    return sn * b->sn_block + b->servers * b->server_block + k;
}

/* ---- placement ---------------------------------------------------------- */

/* The global rack of a supernode's k-th compute rack. */
static uint32_t compute_rack(const struct sn__topo_build *b, uint32_t sn,
                             uint32_t k)
{
    uint32_t half = b->compute_racks / 2;

    if (b->sn_per_rack > 1)
        return sn / b->sn_per_rack;
    if (b->tray_mode == SN__TRAYS_OWN_RACKS && k >= half)
        k += b->switch_racks;
    return sn * b->racks_per_sn + k;
}

/* Trays in compute rack k when they are spread over the compute racks. */
static uint32_t trays_in_rack(const struct sn__topo_build *b, uint32_t k)
{
    uint32_t first = k * b->trays_per_rack;

    if (b->tray_mode != SN__TRAYS_IN_RACK || first >= b->trays)
        return 0;
    return b->trays - first < b->trays_per_rack ? b->trays - first
                                                : b->trays_per_rack;
}

static uint32_t servers_in_rack(const struct sn__topo_build *b, uint32_t k)
{
    uint32_t first = k * b->nodes_per_rack;

    return b->servers - first < b->nodes_per_rack ? b->servers - first
                                                  : b->nodes_per_rack;
}

void sn__topo_place_server(const struct sn__topo_build *b, uint32_t sn,
                           uint32_t server, uint32_t *rack, uint16_t *unit)
{
    uint32_t k = server / b->nodes_per_rack, j = server % b->nodes_per_rack;
    uint32_t lower = servers_in_rack(b, k) / 2;
    uint32_t u = 1 + (sn % b->sn_per_rack) * b->sn_units;

    /* switch trays sit in the middle of the rack, as in the NVL72, so the
     * copper runs from the trays above and below stay short */
    if (j < lower)
        u += j * b->node_units;
    else
        u += j * b->node_units + trays_in_rack(b, k) * b->tray_units;
    *rack = compute_rack(b, sn, k);
    *unit = (uint16_t)(u > UINT16_MAX ? UINT16_MAX : u);
}

void sn__topo_place_tray(const struct sn__topo_build *b, uint32_t sn,
                         uint32_t chip, uint32_t *rack, uint16_t *unit)
{
    uint32_t tray = chip / b->chips_per_tray, u;

    if (b->tray_mode == SN__TRAYS_IN_RACK) {
        uint32_t k = tray / b->trays_per_rack;
        uint32_t lower = servers_in_rack(b, k) / 2;
        u = 1 + (sn % b->sn_per_rack) * b->sn_units + lower * b->node_units +
            (tray % b->trays_per_rack) * b->tray_units;
        *rack = compute_rack(b, sn, k);
    } else {
        uint32_t k = tray / b->trays_per_rack;
        u = 1 + (tray % b->trays_per_rack) * b->tray_units;
        *rack = sn * b->racks_per_sn + b->compute_racks / 2 + k;
    }
    *unit = (uint16_t)(u > UINT16_MAX ? UINT16_MAX : u);
}

void sn__topo_place_net(struct sn__topo_build *b, uint32_t units,
                        uint32_t *rack, uint16_t *unit)
{
    uint32_t in_rack = b->net_slot % b->rack_units;

    if (units > b->rack_units)
        units = b->rack_units;
    if (in_rack + units > b->rack_units)
        b->net_slot += b->rack_units - in_rack;
    *rack = b->net_rack0 + b->net_slot / b->rack_units;
    *unit = (uint16_t)(1 + b->net_slot % b->rack_units);
    b->net_slot += units;
}

/* Where the site network's end is taken to be: the first rack of the row
 * after the designed racks. Its uplinks leave the design's rows, as site
 * uplinks do, so none of them is planned as a short copper run. */
static uint32_t site_rack(const struct sn__topo_build *b)
{
    uint32_t last =
        b->net_rack0 + (b->net_slot + b->rack_units - 1) / b->rack_units;

    return (last / RACKS_PER_ROW + 1) * RACKS_PER_ROW;
}

/* Estimated cable length between two placed devices (see the floor layout
 * above). */
static double link_length(const struct sn__topo_build *b,
                          const struct sn_node *x, const struct sn_node *y)
{
    uint32_t rx = x->rack == SN_NONE ? site_rack(b) : x->rack;
    uint32_t ry = y->rack == SN_NONE ? site_rack(b) : y->rack;
    double ux = x->rack == SN_NONE ? b->rack_units : x->unit;
    double uy = y->rack == SN_NONE ? b->rack_units : y->unit;
    double h, v;

    if (rx == ry) {
        if (ux == uy)
            return IN_CHASSIS;
        return fabs(ux - uy) * SN__UNIT_HEIGHT + SLACK_INSIDE;
    }
    if (rx / RACKS_PER_ROW == ry / RACKS_PER_ROW &&
        (rx + 1 == ry || ry + 1 == rx))
        /* neighbours in a row: through the side wall, as the NVL36x2's
         * rack-to-rack NVLink cables run */
        return b->pitch + fabs(ux - uy) * SN__UNIT_HEIGHT + SLACK_INSIDE +
               SLACK_SIDE;
    h = fabs((double)(rx % RACKS_PER_ROW) - (double)(ry % RACKS_PER_ROW)) *
            b->pitch +
        fabs((double)(rx / RACKS_PER_ROW) - (double)(ry / RACKS_PER_ROW)) *
            ROW_PITCH;
    v = (b->rack_units + 1 - fmin(ux, b->rack_units)) * SN__UNIT_HEIGHT +
        (b->rack_units + 1 - fmin(uy, b->rack_units)) * SN__UNIT_HEIGHT +
        2 * TRAY_RISE;
    return h + v + SLACK_BETWEEN;
}

/* The medium of a network link: the catalog's cheapest cable that reaches
 * `length` at `rate` (sn_catalog_cable_for); without one, the NVIDIA
 * LinkX reaches (reference hardware-catalog.md section 3.3): passive
 * copper to 3 m (MCP7Y00), multimode SR4 to 50 m (MMA4Z00-NS), single-mode
 * beyond (DR4 100 m, FR4 2 km). */
static enum sn_medium net_medium(const struct sn__topo_build *b, double length,
                                 double rate)
{
    const struct sn_cable_info *c =
        sn_catalog_cable_for(&b->s->catalog, length, rate);

    if (c)
        return c->medium;
    if (length <= 3.0)
        return SN_MEDIUM_COPPER;
    if (length <= 50.0)
        return SN_MEDIUM_MMF;
    return SN_MEDIUM_SMF;
}

/* The medium of a scale-up link between chassis the spec names none for:
 * the catalog's scale-up cable of the lowest medium (passive copper
 * first) that carries the link's rate and reaches `length`; without one,
 * the spec's default (copper), which the plan then flags past its reach. */
static enum sn_medium scaleup_medium(const struct sn__topo_build *b,
                                     double length, double rate)
{
    const struct sn_catalog *cat = &b->s->catalog;
    const struct sn_cable_info *best = NULL;

    for (size_t i = 0; i < cat->ncables; i++) {
        const struct sn_cable_info *x = cat->cables[i];
        if (!x || !x->scale_up || x->medium == SN_MEDIUM_BOARD)
            continue;
        if (x->max_reach < length || x->rate < rate * 0.999)
            continue;
        if (!best || x->medium < best->medium ||
            (x->medium == best->medium && x->max_reach < best->max_reach))
            best = x;
    }
    return best ? best->medium : b->s->scaleup.medium;
}

/* ---- adding ------------------------------------------------------------- */

uint32_t sn__topo_build_node(struct sn__topo_build *b, const struct sn_node *n)
{
    if (b->fill)
        sn_topo_add_node(b->t, n);
    return (uint32_t)b->nnodes++;
}

uint32_t sn__topo_build_link(struct sn__topo_build *b, uint32_t a, uint32_t z,
                             enum sn_link_class cls, double bw,
                             double hop_latency)
{
    const struct sn_node *x, *y;
    enum sn_medium m;
    double len;

    if (!b->fill)
        return (uint32_t)b->nlinks++;
    x = &b->t->nodes[a];
    y = &b->t->nodes[z];
    len = link_length(b, x, y);
    if (cls == SN_LINK_HOST)
        m = SN_MEDIUM_BOARD;
    else if (len <= IN_CHASSIS)
        m = SN_MEDIUM_BOARD;
    else if (cls == SN_LINK_SCALE_UP)
        m = b->s->scaleup.cable          ? b->s->scaleup.cable->medium
            : b->s->scaleup.medium_given ? b->s->scaleup.medium
                                         : scaleup_medium(b, len, bw);
    else if (b->s->scaleout.cable)
        m = b->s->scaleout.cable->medium; /* the spec forces one cable */
    else
        m = net_medium(b, len, bw);
    sn_topo_add_link(b->t, a, z, cls, m, bw, hop_latency + len * PROPAGATION,
                     len);
    return (uint32_t)b->nlinks++;
}

/* ---- servers and host links --------------------------------------------- */

static void add_servers(struct sn__topo_build *b, uint32_t sn)
{
    for (uint32_t v = 0; v < b->servers; v++) {
        struct sn_node n;
        uint32_t rack;
        uint16_t unit;

        sn__topo_place_server(b, sn, v, &rack, &unit);
        memset(&n, 0, sizeof(n));
        n.supernode = sn;
        n.server = v;
        n.rack = rack;
        n.unit = unit;
        n.plane = SN_NONE16;
        n.kind = SN_NODE_ACCEL;
        for (uint32_t i = 0; i < b->per_node; i++) {
            n.index = i;
            n.rank = sn * b->accels + v * b->per_node + i;
            sn__topo_build_node(b, &n);
        }
        n.kind = SN_NODE_CPU;
        n.rank = SN_NONE;
        for (uint32_t c = 0; c < b->cpus; c++) {
            n.index = c;
            sn__topo_build_node(b, &n);
        }
        n.kind = SN_NODE_NIC;
        for (uint32_t j = 0; j < b->nics; j++) {
            n.index = j;
            n.plane = (uint16_t)(j < SN_NONE16 ? j : SN_NONE16 - 1);
            sn__topo_build_node(b, &n);
        }
        sn__topo_scaleup_onboard(b, sn, v, rack, unit);
    }
}

static double nic_pcie(double rate)
{
    return rate <= PCIE5_X16 ? PCIE5_X16 : PCIE6_X16;
}

/* Inside each server: every accelerator to the CPU; accelerators and NICs
 * that share a PCIe switch to each other (the GPUDirect path); every NIC
 * to the CPU. In a PCIe tree the accelerators and NICs hang below the
 * PCIe switches instead, which hang below the CPU. */
static void add_host_links(struct sn__topo_build *b, uint32_t sn)
{
    const struct sn_scaleup *su = &b->s->scaleup;
    double nic_bw = b->net.bw;
    bool tree = su->fabric == SN_FABRIC_PCIE_TREE;
    struct sn_accel_host host;

    sn_accel_host(b->s->accel, &host);
    for (uint32_t v = 0; v < b->servers; v++) {
        uint32_t cpu = sn__topo_cpu_id(b, sn, v);
        if (tree) {
            uint32_t per =
                (b->per_node + b->pcie_per_server - 1) / b->pcie_per_server;
            for (uint32_t i = 0; i < b->per_node; i++) {
                uint32_t a = sn__topo_accel_id(b, sn, v * b->per_node + i);
                uint32_t w = sn__topo_onboard_id(b, sn, v, i / per);
                for (uint32_t k = 0; k < b->links; k++)
                    sn__topo_build_link(b, a, w, SN_LINK_HOST, su->link_bw,
                                        HOST_HOP);
            }
            for (uint32_t k = 0; k < b->pcie_per_server; k++)
                sn__topo_build_link(b, sn__topo_onboard_id(b, sn, v, k), cpu,
                                    SN_LINK_HOST, su->link_bw, HOST_HOP);
            for (uint32_t j = 0; j < b->nics; j++) {
                uint32_t w = sn__topo_onboard_id(
                    b, sn, v,
                    (uint32_t)((uint64_t)j * b->pcie_per_server / b->nics));
                sn__topo_build_link(b, sn__topo_nic_id(b, sn, v, j), w,
                                    SN_LINK_HOST, nic_pcie(nic_bw), HOST_HOP);
            }
            continue;
        }
        /* each accelerator to its CPU: PCIe, or the accelerator's own
         * host link (GB200: NVLink-C2C to its Grace); the CPUs of a node
         * to each other (the socket link, taken at a PCIe 5.0 x16 rate
         * [E]) */
        for (uint32_t i = 0; i < b->per_node; i++)
            sn__topo_build_link(b,
                                sn__topo_accel_id(b, sn, v * b->per_node + i),
                                cpu_of(b, sn, v, i, b->per_node), SN_LINK_HOST,
                                host.bw, HOST_HOP);
        for (uint32_t c = 1; c < b->cpus; c++)
            sn__topo_build_link(b, cpu + c - 1, cpu + c, SN_LINK_HOST,
                                PCIE5_X16, HOST_HOP);
        /* every accelerator shares a PCIe switch with a NIC: with more
         * NICs than accelerators each NIC sits beside one accelerator,
         * with fewer each accelerator beside one NIC */
        if (b->nics >= b->per_node) {
            for (uint32_t j = 0; j < b->nics; j++) {
                uint32_t i = (uint32_t)((uint64_t)j * b->per_node / b->nics);
                sn__topo_build_link(
                    b, sn__topo_accel_id(b, sn, v * b->per_node + i),
                    sn__topo_nic_id(b, sn, v, j), SN_LINK_HOST,
                    nic_pcie(nic_bw), HOST_HOP);
            }
        } else if (b->nics) {
            for (uint32_t i = 0; i < b->per_node; i++) {
                uint32_t j = (uint32_t)((uint64_t)i * b->nics / b->per_node);
                sn__topo_build_link(
                    b, sn__topo_accel_id(b, sn, v * b->per_node + i),
                    sn__topo_nic_id(b, sn, v, j), SN_LINK_HOST,
                    nic_pcie(nic_bw), HOST_HOP);
            }
        }
        for (uint32_t j = 0; j < b->nics; j++)
            sn__topo_build_link(b, cpu_of(b, sn, v, j, b->nics),
                                sn__topo_nic_id(b, sn, v, j), SN_LINK_HOST,
                                nic_pcie(nic_bw), HOST_HOP);
    }
}

/* ---- shape -------------------------------------------------------------- */

static uint32_t ceil_div(uint64_t a, uint64_t d)
{
    assert(d > 0);
    return (uint32_t)((a + d - 1) / d);
}

/* Check the spec's counts against the planner's caps and set the
 * supernode, server, scale-up link and NIC counts. */
static int shape_counts(struct sn__topo_build *b)
{
    const struct sn_spec *s = b->s;
    const struct sn_scaleup *su = &s->scaleup;
    uint64_t total;

    if (s->supernodes < 1 || su->accelerators < 1)
        return sn__topo_build_fail(b, &su->pos,
                                   "a cluster needs at least one supernode "
                                   "of one accelerator (got %d x %d)",
                                   s->supernodes, su->accelerators);
    total = (uint64_t)s->supernodes * (uint64_t)su->accelerators;
    if (total > SN__MAX_ACCELS)
        return sn__topo_build_fail(b, &su->pos,
                                   "%llu accelerators is more than this "
                                   "planner builds (at most %u)",
                                   (unsigned long long)total, SN__MAX_ACCELS);
    if (su->per_node < 1 || su->accelerators % su->per_node)
        return sn__topo_build_fail(b, &su->pos,
                                   "%d accelerators per supernode do not "
                                   "fill servers of %d (expected a "
                                   "multiple of per_node)",
                                   su->accelerators, su->per_node);
    if (su->links_per_accel < 0 ||
        (uint32_t)su->links_per_accel > SN__MAX_LINKS_PER_ACCEL)
        return sn__topo_build_fail(b, &su->pos,
                                   "%d scale-up links per accelerator is "
                                   "out of range (0 to %u)",
                                   su->links_per_accel,
                                   SN__MAX_LINKS_PER_ACCEL);
    b->supernodes = (uint32_t)s->supernodes;
    b->accels = (uint32_t)su->accelerators;
    b->per_node = (uint32_t)su->per_node;
    b->servers = b->accels / b->per_node;
    b->links = (uint32_t)su->links_per_accel;
    if (s->scaleout.topology != SN_NET_NONE) {
        if (s->scaleout.nics_per_node < 1 ||
            (uint32_t)s->scaleout.nics_per_node > SN__MAX_NICS_PER_NODE)
            return sn__topo_build_fail(b, &s->scaleout.pos,
                                       "%d NIC ports per node is out of "
                                       "range (1 to %u with a network)",
                                       s->scaleout.nics_per_node,
                                       SN__MAX_NICS_PER_NODE);
        b->nics = (uint32_t)s->scaleout.nics_per_node;
    }
    b->net.bw = s->scaleout.nic_bw > 0 ? s->scaleout.nic_bw
                : s->scaleout.nic      ? s->scaleout.nic->rate
                                       : 0;
    if (b->nics && !(b->net.bw > 0))
        return sn__topo_build_fail(b, &s->scaleout.pos,
                                   "the scale-out network needs a NIC rate "
                                   "(nic or nic_bw)");
    return SN_OK;
}

/* Trays of offboard scale-up chips: in the compute racks when one tier
 * fits there, else in switch racks of their own. */
static void shape_trays(struct sn__topo_build *b)
{
    const struct sn_scaleup *su = &b->s->scaleup;
    const struct sn_switch_info *sw = su->sw;
    uint32_t per_rack, used;

    b->chips_per_tray =
        sw && sw->chips_per_box > 0 ? (uint32_t)sw->chips_per_box : 1;
    b->tray_units = sw && sw->rack_units > 0 ? (uint32_t)sw->rack_units : 1;
    b->trays = ceil_div(b->offboard_sw, b->chips_per_tray);
    assert(b->compute_racks > 0 && b->tray_units > 0);
    per_rack = ceil_div(b->trays, b->compute_racks);
    used = (b->servers < b->nodes_per_rack ? b->servers : b->nodes_per_rack) *
           b->node_units;
    /* L2 chips join every server of the supernode, as spines do: they
     * get switch racks of their own in the middle (CloudMatrix 384 puts
     * them in separate cabinets); one tier of trays goes into the
     * compute racks when it fits (the NVL72's nine switch trays) */
    if (!b->l1_up && used + per_rack * b->tray_units <= b->rack_units) {
        b->tray_mode = SN__TRAYS_IN_RACK;
        b->trays_per_rack = per_rack;
    } else {
        b->tray_mode = SN__TRAYS_OWN_RACKS;
        b->trays_per_rack =
            b->rack_units / b->tray_units ? b->rack_units / b->tray_units : 1;
        b->switch_racks = ceil_div(b->trays, b->trays_per_rack);
    }
}

/* Rack placement: units, servers per rack, compute and switch racks, and
 * supernodes smaller than a rack sharing one. */
static void shape_placement(struct sn__topo_build *b)
{
    const struct sn_racks *rk = &b->s->racks;

    b->rack_units =
        rk->rack_units > 0 ? (uint32_t)rk->rack_units : SN__RACK_UNITS;
    b->node_units = rk->node_units > 0 ? (uint32_t)rk->node_units : 1;
    b->nodes_per_rack =
        rk->nodes_per_rack > 0
            ? (uint32_t)rk->nodes_per_rack
            : (b->rack_units / b->node_units ? b->rack_units / b->node_units
                                             : 1);
    b->pitch = rk->row_pitch > 0 ? rk->row_pitch : DEFAULT_PITCH;
    b->compute_racks = ceil_div(b->servers, b->nodes_per_rack);
    b->tray_mode = SN__TRAYS_NONE;
    b->chips_per_tray = 1;
    b->tray_units = 1;
    if (b->offboard_sw)
        shape_trays(b);
    b->racks_per_sn = b->compute_racks + b->switch_racks;
    b->sn_per_rack = 1;
    b->sn_units = 0;
    if (b->servers < b->nodes_per_rack && b->tray_mode != SN__TRAYS_OWN_RACKS) {
        /* supernodes smaller than a rack (an 8-GPU server) share racks:
         * nodes_per_rack servers' worth of them, as far as units allow */
        uint32_t blk = b->servers * b->node_units + b->trays * b->tray_units;
        uint32_t by_units = blk ? b->rack_units / blk : 1;
        assert(b->servers > 0); /* shape_counts: per_node divides */
        b->sn_per_rack = b->nodes_per_rack / b->servers;
        if (by_units < b->sn_per_rack)
            b->sn_per_rack = by_units;
        if (b->sn_per_rack < 1)
            b->sn_per_rack = 1;
        b->sn_units = blk;
    }
}

/* Node ids per server and per supernode, and the first network rack. */
static void shape_blocks(struct sn__topo_build *b)
{
    struct sn_accel_host host;

    sn_accel_host(b->s->accel, &host);
    b->cpus = (uint32_t)host.cpus;
    b->server_block = b->per_node + b->cpus + b->nics + b->onboard_sw;
    b->sn_block = b->servers * b->server_block + b->offboard_sw;
    b->net_rack0 = b->sn_per_rack > 1 ? ceil_div(b->supernodes, b->sn_per_rack)
                                      : b->supernodes * b->racks_per_sn;
}

/* The build's shape: counts, the scale-up fabric's shape, placement,
 * node-id blocks, a cap on the links, then the network's shape. */
static int shape(struct sn__topo_build *b)
{
    const struct sn_scaleup *su = &b->s->scaleup;
    uint64_t total, est;
    int rc;

    rc = shape_counts(b);
    if (rc)
        return rc;
    rc = sn__topo_scaleup_shape(b);
    if (rc)
        return rc;
    shape_placement(b);
    shape_blocks(b);
    total = (uint64_t)b->supernodes * b->accels;
    /* An upper bound on the links before the counting pass walks them. */
    est = total * ((uint64_t)b->links * 2 + 2) +
          (uint64_t)b->supernodes * b->servers * b->nics * 5;
    if (est > SN__MAX_LINKS)
        return sn__topo_build_fail(b, &su->pos,
                                   "about %llu links is more than this "
                                   "planner builds (at most %llu)",
                                   (unsigned long long)est, SN__MAX_LINKS);
    return sn__topo_net_shape(b);
}

/* An array for `size` bytes that is about to be written front to back.
 * Large ones are aligned to 2 MiB and offered transparent huge pages:
 * a 100,000-accelerator cluster's 86 MB of links then costs a few dozen
 * page faults instead of 21,000, a third of its build time. Freed with
 * free(). */
static void *big_array(size_t size)
{
    void *p = NULL;

#if defined(MADV_HUGEPAGE)
    const size_t huge = (size_t)2 << 20;
    if (size >= 4 * huge) {
        size = (size + huge - 1) / huge * huge;
        if (posix_memalign(&p, huge, size) == 0) {
            madvise(p, size, MADV_HUGEPAGE); /* a hint: failure is fine */
            return p;
        }
    }
#endif
    p = sn_xmalloc(size ? size : 1);
    return p;
}

static void run(struct sn__topo_build *b)
{
    b->nnodes = 0;
    b->nlinks = 0;
    b->net_slot = 0;
    for (uint32_t sn = 0; sn < b->supernodes; sn++) {
        add_servers(b, sn);
        sn__topo_scaleup_nodes(b, sn);
    }
    sn__topo_net_nodes(b);
    for (uint32_t sn = 0; sn < b->supernodes; sn++)
        sn__topo_scaleup_links(b, sn);
    sn__topo_net_links(b);
    for (uint32_t sn = 0; sn < b->supernodes; sn++)
        add_host_links(b, sn);
}

int sn_topo_build(const struct sn_spec *spec, struct sn_topo **out,
                  struct sn_error *err)
{
    struct sn__topo_build b;
    struct sn_topo *t = NULL;
    int rc;

    *out = NULL;
    memset(&b, 0, sizeof(b));
    b.s = spec;
    b.err = err;
    rc = shape(&b);
    if (rc)
        goto out;
    b.fill = false;
    run(&b);
    if (b.nnodes > SN__MAX_NODES || b.nlinks > SN__MAX_LINKS) {
        rc = sn__topo_build_fail(&b, &spec->scaleup.pos,
                                 "%zu devices and %zu links is more than "
                                 "this planner builds",
                                 b.nnodes, b.nlinks);
        goto out;
    }
    t = sn_topo_new(spec);
    t->nodes = big_array(b.nnodes * sizeof(*t->nodes));
    t->nodes_cap = b.nnodes;
    t->links = big_array(b.nlinks * sizeof(*t->links));
    t->links_cap = b.nlinks;
    b.t = t;
    b.fill = true;
    run(&b);
    t->accel_transit = spec->scaleup.fabric == SN_FABRIC_TORUS ||
                       spec->scaleup.fabric == SN_FABRIC_PARTIAL_MESH;
    rc = sn_topo_finish(t, err);
    if (rc)
        goto out;
    *out = t;
    t = NULL;
out:
    sn__topo_net_release(&b);
    sn_topo_free(t);
    return rc;
}
