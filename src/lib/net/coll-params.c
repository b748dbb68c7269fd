/* coll-params.c: the collective model's constants: built-in defaults, each
 * with its source, and the spec's `collectives:` section over them.
 *
 * Every number here comes from NCCL's own tuner or from the constants
 * other tools derived from NCCL's measurements (perf-model-anchors.md
 * sections 2.5, 3.3 and 3.4); none is fitted to a measurement that the
 * tests compare against. docs/model.md lists which measurement each one
 * rests on and which ones test it. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "sn/coll.h"

#define US 1e-6

/* NVLink generation from the catalog's scale-up name ("NVLink 4"), 0 when
 * the fabric is not NVLink or not known. */
static int nvlink_gen(const struct sn_topo *t)
{
    const char *s;

    if (!t || !t->spec || !t->spec->accel || !t->spec->accel->scaleup_name)
        return 0;
    s = t->spec->accel->scaleup_name;
    if (strncmp(s, "NVLink", 6) != 0 && strncmp(s, "nvlink", 6) != 0)
        return 0;
    s += 6;
    while (*s == ' ' || *s == '-')
        s++;
    return isdigit((unsigned char)*s) ? *s - '0' : 0;
}

void sn_coll_params_default(const struct sn_topo *t, struct sn_coll_params *p)
{
    int gen = nvlink_gen(t);
    static const double ring_base[SN_PROTO_COUNT] = {6.6, 14.0, 8.4};
    static const double tree_base[SN_PROTO_COUNT] = {6.8, 14.0, 8.4};
    /* per-hop latency by fabric: scale-up = NCCL's NVLink row, scale-out
     * = NET, host = PCI (perf-model-anchors.md 3.4, NCCL tuning.cc) */
    static const double ring_hop[SN_LINK_CLASS_COUNT][SN_PROTO_COUNT] = {
        {0.6, 1.9, 3.4}, {2.7, 4.0, 14.0}, {1.0, 2.5, 5.7}};
    static const double tree_hop[SN_LINK_CLASS_COUNT][SN_PROTO_COUNT] = {
        {0.6, 1.25, 4.0}, {5.0, 8.5, 14.0}, {1.0, 1.9, 4.0}};

    memset(p, 0, sizeof(*p));
    /* Usable share of a scale-up link: NCCL's per-link NVLink bandwidth
     * over the nominal 25 GB/s (50 for NVLink 5): SM80 20.0, SM90 20.6,
     * SM100 40.1 GB/s (NCCL topo.h; anchors 1.2, 3.3). Other fabrics take
     * the SM80 share as an estimate. */
    switch (gen) {
    case 3:
        p->link_eff[SN_LINK_SCALE_UP] = 20.0 / 25.0;
        break;
    case 4:
        p->link_eff[SN_LINK_SCALE_UP] = 20.6 / 25.0;
        break;
    case 5:
        p->link_eff[SN_LINK_SCALE_UP] = 40.1 / 50.0;
        break;
    default:
        p->link_eff[SN_LINK_SCALE_UP] = 20.0 / 25.0;
        break;
    }
    /* other fabrics: the accelerator's own figure where its catalog
     * entry has one (AMD: 48 of 64 GB/s per Infinity Fabric link) */
    if (!gen && t && t->spec && t->spec->accel &&
        t->spec->accel->scaleup_eff > 0)
        p->link_eff[SN_LINK_SCALE_UP] = t->spec->accel->scaleup_eff;
    /* NIC: CX7/BF3 48.5 of 50 GB/s (SimAI calbusbw.h, anchors 3.3) */
    p->link_eff[SN_LINK_SCALE_OUT] = 48.5 / 50.0;
    /* PCIe: Gen5 51.2 of 64 GB/s, Gen4 25.6 of 32 (SimAI, anchors 3.3) */
    p->link_eff[SN_LINK_HOST] = 51.2 / 64.0;
    /* NVLS: Hopper 0.85, Blackwell 0.74 (NCCL nvlsEfficiency, anchors
     * 3.4); other in-switch reductions take Blackwell's as an estimate */
    p->nvls_eff = gen == 4 ? 0.85 : 0.74;
    p->nvls = t && t->spec && t->spec->scaleup.in_network_reduction;
    /* payload share of a line: LL 4 of 8 bytes, LL128 120 of 128 */
    p->proto_eff[SN_PROTO_LL] = 0.5;
    p->proto_eff[SN_PROTO_LL128] = 120.0 / 128.0;
    p->proto_eff[SN_PROTO_SIMPLE] = 1.0;
    /* What NCCL's tuner makes of them (NVIDIA/nccl src/graph/tuning.cc,
     * ncclTopoTuneModel, "various model refinements"): LL stores a flag
     * with every 4 bytes and polls it, and NCCL models a ring at 1/4 of
     * the bus bandwidth for all-reduce, reduce or across nodes, 1/3
     * otherwise, a tree at 1/3.8; LL128 at 0.92 of it on a ring (0.7 with
     * one rank per node, where a GPU sends and receives through its NIC)
     * and 7/9 on a tree inside one node. */
    p->ll_ring = 1.0 / 4.0;
    p->ll_ring_domain = 1.0 / 3.0;
    p->ll_tree = 1.0 / 3.8;
    p->ll128_ring = 0.92;
    p->ll128_ring_alone = 0.7;
    p->ll128_tree_domain = 7.0 / 9.0;
    /* NCCL scales a tree all-reduce's bandwidth by a per-size factor,
     * 0.4 to 1 (treeCorrectionFactor in src/tuning/cost_model.cc, used
     * by src/tuning/tree.cc; "trees are not perfectly sticking to the
     * model for medium sizes"); the table is in coll.c */
    p->tree_correction = true;
    for (int k = 0; k < SN_PROTO_COUNT; k++) {
        p->proto_on[k] = true;
        p->ring_base[k] = ring_base[k] * US;
        p->tree_base[k] = tree_base[k] * US;
        for (int c = 0; c < SN_LINK_CLASS_COUNT; c++) {
            p->ring_hop[c][k] = ring_hop[c][k] * US;
            p->tree_hop[c][k] = tree_hop[c][k] * US;
        }
    }
    p->nvls_hop = 25.0 * US;     /* NVLink NVLS, Simple (anchors 3.4) */
    p->nvls_net_hop = 20.9 * US; /* NET NVLSTree, Simple (anchors 3.4) */
    p->ll_multinode = 1.8;       /* NCCL tuning.cc: LL intra x1.8 */
    p->ring_plateau = 1.4;       /* anchors 3.4: ring Simple plateau */
    p->tree_eff = 0.92;          /* anchors 2.5: 0.92 x tree busbw */
    /* NCCL_BUFFSIZE 4 MiB over NCCL_STEPS 8: 512 KiB per pipeline step */
    p->chunk = 512.0 * 1024.0;
    p->flow_max = 65536;
    switch (gen) {
    case 3:
        p->source = "NCCL tuner constants, NVLink 3 (SM80)";
        break;
    case 4:
        p->source = "NCCL tuner constants, NVLink 4 (SM90)";
        break;
    case 5:
        p->source = "NCCL tuner constants, NVLink 5 (SM100)";
        break;
    default:
        p->source = "NCCL tuner constants, generic scale-up";
        break;
    }
}

