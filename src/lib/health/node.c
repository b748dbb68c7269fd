/* node.c: what the design expects of one node: the spec's `node:`
 * section (owned by doctor; the spec parser only checks it is a mapping)
 * and the defaults the rest of the spec implies. Errors point at the
 * line and column of the offending value. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "health-int.h"

void sn_health_node_init(struct sn_health_node *node)
{
    memset(node, 0, sizeof(*node));
    node->accelerators = -1;
    node->nics = -1;
    node->numa_nodes = -1;
    node->nvlinks = -1;
    node->hugepages_2m = -1;
    node->hugepages_1g = -1;
}

struct nctx {
    const char *file;
    struct sn_error *err;
};

static int want_type(struct nctx *x, const struct sn_yaml *n,
                     enum sn_yaml_type t, const char *key)
{
    if (n->type == t)
        return SN_OK;
    return sn_error_at(x->err, SN_EINPUT, x->file, n->line, n->col,
                       "node.%s: expected %s, found %s", key,
                       sn_yaml_type_name(t), sn_yaml_type_name(n->type));
}

static int check_keys(struct nctx *x, const struct sn_yaml *map,
                      const char *where, const char *const *keys)
{
    for (size_t i = 0; i < map->n; i++) {
        const char *k = map->keys[i]->value;
        const char *near;
        char msg[256];
        size_t j;

        for (j = 0; keys[j]; j++)
            if (!strcmp(keys[j], k))
                break;
        if (keys[j])
            continue;
        near = sn_suggest(k, keys);
        if (near)
            snprintf(msg, sizeof(msg), "(did you mean '%s'?)", near);
        else
            snprintf(msg, sizeof(msg),
                     "(expected one of the keys in "
                     "docs/doctor.md)");
        return sn_error_at(x->err, SN_EINPUT, x->file, map->keys[i]->line,
                           map->keys[i]->col, "unknown key '%s' in %s %s", k,
                           where, msg);
    }
    return SN_OK;
}

static int get_int(struct nctx *x, const struct sn_yaml *n, const char *key,
                   long long min, long long max, int *out)
{
    long long v;
    struct sn_error e;

    if (n->type != SN_YAML_SCALAR)
        return sn_error_at(x->err, SN_EINPUT, x->file, n->line, n->col,
                           "node.%s: expected a whole number, found %s", key,
                           sn_yaml_type_name(n->type));
    if (sn_parse_long(n->value, min, max, &v, &e))
        return sn_error_at(x->err, SN_EINPUT, x->file, n->line, n->col,
                           "node.%s: '%s' is not a whole number from %lld "
                           "to %lld",
                           key, n->value, min, max);
    *out = (int)v;
    return SN_OK;
}

static int get_bool(struct nctx *x, const struct sn_yaml *n, const char *key,
                    bool *out)
{
    if (n->type == SN_YAML_SCALAR && !strcmp(n->value, "true")) {
        *out = true;
        return SN_OK;
    }
    if (n->type == SN_YAML_SCALAR && !strcmp(n->value, "false")) {
        *out = false;
        return SN_OK;
    }
    return sn_error_at(x->err, SN_EINPUT, x->file, n->line, n->col,
                       "node.%s: expected true or false, found '%s'", key,
                       n->type == SN_YAML_SCALAR ? n->value : "a collection");
}

/* A list of counts, one per NUMA node. */
static int get_list(struct nctx *x, const struct sn_yaml *n, const char *key,
                    int *out, int *len)
{
    int rc;

    if (n->type != SN_YAML_SEQ)
        return sn_error_at(x->err, SN_EINPUT, x->file, n->line, n->col,
                           "node.numa.%s: expected a list of counts, one "
                           "per NUMA node",
                           key);
    if (n->n == 0 || n->n > SN_HEALTH_MAX_NUMA)
        return sn_error_at(x->err, SN_EINPUT, x->file, n->line, n->col,
                           "node.numa.%s: expected 1 to %d counts, found %zu",
                           key, SN_HEALTH_MAX_NUMA, n->n);
    for (size_t i = 0; i < n->n; i++) {
        rc = get_int(x, n->items[i], "numa list", 0, 4096, &out[i]);
        if (rc)
            return rc;
    }
    *len = (int)n->n;
    return SN_OK;
}

static int get_pcie(struct nctx *x, const struct sn_yaml *n, const char *key,
                    struct sn_health_pcie_want *w)
{
    static const char *const keys[] = {"gen", "width", NULL};
    int rc;

    if (n->type != SN_YAML_MAP)
        return sn_error_at(x->err, SN_EINPUT, x->file, n->line, n->col,
                           "node.pcie.%s: expected a mapping like {gen: 5, "
                           "width: 16}",
                           key);
    rc = check_keys(x, n, "node.pcie", keys);
    for (size_t i = 0; !rc && i < n->n; i++) {
        if (!strcmp(n->keys[i]->value, "gen"))
            rc = get_int(x, n->items[i], "pcie gen", 1, 6, &w->gen);
        else
            rc = get_int(x, n->items[i], "pcie width", 1, 32, &w->width);
        if (!rc && !strcmp(n->keys[i]->value, "width") &&
            (w->width & (w->width - 1)))
            rc = sn_error_at(x->err, SN_EINPUT, x->file, n->items[i]->line,
                             n->items[i]->col,
                             "node.pcie.%s.width: %d lanes (expected 1, 2, "
                             "4, 8, 16 or 32)",
                             key, w->width);
    }
    return rc;
}

