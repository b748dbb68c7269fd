/* test-holdout.c: the held-out sets (tests/fixtures/validation/holdout-*.csv,
 * measured runs from sources the public sets and the model's constants do
 * not use; docs/validation.md, "Held-out sets") go through the same path as
 * `supernode validate`. Only that every row is read and predicted is
 * checked here: their errors are reported apart and gate nothing yet, so
 * that no constant is chosen by looking at them. */
/* covers: net workload study */
#include <stdlib.h>

#include <math.h>

#include "harness.h"
#include "sn/model.h"

#define DIR "tests/fixtures/validation/"

/* Data lines of a CSV text (every line after the header that is not
 * blank), counted apart from the reader so that a row it skips shows. */
static size_t data_lines(const char *text, size_t len)
{
    size_t n = 0;
    bool content = false, header = true;

    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n') {
            if (content && !header)
                n++;
            header = header && !content;
            content = false;
        } else if (text[i] != '\r' && text[i] != ' ') {
            content = true;
        }
    }
    return n + (content && !header);
}

/* Reads PATH through sn_validate_csv and checks that each of its EXPECT
 * rows is predicted: a positive, finite figure in the row's metric, on a
 * built-in system, serving rows (INFER) as serving rows. */
static void every_row_predicted(const char *path, size_t expect, bool infer)
{
    struct sn_validate_report r;
    struct sn_error err;
    char *text = NULL;
    size_t len = 0, lines;

    REQUIRE(sn_read_file(path, SN_FILE_MAX, &text, &len, &err) == SN_OK);
    lines = data_lines(text, len);
    if (sn_validate_csv(path, text, len, &r, &err) != SN_OK) {
        printf("  %s\n", err.msg);
        free(text);
        REQUIRE(false);
    }
    free(text);
    CHECK(lines == expect);
    CHECK(r.nrows == expect);
    CHECK(r.npredicted == r.nrows);
    for (size_t i = 0; i < r.nrows; i++) {
        const struct sn_validate_row *row = &r.rows[i];
        bool ok = row->predicted_ok && isfinite(row->predicted) &&
                  row->predicted > 0 && row->measured > 0 && row->system[0] &&
                  row->infer == infer && !row->unknown;
        CHECK(ok);
        if (!ok) /* the reason, never the error */
            printf("  %s line %d: %s\n", path, row->line,
                   row->predicted_ok ? "predicted but not as its file reads"
                                     : row->reason);
    }
    sn_validate_report_release(&r);
}

static void test_holdout_training_every_row_predicted(void)
{
    /* dense format (training-public.csv's columns): Megatron-Bridge
     * 26.02, 25.11 and 25.09 containers, torchtitan's A100 tables */
    every_row_predicted(DIR "holdout-training.csv", 13, false);
}

static void test_holdout_moe_training_every_row_predicted(void)
{
    /* MoE format (moe-training-public.csv's columns): Megatron-Bridge
     * containers, Megatron-LM's DeepSeek-V3 GB200 guide, NeMo AutoModel */
    every_row_predicted(DIR "holdout-moe-training.csv", 19, false);
}

static void test_holdout_inference_every_row_predicted(void)
{
    /* inference-public.csv's columns: MLPerf Inference v5.1, TensorRT-LLM
     * perf-overview shapes and DeepSeek-R1 guide, SGLang GB200 part I */
    every_row_predicted(DIR "holdout-inference.csv", 22, true);
}

static const struct sn_test cases[] = {
    T(test_holdout_training_every_row_predicted),
    T(test_holdout_moe_training_every_row_predicted),
    T(test_holdout_inference_every_row_predicted),
};

SN_TEST_MAIN(cases)