const char *sn_coll_proto_name(enum sn_coll_proto p)
{
    switch (p) {
    case SN_PROTO_LL:
        return "LL";
    case SN_PROTO_LL128:
        return "LL128";
    case SN_PROTO_SIMPLE:
        return "Simple";
    default:
        return "?";
    }
}

/* ---- the spec's collectives section ------------------------------------ */

static const char *const top_keys[] = {"scaleup_efficiency",
                                       "scaleout_efficiency",
                                       "host_efficiency",
                                       "nvls_efficiency",
                                       "nvls",
                                       "protocols",
                                       "chunk",
                                       "latency",
                                       "protocol_efficiency",
                                       "tree_correction",
                                       NULL};

static const char *const lat_keys[] = {"ring_base",
                                       "tree_base",
                                       "ring_hop_scaleup",
                                       "ring_hop_scaleout",
                                       "ring_hop_host",
                                       "tree_hop_scaleup",
                                       "tree_hop_scaleout",
                                       "tree_hop_host",
                                       "nvls",
                                       "nvls_network",
                                       NULL};

static int bad(struct sn_error *err, const struct sn_spec *spec,
               const struct sn_yaml *node, const char *what,
               const char *expected)
{
    return sn_error_at(err, SN_EINPUT, spec->file, node->line, node->col,
                       "collectives: %s (expected %s)", what, expected);
}

