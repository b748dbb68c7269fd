/* test-plan.c: the plan's arithmetic against closed forms and the worked
 * examples of reference hardware-catalog.md section 4 (feed current,
 * coolant flow, checkpoint write time), its warnings, and what the
 * renderers print. Specs are built in C; the catalog is left empty, so
 * the planner's own fallbacks (LinkX reaches, 9 W optics) apply. */
/* covers: plan render topo */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "sn/plan.h"
#include "sn/render.h"
#include "spec-fixtures.h"

static const struct sn_accel_info h200 = {
    .name = "test-h200",
    .display = "TEST-H200",
    .vendor = "NVIDIA",
    .bf16_flops = 989.4e12,
    .hbm_bytes = 141e9,
    .hbm_bw = 4.8e12,
    .scaleup_links = 18,
    .scaleup_bw = 450e9,
    .tdp_w = 700,
    .max_domain = 256,
    .transient_factor = 1.3,
};

/* one rack-sized "accelerator" to put an exact load on one rack */
static struct sn_accel_info block = {
    .name = "load",
    .display = "LOAD",
    .vendor = "test",
    .tdp_w = 132e3,
    .transient_factor = 1,
};

static const struct sn_model_info m70b = {
    .name = "test-70b",
    .display = "70B",
    .params = 70e9,
};

/* The seed design of the built-in default, in C. */
static void spec_seed(struct sn_spec *s)
{
    fx_spec_base(s, "seed.yaml", "seed-64", &h200);
    s->supernodes = 4;
    s->scaleup.accelerators = 64;
    s->scaleup.fabric = SN_FABRIC_SWITCHED;
    s->scaleup.links_per_accel = 8;
    s->scaleup.planes = 8;
    s->scaleup.tiers = 1;
    s->scaleup.sw = &fx_chip64;
    s->scaleout.topology = SN_NET_EXTERNAL;
    s->scaleout.nics_per_node = 16;
    s->racks.power_limit_w = 60e3;
    s->power.feed = SN_FEED_AC_3PH;
    s->power.voltage = 415;
    s->power.power_factor = 0.95;
    s->power.headroom = 1.5;
    s->power.node_overhead = 1.82;
    s->cooling.type = SN_COOL_COLD_PLATE;
    s->cooling.coolant = SN_COOLANT_WATER;
    s->cooling.delta_t = 10;
    s->cooling.liquid_share = 0.8;
    s->storage.checkpoint_interval = 1800;
    s->storage.write_window = 300;
    s->storage.write_bw = 62e9;
    s->storage.read_bw = 125e9;
    s->storage.bytes_per_param = 14;
    s->storage.given = true;
    s->workload.model = &m70b;
    s->workload.train_bytes_per_param = 16;
    s->workload.given = true;
}

/* One accelerator of 132 kW in one rack, no network: the rack's peak is
 * exactly 132 kW. */
static void spec_one_load(struct sn_spec *s, double watts)
{
    memset(s, 0, sizeof(*s));
    block.tdp_w = watts;
    s->file = (char *)"load.yaml";
    s->accel = &block;
    s->supernodes = 1;
    s->scaleup.accelerators = 1;
    s->scaleup.per_node = 1;
    s->racks.nodes_per_rack = 1;
    s->racks.node_units = 1;
    s->power.node_overhead = 1;
    s->power.headroom = 1;
    s->cooling.type = SN_COOL_COLD_PLATE;
    s->cooling.liquid_share = 1;
    s->cooling.delta_t = 10;
}

struct built {
    struct sn_topo *t;
    struct sn_plan *p;
};

static bool plan(const struct sn_spec *s, struct built *b)
{
    struct sn_error err;

    b->t = NULL;
    b->p = NULL;
    if (sn_topo_build(s, &b->t, &err) || sn_plan_build(b->t, &b->p, &err)) {
        printf("  plan failed: %s\n", err.msg);
        sn_topo_free(b->t);
        return false;
    }
    return true;
}

static void done(struct built *b)
{
    sn_plan_free(b->p);
    sn_topo_free(b->t);
}

static const struct sn_plan_warning *find_warn(const struct sn_plan *p,
                                               const char *topic)
{
    for (size_t i = 0; i < p->nwarn; i++)
        if (strcmp(p->warn[i].topic, topic) == 0)
            return &p->warn[i];
    return NULL;
}

/* Whether the plan of s warns about topic: 1 or 0; -1 when s cannot be
 * planned (said why). */
static int warns(const struct sn_spec *s, const char *topic)
{
    struct built b;
    int found;

    if (!plan(s, &b))
        return -1;
    found = find_warn(b.p, topic) != NULL;
    done(&b);
    return found;
}

