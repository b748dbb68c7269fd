/* validate-classes.c (model): the classes a validation row falls in
 * (architecture or model size, GPU generation, software stack or
 * runtime, host CPU), each class's error statistics, and the bands: the
 * spread of measured / predicted over a class's rows, left out one
 * source at a time for the rows of validate and whole for the table
 * compiled into the predictors (bands.c). docs/model.md, "Classes and
 * bands", states every rule. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate-int.h"

const char *sn_validate_arch_class(bool serving, bool moe, double active)
{
    if (serving)
        return active > 0 && active < SN_VALIDATE_SMALL_ACTIVE ? "small"
                                                               : "large";
    return moe ? "moe" : "dense";
}

/* The GPU generation of a catalog accelerator, by its name: the
 * generations differ in tensor-core rates, FP8/FP4 support and the
 * scale-up fabric, which the model's errors follow. */
const char *sn_validate_gen_class(const char *accel)
{
    static const struct {
        const char *key, *gen;
    } gens[] = {
        {"a100", "ampere"},  {"a800", "ampere"},    {"h100", "hopper"},
        {"h200", "hopper"},  {"h800", "hopper"},    {"h20", "hopper"},
        {"gh200", "hopper"}, {"b200", "blackwell"}, {"b300", "blackwell"},
        {"mi300", "cdna3"},  {"mi325", "cdna3"},    {"mi355", "cdna4"},
        {"gaudi", "gaudi"},  {"ascend", "ascend"},  {"910", "ascend"},
        {"tpu", "tpu"},
    };
    char low[64];

    sn__validate_lower(accel, low, sizeof(low));
    for (size_t i = 0; i < SN_ARRAY_LEN(gens); i++)
        if (strstr(low, gens[i].key))
            return gens[i].gen;
    return "other";
}

/* Grace hosts come with the superchips (GB200, GB300, GH200: one Grace
 * CPU for two or four GPUs); every other built-in system is an x86
 * server. */
const char *sn_validate_host_class(const char *accel)
{
    char low[64];

    sn__validate_lower(accel, low, sizeof(low));
    return strstr(low, "gb200") || strstr(low, "gb300") || strstr(low, "gh200")
               ? "grace"
               : "x86";
}

/* The stack as the row's texts name it: other_parallel first (it says
 * how this row ran: "ZeRO-3 (DeepSpeed)" in a Megatron-LM paper's
 * table), then the source cell, then the notes; in each, the first
 * match of the list wins, so a more specific name comes before its
 * family. */
const char *sn_validate_stack_class(bool serving, const char *source,
                                    const char *parallel, const char *notes)
{
    static const struct {
        const char *key, *stack;
    } train[] =
        {
            {"megatron-deepspeed", "megatron-deepspeed"},
            {"deepspeed", "deepspeed"},
            {"torchtitan", "torchtitan"},
            {"mindspeed", "mindspeed"},
            {"megatron-bridge", "megatron-bridge"},
            {"nemo", "megatron-bridge"},
            {"megatron-core", "megatron-core"},
            {"megatron-moe", "megatron-core"},
            {"megatron", "megatron-lm"},
            /* Korthikanti et al. 2022 implemented selective recompute and
             * sequence parallelism in Megatron-LM (the paper's section 6) */
            {"reducing activation recomputation", "megatron-lm"},
        },
      infer[] = {
          {"mlperf", "mlperf"},       {"tensorrt-llm", "tensorrt-llm"},
          {"trtllm", "tensorrt-llm"}, {"sglang", "sglang"},
          {"vllm", "vllm"},
      };
    const char *texts[] = {parallel, source, notes};
    char low[1024];

    for (size_t t = 0; t < SN_ARRAY_LEN(texts); t++) {
        sn__validate_lower(texts[t], low, sizeof(low));
        if (serving) {
            for (size_t i = 0; i < SN_ARRAY_LEN(infer); i++)
                if (strstr(low, infer[i].key))
                    return infer[i].stack;
            continue;
        }
        for (size_t i = 0; i < SN_ARRAY_LEN(train); i++)
            if (strstr(low, train[i].key))
                return train[i].stack;
    }
    return "unknown";
}

