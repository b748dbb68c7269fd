/* plan.c (render): renderers of a plan and its topology: the text
 * summary, the JSON document SN_SCHEMA_PLAN, the CSV cable ledger and
 * the Graphviz drawing with repeated units collapsed. Renderers compute
 * nothing the plan does not hold, apart from unit formatting and sums
 * for display.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/plan.h"
#include "sn/render.h"
#include "sn/topo.h"

/* ---- formatting helpers ------------------------------------------------ */

/* A whole number with thousands separators: 2,560. */
#define NUM(v) sn_fmt_count((size_t)(v), (char[32]){0}, 32)
#define UNIT(v, k) sn_unit_format((v), (k), (char[48]){0}, 48)

static const char *accel_name(const struct sn_spec *s)
{
    if (!s->accel)
        return "accelerator";
    return s->accel->display ? s->accel->display : s->accel->name;
}

static const char *role_key(int role)
{
    switch (role) {
    case SN_SW_SCALEUP_L1:
        return "scale_up_l1";
    case SN_SW_SCALEUP_L2:
        return "scale_up_l2";
    case SN_SW_LEAF:
        return "leaf";
    case SN_SW_SPINE:
        return "spine";
    case SN_SW_CORE:
        return "core";
    case SN_SW_PCIE:
        return "pcie";
    default:
        return NULL;
    }
}

static const int role_order[] = {SN_SW_SCALEUP_L1, SN_SW_SCALEUP_L2,
                                 SN_SW_PCIE,       SN_SW_LEAF,
                                 SN_SW_SPINE,      SN_SW_CORE};

static const char *cooling_name(enum sn_cooling c)
{
    switch (c) {
    case SN_COOL_AIR:
        return "air";
    case SN_COOL_COLD_PLATE:
        return "cold plate";
    case SN_COOL_IMMERSION:
        return "immersion";
    }
    return "?";
}

static const char *feed_name(enum sn_feed f)
{
    switch (f) {
    case SN_FEED_AC_1PH:
        return "single-phase AC";
    case SN_FEED_AC_3PH:
        return "3-phase AC";
    case SN_FEED_HVDC:
        return "DC";
    }
    return "?";
}

static void fabric_text(const struct sn_spec *s, struct sn_buf *b)
{
    const struct sn_scaleup *su = &s->scaleup;

    sn_buf_printf(b, "%s", sn_fabric_name(su->fabric));
    switch (su->fabric) {
    case SN_FABRIC_SWITCHED:
        sn_buf_printf(b,
                      ", %d tier%s, %d plane%s, %d x %s links per "
                      "accelerator",
                      su->tiers > 1 ? su->tiers : 1, su->tiers > 1 ? "s" : "",
                      su->planes > 1 ? su->planes : 1,
                      su->planes > 1 ? "s" : "", su->links_per_accel,
                      UNIT(su->link_bw, SN_UNIT_BANDWIDTH));
        if (su->sw)
            sn_buf_printf(b, " into %s",
                          su->sw->display ? su->sw->display : su->sw->name);
        break;
    case SN_FABRIC_TORUS:
        sn_buf_printf(b, " %d", su->dims[0]);
        for (int d = 1; d < su->ndims; d++)
            sn_buf_printf(b, " x %d", su->dims[d]);
        sn_buf_printf(b, ", %d x %s links per accelerator", su->links_per_accel,
                      UNIT(su->link_bw, SN_UNIT_BANDWIDTH));
        break;
    case SN_FABRIC_PARTIAL_MESH:
        sn_buf_printf(b, " in groups of %d, %d x %s links per accelerator",
                      su->group, su->links_per_accel,
                      UNIT(su->link_bw, SN_UNIT_BANDWIDTH));
        break;
    case SN_FABRIC_FULL_MESH:
    case SN_FABRIC_PCIE_TREE:
        sn_buf_printf(b, ", %d x %s links per accelerator", su->links_per_accel,
                      UNIT(su->link_bw, SN_UNIT_BANDWIDTH));
        break;
    case SN_FABRIC_NONE:
        break;
    }
}

static void network_text(const struct sn_spec *s, struct sn_buf *b)
{
    const struct sn_scaleout *so = &s->scaleout;

    sn_buf_printf(b, "%s", sn_net_topology_name(so->topology));
    if (so->topology == SN_NET_NONE)
        return;
    if (so->topology == SN_NET_RAIL_FAT_TREE ||
        so->topology == SN_NET_FAT_TREE) {
        int radix = so->radix > 0 ? so->radix : so->sw ? so->sw->radix : 0;
        sn_buf_printf(b, ", %d-port switches", radix);
        if (so->tiers > 0)
            sn_buf_printf(b, ", %d tiers", so->tiers);
        if (so->oversubscription > 1)
            sn_buf_printf(
                b, ", %s:1 at the leaf",
                sn_fmt_double(so->oversubscription, 3, (char[32]){0}, 32));
    }
    sn_buf_printf(b, "; %d NIC port%s per server", so->nics_per_node,
                  so->nics_per_node == 1 ? "" : "s");
}

/* ---- text --------------------------------------------------------------- */

static void table_start(struct sn_table *t, const char *title, int ncols,
                        const char *const *heads)
{
    sn_table_init(t, "");
    sn_table_col(t, title, false);
    for (int c = 0; c < ncols; c++)
        sn_table_col(t, heads[c], heads[c][0] == '>');
}

/* sn_table right-aligns columns whose header starts with '>' here; the
 * marker is dropped before rendering. */
static void table_end(struct sn_table *t, struct sn_buf *out)
{
    for (int c = 0; c < t->ncols; c++)
        if (t->header[c][0] == '>')
            t->header[c]++;
    sn_table_render(t, out);
    sn_table_release(t);
    sn_buf_putc(out, '\n');
}

