/* graph.c: the topology graph itself: adding nodes and links, the
 * adjacency index, names, labels, ledger ids, health and counts. The
 * fabric builders (build*.c) and routing (route.c) sit on top of it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/topo.h"

struct sn_topo *sn_topo_new(const struct sn_spec *spec)
{
    struct sn_topo *t = sn_xcalloc(1, sizeof(*t));

    t->spec = spec;
    return t;
}

void sn_topo_free(struct sn_topo *t)
{
    if (!t)
        return;
    free(t->nodes);
    free(t->links);
    free(t->adj_off);
    free(t->adj);
    free(t->accel);
    free(t);
}

uint32_t sn_topo_add_node(struct sn_topo *t, const struct sn_node *n)
{
    SN_GROW(t->nodes, t->nodes_cap, t->nnodes + 1);
    t->nodes[t->nnodes] = *n;
    t->nodes[t->nnodes].nports = 0;
    if (n->rack != SN_NONE && n->rack + 1 > t->nracks)
        t->nracks = n->rack + 1;
    t->finished = false;
    return (uint32_t)t->nnodes++;
}

uint32_t sn_topo_add_link(struct sn_topo *t, uint32_t a, uint32_t b,
                          enum sn_link_class cls, enum sn_medium medium,
                          double bw, double latency, double length)
{
    struct sn_link *l;

    SN_GROW(t->links, t->links_cap, t->nlinks + 1);
    l = &t->links[t->nlinks];
    l->a = a;
    l->b = b;
    l->a_port = t->nodes[a].nports++;
    l->b_port = t->nodes[b].nports++;
    l->cls = (uint8_t)cls;
    l->medium = (uint8_t)medium;
    l->lanes = 1;
    l->bw = (float)bw;
    l->latency = (float)latency;
    l->length = (float)length;
    l->health = 1.0f;
    t->finished = false;
    return (uint32_t)t->nlinks++;
}

int sn_topo_finish(struct sn_topo *t, struct sn_error *err)
{
    size_t n = t->nnodes;
    uint32_t *fill;
    int rc = SN_OK;

    if (t->nlinks > UINT32_MAX / 2 || n >= UINT32_MAX)
        return sn_error_set(err, SN_ENOMEM, "topology is too large");
    free(t->adj_off);
    free(t->adj);
    free(t->accel);
    t->adj_off = sn_xcalloc(n + 1, sizeof(uint32_t));
    t->adj = sn_xmalloc((2 * t->nlinks + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < t->nlinks; i++) {
        t->adj_off[t->links[i].a + 1]++;
        t->adj_off[t->links[i].b + 1]++;
    }
    for (size_t v = 0; v < n; v++)
        t->adj_off[v + 1] += t->adj_off[v];
    fill = sn_xcalloc(n + 1, sizeof(uint32_t));
    for (size_t i = 0; i < t->nlinks; i++) {
        uint32_t a = t->links[i].a, b = t->links[i].b;
        t->adj[t->adj_off[a] + fill[a]++] = (uint32_t)i;
        t->adj[t->adj_off[b] + fill[b]++] = (uint32_t)i;
    }
    free(fill);
    t->naccel = 0;
    for (size_t v = 0; v < n; v++)
        if (t->nodes[v].kind == SN_NODE_ACCEL)
            t->naccel++;
    t->accel = sn_xmalloc((t->naccel + 1) * sizeof(uint32_t));
    for (size_t r = 0; r < t->naccel; r++)
        t->accel[r] = SN_NONE;
    for (size_t v = 0; v < n; v++) {
        const struct sn_node *nd = &t->nodes[v];
        if (nd->kind != SN_NODE_ACCEL)
            continue;
        if (nd->rank >= t->naccel || t->accel[nd->rank] != SN_NONE) {
            rc = sn_error_set(err, SN_EINPUT,
                              "accelerator ranks are not 0..%zu each once "
                              "(rank %" PRIu32 " at node %zu)",
                              t->naccel - 1, nd->rank, v);
            break;
        }
        t->accel[nd->rank] = (uint32_t)v;
    }
    t->finished = rc == SN_OK;
    return rc;
}

/* ---- names ------------------------------------------------------------- */