/* ---- counts ---------------------------------------------------------- */

static void test_seed_counts_2560_links(void)
{
    struct sn_spec s;
    struct built b;

    spec_seed(&s);
    REQUIRE(plan(&s, &b));
    CHECK(b.p->accelerators == 256);
    CHECK(b.p->servers == 32);
    CHECK(b.p->links[SN_LINK_SCALE_UP] == 2048);
    CHECK(b.p->links[SN_LINK_SCALE_OUT] == 512);
    CHECK(b.p->links_total == 2560);
    CHECK(b.p->scaleout_nic == 512 && b.p->scaleout_switch == 0);
    /* one 64-port chip per plane, two chips per 1U tray */
    CHECK(b.p->sw[SN_SW_SCALEUP_L1].chips == 32);
    CHECK(b.p->sw[SN_SW_SCALEUP_L1].boxes == 16);
    CHECK(b.p->switch_chips == 32);
    CHECK(b.p->racks == 8 && b.p->racks_compute == 8);
    CHECK(b.p->nics == 512);
    done(&b);
}

static void test_nvl72_has_nine_trays_of_two(void)
{
    static const struct sn_switch_info chip72 = {
        .name = "c72",
        .scale_up = true,
        .radix = 72,
        .power_w = 150,
        .chips_per_box = 2,
        .rack_units = 1,
    };
    struct sn_spec s;
    struct built b;

    spec_seed(&s);
    s.supernodes = 1;
    s.scaleup.accelerators = 72;
    s.scaleup.per_node = 4;
    s.scaleup.links_per_accel = 18;
    s.scaleup.link_bw = 50e9;
    s.scaleup.planes = 0;
    s.scaleup.sw = &chip72;
    s.scaleout.nics_per_node = 4;
    s.racks.nodes_per_rack = 18;
    s.racks.node_units = 1;
    REQUIRE(plan(&s, &b));
    CHECK(b.p->sw[SN_SW_SCALEUP_L1].chips == 18);
    CHECK(b.p->sw[SN_SW_SCALEUP_L1].boxes == 9);
    CHECK(b.p->links[SN_LINK_SCALE_UP] == 1296);
    CHECK(b.p->cables[SN_MEDIUM_COPPER] == 1296);
    CHECK(b.p->racks == 1);
    CHECK(find_warn(b.p, "cabling") == NULL); /* all within 1-2 m */
    done(&b);
}

/* DGX SuperPOD H100, 4 SU (RA-11333-001 Tables 4, 7, 8): 127 nodes,
 * 2,040 compute-fabric cables besides the 4 UFM ones. Exact. The RA puts
 * transceivers on every cable (multimode fibre throughout: 1,536 switch
 * twin-port OSFP + 508 system OSFP = 4,088 ends, 8 of them UFM); this plan
 * takes DAC copper for runs under 3 m (leaf to spine inside a network
 * rack), so its transceivers are the optical links' ends only. */
static void test_superpod_transceivers_match_the_ra(void)
{
    struct sn_spec s;
    struct built b;

    spec_seed(&s);
    s.supernodes = 127;
    s.scaleup.accelerators = 8;
    s.scaleup.planes = 1;
    s.scaleup.links_per_accel = 18;
    s.scaleup.switches_per_plane = 4;
    s.scaleout.topology = SN_NET_RAIL_FAT_TREE;
    s.scaleout.nics_per_node = 8;
    s.scaleout.radix = 64;
    s.scaleout.sw = &fx_ib64;
    REQUIRE(plan(&s, &b));
    CHECK(b.p->sw[SN_SW_LEAF].boxes == 32);
    CHECK(b.p->sw[SN_SW_SPINE].boxes == 16);
    CHECK(b.p->scaleout_nic + b.p->scaleout_switch == 2040);
    CHECK(b.p->cables[SN_MEDIUM_MMF] + b.p->cables[SN_MEDIUM_SMF] +
              b.p->cables[SN_MEDIUM_COPPER] ==
          2040);
    CHECK(b.p->transceivers ==
          2 * (b.p->cables[SN_MEDIUM_MMF] + b.p->cables[SN_MEDIUM_SMF]));
    CHECK(b.p->transceivers <= 4088 - 8);
    /* switches: 48 boxes at 1,720 W */
    CHECK_NEAR(b.p->sw[SN_SW_LEAF].power_w + b.p->sw[SN_SW_SPINE].power_w,
               48 * 1720.0, 1e-9);
    /* scale-up chips on the baseboard: no trays, no boxes */
    CHECK(b.p->sw[SN_SW_SCALEUP_L1].onboard == 127 * 4);
    CHECK(b.p->sw[SN_SW_SCALEUP_L1].boxes == 0);
    done(&b);
}