static void text_compute(const struct sn_plan *p, struct sn_buf *out)
{
    const struct sn_spec *s = p->spec;
    static const char *const heads[] = {">", ""};
    struct sn_table t;
    double nic_bw = s->scaleout.nic_bw > 0 ? s->scaleout.nic_bw
                    : s->scaleout.nic      ? s->scaleout.nic->rate
                                           : 0;

    table_start(&t, "Compute and racks", 2, heads);
    sn_table_row(&t);
    sn_table_cell(&t, "  accelerators");
    sn_table_cell(&t, "%s", NUM(p->accelerators));
    sn_table_cell(&t, "%s per supernode, %d per server", NUM(p->per_supernode),
                  s->scaleup.per_node);
    sn_table_row(&t);
    sn_table_cell(&t, "  servers");
    sn_table_cell(&t, "%s", NUM(p->servers));
    sn_table_cell(&t, "%d rack unit%s each",
                  s->racks.node_units > 0 ? s->racks.node_units : 1,
                  s->racks.node_units > 1 ? "s" : "");
    sn_table_row(&t);
    sn_table_cell(&t, "  host CPUs");
    sn_table_cell(&t, "%s", NUM(p->cpus));
    {
        struct sn_accel_host h;
        sn_accel_host(s->accel, &h);
        if (h.cpus > 1)
            sn_table_cell(&t, "%d per server; accelerators on %s", h.cpus,
                          h.link);
        else
            sn_table_cell(&t,
                          "one host complex per server; accelerators "
                          "on %s",
                          h.link);
    }
    sn_table_row(&t);
    sn_table_cell(&t, "  NIC ports");
    sn_table_cell(&t, "%s", NUM(p->nics));
    if (p->nics)
        sn_table_cell(&t, "%d per server at %s", s->scaleout.nics_per_node,
                      UNIT(nic_bw, SN_UNIT_BANDWIDTH));
    else
        sn_table_cell(&t, "no scale-out network");
    sn_table_row(&t);
    sn_table_cell(&t, "  racks");
    sn_table_cell(&t, "%s", NUM(p->racks));
    sn_table_cell(&t, "%s compute, %s scale-up switch, %s network",
                  NUM(p->racks_compute), NUM(p->racks_scaleup),
                  NUM(p->racks_network));
    table_end(&t, out);
}

static void text_switches(const struct sn_plan *p, struct sn_buf *out)
{
    static const char *const heads[] = {">chips", ">boxes", ">on board",
                                        ">power"};
    struct sn_table t;

    if (!p->switch_chips) {
        sn_buf_puts(out, "Switches: none in this design\n\n");
    } else {
        table_start(&t, "Switches", 4, heads);
        for (size_t i = 0; i < SN_ARRAY_LEN(role_order); i++) {
            const struct sn_plan_switches *sw = &p->sw[role_order[i]];
            if (!sw->chips)
                continue;
            sn_table_row(&t);
            sn_table_cell(
                &t, "  %s",
                sn_switch_role_name((enum sn_switch_role)role_order[i]));
            sn_table_cell(&t, "%s", NUM(sw->chips));
            sn_table_cell(&t, "%s", NUM(sw->boxes));
            sn_table_cell(&t, "%s", NUM(sw->onboard));
            if (sw->onboard == sw->chips)
                sn_table_cell(&t, "in the servers'");
            else if (sw->power_w > 0)
                sn_table_cell(&t, "%s", UNIT(sw->power_w, SN_UNIT_POWER));
            else
                sn_table_cell(&t, "not published");
        }
        sn_table_row(&t);
        sn_table_cell(&t, "  total");
        sn_table_cell(&t, "%s", NUM(p->switch_chips));
        sn_table_cell(&t, "%s", NUM(p->switch_boxes));
        sn_table_cell(&t, "%s", "");
        if (p->switches_w > 0)
            sn_table_cell(&t, "%s", UNIT(p->switches_w, SN_UNIT_POWER));
        else if (p->sw[SN_SW_SCALEUP_L1].onboard + p->sw[SN_SW_PCIE].onboard ==
                 p->switch_chips)
            sn_table_cell(&t, "in the servers'");
        else
            sn_table_cell(&t, "not published");
        table_end(&t, out);
    }
    if (p->spec->scaleout.topology == SN_NET_EXTERNAL)
        sn_buf_printf(out,
                      "  The %s NIC uplinks end on the site network; "
                      "its switches are not part of this design.\n\n",
                      NUM(p->scaleout_nic));
}

static void link_row(struct sn_table *t, const char *name, size_t total,
                     size_t supernodes, bool per_sn)
{
    sn_table_row(t);
    sn_table_cell(t, "%s", name);
    if (per_sn && supernodes)
        sn_table_cell(t, "%s", NUM(total / supernodes));
    else
        sn_table_cell(t, "-");
    sn_table_cell(t, "%s", NUM(total));
}

static void text_links(const struct sn_plan *p, struct sn_buf *out)
{
    static const char *const heads[] = {">per supernode", ">cluster"};
    struct sn_table t;
    size_t sn = p->supernodes;
    bool shared = p->scaleout_switch > 0;

    table_start(&t, "Links", 2, heads);
    link_row(&t, "  scale-up", p->links[SN_LINK_SCALE_UP], sn, true);
    link_row(&t, "    accelerator side", p->scaleup_accel, sn, true);
    link_row(&t, "    switch to switch", p->scaleup_switch, sn, true);
    link_row(&t, "  scale-out", p->links[SN_LINK_SCALE_OUT], sn, !shared);
    link_row(&t, "    NIC uplinks", p->scaleout_nic, sn, true);
    link_row(&t, "    switch to switch", p->scaleout_switch, sn, false);
    link_row(&t, "  total (scale-up + scale-out)", p->links_total, sn, !shared);
    link_row(&t, "  host (on board)", p->links[SN_LINK_HOST], sn, true);
    table_end(&t, out);
}

static void text_cables(const struct sn_plan *p, struct sn_buf *out)
{
    static const char *const heads[] = {">links", ">length", ">longest", ""};
    struct sn_table t;

    table_start(&t, "Cables by medium", 4, heads);
    for (int m = 0; m < SN_MEDIUM_COUNT; m++) {
        if (!p->cables[m])
            continue;
        sn_table_row(&t);
        sn_table_cell(&t, "  %s", sn_medium_name((enum sn_medium)m));
        sn_table_cell(&t, "%s", NUM(p->cables[m]));
        if (m == SN_MEDIUM_BOARD) {
            sn_table_cell(&t, "-");
            sn_table_cell(&t, "-");
            sn_table_cell(&t, "traces and backplanes, no cable");
            continue;
        }
        sn_table_cell(&t, "%s", UNIT(p->cable_m[m], SN_UNIT_LENGTH));
        sn_table_cell(&t, "%s", UNIT(p->longest_m[m], SN_UNIT_LENGTH));
    }
    sn_table_row(&t);
    sn_table_cell(&t, "  transceivers");
    sn_table_cell(&t, "%s", NUM(p->transceivers));
    sn_table_cell(&t, "%s", "");
    sn_table_cell(&t, "%s", "");
    if (p->active_ends)
        sn_table_cell(&t, "optical modules; %s active cable ends; %s in all",
                      NUM(p->active_ends),
                      UNIT(p->transceiver_w, SN_UNIT_POWER));
    else
        sn_table_cell(&t,
                      "optical modules, one a cage (a twin-port cage: "
                      "two links); %s in all",
                      UNIT(p->transceiver_w, SN_UNIT_POWER));
    for (size_t i = 0; i < p->nmodule; i++) {
        const struct sn_plan_module *m = &p->module[i];
        sn_table_row(&t);
        sn_table_cell(&t, "    %s", m->sku ? m->sku : "optical module");
        sn_table_cell(&t, "%s", NUM(m->count));
        sn_table_cell(&t, "%s", "");
        sn_table_cell(&t, "%s", "");
        sn_table_cell(&t, "for %s link ends; %s", NUM(m->ends),
                      UNIT(m->w, SN_UNIT_POWER));
    }
    table_end(&t, out);
}

