/* test-nccl-topo.c: NCCL's topology dump (the dumps of tests/fixtures/nccl/ and
 * inline documents): what the parser reads, NCCL's limits and located
 * errors, the PCIe distance of each GPU's NIC, and the checks against
 * the HGX H100 design. */
/* covers: nccl health */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sn/nccl.h"

#define DIR "tests/fixtures/nccl/"

static struct sn_nccl_topo *load(const char *name)
{
    struct sn_nccl_topo *t = NULL;
    struct sn_error err;
    char path[256];

    snprintf(path, sizeof(path), DIR "%s", name);
    if (sn_nccl_topo_load(path, &t, &err))
        printf("  %s\n", err.msg);
    return t;
}

static void design(struct sn_nccl_design *d)
{
    struct sn_error err;

    if (sn_nccl_design_load(DIR "hgx-h100.yaml", d, &err))
        printf("  %s\n", err.msg);
}

/* The checks of name with the given status, counted. */
static int count(const struct sn_health_report *rep, const char *name,
                 enum sn_health_status st)
{
    int n = 0;

    for (size_t i = 0; i < rep->nchecks; i++)
        n += !strcmp(rep->checks[i].name, name) && rep->checks[i].status == st;
    return n;
}

static const struct sn_health_check *first(const struct sn_health_report *rep,
                                           enum sn_health_status st)
{
    for (size_t i = 0; i < rep->nchecks; i++)
        if (rep->checks[i].status == st)
            return &rep->checks[i];
    return NULL;
}

static int parse(const char *text, struct sn_nccl_topo **t,
                 struct sn_error *err)
{
    return sn_nccl_topo_parse("t.xml", text, strlen(text), t, err);
}

static void test_healthy_dump_reads_every_gpu_nic_and_link(void)
{
    struct sn_nccl_topo *t = load("healthy.xml");

    REQUIRE(t);
    CHECK(t->ngpus == 8);
    CHECK(t->nnics == 8);
    CHECK(t->ncpus == 2);
    CHECK_STR(t->gpus[2].busid, "0000:3a:00.0");
    CHECK(t->gpus[2].sm == 90 && t->gpus[2].rank == 2 && t->gpus[2].gdr == 1);
    CHECK(t->gpus[2].cpu == 0 && t->gpus[5].cpu == 1);
    for (int i = 0; i < 8; i++) {
        CHECK(t->gpus[i].nvs_links == 18);
        CHECK(t->gpus[i].nic == i);
        CHECK(t->gpus[i].path == SN_NCCL_PATH_PIX);
    }
    CHECK_STR(t->nics[7].name, "mlx5_7");
    CHECK(t->nics[7].speed_mbps == 400000);
    CHECK(t->cpus[1].numaid == 1);
    sn_nccl_topo_free(t);
}

static void test_design_comes_from_the_spec(void)
{
    struct sn_nccl_design d;

    design(&d);
    CHECK(d.gpus == 8);
    CHECK(d.nvlinks == 18);
    CHECK(d.nvswitch);
    CHECK(d.nics == 8);
    CHECK_NEAR(d.nic_gbps, 400, 1e-9);
    CHECK(d.nic_near);
    CHECK(d.nvls);
    CHECK(d.numa_nodes == 2);
}

static void test_healthy_dump_passes(void)
{
    struct sn_nccl_topo *t = load("healthy.xml");
    struct sn_nccl_design d;
    struct sn_health_report rep;

    REQUIRE(t);
    design(&d);
    sn_health_report_init(&rep);
    sn_nccl_topo_check(t, &d, &rep);
    CHECK(sn_health_report_worst(&rep) == SN_HEALTH_PASS);
    CHECK(count(&rep, "nccl.topo.nvlink", SN_HEALTH_PASS) == 8);
    CHECK(count(&rep, "nccl.topo.nic_path", SN_HEALTH_PASS) == 8);
    sn_health_report_release(&rep);
    sn_nccl_topo_free(t);
}

static void test_missing_nvlink_names_the_gpu_and_both_counts(void)
{
    struct sn_nccl_topo *t = load("missing-nvlink.xml");
    struct sn_nccl_design d;
    struct sn_health_report rep;
    const struct sn_health_check *f;

    REQUIRE(t);
    CHECK(t->gpus[2].nvs_links == 17);
    design(&d);
    sn_health_report_init(&rep);
    sn_nccl_topo_check(t, &d, &rep);
    CHECK(count(&rep, "nccl.topo.nvlink", SN_HEALTH_FAIL) == 1);
    f = first(&rep, SN_HEALTH_FAIL);
    REQUIRE(f);
    CHECK_CONTAINS(f->subject, "GPU 2 (0000:3a:00.0)");
    CHECK_CONTAINS(f->evidence, "NCCL sees 17 NVLinks from GPU 2");
    CHECK_CONTAINS(f->evidence, "the design has 18");
    sn_health_report_release(&rep);
    sn_nccl_topo_free(t);
}

