/* csv.c: RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF) into rows
 * of strings with the line each row starts on. */
#include <stdlib.h>
#include <string.h>

#include "sn/util.h"

#define CSV_MAX_FIELDS 256

static void add_row(struct sn_csv *c, size_t *cap, char **fields, size_t n,
                    int line)
{
    if (c->nrows == *cap) {
        size_t ncap = *cap ? *cap * 2 : 64;
        c->fields = sn_xrealloc(c->fields, ncap * sizeof(*c->fields));
        c->nfields = sn_xrealloc(c->nfields, ncap * sizeof(*c->nfields));
        c->lines = sn_xrealloc(c->lines, ncap * sizeof(*c->lines));
        *cap = ncap;
    }
    c->fields[c->nrows] = sn_xmalloc((n ? n : 1) * sizeof(char *));
    memcpy(c->fields[c->nrows], fields, n * sizeof(char *));
    c->nfields[c->nrows] = n;
    c->lines[c->nrows] = line;
    c->nrows++;
}

int sn_csv_parse(const char *file, const char *text, size_t len,
                 size_t max_rows, struct sn_csv *c, struct sn_error *err)
{
    char *fields[CSV_MAX_FIELDS];
    size_t nf = 0, cap = 0, i = 0;
    int line = 1, row_line = 1, rc = SN_OK;
    struct sn_buf cell;
    bool quoted = false, any = false;

    memset(c, 0, sizeof(*c));
    sn_buf_init(&cell);
    while (i <= len) {
        char ch = i < len ? text[i] : '\n';
        bool at_end = i == len;
        if (quoted) {
            if (at_end) {
                rc = sn_error_at(err, SN_EINPUT, file, row_line, 0,
                                 "unterminated quoted field");
                goto fail;
            }
            if (ch == '"' && i + 1 < len && text[i + 1] == '"') {
                sn_buf_putc(&cell, '"');
                i += 2;
                continue;
            }
            if (ch == '"')
                quoted = false;
            else {
                if (ch == '\n')
                    line++;
                sn_buf_putc(&cell, ch);
            }
            i++;
            continue;
        }
        if (ch == '"' && cell.len == 0) {
            quoted = true;
            any = true;
            i++;
            continue;
        }
        if (ch == ',' || ch == '\n' || ch == '\r') {
            if (ch == '\r' && i + 1 < len && text[i + 1] == '\n')
                i++;
            if (ch == ',' || any || cell.len || nf) {
                if (nf == CSV_MAX_FIELDS) {
                    rc = sn_error_at(err, SN_EINPUT, file, line, 0,
                                     "more than %d fields in a row",
                                     CSV_MAX_FIELDS);
                    goto fail;
                }
                fields[nf++] = sn_buf_detach(&cell, NULL);
                any = false;
            }
            if (ch != ',') {
                if (nf) {
                    if (c->nrows >= max_rows) {
                        rc = sn_error_at(err, SN_EINPUT, file, line, 0,
                                         "more than %zu rows", max_rows);
                        goto fail;
                    }
                    add_row(c, &cap, fields, nf, row_line);
                    nf = 0;
                }
                line++;
                row_line = line;
            } else {
                any = true; /* a trailing comma still makes an empty field */
            }
            i++;
            if (at_end)
                break;
            continue;
        }
        sn_buf_putc(&cell, ch);
        i++;
    }
    sn_buf_release(&cell);
    return SN_OK;
fail:
    for (size_t k = 0; k < nf; k++)
        free(fields[k]);
    sn_buf_release(&cell);
    sn_csv_release(c);
    return rc;
}

void sn_csv_release(struct sn_csv *c)
{
    for (size_t r = 0; r < c->nrows; r++) {
        for (size_t f = 0; f < c->nfields[r]; f++)
            free(c->fields[r][f]);
        free(c->fields[r]);
    }
    free(c->fields);
    free(c->nfields);
    free(c->lines);
    memset(c, 0, sizeof(*c));
}

int sn_csv_column(const struct sn_csv *c, const char *name)
{
    if (!c->nrows)
        return -1;
    for (size_t f = 0; f < c->nfields[0]; f++)
        if (strcmp(c->fields[0][f], name) == 0)
            return (int)f;
    return -1;
}
