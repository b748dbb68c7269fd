/* sn.h: the public API of libsupernode, one header per module. */
#ifndef SN_SN_H
#define SN_SN_H

#include "sn/bench.h"
#include "sn/catalog.h"
#include "sn/export.h"
#include "sn/health.h"
#include "sn/html.h"
#include "sn/model.h"
#include "sn/render.h"
#include "sn/schema.h"
#include "sn/spec.h"
#include "sn/topo.h"
#include "sn/util.h"

#endif
