/* kernels.h: kernel efficiency tables: the FLOP/s a GEMM or a grouped
 * (MoE expert) GEMM reaches at its shape, on one accelerator generation
 * and data type, from published kernel measurements (shipped) or from
 * `bench kernels` on the user's accelerators (loaded with
 * `sim train --kernels FILE`). Looked up by work per launch; the sources and
 * the file format are in docs/model.md ("Kernel efficiency tables").
 *
 * Ownership: sn_kernels_load() returns a heap table freed with
 * sn_kernels_free(); the shipped tables are static and never freed.
 */
#ifndef SN_KERNELS_H
#define SN_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

#include "sn/util.h"

enum sn_kernel_kind {
    SN_KERNEL_GEMM,    /* one M x K times K x N */
    SN_KERNEL_GROUPED, /* experts' GEMMs in one kernel; M = rows per expert */
    SN_KERNEL_KIND_COUNT
};

/* Data types a table row may carry; the first four are sn_dtype's. */
enum sn_kernel_dtype {
    SN_KDT_BF16,
    SN_KDT_FP16,
    SN_KDT_FP8,
    SN_KDT_FP4,
    SN_KDT_FP32, /* the cpu backend's sgemm */
    SN_KDT_COUNT
};

/* One measured kernel: its shape and the FLOP/s it reached. */
struct sn_kernel_point {
    enum sn_kernel_kind kind;
    enum sn_kernel_dtype dtype;
    double m, n, k;     /* rows (per expert for grouped), columns, inner */
    double flops;       /* achieved FLOP/s, 2 m n k per GEMM over its time */
    const char *source; /* where the figure was published or measured */
    double peak; /* the measured GPU's dense peak FLOP/s in dtype: the row
                    is an efficiency that scales to another part's peak;
                    0: absolute FLOP/s, used as they are */
};

struct sn_kernel_table {
    const char *generation; /* "hopper", "blackwell", ...; "measured" for
                               a loaded table (the user's accelerator) */
    const struct sn_kernel_point *points;
    size_t npoints;
    bool owned;   /* points and strings are the table's (a loaded file) */
    double ridge; /* FLOPs a byte (peak over HBM bandwidth) of the GPU that
                     measured the rows without a peak; 0: unknown */
};

#define SN_KERNELS_MAX_ROWS 4096 /* rows a table file may hold */
#define SN_KERNELS_MAX_LINE 512  /* bytes a line may hold */

/* How a lookup was answered. */
enum sn_kernel_fit {
    SN_KFIT_NONE,         /* no row of this kind and type: the caller's
                             own model applies */
    SN_KFIT_MEASURED,     /* inside the table's measured range */
    SN_KFIT_EXTRAPOLATED, /* outside the measured work per launch (the
                             nearest end's rate holds), or a side smaller
                             than any measured row's */
};

/* The training model's shipped table of the generation of accelerator
 * `accel` (a catalog name, matched as the training calibration matches
 * it), or NULL when none was published. `*generation` (may be NULL) gets
 * the generation's name ("hopper", "blackwell", "ampere", "other"). */
const struct sn_kernel_table *sn_kernels_shipped(const char *accel,
                                                 const char **generation);

/* The serving model's shipped table: sn_kernels_shipped's rows and those
 * only serving's lookup (sn_kernels_rate) uses for now, Hopper's BF16
 * rows (docs/model.md, "Why training keeps the previous lookup"). */
const struct sn_kernel_table *sn_kernels_serving(const char *accel,
                                                 const char **generation);

/* The shipped table nearest a generation that has none (Hopper's, whose
 * shapes were measured): for transferring a shape curve. */
const struct sn_kernel_table *sn_kernels_reference(void);

/* The FLOP/s of kind/dtype at shape m x n x k from table t, by work per
 * launch (2 m n k): the rows of kind and dtype whose arithmetic intensity
 * (sn_kernels_intensity) is at least `ridge` (0: every row; if none is,
 * all of them, flagged), ordered by work, rows of equal work merged, made
 * monotone non-decreasing (adjacent violators pooled), linear in
 * log2(work) between them; outside the measured work the nearest end's
 * FLOP/s. Monotone non-decreasing in each of m, n and k. *fit:
 * EXTRAPOLATED outside the measured work or with m, n or k below every
 * row's; MEASURED otherwise; NONE (returns 0) when t has no row of kind
 * and dtype. docs/model.md, "Kernel efficiency tables", says why. */
