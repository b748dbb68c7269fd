/* collapse.c (topo): the topology with repeated units collapsed, which
 * the Graphviz drawing (render) and the HTML report's topology figure
 * (html) share: devices grouped into classes, links between classes
 * grouped with a count.
 */
#include <stdlib.h>

#include "sn/topo.h"

int sn_topo_class_of(const struct sn_node *n)
{
    int role = n->kind == SN_NODE_SWITCH ? (n->role & 7) : 0;

    return ((int)n->kind * 8 + role) * 2 + (n->supernode == SN_NONE);
}

const char *sn_topo_class_label(int c)
{
    switch (sn_topo_class_kind(c)) {
    case SN_NODE_ACCEL:
        return "accelerator";
    case SN_NODE_CPU:
        return "host CPU";
    case SN_NODE_NIC:
        return "NIC port";
    default:
        break;
    }
    return sn_switch_role_name((enum sn_switch_role)sn_topo_class_role(c));
}

void sn_topo_collapse(const struct sn_topo *t, struct sn_topo_collapsed *c)
{
    size_t cap = 0;

    *c = (struct sn_topo_collapsed){0};
    c->supernodes =
        t->spec && t->spec->supernodes > 0 ? (size_t)t->spec->supernodes : 1;
    for (size_t v = 0; v < t->nnodes; v++)
        c->count[sn_topo_class_of(&t->nodes[v])]++;
    for (size_t i = 0; i < t->nlinks; i++) {
        const struct sn_link *l = &t->links[i];
        int ca = sn_topo_class_of(&t->nodes[l->a]);
        int cb = sn_topo_class_of(&t->nodes[l->b]);
        size_t k;
        if (ca > cb) {
            int x = ca;
            ca = cb;
            cb = x;
        }
        /* a handful of edges at most (classes x classes): a linear scan */
        for (k = 0; k < c->ne; k++)
            if (c->e[k].ca == ca && c->e[k].cb == cb && c->e[k].cls == l->cls &&
                c->e[k].medium == l->medium && c->e[k].bw == l->bw)
                break;
        if (k == c->ne) {
            SN_GROW(c->e, cap, c->ne + 1);
            c->e[k] = (struct sn_topo_class_edge){ca,        cb, l->cls,
                                                  l->medium, 0,  l->bw};
            c->ne++;
        }
        c->e[k].count++;
    }
}

void sn_topo_collapse_release(struct sn_topo_collapsed *c)
{
    free(c->e);
    *c = (struct sn_topo_collapsed){0};
}