static void kv(struct sn_table *t, const char *key, const char *value,
               const char *fmt, ...) SN_PRINTF(4, 5);

static void kv(struct sn_table *t, const char *key, const char *value,
               const char *fmt, ...)
{
    struct sn_buf b;
    va_list ap;

    sn_table_row(t);
    sn_table_cell(t, "  %s", key);
    sn_table_cell(t, "%s", value);
    if (!fmt)
        return;
    sn_buf_init(&b);
    va_start(ap, fmt);
    sn_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    sn_table_cell(t, "%s", b.data ? b.data : "");
    sn_buf_release(&b);
}

static void text_bandwidth(const struct sn_plan *p, struct sn_buf *out)
{
    static const char *const heads[] = {">", ""};
    const struct sn_spec *s = p->spec;
    struct sn_table t;

    table_start(&t, "Bandwidth (per direction)", 2, heads);
    kv(&t, "scale-up per accelerator",
       UNIT(p->scaleup_per_accel, SN_UNIT_BANDWIDTH),
       s->scaleup.fabric == SN_FABRIC_NONE ? "no scale-up fabric"
                                           : "%d links x %s",
       s->scaleup.links_per_accel, UNIT(s->scaleup.link_bw, SN_UNIT_BANDWIDTH));
    kv(&t, "scale-out per accelerator",
       UNIT(p->scaleout_per_accel, SN_UNIT_BANDWIDTH), NULL);
    if (p->convergence > 0) {
        char ratio[48];
        snprintf(ratio, sizeof(ratio), "%s : 1",
                 sn_fmt_double(p->convergence, 3, (char[32]){0}, 32));
        kv(&t, "convergence ratio", ratio,
           "scale-up : scale-out per accelerator; tensor parallelism stays "
           "inside a supernode");
    } else {
        kv(&t, "convergence ratio", "-",
           p->scaleout_per_accel > 0 ? "no scale-up fabric"
                                     : "no scale-out network");
    }
    if (p->scaleup_per_accel > 0) {
        kv(&t, "scale-up aggregate",
           UNIT(p->scaleup_aggregate, SN_UNIT_BANDWIDTH),
           "all accelerators; %s counting both directions",
           UNIT(2 * p->scaleup_aggregate, SN_UNIT_BANDWIDTH));
        kv(&t, "scale-up bisection",
           UNIT(p->scaleup_bisection, SN_UNIT_BANDWIDTH), "per supernode");
    }
    kv(&t, "scale-out aggregate",
       UNIT(p->scaleout_aggregate, SN_UNIT_BANDWIDTH), "all NIC ports");
    if (isnan(p->scaleout_bisection))
        kv(&t, "scale-out bisection", "-",
           s->scaleout.topology == SN_NET_EXPLICIT
               ? "not computed for an explicit network"
               : "set by a network not designed here");
    else
        kv(&t, "scale-out bisection",
           UNIT(p->scaleout_bisection, SN_UNIT_BANDWIDTH), "cluster");
    table_end(&t, out);
}

/* A current in amperes, three significant figures. */
static const char *amps_fmt(double a, char *buf, size_t size)
{
    if (a >= 1e4)
        snprintf(buf, size, "%.1f kA", a / 1e3);
    else if (a >= 1e3)
        snprintf(buf, size, "%.2f kA", a / 1e3);
    else if (a >= 100)
        snprintf(buf, size, "%.0f A", a);
    else
        snprintf(buf, size, "%.1f A", a);
    return buf;
}

#define amps(a) amps_fmt((a), (char[32]){0}, 32)

static void text_power(const struct sn_plan *p, struct sn_buf *out)
{
    static const char *const heads[] = {">", ""};
    const struct sn_spec *s = p->spec;
    const struct sn_power_spec *pw = &s->power;
    struct sn_table t;
    double tdp = s->accel ? s->accel->tdp_w : 0;

    table_start(&t, "Power", 2, heads);
    kv(&t, "accelerators (TDP)", UNIT(p->accel_tdp_w, SN_UNIT_POWER), "%s x %s",
       NUM(p->accelerators), UNIT(tdp, SN_UNIT_POWER));
    kv(&t, "servers", UNIT(p->servers_w, SN_UNIT_POWER),
       "x%s node overhead (CPUs, memory, fans, NICs)",
       sn_fmt_double(p->node_overhead, 3, (char[32]){0}, 32));
    kv(&t, "switches", UNIT(p->switches_w, SN_UNIT_POWER), NULL);
    kv(&t, "optics", UNIT(p->transceiver_w, SN_UNIT_POWER),
       "%s transceivers, %s active cable ends", NUM(p->transceivers),
       NUM(p->active_ends));
    kv(&t, "steady", UNIT(p->steady_w, SN_UNIT_POWER), "sum of the above");
    kv(&t, "peak", UNIT(p->peak_w, SN_UNIT_POWER),
       "accelerators at x%s of TDP in load transients",
       sn_fmt_double(p->transient, 3, (char[32]){0}, 32));
    kv(&t, "provisioned", UNIT(p->provisioned_w, SN_UNIT_POWER),
       "peak x%s headroom", sn_fmt_double(p->headroom, 3, (char[32]){0}, 32));
    kv(&t, "facility", UNIT(p->facility_w, SN_UNIT_POWER), "steady x PUE %s",
       sn_fmt_double(p->pue, 3, (char[32]){0}, 32));
    if (p->worst) {
        const struct sn_plan_rack *w = p->worst;
        kv(&t, "heaviest rack", UNIT(w->peak_w, SN_UNIT_POWER),
           "r%02u at peak; steady %s, provisioned %s", (unsigned)w->rack,
           UNIT(w->steady_w, SN_UNIT_POWER),
           UNIT(w->provisioned_w, SN_UNIT_POWER));
        if (!isnan(w->current_a))
            kv(&t, "feed current at peak", amps(w->current_a),
               "for that rack (%s %s, PF %s)", feed_name(pw->feed),
               UNIT(pw->voltage, SN_UNIT_VOLTAGE),
               sn_fmt_double(pw->feed == SN_FEED_HVDC ? 1
                             : pw->power_factor > 0   ? pw->power_factor
                                                      : 1,
                             3, (char[32]){0}, 32));
    }
    if (s->racks.power_limit_w > 0)
        kv(&t, "rack limit", UNIT(s->racks.power_limit_w, SN_UNIT_POWER), NULL);
    table_end(&t, out);
}

