/* coll-int.h: the collective model's insides, shared by its files
 * (coll.c builds the model and its groups, coll-pattern.c the patterns'
 * bandwidth, coll-algo.c the algorithms and the prediction) and lent to
 * the rest of the model module: pairs.c reads the flow network,
 * parameters, domains and topology through the sn__coll_ accessors. All
 * borrowed from the model; valid while it lives. (internal)
 */
#ifndef SN_MODEL_COLL_INT_H
#define SN_MODEL_COLL_INT_H

#if !defined(SN_MODULE_net) && !defined(SN_TESTS)
#error "private to src/lib/net (tests/layers/table)"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "hmap.h"
#include "sn/coll.h"

/* PAT_POD: on each rail, a ring among the domains of every pod;
 * PAT_XPOD: on each rail, a ring through the pods (three-level). */
enum pat {
    PAT_RING,
    PAT_INTRA,
    PAT_RAIL,
    PAT_SR,
    PAT_A2A,
    PAT_POD,
    PAT_XPOD,
    PAT_COUNT
};

/* What one pattern's step gives: bw is the per-rank bandwidth of the
 * step (bytes/s a rank moves through its flows of the step), wire the
 * largest wire latency of a flow. */
struct patres {
    bool done;
    bool empty; /* no flows (a domain of one rank) */
    bool flows; /* from the flow engine */
    double bw;
    double t_unit;  /* alltoall: seconds per byte per flow */
    double wire;    /* largest wire latency of a flow */
    double wire_in; /* of a flow inside one domain */
    int cls;
};

struct grp {
    uint64_t key;
    uint32_t n, sib;
    uint32_t first, stride; /* the shape, when not a list */
    bool list;
    uint32_t *ranks; /* sib groups of n ranks, one after another */
    /* group 0's domains in order of first appearance */
    uint32_t m;
    uint32_t *doff;  /* m + 1 offsets into dlist */
    uint32_t *dlist; /* ranks of each domain, in group order */
    uint32_t gmin, gmax;
    bool regular;
    int intra_cls; /* scale-up, or host when the ranks have none */
    /* pods of group 0 (three-level): domains whose ranks enter the
     * network at the same switches, index by index */
    uint32_t npods; /* pods found (0: not looked for or no exits) */
    uint32_t pod_rmin, pod_rmax; /* the group's domains per pod */
    uint32_t pod_r;              /* domains per pod when three-level applies */
    uint32_t *porder;            /* m domain indices, pod by pod (NULL: does not
                                    apply) */
    bool pod_noexit;             /* a rank has no network switch behind it */
    double up_min, nvls_min, nic_min; /* effective, per rank */
    double up_nom, nic_nom, host_nom; /* nominal, per rank */
    struct patres pat[PAT_COUNT];
};

struct sn_coll_model {
    const struct sn_topo *t;
    struct sn_coll_params p;
    struct sn_flownet *fn;
    uint32_t *dom; /* per rank: scale-up domain id */
    uint32_t ndom;
    double *up_cap, *up_nom, *nvls_cap, *nic_cap, *nic_nom, *host_nom;
    uint64_t *exits; /* per rank: the switches its NICs plug into */
    struct hmap grp_of;
    struct grp **grps;
    size_t ngrps, grps_cap;
};

/* The far end of link l from node v. */
static inline uint32_t other_end(const struct sn_link *l, uint32_t v)
{
    return l->a == v ? l->b : l->a;
}

/* The cached group for g with sib siblings (coll.c), built on first use;
 * *out is owned by m. SN_EINPUT for ranks outside the topology. */
int sn__coll_grp_get(struct sn_coll_model *m, const struct sn_group *g,
                     uint32_t sib, struct grp **out, struct sn_error *err);
/* Pattern p of group G (coll-pattern.c), evaluated on first use and
 * cached in G; *out points into G. */
int sn__coll_pat_get(struct sn_coll_model *m, struct grp *G, enum pat p,
                     const struct patres **out, struct sn_error *err);

struct sn_flownet *sn__coll_flownet(struct sn_coll_model *m);
const struct sn_coll_params *sn__coll_params(const struct sn_coll_model *m);
uint32_t sn__coll_domain(const struct sn_coll_model *m, uint32_t rank);
const struct sn_topo *sn__coll_topo(const struct sn_coll_model *m);

#endif
