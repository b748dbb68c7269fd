/* stats.c: log-spaced histograms of a measurement's samples (the
 * statistics themselves are util's sn_stats_compute). Pure functions, no
 * MPI. */
#include <math.h>

#include "sn/bench.h"

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