/* The racks of one kind, and the range of each figure over them. */
struct rack_kind {
    size_t count;
    uint32_t first, last;
    double lo[6], hi[6];
};

/* A rack's figures, in the table's column order. */
static void rack_figures(const struct sn_plan_rack *rk, double f[6])
{
    f[0] = rk->steady_w;
    f[1] = rk->peak_w;
    f[2] = rk->provisioned_w;
    f[3] = rk->current_a;
    f[4] = rk->coolant_m3s;
    f[5] = rk->air_w;
}

static const char *rack_fmt(int col, double v, char *buf, size_t size)
{
    if (col == 3)
        return isnan(v) ? "-" : amps_fmt(v, buf, size);
    return sn_unit_format(v, col == 4 ? SN_UNIT_FLOW : SN_UNIT_POWER, buf,
                          size);
}

/* One figure over the racks of a kind: "126 kW" when all print alike,
 * else the range, "7.78-13.0 kW" (the unit once when both ends share it). */
static void rack_cell(struct sn_table *t, int col, double lo, double hi)
{
    char a[48], b[48];
    const char *x = rack_fmt(col, lo, a, sizeof(a));
    const char *y = rack_fmt(col, hi, b, sizeof(b));
    const char *ux = strrchr(x, ' '), *uy = strrchr(y, ' ');

    if (strcmp(x, y) == 0)
        sn_table_cell(t, "%s", x);
    else if (ux && uy && strcmp(ux, uy) == 0)
        sn_table_cell(t, "%.*s-%s", (int)(ux - x), x, y);
    else
        sn_table_cell(t, "%s - %s", x, y);
}

/* Every rack's power, current and cooling, one row per kind of rack
 * (compute, scale-up switch, network) with each figure's range over the
 * kind, so a 1,389-rack cluster stays three lines; the JSON document
 * lists every rack. */
static void text_racks(const struct sn_plan *p, struct sn_buf *out)
{
    static const char *const heads[] = {
        ">racks",        "",         ">steady", ">peak", ">provisioned",
        ">feed current", ">coolant", ">to air"};
    static const enum sn_rack_kind order[] = {SN_RACK_COMPUTE, SN_RACK_SCALEUP,
                                              SN_RACK_NETWORK};
    struct rack_kind k[3];
    bool liquid = p->spec->cooling.type != SN_COOL_AIR;
    struct sn_table t;

    if (!p->nrack)
        return;
    memset(k, 0, sizeof(k));
    for (size_t r = 0; r < p->nrack; r++) {
        const struct sn_plan_rack *rk = &p->rack[r];
        struct rack_kind *g = &k[rk->kind < 3 ? rk->kind : 2];
        double f[6];
        rack_figures(rk, f);
        for (int c = 0; c < 6; c++) {
            if (!g->count || f[c] < g->lo[c])
                g->lo[c] = f[c];
            if (!g->count || f[c] > g->hi[c])
                g->hi[c] = f[c];
        }
        if (!g->count)
            g->first = rk->rack;
        g->last = rk->rack;
        g->count++;
    }
    table_start(&t, "Racks", 8, heads);
    for (size_t i = 0; i < SN_ARRAY_LEN(order); i++) {
        const struct rack_kind *g = &k[order[i]];
        if (!g->count)
            continue;
        sn_table_row(&t);
        sn_table_cell(&t, "  %s", sn_rack_kind_name(order[i]));
        sn_table_cell(&t, "%s", NUM(g->count));
        if (g->count == 1)
            sn_table_cell(&t, "r%02u", (unsigned)g->first);
        else
            sn_table_cell(&t, "r%02u%sr%02u", (unsigned)g->first,
                          g->last - g->first + 1 == g->count ? "-" : " ... ",
                          (unsigned)g->last);
        for (int c = 0; c < 6; c++) {
            if (c == 4 && !liquid)
                sn_table_cell(&t, "-");
            else
                rack_cell(&t, c, g->lo[c], g->hi[c]);
        }
    }
    table_end(&t, out);
}

static void text_cooling(const struct sn_plan *p, struct sn_buf *out)
{
    static const char *const heads[] = {">", ""};
    const struct sn_spec *s = p->spec;
    const struct sn_cooling_spec *cs = &s->cooling;
    struct sn_table t;
    double max_air = 0, max_flow = 0;

    for (size_t r = 0; r < p->nrack; r++) {
        if (p->rack[r].air_w > max_air)
            max_air = p->rack[r].air_w;
        if (p->rack[r].coolant_m3s > max_flow)
            max_flow = p->rack[r].coolant_m3s;
    }
    table_start(&t, "Cooling", 2, heads);
    kv(&t, "type", cooling_name(cs->type), NULL);
    if (p->nrack)
        kv(&t, "air alone", p->air_alone ? "enough" : "not enough",
           "the heaviest rack dissipates %s; air carries %s per rack",
           UNIT(p->rack_max_steady_w, SN_UNIT_POWER),
           UNIT(p->air_limit_w, SN_UNIT_POWER));
    if (cs->type != SN_COOL_AIR) {
        kv(&t, "heat to liquid", UNIT(p->liquid_w, SN_UNIT_POWER),
           "%s%% of the heat",
           sn_fmt_double(p->steady_w > 0 ? 100 * p->liquid_w / p->steady_w : 0,
                         3, (char[32]){0}, 32));
        kv(&t, "coolant flow", UNIT(p->coolant_m3s, SN_UNIT_FLOW),
           "%s, dT %s, Q = P / (rho c_p dT)",
           cs->coolant == SN_COOLANT_PG25 ? "PG25" : "water",
           UNIT(cs->delta_t > 0 ? cs->delta_t : 10, SN_UNIT_TEMPERATURE));
        kv(&t, "coolant per rack", UNIT(max_flow, SN_UNIT_FLOW),
           "the heaviest rack");
        kv(&t, "coolant per node", UNIT(p->coolant_node_m3s, SN_UNIT_FLOW),
           "one node's cold-plate loop (a branch) at TDP");
    }
    kv(&t, "heat to air", UNIT(p->air_w, SN_UNIT_POWER),
       "at most %s per rack; air carries %s", UNIT(max_air, SN_UNIT_POWER),
       UNIT(p->air_limit_w, SN_UNIT_POWER));
    table_end(&t, out);
}

