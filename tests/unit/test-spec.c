/* test-spec.c: the spec parser: units in context, every section, defaults,
 * validation with exact file:line:col positions, did-you-mean, overrides
 * with sn_spec_set, and catalog entries added in a spec. */
/* covers: net workload study spec */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "sn/model.h"
#include "sn/spec.h"

static struct sn_error err;

/* Parse text as "t.yaml"; returns the code, the error lands in err. */
static int parse(const char *text, struct sn_spec *s)
{
    sn_error_clear(&err);
    return sn_spec_parse("t.yaml", text, strlen(text), s, &err);
}

/* Parse text that must fail; returns the message. */
static const char *fails(const char *text)
{
    struct sn_spec s;
    int rc = parse(text, &s);

    if (rc == SN_OK) {
        sn_spec_release(&s);
        return "(parsed without error)";
    }
    if (rc != SN_EINPUT)
        return "(wrong code)";
    return err.msg;
}

#define MINIMAL "accelerator: h100-sxm5-80gb\nsupernode: {accelerators: 8}\n"

static void test_default_spec_is_the_seed_64(void)
{
    struct sn_spec s;
    const struct sn_scaleup *u = &s.scaleup;

    REQUIRE(sn_spec_load(NULL, &s, &err) == SN_OK);
    CHECK_STR(s.name, "seed-64");
    CHECK_STR(s.file, SN_SPEC_DEFAULT_NAME);
    CHECK_STR(s.accel->name, "h200-sxm-141gb");
    CHECK(u->accelerators == 64 && u->per_node == 8);
    CHECK(u->fabric == SN_FABRIC_SWITCHED);
    CHECK(u->links_per_accel == 8 && u->planes == 8);
    CHECK_NEAR(u->link_bw, 25e9, 1e-12);
    CHECK_STR(u->sw->name, "nvswitch-gen3");
    CHECK(u->radix == 64 && u->switches_per_plane == 1);
    CHECK(s.scaleout.topology == SN_NET_EXTERNAL);
    CHECK(s.scaleout.nics_per_node == 16);
    CHECK(s.supernodes == 4);
    CHECK(sn_spec_total_accels(&s) == 256);
    CHECK(sn_spec_nodes_per_supernode(&s) == 8);
    /* the design notes: 512 scale-up links and 128 uplinks a supernode */
    CHECK(u->accelerators * u->links_per_accel == 512);
    CHECK(sn_spec_nodes_per_supernode(&s) * s.scaleout.nics_per_node == 128);
    CHECK_STR(s.workload.model->name, "llama3-70b");
    sn_spec_release(&s);
}

static void test_units_are_read_as_people_write_them(void)
{
    struct sn_spec s;
    const char *t = "accelerator: h100-sxm5-80gb\n"
                    "supernode:\n"
                    "  accelerators: 64\n"
                    "  link_rate: 200Gbps\n"
                    "  link_latency: 500ns\n"
                    "scaleout: {nic_rate: 400 Gb/s}\n"
                    "racks: {power_limit: 120kW, row_pitch: 2.5m}\n"
                    "power: {voltage: 0.48kV}\n"
                    "cooling: {delta_t: 8K, liquid_share: 75%}\n"
                    "storage: {checkpoint_interval: 1h, write_window: 5min,\n"
                    "          write_bandwidth: 1.5TB/s}\n"
                    "workload: {params: 70B}\n";

    REQUIRE(parse(t, &s) == SN_OK);
    CHECK_NEAR(s.scaleup.link_bw, 25e9, 1e-12);
    CHECK_NEAR(s.scaleup.link_latency, 500e-9, 1e-12);
    CHECK_NEAR(s.scaleout.nic_bw, 50e9, 1e-12);
    CHECK_NEAR(s.racks.power_limit_w, 120e3, 1e-12);
    CHECK_NEAR(s.racks.row_pitch, 2.5, 1e-12);
    CHECK_NEAR(s.power.voltage, 480, 1e-12);
    CHECK_NEAR(s.cooling.delta_t, 8, 1e-12);
    CHECK_NEAR(s.cooling.liquid_share, 0.75, 1e-12);
    CHECK_NEAR(s.storage.checkpoint_interval, 3600, 1e-12);
    CHECK_NEAR(s.storage.write_window, 300, 1e-12);
    CHECK_NEAR(s.storage.write_bw, 1.5e12, 1e-12);
    /* read bandwidth defaults to twice the write (SuperPOD Table 6) */
    CHECK_NEAR(s.storage.read_bw, 3e12, 1e-12);
    CHECK_NEAR(s.workload.params, 70e9, 1e-12);
    CHECK(s.workload.model == NULL);
    sn_spec_release(&s);
}

static void test_defaults_come_from_the_catalog_and_the_notes(void)
{
    struct sn_spec s;

    REQUIRE(parse(MINIMAL, &s) == SN_OK);
    CHECK_STR(s.name, "unnamed");
    CHECK(s.scaleup.per_node == 8);
    CHECK(s.scaleup.fabric == SN_FABRIC_SWITCHED);
    CHECK(s.scaleup.links_per_accel == 18);
    /* the HGX H100 board: 4 NVSwitch chips, each GPU's 18 links split
     * over them (hardware-catalog.md section 2.1), not one chip a link */
    CHECK(s.scaleup.planes == 1);
    CHECK_NEAR(s.scaleup.link_bw, 25e9, 1e-12); /* 450 GB/s over 18 */
    CHECK(s.scaleup.switches_per_plane == 4);
    CHECK(s.scaleup.in_network_reduction);
    CHECK(s.scaleup.medium == SN_MEDIUM_BOARD); /* one node */
    CHECK(s.supernodes == 1);
    CHECK(s.scaleout.topology == SN_NET_EXTERNAL);
    CHECK(s.scaleout.nics_per_node == 8);
    CHECK_STR(s.scaleout.nic->name, "cx7-400g");
    CHECK(s.racks.nodes_per_rack == 4 && s.racks.node_units == 8);
    CHECK(s.racks.rack_units == 42);
    CHECK_NEAR(s.racks.row_pitch, 0.6, 1e-12);
    CHECK(s.power.feed == SN_FEED_AC_3PH);
    CHECK_NEAR(s.power.voltage, 415, 1e-12);
    CHECK_NEAR(s.power.power_factor, 0.95, 1e-12);
    CHECK_NEAR(s.power.transient_factor, 1.3, 1e-12);
    CHECK_NEAR(s.power.headroom, 1.5, 1e-12);
    CHECK_NEAR(s.power.node_overhead, 1.82, 1e-12);
    CHECK_NEAR(s.power.pue, 1.2, 1e-12);
    CHECK(s.cooling.type == SN_COOL_COLD_PLATE);
    CHECK_NEAR(s.cooling.liquid_share, 0.8, 1e-12);
    CHECK_NEAR(s.cooling.coolant_density, 996, 1e-12);
    CHECK_NEAR(s.cooling.coolant_cp, 4180, 1e-12);
    CHECK_NEAR(s.cooling.air_limit_w, 40e3, 1e-12);
    CHECK(!s.storage.given);
    CHECK_NEAR(s.storage.checkpoint_interval, 1800, 1e-12);
    CHECK_NEAR(s.storage.bytes_per_param, 14, 1e-12);
    CHECK(!s.workload.given);
    CHECK_NEAR(s.workload.train_bytes_per_param, 16, 1e-12);
    sn_spec_release(&s);
}

