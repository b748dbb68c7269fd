/* mpi.c (export): where ranks run: the Open MPI hostfile and
 * rankfile (orte_hosts(7), mpirun(1) --rankfile), ranks filling one
 * scale-up domain before the next and following the rails within a node;
 * and the Kubernetes labels naming each node's scale-up domain.
 */
#include <stdlib.h>
#include <string.h>

#include "export-int.h"
#include "sn/export.h"
#include "sn/spec.h"
#include "sn/topo.h"

int sn_export_hostfile(const struct sn_topo *t, const char *const *hosts,
                       struct sn_buf *out, struct sn_error *err)
{
    const struct sn_spec *s = t->spec;
    long long nodes = (long long)s->supernodes * sn_spec_nodes_per_supernode(s);

    (void)err;
    sn_buf_printf(out, "# Open MPI hostfile: one slot per accelerator; ranks "
                       "fill a node, then the next (mpirun --map-by slot)\n");
    for (long long i = 0; i < nodes; i++)
        sn_buf_printf(out, "%s slots=%d\n", hosts[i], s->scaleup.per_node);
    return SN_OK;
}

/* The rail of an accelerator: the NIC it sits beside by a host link
 * (its plane), or none (SN_NONE16). */
static unsigned rail_of(const struct sn_topo *t, uint32_t a)
{
    unsigned best = SN_NONE16;

    for (uint32_t k = t->adj_off[a]; k < t->adj_off[a + 1]; k++) {
        const struct sn_link *l = &t->links[t->adj[k]];
        uint32_t o = l->a == a ? l->b : l->a;
        if (l->cls == SN_LINK_HOST && t->nodes[o].kind == SN_NODE_NIC &&
            t->nodes[o].plane < best)
            best = t->nodes[o].plane;
    }
    return best;
}

struct slot {
    uint32_t id;  /* accelerator node */
    unsigned key; /* rail, then index */
};

static int cmp_slot(const void *a, const void *b)
{
    const struct slot *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

int sn_export_rankfile(const struct sn_topo *t, const char *const *hosts,
                       struct sn_buf *out, struct sn_error *err)
{
    const struct sn_spec *s = t->spec;
    int per = s->scaleup.per_node;
    long long nodes = (long long)s->supernodes * sn_spec_nodes_per_supernode(s);
    struct slot *sl = sn_xcalloc((size_t)per + 1, sizeof(*sl));
    int *core = sn_xcalloc(64, sizeof(*core));

    (void)err;
    sn_buf_puts(out, "# Open MPI rankfile (mpirun --rankfile FILE): "
                     "consecutive ranks fill a scale-up domain; within a "
                     "node they follow the rails;\n# slot=S:C binds a rank "
                     "to core C of socket S, the socket its accelerator "
                     "hangs from\n");
    for (long long n = 0; n < nodes; n++) {
        memset(core, 0, 64 * sizeof(*core));
        for (int i = 0; i < per; i++) {
            uint32_t a = t->accel[n * per + i];
            unsigned r = rail_of(t, a);
            sl[i].id = a;
            sl[i].key = (r == SN_NONE16 ? 0xffffu : r) << 16 | (unsigned)i;
        }
        qsort(sl, (size_t)per, sizeof(*sl), cmp_slot);
        for (int i = 0; i < per; i++) {
            int sock = sn__export_cpu_index(t, sl[i].id) & 63;
            sn_buf_printf(out, "rank %lld=%s slot=%d:%d\n", n * per + i,
                          hosts[n], sock, core[sock]++);
        }
    }
    free(core);
    free(sl);
    return SN_OK;
}

/* A label value (Kubernetes: at most 63 characters, alphanumerics at
 * both ends, '-', '_' and '.' inside): the design's name cleaned. */
static void put_label_value(struct sn_buf *b, const char *name, uint32_t sn)
{
    size_t n = 0;

    for (size_t i = 0; name && name[i] && n < 48; i++) {
        char c = name[i];
        bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                     (c >= '0' && c <= '9');
        if (!alnum && n == 0)
            continue;
        sn_buf_putc(b, alnum || c == '-' || c == '_' || c == '.' ? c : '-');
        n++;
    }
    if (n == 0)
        sn_buf_puts(b, "design");
    sn_buf_printf(b, ".%u", sn);
}

int sn_export_k8s(const struct sn_topo *t, const char *const *hosts,
                  struct sn_buf *out, bool *multi, struct sn_error *err)
{
    const struct sn_spec *s = t->spec;
    int per = sn_spec_nodes_per_supernode(s);

    (void)err;
    *multi = per > 1 && s->scaleup.fabric != SN_FABRIC_NONE;
    sn_buf_puts(out, "#!/bin/sh\n# supernode export k8s: label every node "
                     "with its scale-up (NVLink) domain, as\n# "
                     "nvidia.com/gpu.clique names the NVLink partition; "
                     "use the key as a pod-affinity topologyKey\n");
    if (!*multi) {
        sn_buf_puts(out, "# every scale-up domain of this design is one node: "
                         "no labels to set\n");
        return SN_OK;
    }
    sn_buf_puts(out, "set -e\n");
    for (int sn = 0; sn < s->supernodes; sn++)
        for (int v = 0; v < per; v++) {
            sn_buf_printf(out, "kubectl label node --overwrite %s %s=",
                          hosts[sn * per + v], SN_K8S_CLIQUE_LABEL);
            put_label_value(out, s->name, (uint32_t)sn);
            sn_buf_putc(out, '\n');
        }
    return SN_OK;
}
