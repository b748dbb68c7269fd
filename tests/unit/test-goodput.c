/* test-goodput.c: failure rates, Young/Daly checkpoint intervals and the
 * effective training time ratio against Llama 3's published figures and
 * the closed forms of reference/perf-model-anchors.md section 4. */
/* covers: net workload study */
#include "harness.h"
#include "sn/model.h"

static struct sn_goodput_job llama3_job(void)
{
    /* 16,384 H100 in 2,048 nodes of 8 with a 400G NIC per GPU */
    struct sn_goodput_job j = {.accels = 16384,
                               .per_supernode = 8,
                               .per_node = 8,
                               .nics_per_node = 8,
                               .scaleup_switches = 4,
                               .checkpoint_bytes = 405e9 * 14,
                               .write_bw = 2e12,
                               .read_bw = 2e12};
    return j;
}

static void test_goodput_defaults_reproduce_llama3_mtbf(void)
{
    /* 419 unexpected interruptions in 54 days: MTBF 3.09 h (Llama 3
     * Table 5; anchors 4.1). Exact by construction of the per-class
     * rates, which must add back up to the table. */
    struct sn_goodput_params p;
    struct sn_goodput_job j = llama3_job();
    struct sn_goodput_result r;
    struct sn_error err;
    double total = 0;

    sn_goodput_params_default(&p);
    REQUIRE(sn_goodput_compute(&p, &j, &r, &err) == SN_OK);
    for (int c = 0; c < SN_FAIL_COUNT; c++)
        total += r.rate[c];
    CHECK_NEAR(total * 54 * 24, 419, 1e-9);
    CHECK_NEAR(r.mtbf / 3600, 54.0 * 24 / 419, 1e-9);
    /* GPUs are 268 of the 419 (64%) */
    CHECK_NEAR(r.rate[SN_FAIL_ACCEL] / total, 268.0 / 419, 1e-9);
}

static void test_goodput_young_daly_and_ettr_match_worked_example(void)
{
    /* anchors 4.2: M = 3.09 h, delta = 30 s, R = 10 min: Young's
     * interval sqrt(2 delta M) = 817 s, waste 30/817 + (408 + 600)/11124
     * = 12.8%, ETTR about 87% */
    struct sn_goodput_params p;
    struct sn_goodput_job j = llama3_job();
    struct sn_goodput_result r;
    struct sn_error err;
    double M, d = 30, x;

    sn_goodput_params_default(&p);
    p.checkpoint_write = 30;
    p.checkpoint_restore = 0.001;
    p.spares = -1; /* the example restarts at once on a replacement */
    REQUIRE(sn_goodput_compute(&p, &j, &r, &err) == SN_OK);
    M = r.mtbf;
    CHECK_NEAR(r.young, sqrt(2 * d * M), 1e-12);
    CHECK_NEAR(r.young, 817, 0.002);
    x = d / (2 * M);
    CHECK_NEAR(r.daly, sqrt(2 * d * M) * (1 + sqrt(x) / 3 + x / 9) - d, 1e-12);
    CHECK_NEAR(r.ettr, 1 - d / r.daly - r.daly / 2 / M - (600 + 0.001) / M,
               1e-9);
    CHECK(fabs(r.ettr - 0.872) < 0.005);
    /* restarting in 5 minutes instead gets Meta's ">90%" (anchors 4.2) */
    p.restart = 300;
    REQUIRE(sn_goodput_compute(&p, &j, &r, &err) == SN_OK);
    CHECK(r.ettr > 0.89);
}