static void test_cooling_and_power_defaults_follow_the_choices(void)
{
    struct sn_spec s;

    REQUIRE(parse(MINIMAL "cooling: {type: air}\npower: {feed: hvdc}\n", &s) ==
            SN_OK);
    CHECK_NEAR(s.cooling.liquid_share, 0, 1e-12);
    CHECK_NEAR(s.cooling.delta_t, 20, 1e-12);
    CHECK_NEAR(s.power.pue, 1.45, 1e-12);
    CHECK_NEAR(s.power.voltage, 800, 1e-12);
    CHECK_NEAR(s.power.power_factor, 1, 1e-12);
    sn_spec_release(&s);
    REQUIRE(parse(MINIMAL "cooling: {type: immersion, coolant: pg25}\n"
                          "power: {feed: ac-1phase}\n",
                  &s) == SN_OK);
    CHECK_NEAR(s.cooling.liquid_share, 1, 1e-12);
    CHECK_NEAR(s.cooling.coolant_density, 1020, 1e-12);
    CHECK_NEAR(s.cooling.coolant_cp, 3900, 1e-12);
    CHECK_NEAR(s.power.pue, 1.08, 1e-12);
    CHECK_NEAR(s.power.voltage, 240, 1e-12);
    sn_spec_release(&s);
}

static void test_fabrics_take_their_shapes(void)
{
    struct sn_spec s;

    /* MI300X: the catalog's native full mesh of 8 */
    REQUIRE(parse("accelerator: mi300x\nsupernode: {accelerators: 8}\n", &s) ==
            SN_OK);
    CHECK(s.scaleup.fabric == SN_FABRIC_FULL_MESH);
    CHECK(s.scaleup.links_per_accel == 7);
    CHECK_NEAR(s.scaleup.link_bw, 64e9, 1e-12);
    sn_spec_release(&s);
    /* TPU v5p: 4 x 4 x 4 torus with 6 links each */
    REQUIRE(parse("accelerator: tpu-v5p\n"
                  "supernode: {accelerators: 64, torus: [4, 4, 4]}\n",
                  &s) == SN_OK);
    CHECK(s.scaleup.fabric == SN_FABRIC_TORUS && s.scaleup.ndims == 3);
    CHECK(s.scaleup.dims[2] == 4 && s.scaleup.links_per_accel == 6);
    CHECK(s.scaleup.per_node == 4);
    sn_spec_release(&s);
    /* CloudMatrix-style two tiers: 48 nodes x 8, 7 planes, 16 L2 a plane */
    REQUIRE(parse("accelerator: ascend-910c\n"
                  "supernode: {accelerators: 384}\n",
                  &s) == SN_OK);
    CHECK(s.scaleup.tiers == 2 && s.scaleup.planes == 7);
    CHECK(s.scaleup.links_per_accel == 14);
    CHECK(s.scaleup.switches_per_plane == 16);
    sn_spec_release(&s);
    /* partial mesh in groups of 4: 3 links inside, 1 to each of the 3
     * other groups */
    REQUIRE(parse("accelerator: h100-sxm5-80gb\n"
                  "supernode: {accelerators: 16, fabric: partial_mesh,\n"
                  "            links_per_accelerator: 6, group: 4}\n",
                  &s) == SN_OK);
    CHECK(s.scaleup.group == 4);
    sn_spec_release(&s);
    /* PCIe tree: one node, x16 links at PCIe 5.0 */
    REQUIRE(parse("accelerator: h100-sxm5-80gb\n"
                  "supernode: {accelerators: 8, fabric: pcie_tree}\n",
                  &s) == SN_OK);
    CHECK(s.scaleup.links_per_accel == 1);
    CHECK_NEAR(s.scaleup.link_bw, 63e9, 1e-12);
    CHECK(s.scaleup.group == 8 && s.scaleup.switches_per_plane == 1);
    sn_spec_release(&s);
    /* one accelerator per supernode: no fabric at all */
    REQUIRE(parse("accelerator: h100-sxm5-80gb\n"
                  "supernode: {accelerators: 1}\nsupernodes: 16\n",
                  &s) == SN_OK);
    CHECK(s.scaleup.fabric == SN_FABRIC_NONE && s.scaleup.per_node == 1);
    CHECK(s.scaleup.links_per_accel == 0);
    sn_spec_release(&s);
}

/* Two tiers: the fewest L2 chips that fit both chips' ports. 7 nodes of 7
 * links down on 14-port chips: 4 L2 chips would take 2 links a node but
 * leave the L1 chip 7 down and 8 up (15 ports); 7 take 1 each and leave
 * 7 up. The validator used to stop at 4 and refuse the spec. */