static void text_storage(const struct sn_plan *p, struct sn_buf *out)
{
    static const char *const heads[] = {">", ""};
    const struct sn_storage_spec *st = &p->spec->storage;
    struct sn_table t;

    if (!p->storage)
        return;
    table_start(&t, "Storage (checkpoints)", 2, heads);
    kv(&t, "checkpoint", UNIT(p->checkpoint_bytes, SN_UNIT_BYTES),
       "%s billion parameters x %s B",
       sn_fmt_double(p->params / 1e9, 4, (char[32]){0}, 32),
       sn_fmt_double(p->checkpoint_bytes / p->params, 3, (char[32]){0}, 32));
    if (!isnan(p->required_write_Bps))
        kv(&t, "write bandwidth needed",
           UNIT(p->required_write_Bps, SN_UNIT_BANDWIDTH), "to write within %s",
           UNIT(st->write_window, SN_UNIT_TIME));
    if (!isnan(p->write_time)) {
        if (!isnan(p->checkpoint_share))
            kv(&t, "write time", UNIT(p->write_time, SN_UNIT_TIME),
               "at %s; %s%% of the %s interval",
               UNIT(st->write_bw, SN_UNIT_BANDWIDTH),
               sn_fmt_double(100 * p->checkpoint_share, 3, (char[32]){0}, 32),
               UNIT(st->checkpoint_interval, SN_UNIT_TIME));
        else
            kv(&t, "write time", UNIT(p->write_time, SN_UNIT_TIME), "at %s",
               UNIT(st->write_bw, SN_UNIT_BANDWIDTH));
    }
    if (!isnan(p->restore_time))
        kv(&t, "restore time", UNIT(p->restore_time, SN_UNIT_TIME), "at %s",
           UNIT(st->read_bw, SN_UNIT_BANDWIDTH));
    table_end(&t, out);
}

static void text_memory(const struct sn_plan *p, struct sn_buf *out)
{
    static const char *const heads[] = {">", ""};
    const struct sn_spec *s = p->spec;
    struct sn_table t;

    if (!p->memory && !(p->bytes_per_flop > 0))
        return;
    table_start(&t, "Memory", 2, heads);
    if (p->memory) {
        kv(&t, "training state", UNIT(p->train_bytes, SN_UNIT_BYTES),
           "%s B per parameter, activations not counted",
           sn_fmt_double(p->train_bytes / p->params, 3, (char[32]){0}, 32));
        kv(&t, "HBM", UNIT(p->hbm_cluster, SN_UNIT_BYTES),
           "cluster; %s per supernode", UNIT(p->hbm_supernode, SN_UNIT_BYTES));
        kv(&t, "accelerators to hold it", NUM(p->min_accels),
           "at least, fully sharded (ZeRO-3); %s per supernode",
           NUM(p->per_supernode));
    }
    if (p->bytes_per_flop > 0)
        kv(&t, "HBM bandwidth : compute",
           sn_fmt_double(p->bytes_per_flop * 1e3, 3, (char[32]){0}, 32),
           "B per 1,000 BF16 FLOP (ridge point %.0f FLOP/B) of the %s",
           1 / p->bytes_per_flop, accel_name(s));
    table_end(&t, out);
}

void sn_render_plan_text(const struct sn_plan *p, struct sn_buf *out)
{
    const struct sn_spec *s = p->spec;

    sn_buf_puts(out, "Plan: ");
    sn_buf_put_esc(out, SN_ESC_TERM, s->name ? s->name : "(unnamed)");
    if (s->file)
        sn_buf_printf(out, " (%s)", s->file);
    sn_buf_printf(out,
                  "\n%s supernode%s x %s %s = %s accelerators in %s "
                  "server%s and %s rack%s\n",
                  NUM(p->supernodes), p->supernodes == 1 ? "" : "s",
                  NUM(p->per_supernode), accel_name(s), NUM(p->accelerators),
                  NUM(p->servers), p->servers == 1 ? "" : "s", NUM(p->racks),
                  p->racks == 1 ? "" : "s");
    sn_buf_puts(out, "scale-up: ");
    fabric_text(s, out);
    sn_buf_puts(out, "\nscale-out: ");
    network_text(s, out);
    sn_buf_puts(out, "\n\n");
    text_compute(p, out);
    text_switches(p, out);
    text_links(p, out);
    text_cables(p, out);
    text_bandwidth(p, out);
    text_power(p, out);
    text_racks(p, out);
    text_cooling(p, out);
    text_storage(p, out);
    text_memory(p, out);
    if (!p->nwarn) {
        sn_buf_puts(out, "Warnings: none\n");
        return;
    }
    sn_buf_puts(out, "Warnings\n");
    for (size_t i = 0; i < p->nwarn; i++)
        sn_buf_printf(out, "  WARN %s: %s\n", p->warn[i].topic, p->warn[i].msg);
}

/* ---- JSON -----------------------------------------------------------------
 */

static void knum_or_null(struct sn_json *j, const char *key, double v)
{
    sn_json_key(j, key);
    if (isnan(v))
        sn_json_null(j);
    else
        sn_json_num(j, v);
}

static void json_switches(const struct sn_plan *p, struct sn_json *j)
{
    sn_json_key(j, "switches");
    sn_json_obj_begin(j);
    for (size_t i = 0; i < SN_ARRAY_LEN(role_order); i++) {
        const struct sn_plan_switches *sw = &p->sw[role_order[i]];
        sn_json_key(j, role_key(role_order[i]));
        sn_json_obj_begin(j);
        sn_json_kint(j, "chips", (long long)sw->chips);
        sn_json_kint(j, "boxes", (long long)sw->boxes);
        sn_json_kint(j, "on_board", (long long)sw->onboard);
        sn_json_knum(j, "power_w", sw->power_w);
        sn_json_obj_end(j);
    }
    sn_json_obj_end(j);
}