const char *sn_validate_class_label(const char *name)
{
    static const struct {
        const char *name, *label;
    } labels[] = {
        {"dense", "dense"},
        {"moe", "MoE"},
        {"small", "small"},
        {"large", "large"},
        {"ampere", "Ampere"},
        {"hopper", "Hopper"},
        {"blackwell", "Blackwell"},
        {"cdna3", "CDNA 3"},
        {"cdna4", "CDNA 4"},
        {"gaudi", "Gaudi"},
        {"ascend", "Ascend"},
        {"tpu", "TPU"},
        {"grace", "Grace"},
        {"x86", "x86"},
        {"megatron-deepspeed", "Megatron-DeepSpeed"},
        {"deepspeed", "DeepSpeed"},
        {"torchtitan", "torchtitan"},
        {"mindspeed", "MindSpeed"},
        {"megatron-bridge", "Megatron-Bridge/NeMo"},
        {"megatron-core", "Megatron-Core"},
        {"megatron-lm", "Megatron-LM"},
        {"mlperf", "MLPerf"},
        {"tensorrt-llm", "TensorRT-LLM"},
        {"sglang", "SGLang"},
        {"vllm", "vLLM"},
        {"train", "all training"},
        {"infer", "all serving"},
    };

    for (size_t i = 0; name && i < SN_ARRAY_LEN(labels); i++)
        if (!strcmp(labels[i].name, name))
            return labels[i].label;
    return name ? name : "-";
}

/* The source as leave-one-source-out leaves it out: the cell's first
 * three words before any comma or parenthesis ("Narayanan et al.
 * SC'21", "NVIDIA Megatron-Bridge docs/performance-summary.md", "LMSYS
 * SGLang blog"), so that the tables of one paper and the containers of
 * one summary count as one source. */