static void test_two_tiers_take_the_l2_chips_that_fit_both_tiers(void)
{
    struct sn_spec s;
    struct sn_fat_tree_fit fit;

    CHECK(sn_scaleup_chips_two_tiers(7, 7, 14) == 7);
    /* a plane's 7 links per node over 4 chips: 2 each, 8 up */
    CHECK(sn_scaleup_chips_two_tiers(7, 7, 15) == 4);
    /* 2 nodes, 13 ports: no count leaves the L1 chip room for 7 down
     * and its up links; the fewest the L2 chips allow (2: 4 links a
     * node), so the L1 check names what they need */
    CHECK(sn_scaleup_chips_two_tiers(2, 7, 13) == 2);
    /* no L2 chip takes 20 nodes: down, for the L2 check to refuse */
    CHECK(sn_scaleup_chips_two_tiers(20, 7, 14) == 7);
    REQUIRE(parse("accelerator: h100-sxm5-80gb\n"
                  "supernode: {accelerators: 49, per_node: 7, tiers: 2,\n"
                  "            links_per_accelerator: 1, planes: 1,\n"
                  "            radix: 14}\n",
                  &s) == SN_OK);
    CHECK(s.scaleup.switches_per_plane == 7);
    sn_spec_release(&s);
    /* one tier: 72 accelerators x 18 links over 18 planes of 72-port
     * chips (NVL72: 1 chip a plane); NVL36x2 doubles for the trunks */
    CHECK(sn_scaleup_chips_one_tier(72, 1, 1, 72) == 1);
    CHECK(sn_scaleup_chips_one_tier(36, 2, 2, 72) == 2);
    CHECK(sn_scaleup_chip_ports(36, 2, 2, 2) == 72);
    /* fat tree: 1,024 servers x 8 NICs on 64-port switches, 1:1:
     * 32 down a leaf, 256 leaves, three tiers; one switch per rail
     * fits one tier only when asked for */
    sn_fat_tree_fit(64, 1, 1024, 8, false, &fit);
    CHECK(fit.split && fit.down == 32 && fit.leaves == 256);
    CHECK(!fit.fits[0] && !fit.fits[1] && fit.fits[2] && fit.tiers == 3);
    sn_fat_tree_fit(64, 1, 32, 8, true, &fit);
    CHECK(fit.fits[0] && fit.tiers == 2 && fit.leaves == 8);
    /* 64 x 0.01 / 1.01 leaves no port down: kept at one, and said */
    sn_fat_tree_fit(64, 0.01, 32, 8, false, &fit);
    CHECK(!fit.split && fit.down == 1);
}

static void test_scaleout_fat_tree_sizes_its_tiers(void)
{
    struct sn_spec s;
    const char *t = "accelerator: h100-sxm5-80gb\n"
                    "supernode: {accelerators: 8}\n"
                    "supernodes: %d\n"
                    "scaleout: {topology: rail_fat_tree%s}\n";
    char buf[512];

    /* 32 nodes x 8 = 256 ports: two tiers of QM9700 (2,048 at most) */
    snprintf(buf, sizeof(buf), t, 32, "");
    REQUIRE(parse(buf, &s) == SN_OK);
    CHECK_STR(s.scaleout.sw->name, "qm9700");
    CHECK(s.scaleout.radix == 64 && s.scaleout.tiers == 2);
    CHECK_NEAR(s.scaleout.oversubscription, 1, 1e-12);
    sn_spec_release(&s);
    /* 512 nodes x 8 = 4,096 ports: three tiers (k^3/4 = 65,536) */
    snprintf(buf, sizeof(buf), t, 512, "");
    REQUIRE(parse(buf, &s) == SN_OK);
    CHECK(s.scaleout.tiers == 3);
    sn_spec_release(&s);
    /* 2:1 leaves take 42 down: 64 x 42 = 2,688 fits two tiers */
    snprintf(buf, sizeof(buf), t, 320, ", oversubscription: \"2:1\"");
    REQUIRE(parse(buf, &s) == SN_OK);
    CHECK_NEAR(s.scaleout.oversubscription, 2, 1e-12);
    CHECK(s.scaleout.tiers == 2);
    sn_spec_release(&s);
    /* 800G NICs default to the 144-port XDR box */
    snprintf(buf, sizeof(buf), t, 4, ", nic: cx8-800g");
    REQUIRE(parse(buf, &s) == SN_OK);
    CHECK_STR(s.scaleout.sw->name, "quantum-x800-q3400");
    sn_spec_release(&s);
}

static void test_scaleout_explicit_lists_switches_and_links(void)
{
    struct sn_spec s;
    const char *t = "accelerator: h100-sxm5-80gb\n"
                    "supernode: {accelerators: 8}\n"
                    "supernodes: 4\n"
                    "scaleout:\n"
                    "  topology: explicit\n"
                    "  nics_per_node: 1\n"
                    "  nic_rate: 1Gbps\n"
                    "  switches:\n"
                    "    - {name: leaf0, nodes: [0, 1]}\n"
                    "    - {name: leaf1, nodes: [2, 3], tier: 0}\n"
                    "    - {name: spine, tier: 1}\n"
                    "  links:\n"
                    "    - {between: [leaf0, spine], count: 2}\n"
                    "    - {between: [leaf1, spine], rate: 10Gbps}\n";

    REQUIRE(parse(t, &s) == SN_OK);
    CHECK(s.scaleout.nswitches == 3 && s.scaleout.nlinks == 2);
    CHECK(s.scaleout.switches[1].nnodes == 2);
    CHECK(s.scaleout.switches[1].nodes[1] == 3);
    CHECK(s.scaleout.switches[2].tier == 1);
    CHECK(s.scaleout.links[0].a == 0 && s.scaleout.links[0].b == 2);
    CHECK(s.scaleout.links[0].count == 2);
    CHECK_NEAR(s.scaleout.links[0].bw, 0, 1e-12);
    CHECK_NEAR(s.scaleout.links[1].bw, 1.25e9, 1e-12);
    CHECK(s.scaleout.links[1].pos.line == 14);
    CHECK(s.scaleout.nic == NULL);
    CHECK_NEAR(s.scaleout.nic_bw, 0.125e9, 1e-12);
    sn_spec_release(&s);
}

