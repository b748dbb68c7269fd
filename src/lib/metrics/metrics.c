/* metrics.c: the metric registry of metrics.h and its two renderers, the
 * Prometheus text format 0.0.4 and OpenMetrics 1.0 (prometheus/docs
 * exposition_formats.md; OpenMetrics.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/metrics.h"
#include "sn/util.h"

struct sn_metrics_sample {
    char *labels; /* rendered and escaped: "" or {a="x",b="y"} */
    double value;
};

struct sn_metrics_family {
    char *name;
    char *help; /* cleaned, not escaped */
    enum sn_metrics_type type;
    struct sn_metrics_sample *samples;
    size_t n_samples, cap_samples;
};

static const struct {
    const char *text;   /* TYPE in 0.0.4 */
    const char *om;     /* TYPE in OpenMetrics */
    const char *suffix; /* the name ends in it; no other type's does */
} types[] = {
    [SN_METRICS_GAUGE] = {"gauge", "gauge", NULL},
    [SN_METRICS_COUNTER] = {"counter", "counter", "_total"},
    [SN_METRICS_INFO] = {"gauge", "info", "_info"},
    [SN_METRICS_UNTYPED] = {"untyped", "unknown", NULL},
};

/* ---- names ------------------------------------------------------------ */

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* [a-zA-Z_:][a-zA-Z0-9_:]* for metrics (colon), [a-zA-Z_][a-zA-Z0-9_]*
 * for labels; "__" is reserved for Prometheus' own use. */
static bool name_ok(const char *s, bool colon)
{
    size_t len = strlen(s);
    if (len == 0 || len >= SN_METRICS_NAME_MAX || sn_startswith(s, "__"))
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  c == '_' || (colon && c == ':') ||
                  (i > 0 && c >= '0' && c <= '9');
        if (!ok)
            return false;
    }
    return true;
}

/* A name refused as it goes into a message: cleaned and cut short, since
 * it may hold anything. */
static const char *shown(char *buf, size_t size, const char *name)
{
    return sn_str_clean(buf, size, name ? name : "", 0);
}

static int check_family_name(const char *name, enum sn_metrics_type type,
                             struct sn_error *err)
{
    char show[80];

    if (!name_ok(name, true))
        return sn_error_set(err, SN_EINPUT,
                            "metric name '%s' is not [a-zA-Z_:]"
                            "[a-zA-Z0-9_:]* (at most %d bytes, no '__' "
                            "prefix)",
                            shown(show, sizeof(show), name),
                            SN_METRICS_NAME_MAX - 1);
    for (size_t t = 0; t < SN_ARRAY_LEN(types); t++) {
        const char *suf = types[t].suffix;
        if (!suf)
            continue;
        if (t == (size_t)type &&
            (!ends_with(name, suf) || strlen(name) == strlen(suf)))
            return sn_error_set(err, SN_EINPUT,
                                "%s '%s' must end in '%s' after a name",
                                types[t].om, name, suf);
        if (t != (size_t)type && ends_with(name, suf))
            return sn_error_set(
                err, SN_EINPUT, "metric '%s' ends in '%s' but is not a%s %s",
                name, suf, t == SN_METRICS_INFO ? "n" : "", types[t].om);
    }
    return SN_OK;
}

/* ---- escaping and values ------------------------------------------------ */

/* Label values escape backslash, double quote and newline; help text in
 * 0.0.4 escapes backslash and newline only; OpenMetrics escapes all
 * three in both. */
static void put_escaped(struct sn_buf *b, const char *s, bool quote)
{
    for (; *s; s++) {
        if (*s == '\\')
            sn_buf_puts(b, "\\\\");
        else if (*s == '\n')
            sn_buf_puts(b, "\\n");
        else if (*s == '"' && quote)
            sn_buf_puts(b, "\\\"");
        else
            sn_buf_putc(b, *s);
    }
}

/* As Prometheus spells them (Go's ParseFloat reads them back): +Inf,
 * -Inf, NaN; otherwise the shortest %g that reads back as the same
 * double. */
