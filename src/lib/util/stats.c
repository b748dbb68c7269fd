/* stats.c: summaries of repeated samples (median, MAD, mean, extremes,
 * percentiles, a distribution-free confidence interval of the median):
 * the struct sn_stats a measured result carries, and the robust median
 * and sigma that diagnosis, the node agent's rules and the reports take. */
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

double sn_stats_quantile(const double *sorted, size_t n, double p)
{
    double h, frac;
    size_t lo;

    if (n == 0)
        return NAN;
    if (p <= 0)
        return sorted[0];
    if (p >= 1)
        return sorted[n - 1];
    /* Hyndman & Fan type 7 (numpy's default): h = (n - 1) p */
    h = (double)(n - 1) * p;
    lo = (size_t)floor(h);
    frac = h - (double)lo;
    if (lo + 1 >= n)
        return sorted[n - 1];
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

bool sn_stats_median_ci(size_t n, double level, size_t *lo, size_t *hi)
{
    /* The interval [x_(j), x_(n-j+1)] (1-based) covers the median with
     * probability 1 - 2 P(B <= j - 1), B ~ Bin(n, 1/2) (Hollander & Wolfe,
     * Nonparametric Statistical Methods, 3rd ed., sec. 3.6). Take the
     * largest j that still reaches the level. */
    size_t j = 0;
    double alpha2 = (1.0 - level) / 2.0;

    if (n < 2)
        return false;
    /* P(B <= j - 1) grows with j; walk up while it stays <= alpha/2. The
     * terms are summed in log space so that large n neither overflows nor
     * underflows. */
    {
        double cdf = 0, logc = 0, logp = -(double)n * log(2.0);
        for (size_t i = 0; i < n; i++) {
            if (i > 0)
                logc += log((double)(n - i + 1)) - log((double)i);
            cdf += exp(logc + logp);
            if (cdf > alpha2 + 1e-12)
                break;
            j = i + 1; /* P(B <= j - 1) = cdf <= alpha/2 */
        }
    }
    if (j == 0)
        return false;
    if (j > n / 2)
        j = n / 2;
    *lo = j - 1;
    *hi = n - j;
    return true;
}

void sn_stats_compute(const double *x, size_t n, struct sn_stats *st)
{
    double small[64], *s, sum = 0.0, sq = 0.0;
    size_t lo, hi;

    memset(st, 0, sizeof(*st));
    st->ci_lo = st->ci_hi = NAN;
    if (n == 0)
        return;
    st->n = n;
    s = n <= SN_ARRAY_LEN(small) ? small : sn_xmalloc(n * sizeof(*s));
    memcpy(s, x, n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp_double);
    for (size_t i = 0; i < n; i++)
        sum += s[i];
    st->mean = sum / (double)n;
    /* two-pass variance: no cancellation when the spread is tiny */
    for (size_t i = 0; i < n; i++)
        sq += (s[i] - st->mean) * (s[i] - st->mean);
    st->min = s[0];
    st->max = s[n - 1];
    st->median = sn_stats_quantile(s, n, 0.5);
    st->p5 = sn_stats_quantile(s, n, 0.05);
    st->p90 = sn_stats_quantile(s, n, 0.90);
    st->p95 = sn_stats_quantile(s, n, 0.95);
    st->p99 = sn_stats_quantile(s, n, 0.99);
    st->p999 = sn_stats_quantile(s, n, 0.999);
    /* sample standard deviation (n - 1); 0 for a single sample */
    st->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0.0;
    st->cv = st->mean != 0 ? st->stddev / fabs(st->mean) : NAN;
    if (sn_stats_median_ci(n, 0.95, &lo, &hi)) {
        st->ci_lo = s[lo];
        st->ci_hi = s[hi];
    }
    st->mad = mad_around(s, n, st->median);
    if (s != small)
        free(s);
}

double sn_stats_ci_rel(const struct sn_stats *st)
{
    double d;

    if (!isfinite(st->ci_lo) || !isfinite(st->ci_hi) || st->median == 0 ||
        !isfinite(st->median))
        return INFINITY;
    d = fmax(st->median - st->ci_lo, st->ci_hi - st->median);
    return d / fabs(st->median);
}
