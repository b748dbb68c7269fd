/* validate-search.c: a training row that gives no layout (tp and pp
 * blank) is predicted with the best layout the training search finds for
 * the row's model, system, GPUs, batch and precision: what `sim train
 * --search` runs on the same inputs (sn_train_search_run). */
#include <stdio.h>
#include <string.h>

#include "validate-int.h"

/* "layout from search: TP8 PP1 EP1", with CP and VPP when above 1. */
static void say_layout(const struct sn_train_layout *l,
                       struct sn_validate_row *row)
{
    char note[sizeof(row->assumed)], old[sizeof(row->assumed)];
    int n;

    n = snprintf(note, sizeof(note), "layout from search: TP%d PP%d EP%d",
                 l->tp, l->pp, l->ep);
    if (l->cp > 1 && n > 0 && (size_t)n < sizeof(note))
        n += snprintf(note + n, sizeof(note) - (size_t)n, " CP%d", l->cp);
    if (l->vpp > 1 && n > 0 && (size_t)n < sizeof(note))
        snprintf(note + n, sizeof(note) - (size_t)n, " VPP%d", l->vpp);
    /* first, so that the other assumptions are what a long note cuts */
    sn_strlcpy(old, row->assumed, sizeof(old));
    sn_strlcpy(row->assumed, note, sizeof(row->assumed));
    if (old[0])
        sn__validate_append(row->assumed, sizeof(row->assumed), old);
}

bool sn__validate_search(const struct sn_model_info *m,
                         const struct sn_train_system *sys,
                         const struct sn_train_opts *o,
                         const struct sn_train_search *s,
                         struct sn_validate_row *row)
{
    struct sn_train *t = NULL;
    struct sn_train_candidate best;
    struct sn_train_search_stats st;
    struct sn_error err;
    size_t n = 0;
    bool ok = false;

    if (sn_train_new(m, sys, &t, &err) ||
        sn_train_search_run(t, s, o, &best, 1, &n, &st, &err)) {
        snprintf(row->reason, sizeof(row->reason), "%.250s", err.msg);
        goto out;
    }
    if (n == 0) {
        snprintf(row->reason, sizeof(row->reason),
                 "the row gives no layout and none of the %llu the search "
                 "tried on %d GPUs fits in memory",
                 (unsigned long long)st.enumerated, s->accels);
        goto out;
    }
    row->layout = best.layout;
    /* the search ranks by the pessimistic bound; the row is predicted as
     * any row with that layout is */
    if (sn_train_predict(t, &best.layout, o, &row->result, &err)) {
        snprintf(row->reason, sizeof(row->reason), "%.250s", err.msg);
        goto out;
    }
    say_layout(&best.layout, row);
    ok = true;
out:
    sn_train_free(t);
    return ok;
}
