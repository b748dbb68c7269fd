/* spec.c (render): a loaded spec as `supernode spec` shows it: the
 * one-line summary of check, and every resolved value (defaults
 * included) as indented text in the units people write or as the
 * SN_SCHEMA_SPEC document in SI numbers. */
#include <stdio.h>
#include <string.h>

#include "sn/render.h"
#include "sn/spec.h"

static const char *conf(enum sn_confidence c)
{
    return sn_confidence_mark(c);
}

void sn_render_spec_summary(const struct sn_spec *s, struct sn_buf *out)
{
    char a[32], b[32];
    const struct sn_scaleup *u = &s->scaleup;
    const struct sn_scaleout *o = &s->scaleout;

    sn_buf_printf(out, "%s: ok: ", s->file);
    sn_buf_put_esc(out, SN_ESC_TERM, s->name);
    sn_buf_printf(out,
                  ": %d x %d %s = %d accelerators in %d "
                  "nodes",
                  s->supernodes, u->accelerators, s->accel->name,
                  sn_spec_total_accels(s),
                  s->supernodes * sn_spec_nodes_per_supernode(s));
    if (u->fabric == SN_FABRIC_NONE)
        sn_buf_puts(out, "; no scale-up fabric");
    else
        sn_buf_printf(
            out, "; %s scale-up, %d links x %s per accelerator",
            sn_fabric_name(u->fabric), u->links_per_accel,
            sn_unit_format(u->link_bw, SN_UNIT_BANDWIDTH, a, sizeof(a)));
    if (o->topology == SN_NET_NONE)
        sn_buf_puts(out, "; no scale-out network\n");
    else
        sn_buf_printf(
            out, "; %s scale-out, %d NIC ports x %s per node\n",
            sn_net_topology_name(o->topology), o->nics_per_node,
            sn_unit_format(o->nic_bw, SN_UNIT_BANDWIDTH, b, sizeof(b)));
}

/* ---- show: every resolved value ---------------------------------------- */

struct out {
    struct sn_json j;
    struct sn_buf *text;
    bool json;
    int depth;
};

static void o_begin(struct out *o, const char *key)
{
    if (o->json) {
        sn_json_key(&o->j, key);
        sn_json_obj_begin(&o->j);
    } else {
        sn_buf_printf(o->text, "%*s%s:\n", 2 * o->depth, "", key);
    }
    o->depth++;
}

static void o_end(struct out *o)
{
    if (o->json)
        sn_json_obj_end(&o->j);
    o->depth--;
}

static void o_str(struct out *o, const char *key, const char *v)
{
    if (o->json)
        sn_json_kstr(&o->j, key, v);
    else
        sn_buf_printf(o->text, "%*s%s: %s\n", 2 * o->depth, "", key, v);
}

static void o_int(struct out *o, const char *key, long long v)
{
    if (o->json)
        sn_json_kint(&o->j, key, v);
    else
        sn_buf_printf(o->text, "%*s%s: %lld\n", 2 * o->depth, "", key, v);
}

static void o_bool(struct out *o, const char *key, bool v)
{
    if (o->json)
        sn_json_kbool(&o->j, key, v);
    else
        sn_buf_printf(o->text, "%*s%s: %s\n", 2 * o->depth, "", key,
                      v ? "true" : "false");
}

/* A quantity: SI number in JSON (the key says the unit), formatted with
 * its unit in text. */
static void o_qty(struct out *o, const char *key, const char *jkey, double v,
                  enum sn_unit_kind kind)
{
    char buf[48];

    if (o->json) {
        sn_json_knum(&o->j, jkey, v);
        return;
    }
    if (kind == SN_UNIT_COUNT && v >= 1e9)
        snprintf(buf, sizeof(buf), "%.3gB", v / 1e9); /* 70.6B params */
    else if (kind == SN_UNIT_RATIO || kind == SN_UNIT_COUNT)
        sn_fmt_double(v, 6, buf, sizeof(buf));
    else
        sn_unit_format(v, kind, buf, sizeof(buf));
    sn_buf_printf(o->text, "%*s%s: %s\n", 2 * o->depth, "", key, buf);
}