double sn_kernels_rate(const struct sn_kernel_table *t,
                       enum sn_kernel_kind kind, enum sn_kernel_dtype dtype,
                       double m, double n, double k, double ridge,
                       enum sn_kernel_fit *fit);

/* sn_kernels_rate with ridge 0 (every row). */
double sn_kernels_flops(const struct sn_kernel_table *t,
                        enum sn_kernel_kind kind, enum sn_kernel_dtype dtype,
                        double m, double n, double k, enum sn_kernel_fit *fit);

/* FLOPs over the bytes a row's GEMM reads (M x K and K x N in its type,
 * FP4 with its scales) and writes (M x N in BF16). */
double sn_kernels_intensity(const struct sn_kernel_point *p);

/* The ridge point below which t's rows of kind and dtype measured their
 * GPU's bandwidth: a shipped table's absolute rows, their GPU's
 * (t->ridge); rows that are shares of a peak, or a loaded table, the
 * target's `peak` (FLOP/s in dtype) over `hbm` (bytes/s). */
double sn_kernels_ridge(const struct sn_kernel_table *t,
                        enum sn_kernel_kind kind, enum sn_kernel_dtype dtype,
                        double peak, double hbm);

/* The measured GPU's peak of t's rows of kind and dtype (0: their FLOP/s
 * are absolute, or no such row). */
double sn_kernels_peak(const struct sn_kernel_table *t,
                       enum sn_kernel_kind kind, enum sn_kernel_dtype dtype);

/* The highest FLOP/s of any plain GEMM row of dtype in t (0: none): the
 * table's large-GEMM rate, against which its shapes are compared. */
double sn_kernels_best(const struct sn_kernel_table *t,
                       enum sn_kernel_dtype dtype);

/* Reads a table file (CSV, docs/model.md "Kernel table files"): a header
 * `kind,dtype,m,n,k,tflops[,source]`, then one row a kernel. Errors are
 * `file:line:col: what`; at most SN_KERNELS_MAX_ROWS rows. */
int sn_kernels_load(const char *path, struct sn_kernel_table **out,
                    struct sn_error *err);
/* The same from a buffer; `name` is used in messages. */
int sn_kernels_parse(const char *name, const char *text, size_t len,
                     struct sn_kernel_table **out, struct sn_error *err);

/* Appends t in the file format to b (the sources double-quoted). */
void sn_kernels_format(const struct sn_kernel_table *t, struct sn_buf *b);

void sn_kernels_free(struct sn_kernel_table *t);

/* One measured fused-attention kernel (FlashAttention-style, BF16): the
 * FLOP/s its forward and backward reached at a sequence length and head
 * size, FLOPs counted as FlashAttention's benchmarks count them (4 s^2 d
 * a head, halved when causal; the backward 2.5x the forward), on a GPU
 * of dense BF16 peak `peak`. */
struct sn_attn_point {
    double seq, hdim;
    bool causal;
    double fwd, bwd; /* FLOP/s; 0: not measured */
    double peak;     /* the measured GPU's dense BF16 FLOP/s */
    const char *source;
};

struct sn_attn_table {
    const char *generation;
    const struct sn_attn_point *points;
    size_t npoints;
};

/* The shipped attention table of accelerator `accel`'s generation, or
 * NULL when none was published. */
const struct sn_attn_table *sn_kernels_attention(const char *accel);

/* The efficiency (FLOP/s over the measured GPU's peak) of fused attention
 * at sequence length seq, head size hdim, causal or not, forward or
 * backward: the rows of the measured head size nearest hdim, linear in
 * log2(seq) between the two measured lengths around seq (exact on a row).
 * *fit: MEASURED inside the measured lengths at a measured head size;
 * EXTRAPOLATED outside them (the nearest end's efficiency) or at another
 * head size; NONE (returns 0) without a row of the direction and mask.
 * A table without backward rows gives the backward as its forward times
 * the backward/forward ratio FlashAttention measured at the nearest head
 * size (kernels.c), EXTRAPOLATED. */
double sn_kernels_attn_eff(const struct sn_attn_table *t, double seq,
                           double hdim, bool causal, bool backward,
                           enum sn_kernel_fit *fit);

const char *sn_kernels_kind_name(enum sn_kernel_kind k);
const char *sn_kernels_dtype_name(enum sn_kernel_dtype d);

#endif
