/* schedule.c: which ranks meet in which round of a pair test. The circle
 * method of round-robin tournaments: N - 1 rounds of N/2 disjoint pairs,
 * so a full pair matrix costs O(N) rounds instead of O(N^2) steps. */
#include "sn/bench.h"

int sn_bench_rounds(int n)
{
    if (n < 2)
        return 0;
    return n % 2 ? n : n - 1;
}

void sn_bench_tournament(int n, int round, int *partner)
{
    /* With m = n rounded up to even, player m - 1 stays fixed and the
     * other m - 1 sit on a circle that turns by one seat per round: in
     * round r, m - 1 meets r, and r + i meets r - i (mod m - 1) for
     * i = 1 .. m/2 - 1. With odd n, player m - 1 is a bye. */
    int m = n % 2 ? n + 1 : n;
    int c = m - 1;

    for (int i = 0; i < n; i++)
        partner[i] = -1;
    if (n < 2 || round < 0 || round >= c)
        return;
    if (m - 1 < n) {
        partner[m - 1] = round;
        partner[round] = m - 1;
    }
    for (int i = 1; i < m / 2; i++) {
        int a = (round + i) % c;
        int b = ((round - i) % c + c) % c;
        if (a < n && b < n) {
            partner[a] = b;
            partner[b] = a;
        }
    }
}
