/* validate.h: the training model against measured public runs.
 */
#ifndef SN_VALIDATE_H
#define SN_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>

#include "sn/infer.h"
#include "sn/train.h"

#define SN_VALIDATE_MAX_ROWS 100000

/* The dimensions a validation row is classed by (validate-classes.c):
 * training rows by architecture (dense, MoE), GPU generation, software
 * stack and host CPU; serving rows by model size (active parameters),
 * GPU generation, runtime and host CPU. */
enum sn_validate_dim {
    SN_VDIM_ARCH, /* training: dense/MoE; serving: model size */
    SN_VDIM_GEN,
    SN_VDIM_STACK, /* training: software stack; serving: runtime */
    SN_VDIM_HOST,
    SN_VDIM_COUNT
};

/* The serving size classes' cut: a model with fewer active parameters
 * per token than this is "small" (docs/model.md, "Classes and bands"). */
#define SN_VALIDATE_SMALL_ACTIVE 30e9

/* Bands: a class needs this many rows from this many sources, else its
 * parent class's band stands in (said so). Five: with fewer residuals
 * the P10 and P90 are the extremes themselves; two sources: one source's
 * spread is its own method, not the model's error. */
#define SN_BAND_MIN_ROWS 5
#define SN_BAND_MIN_SOURCES 2

/* A band: the spread of measured / predicted (in the throughput sense:
 * above 1 the run was faster than predicted) over a class's rows. */
struct sn_band {
    const char *cls;   /* "train/moe/blackwell", "infer/small" */
    const char *label; /* "MoE Blackwell" */
    int rows, sources;
    double p10, p50, p90;
};

/* The band a figure of class (kind, arch, gen) gets from the table
 * compiled in (bands.c, written by `supernode validate --bands`): the
 * class's own when it has SN_BAND_MIN_ROWS rows from SN_BAND_MIN_SOURCES
 * sources, else its parent's ("train/moe/blackwell" -> "train/moe" ->
 * "train"). kind "train" or "infer"; arch and gen as the classes name
 * them (sn_validate_arch_class, sn_validate_gen_class). */
struct sn_band_pick {
    char cls[48], label[64]; /* the class whose band this is */
    int rows, sources;
    double p10, p50, p90;
    char wanted[64]; /* the class asked for, as a label */
    int wanted_rows; /* its rows (0: none) */
    int wanted_sources;
    bool fallback; /* the band is a parent class's */
};
bool sn_band_lookup(const char *kind, const char *arch, const char *gen,
                    struct sn_band_pick *out);
/* The compiled-in table and its size (bands.c). */
extern const struct sn_band sn_bands[];
extern const size_t sn_nbands;

/* The band of a training or serving prediction for model m on accel
 * (catalog name): its class by architecture or size and generation. */
bool sn_train_band(const struct sn_model_info *m, const char *accel,
                   struct sn_band_pick *out);
bool sn_infer_band(const struct sn_model_info *m, const char *accel,
                   struct sn_band_pick *out);

/* The known gaps of the models (docs/model.md, "Known gaps of the
 * training and serving models"): an id ("T2") and a line each; a set of
 * them is a mask, bit i for sn_gaps[i]. */
struct sn_gap {
    const char *id, *what;
};
extern const struct sn_gap sn_gaps[];
extern const size_t sn_ngaps;
/* The gaps a training layout or a serving layout of m on accel meets.
 * software_assumed: no software profile was given (the best recipe's
 * stack stands in); loaded: the serving figures are under a load
 * (--rate, --concurrency), not an idle replica's. */
unsigned sn_train_gaps(const struct sn_model_info *m,
                       const struct sn_train_layout *l, const char *accel,
                       bool software_assumed);
unsigned sn_infer_gaps(const struct sn_model_info *m,
                       const struct sn_infer_layout *l, const char *accel,
                       bool loaded);
/* The ids of a mask, space-separated ("T1 T3 T4"); "" for none. */
void sn_gaps_ids(unsigned gaps, char *out, size_t size);

/* The class names (static strings). arch: "dense" or "moe" for training
 * (experts > 1), "small" or "large" for serving (active parameters
 * below SN_VALIDATE_SMALL_ACTIVE); gen: the catalog accelerator's GPU
 * generation ("ampere", "hopper", "blackwell", "cdna3", "ascend", ...,
 * "other"); host: "grace" for the Grace superchips, else "x86". */