/* The cable a spec forces for a class is the cable of every link of that
 * class between chassis: its medium, its optics, and its reach, past which
 * the plan warns with the numbers (the longest placed link, computed here
 * from the topology, against the cable's reach). */
static void check_forced(double up_reach, bool expect_warn)
{
    struct sn_cable_info up = {
        .name = "test-cu",
        .display = "TEST-CU",
        .medium = SN_MEDIUM_COPPER,
        .max_reach = up_reach,
        .rate = 25e9,
        .scale_up = true,
    };
    static const struct sn_cable_info mmf = {
        .name = "test-sr",
        .display = "TEST-SR",
        .medium = SN_MEDIUM_MMF,
        .max_reach = 50,
        .rate = 50e9,
        .transceiver_power_w = 12,
        .needs_transceivers = true,
    };
    const struct sn_plan_warning *w;
    struct sn_spec s;
    struct built b;
    size_t over = 0, cabled = 0;
    double longest = 0;
    char label[400] = "";

    spec_seed(&s);
    s.scaleup.cable = &up;
    s.scaleout.cable = &mmf;
    s.scaleout.topology = SN_NET_RAIL_FAT_TREE;
    s.scaleout.radix = 64;
    s.scaleout.sw = &fx_ib64;
    REQUIRE(plan(&s, &b));
    for (size_t i = 0; i < b.t->nlinks; i++) {
        const struct sn_link *l = &b.t->links[i];
        if (l->cls != SN_LINK_SCALE_UP || l->medium == SN_MEDIUM_BOARD)
            continue;
        cabled++;
        CHECK(l->medium == SN_MEDIUM_COPPER);
        if (l->length > up_reach)
            over++;
        if (l->length > longest) {
            longest = l->length;
            sn_topo_link_label(b.t, (uint32_t)i, label, sizeof(label));
        }
    }
    CHECK(cabled > 0);
    /* every network link is the forced multimode cable, optics at both
     * ends at its 12 W */
    CHECK(b.p->links[SN_LINK_SCALE_OUT] > 512);
    CHECK(b.p->cables[SN_MEDIUM_MMF] == b.p->links[SN_LINK_SCALE_OUT]);
    CHECK(b.p->cables[SN_MEDIUM_COPPER] == cabled);
    CHECK(b.p->cables[SN_MEDIUM_AOC] == 0 && b.p->cables[SN_MEDIUM_SMF] == 0);
    CHECK(b.p->transceivers == 2 * b.p->links[SN_LINK_SCALE_OUT]);
    CHECK_NEAR(b.p->transceiver_w, 12.0 * (double)b.p->transceivers, 1e-9);
    w = find_warn(b.p, "cabling");
    if (!expect_warn) {
        CHECK(over == 0);
        CHECK(w == NULL);
        done(&b);
        return;
    }
    CHECK(over > 0);
    REQUIRE(w != NULL);
    CHECK_NEAR(w->value, longest, 1e-6);
    CHECK_NEAR(w->limit, up_reach, 1e-12);
    CHECK_CONTAINS(w->msg, "scale-up links outrun the cable the spec names "
                           "for them: TEST-CU reaches 0.50 m");
    CHECK_CONTAINS(w->msg, label); /* where: the longest link's label */
    {
        char head[64];
        /* the count as printed, with a thousands separator */
        if (over >= 1000)
            snprintf(head, sizeof(head), "%zu,%03zu scale-up links",
                     over / 1000, over % 1000);
        else
            snprintf(head, sizeof(head), "%zu scale-up links", over);
        CHECK(strncmp(w->msg, head, strlen(head)) == 0);
    }
    done(&b);
}

static void test_forced_cable_sets_every_link_and_warns_past_reach(void)
{
    check_forced(0.5, true); /* shorter than trays a few units apart */
    check_forced(30, false); /* longer than any run in the seed's racks */
}

/* ---- bandwidth ------------------------------------------------------- */

static void test_seed_convergence_ratio_is_two(void)
{
    struct sn_spec s;
    struct built b;

    spec_seed(&s);
    REQUIRE(plan(&s, &b));
    /* 8 x 25 GB/s inside against 2 x 50 GB/s outside */
    CHECK_NEAR(b.p->scaleup_per_accel, 200e9, 1e-12);
    CHECK_NEAR(b.p->scaleout_per_accel, 100e9, 1e-12);
    CHECK_NEAR(b.p->convergence, 2.0, 1e-12);
    CHECK_NEAR(b.p->scaleup_bisection, 32 * 200e9, 1e-12);
    CHECK(isnan(b.p->scaleout_bisection)); /* external: not designed */
    CHECK_NEAR(b.p->scaleout_aggregate, 512 * 50e9, 1e-12);
    done(&b);
}

