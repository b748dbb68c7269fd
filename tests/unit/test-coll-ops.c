/* test-coll-ops.c: the collective vocabulary (coll.h, net/coll-ops.c):
 * nccl-tests' bus factors and bandwidths, every name and alias of an
 * operation, the element types and their sizes, and what an unknown name
 * is told. */
/* covers: net workload study topo */
#include <math.h>
#include <string.h>

#include "coll-fixtures.h"
#include "harness.h"

/* nccl-tests bus factors (doc/PERFORMANCE.md): AllReduce 2(n-1)/n;
 * ReduceScatter, AllGather, AlltoAll (n-1)/n; the rest 1. */
static void test_coll_bus_factors_follow_nccl_tests(void)
{
    CHECK_NEAR(sn_coll_bus_factor(SN_COLL_ALLREDUCE, 8), 1.75, 1e-15);
    CHECK_NEAR(sn_coll_bus_factor(SN_COLL_ALLGATHER, 8), 0.875, 1e-15);
    CHECK_NEAR(sn_coll_bus_factor(SN_COLL_REDUCESCATTER, 4), 0.75, 1e-15);
    CHECK_NEAR(sn_coll_bus_factor(SN_COLL_ALLTOALL, 2), 0.5, 1e-15);
    CHECK(sn_coll_bus_factor(SN_COLL_BROADCAST, 8) == 1);
    CHECK(sn_coll_bus_factor(SN_COLL_REDUCE, 8) == 1);
    CHECK(sn_coll_bus_factor(SN_COLL_SENDRECV, 8) == 1);
    CHECK(sn_coll_bus_factor(SN_COLL_ALLREDUCE, 1) == 0);
    CHECK(sn_coll_bus_factor(SN_COLL_ALLREDUCE, 0) == 0);
    CHECK(sn_coll_bus_factor(SN_COLL_OP_COUNT, 8) == 0);
}

/* busbw = size / time x bus factor (nccl-tests PERFORMANCE.md): 1 GB in
 * 10 ms over 8 ranks is algbw 100 GB/s, all-reduce busbw 175 GB/s; no
 * time, no bandwidth. */
static void test_coll_busbw_is_algbw_times_bus_factor(void)
{
    CHECK_NEAR(sn_coll_algbw(1e9, 1e-2), 1e11, 1e-12);
    CHECK_NEAR(sn_coll_busbw(SN_COLL_ALLREDUCE, 8, 1e9, 1e-2), 1.75e11, 1e-12);
    CHECK_NEAR(sn_coll_busbw(SN_COLL_ALLGATHER, 4, 1e9, 1e-2), 7.5e10, 1e-12);
    CHECK(sn_coll_busbw(SN_COLL_ALLREDUCE, 8, 1e9, 0) == 0);
    CHECK(sn_coll_algbw(1e9, -1) == 0);
}

/* The model reports each op's busbw as coll.h's busbw of its predicted
 * time, the function bench and check use for measured times. */
static void test_coll_model_busbw_is_the_shared_busbw(void)
{
    struct sn_topo *t = fx_dgx_h100(2);
    struct sn_coll_model *m = NULL;
    struct sn_error err;
    int done = 0;

    REQUIRE(sn_coll_model_new(t, &m, &err) == SN_OK);
    for (int i = 0; i < SN_COLL_OP_COUNT; i++) {
        struct sn_coll_result r;
        uint32_t n = i == SN_COLL_SENDRECV ? 2 : 16;
        struct sn_group g = {0, n, 1, NULL};
        double bytes = 64.0 * 1024 * 1024;
        if (sn_coll_predict(m, i, &g, bytes, SN_ALGO_AUTO, &r, &err))
            continue;
        CHECK(r.busbw == sn_coll_busbw(i, n, bytes, r.time));
        CHECK_NEAR(r.busbw, r.algbw * sn_coll_bus_factor(i, n), 1e-12);
        CHECK(r.busbw > 0);
        done++;
    }
    CHECK(done == SN_COLL_OP_COUNT);
    sn_coll_model_free(m);
    sn_topo_free(t);
}

/* Every name and alias in the table parses to its own op, in any case
 * and with nccl-tests' separators; the table's flags match the ops. */