/* The accelerator section. */
static void show_accel(const struct sn_accel_info *a, struct out *o)
{
    o_begin(o, "accelerator");
    o_str(o, "name", a->name);
    o_str(o, "confidence", conf(a->confidence));
    o_qty(o, "bf16", "bf16_flops", a->bf16_flops, SN_UNIT_FLOPS);
    o_qty(o, "hbm", "hbm_bytes", a->hbm_bytes, SN_UNIT_BYTES);
    if (a->hbm_usable_bytes > 0)
        o_qty(o, "hbm_usable", "hbm_usable_bytes", a->hbm_usable_bytes,
              SN_UNIT_BYTES);
    o_qty(o, "hbm_bandwidth", "hbm_bw", a->hbm_bw, SN_UNIT_BANDWIDTH);
    o_qty(o, "tdp", "tdp_w", a->tdp_w, SN_UNIT_POWER);
    o_end(o);
}

/* The supernode (scale-up) section, with the keys of its fabric. */
static void show_scaleup(const struct sn_spec *s, struct out *o)
{
    const struct sn_scaleup *u = &s->scaleup;

    o_begin(o, "supernode");
    o_int(o, "accelerators", u->accelerators);
    o_int(o, "per_node", u->per_node);
    o_int(o, "nodes", sn_spec_nodes_per_supernode(s));
    o_str(o, "fabric", sn_fabric_name(u->fabric));
    if (u->fabric != SN_FABRIC_NONE) {
        o_int(o, "links_per_accelerator", u->links_per_accel);
        o_qty(o, "link_rate", "link_bw", u->link_bw, SN_UNIT_BANDWIDTH);
        if (u->link_latency > 0 || o->json)
            o_qty(o, "link_latency", "link_latency_s", u->link_latency,
                  SN_UNIT_TIME);
        else
            o_str(o, "link_latency", "not given");
        o_str(o, "medium", sn_medium_name(u->medium));
    }
    if (u->fabric == SN_FABRIC_SWITCHED || u->fabric == SN_FABRIC_PCIE_TREE) {
        o_int(o, "planes", u->planes);
        o_int(o, "tiers", u->tiers);
        o_str(o, "switch", u->sw ? u->sw->name : "(by radix)");
        o_int(o, "radix", u->radix);
        o_int(o, "switches_per_plane", u->switches_per_plane);
        o_bool(o, "in_network_reduction", u->in_network_reduction);
    }
    if (u->fabric == SN_FABRIC_PARTIAL_MESH)
        o_int(o, "group", u->group);
    if (u->fabric == SN_FABRIC_TORUS) {
        char d[64];
        snprintf(d, sizeof(d), u->ndims == 3 ? "%d x %d x %d" : "%d x %d",
                 u->dims[0], u->dims[1], u->dims[2]);
        o_str(o, "torus", d);
    }
    o_end(o);
}

/* The scale-out section, with the keys of its topology. */
static void show_scaleout(const struct sn_scaleout *n, struct out *o)
{
    o_begin(o, "scaleout");
    o_str(o, "topology", sn_net_topology_name(n->topology));
    o_int(o, "nics_per_node", n->nics_per_node);
    if (n->topology != SN_NET_NONE) {
        o_str(o, "nic", n->nic ? n->nic->name : "(by rate)");
        o_qty(o, "nic_rate", "nic_bw", n->nic_bw, SN_UNIT_BANDWIDTH);
        if (n->latency > 0 || o->json)
            o_qty(o, "latency", "latency_s", n->latency, SN_UNIT_TIME);
        else
            o_str(o, "latency", "not given");
    }
    if (n->topology == SN_NET_FAT_TREE || n->topology == SN_NET_RAIL_FAT_TREE) {
        o_str(o, "switch", n->sw ? n->sw->name : "(by radix)");
        o_int(o, "radix", n->radix);
        o_int(o, "tiers", n->tiers);
        o_qty(o, "oversubscription", "oversubscription", n->oversubscription,
              SN_UNIT_RATIO);
    }
    if (n->topology == SN_NET_EXPLICIT) {
        o_int(o, "switches", (long long)n->nswitches);
        o_int(o, "links", (long long)n->nlinks);
    }
    o_end(o);
}

