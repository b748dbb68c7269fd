/* flow.h: the flow-level engine of the model module (internal). Routes
 * between endpoints follow sn_topo's ECMP rules and split traffic evenly
 * over the next hops at every node (what link striping and per-flow
 * hashing do on average); they are composed from cached segments so that
 * a million flows share a few thousand route pieces. On top: link loads of
 * a step of equal flows and max-min fair rates by progressive filling.
 *
 * Ownership: sn__flownet_new() returns a heap object freed with
 * sn__flownet_free(); it borrows the topology and reads link health once,
 * at creation. Routes filled by sn__flow_route() are caller-owned
 * (sn__route_init/release).
 */
#ifndef SN_MODEL_FLOW_H
#define SN_MODEL_FLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sn/topo.h"
#include "sn/util.h"

struct sn_flownet;

/* Capacities are bw x health x eff[class] per link direction. */
int sn__flownet_new(const struct sn_topo *t,
                    const double eff[SN_LINK_CLASS_COUNT],
                    struct sn_flownet **out, struct sn_error *err);
void sn__flownet_free(struct sn_flownet *fn);
/* The capacity of link direction ld (2 x link + 1 when from b to a). */
double sn__flownet_cap(const struct sn_flownet *fn, uint32_t ld);
/* The scale-up component a node belongs to (links of class scale-up with
 * health > 0); nodes without such links are alone. */
uint32_t sn__flownet_component(const struct sn_flownet *fn, uint32_t node);

/* One route from src to dst: the link directions it crosses with the
 * share of the traffic each carries (a link direction appears once). */
struct sn__route {
    uint32_t *ld;
    double *share;
    size_t n, cap;
    double latency; /* traffic-weighted wire latency, seconds */
    uint32_t hops;  /* links on a shortest route */
};

void sn__route_init(struct sn__route *r);
void sn__route_release(struct sn__route *r);
/* Route src to dst (node ids). SN_ENOTFOUND when unreachable. */
int sn__flow_route(struct sn_flownet *fn, uint32_t src, uint32_t dst,
                   struct sn__route *r, struct sn_error *err);

/* A flow of a step: mult identical flows src -> dst. */
struct sn__flow {
    uint32_t src, dst;
    double mult;
};

/* What a step of equal flows costs: every flow moves one byte; the step
 * ends when the slowest flow does. With equal sizes the max-min rates do
 * not change before a flow ends (a flow's bottleneck carries no faster
 * flow), so the step time is the largest load/capacity over the links. */
struct sn__step {
    double t_unit;       /* seconds per byte per flow */
    double min_rate;     /* bytes/s of the slowest flow */
    uint32_t bottleneck; /* link direction with the largest load/cap, or
                            SN_NONE when the step is empty */
    double latency;      /* largest wire latency over the flows */
    uint32_t max_hops;
};

int sn__flow_step(struct sn_flownet *fn, const struct sn__flow *f, size_t n,
                  struct sn__step *out, struct sn_error *err);
/* The step in which each endpoint (node ids) sends one byte to every
 * other of its block: all-to-all inside each consecutive block of `group`
 * endpoints (0: one block), every block at once. Aggregated by route
 * pieces, so it costs about n x (distinct exit profiles) routes instead
 * of n^2. */
int sn__flow_alltoall(struct sn_flownet *fn, const uint32_t *nodes, size_t n,
                      size_t group, struct sn__step *out, struct sn_error *err);
/* Max-min fair rates (bytes/s per single flow) of concurrent flows by
 * progressive filling: all unfrozen flows grow together; a link that fills
 * freezes every flow crossing it. rates has n entries. */
int sn__flow_rates(struct sn_flownet *fn, const struct sn__flow *f, size_t n,
                   double *rates, struct sn_error *err);

/* One pair alone: the rate one flow gets, the link direction that sets
 * it, the traffic-weighted wire latency and the hops. */
struct sn__pairval {
    double rate;
    uint32_t bottleneck;
    double latency;
    uint32_t hops;
};

int sn__flow_pair(struct sn_flownet *fn, uint32_t src, uint32_t dst,
                  struct sn__pairval *v, struct sn_error *err);

/* Every ordered pair of the endpoints, grouped: pairs inside a scale-up
 * component or a server one by one (count 1); far pairs per (source
 * group, destination group) of endpoints with the same network exits,
 * way in and way out, as one call with their count and the smallest pair
 * in rank order as the example. Wire latencies are not told apart while
 * every pair of a block stays below lat_floor (else the block goes pair
 * by pair). emit(ctx, i, j, count, value), i and j indices into nodes. */
typedef void (*sn__pair_emit)(void *ctx, size_t i, size_t j, uint64_t count,
                              const struct sn__pairval *v);
int sn__flow_pairs_grouped(struct sn_flownet *fn, const uint32_t *nodes,
                           size_t n, double lat_floor, sn__pair_emit emit,
                           void *ctx, struct sn_error *err);

#endif
