/* host-int.h: what the node agent's host collectors (col-hwmon.c,
 * col-net.c, col-klog.c, col-pci.c) share: a capped table of counters by
 * label set, kept in a collector's state across intervals, and the root
 * they read under. Not part of the public
 * API. */
#ifndef SN_WATCH_HOST_INT_H
#define SN_WATCH_HOST_INT_H

#if !defined(SN_MODULE_watch) && !defined(SN_TESTS)
#error "private to src/lib/watch (tests/layers/table)"
#endif

#include <stddef.h>

#include "watch-int.h"

#define SN_WATCH_TALLY_MAX 256 /* label sets of one family; then "other" */

struct sn__watch_tally_entry {
    char a[SN_WATCH_NAME_MAX], b[SN_WATCH_NAME_MAX]; /* label values */
    double n;
};

/* Zeroed is empty. Entries stay in the order they were first seen. */
struct sn__watch_tally {
    struct sn__watch_tally_entry *e;
    size_t n, cap;
};

/* The count of the label set (a, b) (b "" when the family has one label),
 * added at 0 when new. Past SN_WATCH_TALLY_MAX label sets, a new one is
 * counted in the set ("other", "other") (b stays "" for one label), so
 * the series stay bounded whatever the machine reports. */
double *sn__watch_tally(struct sn__watch_tally *t, const char *a,
                        const char *b);
void sn__watch_tally_release(struct sn__watch_tally *t);

/* Add every entry of t to the counter family name (help as its HELP)
 * with labels la (and lb when not NULL). Errors as sn__watch_counter. */
void sn__watch_tally_emit(const struct sn__watch_tally *t, struct sn_metrics *m,
                          const char *name, const char *help, const char *la,
                          const char *lb, struct sn_error *err);

/* Copy cfg's root ("" for the live machine) into root, size bytes; the
 * host collectors' open(). SN_EINPUT when it does not fit. */
int sn__watch_root(const struct sn__watch_cfg *cfg, char *root, size_t size,
                   struct sn_error *err);

#endif
