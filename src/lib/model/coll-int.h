/* coll-int.h: what the collective model lends to the rest of the model
 * module (internal): pairs.c reads its flow network, parameters, domains
 * and topology. All borrowed from the model; valid while it lives.
 */
#ifndef SN_MODEL_COLL_INT_H
#define SN_MODEL_COLL_INT_H

#include <stdint.h>

#include "sn/coll.h"

struct sn_flownet *sn__coll_flownet(struct sn_coll_model *m);
const struct sn_coll_params *sn__coll_params(const struct sn_coll_model *m);
uint32_t sn__coll_domain(const struct sn_coll_model *m, uint32_t rank);
const struct sn_topo *sn__coll_topo(const struct sn_coll_model *m);

#endif
