/* metrics.h: a registry of metric families and their samples, built up
 * each collection interval and rendered at scrape time in the Prometheus
 * text format 0.0.4 or OpenMetrics 1.0 (the node agent, issue 15).
 *
 * Ownership: a struct sn_metrics owns copies of every name, help text and
 * label it was given; callers keep their own strings. The renderers only
 * append to the caller's sn_buf.
 *
 * Zeroed is released: an all-zero struct sn_metrics ({0}) is an empty
 * registry with the default series cap, may be added to and released, and
 * is all zero again after sn_metrics_release(); a refused addition leaves
 * the registry as it was.
 *
 * Names follow Prometheus' rules (metrics [a-zA-Z_:][a-zA-Z0-9_:]*, labels
 * [a-zA-Z_][a-zA-Z0-9_]*, neither starting with "__") and the project's:
 * a counter ends in "_total" and an info family in "_info", and no other
 * family does. Label values are cleaned as machine text (sn_str_clean,
 * newlines kept and escaped when rendered) and cut to
 * SN_METRICS_VALUE_MAX - 1 bytes.
 *
 * To add a metric type: 1. enum sn_metrics_type  2. its row in the type
 * table of src/lib/metrics/metrics.c (text and OpenMetrics spellings, the
 * name suffix)  3. a case in tests/unit/test-metrics.c.
 */
#ifndef SN_METRICS_H
#define SN_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "sn/util.h"

enum sn_metrics_type {
    SN_METRICS_GAUGE,
    SN_METRICS_COUNTER, /* name ends in _total, value >= 0 */
    SN_METRICS_INFO,    /* name ends in _info, value 1; a gauge in 0.0.4 */
    SN_METRICS_UNTYPED, /* "unknown" in OpenMetrics */
};

#define SN_METRICS_LABELS_MAX 8      /* labels of one sample */
#define SN_METRICS_VALUE_MAX 256     /* bytes of a label value, with NUL */
#define SN_METRICS_NAME_MAX 200      /* bytes of a metric or label name */
#define SN_METRICS_HELP_MAX 1024     /* bytes of a help text, with NUL */
#define SN_METRICS_SERIES_MAX 100000 /* samples of a registry by default */
#define SN_METRICS_FAMILIES_MAX 10000

struct sn_metrics_label {
    const char *name;
    const char *value;
};

struct sn_metrics_family; /* private to metrics.c */

struct sn_metrics {
    struct sn_metrics_family *families; /* in registration order */
    size_t n_families, cap_families;
    size_t n_series;
    size_t series_max; /* 0: SN_METRICS_SERIES_MAX */
    uint64_t *index;   /* open addressing over (family, label set) */
    size_t index_cap;
    size_t last; /* the family the last sample went to */
};

/* Register a family, or find it when it is there with the same type (the
 * help text of the first registration stays). Fails with SN_EINPUT for a
 * name that breaks the rules above, or one registered with another type;
 * SN_ENOMEM past SN_METRICS_FAMILIES_MAX families. */
int sn_metrics_add_family(struct sn_metrics *m, const char *name,
                          const char *help, enum sn_metrics_type type,
                          struct sn_error *err);

/* Add a sample of the registered family `name` with n labels (at most
 * SN_METRICS_LABELS_MAX, names unique). The label set is kept sorted by
 * name. Fails with SN_EINPUT for an unknown family, a bad or repeated
 * label name, a label set the family has already, a counter value that is
 * negative or NaN or an info value other than 1; SN_ENOMEM when the
 * registry holds series_max series already. */
int sn_metrics_add(struct sn_metrics *m, const char *name,
                   const struct sn_metrics_label *labels, size_t n,
                   double value, struct sn_error *err);

/* Add every family and sample of src to dst (a family dst has already
 * must have src's type). What can be added is added; returns the first
 * failure (a sample dst has already: SN_EINPUT; the cap: SN_ENOMEM). */
int sn_metrics_merge(struct sn_metrics *dst, const struct sn_metrics *src,
                     struct sn_error *err);

/* Append the registry in the Prometheus text exposition format 0.0.4:
 * per family "# HELP", "# TYPE" and its samples, in registration order. */
void sn_metrics_render_text(const struct sn_metrics *m, struct sn_buf *out);

/* Append the registry in OpenMetrics 1.0: "# TYPE", "# HELP" under the
 * family name (a counter's without "_total", an info's without "_info"),
 * the samples, and "# EOF". */
void sn_metrics_render_openmetrics(const struct sn_metrics *m,
                                   struct sn_buf *out);

/* Free everything; the registry is all zero again. NULL does nothing. */
void sn_metrics_release(struct sn_metrics *m);

#endif
