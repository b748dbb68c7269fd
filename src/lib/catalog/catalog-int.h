/* catalog-int.h: what the built-in catalog's table files
 * (catalog-accels.c, catalog-parts.c, catalog-models.c) share with
 * catalog.c, which assembles them: the unit shorthands of the tables and
 * each table with its length.
 *
 * To add a built-in entry: its struct and a pointer in its file's table,
 * and one more in the count here (a static assertion there says when the
 * two differ). */
#ifndef SN_CATALOG_INT_H
#define SN_CATALOG_INT_H

#if !defined(SN_MODULE_catalog) && !defined(SN_TESTS)
#error "private to src/lib/catalog (tests/layers/table)"
#endif

#include "sn/catalog.h"

/* Shorthands for the unit arithmetic in the tables below. */
#define TF 1e12       /* TFLOP/s */
#define GB 1e9        /* bytes, or bytes/s per direction */
#define MIB 1048576.0 /* the MiB nvidia-smi counts memory in */
#define TBS 1e12
#define GBPS (1e9 / 8) /* one Gb/s in bytes/s */

/* Accelerators spike to 120-130 % of TDP under load; the planner takes
 * the top of that range (DOMAIN.md, field practice) [E]. */
#define TRANSIENT 1.3
/* Node power over accelerator power for an 8-accelerator server: DGX H100
 * 10.2 kW / (8 x 700 W) = 1.82, DGX B200 14.3 kW / (8 x 1000 W) = 1.79
 * (hardware-catalog.md section 4.1) [D]. */
#define OVERHEAD_8GPU 1.8

#define SN__CATALOG_NACCELS 28
#define SN__CATALOG_NSWITCHES 8
#define SN__CATALOG_NNICS 4
#define SN__CATALOG_NCABLES 14
#define SN__CATALOG_NMODELS 28

extern const struct sn_accel_info *const sn__catalog_accels[];
extern const struct sn_switch_info *const sn__catalog_switches[];
extern const struct sn_nic_info *const sn__catalog_nics[];
extern const struct sn_cable_info *const sn__catalog_cables[];
extern const struct sn_model_info *const sn__catalog_models[];

#endif
