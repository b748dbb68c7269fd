/* timer.c: how fine and how costly the clock behind every host-timed
 * sample is, so a result near the clock's limits can be told apart. */
#include <math.h>
#include <string.h>
#include <time.h>

#include "bench-int.h"

void sn__bench_timer_probe(struct sn_bench_timer *t)
{
    struct timespec res;
    double gran = INFINITY, t0, t1;
    int reads = 0;

    memset(t, 0, sizeof(*t));
    sn_strlcpy(t->name, "clock_gettime(CLOCK_MONOTONIC)", sizeof(t->name));
    t->resolution = clock_getres(CLOCK_MONOTONIC, &res) == 0
                        ? (double)res.tv_sec + (double)res.tv_nsec * 1e-9
                        : NAN;
    /* granularity: the smallest non-zero step between consecutive reads,
     * over a few thousand tries; overhead: the mean cost of one read */
    for (int i = 0; i < 2000; i++) {
        double a = sn_now(), b;
        do
            b = sn_now();
        while (b == a);
        if (b - a < gran)
            gran = b - a;
    }
    t->granularity = gran;
    t0 = sn_now();
    for (reads = 0; reads < 100000; reads++)
        t1 = sn_now();
    t1 = sn_now();
    t->overhead = (t1 - t0) / (reads + 1);
}