static void test_errors_name_file_line_and_column(void)
{
    CHECK_STR(fails("accelerator: h100-sxm5-80gb\n"
                    "supernode:\n"
                    "  acelerators: 64\n"),
              "t.yaml:3:3: unknown key 'acelerators' in supernode (did you "
              "mean 'accelerators'?)");
    CHECK_STR(fails("accelerator: h100-sxm5-80gb\n"
                    "supernode:\n"
                    "  accelerators: 0\n"),
              "t.yaml:3:17: supernode.accelerators: 0 is out of range "
              "(expected a whole number from 1 to 100000)");
    CHECK_STR(fails("accelerator: h100-sxm5-80gb\n"
                    "supernode: {accelerators: [64]}\n"),
              "t.yaml:2:27: supernode.accelerators is a list (expected a "
              "single value)");
    CHECK_STR(fails("accelerator: h100\nsupernode: {accelerators: 8}\n"),
              "t.yaml:1:14: unknown accelerator 'h100' (did you mean "
              "'h100-sxm5-80gb'?)");
    CHECK_STR(fails("accelerator: h200-sxm-14gb\n"
                    "supernode: {accelerators: 8}\n"),
              "t.yaml:1:14: unknown accelerator 'h200-sxm-14gb' (did you "
              "mean 'h200-sxm-141gb'?)");
    CHECK_STR(fails("accelerator: h100-sxm5-80gb\n"
                    "supernode: {accelerators: 12, per_node: 8}\n"),
              "t.yaml:2:41: supernode.accelerators 12 is not a multiple of "
              "per_node 8 (expected whole nodes)");
    CHECK_STR(fails("accelerator: h100-sxm5-80gb\n"
                    "supernode: {accelerators: 8}\n"
                    "power: {feed: hvdc, power_factor: 0.9}\n"),
              "t.yaml:3:35: power.power_factor does not apply to an hvdc "
              "feed");
    CHECK_STR(fails("accelerator: h100-sxm5-80gb\n"
                    "supernode: {accelerators: 8}\n"
                    "cooling: {type: cold-plate}\n"),
              "t.yaml:3:17: unknown cooling.type 'cold-plate' (did you mean "
              "'cold_plate'?)");
}

static void test_rejects_counts_that_do_not_fit(void)
{
    /* 128 accelerators x 8 links in one plane need 16 chips of 64 */
    CHECK_CONTAINS(fails("accelerator: h100-sxm5-80gb\n"
                         "supernode: {accelerators: 128, "
                         "links_per_accelerator: 8, switches_per_plane: 1}\n"),
                   "t.yaml:2:78: 1 nvswitch-gen3 chips of 64 ports per plane "
                   "cannot take the 1024 links of each plane (expected at "
                   "least 16)");
    CHECK_CONTAINS(fails("accelerator: h100-sxm5-80gb\n"
                         "supernode: {accelerators: 8, "
                         "links_per_accelerator: 24}\n"),
                   "t.yaml:2:53: supernode.links_per_accelerator 24 exceeds "
                   "the 18 scale-up links");
    CHECK_CONTAINS(fails("accelerator: h100-sxm5-80gb\n"
                         "supernode: {accelerators: 8, planes: 4}\n"),
                   "cannot be spread evenly over 4 planes");
    CHECK_CONTAINS(fails("accelerator: h100-sxm5-80gb\n"
                         "supernode: {accelerators: 8, link_rate: 100GB/s}\n"),
                   "18 links x 100 GB/s exceed the h100-sxm5-80gb scale-up "
                   "bandwidth of 450 GB/s");
    CHECK_CONTAINS(fails("accelerator: mi300x\n"
                         "supernode: {accelerators: 8, "
                         "links_per_accelerator: 6}\n"),
                   "a full mesh of 8 accelerators needs links per "
                   "accelerator in multiples of its 7 peers");
    CHECK_CONTAINS(fails("accelerator: tpu-v5p\n"
                         "supernode: {accelerators: 64, torus: [4, 4, 2]}\n"),
                   "t.yaml:2:38: supernode.torus holds 32 accelerators");
    CHECK_CONTAINS(fails("accelerator: h100-sxm5-80gb\n"
                         "supernode: {accelerators: 512}\n"),
                   "exceeds the 256 the h100-sxm5-80gb joins in one "
                   "scale-up domain");
    CHECK_CONTAINS(fails("accelerator: tpu-v5p\n"
                         "supernode: {accelerators: 200, torus: [10, 10, 2]}\n"
                         "supernodes: 60000\n"),
                   "t.yaml:3:13: 60000 supernodes of 200 accelerators are "
                   "12000000 accelerators (at most 10000000)");
    /* one tier: each accelerator reaches every chip of its plane */
    CHECK_CONTAINS(fails("accelerator: h100-sxm5-80gb\n"
                         "supernode: {accelerators: 128, "
                         "links_per_accelerator: 8}\n"),
                   "t.yaml:2:27: 128 accelerators need 16 nvswitch-gen3 chips "
                   "per plane, but each has only 8 links in a plane");
    CHECK_CONTAINS(fails("accelerator: h100-sxm5-80gb\n"
                         "supernode: {accelerators: 16, fabric: partial_mesh,"
                         "\n            links_per_accelerator: 4, group: 4}\n"),
                   "t.yaml:3:36: 4 links per accelerator leave 1 for the "
                   "links between 4 groups");
    CHECK_CONTAINS(fails(MINIMAL "racks: {nodes_per_rack: 6}\n"),
                   "t.yaml:3:25: 6 nodes of 8U do not fit in a 42U rack");
    CHECK_CONTAINS(fails(MINIMAL "storage: {checkpoint_interval: 10min, "
                                 "write_window: 20min}\n"),
                   "storage.write_window 20min is longer than the "
                   "checkpoint interval");
    CHECK_CONTAINS(fails(MINIMAL "scaleout: {topology: external, tiers: 2}\n"),
                   "t.yaml:3:32: scaleout.tiers applies only to topology "
                   "fat_tree or rail_fat_tree");
    CHECK_CONTAINS(fails(MINIMAL "supernodes: 1000\n"
                                 "scaleout: {topology: fat_tree, tiers: 2}\n"),
                   "8000 NIC ports do not fit in 2 tiers of 64-port switches");
    CHECK_CONTAINS(fails(MINIMAL "supernodes: 4\n"
                                 "scaleout:\n"
                                 "  topology: explicit\n"
                                 "  switches: [{name: a, nodes: [0, 4]}]\n"),
                   "t.yaml:6:35: scaleout.switches[0].nodes: 4 is out of "
                   "range (expected a whole number from 0 to 3)");
    CHECK_CONTAINS(fails(MINIMAL "scaleout:\n"
                                 "  topology: explicit\n"
                                 "  switches: [{name: leaf0}, {name: spine}]\n"
                                 "  links: [{between: [leaf0, spien]}]\n"),
                   "t.yaml:6:29: scaleout.links[0]: unknown switch 'spien' "
                   "(did you mean 'spine'?)");
}