static void test_bisection_closed_forms(void)
{
    struct sn_spec s;
    struct built b;

    /* full mesh of 8, one link per pair: 4 x 4 links cross */
    spec_seed(&s);
    s.supernodes = 1;
    s.scaleup.accelerators = 8;
    s.scaleup.fabric = SN_FABRIC_FULL_MESH;
    s.scaleup.links_per_accel = 7;
    s.scaleup.link_bw = 64e9;
    REQUIRE(plan(&s, &b));
    CHECK_NEAR(b.p->scaleup_bisection, 16 * 64e9, 1e-12);
    done(&b);
    /* 4x4x4 torus: a cut across one dimension cuts 16 rings twice */
    s.scaleup.accelerators = 64;
    s.scaleup.per_node = 4;
    s.scaleup.fabric = SN_FABRIC_TORUS;
    s.scaleup.ndims = 3;
    s.scaleup.dims[0] = s.scaleup.dims[1] = s.scaleup.dims[2] = 4;
    s.scaleup.links_per_accel = 6;
    s.scaleup.link_bw = 100e9;
    s.scaleout.nics_per_node = 4;
    REQUIRE(plan(&s, &b));
    CHECK_NEAR(b.p->scaleup_bisection, 32 * 100e9, 1e-12);
    done(&b);
    /* k = 8 fat tree, 128 hosts: 64 x NIC rate */
    spec_seed(&s);
    s.supernodes = 128;
    s.scaleup.accelerators = 1;
    s.scaleup.per_node = 1;
    s.scaleup.fabric = SN_FABRIC_NONE;
    s.scaleout.topology = SN_NET_FAT_TREE;
    s.scaleout.nics_per_node = 1;
    s.scaleout.radix = 8;
    s.scaleout.tiers = 3;
    REQUIRE(plan(&s, &b));
    CHECK_NEAR(b.p->scaleout_bisection, 64 * 50e9, 1e-12);
    CHECK(b.p->switch_boxes == 80);
    CHECK(b.p->scaleout_switch == 256);
    done(&b);
}

/* The same 4 SU with the catalog's parts as the RA names them: QM9700
 * (32 twin-port OSFP cages for 64 ports) and the DGX's 4 twin-port cages
 * for its 8 ConnectX-7 ports, multimode throughout. A twin-port module
 * carries two links, bought whole per device: 48 switches x 32 cages =
 * 1,536 and 127 DGX x 4 = 508 (Table 8), where one module a link end
 * would give 4,080. Without the twin-port cages a module a port. */
static void test_twin_port_cages_halve_the_modules(void)
{
    const struct sn_catalog *cat = sn_catalog_builtin();
    struct sn_spec s;
    struct built b;

    spec_seed(&s);
    s.supernodes = 127;
    s.scaleup.accelerators = 8;
    s.scaleup.planes = 1;
    s.scaleup.links_per_accel = 18;
    s.scaleup.switches_per_plane = 4;
    s.scaleout.topology = SN_NET_RAIL_FAT_TREE;
    s.scaleout.nics_per_node = 8;
    s.scaleout.radix = 64;
    s.scaleout.sw = sn_catalog_switch(cat, "qm9700");
    s.scaleout.nic = sn_catalog_nic(cat, "cx7-400g-dgx");
    s.scaleout.cable = sn_catalog_cable(cat, "mmf-sr4-400g");
    REQUIRE(s.scaleout.sw && s.scaleout.nic && s.scaleout.cable);
    REQUIRE(plan(&s, &b));
    CHECK(b.p->cables[SN_MEDIUM_MMF] == 2040);
    CHECK(b.p->transceivers == 1536 + 508);
    CHECK(b.p->nmodule == 1);
    CHECK(strcmp(b.p->module[0].sku, "MMA4Z00-NS") == 0);
    CHECK(b.p->module[0].ends == 4080);
    CHECK_NEAR(b.p->transceiver_w, (1536 + 508) * 15.0, 1e-9);
    done(&b);
    /* single-port cages at the NICs: one MMA4Z00-NS400 a DGX port */
    s.scaleout.nic = sn_catalog_nic(cat, "cx7-400g");
    REQUIRE(plan(&s, &b));
    CHECK(b.p->transceivers == 1536 + 1016);
    CHECK(b.p->nmodule == 2);
    CHECK_NEAR(b.p->transceiver_w, 1536 * 15.0 + 1016 * 9.0, 1e-9);
    done(&b);
}

