/* stats.c: statistics over the samples of a measurement: median, mean,
 * spread, percentiles, a distribution-free confidence interval of the
 * median, and log-spaced histograms. Pure functions, no MPI. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sn/bench.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

double sn_bench_quantile(const double *sorted, size_t n, double p)
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

bool sn_bench_median_ci(size_t n, double level, size_t *lo, size_t *hi)
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

void sn_bench_stats_compute(const double *x, size_t n,
                            struct sn_bench_stats *st)
{
    double *s = NULL, sum = 0, sq = 0, mean;
    size_t lo, hi;

    memset(st, 0, sizeof(*st));
    st->median = st->mean = st->min = st->max = NAN;
    st->stddev = st->cv = NAN;
    st->p5 = st->p90 = st->p95 = st->p99 = st->p999 = NAN;
    st->ci_lo = st->ci_hi = NAN;
    if (n == 0)
        return;
    st->n = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
    s = sn_xmalloc(n * sizeof(*s));
    memcpy(s, x, n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp_double);
    for (size_t i = 0; i < n; i++)
        sum += s[i];
    mean = sum / (double)n;
    /* two-pass variance: no cancellation when the spread is tiny */
    for (size_t i = 0; i < n; i++)
        sq += (s[i] - mean) * (s[i] - mean);
    st->mean = mean;
    st->min = s[0];
    st->max = s[n - 1];
    st->median = sn_bench_quantile(s, n, 0.5);
    st->p5 = sn_bench_quantile(s, n, 0.05);
    st->p90 = sn_bench_quantile(s, n, 0.90);
    st->p95 = sn_bench_quantile(s, n, 0.95);
    st->p99 = sn_bench_quantile(s, n, 0.99);
    st->p999 = sn_bench_quantile(s, n, 0.999);
    if (n > 1) {
        st->stddev = sqrt(sq / (double)(n - 1));
        st->cv = mean != 0 ? st->stddev / fabs(mean) : NAN;
    } else {
        st->stddev = 0;
        st->cv = 0;
    }
    if (sn_bench_median_ci(n, 0.95, &lo, &hi)) {
        st->ci_lo = s[lo];
        st->ci_hi = s[hi];
    }
    free(s);
}

double sn_bench_ci_rel(const struct sn_bench_stats *st)
{
    double d;

    if (!isfinite(st->ci_lo) || !isfinite(st->ci_hi) || st->median == 0 ||
        !isfinite(st->median))
        return INFINITY;
    d = fmax(st->median - st->ci_lo, st->ci_hi - st->median);
    return d / fabs(st->median);
}

size_t sn_bench_histogram(const double *x, size_t n, double scale,
                          uint64_t *counts, size_t nbins, double *first_edge)
{
    /* Bin index k covers [2^(k/4), 2^((k+1)/4)) in units of `scale`:
     * four bins per octave keep every bin within 19% in width, and the
     * edges do not depend on the data, so two runs compare bin by bin. */
    long kmin = 0, kmax = 0;
    bool any = false;
    size_t used;

    for (size_t i = 0; i < nbins; i++)
        counts[i] = 0;
    *first_edge = NAN;
    if (!nbins)
        return 0;
    for (size_t i = 0; i < n; i++) {
        double v = x[i] / scale;
        long k;
        if (!(v > 0) || !isfinite(v))
            continue;
        k = (long)floor(4.0 * log2(v));
        if (!any || k < kmin)
            kmin = k;
        if (!any || k > kmax)
            kmax = k;
        any = true;
    }
    if (!any)
        return 0;
    used = (size_t)(kmax - kmin + 1);
    if (used > nbins)
        used = nbins;
    for (size_t i = 0; i < n; i++) {
        double v = x[i] / scale;
        long k;
        size_t b;
        if (!(v > 0) || !isfinite(v))
            continue;
        k = (long)floor(4.0 * log2(v));
        b = (size_t)(k - kmin);
        if (b >= used)
            b = used - 1; /* the last bin takes the tail */
        counts[b]++;
    }
    *first_edge = pow(2.0, (double)kmin / 4.0) * scale;
    return used;
}