/* "15b3:1021": four hex digits, a colon, four hex digits. */
static bool is_pci_id(const char *s)
{
    if (strlen(s) != 9 || s[4] != ':')
        return false;
    for (int i = 0; i < 9; i++)
        if (i != 4 && !isxdigit((unsigned char)s[i]))
            return false;
    return true;
}

static int parse_section(struct nctx *x, const struct sn_yaml *sec,
                         struct sn_health_node *node)
{
    static const char *const keys[] = {
        "accelerators",   "model",      "nics",
        "nic_id",         "numa_nodes", "numa",
        "nic_per_switch", "pcie",       "nvlinks",
        "power_limit",    "thp",        "hugepages_2m",
        "hugepages_1g",   NULL};
    static const char *const pcie_keys[] = {"accelerator", "nic", "nvme", NULL};
    static const char *const numa_keys[] = {"accelerators", "nics", NULL};
    int rc;

    if (sec->type != SN_YAML_MAP)
        return sn_error_at(x->err, SN_EINPUT, x->file, sec->line, sec->col,
                           "node: expected a mapping");
    rc = check_keys(x, sec, "node", keys);
    for (size_t i = 0; !rc && i < sec->n; i++) {
        const char *k = sec->keys[i]->value;
        const struct sn_yaml *v = sec->items[i];

        if (!strcmp(k, "accelerators")) {
            rc = get_int(x, v, k, 0, 4096, &node->accelerators);
        } else if (!strcmp(k, "nics")) {
            rc = get_int(x, v, k, 0, 4096, &node->nics);
        } else if (!strcmp(k, "numa_nodes")) {
            rc = get_int(x, v, k, 1, SN_HEALTH_MAX_NUMA, &node->numa_nodes);
        } else if (!strcmp(k, "nvlinks")) {
            rc = get_int(x, v, k, 0, 64, &node->nvlinks);
        } else if (!strcmp(k, "hugepages_2m")) {
            rc = get_int(x, v, k, 0, 100000000, &node->hugepages_2m);
        } else if (!strcmp(k, "hugepages_1g")) {
            rc = get_int(x, v, k, 0, 1000000, &node->hugepages_1g);
        } else if (!strcmp(k, "thp")) {
            rc = want_type(x, v, SN_YAML_SCALAR, k);
            if (!rc && strcmp(v->value, "always") &&
                strcmp(v->value, "madvise") && strcmp(v->value, "never"))
                rc = sn_error_at(x->err, SN_EINPUT, x->file, v->line, v->col,
                                 "node.thp: '%s' (expected always, madvise "
                                 "or never)",
                                 v->value);
            if (!rc)
                sn_strlcpy(node->thp, v->value, sizeof(node->thp));
        } else if (!strcmp(k, "nic_per_switch")) {
            rc = get_bool(x, v, k, &node->nic_per_switch);
        } else if (!strcmp(k, "model")) {
            rc = want_type(x, v, SN_YAML_SCALAR, k);
            if (!rc && (!*v->value || strlen(v->value) >= sizeof(node->model)))
                rc = sn_error_at(x->err, SN_EINPUT, x->file, v->line, v->col,
                                 "node.model: expected a word of the "
                                 "accelerator's name, 1 to %zu characters",
                                 sizeof(node->model) - 1);
            if (!rc)
                sn_strlcpy(node->model, v->value, sizeof(node->model));
        } else if (!strcmp(k, "nic_id")) {
            rc = want_type(x, v, SN_YAML_SCALAR, k);
            if (!rc && !is_pci_id(v->value))
                rc = sn_error_at(x->err, SN_EINPUT, x->file, v->line, v->col,
                                 "node.nic_id: '%s' is not a PCI id "
                                 "(expected vendor:device in hex, like "
                                 "15b3:1021)",
                                 v->value);
            if (!rc) {
                sn_strlcpy(node->nic_id, v->value, sizeof(node->nic_id));
                for (char *p = node->nic_id; *p; p++)
                    *p = (char)tolower((unsigned char)*p);
            }
        } else if (!strcmp(k, "power_limit")) {
            struct sn_error e;
            rc = want_type(x, v, SN_YAML_SCALAR, k);
            if (!rc && (sn_unit_parse(v->value, SN_UNIT_POWER, false,
                                      &node->power_limit_w, &e) ||
                        node->power_limit_w <= 0))
                rc = sn_error_at(x->err, SN_EINPUT, x->file, v->line, v->col,
                                 "node.power_limit: '%s' is not a power "
                                 "(expected watts, like 700W)",
                                 v->value);
        } else if (!strcmp(k, "pcie")) {
            rc = want_type(x, v, SN_YAML_MAP, k);
            if (!rc)
                rc = check_keys(x, v, "node.pcie", pcie_keys);
            for (size_t j = 0; !rc && j < v->n; j++) {
                const char *pk = v->keys[j]->value;
                struct sn_health_pcie_want *w =
                    !strcmp(pk, "accelerator") ? &node->pcie_accel
                    : !strcmp(pk, "nic")       ? &node->pcie_nic
                                               : &node->pcie_nvme;
                rc = get_pcie(x, v->items[j], pk, w);
            }
        } else { /* numa: balanced, or per-node counts */
            if (v->type == SN_YAML_SCALAR && !strcmp(v->value, "balanced")) {
                node->balanced = true;
                continue;
            }
            if (v->type != SN_YAML_MAP) {
                rc = sn_error_at(x->err, SN_EINPUT, x->file, v->line, v->col,
                                 "node.numa: expected 'balanced' or "
                                 "{accelerators: [..], nics: [..]}");
                break;
            }
            rc = check_keys(x, v, "node.numa", numa_keys);
            for (size_t j = 0; !rc && j < v->n; j++) {
                int len = 0;
                bool acc = !strcmp(v->keys[j]->value, "accelerators");
                rc = get_list(x, v->items[j], v->keys[j]->value,
                              acc ? node->numa_accels : node->numa_nics, &len);
                if (!rc && node->nnuma && len != node->nnuma)
                    rc = sn_error_at(x->err, SN_EINPUT, x->file,
                                     v->items[j]->line, v->items[j]->col,
                                     "node.numa: %d counts here, %d in the "
                                     "other list (one per NUMA node)",
                                     len, node->nnuma);
                node->nnuma = len;
            }
        }
    }
    return rc;
}