/* ---- power ----------------------------------------------------------- */

static void test_seed_power_arithmetic(void)
{
    struct sn_spec s;
    struct built b;
    double accel, steady;

    spec_seed(&s);
    REQUIRE(plan(&s, &b));
    accel = 256 * 700.0;
    steady = accel * 1.82 + 32 * 100.0 + b.p->transceiver_w;
    CHECK_NEAR(b.p->accel_tdp_w, accel, 1e-12);
    CHECK_NEAR(b.p->steady_w, steady, 1e-9);
    CHECK_NEAR(b.p->peak_w, steady + accel * 0.3, 1e-9);
    CHECK_NEAR(b.p->provisioned_w, (steady + accel * 0.3) * 1.5, 1e-9);
    CHECK_NEAR(b.p->facility_w, steady * 1.2, 1e-9); /* cold plate PUE */
    /* 1,024 optical uplink ends x 9 W */
    CHECK(b.p->transceivers == 1024);
    CHECK_NEAR(b.p->transceiver_w, 1024 * 9.0, 1e-12);
    /* racks add up to the cluster, less the site end of the uplinks */
    {
        double sum = 0;
        for (size_t r = 0; r < b.p->nrack; r++)
            sum += b.p->rack[r].steady_w;
        CHECK_NEAR(sum, steady - 512 * 9.0, 1e-9);
    }
    done(&b);
}

/* hardware-catalog.md 4.1 worked examples: NVL72 at 132 kW, PF 0.95:
 * 193 A at 415 V three-phase, 167 A at 480 V; 120 kW at 400 V DC: 300 A,
 * at 54 V: 2.2 kA; DGX H100 10.2 kW on 240 V single-phase ~43 A. The
 * examples round to 3 figures: tolerance 0.5%. */
static void test_feed_current_matches_worked_examples(void)
{
    static const struct {
        double watts, volts, pf;
        enum sn_feed feed;
        double amps;
    } rows[] = {
        {132e3, 415, 0.95, SN_FEED_AC_3PH, 193},
        {132e3, 480, 0.95, SN_FEED_AC_3PH, 167},
        {120e3, 400, 1, SN_FEED_HVDC, 300},
        {120e3, 54, 1, SN_FEED_HVDC, 2222},
        {10.2e3, 240, 1, SN_FEED_AC_1PH, 42.5},
    };

    for (size_t i = 0; i < SN_ARRAY_LEN(rows); i++) {
        struct sn_spec s;
        struct built b;
        spec_one_load(&s, rows[i].watts);
        s.power.feed = rows[i].feed;
        s.power.voltage = rows[i].volts;
        s.power.power_factor = rows[i].pf;
        REQUIRE(plan(&s, &b));
        REQUIRE(b.p->nrack == 1);
        CHECK_NEAR(b.p->rack[0].peak_w, rows[i].watts, 1e-12);
        CHECK_NEAR(b.p->rack[0].current_a, rows[i].amps, 0.005);
        done(&b);
    }
}

static void test_rack_over_its_limit_is_warned_with_numbers(void)
{
    struct sn_spec s;
    struct built b;
    const struct sn_plan_warning *w;

    spec_one_load(&s, 132e3);
    s.racks.power_limit_w = 120e3;
    REQUIRE(plan(&s, &b));
    w = find_warn(b.p, "power");
    REQUIRE(w);
    CHECK_NEAR(w->value, 132e3, 1e-12);
    CHECK_NEAR(w->limit, 120e3, 1e-12);
    CHECK_CONTAINS(w->msg, "1 of 1 racks");
    CHECK_CONTAINS(w->msg, "120.0 kW");
    CHECK_CONTAINS(w->msg, "132.0 kW");
    done(&b);
    s.racks.power_limit_w = 140e3;
    CHECK(warns(&s, "power") == 0);
}

/* ---- cooling --------------------------------------------------------- */

/* hardware-catalog.md 4.2: 120 kW at dT 10 K: 173 L/min of water,
 * 181 L/min of PG25. Tolerance 0.5%. */
static void test_coolant_flow_matches_worked_example(void)
{
    struct sn_spec s;
    struct built b;

    spec_one_load(&s, 120e3);
    REQUIRE(plan(&s, &b));
    CHECK_NEAR(b.p->coolant_m3s * 60e3, 173, 0.005);
    CHECK_NEAR(b.p->rack[0].coolant_m3s * 60e3, 173, 0.005);
    done(&b);
    s.cooling.coolant = SN_COOLANT_PG25;
    REQUIRE(plan(&s, &b));
    CHECK_NEAR(b.p->coolant_m3s * 60e3, 181, 0.005);
    done(&b);
}