static const char *accel_word(const struct sn_topo *t)
{
    const char *v = t->spec && t->spec->accel ? t->spec->accel->vendor : NULL;

    if (v && (sn_strcaseeq(v, "Huawei")))
        return "npu";
    if (v && sn_strcaseeq(v, "Google"))
        return "tpu";
    return "gpu";
}

static const char *device_word(const struct sn_topo *t, const struct sn_node *n)
{
    switch (n->kind) {
    case SN_NODE_ACCEL:
        return accel_word(t);
    case SN_NODE_CPU:
        return "cpu";
    case SN_NODE_NIC:
        return "nic";
    default:
        break;
    }
    return sn_switch_role_info((enum sn_switch_role)n->role)->tag;
}

/* Switches of an explicit network go by the names the spec gives them. */
static const char *explicit_name(const struct sn_topo *t,
                                 const struct sn_node *n)
{
    const struct sn_scaleout *so = t->spec ? &t->spec->scaleout : NULL;

    if (!so || so->topology != SN_NET_EXPLICIT || n->kind != SN_NODE_SWITCH ||
        n->supernode != SN_NONE || n->index >= so->nswitches)
        return NULL;
    if (n->role != SN_SW_LEAF && n->role != SN_SW_SPINE &&
        n->role != SN_SW_CORE)
        return NULL;
    return so->switches[n->index].name;
}

char *sn_topo_node_name(const struct sn_topo *t, uint32_t id, char *buf,
                        size_t size)
{
    const struct sn_node *n = &t->nodes[id];
    const char *given = explicit_name(t, n);
    char where[48], dev[80];

    if (n->supernode == SN_NONE)
        snprintf(where, sizeof(where), "net");
    else
        snprintf(where, sizeof(where), "sn%" PRIu32, n->supernode);
    if (given)
        snprintf(dev, sizeof(dev), "%s", given);
    else
        snprintf(dev, sizeof(dev), "%s%" PRIu32, device_word(t, n), n->index);
    if (n->rack == SN_NONE)
        snprintf(buf, size, "%s.%s", where, dev);
    else
        snprintf(buf, size, "%s.r%02" PRIu32 ".u%02u.%s", where, n->rack,
                 (unsigned)n->unit, dev);
    return buf;
}

char *sn_topo_link_label(const struct sn_topo *t, uint32_t id, char *buf,
                         size_t size)
{
    const struct sn_link *l = &t->links[id];
    char a[96], b[96];
    uint32_t x = l->a, y = l->b;
    unsigned px = l->a_port, py = l->b_port;

    if (x > y) {
        uint32_t tmp = x;
        unsigned tp = px;
        x = y;
        y = tmp;
        px = py;
        py = tp;
    }
    sn_topo_node_name(t, x, a, sizeof(a));
    sn_topo_node_name(t, y, b, sizeof(b));
    snprintf(buf, size, "%s.p%u~%s.p%u", a, px, b, py);
    return buf;
}

char *sn_topo_link_id(const struct sn_topo *t, uint32_t id, char *buf,
                      size_t size)
{
    snprintf(buf, size, "L%06" PRIu32, id);
    (void)t;
    return buf;
}

int sn_topo_find_link(const struct sn_topo *t, const char *label, uint32_t *out,
                      struct sn_error *err)
{
    char buf[256], best_label[256] = "";
    int best_d = 1 << 30;

    if (label[0] == 'L' && label[1] >= '0' && label[1] <= '9') {
        char *end;
        unsigned long v = strtoul(label + 1, &end, 10);
        if (!*end && v < t->nlinks) {
            *out = (uint32_t)v;
            return SN_OK;
        }
    }
    for (size_t i = 0; i < t->nlinks; i++) {
        sn_topo_link_label(t, (uint32_t)i, buf, sizeof(buf));
        if (strcmp(buf, label) == 0) {
            *out = (uint32_t)i;
            return SN_OK;
        }
    }
    /* did-you-mean over a bounded sample: labels differ mostly in a few
     * digits, so the nearest by edit distance is a useful hint */
    for (size_t i = 0; i < t->nlinks && i < 200000; i++) {
        int d;
        sn_topo_link_label(t, (uint32_t)i, buf, sizeof(buf));
        d = sn_edit_distance(buf, label);
        if (d < best_d) {
            best_d = d;
            sn_strlcpy(best_label, buf, sizeof(best_label));
        }
    }
    if (best_d <= 4)
        return sn_error_set(err, SN_ENOTFOUND,
                            "no link labelled '%.200s' (did you mean "
                            "'%s'?)",
                            label, best_label);
    return sn_error_set(err, SN_ENOTFOUND,
                        "no link labelled '%.200s' (see the ledger from "
                        "'supernode plan --ledger')",
                        label);
}

