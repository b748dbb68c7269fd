/* json.c: a streaming JSON writer. Keys come out in the order written and
 * numbers with a fixed format, so the same data gives the same bytes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sn/util.h"

void sn_json_init(struct sn_json *j, struct sn_buf *out, bool pretty)
{
    memset(j, 0, sizeof(*j));
    j->out = out;
    j->pretty = pretty;
    j->first[0] = true;
}

static void newline(struct sn_json *j)
{
    if (!j->pretty)
        return;
    sn_buf_putc(j->out, '\n');
    for (int i = 0; i < j->depth; i++)
        sn_buf_puts(j->out, "  ");
}

/* Before a value: the comma and line break that separate it from the
 * previous one, unless it follows a key. */
static void before_value(struct sn_json *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->depth > 0) {
        if (!j->first[j->depth])
            sn_buf_putc(j->out, ',');
        newline(j);
    }
    j->first[j->depth] = false;
}

static void open(struct sn_json *j, char c)
{
    before_value(j);
    sn_buf_putc(j->out, c);
    if (j->depth < SN_JSON_MAX_DEPTH - 1)
        j->depth++;
    j->first[j->depth] = true;
}

static void close(struct sn_json *j, char c)
{
    bool empty = j->first[j->depth];

    if (j->depth > 0)
        j->depth--;
    if (!empty)
        newline(j);
    sn_buf_putc(j->out, c);
    if (j->depth == 0 && j->pretty)
        sn_buf_putc(j->out, '\n');
}

void sn_json_obj_begin(struct sn_json *j)
{
    open(j, '{');
}

void sn_json_obj_end(struct sn_json *j)
{
    close(j, '}');
}

void sn_json_arr_begin(struct sn_json *j)
{
    open(j, '[');
}

void sn_json_arr_end(struct sn_json *j)
{
    close(j, ']');
}

void sn_json_escape(struct sn_buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s);

    sn_buf_putc(b, '"');
    for (size_t i = 0; i < len;) {
        size_t n;
        switch (p[i]) {
        case '"':
            sn_buf_puts(b, "\\\"");
            break;
        case '\\':
            sn_buf_puts(b, "\\\\");
            break;
        case '\n':
            sn_buf_puts(b, "\\n");
            break;
        case '\r':
            sn_buf_puts(b, "\\r");
            break;
        case '\t':
            sn_buf_puts(b, "\\t");
            break;
        default:
            if (p[i] < 0x20 || p[i] == 0x7f) {
                sn_buf_printf(b, "\\u%04x", p[i]);
                break;
            }
            if (p[i] < 0x80) {
                sn_buf_putc(b, (char)p[i]);
                break;
            }
            /* JSON is UTF-8 (RFC 8259): a byte that is not part of a
             * character is written as the text "\xNN", as clean text
             * writes it (sn_buf_put_clean), never raw; a C1 control as
             * its \u escape */
            n = sn_utf8_len(p + i, len - i);
            if (!n) {
                sn_buf_printf(b, "\\\\x%02x", p[i]);
                break;
            }
            if (n == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0)
                sn_buf_printf(b, "\\u%04x", p[i + 1]);
            /* U+2028 and U+2029 end a line for JavaScript and YAML 1.1;
             * U+FFFE and U+FFFF are no characters to YAML's reader
             * (libyaml: what reads a run back in) nor to XML: escaped */
            else if (n == 3 && ((p[i] == 0xe2 && p[i + 1] == 0x80 &&
                                 (p[i + 2] == 0xa8 || p[i + 2] == 0xa9)) ||
                                (p[i] == 0xef && p[i + 1] == 0xbf &&
                                 (p[i + 2] == 0xbe || p[i + 2] == 0xbf))))
                sn_buf_printf(b, "\\u%02x%02x",
                              (unsigned)(p[i] & 0x0f) << 4 |
                                  (unsigned)(p[i + 1] & 0x3c) >> 2,
                              (unsigned)(p[i + 1] & 0x03) << 6 |
                                  (p[i + 2] & 0x3f));
            else
                sn_buf_append(b, p + i, n);
            i += n;
            continue;
        }
        i++;
    }
    sn_buf_putc(b, '"');
}

void sn_json_key(struct sn_json *j, const char *key)
{
    before_value(j);
    sn_json_escape(j->out, key);
    sn_buf_puts(j->out, j->pretty ? ": " : ":");
    j->after_key = true;
}

void sn_json_str(struct sn_json *j, const char *s)
{
    before_value(j);
    if (s)
        sn_json_escape(j->out, s);
    else
        sn_buf_puts(j->out, "null");
}

void sn_json_num(struct sn_json *j, double v)
{
    char tmp[40];

    before_value(j);
    if (!isfinite(v)) {
        sn_buf_puts(j->out, "null");
        return;
    }
    if (v == 0)
        v = 0;
    /* Integers print as integers; others with 10 significant digits, which
     * is finer than anything measured and stable across platforms. */
    if (fabs(v) < 1e15 && v == (double)(long long)v)
        snprintf(tmp, sizeof(tmp), "%lld", (long long)v);
    else
        snprintf(tmp, sizeof(tmp), "%.10g", v);
    sn_buf_puts(j->out, tmp);
}

void sn_json_int(struct sn_json *j, long long v)
{
    before_value(j);
    sn_buf_printf(j->out, "%lld", v);
}

void sn_json_bool(struct sn_json *j, bool v)
{
    before_value(j);
    sn_buf_puts(j->out, v ? "true" : "false");
}

void sn_json_null(struct sn_json *j)
{
    before_value(j);
    sn_buf_puts(j->out, "null");
}

void sn_json_kstr(struct sn_json *j, const char *key, const char *s)
{
    sn_json_key(j, key);
    sn_json_str(j, s);
}

void sn_json_knum(struct sn_json *j, const char *key, double v)
{
    sn_json_key(j, key);
    sn_json_num(j, v);
}

void sn_json_kint(struct sn_json *j, const char *key, long long v)
{
    sn_json_key(j, key);
    sn_json_int(j, v);
}

void sn_json_kbool(struct sn_json *j, const char *key, bool v)
{
    sn_json_key(j, key);
    sn_json_bool(j, v);
}