static void json_links(const struct sn_plan *p, struct sn_json *j)
{
    sn_json_key(j, "links");
    sn_json_obj_begin(j);
    sn_json_kint(j, "scale_up", (long long)p->links[SN_LINK_SCALE_UP]);
    sn_json_kint(j, "scale_out", (long long)p->links[SN_LINK_SCALE_OUT]);
    sn_json_kint(j, "total", (long long)p->links_total);
    sn_json_kint(j, "host", (long long)p->links[SN_LINK_HOST]);
    sn_json_kint(j, "scale_up_accelerator", (long long)p->scaleup_accel);
    sn_json_kint(j, "scale_up_switch", (long long)p->scaleup_switch);
    sn_json_kint(j, "scale_out_nic", (long long)p->scaleout_nic);
    sn_json_kint(j, "scale_out_switch", (long long)p->scaleout_switch);
    sn_json_obj_end(j);
    sn_json_key(j, "cables");
    sn_json_obj_begin(j);
    for (int m = 0; m < SN_MEDIUM_COUNT; m++) {
        sn_json_key(j, sn_medium_name((enum sn_medium)m));
        sn_json_obj_begin(j);
        sn_json_kint(j, "links", (long long)p->cables[m]);
        sn_json_knum(j, "length_m", round(p->cable_m[m] * 100) / 100);
        sn_json_knum(j, "longest_m", round(p->longest_m[m] * 100) / 100);
        sn_json_obj_end(j);
    }
    sn_json_obj_end(j);
    sn_json_kint(j, "transceivers", (long long)p->transceivers);
    sn_json_key(j, "modules");
    sn_json_arr_begin(j);
    for (size_t i = 0; i < p->nmodule; i++) {
        const struct sn_plan_module *m = &p->module[i];
        sn_json_obj_begin(j);
        if (m->sku)
            sn_json_kstr(j, "sku", m->sku);
        else {
            sn_json_key(j, "sku");
            sn_json_null(j);
        }
        sn_json_kint(j, "count", (long long)m->count);
        sn_json_kint(j, "link_ends", (long long)m->ends);
        sn_json_knum(j, "power_w", round(m->w * 10) / 10);
        sn_json_obj_end(j);
    }
    sn_json_arr_end(j);
    sn_json_kint(j, "active_cable_ends", (long long)p->active_ends);
}

static void json_totals(const struct sn_plan *p, struct sn_json *j)
{
    const struct sn_spec *s = p->spec;
    double max_flow = 0, max_air = 0;

    for (size_t r = 0; r < p->nrack; r++) {
        max_flow = fmax(max_flow, p->rack[r].coolant_m3s);
        max_air = fmax(max_air, p->rack[r].air_w);
    }
    sn_json_key(j, "totals");
    sn_json_obj_begin(j);
    sn_json_kint(j, "supernodes", (long long)p->supernodes);
    sn_json_kint(j, "accelerators", (long long)p->accelerators);
    sn_json_kint(j, "servers", (long long)p->servers);
    sn_json_kint(j, "cpus", (long long)p->cpus);
    sn_json_kint(j, "nics", (long long)p->nics);
    sn_json_key(j, "racks");
    sn_json_obj_begin(j);
    sn_json_kint(j, "total", (long long)p->racks);
    sn_json_kint(j, "compute", (long long)p->racks_compute);
    sn_json_kint(j, "scale_up", (long long)p->racks_scaleup);
    sn_json_kint(j, "network", (long long)p->racks_network);
    sn_json_obj_end(j);
    sn_json_kint(j, "switch_chips", (long long)p->switch_chips);
    sn_json_kint(j, "switch_boxes", (long long)p->switch_boxes);
    json_switches(p, j);
    json_links(p, j);

    sn_json_key(j, "bandwidth");
    sn_json_obj_begin(j);
    sn_json_knum(j, "scale_up_per_accelerator_Bps", p->scaleup_per_accel);
    sn_json_knum(j, "scale_out_per_accelerator_Bps", p->scaleout_per_accel);
    knum_or_null(j, "convergence_ratio",
                 p->convergence > 0 ? p->convergence : NAN);
    sn_json_knum(j, "scale_up_aggregate_Bps", p->scaleup_aggregate);
    sn_json_knum(j, "scale_out_aggregate_Bps", p->scaleout_aggregate);
    sn_json_knum(j, "scale_up_bisection_per_supernode_Bps",
                 p->scaleup_bisection);
    knum_or_null(j, "scale_out_bisection_Bps", p->scaleout_bisection);
    sn_json_obj_end(j);

    sn_json_key(j, "power");
    sn_json_obj_begin(j);
    sn_json_knum(j, "accelerators_w", p->accel_tdp_w);
    sn_json_knum(j, "servers_w", p->servers_w);
    sn_json_knum(j, "switches_w", p->switches_w);
    sn_json_knum(j, "transceivers_w", p->transceiver_w);
    sn_json_knum(j, "steady_w", p->steady_w);
    sn_json_knum(j, "peak_w", p->peak_w);
    sn_json_knum(j, "provisioned_w", p->provisioned_w);
    sn_json_knum(j, "facility_w", p->facility_w);
    sn_json_knum(j, "node_overhead", p->node_overhead);
    sn_json_knum(j, "transient_factor", p->transient);
    sn_json_knum(j, "headroom", p->headroom);
    sn_json_knum(j, "pue", p->pue);
    knum_or_null(j, "rack_max_peak_w", p->worst ? p->worst->peak_w : NAN);
    knum_or_null(j, "rack_max_current_a", p->worst ? p->worst->current_a : NAN);
    sn_json_obj_end(j);

    sn_json_key(j, "cooling");
    sn_json_obj_begin(j);
    sn_json_kstr(j, "type", cooling_name(s->cooling.type));
    sn_json_kstr(j, "coolant",
                 s->cooling.coolant == SN_COOLANT_PG25 ? "pg25" : "water");
    sn_json_knum(j, "liquid_w", p->liquid_w);
    sn_json_knum(j, "air_w", p->air_w);
    sn_json_knum(j, "coolant_m3s", p->coolant_m3s);
    sn_json_knum(j, "coolant_lpm", round(p->coolant_m3s * 60e3 * 100) / 100);
    sn_json_knum(j, "rack_max_coolant_lpm", round(max_flow * 60e3 * 100) / 100);
    sn_json_knum(j, "node_coolant_lpm",
                 round(p->coolant_node_m3s * 60e3 * 100) / 100);
    sn_json_knum(j, "rack_max_air_w", max_air);
    sn_json_knum(j, "air_limit_w", p->air_limit_w);
    sn_json_knum(j, "rack_max_steady_w", p->rack_max_steady_w);
    sn_json_kbool(j, "air_alone", p->air_alone);
    sn_json_obj_end(j);

    sn_json_key(j, "storage");
    sn_json_obj_begin(j);
    knum_or_null(j, "params", p->storage ? p->params : NAN);
    knum_or_null(j, "checkpoint_bytes", p->storage ? p->checkpoint_bytes : NAN);
    knum_or_null(j, "required_write_Bps",
                 p->storage ? p->required_write_Bps : NAN);
    knum_or_null(j, "write_time_s", p->storage ? p->write_time : NAN);
    knum_or_null(j, "restore_time_s", p->storage ? p->restore_time : NAN);
    knum_or_null(j, "checkpoint_share", p->storage ? p->checkpoint_share : NAN);
    sn_json_obj_end(j);

    sn_json_key(j, "memory");
    sn_json_obj_begin(j);
    knum_or_null(j, "train_bytes", p->memory ? p->train_bytes : NAN);
    knum_or_null(j, "hbm_cluster_bytes", p->memory ? p->hbm_cluster : NAN);
    knum_or_null(j, "hbm_supernode_bytes", p->memory ? p->hbm_supernode : NAN);
    knum_or_null(j, "min_accelerators",
                 p->memory ? (double)p->min_accels : NAN);
    knum_or_null(j, "hbm_bytes_per_flop",
                 p->bytes_per_flop > 0 ? p->bytes_per_flop : NAN);
    sn_json_obj_end(j);
    sn_json_obj_end(j);
}

