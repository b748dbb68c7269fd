/* hmap.h: a small open-addressing map from 64-bit keys to 32-bit ids,
 * shared by the model's caches (internal). SN_NONE marks an empty slot, so
 * it is never a value. */
#ifndef SN_MODEL_HMAP_H
#define SN_MODEL_HMAP_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sn/topo.h"
#include "sn/util.h"

struct hmap {
    uint64_t *keys;
    uint32_t *vals; /* SN_NONE marks an empty slot */
    size_t cap, n;
};

static inline size_t hslot(uint64_t k, size_t cap)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return (size_t)k & (cap - 1);
}

static inline uint32_t hget(const struct hmap *h, uint64_t k)
{
    if (!h->cap)
        return SN_NONE;
    for (size_t i = hslot(k, h->cap);; i = (i + 1) & (h->cap - 1)) {
        if (h->vals[i] == SN_NONE)
            return SN_NONE;
        if (h->keys[i] == k)
            return h->vals[i];
    }
}

static inline void hput(struct hmap *h, uint64_t k, uint32_t v)
{
    if ((h->n + 1) * 2 > h->cap) {
        struct hmap g;
        g.cap = h->cap ? h->cap * 2 : 64;
        g.n = 0;
        g.keys = sn_xmalloc(g.cap * sizeof(uint64_t));
        g.vals = sn_xmalloc(g.cap * sizeof(uint32_t));
        memset(g.vals, 0xff, g.cap * sizeof(uint32_t));
        for (size_t i = 0; i < h->cap; i++)
            if (h->vals[i] != SN_NONE)
                hput(&g, h->keys[i], h->vals[i]);
        free(h->keys);
        free(h->vals);
        *h = g;
    }
    for (size_t i = hslot(k, h->cap);; i = (i + 1) & (h->cap - 1)) {
        if (h->vals[i] == SN_NONE) {
            h->keys[i] = k;
            h->vals[i] = v;
            h->n++;
            return;
        }
        if (h->keys[i] == k) {
            h->vals[i] = v;
            return;
        }
    }
}

static inline void hfree(struct hmap *h)
{
    free(h->keys);
    free(h->vals);
    memset(h, 0, sizeof(*h));
}

#endif
