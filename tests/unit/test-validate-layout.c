/* test-validate-layout.c: how `validate` reads the layout columns of the
 * MoE training file (shared/validation/moe-training-public.csv): a blank
 * dp derived from n_gpus, a blank cp as 1, the cp, vpp, ep, etp and
 * precision columns, a model found by alias, a local batch. */
#include <stdlib.h>

#include "harness.h"
#include "sn/model.h"

#define MOE_HEADER                                                             \
    "source,model,gpu,n_gpus,precision,seq,global_batch,micro_batch,tp,pp,"    \
    "cp,vpp,ep,etp,dp,other_parallel,measured_metric,measured_value,notes\n"

/* Megatron-Bridge's GB200 DeepSeek-V3 row as the public file gives it
 * (dp blank), and variants: dp that does not divide, a local batch. */
static void test_validate_derives_dp_and_reads_the_moe_columns(void)
{
    static const char csv[] = MOE_HEADER
        "a,deepseek-r1,gb200-nvl72,256,mxfp8,4096,4096,1,1,4,1,4,64,,,,"
        "tokens_per_s_per_gpu,4912,\n"
        "b,mixtral-8x7b,gb200-nvl72,64,bf16,4096,256,1,1,3,,,8,,,,"
        "tokens_per_s_per_gpu,19000,\n"
        "c,qwen3-30b-a3b,b200-hgx,8,bf16,4096,,,1,1,,,8,,,"
        "local batch 8,tokens_per_s_per_gpu,14796,\n"
        "d,mixtral-8x7b,gb200-nvl72,64,bf16,4096,256,1,2,1,1,1,8,1,32,,"
        "tokens_per_s_per_gpu,19000,\n"
        "e,mixtral-8x7b,gb200-nvl72,64,bf16,4096,256,1,1,1,x,1,8,,,,"
        "tokens_per_s_per_gpu,19000,\n";
    struct sn_validate_report r;
    struct sn_error err;

    REQUIRE(sn_validate_csv("t.csv", csv, strlen(csv), &r, &err) == SN_OK);
    REQUIRE(r.nrows == 5);
    /* a: dp = 256 / (1 x 4 x 1), ep and vpp from their columns, MXFP8
     * at the FP8 rate, the model by its alias */
    CHECK(r.rows[0].predicted_ok);
    CHECK(r.rows[0].layout.dp == 64 && r.rows[0].layout.ep == 64);
    CHECK(r.rows[0].layout.vpp == 4 && r.rows[0].layout.cp == 1);
    CHECK(r.rows[0].layout.dtype == SN_DTYPE_FP8);
    CHECK_CONTAINS(r.rows[0].assumed, "dp 64 from n_gpus");
    CHECK_CONTAINS(r.rows[0].assumed, "mxfp8 at the fp8 rate");
    /* b: 64 GPUs are no multiple of tp x pp x cp = 3 */
    CHECK(!r.rows[1].predicted_ok);
    CHECK_CONTAINS(r.rows[1].reason, "dp is missing and the 64 GPUs are "
                                     "not a multiple of tp x pp x cp = 3");
    /* c: no global batch, 8 sequences per DP rank */
    CHECK(r.rows[2].predicted_ok);
    CHECK(r.rows[2].layout.gbs == 64 && r.rows[2].layout.dp == 8);
    CHECK_CONTAINS(r.rows[2].assumed, "global batch 8 x dp from local");
    /* d: dp given, the experts split by the row's etp, not by tp */
    CHECK(r.rows[3].predicted_ok);
    CHECK(r.rows[3].etp == 1 && r.rows[3].layout.tp == 2);
    CHECK(r.rows[3].layout.etp == 1);
    CHECK(r.rows[3].layout.dtype == SN_DTYPE_BF16);
    CHECK(!strstr(r.rows[3].assumed, "etp"));
    /* e: a cp that is not a number */
    CHECK(!r.rows[4].predicted_ok);
    CHECK_CONTAINS(r.rows[4].reason, "not a whole number");
    sn_validate_report_release(&r);
}

/* The project's MoE set (NVIDIA Megatron-Bridge and NeMo performance
 * summaries, the Megatron-MoE ModelZoo, torchtitan): every row predicted,
 * the median absolute error within the 15%. */
static void test_validate_moe_public_rows_are_read(void)
{
    const char *path = "tests/fixtures/validation/moe-training-public.csv";
    struct sn_validate_report r;
    struct sn_error err;
    char *text = NULL;
    size_t len = 0;

    REQUIRE(sn_read_file(path, SN_FILE_MAX, &text, &len, &err) == SN_OK);
    REQUIRE(sn_validate_csv(path, text, len, &r, &err) == SN_OK);
    free(text);
    CHECK(r.nrows == 12);
    for (size_t i = 0; i < r.nrows; i++) {
        CHECK(r.rows[i].predicted_ok || r.rows[i].reason[0]);
        CHECK(!strstr(r.rows[i].reason, "tp, pp or dp is missing"));
        CHECK(!strstr(r.rows[i].reason, "not in the catalog"));
    }
    CHECK(r.npredicted == 12);
    CHECK(r.median_abs_pct <= 15.0);
    if (!(r.median_abs_pct <= 15.0))
        printf("  median %.1f%%\n", r.median_abs_pct);
    sn_validate_report_release(&r);
}

static const struct sn_test cases[] = {
    T(test_validate_derives_dp_and_reads_the_moe_columns),
    T(test_validate_moe_public_rows_are_read),
};

SN_TEST_MAIN(cases)
