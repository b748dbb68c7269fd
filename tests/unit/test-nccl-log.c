/* test-nccl-log.c: NCCL_DEBUG=INFO logs (the logs of tests/fixtures/nccl/
 * and inline lines): what the parser reads from NCCL's lines, what it
 * skips, hostile input, and the checks against the HGX H100 design. */
/* covers: nccl diagnose health */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sn/nccl.h"

#define DIR "tests/fixtures/nccl/"
#define P "hgx-a:40100:40161 [0] NCCL INFO "

static struct sn_nccl_log *load(const char *name)
{
    struct sn_nccl_log *l = NULL;
    struct sn_error err;
    char path[256];

    snprintf(path, sizeof(path), DIR "%s", name);
    if (sn_nccl_log_load(path, &l, &err))
        printf("  %s\n", err.msg);
    return l;
}

static struct sn_nccl_log *parse(const char *text)
{
    struct sn_nccl_log *l = NULL;
    struct sn_error err;

    if (sn_nccl_log_parse("t.log", text, strlen(text), &l, &err))
        printf("  %s\n", err.msg);
    return l;
}

static void design(struct sn_nccl_design *d)
{
    struct sn_error err;

    if (sn_nccl_design_load(DIR "hgx-h100.yaml", d, &err))
        printf("  %s\n", err.msg);
}

/* Judge a fixture; the first check named name, with its status. */
static const struct sn_health_check *judge(const char *file, const char *name,
                                           struct sn_health_report *rep)
{
    struct sn_nccl_log *l = load(file);
    struct sn_nccl_design d;

    sn_health_report_init(rep);
    if (!l)
        return NULL;
    design(&d);
    sn_nccl_log_check(l, &d, rep);
    sn_nccl_log_free(l);
    for (size_t i = 0; i < rep->nchecks; i++)
        if (!strcmp(rep->checks[i].name, name))
            return &rep->checks[i];
    return NULL;
}

static void test_healthy_log_reads_what_nccl_chose(void)
{
    struct sn_nccl_log *l = load("healthy.log");

    REQUIRE(l);
    CHECK_STR(l->version, "2.23.4");
    CHECK_STR(l->built_cuda, "12.6");
    CHECK(l->nranks == 16 && l->nnodes == 2 && l->local_ranks == 8);
    CHECK_STR(l->network, "IB");
    CHECK(l->ib_devices == 8);
    CHECK(l->nvls == 1);
    CHECK(l->coll_channels == 16 && l->nvls_channels == 16);
    CHECK(l->intra[SN_NCCL_TR_P2P] == 224);
    CHECK(l->inter[SN_NCCL_TR_NET_IB] == 32); /* sends; receives not twice */
    CHECK(l->intra[SN_NCCL_TR_SHM] == 0 && l->ib_no_gdr == 0);
    CHECK(l->rings == 16 && l->connected_rings && l->connected_trees);
    CHECK_STR(l->rank_host[9], "hgx-b");
    CHECK(l->nenv == 1); /* NCCL_SOCKET_IFNAME, once */
    sn_nccl_log_free(l);
}

static void test_healthy_log_passes(void)
{
    struct sn_health_report rep;

    judge("healthy.log", "nccl.log.net", &rep);
    CHECK(rep.nchecks >= 7);
    CHECK(sn_health_report_worst(&rep) == SN_HEALTH_PASS);
    sn_health_report_release(&rep);
}

static void test_socket_fallback_fails_with_the_remedy(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *c = judge("socket.log", "nccl.log.net", &rep);

    REQUIRE(c);
    CHECK(c->status == SN_HEALTH_FAIL);
    CHECK_CONTAINS(c->evidence, "NET/Socket over eth0");
    CHECK_CONTAINS(c->evidence, "NET/IB : No device found");
    CHECK_CONTAINS(c->remedy, "NET/Socket chosen: no IB device visible to "
                              "NCCL: check NCCL_IB_HCA");
    sn_health_report_release(&rep);
}

static void test_shm_between_gpus_of_a_node_fails_on_nvlink_design(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *c =
        judge("nvlink-down.log", "nccl.log.transport", &rep);

    REQUIRE(c);
    CHECK(c->status == SN_HEALTH_FAIL);
    CHECK_CONTAINS(c->evidence, "32 intra-node connections over SHM");
    CHECK_CONTAINS(c->evidence, "nvlink-down.log:");
    sn_health_report_release(&rep);
    c = judge("nvlink-down.log", "nccl.log.nvls", &rep);
    REQUIRE(c);
    CHECK(c->status == SN_HEALTH_WARN);
    sn_health_report_release(&rep);
}

static void test_far_nic_turns_gpudirect_off(void)
{
    struct sn_health_report rep;
    const struct sn_health_check *c =
        judge("far-nic.log", "nccl.log.gdr", &rep);

    REQUIRE(c);
    CHECK(c->status == SN_HEALTH_FAIL);
    CHECK_CONTAINS(c->evidence, "4 NET/IB connections without GDRDMA");
    CHECK_CONTAINS(c->evidence, "GPU Direct RDMA Disabled for GPU 3");
    sn_health_report_release(&rep);
}