static void test_rejects_bytes_syntax_and_empty_input(void)
{
    struct sn_spec s;
    const char bin[] = "accelerator: h100\x01\n";

    CHECK_STR(fails(""), "t.yaml:1:1: the spec is empty (expected a mapping "
                         "with at least 'accelerator' and 'supernode')");
    CHECK_STR(fails("# only a comment\n"),
              "t.yaml:1:1: the spec is empty (expected a mapping with at "
              "least 'accelerator' and 'supernode')");
    CHECK_CONTAINS(fails("accelerator: [h100\nsupernode: 1\n"), "t.yaml:2:");
    CHECK_CONTAINS(fails("- a\n- b\n"), "t.yaml:1:1: the spec is a list");
    CHECK(parse(bin, &s) == SN_EINPUT);
    CHECK_STR(err.msg, "t.yaml:1:18: byte 0x01 is not text (expected UTF-8 "
                       "YAML)");
    CHECK_STR(fails("name: x\xff\n"), "t.yaml:1:8: byte 0xff is not valid "
                                      "UTF-8 (expected UTF-8 text)");
    CHECK_STR(fails("name: ab\xc2\x90\n"),
              "t.yaml:1:9: character U+0090 is not printable (expected YAML "
              "text)");
    CHECK_STR(fails("a: 1\nb: \xef\xbf\xbe\n"),
              "t.yaml:2:4: character U+FFFE is not printable (expected YAML "
              "text)");
    CHECK_STR(fails("name: \xed\xa0\x80\n"),
              "t.yaml:1:7: byte 0xed is not valid UTF-8 (expected UTF-8 "
              "text)");
    CHECK_CONTAINS(fails("a: &x 1\nb: *x\n"), "t.yaml:2:4: aliases");
    CHECK_CONTAINS(fails(MINIMAL "supernodes: 2\nsupernodes: 3\n"),
                   "t.yaml:4:1: duplicate key 'supernodes'");
}

static void test_sections_owned_elsewhere_are_kept(void)
{
    struct sn_spec s;
    const struct sn_yaml *sec;

    REQUIRE(parse(MINIMAL "collectives: {nvls_efficiency: 0.85}\n"
                          "node: {gpus: 8}\n",
                  &s) == SN_OK);
    sec = sn_spec_section(&s, "collectives");
    REQUIRE(sec != NULL);
    CHECK(sec->type == SN_YAML_MAP);
    CHECK_STR(sn_yaml_get(sec, "nvls_efficiency")->value, "0.85");
    CHECK(sn_spec_section(&s, "reliability") == NULL);
    sn_spec_release(&s);
    CHECK_STR(fails(MINIMAL "reliability: 3\n"),
              "t.yaml:3:14: reliability is a single value (expected a "
              "mapping of keys)");
}

