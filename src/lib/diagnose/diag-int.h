/* diag-int.h: what the files of the diagnose module share. */
#ifndef SN_DIAG_INT_H
#define SN_DIAG_INT_H

#include "sn/diagnose.h"

/* How likely a link is a priori to be the one at fault (relative). */
double sn__diag_link_prior(const struct sn_topo *t, uint32_t link);

#endif