static int need_scalar(struct sn_error *err, const struct sn_spec *spec,
                       const struct sn_yaml *v, const char *key,
                       const char *expected)
{
    char what[160];

    if (v->type == SN_YAML_SCALAR)
        return SN_OK;
    snprintf(what, sizeof(what), "'%s' is %s", key, sn_yaml_type_name(v->type));
    return bad(err, spec, v, what, expected);
}

static int parse_fraction(struct sn_error *err, const struct sn_spec *spec,
                          const struct sn_yaml *v, const char *key, double *out)
{
    struct sn_error e2;
    double x;
    char what[200];

    if (need_scalar(err, spec, v, key, "a fraction such as 0.8 or 80%"))
        return SN_EINPUT;
    if (sn_unit_parse(v->value, SN_UNIT_RATIO, true, &x, &e2) ||
        !(x > 0 && x <= 1)) {
        snprintf(what, sizeof(what), "'%s' is '%.60s'", key, v->value);
        return bad(err, spec, v, what, "a fraction in (0, 1]");
    }
    *out = x;
    return SN_OK;
}

static int parse_time(struct sn_error *err, const struct sn_spec *spec,
                      const struct sn_yaml *v, const char *key, double *out)
{
    struct sn_error e2;
    double x;
    char what[200];

    if (need_scalar(err, spec, v, key, "a time such as 6.6us"))
        return SN_EINPUT;
    if (sn_unit_parse(v->value, SN_UNIT_TIME, false, &x, &e2) ||
        !(x >= 0 && x <= 1)) {
        snprintf(what, sizeof(what), "'%s' is '%.60s'", key, v->value);
        return bad(err, spec, v, what,
                   "a time from 0 to 1 s with a unit, "
                   "such as 6.6us");
    }
    *out = x;
    return SN_OK;
}

/* A list of three times, LL / LL128 / Simple. */
static int parse_triple(struct sn_error *err, const struct sn_spec *spec,
                        const struct sn_yaml *v, const char *key,
                        double out[SN_PROTO_COUNT])
{
    double tmp[SN_PROTO_COUNT];
    char what[160];

    if (v->type != SN_YAML_SEQ || v->n != SN_PROTO_COUNT) {
        snprintf(what, sizeof(what), "'%s' is not a list of three", key);
        return bad(err, spec, v, what,
                   "three times for LL, LL128 and Simple, such as "
                   "[0.6us, 1.9us, 3.4us]");
    }
    for (int k = 0; k < SN_PROTO_COUNT; k++)
        if (parse_time(err, spec, v->items[k], key, &tmp[k]))
            return SN_EINPUT;
    memcpy(out, tmp, sizeof(tmp));
    return SN_OK;
}

static int unknown_key(struct sn_error *err, const struct sn_spec *spec,
                       const struct sn_yaml *k, const char *const *keys,
                       const char *where)
{
    const char *s = sn_suggest(k->value, keys);
    char what[200];

    if (s) {
        snprintf(what, sizeof(what),
                 "unknown key '%.60s' in %s (did you "
                 "mean '%s'?)",
                 k->value, where, s);
        return sn_error_at(err, SN_EINPUT, spec->file, k->line, k->col,
                           "collectives: %s", what);
    }
    snprintf(what, sizeof(what), "unknown key '%.60s' in %s", k->value, where);
    return sn_error_at(err, SN_EINPUT, spec->file, k->line, k->col,
                       "collectives: %s (expected one of: %s)", what,
                       where[0] == 'l'   ? "ring_base, tree_base, ring_hop_*, "
                                           "tree_hop_*, nvls, nvls_network"
                       : where[0] == 'p' ? "ll_ring, ll_ring_domain, ll_tree, "
                                           "ll128_ring, ll128_ring_alone, "
                                           "ll128_tree_domain"
                                         : "scaleup_efficiency, "
                                           "scaleout_efficiency, "
                                           "host_efficiency, nvls_efficiency, "
                                           "nvls, protocols, chunk, latency, "
                                           "protocol_efficiency, "
                                           "tree_correction");
}