static void test_far_nic_is_sys_on_its_own_gpu_only(void)
{
    struct sn_nccl_topo *t = load("far-nic.xml");
    struct sn_nccl_design d;
    struct sn_health_report rep;
    const struct sn_health_check *f;

    REQUIRE(t);
    CHECK(t->gpus[3].path == SN_NCCL_PATH_SYS);
    CHECK_STR(t->nics[t->gpus[3].nic].name, "mlx5_3");
    CHECK(t->gpus[4].path == SN_NCCL_PATH_PIX);
    design(&d);
    sn_health_report_init(&rep);
    sn_nccl_topo_check(t, &d, &rep);
    CHECK(count(&rep, "nccl.topo.nic_path", SN_HEALTH_FAIL) == 1);
    f = first(&rep, SN_HEALTH_FAIL);
    REQUIRE(f);
    CHECK_CONTAINS(f->subject, "GPU 3");
    CHECK_CONTAINS(f->evidence, "is SYS");
    CHECK_CONTAINS(f->remedy, "far socket");
    sn_health_report_release(&rep);
    sn_nccl_topo_free(t);
}

static void test_socket_dump_fails_nics_and_speed(void)
{
    struct sn_nccl_topo *t = load("socket.xml");
    struct sn_nccl_design d;
    struct sn_health_report rep;

    REQUIRE(t);
    CHECK(t->nnics == 1);
    CHECK(t->nics[0].speed_mbps == 100000 && t->nics[0].gdr == 0);
    design(&d);
    sn_health_report_init(&rep);
    sn_nccl_topo_check(t, &d, &rep);
    CHECK(count(&rep, "nccl.topo.nics", SN_HEALTH_FAIL) == 1);
    CHECK(count(&rep, "nccl.topo.nic_speed", SN_HEALTH_FAIL) == 1);
    sn_health_report_release(&rep);
    sn_nccl_topo_free(t);
}

#define GPU(bus, dev, links)                                                   \
    "<pci busid=\"0000:" bus ":00.0\" class=\"0x030200\"><gpu dev=\"" dev      \
    "\" sm=\"80\" rank=\"" dev "\" gdr=\"1\">" links "</gpu></pci>"

static void test_mesh_counts_links_per_gpu_pair(void)
{
    const char *x = "<system version=\"1\"><cpu numaid=\"0\">" GPU(
        "01", "0",
        "<nvlink target=\"0000:02:00.0\" count=\"2\" "
        "tclass=\"0x030200\"/>")
        GPU("02", "1",
            "<nvlink target=\"0000:01:00.0\" count=\"4\" "
            "tclass=\"0x030200\"/>") "</cpu></system>";
    struct sn_nccl_topo *t = NULL;
    struct sn_nccl_design d;
    struct sn_health_report rep;
    struct sn_error err;

    REQUIRE(parse(x, &t, &err) == SN_OK);
    CHECK(t->gpus[0].npeers == 1 && t->gpus[0].peers[0].gpu == 1);
    sn_nccl_design_init(&d);
    d.gpus = 2;
    d.nvlinks = 4;
    sn_health_report_init(&rep);
    sn_nccl_topo_check(t, &d, &rep);
    REQUIRE(first(&rep, SN_HEALTH_FAIL));
    CHECK_CONTAINS(first(&rep, SN_HEALTH_FAIL)->evidence,
                   "NCCL sees 2 NVLinks between GPU 0 and GPU 1, the design "
                   "has 4");
    CHECK(count(&rep, "nccl.topo.nvlink", SN_HEALTH_FAIL) == 1);
    sn_health_report_release(&rep);
    /* a third GPU in the design: each sees one of its two peers (and
     * GPU 0 too few links to GPU 1) */
    d.gpus = 3;
    d.nvlinks = 8;
    sn_health_report_init(&rep);
    sn_nccl_topo_check(t, &d, &rep);
    CHECK(count(&rep, "nccl.topo.nvlink", SN_HEALTH_FAIL) == 3);
    REQUIRE(first(&rep, SN_HEALTH_FAIL));
    sn_health_report_release(&rep);
    sn_nccl_topo_free(t);
}

