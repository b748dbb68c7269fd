/* test-health-topo.c: the spec's node section (defaults and located
 * errors) and the expected-against-found checks, hwloc reading the
 * fixture trees of tests/fixtures/sysfs/ through HWLOC_FSROOT. */
/* covers: health spec */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "health-fixtures.h"
#include "sn/health.h"

#define SYS "tests/fixtures/sysfs/"
#define NODE_SPEC "tests/fixtures/node/four-h100.yaml"

/* ---- the node section ---------------------------------------------------- */

static int parse_node(const char *text, struct sn_health_node *node,
                      struct sn_error *err)
{
    struct sn_spec spec;
    int rc = sn_spec_parse("t.yaml", text, strlen(text), &spec, err);

    if (rc)
        return rc;
    rc = sn_health_node_from_spec(&spec, node, err);
    sn_spec_release(&spec);
    return rc;
}

#define BASE                                                                   \
    "accelerator: h100-sxm5-80gb\n"                                            \
    "supernode: {accelerators: 8, per_node: 8}\n"                              \
    "scaleout: {topology: external, nics_per_node: 8, nic: cx7-400g}\n"

static void test_node_defaults_come_from_the_spec(void)
{
    struct sn_health_node node;
    struct sn_error err;
    struct sn_spec spec;

    REQUIRE(sn_spec_load("examples/dgx-h100-superpod-su.yaml", &spec, &err) ==
            SN_OK);
    REQUIRE(sn_health_node_from_spec(&spec, &node, &err) == SN_OK);
    CHECK(node.accelerators == 8);
    CHECK(node.nics == 8);
    CHECK_STR(node.model, "h100");
    CHECK(node.nvlinks == 18);
    /* nothing said about NUMA, PCIe or power: not checked */
    CHECK(node.numa_nodes == -1);
    CHECK(node.nnuma == 0);
    CHECK(node.pcie_accel.gen == 0);
    CHECK(node.power_limit_w == 0);
    sn_spec_release(&spec);
}

static void test_node_section_overrides_and_adds(void)
{
    struct sn_health_node node;
    struct sn_error err;

    REQUIRE(parse_node(BASE "node:\n"
                            "  accelerators: 4\n"
                            "  nics: 2\n"
                            "  nic_id: 15B3:1021\n"
                            "  numa_nodes: 2\n"
                            "  numa: {accelerators: [2, 2], nics: [1, 1]}\n"
                            "  nic_per_switch: true\n"
                            "  pcie: {nic: {gen: 5, width: 16}}\n"
                            "  nvlinks: 0\n"
                            "  power_limit: 0.65kW\n",
                       &node, &err) == SN_OK);
    CHECK(node.accelerators == 4);
    CHECK(node.nics == 2);
    CHECK_STR(node.nic_id, "15b3:1021");
    CHECK(node.numa_nodes == 2);
    CHECK(node.nnuma == 2 && node.numa_accels[1] == 2 &&
          node.numa_nics[0] == 1);
    CHECK(node.nic_per_switch);
    CHECK(node.pcie_nic.gen == 5 && node.pcie_nic.width == 16);
    CHECK(node.pcie_accel.gen == 0);
    CHECK(node.nvlinks == 0);
    CHECK_NEAR(node.power_limit_w, 650.0, 1e-9);
    REQUIRE(parse_node(BASE "node: {numa: balanced}\n", &node, &err) == SN_OK);
    CHECK(node.balanced);
}

static void test_node_unknown_key_is_located_with_a_suggestion(void)
{
    struct sn_health_node node;
    struct sn_error err;

    CHECK(parse_node(BASE "node:\n  acclerators: 4\n", &node, &err) ==
          SN_EINPUT);
    CHECK_STR(err.msg, "t.yaml:5:3: unknown key 'acclerators' in node (did "
                       "you mean 'accelerators'?)");
    /* a failed parse leaves nothing expected */
    CHECK(node.accelerators == -1);
}