static void source_key(const char *s, char *out, size_t size)
{
    size_t k = 0;
    int words = 0;

    while (s && isspace((unsigned char)*s))
        s++;
    for (; s && *s && *s != ',' && *s != '(' && k + 1 < size; s++) {
        if (*s == ' ' && ++words == 3)
            break;
        out[k++] = *s;
    }
    while (k > 0 && out[k - 1] == ' ')
        k--;
    out[k] = '\0';
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* The p-quantile of sorted v[0..n) by linear interpolation between
 * order statistics (Hyndman and Fan's type 7, numpy's default). */
static double quantile(const double *v, size_t n, double p)
{
    double h, lo;

    if (!n)
        return NAN;
    h = (double)(n - 1) * p;
    lo = floor(h);
    if ((size_t)lo + 1 >= n)
        return v[n - 1];
    return v[(size_t)lo] + (h - lo) * (v[(size_t)lo + 1] - v[(size_t)lo]);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Distinct source keys among the rows, by sorting: O(n log n). */
static size_t count_sources(const struct sn_validate_row *const *rows, size_t n)
{
    const char **keys = sn_xcalloc(n ? n : 1, sizeof(*keys));
    size_t k = 0;

    for (size_t i = 0; i < n; i++)
        keys[i] = rows[i]->source_key;
    qsort(keys, n, sizeof(*keys), cmp_str);
    for (size_t i = 0; i < n; i++)
        k += !i || strcmp(keys[i], keys[i - 1]);
    free(keys);
    return k;
}

void sn_validate_stats_of(const struct sn_validate_row *const *rows, size_t n,
                          struct sn_validate_stats *st)
{
    double *abs = sn_xcalloc(n ? n : 1, sizeof(double));
    const struct sn_validate_row **ok = sn_xcalloc(n ? n : 1, sizeof(*ok));
    size_t k = 0, opt = 0;
    double sum = 0;

    memset(st, 0, sizeof(*st));
    for (size_t i = 0; i < n; i++) {
        if (!rows[i]->predicted_ok)
            continue;
        ok[k] = rows[i];
        abs[k++] = fabs(rows[i]->error_pct);
        sum += rows[i]->signed_pct;
        opt += rows[i]->signed_pct > 0;
    }
    qsort(abs, k, sizeof(double), cmp_double);
    st->n = k;
    st->sources = count_sources(ok, k);
    st->median_abs_pct = quantile(abs, k, 0.5);
    st->p90_abs_pct = quantile(abs, k, 0.9);
    st->signed_mean_pct = k ? sum / k : NAN;
    st->optimistic_share = k ? (double)opt / k : NAN;
    free(abs);
    free(ok);
}

/* The band classes of a row, most specific first: kind/arch/gen,
 * kind/arch, kind. */
static void band_keys(const struct sn_validate_row *r, char keys[3][48])
{
    const char *kind = r->infer ? "infer" : "train";

    snprintf(keys[0], 48, "%s/%s/%s", kind, r->cls[SN_VDIM_ARCH],
             r->cls[SN_VDIM_GEN]);
    snprintf(keys[1], 48, "%s/%s", kind, r->cls[SN_VDIM_ARCH]);
    snprintf(keys[2], 48, "%s", kind);
}

/* A class key as a label: "train/moe/blackwell" -> "MoE Blackwell",
 * "train" -> "all training". */
static void key_label(const char *key, char *out, size_t size)
{
    char part[48];
    const char *p = strchr(key, '/');
    size_t n = 0;

    if (!p) {
        snprintf(out, size, "%s", sn_validate_class_label(key));
        return;
    }
    out[0] = '\0';
    for (p++; *p;) {
        size_t w = strcspn(p, "/");
        snprintf(part, sizeof(part), "%.*s", (int)w, p);
        n = strlen(out);
        snprintf(out + n, size - n, "%s%s", n ? " " : "",
                 sn_validate_class_label(part));
        p += w + (p[w] == '/');
    }
}

/* One band class's members sorted by ratio, with their source ids. */
struct member {
    double ratio;
    int src;
    size_t pos;
};

static int cmp_member(const void *a, const void *b)
{
    const struct member *x = a, *y = b;

    if (x->ratio != y->ratio)
        return x->ratio < y->ratio ? -1 : 1;
    return (x->src > y->src) - (x->src < y->src);
}

static int cmp_by_src(const void *a, const void *b)
{
    const struct member *x = a, *y = b;

    if (x->src != y->src)
        return (x->src > y->src) - (x->src < y->src);
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* The r-th (0-based) of the sorted values with the positions pos[0..k)
 * (ascending) taken out: the smallest j with j + 1 - #{pos <= j} = r + 1,
 * by bisection, so a source's band costs O(log^2 n), not a pass. */
static double kth_rest(const struct member *m, size_t n, const size_t *pos,
                       size_t k, size_t r)
{
    size_t lo = 0, hi = n - 1;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2, a = 0, b = k;
        while (a < b) { /* #{pos <= mid} */
            size_t c = a + (b - a) / 2;
            if (pos[c] <= mid)
                a = c + 1;
            else
                b = c;
        }
        if (mid + 1 - a >= r + 1)
            hi = mid;
        else
            lo = mid + 1;
    }
    return m[lo].ratio;
}

static double quantile_rest(const struct member *m, size_t n, const size_t *pos,
                            size_t k, double p)
{
    size_t rest = n - k;
    double h = (double)(rest - 1) * p, lo = floor(h), a, b;

    a = kth_rest(m, n, pos, k, (size_t)lo);
    if ((size_t)lo + 1 >= rest)
        return a;
    b = kth_rest(m, n, pos, k, (size_t)lo + 1);
    return a + (h - lo) * (b - a);
}

/* Distinct source ids of the rows: by sorting the keys once. */
struct keyed {
    const char *key;
    size_t i;
};

static int cmp_keyed(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);

    return c ? c : (x->i > y->i) - (x->i < y->i);
}

static int *ids_of(struct sn_validate_row *const *rows, size_t n,
                   bool by_source, int level, int *nids)
{
    struct keyed *k = sn_xcalloc(n ? n : 1, sizeof(*k));
    int *id = sn_xcalloc(n ? n : 1, sizeof(int)), next = -1;
    char(*keys)[48] = sn_xcalloc(n ? n : 1, sizeof(*keys));

    for (size_t i = 0; i < n; i++) {
        char b[3][48];
        if (by_source) {
            k[i].key = rows[i]->source_key;
        } else {
            band_keys(rows[i], b);
            memcpy(keys[i], b[level], 48);
            k[i].key = keys[i];
        }
        k[i].i = i;
    }
    qsort(k, n, sizeof(*k), cmp_keyed);
    for (size_t i = 0; i < n; i++) {
        if (!i || strcmp(k[i].key, k[i - 1].key))
            next++;
        id[k[i].i] = next;
    }
    *nids = next + 1;
    free(keys);
    free(k);
    return id;
}

/* Each predicted row's band at one level from the other sources' rows
 * of its class at that level, where it has enough of them and the row
 * has none yet. */
static void loso_level(struct sn_validate_row *const *rows, size_t n,
                       const int *src, int level)
{
    int ncls, *cls = ids_of(rows, n, false, level, &ncls);
    struct member *m = sn_xcalloc(n ? n : 1, sizeof(*m));
    struct member *bysrc = sn_xcalloc(n ? n : 1, sizeof(*m));
    size_t *pos = sn_xcalloc(n ? n : 1, sizeof(size_t));
    size_t *idx = sn_xcalloc(n ? n : 1, sizeof(size_t));

    for (int c = 0; c < ncls; c++) {
        size_t k = 0, nsrc = 0;
        char keys[3][48];
        for (size_t i = 0; i < n; i++)
            if (cls[i] == c)
                m[k++] = (struct member){rows[i]->ratio, src[i], i};
        qsort(m, k, sizeof(*m), cmp_member);
        for (size_t j = 0; j < k; j++) {
            bysrc[j] = m[j];
            bysrc[j].pos = j; /* position in the sorted class */
        }
        qsort(bysrc, k, sizeof(*bysrc), cmp_by_src);
        for (size_t j = 0; j < k; j++)
            nsrc += !j || bysrc[j].src != bysrc[j - 1].src;
        for (size_t lo = 0; lo < k;) {
            size_t hi = lo, own = 0;
            for (; hi < k && bysrc[hi].src == bysrc[lo].src; hi++)
                pos[own++] = bysrc[hi].pos;
            if (k - own >= SN_BAND_MIN_ROWS &&
                nsrc - 1 >= SN_BAND_MIN_SOURCES) {
                double p10 = quantile_rest(m, k, pos, own, 0.1);
                double p50 = quantile_rest(m, k, pos, own, 0.5);
                double p90 = quantile_rest(m, k, pos, own, 0.9);
                for (size_t j = lo; j < hi; j++) {
                    struct sn_validate_row *r = rows[m[bysrc[j].pos].pos];
                    if (r->band_ok)
                        continue;
                    band_keys(r, keys);
                    r->band_ok = true;
                    snprintf(r->band.cls, sizeof(r->band.cls), "%.47s",
                             keys[level]);
                    key_label(keys[level], r->band.label,
                              sizeof(r->band.label));
                    key_label(keys[0], r->band.wanted, sizeof(r->band.wanted));
                    r->band.fallback = level > 0;
                    r->band.rows = (int)(k - own);
                    r->band.sources = (int)(nsrc - 1);
                    r->band.p10 = p10;
                    r->band.p50 = p50;
                    r->band.p90 = p90;
                }
            }
            lo = hi;
        }
        (void)idx;
    }
    free(idx);
    free(pos);
    free(bysrc);
    free(m);
    free(cls);
}

/* The rows and sources the most specific class of each row has from
 * other sources (before any fallback): the class's counts less the
 * row's own source's, from the rows sorted by (class, source). */
struct pair {
    int cls, src;
    size_t i;
};

static int cmp_pair(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;

    if (x->cls != y->cls)
        return (x->cls > y->cls) - (x->cls < y->cls);
    if (x->src != y->src)
        return (x->src > y->src) - (x->src < y->src);
    return (x->i > y->i) - (x->i < y->i);
}

static void wanted_counts(struct sn_validate_row *const *rows, size_t n,
                          const int *src)
{
    int ncls, *cls = ids_of(rows, n, false, 0, &ncls);
    struct pair *p = sn_xcalloc(n ? n : 1, sizeof(*p));
    size_t *rows_in = sn_xcalloc((size_t)ncls + 1, sizeof(size_t));
    size_t *srcs_in = sn_xcalloc((size_t)ncls + 1, sizeof(size_t));

    for (size_t i = 0; i < n; i++)
        p[i] = (struct pair){cls[i], src[i], i};
    qsort(p, n, sizeof(*p), cmp_pair);
    for (size_t j = 0; j < n; j++) {
        rows_in[p[j].cls]++;
        srcs_in[p[j].cls] +=
            !j || p[j].cls != p[j - 1].cls || p[j].src != p[j - 1].src;
    }
    for (size_t lo = 0; lo < n;) {
        size_t hi = lo;
        while (hi < n && p[hi].cls == p[lo].cls && p[hi].src == p[lo].src)
            hi++;
        for (size_t j = lo; j < hi; j++) {
            struct sn_validate_row *r = rows[p[j].i];
            r->band.wanted_rows = (int)(rows_in[p[j].cls] - (hi - lo));
            r->band.wanted_sources = (int)(srcs_in[p[j].cls] - 1);
        }
        lo = hi;
    }
    free(srcs_in);
    free(rows_in);
    free(p);
    free(cls);
}

/* The dimension's name for the kind of rows. */
static const char *dim_name(enum sn_validate_dim d, bool serving)
{
    static const char *const train[] = {"arch", "generation", "software",
                                        "host"};
    static const char *const infer[] = {"size", "generation", "runtime",
                                        "host"};

    return serving ? infer[d] : train[d];
}

void sn_validate_classify(struct sn_validate_row *const *rows, size_t n,
                          struct sn_validate_class **out, size_t *nout)
{
    struct sn_validate_class *cls = NULL;
    size_t ncls = 0, cap = 0, nok = 0;
    struct sn_validate_row **ok = sn_xcalloc(n ? n : 1, sizeof(*ok));
    const struct sn_validate_row **members =
        sn_xcalloc(n ? n : 1, sizeof(*members));
    int nsrc, *src;

    for (size_t i = 0; i < n; i++) {
        struct sn_validate_row *r = rows[i];
        bool serving = r->infer;
        source_key(r->source, r->source_key, sizeof(r->source_key));
        r->cls[SN_VDIM_ARCH] =
            sn_validate_arch_class(serving, r->moe, r->active_params);
        r->cls[SN_VDIM_GEN] = sn_validate_gen_class(r->accel);
        r->cls[SN_VDIM_STACK] =
            sn_validate_stack_class(serving, r->source, r->parallel, r->notes);
        r->cls[SN_VDIM_HOST] = sn_validate_host_class(r->accel);
        r->band_ok = false;
        r->in_band = false;
        memset(&r->band, 0, sizeof(r->band));
        if (!r->predicted_ok)
            continue;
        r->signed_pct = r->lower_better ? -r->error_pct : r->error_pct;
        r->ratio = r->lower_better ? r->predicted / r->measured
                                   : r->measured / r->predicted;
        ok[nok++] = r;
    }

    /* classes: by dimension, in the order they first appear */
    for (int d = 0; d < SN_VDIM_COUNT; d++) {
        for (size_t i = 0; i < nok; i++) {
            bool seen = false;
            for (size_t c = 0; c < ncls && !seen; c++)
                seen = cls[c].dim == (enum sn_validate_dim)d &&
                       !strcmp(cls[c].dim_name, dim_name(d, ok[i]->infer)) &&
                       !strcmp(cls[c].name, ok[i]->cls[d]);
            if (seen)
                continue;
            SN_GROW(cls, cap, ncls + 1);
            memset(&cls[ncls], 0, sizeof(*cls));
            cls[ncls].dim = (enum sn_validate_dim)d;
            cls[ncls].dim_name = dim_name(d, ok[i]->infer);
            cls[ncls].name = ok[i]->cls[d];
            ncls++;
        }
    }
    for (size_t c = 0; c < ncls; c++) {
        size_t k = 0;
        for (size_t i = 0; i < nok; i++)
            if (!strcmp(ok[i]->cls[cls[c].dim], cls[c].name) &&
                !strcmp(dim_name(cls[c].dim, ok[i]->infer), cls[c].dim_name))
                members[k++] = ok[i];
        sn_validate_stats_of(members, k, &cls[c].st);
    }

    /* leave-one-source-out bands, the most specific level first */
    src = ids_of(ok, nok, true, 0, &nsrc);
    for (int level = 0; level < 3; level++)
        loso_level(ok, nok, src, level);
    wanted_counts(ok, nok, src);
    for (size_t i = 0; i < nok; i++) {
        struct sn_validate_row *r = ok[i];
        if (r->band_ok)
            r->in_band = r->ratio >= r->band.p10 - 1e-12 &&
                         r->ratio <= r->band.p90 + 1e-12;
    }
    free(src);
    free(members);
    free(ok);
    *out = cls;
    *nout = ncls;
}

/* Band table rows: every class key at every level, sorted by key. */
struct bandrow {
    char key[48];
    size_t rows, sources;
    double p10, p50, p90;
};

static int cmp_bandrow(const void *a, const void *b)
{
    return strcmp(((const struct bandrow *)a)->key,
                  ((const struct bandrow *)b)->key);
}

void sn_validate_bands_c(struct sn_validate_row *const *rows, size_t n,
                         struct sn_buf *out)
{
    struct bandrow *t = sn_xcalloc(3 * (n ? n : 1), sizeof(*t));
    const struct sn_validate_row **members =
        sn_xcalloc(n ? n : 1, sizeof(*members));
    double *v = sn_xcalloc(n ? n : 1, sizeof(double));
    size_t nt = 0;
    char label[64];

    for (size_t i = 0; i < n; i++) {
        char keys[3][48];
        if (!rows[i]->predicted_ok)
            continue;
        band_keys(rows[i], keys);
        for (int l = 0; l < 3; l++) {
            bool seen = false;
            for (size_t j = 0; j < nt && !seen; j++)
                seen = !strcmp(t[j].key, keys[l]);
            if (!seen)
                snprintf(t[nt++].key, 48, "%.47s", keys[l]);
        }
    }
    qsort(t, nt, sizeof(*t), cmp_bandrow);
    for (size_t j = 0; j < nt; j++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            char keys[3][48];
            if (!rows[i]->predicted_ok)
                continue;
            band_keys(rows[i], keys);
            if (!strcmp(keys[0], t[j].key) || !strcmp(keys[1], t[j].key) ||
                !strcmp(keys[2], t[j].key)) {
                members[k] = rows[i];
                v[k++] = rows[i]->ratio;
            }
        }
        qsort(v, k, sizeof(double), cmp_double);
        t[j].rows = k;
        t[j].sources = count_sources(members, k);
        t[j].p10 = quantile(v, k, 0.1);
        t[j].p50 = quantile(v, k, 0.5);
        t[j].p90 = quantile(v, k, 0.9);
    }
    sn_buf_printf(
        out,
        "/* bands.c (model): GENERATED by `supernode validate --bands` from\n"
        " * the public validation files; do not edit. After any change to\n"
        " * the model or the files, regenerate it (the CLI case\n"
        " * validate-bands fails until then):\n"
        " *   supernode validate --bands tests/fixtures/validation/{training,\n"
        " *     moe-training,inference}-public.csv -o src/lib/model/bands.c\n"
        " * Per class: rows, sources and P10, P50, P90 of measured /\n"
        " * predicted (throughput sense). */\n"
        "/* clang-format off */\n"
        "#include \"sn/validate.h\"\n\n"
        "const struct sn_band sn_bands[] = {\n");
    for (size_t j = 0; j < nt; j++) {
        key_label(t[j].key, label, sizeof(label));
        sn_buf_printf(out,
                      "    {\"%s\", \"%s\", %zu, %zu, %.4f, %.4f, %.4f},\n",
                      t[j].key, label, t[j].rows, t[j].sources, t[j].p10,
                      t[j].p50, t[j].p90);
    }
    if (!nt)
        sn_buf_printf(out,
                      "    {\"train\", \"all training\", 0, 0, 1, 1, 1},\n");
    sn_buf_printf(out, "};\n\nconst size_t sn_nbands = "
                       "sizeof(sn_bands) / sizeof(sn_bands[0]);\n");
    free(v);
    free(members);
    free(t);
}

