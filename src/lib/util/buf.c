/* buf.c: the growable byte buffer and the small string helpers. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sn/util.h"

/* what an empty buffer's data points at: "" without an allocation */
char sn__buf_empty[1];

void sn_buf_init(struct sn_buf *b)
{
    b->data = sn__buf_empty;
    b->len = 0;
    b->cap = 0;
}

void sn_buf_release(struct sn_buf *b)
{
    if (b->cap)
        free(b->data);
    sn_buf_init(b);
}

void sn_buf_reset(struct sn_buf *b)
{
    b->len = 0;
    if (b->cap)
        b->data[0] = '\0';
}

static void reserve(struct sn_buf *b, size_t extra)
{
    size_t need = b->len + extra + 1;

    if (need <= b->cap)
        return;
    if (!b->cap) {
        b->data = NULL;
    }
    sn_grow((void **)&b->data, &b->cap, need, 1);
}

void sn_buf_append(struct sn_buf *b, const void *data, size_t len)
{
    reserve(b, len);
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void sn_buf_puts(struct sn_buf *b, const char *s)
{
    sn_buf_append(b, s, strlen(s));
}

void sn_buf_putc(struct sn_buf *b, char c)
{
    sn_buf_append(b, &c, 1);
}

void sn_buf_vprintf(struct sn_buf *b, const char *fmt, va_list ap)
{
    va_list cp;
    int n;

    va_copy(cp, ap);
    n = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    if (n <= 0)
        return;
    reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void sn_buf_printf(struct sn_buf *b, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    sn_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

char *sn_buf_detach(struct sn_buf *b, size_t *len)
{
    char *p;

    if (!b->cap)
        p = sn_xstrdup("");
    else
        p = b->data;
    if (len)
        *len = b->len;
    sn_buf_init(b);
    return p;
}

char *sn_tok_next(char **cursor, char delim)
{
    char *p = *cursor, *tok;

    if (!p)
        return NULL;
    while (*p == delim)
        p++;
    if (!*p) {
        *cursor = p;
        return NULL;
    }
    tok = p;
    while (*p && *p != delim)
        p++;
    if (*p)
        *p++ = '\0';
    *cursor = p;
    return tok;
}

size_t sn_strlcpy(char *dst, const char *src, size_t size)
{
    size_t len = strlen(src);

    if (size) {
        size_t n = len < size - 1 ? len : size - 1;
        memcpy(dst, src, n);
        dst[n] = '\0';
    }
    return len;
}

bool sn_streq(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

bool sn_strcaseeq(const char *a, const char *b)
{
    if (!a || !b)
        return false;
    while (*a && *b) {
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
        a++;
        b++;
    }
    return *a == *b;
}

bool sn_startswith(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

#define EDIT_MAX 64

/* Optimal string alignment distance: insertions, deletions, substitutions
 * and swaps of neighbours each cost 1 ("Gbsp" is one edit from "Gbps"). */
static int distance(const char *a, const char *b, bool fold)
{
    int d[EDIT_MAX + 1][EDIT_MAX + 1];
    int la = (int)strnlen(a, EDIT_MAX), lb = (int)strnlen(b, EDIT_MAX);

    for (int i = 0; i <= la; i++)
        d[i][0] = i;
    for (int j = 0; j <= lb; j++)
        d[0][j] = j;
    for (int i = 1; i <= la; i++) {
        for (int j = 1; j <= lb; j++) {
            int ca = (unsigned char)a[i - 1], cb = (unsigned char)b[j - 1];
            int pa = i > 1 ? (unsigned char)a[i - 2] : 0;
            int pb = j > 1 ? (unsigned char)b[j - 2] : 0;
            int best;
            if (fold) {
                ca = tolower(ca);
                cb = tolower(cb);
                pa = tolower(pa);
                pb = tolower(pb);
            }
            best = d[i - 1][j - 1] + (ca != cb);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && ca == pb && pa == cb &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[la][lb];
}

int sn_edit_distance(const char *a, const char *b)
{
    return distance(a, b, true);
}

/* Close enough to be a misspelling: within a third of the word's length
 * (at least 1, at most 4 edits), or one is a prefix of the other. */
static bool plausible(const char *word, const char *cand, int d)
{
    int len = (int)strlen(word);
    int limit = len / 3;

    if (limit < 1)
        limit = 1;
    if (limit > 4)
        limit = 4;
    if (d <= limit)
        return true;
    return len >= 3 && strncasecmp(word, cand, strlen(word)) == 0;
}

const char *sn_suggest_strided(const char *word, const void *first, size_t n,
                               size_t stride)
{
    const char *best = NULL;
    int best_d = 1 << 30, best_cs = 1 << 30, best_dl = 1 << 30;
    int wlen = (int)strlen(word);

    for (size_t i = 0; i < n; i++) {
        const char *cand =
            *(const char *const *)((const char *)first + i * stride);
        int d;
        if (!cand)
            continue;
        int cs, dl;
        d = sn_edit_distance(word, cand);
        if (d > best_d || !plausible(word, cand, d))
            continue;
        /* ties go to the candidate that also matches case ("Gbps" over
         * "GBps" for "Gbsp"), then to the one of the word's length: a
         * mistyped letter is likelier than a dropped one ("supernodez"
         * means "supernodes", not "supernode") */
        cs = distance(word, cand, false);
        dl = abs((int)strlen(cand) - wlen);
        if (d < best_d || cs < best_cs || (cs == best_cs && dl < best_dl)) {
            best = cand;
            best_d = d;
            best_cs = cs;
            best_dl = dl;
        }
    }
    return best;
}

const char *sn_suggest(const char *word, const char *const *candidates)
{
    size_t n = 0;

    while (candidates[n])
        n++;
    return sn_suggest_strided(word, candidates, n, sizeof(candidates[0]));
}

int sn_unknown_name(struct sn_error *err, const char *what, const char *name,
                    const void *first, size_t n, size_t stride)
{
    const char *near = sn_suggest_strided(name, first, n, stride);
    struct sn_buf list = SN_BUF_INIT;
    int rc;

    if (near)
        return sn_error_set(err, SN_EINPUT,
                            "unknown %s '%.64s' (did you mean '%s'?)", what,
                            name, near);
    for (size_t i = 0; i < n; i++) {
        const char *c =
            *(const char *const *)((const char *)first + i * stride);
        sn_buf_printf(&list, "%s%s",
                      i == 0       ? ""
                      : i == n - 1 ? " or "
                                   : ", ",
                      c ? c : "?");
    }
    rc = sn_error_set(err, SN_EINPUT, "unknown %s '%.64s' (expected %s)", what,
                      name, list.data);
    sn_buf_release(&list);
    return rc;
}