static void test_air_cooling_over_its_limit_is_warned(void)
{
    struct sn_spec s;
    struct built b;
    const struct sn_plan_warning *w;

    /* four DGX H100 per rack, 40.8 kW (SuperPOD RA) against 30 kW */
    spec_one_load(&s, 40.8e3);
    s.cooling.type = SN_COOL_AIR;
    s.cooling.air_limit_w = 30e3;
    REQUIRE(plan(&s, &b));
    w = find_warn(b.p, "cooling");
    REQUIRE(w);
    CHECK_NEAR(w->value, 40.8e3, 1e-12);
    CHECK_CONTAINS(w->msg, "liquid cooling is needed");
    CHECK(b.p->coolant_m3s == 0);
    done(&b);
    s.cooling.air_limit_w = 45e3;
    CHECK(warns(&s, "cooling") == 0);
}

/* ---- storage and memory -------------------------------------------- */

/* hardware-catalog.md 4.4: 70 B x 14 B = 980 GB: 49 s at 20 GB/s, 3.9 s
 * at 250 GB/s. Exact arithmetic. */
/* Whether air alone could carry a cold-plate rack's whole heat: the
 * 40.8 kW of four DGX H100 is just over the 40 kW default, 30 kW is not. */
static void test_air_alone_judges_the_heaviest_rack(void)
{
    struct sn_spec s;
    struct built b;

    spec_one_load(&s, 40.8e3);
    REQUIRE(plan(&s, &b));
    CHECK_NEAR(b.p->rack_max_steady_w, 40.8e3, 1e-12);
    CHECK_NEAR(b.p->air_limit_w, 40e3, 1e-12);
    CHECK(!b.p->air_alone);
    done(&b);
    spec_one_load(&s, 30e3);
    REQUIRE(plan(&s, &b));
    CHECK(b.p->air_alone);
    done(&b);
    spec_one_load(&s, 40.8e3);
    s.cooling.air_limit_w = 45e3;
    REQUIRE(plan(&s, &b));
    CHECK(b.p->air_alone);
    done(&b);
}

static void test_checkpoint_times_match_worked_example(void)
{
    struct sn_spec s;
    struct built b;

    spec_seed(&s);
    s.storage.write_bw = 20e9;
    s.storage.read_bw = 250e9;
    REQUIRE(plan(&s, &b));
    CHECK_NEAR(b.p->checkpoint_bytes, 980e9, 1e-12);
    CHECK_NEAR(b.p->write_time, 49, 1e-12);
    CHECK_NEAR(b.p->restore_time, 3.92, 1e-12);
    CHECK_NEAR(b.p->required_write_Bps, 980e9 / 300, 1e-12);
    CHECK_NEAR(b.p->checkpoint_share, 49.0 / 1800, 1e-12);
    CHECK(find_warn(b.p, "storage") == NULL);
    done(&b);
    /* 1 T parameters: 14 TB, 56 s at 250 GB/s, over a 30 s window */
    s.workload.params = 1e12;
    s.storage.write_bw = 250e9;
    s.storage.write_window = 30;
    REQUIRE(plan(&s, &b));
    CHECK_NEAR(b.p->write_time, 56, 1e-12);
    REQUIRE(find_warn(b.p, "storage"));
    CHECK_CONTAINS(find_warn(b.p, "storage")->msg, "14000 GB");
    done(&b);
}

static void test_memory_fit_counts_accelerators(void)
{
    struct sn_spec s;
    struct built b;

    spec_seed(&s);
    REQUIRE(plan(&s, &b));
    /* 70e9 x 16 B = 1.12 TB over 141 GB: 8 accelerators */
    CHECK_NEAR(b.p->train_bytes, 1.12e12, 1e-12);
    CHECK(b.p->min_accels == 8);
    CHECK(find_warn(b.p, "memory") == NULL);
    done(&b);
    s.supernodes = 1;
    s.scaleup.accelerators = 8;
    s.workload.params = 405e9; /* 6.48 TB > 8 x 141 GB */
    REQUIRE(plan(&s, &b));
    REQUIRE(find_warn(b.p, "memory"));
    CHECK(b.p->min_accels == 46);
    done(&b);
}