/* Totals that must agree once defaults are in. */
static int cross_check(struct nctx *x, const struct sn_yaml *sec,
                       const struct sn_health_node *node)
{
    int sa = 0, sn = 0;
    bool has_accels = false, has_nics = false;
    const struct sn_yaml *numa = sn_yaml_get(sec, "numa");

    if (!node->nnuma)
        return SN_OK;
    for (int i = 0; i < node->nnuma; i++) {
        sa += node->numa_accels[i];
        sn += node->numa_nics[i];
    }
    has_accels = sn_yaml_get(numa, "accelerators") != NULL;
    has_nics = sn_yaml_get(numa, "nics") != NULL;
    if (node->numa_nodes > 0 && node->nnuma != node->numa_nodes)
        return sn_error_at(x->err, SN_EINPUT, x->file, numa->line, numa->col,
                           "node.numa: %d counts for %d NUMA nodes (expected "
                           "one per node)",
                           node->nnuma, node->numa_nodes);
    if (has_accels && node->accelerators >= 0 && sa != node->accelerators)
        return sn_error_at(x->err, SN_EINPUT, x->file, numa->line, numa->col,
                           "node.numa.accelerators: adds up to %d, but the "
                           "node has %d accelerators",
                           sa, node->accelerators);
    if (has_nics && node->nics >= 0 && sn != node->nics)
        return sn_error_at(x->err, SN_EINPUT, x->file, numa->line, numa->col,
                           "node.numa.nics: adds up to %d, but the node has "
                           "%d NICs",
                           sn, node->nics);
    return SN_OK;
}

int sn_health_node_from_spec(const struct sn_spec *spec,
                             struct sn_health_node *node, struct sn_error *err)
{
    const struct sn_yaml *sec = sn_spec_section(spec, "node");
    struct nctx x = {spec->file ? spec->file : "spec", err};
    int rc = SN_OK;

    sn_health_node_init(node);
    /* defaults from the rest of the spec */
    if (spec->accel) {
        const char *dash = strchr(spec->accel->name, '-');
        size_t len = dash ? (size_t)(dash - spec->accel->name)
                          : strlen(spec->accel->name);
        if (spec->scaleup.per_node > 0)
            node->accelerators = spec->scaleup.per_node;
        /* "h100-sxm5-80gb" -> "h100", a word NVML's "NVIDIA H100 80GB
         * HBM3" contains */
        if (len < sizeof(node->model))
            sn_strlcpy(node->model, spec->accel->name, len + 1);
        if (spec->accel->vendor && !strcmp(spec->accel->vendor, "NVIDIA") &&
            spec->scaleup.fabric != SN_FABRIC_NONE &&
            spec->scaleup.fabric != SN_FABRIC_PCIE_TREE &&
            spec->scaleup.links_per_accel > 0)
            node->nvlinks = spec->scaleup.links_per_accel;
    }
    if (spec->scaleout.topology != SN_NET_NONE &&
        spec->scaleout.nics_per_node > 0)
        node->nics = spec->scaleout.nics_per_node;
    if (sec) {
        rc = parse_section(&x, sec, node);
        if (!rc)
            rc = cross_check(&x, sec, node);
    }
    if (rc)
        sn_health_node_init(node);
    return rc;
}