static void test_set_overrides_and_revalidates(void)
{
    struct sn_spec s;
    uint64_t h;

    REQUIRE(sn_spec_load(NULL, &s, &err) == SN_OK);
    h = s.hash;
    CHECK(sn_spec_set(&s, "supernode.accelerators", "32", &err) == SN_OK);
    CHECK(s.scaleup.accelerators == 32);
    CHECK(sn_spec_total_accels(&s) == 128);
    CHECK(s.hash != h);
    CHECK(sn_spec_set(&s, "supernode.planes", "4", &err) == SN_OK);
    CHECK(s.scaleup.planes == 4 && s.scaleup.switches_per_plane == 1);
    /* 128 accelerators cannot share one tier of 64-port chips */
    CHECK(sn_spec_set(&s, "supernode.accelerators", "128", &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "128 accelerators need 4 nvswitch-gen3 chips per "
                            "plane, but each has only 2 links");
    CHECK(s.scaleup.accelerators == 32);
    /* with L1 chips on the nodes and L2 chips per plane they can: 16 nodes
     * x 16 links a plane over 4 L2 chips of 64 ports */
    CHECK(sn_spec_set(&s, "supernode.tiers", "2", &err) == SN_OK);
    CHECK(sn_spec_set(&s, "supernode.accelerators", "128", &err) == SN_OK);
    CHECK(s.scaleup.tiers == 2 && s.scaleup.switches_per_plane == 4);
    CHECK(sn_spec_set(&s, "supernode.tiers", "1", &err) == SN_EINPUT);
    CHECK(s.scaleup.tiers == 2 && s.scaleup.accelerators == 128);
    CHECK(sn_spec_set(&s, "supernode.accelerators", "32", &err) == SN_OK);
    CHECK(sn_spec_set(&s, "supernode.tiers", "1", &err) == SN_OK);
    /* a value that does not validate leaves the spec as it was */
    CHECK(sn_spec_set(&s, "supernode.accelerators", "0", &err) == SN_EINPUT);
    CHECK_STR(err.msg, "<default>: supernode.accelerators: 0 is out of range "
                       "(expected a whole number from 1 to 100000) (after "
                       "--set supernode.accelerators=0)");
    CHECK(s.scaleup.accelerators == 32);
    /* a conflict with a value in the file points at the file */
    CHECK(sn_spec_set(&s, "supernode.accelerators", "12", &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "<default>:13:13: supernode.accelerators 12 is "
                            "not a multiple of per_node 8");
    /* new keys and new sections */
    CHECK(sn_spec_set(&s, "storage.bytes_per_param", "12", &err) == SN_OK);
    CHECK_NEAR(s.storage.bytes_per_param, 12, 1e-12);
    CHECK(sn_spec_set(&s, "workload.model", "llama3-8b", &err) == SN_OK);
    CHECK_STR(s.workload.model->name, "llama3-8b");
    CHECK(sn_spec_set(&s, "supernode.link_rate", "20GB/s", &err) == SN_OK);
    CHECK_NEAR(s.scaleup.link_bw, 20e9, 1e-12);
    CHECK(sn_spec_set(&s, "supernod.accelerators", "8", &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "unknown key 'supernod' in the spec (did you mean "
                            "'supernode'?)");
    CHECK(sn_spec_set(&s, "supernodes.x", "8", &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "'supernodes' is a single value, not a section");
    CHECK(sn_spec_set(&s, "..", "8", &err) == SN_EINPUT);
    /* after all that the spec still holds the last good values */
    CHECK(s.scaleup.accelerators == 32 && s.supernodes == 4);
    CHECK(sn_spec_set(&s, "supernode.torus", "[4, 4, 8]", &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "supernode.torus applies only to fabric torus");
    sn_spec_release(&s);
}

static void test_catalog_section_adds_and_overrides_entries(void)
{
    struct sn_spec s;
    const struct sn_accel_info *h100;
    const char *t =
        "catalog:\n"
        "  switches:\n"
        "    - {name: my-switch, scale_up: true, radix: 32,\n"
        "       port_bandwidth: 50GB/s}\n"
        "  accelerators:\n"
        "    - {name: my-npu, bf16: 500TFLOPS, hbm: 96GB,\n"
        "       hbm_bandwidth: 2TB/s, scaleup_links: 8,\n"
        "       scaleup_bandwidth: 400GB/s, tdp: 600W, switch: my-switch}\n"
        "    - {name: h100-sxm5-80gb, tdp: 650W}\n"
        "  models:\n"
        "    - {name: half-70b, base: llama3-70b, layers: 40}\n"
        "accelerator: my-npu\n"
        "supernode: {accelerators: 32}\n"
        "workload: {model: half-70b}\n";

    REQUIRE(parse(t, &s) == SN_OK);
    CHECK_STR(s.accel->name, "my-npu");
    CHECK(s.accel->confidence == SN_CONF_USER);
    CHECK_CONTAINS(s.accel->source, "spec t.yaml line 6");
    CHECK_STR(s.scaleup.sw->name, "my-switch");
    CHECK(s.scaleup.links_per_accel == 8 && s.scaleup.radix == 32);
    CHECK_NEAR(s.scaleup.link_bw, 50e9, 1e-12);
    h100 = sn_catalog_accel(&s.catalog, "h100-sxm5-80gb");
    REQUIRE(h100 != NULL);
    CHECK_NEAR(h100->tdp_w, 650, 1e-12);
    CHECK_NEAR(h100->bf16_flops, 989.4e12, 1e-12); /* kept from built-in */
    CHECK(sn_catalog_accel(sn_catalog_builtin(), "h100-sxm5-80gb")->tdp_w ==
          700);
    CHECK(s.catalog.naccels == sn_catalog_builtin()->naccels + 1);
    /* half the layers of Llama 3 70B, counted from the shape: 40 x
     * (attention 2h^2 + 2h kv h/heads, SwiGLU 3 h ffn) + 2 V h */
    CHECK_NEAR(
        s.workload.model->params,
        40 * (2.0 * 8192 * 8192 + 2.0 * 8192 * 8 * 128 + 3.0 * 8192 * 28672) +
            2.0 * 128256 * 8192,
        1e-12);
    sn_spec_release(&s);
    CHECK_CONTAINS(fails("catalog:\n  accelerators:\n"
                         "    - {name: x, bf16: 1TFLOPS}\n"
                         "accelerator: x\nsupernode: {accelerators: 1}\n"),
                   "t.yaml:3:7: catalog.accelerators[0] has no 'hbm'");
    CHECK_CONTAINS(fails("catalog:\n  nics:\n"
                         "    - {name: n, base: cx7-40g}\n" MINIMAL),
                   "t.yaml:3:23: unknown nic 'cx7-40g' in catalog.nics[0].base "
                   "(did you mean 'cx7-400g'?)");
}

static void test_inline_accelerator_and_model(void)
{
    struct sn_spec s;
    const char *t = "accelerator: {base: h100-sxm5-80gb, tdp: 600W}\n"
                    "supernode: {accelerators: 8}\n"
                    "workload:\n"
                    "  model: {layers: 24, hidden: 2304, heads: 24,\n"
                    "          vocab: 51200}\n";

    REQUIRE(parse(t, &s) == SN_OK);
    CHECK_STR(s.accel->name, "h100-sxm5-80gb");
    CHECK_NEAR(s.accel->tdp_w, 600, 1e-12);
    CHECK(s.accel->confidence == SN_CONF_USER);
    /* Megatron's GPT 1.7B shape: 12 l h^2 + V h = 1.65e9 */
    CHECK_NEAR(s.workload.model->params,
               12.0 * 24 * 2304 * 2304 + 51200.0 * 2304, 1e-9);
    CHECK(s.workload.model->ffn == 4 * 2304);
    sn_spec_release(&s);
    CHECK_CONTAINS(fails("accelerator: {base: h100-sxm5-80gb}\n"
                         "supernode: {accelerators: 8}\n"
                         "workload: {model: {layers: 2, hidden: 100, "
                         "heads: 3, vocab: 10}}\n"),
                   "t.yaml:3:51: workload.model: hidden 100 is not a multiple "
                   "of heads 3");
}

/* A custom MoE model takes the preset's fields: MLA dimensions, dense
 * layers, shared expert size, windows, MTP, aliases; its count comes from
 * them (DeepSeek-V2-Lite's shape, 15.7B published). */
static void test_inline_moe_model_takes_the_new_keys(void)
{
    struct sn_spec s;
    double t, a;
    const char *t_yaml =
        "accelerator: h100-sxm5-80gb\n"
        "supernode: {accelerators: 8}\n"
        "workload:\n"
        "  model: {name: lite, layers: 27, hidden: 2048, heads: 16,\n"
        "          vocab: 102400, ffn: 1408, dense_ffn: 10944,\n"
        "          gated_mlp: true, tied_embeddings: false, experts: 64,\n"
        "          topk: 6, shared_experts: 2, attention: mla,\n"
        "          kv_lora_rank: 512, qk_nope_head_dim: 128,\n"
        "          qk_rope_head_dim: 64, v_head_dim: 128, dense_layers: 1,\n"
        "          window: 4096, window_every: 2, mtp_layers: 1,\n"
        "          aliases: 'lite-a, lite-b'}\n";

    REQUIRE(parse(t_yaml, &s) == SN_OK);
    CHECK(s.workload.model->attention == SN_ATTN_MLA);
    CHECK(s.workload.model->dense_layers == 1);
    CHECK(s.workload.model->moe_layers == 26); /* from the pattern */
    CHECK(s.workload.model->window == 4096);
    CHECK_STR(s.workload.model->aliases, "lite-a, lite-b");
    sn_model_params(s.workload.model, &t, &a);
    CHECK(fabs(s.workload.model->params / 15.7e9 - 1) < 0.01);
    CHECK(sn_model_mtp_params(s.workload.model) > 0);
    sn_spec_release(&s);
}

#define MOE_HEAD "accelerator: h100-sxm5-80gb\nsupernode: {accelerators: 8}\n"

/* Each new key's error names the line and column and what is wrong. */
static void test_inline_moe_model_errors_are_located(void)
{
    CHECK_CONTAINS(fails(MOE_HEAD "workload: {model: {base: llama3-8b, "
                                  "kv_lora_rank: 512}}\n"),
                   "t.yaml:3:51: workload.model: kv_lora_rank needs "
                   "attention: mla");
    CHECK_CONTAINS(fails(MOE_HEAD "workload: {model: {base: llama3-8b, "
                                  "attention: mla}}\n"),
                   "t.yaml:3:48: workload.model: attention: mla needs "
                   "kv_lora_rank");
    CHECK_CONTAINS(fails(MOE_HEAD "workload: {model: {base: llama3-8b, "
                                  "attention: mqa}}\n"),
                   "t.yaml:3:48: unknown workload.model.attention 'mqa'");
    CHECK_CONTAINS(fails(MOE_HEAD "workload: {model: {base: llama3-8b, "
                                  "dense_layers: 2}}\n"),
                   "workload.model: dense_layers, moe_every and shared_ffn "
                   "need experts of 2 or more");
    CHECK_CONTAINS(fails(MOE_HEAD "workload: {model: {base: deepseek-v3, "
                                  "dense_layers: 5}}\n"),
                   "t.yaml:3:53: workload.model: moe_layers 58 disagrees "
                   "with dense_layers 5");
    CHECK_CONTAINS(fails(MOE_HEAD "workload: {model: {base: mixtral-8x7b, "
                                  "moe_layers: 0, dense_layers: 32}}\n"),
                   "dense_layers 32 leaves none of the 32 layers MoE");
    CHECK_CONTAINS(fails(MOE_HEAD "workload: {model: {base: gpt-oss-20b, "
                                  "window: 0}}\n"),
                   "t.yaml:3:47: workload.model.window: 0 is out of range");
    CHECK_CONTAINS(fails(MOE_HEAD "workload: {model: {base: llama3-8b, "
                                  "window_every: 2}}\n"),
                   "workload.model: window_every needs window");
    CHECK_CONTAINS(fails(MOE_HEAD "workload: {model: {base: llama3-8b, "
                                  "aliases: 'Big Model'}}\n"),
                   "t.yaml:3:46: workload.model: aliases 'Big Model' is "
                   "not a list of names");
    CHECK_CONTAINS(fails(MOE_HEAD "workload: {model: {base: llama3-8b, "
                                  "aliases: 'a,,b'}}\n"),
                   "has an empty name");
    CHECK_CONTAINS(fails(MOE_HEAD "workload: {model: {base: deepseek-v3, "
                                  "head_dim: 64}}\n"),
                   "workload.model: head_dim is for attention: gqa");
}

/* A preset by its alias, in a spec too. */
static void test_workload_model_by_alias(void)
{
    struct sn_spec s;

    REQUIRE(parse(MOE_HEAD "workload: {model: DeepSeek-R1}\n", &s) == SN_OK);
    CHECK_STR(s.workload.model->name, "deepseek-v3");
    sn_spec_release(&s);
}

static void test_load_reads_files_and_reports_missing_ones(void)
{
    struct sn_spec s;
    char path[] = "/tmp/sn-test-spec-XXXXXX";
    int fd = mkstemp(path);
    FILE *f;

    REQUIRE(fd >= 0);
    f = fdopen(fd, "w");
    REQUIRE(f != NULL);
    fputs(MINIMAL, f);
    fclose(f);
    CHECK(sn_spec_load(path, &s, &err) == SN_OK);
    CHECK_STR(s.file, path);
    CHECK(s.scaleup.accelerators == 8);
    sn_spec_release(&s);
    unlink(path);
    CHECK(sn_spec_load(path, &s, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "cannot open");
}

static void test_cables_can_be_forced(void)
{
    struct sn_spec s;

    REQUIRE(parse("accelerator: h100-sxm5-80gb\n"
                  "supernode: {accelerators: 64, links_per_accelerator: 8,\n"
                  "            cable: nvlink4-copper}\n"
                  "scaleout: {topology: fat_tree, cable: mmf-sr4-400g}\n",
                  &s) == SN_OK);
    CHECK_STR(s.scaleup.cable->name, "nvlink4-copper");
    CHECK(s.scaleup.medium == SN_MEDIUM_COPPER);
    CHECK_STR(s.scaleout.cable->name, "mmf-sr4-400g");
    sn_spec_release(&s);
    REQUIRE(parse(MINIMAL, &s) == SN_OK);
    CHECK(s.scaleup.cable == NULL && s.scaleout.cable == NULL);
    sn_spec_release(&s);
    CHECK_STR(fails(MINIMAL "scaleout: {nic: cx8-800g, cable: dac-400g}\n"),
              "t.yaml:3:34: the dac-400g (50.0 GB/s) is slower than the NIC "
              "ports (100 GB/s)");
    CHECK_STR(fails(MINIMAL "scaleout: {cable: mmf-sr4-40g}\n"),
              "t.yaml:3:19: unknown cable 'mmf-sr4-40g' (did you mean "
              "'mmf-sr4-400g'?)");
    CHECK_CONTAINS(fails("accelerator: h100-sxm5-80gb\n"
                         "supernode: {accelerators: 8, medium: aoc,\n"
                         "            cable: dac-400g}\n"),
                   "t.yaml:2:38: supernode.medium aoc contradicts the "
                   "dac-400g cable (copper)");
    CHECK_CONTAINS(fails(MINIMAL "scaleout:\n  topology: explicit\n"
                                 "  switches: [{name: leaf.0}]\n"),
                   "t.yaml:5:21: scaleout.switches[0].name 'leaf.0' has the "
                   "character '.'");
}

static void test_names_of_enums(void)
{
    CHECK_STR(sn_fabric_name(SN_FABRIC_PARTIAL_MESH), "partial_mesh");
    CHECK_STR(sn_fabric_name(SN_FABRIC_PCIE_TREE), "pcie_tree");
    CHECK_STR(sn_net_topology_name(SN_NET_RAIL_FAT_TREE), "rail_fat_tree");
    CHECK_STR(sn_net_topology_name(SN_NET_EXTERNAL), "external");
}

/* The catalog's HBM is the datasheet's figure; the room a job has is the
 * driver's (nvidia-smi's total: vendors count HBM in GiB and print GB).
 * An entry that changes hbm over a catalog row drops the row's driver
 * figure, which belonged to the other capacity. */
static void test_usable_hbm_is_the_drivers_figure(void)
{
    struct sn_spec s;
    struct sn_train_env e;

    REQUIRE(parse(MINIMAL, &s) == SN_OK);
    CHECK_NEAR(s.accel->hbm_bytes, 80e9, 1e-12);
    CHECK_NEAR(s.accel->hbm_usable_bytes, 81559.0 * 1048576, 1e-12);
    REQUIRE(sn_train_env_init(&e, &s, &err) == SN_OK);
    CHECK_NEAR(e.sys.hbm_bytes, 81559.0 * 1048576, 1e-12);
    sn_train_env_release(&e);
    sn_spec_release(&s);

    REQUIRE(parse("accelerator: {base: h100-sxm5-80gb, hbm: 40GB}\n"
                  "supernode: {accelerators: 8}\n",
                  &s) == SN_OK);
    CHECK(s.accel->hbm_usable_bytes == 0);
    REQUIRE(sn_train_env_init(&e, &s, &err) == SN_OK);
    CHECK_NEAR(e.sys.hbm_bytes, 40e9, 1e-12);
    sn_train_env_release(&e);
    sn_spec_release(&s);

    REQUIRE(parse("accelerator: {base: a100-sxm4-80gb, hbm: 40GB, "
                  "hbm_usable: 40960MiB}\nsupernode: {accelerators: 8}\n",
                  &s) == SN_OK);
    CHECK_NEAR(s.accel->hbm_usable_bytes, 40960.0 * 1048576, 1e-12);
    sn_spec_release(&s);

    CHECK_CONTAINS(fails("accelerator: {base: h100-sxm5-80gb, hbm: 40GB, "
                         "hbm_usable: 80GB}\n"
                         "supernode: {accelerators: 8}\n"),
                   "t.yaml:1:60: accelerator.hbm_usable is more than 10% "
                   "over its hbm");
}

/* A zeroed spec is released already (spec.h): releasing it, twice, does
 * nothing, and a load that fails leaves the struct zeroed again, so a
 * caller keeps no "loaded" flag. */
static void test_zeroed_spec_is_released(void)
{
    struct sn_spec s = {0};

    sn_spec_release(&s);
    sn_spec_release(&s);
    CHECK(s.file == NULL && s.doc.root == NULL && s.accel == NULL);
    CHECK(sn_spec_load("tests/fixtures/specs/bad/alias.yaml", &s, &err) ==
          SN_EINPUT);
    CHECK(s.file == NULL && s.doc.root == NULL && s.owned == NULL);
    sn_spec_release(&s);
    REQUIRE(sn_spec_load(NULL, &s, &err) == SN_OK);
    sn_spec_release(&s);
    CHECK(s.file == NULL && s.doc.root == NULL && s.owned == NULL);
}

static const struct sn_test cases[] = {
    T(test_zeroed_spec_is_released),
    T(test_default_spec_is_the_seed_64),
    T(test_usable_hbm_is_the_drivers_figure),
    T(test_units_are_read_as_people_write_them),
    T(test_defaults_come_from_the_catalog_and_the_notes),
    T(test_cooling_and_power_defaults_follow_the_choices),
    T(test_fabrics_take_their_shapes),
    T(test_two_tiers_take_the_l2_chips_that_fit_both_tiers),
    T(test_scaleout_fat_tree_sizes_its_tiers),
    T(test_scaleout_explicit_lists_switches_and_links),
    T(test_errors_name_file_line_and_column),
    T(test_rejects_counts_that_do_not_fit),
    T(test_rejects_bytes_syntax_and_empty_input),
    T(test_sections_owned_elsewhere_are_kept),
    T(test_set_overrides_and_revalidates),
    T(test_catalog_section_adds_and_overrides_entries),
    T(test_inline_accelerator_and_model),
    T(test_inline_moe_model_takes_the_new_keys),
    T(test_inline_moe_model_errors_are_located),
    T(test_workload_model_by_alias),
    T(test_load_reads_files_and_reports_missing_ones),
    T(test_cables_can_be_forced),
    T(test_names_of_enums),
};

SN_TEST_MAIN(cases)