static void test_net_between_ranks_of_one_host_is_intra_node(void)
{
    struct sn_nccl_log *l = parse(
        P "comm 0x1 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0\n"
          "hgx-a:40101:40162 [1] NCCL INFO comm 0x2 rank 1 nRanks 2 nNodes 1 "
          "localRanks 2 localRank 1 MNNVL 0\n" P
          "Channel 00/0 : 0[0] -> 1[1] [send] via NET/IB/0\n" P
          "Channel 00 : 1[1b000] -> 0[18000] via SHM/direct/direct\n");

    REQUIRE(l);
    CHECK(l->intra[SN_NCCL_TR_NET_IB] == 1);
    CHECK(l->intra[SN_NCCL_TR_SHM] == 1); /* the older "Channel 00" form */
    CHECK(l->inter[SN_NCCL_TR_NET_IB] == 0);
    sn_nccl_log_free(l);
}

static void test_warnings_env_and_collnet_are_kept(void)
{
    struct sn_nccl_log *l = parse(
        "some other program's line\n"
        "misc/socket.cc:441 NCCL WARN socketFinalizeAccept: wrong type\n" P
        "NCCL_COLLNET_ENABLE set by environment to 1.\n" P
        "8 coll channels, 8 collnet channels, 0 nvls channels, 8 p2p "
        "channels, 2 p2p channels per peer\n");
    struct sn_health_report rep;

    REQUIRE(l);
    CHECK(l->lines == 4 && l->nccl_lines == 3);
    CHECK(l->nwarns == 1 && l->warns[0].line == 2);
    CHECK_CONTAINS(l->warns[0].text, "socketFinalizeAccept");
    CHECK(l->collnet_env == 1 && l->collnet_channels == 8);
    sn_health_report_init(&rep);
    sn_nccl_log_check(l, NULL, &rep);
    CHECK(sn_health_report_worst(&rep) == SN_HEALTH_WARN);
    sn_health_report_release(&rep);
    sn_nccl_log_free(l);
}

static void test_a_file_without_nccl_lines_is_bad_input(void)
{
    struct sn_nccl_log *l = NULL;
    struct sn_error err;
    const char *text = "hello\nworld\n";

    CHECK(sn_nccl_log_parse("x.log", text, strlen(text), &l, &err) ==
          SN_EINPUT);
    CHECK(l == NULL);
    CHECK_CONTAINS(err.msg, "x.log:1: no NCCL INFO lines");
}

static void test_hostile_lines_are_cut_and_cleaned(void)
{
    size_t n = 3 * SN_NCCL_LOG_MAX_LINE;
    char *text = malloc(n + 200);
    struct sn_nccl_log *l;
    struct sn_health_report rep;
    size_t len;

    REQUIRE(text);
    len = (size_t)snprintf(
        text, 200, "h:1:1 [0] NCCL WARN \x1b[31mred\x07\n" P "Using network ");
    memset(text + len, 'A', n);
    len += n;
    text[len++] = '\0'; /* a NUL inside the input */
    memcpy(text + len,
           "\n" P "Channel 9999999999/0 : -5[x] -> 99999[1] via "
           "P2P\n",
           60);
    len += 60;
    l = NULL;
    {
        struct sn_error err;
        CHECK(sn_nccl_log_parse("h.log", text, len, &l, &err) == SN_OK);
    }
    REQUIRE(l);
    CHECK(l->cut_lines == 1);
    CHECK(strchr(l->warns[0].text, '\x1b') == NULL);
    CHECK(strlen(l->network) < sizeof(l->network));
    sn_health_report_init(&rep);
    sn_nccl_log_check(l, NULL, &rep);
    CHECK(rep.nchecks > 0);
    sn_health_report_release(&rep);
    sn_nccl_log_free(l);
    free(text);
}

static void test_nccl_built_for_a_newer_cuda_than_the_driver_fails(void)
{
    struct sn_nccl_log *l =
        parse(P "cudaDriverVersion 12020\n" P "NCCL version 2.27.7+cuda13.0\n");
    struct sn_health_report rep;

    REQUIRE(l);
    CHECK(l->cuda_driver == 12020);
    sn_health_report_init(&rep);
    sn_nccl_log_check(l, NULL, &rep);
    REQUIRE(rep.nchecks > 0);
    CHECK(rep.checks[0].status == SN_HEALTH_FAIL);
    CHECK_CONTAINS(rep.checks[0].evidence,
                   "built for CUDA 13.0; the driver supports CUDA 12.2");
    sn_health_report_release(&rep);
    sn_nccl_log_free(l);
}

static const struct sn_test cases[] = {
    T(test_nccl_built_for_a_newer_cuda_than_the_driver_fails),
    T(test_healthy_log_reads_what_nccl_chose),
    T(test_healthy_log_passes),
    T(test_socket_fallback_fails_with_the_remedy),
    T(test_shm_between_gpus_of_a_node_fails_on_nvlink_design),
    T(test_far_nic_turns_gpudirect_off),
    T(test_net_between_ranks_of_one_host_is_intra_node),
    T(test_warnings_env_and_collnet_are_kept),
    T(test_a_file_without_nccl_lines_is_bad_input),
    T(test_hostile_lines_are_cut_and_cleaned),
};

SN_TEST_MAIN(cases)
