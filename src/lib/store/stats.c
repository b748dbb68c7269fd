/* stats.c: summaries of repeated samples (median, MAD, mean, extremes) and
 * the owned result arrays the store reads and writes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/store.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

double sn_stats_median(double *x, size_t n)
{
    if (n == 0)
        return 0.0;
    qsort(x, n, sizeof(*x), cmp_double);
    if (n % 2)
        return x[n / 2];
    return 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/* MAD of x around m; x is overwritten with the deviations. */
static double mad_around(double *x, size_t n, double m)
{
    for (size_t i = 0; i < n; i++)
        x[i] = fabs(x[i] - m);
    return sn_stats_median(x, n);
}

double sn_stats_sigma(double *x, size_t n)
{
    double m = sn_stats_median(x, n);

    return SN_STATS_MAD_TO_SIGMA * mad_around(x, n, m);
}

void sn_stats_compute(const double *x, size_t n, struct sn_stats *st)
{
    double small[64], *tmp, sum = 0.0, ss = 0.0;

    memset(st, 0, sizeof(*st));
    if (n == 0)
        return;
    st->n = n;
    st->min = st->max = x[0];
    for (size_t i = 0; i < n; i++) {
        sum += x[i];
        if (x[i] < st->min)
            st->min = x[i];
        if (x[i] > st->max)
            st->max = x[i];
    }
    st->mean = sum / (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - st->mean) * (x[i] - st->mean);
    /* sample standard deviation (n - 1); 0 for a single sample */
    st->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
    tmp = n <= SN_ARRAY_LEN(small) ? small : sn_xmalloc(n * sizeof(*tmp));
    memcpy(tmp, x, n * sizeof(*tmp));
    st->median = sn_stats_median(tmp, n);
    st->mad = mad_around(tmp, n, st->median);
    if (tmp != small)
        free(tmp);
}

/* The value of key in a "k=v,k=v" parameter list into buf; false when
 * it has none. */
static bool param(const char *params, const char *key, char *buf, size_t size)
{
    size_t kl = strlen(key);

    for (const char *p = params; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > kl && !strncmp(p, key, kl) && p[kl] == '=') {
            size_t vl = len - kl - 1;
            if (vl >= size)
                vl = size - 1;
            memcpy(buf, p + kl + 1, vl);
            buf[vl] = '\0';
            return true;
        }
        p = end ? end + 1 : NULL;
    }
    return false;
}

void sn_result_params_read(struct sn_result *r)
{
    char buf[32];
    double bytes;

    r->bytes = 0;
    r->dtype[0] = '\0';
    if (param(r->params, "bytes", buf, sizeof(buf))) {
        bytes = strtod(buf, NULL);
        /* a count of bytes: whole, positive, inside uint64_t */
        if (bytes > 0 && bytes < 1.8e19)
            r->bytes = (uint64_t)bytes;
    }
    if (!param(r->params, "dtype", r->dtype, sizeof(r->dtype)))
        r->dtype[0] = '\0';
}

void sn_results_init(struct sn_results *rs)
{
    memset(rs, 0, sizeof(*rs));
}

struct sn_result *sn_results_add(struct sn_results *rs,
                                 const struct sn_result *r)
{
    struct sn_result *d;

    SN_GROW(rs->items, rs->cap, rs->n + 1);
    d = &rs->items[rs->n++];
    *d = *r;
    d->samples = NULL;
    if (r->nsamples) {
        d->samples = sn_xmalloc(r->nsamples * sizeof(double));
        memcpy(d->samples, r->samples, r->nsamples * sizeof(double));
    }
    return d;
}

void sn_results_release(struct sn_results *rs)
{
    for (size_t i = 0; i < rs->n; i++)
        free(rs->items[i].samples);
    free(rs->items);
    memset(rs, 0, sizeof(*rs));
}

char *sn_result_subject(const struct sn_result *r, char *buf, size_t size)
{
    switch (r->subject) {
    case SN_SUBJECT_DEVICE:
        snprintf(buf, size, "rank%u", (unsigned)r->a);
        break;
    case SN_SUBJECT_PAIR:
        snprintf(buf, size, "rank%u~rank%u", (unsigned)r->a, (unsigned)r->b);
        break;
    default:
        if (r->b <= 1)
            snprintf(buf, size, "rank%u", (unsigned)r->a);
        else
            snprintf(buf, size, "ranks%u-%u", (unsigned)r->a,
                     (unsigned)(r->a + r->b - 1));
        break;
    }
    return buf;
}

const char *sn_subject_name(enum sn_subject s)
{
    switch (s) {
    case SN_SUBJECT_DEVICE:
        return "device";
    case SN_SUBJECT_PAIR:
        return "pair";
    case SN_SUBJECT_GROUP:
        return "group";
    }
    return "?";
}