/* The racks, power and cooling sections. */
static void show_facility(const struct sn_spec *s, struct out *o)
{
    static const char *const feeds[] = {"ac-1phase", "ac-3phase", "hvdc"};
    static const char *const cools[] = {"air", "cold_plate", "immersion"};
    static const char *const coolants[] = {"water", "pg25"};

    o_begin(o, "racks");
    o_int(o, "nodes_per_rack", s->racks.nodes_per_rack);
    o_int(o, "node_units", s->racks.node_units);
    o_int(o, "rack_units", s->racks.rack_units);
    o_qty(o, "power_limit", "power_limit_w", s->racks.power_limit_w,
          SN_UNIT_POWER);
    o_qty(o, "row_pitch", "row_pitch_m", s->racks.row_pitch, SN_UNIT_LENGTH);
    o_end(o);
    o_begin(o, "power");
    o_str(o, "feed", feeds[s->power.feed]);
    o_qty(o, "voltage", "voltage_v", s->power.voltage, SN_UNIT_VOLTAGE);
    o_qty(o, "power_factor", "power_factor", s->power.power_factor,
          SN_UNIT_RATIO);
    o_qty(o, "transient_factor", "transient_factor", s->power.transient_factor,
          SN_UNIT_RATIO);
    o_qty(o, "headroom", "headroom", s->power.headroom, SN_UNIT_RATIO);
    o_qty(o, "node_overhead", "node_overhead", s->power.node_overhead,
          SN_UNIT_RATIO);
    o_qty(o, "pue", "pue", s->power.pue, SN_UNIT_RATIO);
    o_end(o);
    o_begin(o, "cooling");
    o_str(o, "type", cools[s->cooling.type]);
    if (s->cooling.type != SN_COOL_AIR)
        o_str(o, "coolant", coolants[s->cooling.coolant]);
    o_qty(o, "delta_t", "delta_t_k", s->cooling.delta_t, SN_UNIT_TEMPERATURE);
    o_qty(o, "liquid_share", "liquid_share", s->cooling.liquid_share,
          SN_UNIT_RATIO);
    o_qty(o, "air_limit", "air_limit_w", s->cooling.air_limit_w, SN_UNIT_POWER);
    o_end(o);
}

/* The storage section and the workload when the spec gives one. */
static void show_job(const struct sn_spec *s, struct out *o)
{
    o_begin(o, "storage");
    o_qty(o, "checkpoint_interval", "checkpoint_interval_s",
          s->storage.checkpoint_interval, SN_UNIT_TIME);
    o_qty(o, "write_window", "write_window_s", s->storage.write_window,
          SN_UNIT_TIME);
    o_qty(o, "write_bandwidth", "write_bw", s->storage.write_bw,
          SN_UNIT_BANDWIDTH);
    o_qty(o, "read_bandwidth", "read_bw", s->storage.read_bw,
          SN_UNIT_BANDWIDTH);
    o_qty(o, "bytes_per_param", "bytes_per_param", s->storage.bytes_per_param,
          SN_UNIT_RATIO);
    o_end(o);
    if (s->workload.given) {
        o_begin(o, "workload");
        if (s->workload.model)
            o_str(o, "model", s->workload.model->name);
        o_qty(o, "params", "params",
              s->workload.params > 0 ? s->workload.params
              : s->workload.model    ? s->workload.model->params
                                     : 0,
              SN_UNIT_COUNT);
        o_qty(o, "train_bytes_per_param", "train_bytes_per_param",
              s->workload.train_bytes_per_param, SN_UNIT_RATIO);
        o_end(o);
    }
}

/* Every section of the resolved spec, in the spec's order. */
static void show(const struct sn_spec *s, struct out *o)
{
    o_str(o, "name", s->name);
    show_accel(s->accel, o);
    show_scaleup(s, o);
    o_int(o, "supernodes", s->supernodes);
    o_int(o, "total_accelerators", sn_spec_total_accels(s));
    show_scaleout(&s->scaleout, o);
    show_facility(s, o);
    show_job(s, o);
}

void sn_render_spec_text(const struct sn_spec *s, struct sn_buf *out)
{
    struct out o;

    memset(&o, 0, sizeof(o));
    o.text = out;
    show(s, &o);
}

void sn_render_spec_json(const struct sn_spec *s, struct sn_buf *out)
{
    struct out o;

    memset(&o, 0, sizeof(o));
    o.json = true;
    o.text = out;
    sn_json_init(&o.j, out, true);
    sn_json_obj_begin(&o.j);
    sn_json_kstr(&o.j, "schema", SN_SCHEMA_SPEC);
    sn_json_kstr(&o.j, "file", s->file);
    show(s, &o);
    sn_json_obj_end(&o.j);
    sn_buf_putc(out, '\n');
}
