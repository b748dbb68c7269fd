/* pairs.h: what each accelerator pair should see (bandwidth, latency, route),
 * one pair at a time or grouped into classes, from the collective model's
 * topology and routes.
 */
#ifndef SN_PAIRS_H
#define SN_PAIRS_H

#include <stddef.h>
#include <stdint.h>

#include "sn/coll.h"

/* What one ordered accelerator pair should see, from its ECMP routes:
 * unidirectional bandwidth (one flow alone, split over the routes as the
 * switches split it), bidirectional (both directions at once), latency of
 * the wire (links, traffic-weighted over the routes) and of a small NCCL
 * send/recv (protocol base and hop latency plus the wire). */
struct sn_pair {
    uint32_t src, dst;      /* ranks */
    double uni_bw;          /* bytes/s */
    double bidi_bw;         /* bytes/s, both directions together */
    double wire_latency;    /* seconds */
    double latency;         /* seconds */
    enum sn_link_class cls; /* class of the pair's bottleneck link */
    uint32_t bottleneck;    /* its link id */
    uint32_t hops;          /* links on the route */
};

/* Predict one pair. */
int sn_pairs_predict(struct sn_coll_model *m, uint32_t src, uint32_t dst,
                     struct sn_pair *out, struct sn_error *err);
/* The links one pair's traffic crosses and the share of it each carries
 * (per-hop ECMP split), in route order from src; link ids and shares are
 * written to caller arrays of max entries; *n is the total (which may
 * exceed max). For localising a slow pair to a cable. */
int sn_pairs_route(struct sn_coll_model *m, uint32_t src, uint32_t dst,
                   uint32_t *links, double *share, size_t max, size_t *n,
                   struct sn_error *err);

/* Pairs grouped into classes of equal expectations (same relation, same
 * values), for large clusters. Heap arrays freed by sn_pair_classes_release. */
enum sn_pair_relation {
    SN_REL_SERVER,  /* same server */
    SN_REL_DOMAIN,  /* same scale-up domain, another server */
    SN_REL_NETWORK, /* across domains */
    SN_REL_COUNT
};
struct sn_pair_class {
    struct sn_pair example; /* the first pair in rank order */
    enum sn_pair_relation rel;
    uint64_t count;
};
struct sn_pair_classes {
    struct sn_pair_class *items;
    size_t n;
    uint64_t pairs;
};
/* Every ordered pair of the first `nranks` ranks (all when 0), grouped.
 * SN_EINPUT beyond SN_PAIRS_MAX ranks. */
#define SN_PAIRS_MAX 16384
int sn_pairs_classes(struct sn_coll_model *m, uint32_t nranks,
                     struct sn_pair_classes *out, struct sn_error *err);
void sn_pair_classes_release(struct sn_pair_classes *c);
const char *sn_pair_relation_name(enum sn_pair_relation r);

#endif
