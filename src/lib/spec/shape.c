/* shape.c: the arithmetic that sizes switched fabrics (switch chips per
 * plane, fat-tree leaves and tiers), shared by the spec's checks
 * (scaleup.c, scaleout.c) and the topology builder (topo/build*.c). */
#include <assert.h>
#include <math.h>

#include "spec-int.h"

static long long ceil_div(long long a, long long d)
{
    assert(a >= 0 && d > 0);
    return (a + d - 1) / d;
}

long long sn_scaleup_chips_one_tier(long long members, long long lpp,
                                    int groups, int radix)
{
    /* every accelerator reaches every chip of its plane (or two would
     * share no chip); a chip of a switch group takes its group's links
     * and as many trunks to the other groups' chips */
    return ceil_div(members * lpp * (groups > 1 ? 2 : 1), radix);
}

long long sn_scaleup_chip_ports(long long members, long long lpp, int groups,
                                long long chips)
{
    return members * (groups > 1 ? 2 : 1) * ceil_div(lpp, chips);
}

long long sn_scaleup_chips_two_tiers(long long nodes, long long down, int radix)
{
    long long first = 0; /* the fewest the L2 chips' ports allow */

    /* one L1 chip per plane on each node takes down links and as many
     * up, spread evenly over the plane's L2 chips; each L2 chip takes
     * the same number from every node */
    for (long long k = 1; k <= down; k++) {
        long long per = ceil_div(down, k);
        if (nodes * per > radix)
            continue;
        if (!first)
            first = k;
        if (down + k * per <= radix)
            return k;
    }
    return first ? first : down;
}

void sn_fat_tree_fit(int radix, double oversubscription, double servers,
                     int nics, bool rail, struct sn_fat_tree_fit *out)
{
    double o = oversubscription;
    int half = radix / 2;

    assert(radix >= 2 && o > 0 && servers >= 0 && nics >= 0);
    /* leaf ports split down:up in the ratio oversubscription:1, at least
     * one each way */
    out->down = (int)floor(radix * o / (1 + o));
    out->split = out->down >= 1 && out->down < radix;
    if (out->down > radix - 1)
        out->down = radix - 1;
    if (out->down < 1)
        out->down = 1;
    out->ports = servers * nics;
    out->leaves =
        rail ? ceil(servers / out->down) * nics : ceil(out->ports / out->down);
    /* one tier: every port on one switch, or (rail, asked for) one
     * switch per rail; two: every leaf on one spine's ports; three: pods
     * of radix/2 leaves, every pod on one core's ports */
    out->fits[0] = out->ports <= radix || (rail && servers <= radix);
    out->fits[1] = out->leaves <= radix;
    out->fits[2] = half >= 1 && ceil(out->leaves / half) <= radix;
    /* the fewest tiers that join every port. One tier only when one
     * switch takes them all: one switch per rail alone would join no two
     * rails (a rail-only network is asked for with tiers: 1) */
    if (out->ports <= radix)
        out->tiers = 1;
    else if (out->fits[1])
        out->tiers = 2;
    else if (out->fits[2])
        out->tiers = 3;
    else
        out->tiers = 0;
}