static void test_low_hbm_bandwidth_per_flop_is_warned(void)
{
    static const struct sn_accel_info v6e = {
        .name = "tpu-like",
        .display = "TPU-LIKE",
        .vendor = "Google",
        .bf16_flops = 918e12,
        .hbm_bytes = 32e9,
        .hbm_bw = 1.638e12,
    };
    struct sn_spec s;
    struct built b;

    spec_seed(&s);
    REQUIRE(plan(&s, &b));
    CHECK(find_warn(b.p, "compute") == NULL); /* 206 FLOP/B */
    CHECK_NEAR(b.p->bytes_per_flop, 4.8e12 / 989.4e12, 1e-12);
    done(&b);
    s.accel = &v6e; /* 560 FLOP/B */
    REQUIRE(plan(&s, &b));
    REQUIRE(find_warn(b.p, "compute"));
    CHECK_CONTAINS(find_warn(b.p, "compute")->msg, "ridge point 560");
    done(&b);
}

static void test_domain_beyond_the_accelerator_is_warned(void)
{
    struct sn_spec s;
    struct built b;

    spec_seed(&s);
    s.scaleup.accelerators = 512;
    s.supernodes = 1;
    s.scaleup.planes = 8;
    s.scaleup.links_per_accel = 16;
    s.scaleup.switches_per_plane = 2;
    s.scaleup.sw = NULL;
    REQUIRE(plan(&s, &b));
    REQUIRE(find_warn(b.p, "scale-up"));
    CHECK_CONTAINS(find_warn(b.p, "scale-up")->msg, "(256)");
    done(&b);
}

/* ---- renderers ------------------------------------------------------ */

static void test_text_reads_like_a_plan(void)
{
    struct sn_spec s;
    struct built b;
    struct sn_buf out;

    spec_seed(&s);
    s.racks.power_limit_w = 40e3;
    REQUIRE(plan(&s, &b));
    sn_buf_init(&out);
    sn_render_plan_text(b.p, &out);
    CHECK_CONTAINS(out.data, "4 supernodes x 64 TEST-H200 = 256 "
                             "accelerators");
    CHECK_CONTAINS(out.data, "total (scale-up + scale-out)");
    CHECK_CONTAINS(out.data, "640");
    CHECK_CONTAINS(out.data, "2,560");
    CHECK_CONTAINS(out.data, "  WARN power: 8 of 8 racks draw more than "
                             "the rack limit of 40.0 kW");
    CHECK_CONTAINS(out.data, "kW");
    CHECK_CONTAINS(out.data, "L/min");
    sn_buf_release(&out);
    done(&b);
}

/* The text gives every rack's power, current and coolant, one row per
 * kind of rack with each figure's range. The seed's eight racks are alike:
 * 32 accelerators x 700 W x 1.82 = 40.77 kW, 4 switch chips x 100 W and
 * 64 NIC optics x 9 W: 41.74 kW steady; + 32 x 700 W x 0.3 = 48.46 kW
 * peak, 71.0 A at 415 V 3-phase, PF 0.95. */
static void test_text_lists_racks_by_kind(void)
{
    struct sn_spec s;
    struct built b;
    struct sn_buf out;
    const char *row;
    char line[256];

    spec_seed(&s);
    REQUIRE(plan(&s, &b));
    sn_buf_init(&out);
    sn_render_plan_text(b.p, &out);
    CHECK_CONTAINS(out.data, "\nRacks ");
    row = strstr(out.data, "  compute      8  r00-r07 ");
    REQUIRE(row != NULL);
    snprintf(line, sizeof(line), "%.*s", (int)strcspn(row, "\n"), row);
    CHECK_CONTAINS(line, " 41.7 kW ");
    CHECK_CONTAINS(line, " 48.5 kW ");
    CHECK_CONTAINS(line, " 72.7 kW ");
    CHECK_CONTAINS(line, " 71.0 A ");
    CHECK_CONTAINS(out.data, "  air alone         not enough  the heaviest "
                             "rack dissipates 41.7 kW");
    sn_buf_release(&out);
    done(&b);
}

/* Racks of one kind that differ print as ranges: three 400 W loads two
 * to a rack are 800 W in r00 and 400 W in r01, "400-800 W" steady; at
 * twice that peak, "800 W - 1.60 kW" (the unit differs at the ends). */
static void test_text_gives_ranges_over_a_kind_of_rack(void)
{
    struct sn_spec s;
    struct built b;
    struct sn_buf out;

    spec_one_load(&s, 400);
    s.scaleup.accelerators = 3;
    s.racks.nodes_per_rack = 2;
    s.power.transient_factor = 2;
    REQUIRE(plan(&s, &b));
    REQUIRE(b.p->nrack == 2);
    sn_buf_init(&out);
    sn_render_plan_text(b.p, &out);
    CHECK_CONTAINS(out.data, "  compute      2  r00-r01  400-800 W  "
                             "800 W - 1.60 kW ");
    sn_buf_release(&out);
    done(&b);
}

