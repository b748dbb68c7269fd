/* validate.h: the training model against measured public runs.
 */
#ifndef SN_VALIDATE_H
#define SN_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>

#include "sn/infer.h"
#include "sn/train.h"

#define SN_VALIDATE_MAX_ROWS 100000

/* One measured run and its prediction. Strings point into the report. */
struct sn_validate_row {
    int line; /* CSV line */
    const char *source, *model, *gpu, *metric;
    double measured;
    bool predicted_ok; /* false: `reason` says why */
    double predicted;  /* in the row's metric */
    double error_pct;  /* (predicted - measured) / measured */
    char reason[256];
    char system[48];   /* built-in system the row ran on */
    char assumed[160]; /* what the row left out and was assumed */
    struct sn_train_layout layout;
    struct sn_train_result result;
    int gpus;
    int etp;      /* expert tensor parallelism the row gives (0: none, the
                     layout's default, tp) */
    bool unknown; /* its model or GPU is not known: reason says what to
                     add (validate exits 2 after the report) */
    /* what the row was predicted with, for comparing other layouts on
     * the same run (the layout search against a published recipe) */
    struct sn_model_info train_model;
    struct sn_train_opts train_opts;
    const char *notes;
    /* a serving row (the inference file): its layout, work, result */
    bool infer;
    struct sn_infer_layout ilayout;
    struct sn_infer_work iwork;
    struct sn_infer_result iresult;
};

/* Spearman rank correlation of predicted and measured times over the
 * rows of one source with the same model and GPU count, and whether the
 * layout predicted fastest is within 5% of the measured best. */
struct sn_validate_group {
    const char *source, *model;
    int gpus;
    size_t n;
    size_t first; /* index of its first row */
    double spearman;
    double top_measured; /* measured value of the predicted best */
    double best_measured;
    double top_gap_pct; /* top_measured / best_measured - 1 */
};

struct sn_validate_source {
    const char *source;
    size_t first; /* index of its first row */
    size_t n, predicted;
    double median_abs_pct, mean_abs_pct;
};

struct sn_validate_report {
    char *file;
    struct sn_validate_row *rows;
    size_t nrows, npredicted;
    double median_abs_pct, mean_abs_pct;
    size_t worst[5]; /* row indices, largest |error| first */
    size_t nworst;
    struct sn_validate_source *sources;
    size_t nsources;
    struct sn_validate_group *groups;
    size_t ngroups;
    void *owned; /* private: the parsed CSV */
};

/* Predict every row of a CSV in the column layout of
 * validation/training-public.csv (source, model, params_B, layers,
 * hidden, heads, seq, vocab, gpu, n_gpus, tp, pp, dp, other_parallel,
 * micro_batch, global_batch, recompute, measured_metric, measured_value,
 * notes) on the built-in system its gpu column names. Rows that cannot
 * be predicted are kept with the reason. SN_EINPUT (located) when the
 * file is not such a CSV. The report is released with
 * sn_validate_report_release(). */
int sn_validate_csv(const char *file, const char *text, size_t len,
                    struct sn_validate_report *rep, struct sn_error *err);
void sn_validate_report_release(struct sn_validate_report *rep);

/* The built-in system spec (YAML text) for a gpu column and notes, with
 * `gpus` accelerators; writes the system's name. NULL when no built-in
 * system matches. The text is heap-allocated; the caller frees it. */
char *sn_validate_system_spec(const char *gpu, const char *notes, int gpus,
                              char *name, size_t name_size);

#endif