static int parse_latency(struct sn_error *err, const struct sn_spec *spec,
                         const struct sn_yaml *map, struct sn_coll_params *p)
{
    static const struct {
        const char *key;
        int cls;
        bool tree;
    } hops[] = {{"ring_hop_scaleup", SN_LINK_SCALE_UP, false},
                {"ring_hop_scaleout", SN_LINK_SCALE_OUT, false},
                {"ring_hop_host", SN_LINK_HOST, false},
                {"tree_hop_scaleup", SN_LINK_SCALE_UP, true},
                {"tree_hop_scaleout", SN_LINK_SCALE_OUT, true},
                {"tree_hop_host", SN_LINK_HOST, true}};

    if (map->type != SN_YAML_MAP)
        return bad(err, spec, map, "'latency' is not a mapping",
                   "a mapping of latency names to times");
    for (size_t i = 0; i < map->n; i++) {
        const char *k = map->keys[i]->value;
        const struct sn_yaml *v = map->items[i];
        bool done = false;
        if (strcmp(k, "ring_base") == 0) {
            if (parse_triple(err, spec, v, k, p->ring_base))
                return SN_EINPUT;
            continue;
        }
        if (strcmp(k, "tree_base") == 0) {
            if (parse_triple(err, spec, v, k, p->tree_base))
                return SN_EINPUT;
            continue;
        }
        if (strcmp(k, "nvls") == 0) {
            if (parse_time(err, spec, v, k, &p->nvls_hop))
                return SN_EINPUT;
            continue;
        }
        if (strcmp(k, "nvls_network") == 0) {
            if (parse_time(err, spec, v, k, &p->nvls_net_hop))
                return SN_EINPUT;
            continue;
        }
        for (size_t h = 0; h < SN_ARRAY_LEN(hops); h++) {
            if (strcmp(k, hops[h].key) != 0)
                continue;
            if (parse_triple(err, spec, v, k,
                             hops[h].tree ? p->tree_hop[hops[h].cls]
                                          : p->ring_hop[hops[h].cls]))
                return SN_EINPUT;
            done = true;
        }
        if (!done)
            return unknown_key(err, spec, map->keys[i], lat_keys, "latency");
    }
    return SN_OK;
}

/* NCCL's LL and LL128 bandwidth shares per algorithm, as fractions. */
static int parse_peff(struct sn_error *err, const struct sn_spec *spec,
                      const struct sn_yaml *map, struct sn_coll_params *p)
{
    static const char *const keys[] = {
        "ll_ring",          "ll_ring_domain",    "ll_tree", "ll128_ring",
        "ll128_ring_alone", "ll128_tree_domain", NULL};
    double *dst[] = {&p->ll_ring,          &p->ll_ring_domain,
                     &p->ll_tree,          &p->ll128_ring,
                     &p->ll128_ring_alone, &p->ll128_tree_domain};

    if (map->type != SN_YAML_MAP)
        return bad(err, spec, map, "'protocol_efficiency' is not a mapping",
                   "a mapping such as {ll_ring: 0.25}");
    for (size_t i = 0; i < map->n; i++) {
        const char *k = map->keys[i]->value;
        size_t j = 0;
        while (keys[j] && strcmp(k, keys[j]) != 0)
            j++;
        if (!keys[j])
            return unknown_key(err, spec, map->keys[i], keys,
                               "protocol_efficiency");
        if (parse_fraction(err, spec, map->items[i], k, dst[j]))
            return SN_EINPUT;
    }
    return SN_OK;
}

