/* infer-int.h: what the serving model's files share inside the library
 * (infer.c, infer-host.c, infer-load.c, infer-search.c, infer-disagg.c). */
#ifndef SN_INFER_INT_H
#define SN_INFER_INT_H

#if !defined(SN_MODULE_model) && !defined(SN_TESTS)
#error "private to src/lib/model (tests/layers/table)"
#endif

#include "sn/infer.h"

/* The work's runtime inputs checked: a speculative decode (mtp > 0)
 * needs its acceptance, 0 < accept <= 1. SN_EINPUT saying so. */
int sn__infer_check_work(const struct sn_infer_work *w, struct sn_error *err);

/* Host seconds of one decode step of a replica of layout l holding
 * `batch` sequences: the busiest rank's requests (whole batch under
 * attention TP, batch / tp under attention DP), on the work's CPU or,
 * when automatic, the accelerator's. */
double sn__infer_host(const struct sn_train_system *sys,
                      const struct sn_infer_layout *l,
                      const struct sn_infer_work *w, double batch);

/* Kernel launches of one step that runs eager, a step that carries a
 * prompt chunk (the runtimes capture CUDA graphs of decode-only batches):
 * `all` every kernel and collective of the layers and the step's own,
 * `layers` the layers they run in. infer.c counts them. */
struct sn__infer_launches {
    double all, layers;
};

/* Host seconds to launch the eager step n on the work's CPU (or the
 * accelerator's): TensorRT-LLM and SGLang launch every kernel, vLLM's
 * piecewise graphs leave attention eager and replay a graph between. */
double sn__infer_host_eager(const struct sn_train_system *sys,
                            const struct sn_infer_work *w,
                            const struct sn__infer_launches *n);

/* What the load simulation needs of one layout: the replica's GPU decode
 * step by batch and the added time of a prompt chunk of t tokens on the
 * busiest attention rank, each on a grid to interpolate. */
#define SN__INFER_GRID 48

struct sn__infer_costs {
    int nb;
    double batch[SN__INFER_GRID];
    double decode[SN__INFER_GRID]; /* decode alone: CUDA-graphed, padded
                                      when the work captures graphs */
    double mixed[SN__INFER_GRID];  /* the same decodes in a step with a
                                      prompt chunk: eager, unpadded */
    int nt;
    double tokens[SN__INFER_GRID], prefill[SN__INFER_GRID];
    double base;   /* a one-token pass: what a prompt chunk costs beyond the
                      weights a step reads anyway */
    double budget; /* prompt tokens a pass per attention rank */
    int max_batch; /* sequences per replica */
    int ranks;     /* attention ranks (tp under attention DP, else 1) */
    double gain;   /* tokens a sequence gains per decode step */
    double launch; /* host seconds launching a step with a prompt chunk */
    int gpus;      /* of the replica */
};

int sn__infer_costs(const struct sn_model_info *m,
                    const struct sn_train_system *sys,
                    const struct sn_infer_layout *l,
                    const struct sn_infer_work *w, struct sn__infer_costs *c,
                    struct sn_error *err);

/* Points of a search, grown as they are timed. */
struct grow {
    struct sn_infer_point *p;
    size_t n, cap;
};

/* Called with each layout the search proposes (l.batch 0). */
typedef int (*sn__layout_fn)(const struct sn_model_info *m,
                             const struct sn_train_system *sys,
                             struct sn_infer_layout l,
                             const struct sn_infer_work *w,
                             const struct sn_infer_limits *lim, void *ctx,
                             struct sn_error *err);

/* Every layout sn_infer_check() accepts on `gpus` (whole: only those of
 * exactly gpus, one replica): tp dividing them, pp a power of two up to
 * 16, ep dividing tp, attention TP or data-parallel, with and without
 * two-batch overlap; where ep does not divide the experts, the fewest
 * redundant copies that make it (EPLB). Each goes to `each`; its error
 * stops the walk. */
int sn__infer_each_layout(const struct sn_model_info *m,
                          const struct sn_train_system *sys, int gpus,
                          bool whole, const struct sn_infer_work *w,
                          const struct sn_infer_limits *lim, sn__layout_fn each,
                          void *ctx, struct sn_error *err);

/* Whether l's tensor-parallel group (attention TP, or expert TP under
 * data-parallel attention) crosses a scale-up domain's edge anywhere in
 * a pool of `gpus` from rank 0 (infer-rules.c). */
bool sn__infer_straddles(const struct sn_infer_layout *l, int gpus, int domain);

/* sn_infer_check() without its two placement rules (pp dividing the
 * layers, TP within a scale-up domain), which runtimes do not enforce
 * (vLLM splits layers unevenly; SGLang and vLLM run TP 16 over two
 * 8-GPU nodes): what sn_infer_predict() needs to time a layout, so a
 * measured run (validate) that used one is still predicted. The search
 * and `sim infer` hold layouts to sn_infer_check(). */
int sn__infer_check_timed(const struct sn_model_info *m,
                          const struct sn_train_system *sys,
                          const struct sn_infer_layout *l,
                          const struct sn_infer_work *w, int gpus,
                          struct sn_error *err);

/* Whether a TTFT and a TPOT are within lim (a limit of 0 is none);
 * *ttft_over and *tpot_over (either may be NULL) by how much they are
 * not. sn_infer_meets and sn_infer_served_meets are this on their
 * figures. */
bool sn__infer_within(double ttft, double tpot,
                      const struct sn_infer_limits *lim, double *ttft_over,
                      double *tpot_over);

#endif
