/* misc.c: monotonic time and a stable 64-bit hash. */
#include <time.h>

#include "sn/util.h"

double sn_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t sn_hash64(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ULL ^ seed; /* FNV-1a 64 offset basis */

    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL; /* FNV-1a 64 prime */
    }
    return h;
}