static int parse_protocols(struct sn_error *err, const struct sn_spec *spec,
                           const struct sn_yaml *v, struct sn_coll_params *p)
{
    bool on[SN_PROTO_COUNT] = {false, false, false};
    bool any = false;

    if (v->type != SN_YAML_SEQ)
        return bad(err, spec, v, "'protocols' is not a list",
                   "a list of ll, ll128, simple");
    for (size_t i = 0; i < v->n; i++) {
        const struct sn_yaml *it = v->items[i];
        int k = -1;
        char what[160];
        if (it->type == SN_YAML_SCALAR) {
            for (int j = 0; j < SN_PROTO_COUNT; j++)
                if (sn_strcaseeq(it->value,
                                 sn_coll_proto_name((enum sn_coll_proto)j)))
                    k = j;
        }
        if (k < 0) {
            snprintf(what, sizeof(what), "unknown protocol '%.40s'",
                     it->type == SN_YAML_SCALAR ? it->value : "?");
            return bad(err, spec, it, what, "ll, ll128 or simple");
        }
        on[k] = true;
        any = true;
    }
    if (!any)
        return bad(err, spec, v, "'protocols' is empty",
                   "at least one of ll, ll128, simple");
    memcpy(p->proto_on, on, sizeof(on));
    return SN_OK;
}

int sn_coll_params_from_spec(const struct sn_spec *spec,
                             struct sn_coll_params *p, struct sn_error *err)
{
    const struct sn_yaml *sec;
    struct sn_coll_params q;

    if (!spec)
        return SN_OK;
    /* the kept document (spec.h): the section this module owns */
    sec = spec->doc.root ? sn_yaml_get(spec->doc.root, "collectives") : NULL;
    if (!sec)
        return SN_OK;
    if (sec->type != SN_YAML_MAP)
        return bad(err, spec, sec, "the section is not a mapping",
                   "keys such as scaleup_efficiency or latency");
    q = *p;
    for (size_t i = 0; i < sec->n; i++) {
        const char *k = sec->keys[i]->value;
        const struct sn_yaml *v = sec->items[i];
        int rc = SN_OK;
        if (strcmp(k, "scaleup_efficiency") == 0) {
            rc = parse_fraction(err, spec, v, k, &q.link_eff[SN_LINK_SCALE_UP]);
        } else if (strcmp(k, "scaleout_efficiency") == 0) {
            rc =
                parse_fraction(err, spec, v, k, &q.link_eff[SN_LINK_SCALE_OUT]);
        } else if (strcmp(k, "host_efficiency") == 0) {
            rc = parse_fraction(err, spec, v, k, &q.link_eff[SN_LINK_HOST]);
        } else if (strcmp(k, "nvls_efficiency") == 0) {
            rc = parse_fraction(err, spec, v, k, &q.nvls_eff);
        } else if (strcmp(k, "nvls") == 0) {
            rc = need_scalar(err, spec, v, k, "true or false");
            if (!rc &&
                (sn_streq(v->value, "true") || sn_streq(v->value, "false")))
                q.nvls = sn_streq(v->value, "true");
            else if (!rc)
                rc = bad(err, spec, v, "'nvls' is not a boolean",
                         "true or false");
        } else if (strcmp(k, "tree_correction") == 0) {
            rc = need_scalar(err, spec, v, k, "true or false");
            if (!rc &&
                (sn_streq(v->value, "true") || sn_streq(v->value, "false")))
                q.tree_correction = sn_streq(v->value, "true");
            else if (!rc)
                rc = bad(err, spec, v, "'tree_correction' is not a boolean",
                         "true or false");
        } else if (strcmp(k, "protocols") == 0) {
            rc = parse_protocols(err, spec, v, &q);
        } else if (strcmp(k, "chunk") == 0) {
            struct sn_error e2;
            double x = 0;
            rc = need_scalar(err, spec, v, k, "a size such as 512KiB");
            if (!rc && (sn_unit_parse(v->value, SN_UNIT_BYTES, true, &x, &e2) ||
                        !(x >= 64 && x <= 1e9)))
                rc = bad(err, spec, v, "'chunk' is out of range",
                         "a size from 64 B to 1 GB, such as 512KiB");
            if (!rc)
                q.chunk = x;
        } else if (strcmp(k, "latency") == 0) {
            rc = parse_latency(err, spec, v, &q);
        } else if (strcmp(k, "protocol_efficiency") == 0) {
            rc = parse_peff(err, spec, v, &q);
        } else {
            rc = unknown_key(err, spec, sec->keys[i], top_keys, "collectives");
        }
        if (rc)
            return rc;
    }
    q.source = "spec collectives section over NCCL tuner constants";
    *p = q;
    return SN_OK;
}
