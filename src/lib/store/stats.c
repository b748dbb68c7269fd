/* stats.c: the owned result arrays the store reads and writes, their
 * parameters and subjects; the summaries of their samples are util's
 * (sn_stats_compute). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/store.h"

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