bool sn_band_lookup(const char *kind, const char *arch, const char *gen,
                    struct sn_band_pick *out)
{
    char keys[3][48];

    memset(out, 0, sizeof(*out));
    snprintf(keys[0], 48, "%s/%s/%s", kind, arch, gen);
    snprintf(keys[1], 48, "%s/%s", kind, arch);
    snprintf(keys[2], 48, "%s", kind);
    key_label(keys[0], out->wanted, sizeof(out->wanted));
    for (int l = 0; l < 3; l++) {
        for (size_t i = 0; i < sn_nbands; i++) {
            const struct sn_band *b = &sn_bands[i];
            if (strcmp(b->cls, keys[l]))
                continue;
            if (!l) {
                out->wanted_rows = b->rows;
                out->wanted_sources = b->sources;
            }
            if (b->rows < SN_BAND_MIN_ROWS || b->sources < SN_BAND_MIN_SOURCES)
                break;
            snprintf(out->cls, sizeof(out->cls), "%s", b->cls);
            snprintf(out->label, sizeof(out->label), "%s", b->label);
            out->rows = b->rows;
            out->sources = b->sources;
            out->p10 = b->p10;
            out->p50 = b->p50;
            out->p90 = b->p90;
            out->fallback = l > 0;
            return true;
        }
    }
    return false;
}

