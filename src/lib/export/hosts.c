/* hosts.c (export): the node names every export writes (a hosts
 * file, the spec's `hosts:` or the default names) and Slurm's hostlist
 * expressions ("node[001-018]"), compressed and expanded.
 */
#include <stdlib.h>
#include <string.h>

#include "export-int.h"
#include "sn/export.h"
#include "sn/spec.h"

/* Names a hosts file may hold: the spec caps nodes likewise (docs/spec.md
 * Limits); a line longer than a host name is refused before copying. */
#define HOSTS_MAX 1000000
#define HOST_LEN 64

void sn_export_hosts_free(char **names, size_t n)
{
    if (!names)
        return;
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static int nodes_of(const struct sn_spec *spec)
{
    return spec->supernodes * sn_spec_nodes_per_supernode(spec);
}

/* Parse a hosts file: one name a line; the first error is located. */
static int parse_hosts(const char *file, const char *text, size_t len,
                       size_t want, char **names, struct sn_error *err)
{
    size_t n = 0, line = 0;
    const char *p = text, *end = text + len;
    int rc = SN_OK;

    while (p < end && rc == SN_OK) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *q = p, *e;
        if (!eol)
            eol = end;
        line++;
        while (q < eol && (*q == ' ' || *q == '\t'))
            q++;
        e = q;
        while (e < eol && *e != '#' && *e != ' ' && *e != '\t' && *e != '\r')
            e++;
        if (e > q) {
            char name[HOST_LEN + 1];
            size_t k = (size_t)(e - q);
            const char *rest = e;
            while (rest < eol &&
                   (*rest == ' ' || *rest == '\t' || *rest == '\r'))
                rest++;
            /* capped before copying: a longer word is refused anyway */
            if (k > HOST_LEN)
                k = HOST_LEN;
            memcpy(name, q, k);
            name[k] = '\0';
            if ((size_t)(e - q) > HOST_LEN || !sn_spec_host_name_ok(name))
                rc = sn_error_at(err, SN_EINPUT, file, (int)line,
                                 (int)(q - p) + 1,
                                 "not a host name (expected 1 to 64 letters, "
                                 "digits, '.', '-' or '_')");
            else if (rest < eol && *rest != '#')
                rc = sn_error_at(err, SN_EINPUT, file, (int)line,
                                 (int)(rest - p) + 1,
                                 "more than one name on the line (expected "
                                 "one host a line)");
            else if (n == want)
                rc = sn_error_at(
                    err, SN_EINPUT, file, (int)line, (int)(q - p) + 1,
                    "more hosts than the design's %zu nodes", want);
            else
                names[n++] = sn_xstrdup(name);
        }
        p = eol + 1;
    }
    if (rc == SN_OK && n != want)
        rc = sn_error_at(err, SN_EINPUT, file, (int)line + 1, 1,
                         "%zu host%s for the design's %zu nodes (expected "
                         "one a node, in rank order)",
                         n, n == 1 ? "" : "s", want);
    return rc;
}

static int cmp_str_at(const void *a, const void *b)
{
    const char *const *x = a, *const *y = b;
    int c = strcmp(*x, *y);
    return c ? c : (x > y) - (x < y);
}

/* A name given twice: the error names it (sorted copy, not pair by
 * pair). */
static int repeated(const char *file, char **names, size_t n,
                    struct sn_error *err)
{
    char **o = sn_xcalloc(n + 1, sizeof(*o));
    int rc = SN_OK;

    memcpy(o, names, n * sizeof(*o));
    qsort(o, n, sizeof(*o), cmp_str_at);
    for (size_t i = 1; i < n && rc == SN_OK; i++)
        if (!strcmp(o[i], o[i - 1]))
            rc = sn_error_set(err, SN_EINPUT,
                              "%s: host '%s' is listed twice (expected a "
                              "host of its own for every node)",
                              file, o[i]);
    free(o);
    return rc;
}

int sn_export_hosts(const struct sn_spec *spec, const char *file,
                    const char *text, size_t len, char ***names, size_t *n,
                    struct sn_error *err)
{
    int nodes = nodes_of(spec);
    char **out;
    int rc = SN_OK;

    *names = NULL;
    *n = 0;
    if (nodes <= 0 || nodes > HOSTS_MAX)
        return sn_error_set(err, SN_EINPUT,
                            "the design has %d nodes (expected 1 to %d)", nodes,
                            HOSTS_MAX);
    out = sn_xcalloc((size_t)nodes, sizeof(*out));
    if (text) {
        rc = parse_hosts(file ? file : "<hosts>", text, len, (size_t)nodes, out,
                         err);
        if (rc == SN_OK)
            rc = repeated(file ? file : "<hosts>", out, (size_t)nodes, err);
    } else if (spec->hosts && spec->nhosts == (size_t)nodes) {
        for (int i = 0; i < nodes; i++)
            out[i] = sn_xstrdup(spec->hosts[i]);
    } else {
        int width = 3;
        for (int v = nodes - 1; v >= 1000; v /= 10)
            width++;
        for (int i = 0; i < nodes; i++) {
            struct sn_buf b = SN_BUF_INIT;
            sn_buf_printf(&b, "node%0*d", width, i);
            out[i] = sn_buf_detach(&b, NULL);
        }
    }
    if (rc) {
        sn_export_hosts_free(out, (size_t)nodes);
        return rc;
    }
    *names = out;
    *n = (size_t)nodes;
    return SN_OK;
}

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
        sn_export_hosts_free(*names, *n);
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