static void test_json_has_the_stable_keys(void)
{
    struct sn_spec s;
    struct built b;
    struct sn_buf out, again;

    spec_seed(&s);
    REQUIRE(plan(&s, &b));
    sn_buf_init(&out);
    sn_buf_init(&again);
    sn_render_plan_json(b.p, &out);
    sn_render_plan_json(b.p, &again);
    CHECK(out.len == again.len && memcmp(out.data, again.data, out.len) == 0);
    CHECK_CONTAINS(out.data, "\"schema\": \"supernode.plan/1\"");
    CHECK_CONTAINS(out.data, "\"accelerators\": 256");
    CHECK_CONTAINS(out.data, "\"scale_up\": 2048");
    CHECK_CONTAINS(out.data, "\"scale_out\": 512");
    CHECK_CONTAINS(out.data, "\"total\": 2560");
    CHECK_CONTAINS(out.data, "\"switch_chips\": 32");
    CHECK_CONTAINS(out.data, "\"steady_w\": ");
    CHECK_CONTAINS(out.data, "\"coolant_lpm\": ");
    CHECK_CONTAINS(out.data, "\"checkpoint_bytes\": 980000000000");
    CHECK_CONTAINS(out.data, "\"required_write_Bps\": ");
    CHECK_CONTAINS(out.data, "\"scale_out_bisection_Bps\": null");
    CHECK_CONTAINS(out.data, "\"air_alone\": false");
    sn_buf_release(&out);
    sn_buf_release(&again);
    done(&b);
}

static void test_ledger_has_one_row_per_link(void)
{
    struct sn_spec s;
    struct built b;
    struct sn_buf out;
    size_t rows = 0;

    spec_seed(&s);
    REQUIRE(plan(&s, &b));
    sn_buf_init(&out);
    sn_render_ledger_csv(b.t, &out);
    for (size_t i = 0; i < out.len; i++)
        rows += out.data[i] == '\n';
    CHECK(rows == b.t->nlinks + 1);
    CHECK_CONTAINS(out.data, "id,label,a_supernode,a_rack,a_unit,a_device,"
                             "a_port,b_supernode");
    CHECK_CONTAINS(out.data, "\nL000000,sn0.r00.u01.gpu0.p0~");
    CHECK_CONTAINS(out.data, ",sn0,r00,1,gpu0,0,sn0,r00,");
    CHECK_CONTAINS(out.data, "\nL002048,sn0.r00.u01.nic0.p0~net.site0.p0,"
                             "sn0,r00,1,nic0,0,net,,,site0,0,scale-out,mmf,");
    sn_buf_release(&out);
    done(&b);
}

static void test_dot_collapses_repeated_units(void)
{
    struct sn_spec s;
    struct built b;
    struct sn_buf out;

    spec_seed(&s);
    REQUIRE(plan(&s, &b));
    sn_buf_init(&out);
    sn_render_topo_dot(b.t, 64, &out);
    CHECK_CONTAINS(out.data, "graph supernode {");
    CHECK_CONTAINS(out.data, "supernode (x4, one drawn)");
    CHECK_CONTAINS(out.data, "accelerator\\nx64");
    CHECK_CONTAINS(out.data, "512 per supernode scale-up\\ncopper");
    CHECK_CONTAINS(out.data, "site network\\nx1");
    CHECK(strstr(out.data, "L000000") == NULL);
    sn_buf_release(&out);
    done(&b);
}

static const struct sn_test cases[] = {
    T(test_seed_counts_2560_links),
    T(test_nvl72_has_nine_trays_of_two),
    T(test_superpod_transceivers_match_the_ra),
    T(test_twin_port_cages_halve_the_modules),
    T(test_forced_cable_sets_every_link_and_warns_past_reach),
    T(test_seed_convergence_ratio_is_two),
    T(test_bisection_closed_forms),
    T(test_seed_power_arithmetic),
    T(test_feed_current_matches_worked_examples),
    T(test_rack_over_its_limit_is_warned_with_numbers),
    T(test_coolant_flow_matches_worked_example),
    T(test_air_cooling_over_its_limit_is_warned),
    T(test_air_alone_judges_the_heaviest_rack),
    T(test_checkpoint_times_match_worked_example),
    T(test_memory_fit_counts_accelerators),
    T(test_low_hbm_bandwidth_per_flop_is_warned),
    T(test_domain_beyond_the_accelerator_is_warned),
    T(test_text_reads_like_a_plan),
    T(test_text_lists_racks_by_kind),
    T(test_text_gives_ranges_over_a_kind_of_rack),
    T(test_json_has_the_stable_keys),
    T(test_ledger_has_one_row_per_link),
    T(test_dot_collapses_repeated_units),
};

SN_TEST_MAIN(cases)