bool sn_train_band(const struct sn_model_info *m, const char *accel,
                   struct sn_band_pick *out)
{
    return sn_band_lookup("train",
                          sn_validate_arch_class(false, m->experts > 1, 0),
                          sn_validate_gen_class(accel), out);
}

bool sn_infer_band(const struct sn_model_info *m, const char *accel,
                   struct sn_band_pick *out)
{
    double active = 0;

    sn_train_params(m, &active);
    if (m->active_params > 0)
        active = m->active_params;
    return sn_band_lookup("infer", sn_validate_arch_class(true, false, active),
                          sn_validate_gen_class(accel), out);
}

/* The known gaps (docs/model.md, "Known gaps of the training and serving
 * models"), in the order of their bits. */
const struct sn_gap sn_gaps[] = {
    {"T1", "no software given: the best recipe's stack (Megatron-Core's "
           "overlaps, DeepEP-style dispatch, partial CUDA graphs) assumed"},
    {"T2", "host time counts launches, TransformerEngine's module work and "
           "the dropless sync at measured costs, not each recipe's own CUDA "
           "graph scope, thread binding or the host's work after a sync"},
    {"T3", "one GEMM efficiency for every shape: grouped expert GEMMs at "
           "few tokens per expert run as large ones"},
    {"T4", "EP all-to-all as ideal NCCL traffic, not as DeepEP or NCCL "
           "implement it"},
    {"I1", "host time per decode step from TensorRT-LLM's figures (vLLM's "
           "and SGLang's not sourced apart)"},
    {"I2", "TTFT on an idle replica: no queueing (give --rate or "
           "--concurrency)"},
    {"I3", "small-active MoE prefill at the dense GEMM rate"},
    {"C1", "GB200/GB300 NVL72: NVLS over more than 8 GPUs above the "
           "measured busbw"},
    {"C2", "MI300X full mesh: RCCL's direct all-reduce below 16 MB not "
           "modelled"},
    {"C3", "Ascend 910B HCCS link share not sourced"},
};
const size_t sn_ngaps = SN_ARRAY_LEN(sn_gaps);

