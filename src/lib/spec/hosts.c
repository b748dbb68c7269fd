/* hosts.c (spec): the node names of a design, from a hosts file, the
 * spec's `hosts:` or the default names, in rank order: the same data the
 * spec's `hosts:` holds, so it is read where that key is.
 */
#include <stdlib.h>
#include <string.h>

#include "sn/spec.h"

/* Names a hosts file may hold: the spec caps nodes likewise (docs/spec.md
 * Limits); a line longer than a host name is refused before copying. */
#define HOSTS_MAX 1000000
#define HOST_LEN 64

void sn_spec_hosts_free(char **names, size_t n)
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

int sn_spec_hosts(const struct sn_spec *spec, const char *file,
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
        sn_spec_hosts_free(out, (size_t)nodes);
        return rc;
    }
    *names = out;
    *n = (size_t)nodes;
    return SN_OK;
}