void sn_render_plan_json(const struct sn_plan *p, struct sn_buf *out)
{
    const struct sn_spec *s = p->spec;
    struct sn_json j;
    char hash[24];

    snprintf(hash, sizeof(hash), "%016" PRIx64, s->hash);
    sn_json_init(&j, out, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_PLAN);
    sn_json_key(&j, "spec");
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "name", s->name ? s->name : "");
    sn_json_kstr(&j, "file", s->file ? s->file : "");
    sn_json_kstr(&j, "hash", hash);
    sn_json_obj_end(&j);

    sn_json_key(&j, "design");
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "accelerator", s->accel ? s->accel->name : "");
    sn_json_kint(&j, "supernodes", s->supernodes);
    sn_json_kint(&j, "accelerators_per_supernode", s->scaleup.accelerators);
    sn_json_kint(&j, "accelerators_per_server", s->scaleup.per_node);
    sn_json_kstr(&j, "scale_up_fabric", sn_fabric_name(s->scaleup.fabric));
    sn_json_kstr(&j, "scale_out_topology",
                 sn_net_topology_name(s->scaleout.topology));
    sn_json_obj_end(&j);

    json_totals(p, &j);

    sn_json_key(&j, "per_supernode");
    sn_json_obj_begin(&j);
    sn_json_kint(&j, "accelerators", (long long)p->per_supernode);
    sn_json_key(&j, "links");
    sn_json_obj_begin(&j);
    sn_json_kint(&j, "scale_up",
                 (long long)(p->links[SN_LINK_SCALE_UP] / p->supernodes));
    sn_json_kint(&j, "scale_out_nic",
                 (long long)(p->scaleout_nic / p->supernodes));
    sn_json_kint(&j, "total",
                 (long long)((p->links[SN_LINK_SCALE_UP] + p->scaleout_nic) /
                             p->supernodes));
    sn_json_obj_end(&j);
    sn_json_obj_end(&j);

    sn_json_key(&j, "racks");
    sn_json_arr_begin(&j);
    for (size_t r = 0; r < p->nrack; r++) {
        const struct sn_plan_rack *rk = &p->rack[r];
        char name[16];
        snprintf(name, sizeof(name), "r%02u", (unsigned)rk->rack);
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "rack", name);
        sn_json_kstr(&j, "kind", sn_rack_kind_name(rk->kind));
        sn_json_key(&j, "supernode");
        if (rk->supernode == SN_NONE)
            sn_json_null(&j);
        else
            sn_json_int(&j, rk->supernode);
        sn_json_kint(&j, "units", rk->units);
        sn_json_knum(&j, "steady_w", round(rk->steady_w * 10) / 10);
        sn_json_knum(&j, "peak_w", round(rk->peak_w * 10) / 10);
        sn_json_knum(&j, "provisioned_w", round(rk->provisioned_w * 10) / 10);
        knum_or_null(&j, "current_a", round(rk->current_a * 10) / 10);
        sn_json_knum(&j, "liquid_w", round(rk->liquid_w * 10) / 10);
        sn_json_knum(&j, "air_w", round(rk->air_w * 10) / 10);
        sn_json_knum(&j, "coolant_lpm",
                     round(rk->coolant_m3s * 60e3 * 100) / 100);
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);

    sn_json_key(&j, "warnings");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < p->nwarn; i++) {
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "topic", p->warn[i].topic);
        sn_json_kstr(&j, "message", p->warn[i].msg);
        sn_json_knum(&j, "value", p->warn[i].value);
        sn_json_knum(&j, "limit", p->warn[i].limit);
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);
    sn_json_obj_end(&j);
    sn_buf_putc(out, '\n');
}

/* ---- ledger ----------------------------------------------------------------
 */

static void ledger_end(const struct sn_topo *t, uint32_t v, uint32_t port,
                       struct sn_buf *out)
{
    const struct sn_node *n = &t->nodes[v];
    char name[160];
    const char *dev;

    /* the device is what follows the location: "sn0.r00.u01." or "net." */
    sn_topo_node_name(t, v, name, sizeof(name));
    dev = name;
    for (int dots = n->rack == SN_NONE ? 1 : 3; dots > 0 && dev; dots--) {
        dev = strchr(dev, '.');
        dev = dev ? dev + 1 : NULL;
    }
    if (!dev)
        dev = name;
    if (n->supernode == SN_NONE)
        sn_buf_puts(out, "net,");
    else
        sn_buf_printf(out, "sn%" PRIu32 ",", n->supernode);
    if (n->rack == SN_NONE)
        sn_buf_puts(out, ",,");
    else
        sn_buf_printf(out, "r%02" PRIu32 ",%u,", n->rack, (unsigned)n->unit);
    sn_buf_put_esc(out, SN_ESC_CSV, dev);
    sn_buf_printf(out, ",%" PRIu32 ",", port);
}

