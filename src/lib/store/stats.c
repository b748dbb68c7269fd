/* stats.c: the owned result arrays the store reads and writes, their
 * parameters (typed, and the "k=v" string derived from them) and
 * subjects; the summaries of their samples are util's
 * (sn_stats_compute). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

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

/* A whole number from a parameter's text into *out; false when it is
 * none. */
static bool param_int(const char *params, const char *key, long long lo,
                      long long hi, long long *out)
{
    char buf[32], *end;
    long long v;

    if (!param(params, key, buf, sizeof(buf)) || !buf[0])
        return false;
    v = strtoll(buf, &end, 10);
    if (*end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

void sn_result_params_read(struct sn_result *r)
{
    static const struct {
        const char *key;
        unsigned bit;
        size_t off;
    } flags[] = {
        {"inplace", SN_PARAM_INPLACE, offsetof(struct sn_result, inplace)},
        {"numa", SN_PARAM_NUMA, offsetof(struct sn_result, numa)},
        {"pinned", SN_PARAM_PINNED, offsetof(struct sn_result, pinned)},
        {"root", SN_PARAM_ROOT, offsetof(struct sn_result, root)},
    };
    char buf[32];
    double bytes;
    long long v;

    r->bytes = 0;
    r->dtype[0] = r->redop[0] = '\0';
    r->gemm_m = r->gemm_n = r->gemm_k = 0;
    r->inplace = r->numa = r->pinned = r->root = 0;
    r->has = 0;
    if (param(r->params, "bytes", buf, sizeof(buf))) {
        bytes = strtod(buf, NULL);
        /* a count of bytes: whole, positive, inside uint64_t */
        if (bytes > 0 && bytes < 1.8e19)
            r->bytes = (uint64_t)bytes;
    }
    if (!param(r->params, "dtype", r->dtype, sizeof(r->dtype)))
        r->dtype[0] = '\0';
    if (!param(r->params, "redop", r->redop, sizeof(r->redop)))
        r->redop[0] = '\0';
    if (param_int(r->params, "m", 1, INT64_MAX, &v))
        r->gemm_m = v;
    if (param_int(r->params, "n", 1, INT64_MAX, &v))
        r->gemm_n = v;
    if (param_int(r->params, "k", 1, INT64_MAX, &v))
        r->gemm_k = v;
    for (size_t i = 0; i < SN_ARRAY_LEN(flags); i++)
        if (param_int(r->params, flags[i].key, 0, INT32_MAX, &v)) {
            *(int *)((char *)r + flags[i].off) = (int)v;
            r->has |= flags[i].bit;
        }
}

static void add_param(struct sn_buf *b, const char *key, const char *fmt, ...)
    SN_PRINTF(3, 4);
static void add_param(struct sn_buf *b, const char *key, const char *fmt, ...)
{
    va_list ap;

    if (b->len)
        sn_buf_putc(b, ',');
    sn_buf_printf(b, "%s=", key);
    va_start(ap, fmt);
    sn_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void sn_result_params_write(struct sn_result *r)
{
    struct sn_buf b;

    if (r->params[0])
        return;
    sn_buf_init(&b);
    /* key order: what was stored before the string was derived, so that
     * rows of either age key the same baseline entry */
    if (r->bytes > 0)
        add_param(&b, "bytes", "%llu", (unsigned long long)r->bytes);
    if (r->dtype[0])
        add_param(&b, "dtype", "%s", r->dtype);
    if (r->has & SN_PARAM_INPLACE)
        add_param(&b, "inplace", "%d", r->inplace);
    if (r->gemm_k > 0)
        add_param(&b, "k", "%lld", (long long)r->gemm_k);
    if (r->gemm_m > 0)
        add_param(&b, "m", "%lld", (long long)r->gemm_m);
    if (r->gemm_n > 0)
        add_param(&b, "n", "%lld", (long long)r->gemm_n);
    if (r->has & SN_PARAM_NUMA)
        add_param(&b, "numa", "%d", r->numa);
    if (r->has & SN_PARAM_PINNED)
        add_param(&b, "pinned", "%d", r->pinned);
    if (r->redop[0])
        add_param(&b, "redop", "%s", r->redop);
    if (r->has & SN_PARAM_ROOT)
        add_param(&b, "root", "%d", r->root);
    sn_strlcpy(r->params, b.len ? b.data : "", sizeof(r->params));
    sn_buf_release(&b);
}

const char *sn__store_result_params(const struct sn_result *r, char *buf,
                                    size_t size)
{
    struct sn_result w = *r;

    w.samples = NULL;
    sn_result_params_write(&w);
    sn_strlcpy(buf, w.params, size);
    return buf;
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
    sn_result_params_write(d);
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
