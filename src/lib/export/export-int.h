/* export-int.h (export, internal): what the export renderers share. */
#ifndef SN_EXPORT_INT_H
#define SN_EXPORT_INT_H

#if !defined(SN_MODULE_export) && !defined(SN_TESTS)
#error "private to src/lib/export (tests/layers/table)"
#endif

#include "sn/topo.h"

/* The number within its node of the CPU device dev hangs from, by a host
 * link directly or through one PCIe switch (PCIe-tree fabrics); 0 when
 * none does. (hostlist.c) */
int sn__export_cpu_index(const struct sn_topo *t, uint32_t dev);

#endif