static void put_value(struct sn_buf *b, double v)
{
    char text[40];

    if (isnan(v)) {
        sn_buf_puts(b, "NaN");
        return;
    }
    if (isinf(v)) {
        sn_buf_puts(b, v > 0 ? "+Inf" : "-Inf");
        return;
    }
    /* whole numbers as integers (40, not 4e+01), up to 2^53 where every
     * integer is exact; otherwise the shortest form that reads back */
    if (v == floor(v) && fabs(v) <= 9007199254740992.0) {
        snprintf(text, sizeof(text), "%.0f", v);
        sn_buf_puts(b, text);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(text, sizeof(text), "%.*g", prec, v);
        if (strtod(text, NULL) == v)
            break;
    }
    sn_buf_puts(b, text);
}

/* ---- families ----------------------------------------------------------- */

static struct sn_metrics_family *find_family(struct sn_metrics *m,
                                             const char *name)
{
    if (m->last < m->n_families && strcmp(m->families[m->last].name, name) == 0)
        return &m->families[m->last];
    for (size_t i = 0; i < m->n_families; i++) {
        if (strcmp(m->families[i].name, name) == 0) {
            m->last = i;
            return &m->families[i];
        }
    }
    return NULL;
}

int sn_metrics_add_family(struct sn_metrics *m, const char *name,
                          const char *help, enum sn_metrics_type type,
                          struct sn_error *err)
{
    struct sn_metrics_family *f;
    char clean[SN_METRICS_HELP_MAX];
    int rc;

    if (!name)
        name = "";
    if ((size_t)type >= SN_ARRAY_LEN(types))
        return sn_error_set(err, SN_EINPUT, "metric '%s': unknown type %d",
                            name, (int)type);
    rc = check_family_name(name, type, err);
    if (rc)
        return rc;
    f = find_family(m, name);
    if (f && f->type != type)
        return sn_error_set(err, SN_EINPUT,
                            "metric '%s' is registered with type %s already, "
                            "not %s",
                            name, types[f->type].om, types[type].om);
    if (f)
        return SN_OK;
    if (m->n_families >= SN_METRICS_FAMILIES_MAX)
        return sn_error_set(err, SN_ENOMEM,
                            "metric '%s': more than %d metric families", name,
                            SN_METRICS_FAMILIES_MAX);
    SN_GROW(m->families, m->cap_families, m->n_families + 1);
    f = &m->families[m->n_families++];
    memset(f, 0, sizeof(*f));
    f->name = sn_xstrdup(name);
    f->help = sn_xstrdup(
        sn_str_clean(clean, sizeof(clean), help ? help : "", SN_CLEAN_LINES));
    f->type = type;
    return SN_OK;
}

/* ---- the index of series ------------------------------------------------
 * Open addressing, linear probing, at most half full. An entry is
 * (family + 1) << 32 | sample; 0 is empty. */

static uint64_t series_hash(size_t family, const char *labels)
{
    return sn_hash64(labels, strlen(labels), family);
}

static const struct sn_metrics_sample *entry_sample(const struct sn_metrics *m,
                                                    uint64_t e)
{
    return &m->families[(e >> 32) - 1].samples[e & 0xffffffffu];
}

/* The slot of (family, labels): the entry holding it or the empty one
 * where it would go. */
static size_t index_slot(const struct sn_metrics *m, size_t family,
                         const char *labels)
{
    size_t mask = m->index_cap - 1;
    size_t i = series_hash(family, labels) & mask;

    for (;; i = (i + 1) & mask) {
        uint64_t e = m->index[i];
        if (e == 0 || ((e >> 32) - 1 == family &&
                       strcmp(entry_sample(m, e)->labels, labels) == 0))
            return i;
    }
}

static void index_grow(struct sn_metrics *m)
{
    uint64_t *old = m->index;
    size_t old_cap = m->index_cap;

    m->index_cap = old_cap ? old_cap * 2 : 64;
    m->index = sn_xcalloc(m->index_cap, sizeof(*m->index));
    for (size_t i = 0; i < old_cap; i++) {
        uint64_t e = old[i];
        if (e)
            m->index[index_slot(m, (e >> 32) - 1, entry_sample(m, e)->labels)] =
                e;
    }
    free(old);
}