static void test_goodput_checkpoint_time_from_storage(void)
{
    struct sn_goodput_params p;
    struct sn_goodput_job j = llama3_job();
    struct sn_goodput_result r;
    struct sn_error err;

    sn_goodput_params_default(&p);
    REQUIRE(sn_goodput_compute(&p, &j, &r, &err) == SN_OK);
    CHECK_NEAR(r.checkpoint_write, 405e9 * 14 / 2e12, 1e-12);
    CHECK_NEAR(r.restart, 600 + 405e9 * 14 / 2e12, 1e-12);
    j.write_bw = 0;
    CHECK(sn_goodput_compute(&p, &j, &r, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "checkpoint write time is unknown");
}

static void test_goodput_supernode_domain_grows_with_its_size(void)
{
    /* elastic data parallelism: a hardware failure takes its supernode
     * out for the restart; 72-GPU supernodes lose 9x what 8-GPU ones do
     * per failure, with the same failure rate: waste scales with size */
    struct sn_goodput_params p;
    struct sn_goodput_job j = llama3_job();
    struct sn_goodput_result small, big;
    struct sn_error err;

    sn_goodput_params_default(&p);
    p.domain = SN_FAULT_SUPERNODE;
    j.accels = 72 * 64;
    REQUIRE(sn_goodput_compute(&p, &j, &small, &err) == SN_OK);
    j.per_supernode = 72;
    REQUIRE(sn_goodput_compute(&p, &j, &big, &err) == SN_OK);
    CHECK_NEAR(big.waste_supernode / small.waste_supernode, 9, 1e-9);
    /* only software and network failures stop the whole job */
    CHECK_NEAR(3600 / big.mtbf,
               big.rate[SN_FAIL_SOFTWARE] + big.rate[SN_FAIL_NETWORK], 1e-9);
    /* one spare of each size: a 72-GPU spare idles 9x the capacity */
    p.spares = 1;
    j.per_supernode = 8;
    REQUIRE(sn_goodput_compute(&p, &j, &small, &err) == SN_OK);
    j.per_supernode = 72;
    REQUIRE(sn_goodput_compute(&p, &j, &big, &err) == SN_OK);
    CHECK_NEAR(small.spare_fraction, 8.0 / (4608 + 8), 1e-12);
    CHECK_NEAR(big.spare_fraction, 72.0 / (4608 + 72), 1e-12);
    CHECK(big.goodput < small.goodput);
}

static void test_goodput_no_spare_runs_a_supernode_short(void)
{
    /* by default every failure stops the job and the failed supernode
     * stays out until repaired (24 h): the job runs without it, its 1/S
     * share lost for the repair; one supernode waits for the repair */
    struct sn_goodput_params p;
    struct sn_goodput_job j = llama3_job();
    struct sn_goodput_result r;
    struct sn_error err;
    double local;

    sn_goodput_params_default(&p);
    REQUIRE(p.spares == 0 && p.domain == SN_FAULT_JOB);
    REQUIRE(sn_goodput_compute(&p, &j, &r, &err) == SN_OK);
    local = r.rate[SN_FAIL_ACCEL] + r.rate[SN_FAIL_NIC] + r.rate[SN_FAIL_HOST];
    CHECK_NEAR(r.waste_supernode, local * 24 / 2048, 1e-9);
    /* the interruptions are still Llama 3's: 3.09 h */
    CHECK_NEAR(r.mtbf / 3600, 54.0 * 24 / 419, 1e-9);
    /* 20 spares cover about 6 supernodes in repair: Poisson excess */
    p.spares = 20;
    REQUIRE(sn_goodput_compute(&p, &j, &r, &err) == SN_OK);
    CHECK(r.waste_supernode < 1e-9);
    /* one supernode of 8: it waits for the repair */
    j.accels = 8;
    p.spares = 0;
    REQUIRE(sn_goodput_compute(&p, &j, &r, &err) == SN_OK);
    CHECK_NEAR(
        r.waste_supernode,
        (r.rate[SN_FAIL_ACCEL] + r.rate[SN_FAIL_NIC] + r.rate[SN_FAIL_HOST]) *
            24,
        1e-9);
}

static void test_goodput_default_blast_radius_grows_with_domain(void)
{
    /* the trade-off of DOMAIN.md shows without any reliability keys: 256
     * GPUs in 8-GPU supernodes lose 1/32 of what one 256-GPU supernode
     * loses while a failed one is in repair */
    struct sn_goodput_params p;
    struct sn_goodput_job j = llama3_job();
    struct sn_goodput_result small, big;
    struct sn_error err;

    sn_goodput_params_default(&p);
    j.accels = 256;
    REQUIRE(sn_goodput_compute(&p, &j, &small, &err) == SN_OK);
    j.per_supernode = 256;
    REQUIRE(sn_goodput_compute(&p, &j, &big, &err) == SN_OK);
    CHECK_NEAR(big.waste_supernode / small.waste_supernode, 32, 1e-9);
    CHECK(big.ettr < small.ettr - 0.05);
}

static int parse(const char *text, struct sn_goodput_params *p,
                 struct sn_error *err)
{
    struct sn_yaml_doc doc;
    int rc = sn_yaml_parse("spec.yaml", text, strlen(text), &doc, err);

    if (rc)
        return rc;
    sn_goodput_params_default(p);
    rc = sn_goodput_parse("spec.yaml", sn_yaml_get(doc.root, "reliability"), p,
                          err);
    sn_yaml_doc_release(&doc);
    return rc;
}

static void test_goodput_parse_section_and_located_errors(void)
{
    struct sn_goodput_params p;
    struct sn_error err;

    REQUIRE(parse("reliability:\n  fault_domain: supernode\n  spares: 2\n"
                  "  restart: 5min\n  mtbf:\n    accelerator: 50000h\n",
                  &p, &err) == SN_OK);
    CHECK(p.domain == SN_FAULT_SUPERNODE);
    CHECK(p.spares == 2);
    CHECK_NEAR(p.restart, 300, 1e-12);
    CHECK_NEAR(p.mtbf[SN_FAIL_ACCEL], 50000, 1e-12);
    CHECK(parse("reliability:\n  restrat: 5min\n", &p, &err) == SN_EINPUT);
    CHECK_STR(err.msg, "spec.yaml:2:3: unknown key 'restrat' in reliability "
                       "(did you mean 'restart'?)");
    CHECK(parse("reliability:\n  restart: fast\n", &p, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "spec.yaml:2:12: reliability.restart:");
    CHECK(parse("reliability:\n  fault_domain: rack\n", &p, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "expected job or supernode");
    CHECK(parse("reliability:\n  mtbf:\n    gpu: 1h\n", &p, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "spec.yaml:3:5: unknown key 'gpu' in "
                            "reliability.mtbf");
    CHECK(parse("reliability:\n  spares: -3\n", &p, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "spec.yaml:2:11:");
}

static const struct sn_test cases[] = {
    T(test_goodput_defaults_reproduce_llama3_mtbf),
    T(test_goodput_young_daly_and_ettr_match_worked_example),
    T(test_goodput_checkpoint_time_from_storage),
    T(test_goodput_supernode_domain_grows_with_its_size),
    T(test_goodput_no_spare_runs_a_supernode_short),
    T(test_goodput_default_blast_radius_grows_with_domain),
    T(test_goodput_parse_section_and_located_errors),
};

SN_TEST_MAIN(cases)
