/* table.c: plain text tables with columns padded to the widest cell, the
 * way nccl-tests and git print theirs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/util.h"

void sn_table_init(struct sn_table *t, const char *prefix)
{
    memset(t, 0, sizeof(*t));
    t->prefix = prefix ? prefix : "";
}

void sn_table_col(struct sn_table *t, const char *header, bool right)
{
    if (t->ncols >= SN_TABLE_MAX_COLS)
        return;
    t->header[t->ncols] = header;
    t->right[t->ncols] = right;
    t->ncols++;
}

void sn_table_row(struct sn_table *t)
{
    size_t need = (t->nrows + 1) * (size_t)t->ncols;

    SN_GROW(t->cells, t->cap, need);
    for (size_t i = t->nrows * (size_t)t->ncols; i < need; i++)
        t->cells[i] = NULL;
    t->nrows++;
}

void sn_table_cell(struct sn_table *t, const char *fmt, ...)
{
    struct sn_buf b;
    va_list ap;
    size_t base;

    if (!t->nrows)
        return;
    base = (t->nrows - 1) * (size_t)t->ncols;
    for (int c = 0; c < t->ncols; c++) {
        if (!t->cells[base + (size_t)c]) {
            sn_buf_init(&b);
            va_start(ap, fmt);
            sn_buf_vprintf(&b, fmt, ap);
            va_end(ap);
            /* a cell is one line of clean text whatever it was made
             * from: a line break from input would start a new row */
            t->cells[base + (size_t)c] =
                sn_xstrdup_esc(SN_ESC_TERM, b.data ? b.data : "");
            sn_buf_release(&b);
            return;
        }
    }
}

static void pad(struct sn_buf *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sn_buf_putc(out, ' ');
}

static void line(const struct sn_table *t, struct sn_buf *out,
                 const char *const *cells, const size_t *w)
{
    size_t end = 0;

    /* trailing blanks are trimmed: the last non-empty column ends the line */
    for (int c = 0; c < t->ncols; c++)
        if (cells[c] && *cells[c])
            end = (size_t)c + 1;
    sn_buf_puts(out, t->prefix ? t->prefix : "");
    for (size_t c = 0; c < end; c++) {
        const char *s = cells[c] ? cells[c] : "";
        size_t len = strlen(s);
        if (c)
            sn_buf_puts(out, "  ");
        if (t->right[c])
            pad(out, w[c] - len);
        sn_buf_puts(out, s);
        if (!t->right[c] && c + 1 < end)
            pad(out, w[c] - len);
    }
    sn_buf_putc(out, '\n');
}

void sn_table_render(const struct sn_table *t, struct sn_buf *out)
{
    size_t w[SN_TABLE_MAX_COLS] = {0};

    for (int c = 0; c < t->ncols; c++) {
        w[c] = strlen(t->header[c]);
        for (size_t r = 0; r < t->nrows; r++) {
            const char *s = t->cells[r * (size_t)t->ncols + (size_t)c];
            if (s && strlen(s) > w[c])
                w[c] = strlen(s);
        }
    }
    line(t, out, t->header, w);
    for (size_t r = 0; r < t->nrows; r++)
        line(t, out, (const char *const *)&t->cells[r * (size_t)t->ncols], w);
}

void sn_table_release(struct sn_table *t)
{
    for (size_t i = 0; i < t->nrows * (size_t)t->ncols; i++)
        free(t->cells[i]);
    free(t->cells);
    t->cells = NULL;
    t->nrows = t->cap = 0;
}