/* ---- samples ------------------------------------------------------------ */

static int cmp_label(const void *a, const void *b)
{
    return strcmp(((const struct sn_metrics_label *)a)->name,
                  ((const struct sn_metrics_label *)b)->name);
}

/* Check the labels and render them sorted into out: "" or {a="x"}. */
static int render_labels(const char *metric,
                         const struct sn_metrics_label *labels, size_t n,
                         struct sn_buf *out, struct sn_error *err)
{
    struct sn_metrics_label sorted[SN_METRICS_LABELS_MAX];
    char clean[SN_METRICS_VALUE_MAX], show[80];

    if (n > SN_METRICS_LABELS_MAX)
        return sn_error_set(err, SN_EINPUT,
                            "metric '%s': %zu labels, at most %d", metric, n,
                            SN_METRICS_LABELS_MAX);
    for (size_t i = 0; i < n; i++) {
        if (!labels[i].name || !name_ok(labels[i].name, false))
            return sn_error_set(err, SN_EINPUT,
                                "metric '%s': label name '%s' is not "
                                "[a-zA-Z_][a-zA-Z0-9_]* (no '__' prefix)",
                                metric,
                                shown(show, sizeof(show), labels[i].name));
        sorted[i] = labels[i];
    }
    if (n > 0)
        qsort(sorted, n, sizeof(sorted[0]), cmp_label);
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && strcmp(sorted[i - 1].name, sorted[i].name) == 0)
            return sn_error_set(err, SN_EINPUT,
                                "metric '%s': label '%s' given twice", metric,
                                sorted[i].name);
        sn_str_clean(clean, sizeof(clean),
                     sorted[i].value ? sorted[i].value : "", SN_CLEAN_LINES);
        sn_buf_puts(out, i == 0 ? "{" : ",");
        sn_buf_printf(out, "%s=\"", sorted[i].name);
        put_escaped(out, clean, true);
        sn_buf_putc(out, '"');
    }
    if (n > 0)
        sn_buf_putc(out, '}');
    return SN_OK;
}

static int check_value(const struct sn_metrics_family *f, double value,
                       struct sn_error *err)
{
    if (f->type == SN_METRICS_COUNTER && (isnan(value) || value < 0))
        return sn_error_set(err, SN_EINPUT,
                            "counter '%s': value %g is not a count (>= 0)",
                            f->name, value);
    if (f->type == SN_METRICS_INFO && value != 1)
        return sn_error_set(err, SN_EINPUT,
                            "info '%s': value %g, an info metric is 1", f->name,
                            value);
    return SN_OK;
}

/* Add a sample with its label set already rendered (labels, which the
 * registry takes: freed here on failure) to family f. */
static int insert(struct sn_metrics *m, struct sn_metrics_family *f,
                  char *labels, double value, struct sn_error *err)
{
    size_t family = (size_t)(f - m->families), max, slot;
    int rc = check_value(f, value, err);
    if (rc)
        goto fail;
    /* an index entry holds a sample's number in 32 bits */
    max = m->series_max ? m->series_max : SN_METRICS_SERIES_MAX;
    if (max > UINT32_MAX)
        max = UINT32_MAX;
    if (m->n_series >= max) {
        rc = sn_error_set(err, SN_ENOMEM,
                          "metric '%s': more than %zu series in the "
                          "registry (a runaway collector?)",
                          f->name, max);
        goto fail;
    }
    if (2 * (m->n_series + 1) > m->index_cap)
        index_grow(m);
    slot = index_slot(m, family, labels);
    if (m->index[slot]) {
        rc = sn_error_set(err, SN_EINPUT, "metric '%s%s' is there already",
                          f->name, labels);
        goto fail;
    }
    SN_GROW(f->samples, f->cap_samples, f->n_samples + 1);
    f->samples[f->n_samples].labels = labels;
    f->samples[f->n_samples].value = value;
    m->index[slot] = (uint64_t)(family + 1) << 32 | f->n_samples;
    f->n_samples++;
    m->n_series++;
    return SN_OK;
fail:
    free(labels);
    return rc;
}

