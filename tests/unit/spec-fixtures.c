/* spec-fixtures.c: see spec-fixtures.h. */
#include <string.h>

#include "spec-fixtures.h"

const struct sn_switch_info fx_chip64 = {
    .name = "test-chip64",
    .scale_up = true,
    .radix = 64,
    .port_bw = 25e9,
    .power_w = 100,
    .chips_per_box = 2,
    .rack_units = 1,
};

const struct sn_switch_info fx_ib64 = {
    .name = "test-ib64",
    .radix = 64,
    .port_bw = 50e9,
    .power_w = 1720,
    .latency = 130e-9,
    .chips_per_box = 1,
    .rack_units = 1,
};

void fx_spec_base(struct sn_spec *s, const char *file, const char *name,
                  const struct sn_accel_info *accel)
{
    memset(s, 0, sizeof(*s));
    s->file = (char *)file;
    s->name = (char *)name;
    s->accel = accel;
    s->scaleup.per_node = 8;
    s->scaleup.link_bw = 25e9;
    s->scaleup.medium = SN_MEDIUM_COPPER;
    s->scaleout.nic_bw = 50e9;
    s->racks.nodes_per_rack = 4;
    s->racks.node_units = 8;
}
