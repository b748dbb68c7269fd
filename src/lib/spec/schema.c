/* schema.c: the helpers every spec section is read with: one value of the
 * YAML tree to a checked SI number, enum, flag or name, with the error
 * pointing at the line and column the value came from. Also the arena a
 * parsed spec allocates from. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec-int.h"

void *sn__arena_alloc(struct sn__arena *a, size_t size)
{
    void *p = sn_xcalloc(1, size ? size : 1);

    SN_GROW(a->ptrs, a->cap, a->n + 1);
    a->ptrs[a->n++] = p;
    return p;
}

char *sn__arena_strdup(struct sn__arena *a, const char *s)
{
    size_t n = strlen(s);
    char *p = sn__arena_alloc(a, n + 1);

    memcpy(p, s, n);
    return p;
}

void sn__arena_free(struct sn__arena *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->n; i++)
        free(a->ptrs[i]);
    free(a->ptrs);
    memset(a, 0, sizeof(*a));
}

int sn__fail(struct sn__ctx *c, const struct sn_yaml *n, const char *fmt, ...)
{
    char msg[SN_ERROR_MSG_MAX];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (n && n->line > 0)
        return sn_error_at(c->err, SN_EINPUT, c->file, n->line, n->col, "%s",
                           msg);
    return sn_error_at(c->err, SN_EINPUT, c->file, 0, 0, "%s", msg);
}

int sn__expect_map(struct sn__ctx *c, const struct sn_yaml *n, const char *what)
{
    if (n->type == SN_YAML_MAP)
        return SN_OK;
    return sn__fail(c, n, "%s is %s (expected a mapping of keys)", what,
                    sn_yaml_type_name(n->type));
}

int sn__check_keys(struct sn__ctx *c, const struct sn_yaml *map,
                   const char *what, const char *const *keys)
{
    for (size_t i = 0; i < map->n; i++) {
        const char *k = map->keys[i]->value;
        const char *near;
        bool known = false;
        struct sn_buf list;
        int rc;

        for (size_t j = 0; keys[j] && !known; j++)
            known = strcmp(keys[j], k) == 0;
        if (known)
            continue;
        near = sn_suggest(k, keys);
        if (near)
            return sn__fail(c, map->keys[i],
                            "unknown key '%.64s' in %s (did you mean '%s'?)", k,
                            what, near);
        sn_buf_init(&list);
        for (size_t j = 0; keys[j]; j++)
            sn_buf_printf(&list, "%s%s", j ? ", " : "", keys[j]);
        rc = sn__fail(c, map->keys[i],
                      "unknown key '%.64s' in %s (expected one of: %s)", k,
                      what, list.data);
        sn_buf_release(&list);
        return rc;
    }
    return SN_OK;
}

/* "what.key", or "key" alone for the top level (what = ""). */
static const char *path(char *buf, size_t size, const char *what,
                        const char *key)
{
    if (*what)
        snprintf(buf, size, "%s.%s", what, key);
    else
        snprintf(buf, size, "%s", key);
    return buf;
}

const struct sn_yaml *sn__at(const struct sn_yaml *map, const char *key)
{
    const struct sn_yaml *n = sn_yaml_get(map, key);

    return n ? n : map;
}

const struct sn_yaml *sn__scalar(struct sn__ctx *c, const struct sn_yaml *map,
                                 const char *key, const char *what, int *rc)
{
    const struct sn_yaml *n = sn_yaml_get(map, key);
    char p[160];

    *rc = SN_OK;
    if (!n)
        return NULL;
    if (n->type != SN_YAML_SCALAR) {
        *rc =
            sn__fail(c, n, "%s is %s (expected a single value)",
                     path(p, sizeof(p), what, key), sn_yaml_type_name(n->type));
        return NULL;
    }
    if (!n->quoted && (n->value[0] == '\0' || strcmp(n->value, "~") == 0 ||
                       strcmp(n->value, "null") == 0)) {
        *rc = sn__fail(c, n,
                       "%s has no value (expected a value after the "
                       "colon)",
                       path(p, sizeof(p), what, key));
        return NULL;
    }
    return n;
}

int sn__int_value(struct sn__ctx *c, const struct sn_yaml *n, const char *what,
                  long long min, long long max, long long *out)
{
    struct sn_error e;
    double v;

    if (n->type != SN_YAML_SCALAR)
        return sn__fail(c, n, "%s is %s (expected a whole number)", what,
                        sn_yaml_type_name(n->type));
    if (sn_unit_parse(n->value, SN_UNIT_COUNT, true, &v, &e))
        return sn__fail(c, n, "%s: %s", what, e.msg);
    if (v != floor(v))
        return sn__fail(c, n, "%s: '%.64s' is not a whole number", what,
                        n->value);
    if (v < (double)min || v > (double)max)
        return sn__fail(c, n,
                        "%s: %.64s is out of range (expected a whole number "
                        "from %lld to %lld)",
                        what, n->value, min, max);
    *out = (long long)v;
    return SN_OK;
}

