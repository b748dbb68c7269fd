/* infer-int.h: what the serving search's files (infer-search.c,
 * infer-disagg.c) share inside the library. */
#ifndef SN_INFER_INT_H
#define SN_INFER_INT_H

#include "sn/infer.h"

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

#endif
