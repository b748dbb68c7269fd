/* error.c: struct sn_error, the library's one way of saying what went wrong,
 * and the mapping from library codes to the CLI's exit statuses. */
#include <stdio.h>
#include <string.h>

#include "sn/util.h"

/* Messages longer than the buffer lose their middle, not their end: a
 * message quotes its subject first (a path, a value) and says what is
 * wrong last, and a 5,000-character path must not push the reason out.
 * Cuts fall between UTF-8 characters. */
#define ERROR_HEAD 320

static size_t char_start(const char *s, size_t i)
{
    while (i > 0 && ((unsigned char)s[i] & 0xc0) == 0x80)
        i--;
    return i;
}

static void store(struct sn_error *err, const char *msg, size_t len)
{
    static const char gap[] = " ... ";
    size_t max = sizeof(err->msg) - 1, head, tail;

    if (len <= max) {
        memcpy(err->msg, msg, len);
        err->msg[len] = '\0';
        return;
    }
    head = char_start(msg, ERROR_HEAD);
    tail = len - (max - head - (sizeof(gap) - 1));
    while (tail < len && ((unsigned char)msg[tail] & 0xc0) == 0x80)
        tail++;
    memcpy(err->msg, msg, head);
    memcpy(err->msg + head, gap, sizeof(gap) - 1);
    memcpy(err->msg + head + sizeof(gap) - 1, msg + tail, len - tail);
    err->msg[head + sizeof(gap) - 1 + len - tail] = '\0';
}

int sn_error_vset(struct sn_error *err, int code, const char *fmt, va_list ap)
{
    struct sn_buf b;

    if (err) {
        /* formatted apart from err->msg: a message may quote the one it
         * replaces */
        sn_buf_init(&b);
        sn_buf_vprintf(&b, fmt, ap);
        err->code = code;
        store(err, b.data, b.len);
        sn_buf_release(&b);
    }
    return code;
}

int sn_error_set(struct sn_error *err, int code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    sn_error_vset(err, code, fmt, ap);
    va_end(ap);
    return code;
}

int sn_error_at(struct sn_error *err, int code, const char *file, int line,
                int col, const char *fmt, ...)
{
    struct sn_buf b;
    va_list ap;

    if (!err)
        return code;
    sn_buf_init(&b);
    if (line > 0 && col > 0)
        sn_buf_printf(&b, "%s:%d:%d: ", file, line, col);
    else if (line > 0)
        sn_buf_printf(&b, "%s:%d: ", file, line);
    else
        sn_buf_printf(&b, "%s: ", file);
    va_start(ap, fmt);
    sn_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    err->code = code;
    store(err, b.data, b.len);
    sn_buf_release(&b);
    return code;
}

void sn_error_prefix(struct sn_error *err, const char *prefix)
{
    struct sn_buf b;

    if (!err)
        return;
    sn_buf_init(&b);
    sn_buf_printf(&b, "%s: %s", prefix, err->msg);
    store(err, b.data, b.len);
    sn_buf_release(&b);
}

void sn_error_clear(struct sn_error *err)
{
    if (err) {
        err->code = SN_OK;
        err->msg[0] = '\0';
    }
}

int sn_exit_code(int code)
{
    switch (code) {
    case SN_OK:
        return 0;
    case SN_ECHECK:
        return 1;
    case SN_EINPUT:
    case SN_ENOTFOUND:
        return 2;
    default:
        return 3;
    }
}

const char *sn_code_name(int code)
{
    switch (code) {
    case SN_OK:
        return "ok";
    case SN_EINPUT:
        return "bad input";
    case SN_ENOTFOUND:
        return "not found";
    case SN_ENOMEM:
        return "out of memory";
    case SN_EIO:
        return "i/o error";
    case SN_ERUNTIME:
        return "runtime failure";
    case SN_ENOTSUP:
        return "not supported";
    case SN_ETIMEOUT:
        return "timed out";
    case SN_ECHECK:
        return "check failed";
    default:
        return "unknown error";
    }
}