int sn_metrics_add(struct sn_metrics *m, const char *name,
                   const struct sn_metrics_label *labels, size_t n,
                   double value, struct sn_error *err)
{
    struct sn_buf text = SN_BUF_INIT;
    struct sn_metrics_family *f = name ? find_family(m, name) : NULL;
    char show[80];
    int rc;

    if (!f) {
        rc = sn_error_set(err, SN_EINPUT, "metric '%s' is not registered",
                          shown(show, sizeof(show), name));
        sn_buf_release(&text);
        return rc;
    }
    rc = render_labels(name, labels, n, &text, err);
    if (rc) {
        sn_buf_release(&text);
        return rc;
    }
    return insert(m, f, sn_buf_detach(&text, NULL), value, err);
}

/* Keep the first failure of a merge in *first and err. */
static void keep_first(int rc, const struct sn_error *e, int *first,
                       struct sn_error *err)
{
    if (rc && *first == SN_OK) {
        *first = rc;
        if (err)
            *err = *e;
    }
}

int sn_metrics_merge(struct sn_metrics *dst, const struct sn_metrics *src,
                     struct sn_error *err)
{
    int first = SN_OK;
    for (size_t i = 0; i < src->n_families; i++) {
        const struct sn_metrics_family *sf = &src->families[i];
        struct sn_error e = {0};
        int rc = sn_metrics_add_family(dst, sf->name, sf->help, sf->type, &e);
        keep_first(rc, &e, &first, err);
        if (rc)
            continue;
        /* dst's array may have moved: find the family after adding */
        struct sn_metrics_family *df = find_family(dst, sf->name);
        for (size_t j = 0; j < sf->n_samples; j++) {
            rc = insert(dst, df, sn_xstrdup(sf->samples[j].labels),
                        sf->samples[j].value, &e);
            keep_first(rc, &e, &first, err);
        }
    }
    return first;
}

/* ---- rendering ---------------------------------------------------------- */

static void put_samples(struct sn_buf *out, const struct sn_metrics_family *f)
{
    for (size_t i = 0; i < f->n_samples; i++) {
        sn_buf_printf(out, "%s%s ", f->name, f->samples[i].labels);
        put_value(out, f->samples[i].value);
        sn_buf_putc(out, '\n');
    }
}

void sn_metrics_render_text(const struct sn_metrics *m, struct sn_buf *out)
{
    for (size_t i = 0; i < m->n_families; i++) {
        const struct sn_metrics_family *f = &m->families[i];
        sn_buf_printf(out, "# HELP %s ", f->name);
        put_escaped(out, f->help, false);
        sn_buf_printf(out, "\n# TYPE %s %s\n", f->name, types[f->type].text);
        put_samples(out, f);
    }
}

void sn_metrics_render_openmetrics(const struct sn_metrics *m,
                                   struct sn_buf *out)
{
    for (size_t i = 0; i < m->n_families; i++) {
        const struct sn_metrics_family *f = &m->families[i];
        const char *suffix = types[f->type].suffix;
        int len = (int)(strlen(f->name) - (suffix ? strlen(suffix) : 0));
        sn_buf_printf(out, "# TYPE %.*s %s\n", len, f->name, types[f->type].om);
        sn_buf_printf(out, "# HELP %.*s ", len, f->name);
        put_escaped(out, f->help, true);
        sn_buf_putc(out, '\n');
        put_samples(out, f);
    }
    sn_buf_puts(out, "# EOF\n");
}

void sn_metrics_release(struct sn_metrics *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n_families; i++) {
        struct sn_metrics_family *f = &m->families[i];
        for (size_t j = 0; j < f->n_samples; j++)
            free(f->samples[j].labels);
        free(f->samples);
        free(f->name);
        free(f->help);
    }
    free(m->families);
    free(m->index);
    memset(m, 0, sizeof(*m));
}
