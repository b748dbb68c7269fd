/* spec-fixtures.h: specs built in C for the topology and plan tests: the
 * switches of a small test catalog and the fields every such spec
 * shares, so that each test states only what its design is about. */
#ifndef SN_TEST_SPEC_FIXTURES_H
#define SN_TEST_SPEC_FIXTURES_H

#include "sn/spec.h"

/* 64-port scale-up chip, two per 1U tray (NVSwitch-like) */
extern const struct sn_switch_info fx_chip64;
/* 64-port 400G InfiniBand switch (QM9700-like), 1U */
extern const struct sn_switch_info fx_ib64;

/* s zeroed, then named file and name (borrowed), with accelerator accel
 * (borrowed), 8 a node, 25 GB/s copper scale-up links, 50 GB/s NICs and
 * racks of 4 nodes of 8 units. No fabric, no network. */
void fx_spec_base(struct sn_spec *s, const char *file, const char *name,
                  const struct sn_accel_info *accel);

#endif