const char *sn_validate_arch_class(bool serving, bool moe, double active);
const char *sn_validate_gen_class(const char *accel);
const char *sn_validate_host_class(const char *accel);
/* The software stack (training) or runtime (serving) a row's source,
 * other_parallel (NULL for serving) and notes name; "unknown" when they
 * name none. One small reader, meant to be replaced by the training
 * model's named software profiles when they land. */
const char *sn_validate_stack_class(bool serving, const char *source,
                                    const char *parallel, const char *notes);
/* A class name as people read it: "moe" -> "MoE", "blackwell" ->
 * "Blackwell". */
const char *sn_validate_class_label(const char *name);

/* One measured run and its prediction. Strings point into the report. */
struct sn_validate_row {
    int line; /* CSV line */
    const char *source, *model, *gpu, *metric, *notes;
    const char *parallel; /* training: other_parallel; NULL for serving */
    double measured;
    bool predicted_ok; /* false: `reason` says why */
    double predicted;  /* in the row's metric */
    double error_pct;  /* (predicted - measured) / measured */
    char reason[256];
    char system[48];   /* built-in system the row ran on */
    char assumed[256]; /* what the row left out and was assumed */
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
    /* a serving row (the inference file): its layout, work, result */
    bool infer;
    struct sn_infer_layout ilayout;
    struct sn_infer_work iwork;
    struct sn_infer_result iresult;
    /* classes and the leave-one-source-out band (validate-classes.c) */
    bool moe;
    double active_params;
    char accel[32];      /* the system's catalog accelerator */
    bool lower_better;   /* a time metric: lower is better */
    char source_key[64]; /* the source as LOSO leaves it out */
    const char *cls[SN_VDIM_COUNT];
    double ratio;             /* measured / predicted, throughput sense */
    double signed_pct;        /* the error, + when the model was optimistic */
    bool band_ok;             /* a band from other sources exists */
    struct sn_band_pick band; /* from the other sources' rows */
    bool in_band;             /* measured within the band's P10..P90 */
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

/* Error statistics of a set of predicted rows: |error| median and P90
 * (linear interpolation), the signed mean (+: optimistic, the model
 * faster than measured), the share of optimistic rows, and the distinct
 * source keys. NaN figures when n is 0. */
struct sn_validate_stats {
    size_t n, sources;
    double median_abs_pct, p90_abs_pct, signed_mean_pct, optimistic_share;
};

struct sn_validate_source {
    const char *source;
    size_t first; /* index of its first row */
    size_t n, predicted;
    double median_abs_pct, mean_abs_pct;
    struct sn_validate_stats st;
};

/* One class of one dimension and its rows' statistics. */
struct sn_validate_class {
    enum sn_validate_dim dim;
    const char *dim_name; /* "arch", "size", "generation", "software", ... */
    const char *name;
    struct sn_validate_stats st;
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
    struct sn_validate_class *classes; /* by dimension, then first row */
    size_t nclasses;
    size_t nbanded, ncovered; /* rows with a LOSO band, inside it */
    void *owned;              /* private: the parsed CSV */
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
/* Classes, per-class statistics and leave-one-source-out bands over
 * the predicted rows of one or more reports (rows[i] point into them):
 * fills each row's cls, source_key, ratio, signed_pct and band, and
 * returns the classes (heap, caller frees) in *out. */
void sn_validate_classify(struct sn_validate_row *const *rows, size_t n,
                          struct sn_validate_class **out, size_t *nout);
/* The statistics of rows[0..n) (predicted rows only). */
void sn_validate_stats_of(const struct sn_validate_row *const *rows, size_t n,
                          struct sn_validate_stats *st);
/* The band table of the predicted rows of the reports, as C source for
 * src/lib/study/bands.c, appended to out; every class of every level,
 * with its rows and sources. */
void sn_validate_bands_c(struct sn_validate_row *const *rows, size_t n,
                         struct sn_buf *out);

char *sn_validate_system_spec(const char *gpu, const char *notes, int gpus,
                              char *name, size_t name_size);

#endif
