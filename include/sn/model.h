/* model.h: every prediction model. Each has its own header, named by its
 * prefix: coll.h (sn_coll_), expect.h (sn_expect_), pairs.h (sn_pair_,
 * sn_pairs_), train.h (sn_train_, sn_model_, sn_dtype_), goodput.h
 * (sn_goodput_), infer.h (sn_infer_), validate.h (sn_validate_),
 * sweep.h (sn_sweep_). Include the one you need; this header includes
 * them all.
 */
#ifndef SN_MODEL_H
#define SN_MODEL_H

#include "sn/coll.h"
#include "sn/expect.h"
#include "sn/goodput.h"
#include "sn/infer.h"
#include "sn/pairs.h"
#include "sn/sweep.h"
#include "sn/train.h"
#include "sn/validate.h"

#endif
