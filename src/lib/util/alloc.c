/* alloc.c: allocation that never returns NULL, and the growth helper every
 * vector in the library uses. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sn/util.h"

/* The library prints nothing: by default the allocation aborts without a
 * word; the CLI sets a handler that says how much was asked for. */
static void default_oom(size_t size)
{
    (void)size;
}

static void (*oom_handler)(size_t) = default_oom;

void sn_set_oom_handler(void (*fn)(size_t size))
{
    oom_handler = fn ? fn : default_oom;
}

static void *oom(size_t size)
{
    oom_handler(size);
    abort(); /* a handler that returns has nothing to give back */
}

void *sn_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);

    return p ? p : oom(size);
}

void *sn_xcalloc(size_t n, size_t size)
{
    void *p;

    if (size && n > SIZE_MAX / size)
        return oom(SIZE_MAX);
    p = calloc(n ? n : 1, size ? size : 1);
    return p ? p : oom(n * size);
}

void *sn_xrealloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);

    return p ? p : oom(size);
}

char *sn_xstrdup(const char *s)
{
    return sn_xstrndup(s, strlen(s));
}

char *sn_xstrndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *p = sn_xmalloc(len + 1);

    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

void sn_grow(void **items, size_t *cap, size_t need, size_t size)
{
    size_t ncap;

    if (need <= *cap)
        return;
    ncap = *cap ? *cap : 8;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            oom(SIZE_MAX);
        ncap *= 2;
    }
    if (ncap > SIZE_MAX / size)
        oom(SIZE_MAX);
    *items = sn_xrealloc(*items, ncap * size);
    *cap = ncap;
}
