/* text.c: strings that come from the machine (sysfs, host names, library
 * versions) or from documents made elsewhere, made safe at the edge where
 * they are read: valid UTF-8 with no control characters, so that they
 * print on a terminal as themselves and go into JSON, XML and the store
 * as they are. */
#include <string.h>

#include "sn/util.h"

size_t sn_utf8_len(const unsigned char *s, size_t avail)
{
    unsigned c = s[0];
    size_t n;
    unsigned min, cp;

    if (c < 0x80)
        return avail ? 1 : 0;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        min = 0x80;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        min = 0x800;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        min = 0x10000;
        cp = c & 0x07;
    } else {
        return 0; /* a continuation byte, 0xc0, 0xc1 or above 0xf4 */
    }
    if (avail < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    /* overlong forms, UTF-16 surrogates and code points past U+10FFFF
     * are not UTF-8 (RFC 3629) */
    if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
        return 0;
    return n;
}

/* The code point of a valid sequence of n bytes. */
static unsigned code_point(const unsigned char *s, size_t n)
{
    static const unsigned char lead_mask[5] = {0, 0x7f, 0x1f, 0x0f, 0x07};
    unsigned cp = s[0] & lead_mask[n];

    for (size_t i = 1; i < n; i++)
        cp = cp << 6 | (s[i] & 0x3f);
    return cp;
}

/* Control characters a terminal acts on: C0, DEL and C1. */
static bool is_control(unsigned cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

/* Whether the unit of n bytes at p (0: not a character) is kept as it
 * is: a character that is no control, or a newline or tab in lines. */
static bool kept(const unsigned char *p, size_t n, int flags)
{
    if (!n)
        return false;
    if (!is_control(code_point(p, n)))
        return true;
    return (flags & SN_CLEAN_LINES) && (p[0] == '\n' || p[0] == '\t');
}

/* Append the clean form of s: each unit is either a whole character kept
 * or one escape per byte. Stops before a unit that would take the text
 * past max bytes; returns the bytes of s consumed. */
static size_t clean(struct sn_buf *b, const char *s, size_t len, int flags,
                    size_t max)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;

    while (i < len) {
        size_t n = sn_utf8_len(p + i, len - i);
        bool keep = kept(p + i, n, flags);
        if (!n)
            n = 1;
        if (b->len + (keep ? n : 4 * n) > max)
            break;
        if (keep) {
            sn_buf_append(b, p + i, n);
        } else {
            for (size_t k = 0; k < n; k++) {
                char esc[4] = {'\\', 'x', hex[p[i + k] >> 4],
                               hex[p[i + k] & 15]};
                sn_buf_append(b, esc, 4);
            }
        }
        i += n;
    }
    return i;
}

void sn_buf_put_clean(struct sn_buf *b, const char *s, size_t len, int flags)
{
    clean(b, s, len, flags, (size_t)-1);
}

/* Clean len bytes of src into dst, a buffer of size bytes (dst may be
 * src: the clean form is built apart first). */
static void clean_into(char *dst, size_t size, const char *src, size_t len,
                       int flags)
{
    struct sn_buf b;

    if (!size)
        return;
    sn_buf_init(&b);
    clean(&b, src, len, flags, size - 1);
    memcpy(dst, b.data, b.len);
    dst[b.len] = '\0';
    sn_buf_release(&b);
}

char *sn_str_clean(char *dst, size_t size, const char *src, int flags)
{
    clean_into(dst, size, src, strlen(src), flags);
    return dst;
}

void sn_str_clean_in(char *s, size_t size, int flags)
{
    if (size)
        clean_into(s, size, s, strnlen(s, size - 1), flags);
}

char *sn_xstrdup_clean(const char *s, int flags)
{
    struct sn_buf b;

    sn_buf_init(&b);
    sn_buf_put_clean(&b, s, strlen(s), flags);
    if (!b.cap)
        return sn_xstrdup("");
    return sn_buf_detach(&b, NULL);
}

bool sn_str_is_clean(const char *s, int flags)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s), i = 0;

    while (i < len) {
        size_t n = sn_utf8_len(p + i, len - i);
        if (!kept(p + i, n, flags))
            return false;
        i += n;
    }
    return true;
}
