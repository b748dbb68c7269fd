/* escape.c: the one home of output escaping. A string from input (a spec
 * name, a file's field) or from the machine enters a document through the
 * escaper of that document's format, here: first made clean (valid UTF-8,
 * no control character: text.c), then given the format's own quoting, so
 * that it stays one value of that format and can neither end it early nor
 * add to it. */
#include <string.h>

#include "sn/util.h"

/* Append len bytes of s with each byte in `special` replaced by its entry
 * in `rep` (same index). */
static void replace(struct sn_buf *b, const char *s, size_t len,
                    const char *special, const char *const *rep)
{
    size_t run = 0;

    for (size_t i = 0; i < len; i++) {
        const char *hit = s[i] ? strchr(special, s[i]) : NULL;
        if (!hit)
            continue;
        sn_buf_append(b, s + run, i - run);
        sn_buf_puts(b, rep[hit - special]);
        run = i + 1;
    }
    sn_buf_append(b, s + run, len - run);
}

/* U+2028 and U+2029 end a line for YAML (1.1, libyaml) and JavaScript;
 * U+FFFE and U+FFFF are no XML characters (XML 1.0 section 2.2). Clean
 * text keeps them, so the formats that care rewrite them. */
static size_t odd_char(const char *s, size_t len, size_t i)
{
    const unsigned char *p = (const unsigned char *)s + i;

    if (len - i >= 3 && p[0] == 0xe2 && p[1] == 0x80 &&
        (p[2] == 0xa8 || p[2] == 0xa9))
        return 3;
    if (len - i >= 3 && p[0] == 0xef && p[1] == 0xbf &&
        (p[2] == 0xbe || p[2] == 0xbf))
        return 3;
    return 0;
}

/* Clean text with the odd characters above written as "\uXXXX". */
static void put_plain(struct sn_buf *b, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    size_t run = 0;

    for (size_t i = 0; i < len; i++) {
        size_t n = odd_char(s, len, i);
        const unsigned char *p = (const unsigned char *)s + i;
        unsigned cp;
        char esc[7] = {'\\', 'u', 0, 0, 0, 0, 0};
        if (!n)
            continue;
        cp = (unsigned)(p[0] & 0x0f) << 12 | (unsigned)(p[1] & 0x3f) << 6 |
             (p[2] & 0x3f);
        for (int k = 0; k < 4; k++)
            esc[2 + k] = hex[cp >> (12 - 4 * k) & 15];
        sn_buf_append(b, s + run, i - run);
        sn_buf_append(b, esc, 6);
        run = i + n;
        i += n - 1;
    }
    sn_buf_append(b, s + run, len - run);
}

void sn_buf_put_esc(struct sn_buf *b, enum sn_esc how, const char *s)
{
    static const char *const xml[] = {"&amp;", "&lt;", "&gt;", "&quot;",
                                      "&#39;"};
    static const char *const bs_quote[] = {"\\\\", "\\\""};
    static const char *const csv_quote[] = {"\"\""};
    struct sn_buf clean = SN_BUF_INIT, plain = SN_BUF_INIT;
    const char *t;
    size_t len;

    if (!s)
        s = "";
    if (how == SN_ESC_JSON) {
        sn_json_escape(b, s); /* JSON can say every byte itself */
        return;
    }
    /* control characters (newlines included) and broken UTF-8 as the
     * text "\xNN": no format below can then be ended or added to by a
     * line break, and XML gets no character it forbids */
    sn_buf_put_clean(&clean, s, strlen(s),
                     how == SN_ESC_XML_LINES ? SN_CLEAN_LINES : 0);
    if (how != SN_ESC_TERM && how != SN_ESC_CSV)
        put_plain(&plain, clean.data ? clean.data : "", clean.len);
    else
        sn_buf_append(&plain, clean.data ? clean.data : "", clean.len);
    t = plain.data ? plain.data : "";
    len = plain.len;
    switch (how) {
    case SN_ESC_TERM:
    case SN_ESC_YAML_COMMENT:
        sn_buf_append(b, t, len);
        break;
    case SN_ESC_XML:
    case SN_ESC_XML_LINES:
        replace(b, t, len, "&<>\"'", xml);
        break;
    case SN_ESC_DOT:
    case SN_ESC_PROMQL:
        /* DOT quoted strings (graphviz's lang docs: \" is the only
         * escape, a backslash kept for its label escapes \n \l \r, so
         * one of ours is doubled); PromQL and exposition string
         * literals (Go's rules): \\ and \" */
        replace(b, t, len, "\\\"", bs_quote);
        break;
    case SN_ESC_YAML:
        /* a double-quoted scalar: \\ and \" are its escapes (YAML 1.2
         * section 5.7); nothing else in clean text is special there */
        sn_buf_putc(b, '"');
        replace(b, t, len, "\\\"", bs_quote);
        sn_buf_putc(b, '"');
        break;
    case SN_ESC_CSV:
        /* RFC 4180: a field with a comma, a quote or a line break is
         * quoted, its quotes doubled (clean text has no line break) */
        if (strpbrk(t, ",\"") || (len && (t[0] == ' ' || t[len - 1] == ' '))) {
            sn_buf_putc(b, '"');
            replace(b, t, len, "\"", csv_quote);
            sn_buf_putc(b, '"');
        } else {
            sn_buf_append(b, t, len);
        }
        break;
    case SN_ESC_JSON:
        break;
    }
    sn_buf_release(&plain);
    sn_buf_release(&clean);
}

char *sn_xstrdup_esc(enum sn_esc how, const char *s)
{
    struct sn_buf b = SN_BUF_INIT;

    sn_buf_put_esc(&b, how, s);
    if (!b.cap)
        return sn_xstrdup("");
    return sn_buf_detach(&b, NULL);
}