enum {
    GAP_T1 = 1u << 0,
    GAP_T2 = 1u << 1,
    GAP_T3 = 1u << 2,
    GAP_T4 = 1u << 3,
    GAP_I1 = 1u << 4,
    GAP_I2 = 1u << 5,
    GAP_I3 = 1u << 6,
    GAP_C1 = 1u << 7,
    GAP_C2 = 1u << 8,
    GAP_C3 = 1u << 9,
};

/* The collective gaps a group of `group` accelerators meets. */
static unsigned coll_gaps(const char *accel, int group)
{
    char low[64];
    unsigned g = 0;

    sn__validate_lower(accel, low, sizeof(low));
    if ((strstr(low, "gb200") || strstr(low, "gb300")) && group > 8)
        g |= GAP_C1;
    if (strstr(low, "mi300") && group > 1)
        g |= GAP_C2;
    if (strstr(low, "910b") && group > 1)
        g |= GAP_C3;
    return g;
}

unsigned sn_train_gaps(const struct sn_model_info *m,
                       const struct sn_train_layout *l, const char *accel,
                       bool software_assumed)
{
    bool moe = m->experts > 1;
    double active = 0;
    unsigned g = 0;

    sn_train_params(m, &active);
    if (m->active_params > 0)
        active = m->active_params;
    /* the modern stack's overlaps are assumed wherever a layout has
     * communication to hide: TP, EP or sharded data parallelism */
    if (software_assumed && strcmp(sn_validate_gen_class(accel), "ampere") &&
        (l->tp > 1 || l->ep > 1 || l->zero > 0))
        g |= GAP_T1;
    if ((moe && active < SN_VALIDATE_SMALL_ACTIVE) ||
        !strcmp(sn_validate_host_class(accel), "grace"))
        g |= GAP_T2;
    if (moe)
        g |= GAP_T3;
    if (l->ep > 1)
        g |= GAP_T4;
    return g | coll_gaps(accel, l->tp * (l->ep > 1 ? l->ep : 1));
}

unsigned sn_infer_gaps(const struct sn_model_info *m,
                       const struct sn_infer_layout *l, const char *accel,
                       bool loaded)
{
    double active = 0;
    unsigned g = GAP_I1 | (loaded ? 0 : GAP_I2);

    sn_train_params(m, &active);
    if (m->active_params > 0)
        active = m->active_params;
    if (m->experts > 1 && active < SN_VALIDATE_SMALL_ACTIVE)
        g |= GAP_I3;
    if (l->ep > 1)
        g |= GAP_T4;
    return g | coll_gaps(accel, l->tp > l->ep ? l->tp : l->ep);
}

void sn_gaps_ids(unsigned gaps, char *out, size_t size)
{
    size_t n = 0;

    out[0] = '\0';
    for (size_t i = 0; i < sn_ngaps && n + 4 < size; i++)
        if (gaps & (1u << i))
            n += (size_t)snprintf(out + n, size - n, "%s%s", n ? " " : "",
                                  sn_gaps[i].id);
}
