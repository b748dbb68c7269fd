/* route-int.h: topo's routing rules, lent to the model's flow engine
 * (model/flow-*.c) so that its routes take the hops and costs that
 * sn_topo_paths() takes (internal; the public API is sn/topo.h). */
#ifndef SN_TOPO_ROUTE_INT_H
#define SN_TOPO_ROUTE_INT_H

#if !defined(SN_MODULE_topo) && !defined(SN_MODULE_net) && !defined(SN_TESTS)
#error "private to src/lib/topo (tests/layers/table)"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "sn/topo.h"

/* Route cost of a host (PCIe) hop; any other hop costs 1. A host hop costs
 * more than any route has hops, so the order is lexicographic: fewest host
 * hops first, then fewest hops. */
#define SN__TOPO_HOST_COST 64u

/* The route cost of link l. */
static inline uint32_t sn__topo_link_cost(const struct sn_link *l)
{
    return l->cls == SN_LINK_HOST ? SN__TOPO_HOST_COST : 1u;
}

/* May traffic that entered node u over a link of class in leave it over a
 * link of class out? Switches forward within their fabric, NICs between
 * their host link and the network, CPUs (root complexes) host to host,
 * accelerators scale-up to scale-up only where the fabric makes them
 * transit (t->accel_transit). */
bool sn__topo_forwards(const struct sn_topo *t, uint32_t u, int in, int out);

#endif