int sn__get_int(struct sn__ctx *c, const struct sn_yaml *map, const char *key,
                const char *what, long long min, long long max, int *out)
{
    char p[160];
    int rc;
    long long v;
    const struct sn_yaml *n = sn__scalar(c, map, key, what, &rc);

    if (!n)
        return rc;
    rc = sn__int_value(c, n, path(p, sizeof(p), what, key), min, max, &v);
    if (rc == SN_OK)
        *out = (int)v;
    return rc;
}

int sn__get_qty(struct sn__ctx *c, const struct sn_yaml *map, const char *key,
                const char *what, enum sn_unit_kind kind, double min,
                double max, double *out)
{
    char p[160];
    struct sn_error e;
    double v;
    int rc;
    const struct sn_yaml *n = sn__scalar(c, map, key, what, &rc);

    if (!n)
        return rc;
    if (sn_unit_parse(n->value, kind, false, &v, &e))
        return sn__fail(c, n, "%s: %s", path(p, sizeof(p), what, key), e.msg);
    if (!(v >= min && v <= max)) {
        char lo[48], hi[48];
        if (kind == SN_UNIT_COUNT || kind == SN_UNIT_RATIO) {
            sn_fmt_double(min, 6, lo, sizeof(lo));
            sn_fmt_double(max, 6, hi, sizeof(hi));
        } else {
            sn_unit_format(min, kind, lo, sizeof(lo));
            sn_unit_format(max, kind, hi, sizeof(hi));
        }
        return sn__fail(c, n,
                        "%s: %.64s is out of range (expected %s "
                        "from %s to %s)",
                        path(p, sizeof(p), what, key), n->value,
                        sn_unit_kind_name(kind), lo, hi);
    }
    *out = v;
    return SN_OK;
}

int sn__get_bool(struct sn__ctx *c, const struct sn_yaml *map, const char *key,
                 const char *what, bool *out)
{
    char p[160];
    static const char *const yes[] = {"true", "yes", "on", NULL};
    static const char *const no[] = {"false", "no", "off", NULL};
    int rc;
    const struct sn_yaml *n = sn__scalar(c, map, key, what, &rc);

    if (!n)
        return rc;
    for (size_t i = 0; yes[i]; i++) {
        if (sn_strcaseeq(n->value, yes[i])) {
            *out = true;
            return SN_OK;
        }
        if (sn_strcaseeq(n->value, no[i])) {
            *out = false;
            return SN_OK;
        }
    }
    return sn__fail(c, n, "%s: '%.64s' is not true or false",
                    path(p, sizeof(p), what, key), n->value);
}

int sn__get_enum(struct sn__ctx *c, const struct sn_yaml *map, const char *key,
                 const char *what, const char *const *names, int *out)
{
    char p[160];
    int rc;
    const struct sn_yaml *n = sn__scalar(c, map, key, what, &rc);
    const char *near;
    struct sn_buf list;

    if (!n)
        return rc;
    for (int i = 0; names[i]; i++) {
        if (sn_strcaseeq(n->value, names[i])) {
            *out = i;
            return SN_OK;
        }
    }
    near = sn_suggest(n->value, names);
    if (near)
        return sn__fail(c, n, "unknown %s '%.64s' (did you mean '%s'?)",
                        path(p, sizeof(p), what, key), n->value, near);
    sn_buf_init(&list);
    for (int i = 0; names[i]; i++)
        sn_buf_printf(&list, "%s%s", i ? ", " : "", names[i]);
    rc = sn__fail(c, n, "unknown %s '%.64s' (expected one of: %s)",
                  path(p, sizeof(p), what, key), n->value, list.data);
    sn_buf_release(&list);
    return rc;
}

int sn__get_text(struct sn__ctx *c, const struct sn_yaml *map, const char *key,
                 const char *what, size_t max, const char **out)
{
    char p[160];
    int rc;
    const struct sn_yaml *n = sn__scalar(c, map, key, what, &rc);

    if (!n)
        return rc;
    if (strlen(n->value) > max)
        return sn__fail(c, n, "%s is longer than %zu characters",
                        path(p, sizeof(p), what, key), max);
    *out = sn__arena_strdup(c->arena, n->value);
    return SN_OK;
}

int sn__get_name(struct sn__ctx *c, const struct sn_yaml *map, const char *key,
                 const char *what, const char **out)
{
    char p[160];
    int rc;
    const struct sn_yaml *n = sn__scalar(c, map, key, what, &rc);
    const char *q;

    if (!n)
        return rc;
    if (strlen(n->value) > SN_SPEC_MAX_NAME)
        return sn__fail(c, n, "%s is longer than %d characters",
                        path(p, sizeof(p), what, key), SN_SPEC_MAX_NAME);
    for (q = n->value; *q; q++) {
        unsigned char ch = (unsigned char)*q;
        if (!(islower(ch) || isdigit(ch) || ch == '-' || ch == '_' ||
              ch == '.'))
            return sn__fail(c, n,
                            "%s '%.64s' has the character '%c' (expected "
                            "lowercase letters, digits, '-', '_' or '.')",
                            path(p, sizeof(p), what, key), n->value,
                            isprint(ch) ? (char)ch : '?');
    }
    *out = sn__arena_strdup(c->arena, n->value);
    return SN_OK;
}