int sn_topo_set_health(struct sn_topo *t, uint32_t link, double health,
                       struct sn_error *err)
{
    if (link >= t->nlinks)
        return sn_error_set(err, SN_ENOTFOUND, "no link %" PRIu32, link);
    if (!(health >= 0 && health <= 1))
        return sn_error_set(err, SN_EINPUT,
                            "link health %g is out of range (expected 0 to "
                            "1)",
                            health);
    t->links[link].health = (float)health;
    return SN_OK;
}

const char *sn_link_class_name(enum sn_link_class c)
{
    switch (c) {
    case SN_LINK_SCALE_UP:
        return "scale-up";
    case SN_LINK_SCALE_OUT:
        return "scale-out";
    case SN_LINK_HOST:
        return "host";
    default:
        return "?";
    }
}

const char *sn_node_kind_name(enum sn_node_kind k)
{
    switch (k) {
    case SN_NODE_ACCEL:
        return "accelerator";
    case SN_NODE_CPU:
        return "cpu";
    case SN_NODE_NIC:
        return "nic";
    case SN_NODE_SWITCH:
        return "switch";
    }
    return "?";
}

/* Rows in enum order (a static assertion below keeps them so). */
static const struct sn_switch_role_info roles[] = {
    {SN_SW_NONE, "sw", NULL, "none", 5},
    {SN_SW_SCALEUP_L1, "sw", "scale_up_l1", "scale-up switch", 2},
    {SN_SW_SCALEUP_L2, "l2sw", "scale_up_l2", "scale-up L2 switch", 3},
    {SN_SW_LEAF, "leaf", "leaf", "leaf", 2},
    {SN_SW_SPINE, "spine", "spine", "spine", 3},
    {SN_SW_CORE, "core", "core", "core", 4},
    {SN_SW_PCIE, "pcisw", "pcie", "PCIe switch", 1},
    {SN_SW_EXTERNAL, "site", NULL, "site network", 5},
};
_Static_assert(SN_ARRAY_LEN(roles) == SN_SW_EXTERNAL + 1,
               "one row per enum sn_switch_role");

const struct sn_switch_role_info *sn_switch_role_info(enum sn_switch_role r)
{
    size_t i = (size_t)r;

    if (i >= SN_ARRAY_LEN(roles) || roles[i].role != r)
        return &roles[SN_SW_NONE];
    return &roles[i];
}

const char *sn_switch_role_name(enum sn_switch_role r)
{
    return sn_switch_role_info(r)->label;
}

void sn_topo_count(const struct sn_topo *t, struct sn_topo_counts *c)
{
    memset(c, 0, sizeof(*c));
    for (size_t v = 0; v < t->nnodes; v++) {
        const struct sn_node *n = &t->nodes[v];
        c->nodes[n->kind]++;
        if (n->kind == SN_NODE_SWITCH &&
            n->role < SN_ARRAY_LEN(c->switches_by_role))
            c->switches_by_role[n->role]++;
    }
    for (size_t i = 0; i < t->nlinks; i++) {
        const struct sn_link *l = &t->links[i];
        uint8_t ka = t->nodes[l->a].kind, kb = t->nodes[l->b].kind;
        c->links[l->cls]++;
        c->links_by_medium[l->medium]++;
        if (ka == SN_NODE_SWITCH && kb == SN_NODE_SWITCH)
            c->switch_links++;
        else if (l->cls != SN_LINK_HOST)
            c->accel_links++;
    }
}