static void test_pcie_distance_follows_nccls_rule(void)
{
    /* GPU and NIC under one switch: PIX; two switches deep: PXB; under
     * the CPU apart: PHB */
    const char *x =
        "<system version=\"1\"><cpu numaid=\"0\">"
        "<pci busid=\"0000:10:00.0\" class=\"0x060400\">"
        "<pci busid=\"0000:11:00.0\" class=\"0x060400\">" GPU(
            "12", "0",
            "") "</pci>"
                "<pci busid=\"0000:13:00.0\" class=\"0x020700\"><nic><net "
                "name=\"a\" dev=\"0\" speed=\"400000\"/></nic></pci></pci>"
                "<pci busid=\"0000:20:00.0\" class=\"0x060400\">" GPU(
                    "21", "1", "") "</pci></cpu></system>";
    struct sn_nccl_topo *t = NULL;
    struct sn_error err;

    REQUIRE(parse(x, &t, &err) == SN_OK);
    CHECK(t->gpus[0].path == SN_NCCL_PATH_PXB);
    CHECK(t->gpus[1].path == SN_NCCL_PATH_PHB); /* fewer NICs: shared */
    CHECK(t->gpus[1].nic == 0);
    sn_nccl_topo_free(t);
}

static void test_bad_dumps_give_located_errors(void)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"<system version=\"1\">\n<cpu>\n<pci>", "t.xml:3:"},
        {"<system version=\"2\"><cpu/></system>", "wrong version"},
        {"<topo version=\"1\"/>", "root element is <topo>"},
        {"<system version=\"1\"><cpu numaid=\"0\"></cpu></system>", "no <gpu>"},
        {"<system version=\"1\">\n<cpu numaid=\"x\"/></system>",
         "t.xml:2: <cpu numaid=\"x\">: not a whole number"},
        {"<system version=\"1\"><cpu><gpu dev=\"0\"/></cpu></system>",
         "outside a <pci"},
        {"<system version=\"1\" a=\"1\" b=\"1\" c=\"1\" d=\"1\" e=\"1\" "
         "f=\"1\" g=\"1\" h=\"1\" i=\"1\" j=\"1\" k=\"1\" l=\"1\" m=\"1\" "
         "n=\"1\" o=\"1\" p=\"1\"/>",
         "more than 16 attributes"},
        {"<!DOCTYPE s [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
         "<system version=\"1\"><cpu numaid=\"&x;\"/></system>",
         "t.xml:1:1: a DOCTYPE"},
        /* refused at the declaration, before any entity is expanded */
        {"<?xml version=\"1.0\"?>\n<!DOCTYPE system [\n"
         "<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">\n"
         "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">\n"
         "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">]>\n"
         "<system version=\"1\"><cpu arch=\"&c;&c;&c;\"/></system>",
         "t.xml:2:1: a DOCTYPE: NCCL's topology dumps carry none"},
        {"<!DOCTYPE system><system version=\"1\"/>", "a DOCTYPE"},
    };
    for (size_t i = 0; i < SN_ARRAY_LEN(cases); i++) {
        struct sn_nccl_topo *t = NULL;
        struct sn_error err;
        CHECK(parse(cases[i].text, &t, &err) == SN_EINPUT);
        CHECK(t == NULL);
        CHECK_CONTAINS(err.msg, cases[i].want);
    }
}

static void test_long_values_and_huge_input_are_refused(void)
{
    char *big = malloc(SN_NCCL_TOPO_MAX_BYTES + 2);
    char attr[400];
    char doc[600];
    struct sn_nccl_topo *t = NULL;
    struct sn_error err;

    REQUIRE(big);
    memset(attr, 'a', 300);
    attr[300] = '\0';
    snprintf(doc, sizeof(doc),
             "<system version=\"1\"><cpu vendor=\"%s\"/></system>", attr);
    CHECK(parse(doc, &t, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "NCCL reads at most 255");
    memset(big, ' ', SN_NCCL_TOPO_MAX_BYTES + 1);
    CHECK(sn_nccl_topo_parse("big.xml", big, SN_NCCL_TOPO_MAX_BYTES + 1, &t,
                             &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "larger than");
    CHECK(sn_nccl_topo_load(DIR "absent.xml", &t, &err) != SN_OK);
    free(big);
}

static const struct sn_test cases[] = {
    T(test_healthy_dump_reads_every_gpu_nic_and_link),
    T(test_design_comes_from_the_spec),
    T(test_healthy_dump_passes),
    T(test_missing_nvlink_names_the_gpu_and_both_counts),
    T(test_far_nic_is_sys_on_its_own_gpu_only),
    T(test_socket_dump_fails_nics_and_speed),
    T(test_mesh_counts_links_per_gpu_pair),
    T(test_pcie_distance_follows_nccls_rule),
    T(test_bad_dumps_give_located_errors),
    T(test_long_values_and_huge_input_are_refused),
};

SN_TEST_MAIN(cases)
