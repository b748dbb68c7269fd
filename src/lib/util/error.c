/* error.c: struct sn_error, the library's one way of saying what went wrong,
 * and the mapping from library codes to the CLI's exit statuses. */
#include <stdio.h>
#include <string.h>

#include "sn/util.h"

int sn_error_vset(struct sn_error *err, int code, const char *fmt, va_list ap)
{
    if (err) {
        err->code = code;
        vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
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
    va_list ap;
    int n;

    if (!err)
        return code;
    err->code = code;
    if (line > 0 && col > 0)
        n = snprintf(err->msg, sizeof(err->msg), "%s:%d:%d: ", file, line,
                     col);
    else if (line > 0)
        n = snprintf(err->msg, sizeof(err->msg), "%s:%d: ", file, line);
    else
        n = snprintf(err->msg, sizeof(err->msg), "%s: ", file);
    if (n < 0 || (size_t)n >= sizeof(err->msg))
        return code;
    va_start(ap, fmt);
    vsnprintf(err->msg + n, sizeof(err->msg) - (size_t)n, fmt, ap);
    va_end(ap);
    return code;
}

void sn_error_prefix(struct sn_error *err, const char *prefix)
{
    size_t pl, ml;

    if (!err)
        return;
    pl = strlen(prefix);
    if (pl + 3 >= sizeof(err->msg))
        return;
    ml = strnlen(err->msg, sizeof(err->msg) - 1);
    if (ml > sizeof(err->msg) - pl - 3)
        ml = sizeof(err->msg) - pl - 3; /* the tail is cut, not overrun */
    memmove(err->msg + pl + 2, err->msg, ml);
    memcpy(err->msg, prefix, pl);
    err->msg[pl] = ':';
    err->msg[pl + 1] = ' ';
    err->msg[pl + 2 + ml] = '\0';
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
