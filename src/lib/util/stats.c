/* stats.c: summaries of repeated samples (median, MAD, mean, extremes):
 * the struct sn_stats a stored result carries, and the robust median and
 * sigma that diagnosis, the node agent's rules and the reports take. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sn/util.h"

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