void sn_render_ledger_csv(const struct sn_topo *t, struct sn_buf *out)
{
    char id[32], label[400];
    const struct sn_cable_info *cable;
    const char *ma, *mb;

    sn_buf_puts(out, "id,label,a_supernode,a_rack,a_unit,a_device,a_port,"
                     "b_supernode,b_rack,b_unit,b_device,b_port,class,"
                     "medium,length_m,bandwidth_GBps,cable,a_module,"
                     "b_module\n");
    for (size_t i = 0; i < t->nlinks; i++) {
        const struct sn_link *l = &t->links[i];
        bool swap = l->a > l->b; /* the label's order: lower node first */
        sn_topo_link_id(t, (uint32_t)i, id, sizeof(id));
        sn_topo_link_label(t, (uint32_t)i, label, sizeof(label));
        sn_buf_put_esc(out, SN_ESC_CSV, id);
        sn_buf_putc(out, ',');
        sn_buf_put_esc(out, SN_ESC_CSV, label);
        sn_buf_putc(out, ',');
        ledger_end(t, swap ? l->b : l->a, swap ? l->b_port : l->a_port, out);
        ledger_end(t, swap ? l->a : l->b, swap ? l->a_port : l->b_port, out);
        sn_buf_printf(out, "%s,%s,%.2f,%s,",
                      sn_link_class_name((enum sn_link_class)l->cls),
                      sn_medium_name((enum sn_medium)l->medium),
                      (double)l->length,
                      sn_fmt_double((double)l->bw / 1e9, 6, (char[32]){0}, 32));
        cable = t->spec ? sn_plan_link_cable(t->spec, l) : NULL;
        ma = t->spec ? sn_plan_end_module(t, (uint32_t)i, swap) : NULL;
        mb = t->spec ? sn_plan_end_module(t, (uint32_t)i, !swap) : NULL;
        sn_buf_put_esc(out, SN_ESC_CSV, cable ? cable->name : "");
        sn_buf_putc(out, ',');
        sn_buf_put_esc(out, SN_ESC_CSV, ma ? ma : "");
        sn_buf_putc(out, ',');
        sn_buf_put_esc(out, SN_ESC_CSV, mb ? mb : "");
        sn_buf_putc(out, '\n');
    }
}

/* ---- Graphviz ---------------------------------------------------------------
 */

static void dot_detail(const struct sn_topo *t, struct sn_buf *out)
{
    char name[160], id[32];

    for (size_t v = 0; v < t->nnodes; v++) {
        const struct sn_node *n = &t->nodes[v];
        sn_topo_node_name(t, (uint32_t)v, name, sizeof(name));
        sn_buf_printf(out, "  n%zu [label=\"", v);
        sn_buf_put_esc(out, SN_ESC_DOT, name);
        sn_buf_printf(out, "\", shape=%s];\n",
                      n->kind == SN_NODE_SWITCH ? "box" : "ellipse");
    }
    for (size_t i = 0; i < t->nlinks; i++) {
        const struct sn_link *l = &t->links[i];
        sn_topo_link_id(t, (uint32_t)i, id, sizeof(id));
        sn_buf_printf(out, "  n%" PRIu32 " -- n%" PRIu32 " [label=\"", l->a,
                      l->b);
        sn_buf_put_esc(out, SN_ESC_DOT, id);
        sn_buf_printf(out, "\", style=%s];\n",
                      l->cls == SN_LINK_HOST ? "dotted" : "solid");
    }
}

static void dot_collapsed(const struct sn_topo *t, struct sn_buf *out)
{
    struct sn_topo_collapsed c;
    size_t sn;

    sn_topo_collapse(t, &c);
    sn = c.supernodes;
    sn_buf_printf(out,
                  "  subgraph cluster_supernode {\n"
                  "    label=\"supernode (x%zu, one drawn)\";\n",
                  sn);
    for (int k = 0; k < SN_TOPO_NCLASS; k++)
        if (c.count[k] && !sn_topo_class_shared(k))
            sn_buf_printf(out, "    c%d [label=\"%s\\nx%zu\", shape=%s];\n", k,
                          sn_topo_class_label(k), c.count[k] / sn,
                          sn_topo_class_kind(k) == SN_NODE_SWITCH ? "box"
                                                                  : "ellipse");
    sn_buf_puts(out, "  }\n");
    for (int k = 0; k < SN_TOPO_NCLASS; k++)
        if (c.count[k] && sn_topo_class_shared(k))
            sn_buf_printf(out, "  c%d [label=\"%s\\nx%zu\", shape=box];\n", k,
                          sn_topo_class_label(k), c.count[k]);
    for (size_t k = 0; k < c.ne; k++) {
        const struct sn_topo_class_edge *e = &c.e[k];
        bool inside =
            !sn_topo_class_shared(e->ca) && !sn_topo_class_shared(e->cb);
        sn_buf_printf(out,
                      "  c%d -- c%d [label=\"%zu%s %s\\n%s %s\", "
                      "style=%s];\n",
                      e->ca, e->cb, inside ? e->count / sn : e->count,
                      inside ? " per supernode" : "",
                      sn_link_class_name((enum sn_link_class)e->cls),
                      sn_medium_name((enum sn_medium)e->medium),
                      UNIT(e->bw, SN_UNIT_BANDWIDTH),
                      e->cls == SN_LINK_HOST ? "dotted" : "solid");
    }
    sn_topo_collapse_release(&c);
}

void sn_render_topo_dot(const struct sn_topo *t, size_t max_nodes,
                        struct sn_buf *out)
{
    const struct sn_spec *s = t->spec;

    /* the spec's name is input: one quoted string, whatever it holds */
    sn_buf_puts(out, "graph supernode {\n  label=\"");
    sn_buf_put_esc(out, SN_ESC_DOT, s && s->name ? s->name : "topology");
    sn_buf_puts(out, "\";\n"
                     "  node [fontname=\"Helvetica\"];\n"
                     "  edge [fontname=\"Helvetica\", fontsize=10];\n");
    if (t->nnodes <= max_nodes)
        dot_detail(t, out);
    else
        dot_collapsed(t, out);
    sn_buf_puts(out, "}\n");
}