static void test_node_bad_values_are_located(void)
{
    struct sn_health_node node;
    struct sn_error err;

    CHECK(parse_node(BASE "node: {pcie: {accelerator: {gen: 5, width: 12}}}"
                          "\n",
                     &node, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "t.yaml:4:");
    CHECK_CONTAINS(err.msg, "12 lanes (expected 1, 2, 4, 8, 16 or 32)");
    CHECK(parse_node(BASE "node: {pcie: {accelerator: {gen: 7}}}\n", &node,
                     &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "not a whole number from 1 to 6");
    CHECK(parse_node(BASE "node: {nic_id: mellanox}\n", &node, &err) ==
          SN_EINPUT);
    CHECK_CONTAINS(err.msg, "'mellanox' is not a PCI id");
    CHECK(parse_node(BASE "node: {power_limit: fast}\n", &node, &err) ==
          SN_EINPUT);
    CHECK_CONTAINS(err.msg, "node.power_limit: 'fast' is not a power");
    CHECK(parse_node(BASE "node: {nic_per_switch: maybe}\n", &node, &err) ==
          SN_EINPUT);
    CHECK_CONTAINS(err.msg, "expected true or false");
    CHECK(parse_node(BASE "node: {numa: even}\n", &node, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "expected 'balanced' or");
}

static void test_node_numa_lists_must_agree_with_the_totals(void)
{
    struct sn_health_node node;
    struct sn_error err;

    /* per_node 8 from the supernode: the list adds up to 6 */
    CHECK(parse_node(BASE "node: {numa: {accelerators: [4, 2]}}\n", &node,
                     &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "adds up to 6, but the node has 8 accelerators");
    CHECK(parse_node(BASE "node: {numa_nodes: 4, numa: {accelerators: "
                          "[4, 4]}}\n",
                     &node, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "2 counts for 4 NUMA nodes");
    CHECK(parse_node(BASE "node: {numa: {accelerators: [4, 4], nics: [8]}}\n",
                     &node, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "1 counts here, 2 in the other list");
}

/* ---- expected against found ---------------------------------------------- */

static int run(const char *tree, struct sn_health_node *node,
               struct sn_health_report *rep)
{
    struct sn_health_config cfg;

    setenv("HWLOC_FSROOT", tree, 1);
    fx_health_config(&cfg, tree, SN_HEALTH_PROBE_TOPO);
    cfg.node = node;
    return fx_health_run(&cfg, rep);
}

static int load_node(struct sn_health_node *node)
{
    struct sn_spec spec;
    struct sn_error err;
    int rc = sn_spec_load(NODE_SPEC, &spec, &err);

    if (rc) {
        printf("  %s\n", err.msg);
        return rc;
    }
    rc = sn_health_node_from_spec(&spec, node, &err);
    if (rc)
        printf("  %s\n", err.msg);
    sn_spec_release(&spec);
    return rc;
}

static void test_topo_good_node_is_as_designed(void)
{
    struct sn_health_node node;
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(load_node(&node) == SN_OK);
    REQUIRE(run(SYS "node-good", &node, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "topo.accelerators", "node", SN_HEALTH_PASS);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "4 as designed: 0000:03:00.0, 0000:04:00.0");
    ck = fx_expect_check(&rep, "topo.nics", "node", SN_HEALTH_PASS);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "0000:05:00.0 (mlx5_0)");
    ck = fx_expect_check(&rep, "topo.numa", "node", SN_HEALTH_PASS);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "node 1: 2 accelerators, 1 NIC");
    ck =
        fx_expect_check(&rep, "topo.pcie_tree", "0000:84:00.0", SN_HEALTH_PASS);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "nearest NIC 0000:85:00.0 (mlx5_1): PIX");
    CHECK_CONTAINS(ck->evidence, "via bridge 0000:81:00.0");
    /* no NVML: the model cannot be read, and doctor says so */
    ck = fx_expect_check(&rep, "topo.model", "0000:03:00.0", SN_HEALTH_SKIP);
    REQUIRE(ck);
    /* the rest passed: a skipped check does not turn the verdict */
    CHECK(sn_health_report_worst(&rep) == SN_HEALTH_PASS);
    sn_health_report_release(&rep);
}

static void test_topo_missing_gpu_fails_against_the_design(void)
{
    struct sn_health_node node;
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(load_node(&node) == SN_OK);
    REQUIRE(run(SYS "node-missing-gpu", &node, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "topo.accelerators", "node", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "found 3 of the 4 the design expects");
    ck = fx_expect_check(&rep, "topo.numa", "node", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "node 1: 1 accelerator, 1 NIC");
    sn_health_report_release(&rep);
    /* without a design a node with GPUs passes: nothing to compare with */
    REQUIRE(run(SYS "node-missing-gpu", NULL, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "topo.accelerators", "node", SN_HEALTH_PASS);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "found 3:");
    sn_health_report_release(&rep);
}

static void test_topo_nic_outside_the_gpu_switch_fails_the_design(void)
{
    struct sn_health_node node;
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(load_node(&node) == SN_OK);
    REQUIRE(run(SYS "node-far-nic", &node, &rep) == SN_OK);
    ck =
        fx_expect_check(&rep, "topo.pcie_tree", "0000:83:00.0", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "PHB, through the host bridge");
    ck =
        fx_expect_check(&rep, "topo.pcie_tree", "0000:03:00.0", SN_HEALTH_PASS);
    REQUIRE(ck);
    sn_health_report_release(&rep);
}

static void test_topo_numa_layout_differing_from_the_design_fails(void)
{
    struct sn_health_node node;
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(load_node(&node) == SN_OK);
    node.numa_nodes = 4; /* a design with sub-NUMA clustering */
    node.nnuma = 0;
    REQUIRE(run(SYS "node-good", &node, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "topo.numa", "node", SN_HEALTH_FAIL);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "(2 NUMA nodes, the design expects 4)");
    sn_health_report_release(&rep);
}

static void test_topo_no_accelerator_warns_unless_the_design_says_so(void)
{
    struct sn_health_node node;
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    REQUIRE(run(SYS "captured-vm", NULL, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "topo.accelerators", "node", SN_HEALTH_WARN);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "no accelerator on the PCI bus");
    sn_health_report_release(&rep);
    sn_health_node_init(&node);
    node.accelerators = 0;
    REQUIRE(run(SYS "captured-vm", &node, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "topo.accelerators", "node", SN_HEALTH_PASS);
    REQUIRE(ck);
    sn_health_report_release(&rep);
}

static void test_topo_refuses_hwloc_reading_another_root(void)
{
    struct sn_health_config cfg;
    struct sn_health_report rep;
    const struct sn_health_check *ck;

    /* doctor reads a fixture, hwloc the live system: skipped, said so */
    unsetenv("HWLOC_FSROOT");
    fx_health_config(&cfg, SYS "node-good", SN_HEALTH_PROBE_TOPO);
    REQUIRE(fx_health_run(&cfg, &rep) == SN_OK);
    ck = fx_expect_check(&rep, "topo.hwloc", "node", SN_HEALTH_SKIP);
    REQUIRE(ck);
    CHECK_CONTAINS(ck->evidence, "set HWLOC_FSROOT to the same root");
    CHECK(fx_find_check(&rep, "topo.accelerators", "node") == NULL);
    sn_health_report_release(&rep);
}

static const struct sn_test cases[] = {
    T(test_node_defaults_come_from_the_spec),
    T(test_node_section_overrides_and_adds),
    T(test_node_unknown_key_is_located_with_a_suggestion),
    T(test_node_bad_values_are_located),
    T(test_node_numa_lists_must_agree_with_the_totals),
    T(test_topo_good_node_is_as_designed),
    T(test_topo_missing_gpu_fails_against_the_design),
    T(test_topo_nic_outside_the_gpu_switch_fails_the_design),
    T(test_topo_numa_layout_differing_from_the_design_fails),
    T(test_topo_no_accelerator_warns_unless_the_design_says_so),
    T(test_topo_refuses_hwloc_reading_another_root),
};

SN_TEST_MAIN(cases)
