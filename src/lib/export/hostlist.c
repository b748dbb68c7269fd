/* hostlist.c (export): Slurm's hostlist expressions ("node[001-018]"),
 * compressed and expanded, and what the rank placements share.
 */
#include <stdlib.h>
#include <string.h>

#include "export-int.h"
#include "sn/export.h"
#include "sn/spec.h"

/* ---- hostlist ----------------------------------------------------------- */

/* A name as prefix + number: the trailing digits (at most 9, so the
 * number fits), their count when zero-padded (0: written bare). */
struct hl_name {
    size_t plen;
    long num; /* -1: no trailing number */
    int width;
};

static void hl_split(const char *s, struct hl_name *h)
{
    size_t n = strlen(s), d = n;

    while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9' && n - d < 9)
        d--;
    if (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
        d = n; /* more than 9 digits: no number */
    h->plen = d;
    h->num = d < n ? strtol(s + d, NULL, 10) : -1;
    h->width = d < n && s[d] == '0' && n - d > 1 ? (int)(n - d) : 0;
}

static int digits(long v)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

/* Whether name b joins the group of prefix a and width *w (0: bare
 * numbers, all of *gd digits; -1 when they differ): one width, or a bare
 * number as wide as the padded ones ("node099", "node100"); *w and *gd
 * follow the group. */
static bool hl_joins(const char *a, const struct hl_name *ha, int *w, int *gd,
                     const char *b, const struct hl_name *hb)
{
    int d = digits(hb->num);

    if (ha->num < 0 || hb->num < 0 || ha->plen != hb->plen ||
        memcmp(a, b, ha->plen))
        return false;
    if (hb->width == 0 && *w == 0) {
        if (*gd != d)
            *gd = -1; /* bare numbers of several widths: "node[9-10]" */
        return true;
    }
    if (hb->width == *w || (hb->width == 0 && d == *w))
        return true;
    if (*w == 0 && hb->width > 0 && *gd == hb->width) {
        *w = hb->width; /* the bare ones so far are as wide */
        return true;
    }
    return false;
}

void sn_hostlist_compress(const char *const *names, size_t n,
                          struct sn_buf *out)
{
    size_t i = 0;

    while (i < n) {
        struct hl_name h0, hj;
        size_t j = i + 1;
        int w, gd;
        hl_split(names[i], &h0);
        w = h0.width;
        gd = h0.num >= 0 ? digits(h0.num) : 0;
        /* the group: following names with the same prefix and width */
        while (j < n) {
            hl_split(names[j], &hj);
            if (!hl_joins(names[i], &h0, &w, &gd, names[j], &hj))
                break;
            j++;
        }
        if (i)
            sn_buf_putc(out, ',');
        if (j - i == 1) {
            sn_buf_puts(out, names[i]);
            i = j;
            continue;
        }
        sn_buf_append(out, names[i], h0.plen);
        sn_buf_putc(out, '[');
        for (size_t k = i; k < j;) {
            struct hl_name a, b;
            size_t e = k + 1;
            hl_split(names[k], &a);
            for (; e < j; e++) {
                hl_split(names[e], &b);
                if (b.num != a.num + (long)(e - k))
                    break;
            }
            sn_buf_printf(out, "%s%0*ld", k > i ? "," : "", w, a.num);
            if (e - k > 1)
                sn_buf_printf(out, "-%0*ld", w, a.num + (long)(e - k - 1));
            k = e;
        }
        sn_buf_putc(out, ']');
        i = j;
    }
}

/* One range "a" or "a-b" inside brackets, numbers of at most 9 digits. */
static int hl_range(const char *s, size_t len, long *lo, long *hi, int *width)
{
    const char *dash = memchr(s, '-', len);
    size_t l1 = dash ? (size_t)(dash - s) : len;
    size_t l2 = dash ? len - l1 - 1 : 0;
    char a[16], b[16];

    if (l1 == 0 || l1 > 9 || (dash && (l2 == 0 || l2 > 9)))
        return -1;
    memcpy(a, s, l1);
    a[l1] = '\0';
    memcpy(b, dash ? dash + 1 : s, dash ? l2 : l1);
    b[dash ? l2 : l1] = '\0';
    if (strspn(a, "0123456789") != l1 || strspn(b, "0123456789") != strlen(b))
        return -1;
    *lo = strtol(a, NULL, 10);
    *hi = strtol(b, NULL, 10);
    *width = a[0] == '0' && l1 > 1 ? (int)l1 : 0;
    return *hi < *lo ? -1 : 0;
}

static int hl_push(char ***names, size_t *n, size_t *cap, size_t max,
                   char *name, struct sn_error *err)
{
    if (*n == max) {
        free(name);
        return sn_error_set(err, SN_EINPUT,
                            "hostlist names more than %zu hosts", max);
    }
    sn_grow((void **)names, cap, *n + 1, sizeof(**names));
    (*names)[(*n)++] = name;
    return SN_OK;
}

/* One comma-separated item: "name" or "prefix[ranges]". */
static int hl_item(const char *s, size_t len, size_t max, char ***names,
                   size_t *n, size_t *cap, struct sn_error *err)
{
    const char *lb = memchr(s, '[', len);
    int rc = SN_OK;

    if (!lb)
        return hl_push(names, n, cap, max, sn_xstrndup(s, len), err);
    if (s[len - 1] != ']' || lb == s + len - 2)
        return sn_error_set(err, SN_EINPUT,
                            "hostlist item '%.*s' has no closing ']' at its "
                            "end",
                            (int)(len > 64 ? 64 : len), s);
    for (const char *r = lb + 1; r < s + len - 1 && rc == SN_OK;) {
        const char *c = memchr(r, ',', (size_t)(s + len - 1 - r));
        size_t rl = c ? (size_t)(c - r) : (size_t)(s + len - 1 - r);
        long lo, hi;
        int width;
        if (hl_range(r, rl, &lo, &hi, &width))
            return sn_error_set(err, SN_EINPUT,
                                "hostlist range '%.*s' is not N or N-M",
                                (int)(rl > 32 ? 32 : rl), r);
        for (long v = lo; v <= hi && rc == SN_OK; v++) {
            struct sn_buf b = SN_BUF_INIT;
            sn_buf_append(&b, s, (size_t)(lb - s));
            sn_buf_printf(&b, "%0*ld", width, v);
            rc = hl_push(names, n, cap, max, sn_buf_detach(&b, NULL), err);
        }
        r += rl + 1;
    }
    return rc;
}

int sn_hostlist_expand(const char *expr, size_t max, char ***names, size_t *n,
                       struct sn_error *err)
{
    size_t cap = 0, len = strlen(expr);
    int rc = SN_OK, depth = 0;
    const char *start = expr;

    *names = NULL;
    *n = 0;
    for (size_t i = 0; i <= len && rc == SN_OK; i++) {
        char c = expr[i];
        if (c == '[' && ++depth > 1)
            rc = sn_error_set(err, SN_EINPUT, "hostlist has nested '['");
        else if (c == ']' && --depth < 0)
            rc = sn_error_set(err, SN_EINPUT, "hostlist has ']' without '['");
        else if ((c == ',' && depth == 0) || c == '\0') {
            if (&expr[i] == start)
                rc = sn_error_set(err, SN_EINPUT, "hostlist has an empty item");
            else
                rc = hl_item(start, (size_t)(&expr[i] - start), max, names, n,
                             &cap, err);
            start = &expr[i + 1];
        }
    }
    if (rc == SN_OK && depth != 0)
        rc = sn_error_set(err, SN_EINPUT, "hostlist has '[' without ']'");
    if (rc) {
        sn_spec_hosts_free(*names, *n);
        *names = NULL;
        *n = 0;
    }
    return rc;
}

/* ---- shared -------------------------------------------------------------- */

int sn__export_cpu_index(const struct sn_topo *t, uint32_t dev)
{
    for (uint32_t k = t->adj_off[dev]; k < t->adj_off[dev + 1]; k++) {
        const struct sn_link *l = &t->links[t->adj[k]];
        uint32_t o = l->a == dev ? l->b : l->a;
        if (l->cls != SN_LINK_HOST)
            continue;
        if (t->nodes[o].kind == SN_NODE_CPU)
            return (int)t->nodes[o].index;
        if (t->nodes[o].kind != SN_NODE_SWITCH ||
            t->nodes[o].role != SN_SW_PCIE)
            continue;
        for (uint32_t m = t->adj_off[o]; m < t->adj_off[o + 1]; m++) {
            const struct sn_link *u = &t->links[t->adj[m]];
            uint32_t c = u->a == o ? u->b : u->a;
            if (t->nodes[c].kind == SN_NODE_CPU)
                return (int)t->nodes[c].index;
        }
    }
    return 0;
}