static void test_coll_every_alias_parses_to_its_op(void)
{
    struct sn_error err;
    enum sn_coll_op op;
    int aliases = 0;

    for (int i = 0; i < SN_COLL_OP_COUNT; i++) {
        const struct sn_coll_op_info *o = sn_coll_op_info(i);
        CHECK(o != NULL && !strcmp(o->name, sn_coll_op_name(i)));
        CHECK(sn_coll_op_parse(o->name, &op, &err) == SN_OK &&
              op == (enum sn_coll_op)i);
        for (size_t a = 0; a < 3 && o->aliases[a]; a++, aliases++)
            CHECK(sn_coll_op_parse(o->aliases[a], &op, &err) == SN_OK &&
                  op == (enum sn_coll_op)i);
    }
    CHECK(aliases >= 10);
    CHECK(sn_coll_op_info(SN_COLL_OP_COUNT) == NULL);
    CHECK(sn_coll_op_parse("AllReduce", &op, &err) == SN_OK &&
          op == SN_COLL_ALLREDUCE);
    CHECK(sn_coll_op_parse("ALL-GATHER", &op, &err) == SN_OK &&
          op == SN_COLL_ALLGATHER);
    CHECK(sn_coll_op_parse("b_cast", &op, &err) == SN_OK &&
          op == SN_COLL_BROADCAST);
    CHECK(sn_coll_op_info(SN_COLL_REDUCESCATTER)->reduces &&
          sn_coll_op_info(SN_COLL_REDUCESCATTER)->parted &&
          !sn_coll_op_info(SN_COLL_REDUCESCATTER)->rooted);
    CHECK(sn_coll_op_info(SN_COLL_BROADCAST)->rooted &&
          !sn_coll_op_info(SN_COLL_BROADCAST)->reduces);
}

/* Element types: nccl-tests' names and the short ones parse to the type,
 * with ncclDataType_t's sizes; a typo gets the nearest name. */
static void test_coll_dtypes_parse_with_their_sizes(void)
{
    static const struct {
        const char *name;
        enum sn_coll_dtype d;
        size_t size;
    } cases[] = {
        {"float", SN_COLL_FLOAT, 4},   {"FP32", SN_COLL_FLOAT, 4},
        {"half", SN_COLL_HALF, 2},     {"bf16", SN_COLL_BFLOAT16, 2},
        {"double", SN_COLL_DOUBLE, 8}, {"i8", SN_COLL_INT8, 1},
        {"uint8", SN_COLL_UINT8, 1},   {"int", SN_COLL_INT32, 4},
        {"u32", SN_COLL_UINT32, 4},    {"int64", SN_COLL_INT64, 8},
        {"u64", SN_COLL_UINT64, 8},    {"fp8_e4m3", SN_COLL_FP8E4M3, 1},
        {"e5m2", SN_COLL_FP8E5M2, 1},
    };
    struct sn_error err;
    enum sn_coll_dtype d;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        CHECK(sn_coll_dtype_parse(cases[i].name, &d, &err) == SN_OK &&
              d == cases[i].d);
        CHECK(sn_coll_dtype_size(cases[i].d) == cases[i].size);
    }
    for (int i = 0; i < SN_COLL_DTYPE_COUNT; i++)
        CHECK(sn_coll_dtype_parse(sn_coll_dtype_name(i), &d, &err) == SN_OK &&
              d == (enum sn_coll_dtype)i);
    CHECK(sn_coll_dtype_size(SN_COLL_DTYPE_COUNT) == 0);
    CHECK(sn_coll_dtype_parse("flaot", &d, &err) == SN_EINPUT);
    CHECK_STR(err.msg, "unknown data type 'flaot' (did you mean 'float'?)");
}

/* Unknown names say what was typed and the closest name, or list them
 * all when none is close (the wording `sim coll --op` pins). */
static void test_coll_unknown_names_suggest_or_list(void)
{
    struct sn_error err;
    enum sn_coll_op op = SN_COLL_REDUCE;
    enum sn_coll_algo algo = SN_ALGO_TREE;

    CHECK(sn_coll_op_parse("allreduse", &op, &err) == SN_EINPUT);
    CHECK_STR(err.msg, "unknown collective 'allreduse' (did you mean "
                       "'allreduce'?)");
    CHECK(sn_coll_op_parse("barrier", &op, &err) == SN_EINPUT);
    CHECK_STR(err.msg, "unknown collective 'barrier' (expected "
                       "allreduce, allgather, reducescatter, alltoall, "
                       "broadcast, reduce or sendrecv)");
    CHECK(op == SN_COLL_REDUCE);
    CHECK(sn_coll_algo_parse("nvls", &algo, &err) == SN_OK &&
          algo == SN_ALGO_NVLS);
    CHECK(sn_coll_algo_parse("fastest", &algo, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "unknown algorithm 'fastest'");
    CHECK(sn_coll_algo_parse("hire", &algo, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "did you mean 'hier'?");
    CHECK(algo == SN_ALGO_NVLS);
}

static const struct sn_test cases[] = {
    T(test_coll_bus_factors_follow_nccl_tests),
    T(test_coll_busbw_is_algbw_times_bus_factor),
    T(test_coll_model_busbw_is_the_shared_busbw),
    T(test_coll_every_alias_parses_to_its_op),
    T(test_coll_unknown_names_suggest_or_list),
    T(test_coll_dtypes_parse_with_their_sizes),
};

SN_TEST_MAIN(cases)
