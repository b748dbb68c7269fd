/* heat.c (html): the run section's pair bandwidth heatmap: rank
 * by rank, each cell the pair's measured share of what the design
 * expects, devices grouped by the switch their network port hangs off
 * and by scale-up domain; above REP_HEAT_MAX_RANKS ranks one cell per
 * pair of groups holding its worst pair. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run-int.h"

#define GRID_PX 640.0  /* the matrix's side at most */
#define CELL_MAX 44.0  /* a cell's side at most */
#define PRINT_MIN 18.0 /* cells this big print their value */
#define MARGIN 130.0   /* left, for group labels */
#define TOP 44.0       /* above the matrix: its title and group labels */
#define LEGEND_W 320.0
#define MAX_CELLS 256 /* aggregated cells per side at most */
#define WORST_LISTED 8
#define MAX_RANKS 1000000u /* ranks a heatmap is drawn for, at most */

/* The pairs shown: one pair test at one message size. */
struct heat {
    const struct sn__html_run *r;
    char test[SN_RESULT_TEST_MAX];
    uint64_t bytes;
    bool design;     /* shares of the design's value; else of the best */
    double best;     /* the best pair's median (no design) */
    uint32_t nrank;  /* ranks 0 .. nrank - 1 */
    uint32_t *pos;   /* per rank: its row and column */
    uint32_t *grp;   /* per rank: its group (cell when aggregated) */
    uint32_t *dom;   /* per rank: its scale-up domain */
    uint32_t *order; /* ranks in display order */
    uint32_t ngroups;
    uint32_t *gfirst; /* per group: its first position; [ngroups] = nrank */
    uint32_t *gkey;   /* per group: its switch node, SN_NONE for blocks */
    bool aggregated;
    size_t ncell;  /* cells per side */
    int64_t *cell; /* ncell x ncell: the result shown, -1 none */
    double *share; /* ncell x ncell */
    size_t *pairs; /* ncell x ncell: pairs behind the cell */
};

/* The pair test shown: pairs.bidir when measured, else pairs.uni, else
 * another B/s pair test; its largest message size. */
static bool pick_test(struct heat *h)
{
    const struct sn_results *rs = &h->r->rs;
    int best = 0;

    for (size_t i = 0; i < rs->n; i++) {
        const struct sn_result *x = &rs->items[i];
        int score;
        if (x->subject != SN_SUBJECT_PAIR || strcmp(x->unit, "B/s") ||
            !sn_startswith(x->test, "pairs."))
            continue;
        score = !strcmp(x->test, "pairs.bidir") ? 3
                : !strcmp(x->test, "pairs.uni") ? 2
                                                : 1;
        if (score > best || (score == best && !strcmp(x->test, h->test) &&
                             x->bytes > h->bytes)) {
            best = score;
            sn_strlcpy(h->test, x->test, sizeof(h->test));
            h->bytes = x->bytes;
        }
    }
    return best > 0;
}

static bool shown(const struct heat *h, const struct sn_result *x)
{
    return x->subject == SN_SUBJECT_PAIR && x->bytes == h->bytes &&
           !strcmp(x->test, h->test) && !strcmp(x->unit, "B/s");
}

/* The share of result i: of the design's value, or of the best pair. */
static double share_of(const struct heat *h, size_t i)
{
    double m = h->r->rs.items[i].stats.median;
    double e = h->design ? h->r->expected[i] : h->best;

    return e > 0 && isfinite(e) ? m / e : NAN;
}

static const struct heat *sort_heat;

/* Display order: by switch, then domain, then rank. */
static int rank_cmp(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    const struct heat *h = sort_heat;

    if (h->grp[a] != h->grp[b])
        return h->grp[a] < h->grp[b] ? -1 : 1;
    if (h->dom[a] != h->dom[b])
        return h->dom[a] < h->dom[b] ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Group the ranks by switch (design) and order them; groups of
 * consecutive ranks without a design, or when the switches are more than
 * the cells one side holds. */
static void group_ranks(struct heat *h)
{
    const struct sn_topo *t = h->r->topo;
    uint32_t n = h->nrank, g = 0, block;

    for (uint32_t i = 0; i < n; i++) {
        h->order[i] = i;
        h->grp[i] = t ? sn__html_rank_switch(t, i) : SN_NONE;
        h->dom[i] = t ? t->nodes[t->accel[i]].supernode : 0;
    }
    sort_heat = h;
    qsort(h->order, n, sizeof(*h->order), rank_cmp);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = h->grp[h->order[i]];
        if (!i || k != h->grp[h->order[i - 1]]) {
            h->gkey[g] = k;
            h->gfirst[g++] = i;
        }
        h->pos[h->order[i]] = i;
    }
    h->ngroups = g;
    if (!h->aggregated || (g > 1 && g <= MAX_CELLS && t))
        goto out;
    /* blocks of consecutive display positions instead */
    block = (n + MAX_CELLS / 4 - 1) / (MAX_CELLS / 4);
    if (block < 1)
        block = 1;
    for (g = 0; g * block < n; g++) {
        h->gfirst[g] = g * block;
        h->gkey[g] = SN_NONE;
    }
    h->ngroups = g;
out:
    h->gfirst[h->ngroups] = n;
    for (uint32_t k = 0; k < h->ngroups; k++)
        for (uint32_t i = h->gfirst[k]; i < h->gfirst[k + 1]; i++)
            h->grp[h->order[i]] = k;
}

/* Put result i into cell (row, col), keeping the worst pair. */
static void cell_put(struct heat *h, size_t row, size_t col, size_t i)
{
    size_t c = row * h->ncell + col;
    double s = share_of(h, i);

    h->pairs[c]++;
    if (h->cell[c] < 0 || (isfinite(s) && !(h->share[c] <= s))) {
        h->cell[c] = (int64_t)i;
        h->share[c] = s;
    }
}

/* Fill the cells from the results shown. */
static void fill_cells(struct heat *h)
{
    const struct sn_results *rs = &h->r->rs;
    size_t nc = h->ncell;
    bool bidir = !strcmp(h->test, "pairs.bidir");

    h->cell = sn_xmalloc(nc * nc * sizeof(*h->cell));
    h->share = sn_xmalloc(nc * nc * sizeof(*h->share));
    h->pairs = sn_xcalloc(nc * nc, sizeof(*h->pairs));
    for (size_t c = 0; c < nc * nc; c++) {
        h->cell[c] = -1;
        h->share[c] = NAN;
    }
    for (size_t i = 0; i < rs->n; i++) {
        const struct sn_result *x = &rs->items[i];
        size_t ra, rb;
        if (!shown(h, x) || x->a >= h->nrank || x->b >= h->nrank)
            continue;
        ra = h->aggregated ? h->grp[x->a] : h->pos[x->a];
        rb = h->aggregated ? h->grp[x->b] : h->pos[x->b];
        cell_put(h, ra, rb, i);
        if (bidir && ra != rb)
            cell_put(h, rb, ra, i);
    }
}

/* The ranks and shares behind the heatmap; false when there are none. */
static bool heat_build(struct heat *h, const struct sn__html_run *r)
{
    const struct sn_results *rs = &r->rs;
    uint64_t top = 0; /* ranks from the store may be UINT32_MAX */

    memset(h, 0, sizeof(*h));
    h->r = r;
    if (!pick_test(h))
        return false;
    for (size_t i = 0; i < rs->n; i++) {
        const struct sn_result *x = &rs->items[i];
        if (!shown(h, x))
            continue;
        top = (uint64_t)x->a + 1 > top ? (uint64_t)x->a + 1 : top;
        top = (uint64_t)x->b + 1 > top ? (uint64_t)x->b + 1 : top;
        h->best = fmax(h->best, x->stats.median);
        /* shares of the design when it has a value for any pair shown;
         * pairs it has none for (colocated ranks) are drawn blank */
        h->design = h->design || (r->topo && isfinite(r->expected[i]));
    }
    /* ranks come from the store: a hostile one could name rank 4e9 */
    if ((r->topo && (size_t)top > r->topo->naccel) || top > MAX_RANKS)
        return false;
    h->nrank = (uint32_t)top;
    h->aggregated = top > REP_HEAT_MAX_RANKS;
    h->pos = sn_xmalloc(top * sizeof(uint32_t));
    h->grp = sn_xmalloc(top * sizeof(uint32_t));
    h->dom = sn_xmalloc(top * sizeof(uint32_t));
    h->order = sn_xmalloc(top * sizeof(uint32_t));
    h->gfirst = sn_xmalloc((top + 1) * sizeof(uint32_t));
    h->gkey = sn_xmalloc((top + 1) * sizeof(uint32_t));
    group_ranks(h);
    h->ncell = h->aggregated ? h->ngroups : top;
    fill_cells(h);
    return true;
}

static void heat_release(struct heat *h)
{
    free(h->pos);
    free(h->grp);
    free(h->dom);
    free(h->order);
    free(h->gfirst);
    free(h->gkey);
    free(h->cell);
    free(h->share);
    free(h->pairs);
}

/* The name of group k: its switch, or its ranks. */
static char *group_name(const struct heat *h, uint32_t k, char *buf,
                        size_t size)
{
    if (h->gkey[k] != SN_NONE && h->r->topo)
        return sn_topo_node_name(h->r->topo, h->gkey[k], buf, size);
    snprintf(buf, size, "ranks %u-%u", h->order[h->gfirst[k]],
             h->order[h->gfirst[k + 1] - 1]);
    return buf;
}

/* What a cell's result was, in words: "rank 3 → 17: 93.2% (41.9 GB/s of
 * 45.0 GB/s)". */
static void pair_words(const struct heat *h, size_t i, struct sn_buf *t)
{
    const struct sn_result *x = &h->r->rs.items[i];
    double e = h->design ? h->r->expected[i] : h->best;
    char m[32], v[32];

    sn_unit_format_named(x->stats.median, "B/s", m, sizeof(m));
    sn_unit_format_named(e, "B/s", v, sizeof(v));
    if (isfinite(share_of(h, i)))
        sn_buf_printf(t, "rank %u \u2192 %u: %.1f%% (%s of %s)", x->a, x->b,
                      100 * share_of(h, i), m, v);
    else
        sn_buf_printf(t, "rank %u \u2192 %u: %s (no design value)", x->a, x->b,
                      m);
}

/* One cell as a unit square of the scaled grid, its words in a title. */
static void cell_draw(struct sn_buf *b, const struct heat *h, size_t row,
                      size_t col, struct sn_buf *t)
{
    size_t c = row * h->ncell + col;
    char fill[8], n[32], ga[128], gb[128];

    sn_buf_reset(t);
    if (h->aggregated) {
        sn_buf_printf(t, "%s \u2192 %s, %s pairs; worst ",
                      group_name(h, (uint32_t)row, ga, sizeof(ga)),
                      group_name(h, (uint32_t)col, gb, sizeof(gb)),
                      sn_fmt_count(h->pairs[c], n, sizeof(n)));
    }
    pair_words(h, (size_t)h->cell[c], t);
    if (isfinite(h->share[c]))
        sn_buf_printf(b,
                      "<rect x=\"%zu\" y=\"%zu\" width=\"1\" "
                      "height=\"1\" fill=\"%s\"><title>",
                      col, row, sn__svg_color_share(h->share[c], fill));
    else
        sn_buf_printf(b,
                      "<rect x=\"%zu\" y=\"%zu\" width=\"1\" "
                      "height=\"1\" style=\"fill:var(--grid)\"><title>",
                      col, row);
    sn__html_escape(b, t->data);
    sn_buf_puts(b, "</title></rect>\n");
}

/* Lines between groups (and between domains inside a group). */
static void heat_separators(struct sn_buf *b, const struct heat *h, double cs)
{
    double g = cs * (double)h->ncell;

    if (h->aggregated)
        return;
    for (uint32_t i = 1; i < h->nrank; i++) {
        uint32_t a = h->order[i - 1], c = h->order[i];
        const char *cls = h->grp[a] != h->grp[c]   ? "ax"
                          : h->dom[a] != h->dom[c] ? "grid"
                                                   : NULL;
        if (!cls)
            continue;
        sn__svg_line(b, MARGIN + cs * i, TOP, MARGIN + cs * i, TOP + g, cls);
        sn__svg_line(b, MARGIN, TOP + cs * i, MARGIN + g, TOP + cs * i, cls);
    }
}

/* Group labels along the left and the top. */
static void heat_labels(struct sn_buf *b, const struct heat *h, double cs)
{
    char name[128];

    if (h->ngroups < 2 && h->gkey[0] == SN_NONE)
        return;
    for (uint32_t k = 0; k < h->ngroups; k++) {
        double p0 = h->aggregated ? k : h->gfirst[k];
        double p1 = h->aggregated ? k + 1 : h->gfirst[k + 1];
        double span = cs * (p1 - p0), mid = cs * (p0 + p1) / 2;
        group_name(h, k, name, sizeof(name));
        if (span >= 9)
            sn__svg_text_fit(b, MARGIN - 6, TOP + mid + 3, MARGIN - 12, 9,
                             "end", "tk", name);
        if (span >= 40)
            sn__svg_text_fit(b, MARGIN + mid, TOP - 6, span - 12, 9, "middle",
                             "tk", name);
    }
}

/* The matrix, its labels and its legend. */
static void heat_draw(struct sn_buf *b, const struct heat *h, const char *aria)
{
    double cs = fmin(CELL_MAX, GRID_PX / (double)h->ncell);
    double g = cs * (double)h->ncell;
    struct sn_buf t = SN_BUF_INIT;

    sn__svg_open(b, MARGIN + fmax(g, LEGEND_W) + 24, TOP + g + 70, aria);
    sn__svg_text(b, MARGIN + g / 2, 14, "middle", "at", "to rank (columns)");
    sn__svg_text(b, 4, 14, "start", "at", "from rank (rows)");
    sn__svg_rect(b, MARGIN, TOP, g, g, "empty", NULL, "blank: not measured");
    sn_buf_printf(b,
                  "<g class=\"heat\" transform=\"translate(%g %g) "
                  "scale(%g)\">\n",
                  MARGIN, TOP, cs);
    for (size_t row = 0; row < h->ncell; row++)
        for (size_t col = 0; col < h->ncell; col++)
            if (h->cell[row * h->ncell + col] >= 0)
                cell_draw(b, h, row, col, &t);
    sn_buf_puts(b, "</g>\n");
    for (size_t c = 0; cs >= PRINT_MIN && c < h->ncell * h->ncell; c++) {
        char v[16];
        if (!isfinite(h->share[c]))
            continue;
        snprintf(v, sizeof(v), "%.0f", 100 * h->share[c]);
        /* light digits on viridis' dark end, dark on its light end,
         * whatever the theme */
        sn_buf_printf(b,
                      "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                      "class=\"sm\" style=\"fill:%s\">%s</text>\n",
                      MARGIN + cs * ((double)(c % h->ncell) + 0.5),
                      TOP + cs * ((double)(c / h->ncell) + 0.5) + 4,
                      h->share[c] < 0.6 ? "#fff" : "#000", v);
    }
    heat_separators(b, h, cs);
    heat_labels(b, h, cs);
    sn__svg_legend_share(b, MARGIN, TOP + g + 16, LEGEND_W,
                         h->design ? "measured / design"
                                   : "measured / best pair");
    sn__svg_close(b);
    sn_buf_release(&t);
}

static int worst_cmp(const void *pa, const void *pb)
{
    double a = sort_heat->share[*(const size_t *)pa];
    double b = sort_heat->share[*(const size_t *)pb];

    return a < b ? -1 : a > b;
}

/* The worst cells in words, so the figure reads without colour. */
static void heat_worst(struct sn_buf *b, const struct heat *h)
{
    size_t nc = h->ncell * h->ncell, n = 0;
    size_t *idx = sn_xmalloc((nc + 1) * sizeof(size_t));
    struct sn_buf t = SN_BUF_INIT;

    bool bidir = !strcmp(h->test, "pairs.bidir");

    /* a bidirectional pair fills two cells: list it once */
    for (size_t c = 0; c < nc; c++)
        if (isfinite(h->share[c]) && (!bidir || c / h->ncell <= c % h->ncell))
            idx[n++] = c;
    sort_heat = h;
    qsort(idx, n, sizeof(*idx), worst_cmp);
    sn_buf_puts(b, "<p class=\"worst\">Lowest: ");
    for (size_t k = 0; k < n && k < WORST_LISTED; k++) {
        sn_buf_reset(&t);
        pair_words(h, (size_t)h->cell[idx[k]], &t);
        sn_buf_puts(b, k ? "; " : "");
        sn__html_escape(b, t.data);
    }
    sn_buf_puts(b, n ? ".</p>\n" : "none.</p>\n");
    sn_buf_release(&t);
    free(idx);
}

void sn__html_run_heatmap(struct sn_buf *b, const struct sn__html_run *r)
{
    struct heat h;
    char id[64], cap[512], size[32], n[32];

    if (heat_build(&h, r)) {
        sn__svg_fmt((double)h.bytes, "B", true, size, sizeof(size));
        snprintf(cap, sizeof(cap),
                 "Pair bandwidth (%s, %s messages): each cell the pair's "
                 "median as a share of %s (printed in percent where the "
                 "cell has room); %s; blank cells were not measured",
                 h.test, size,
                 h.design ? "what the design expects of it"
                          : "the best pair's (no design values)",
                 h.aggregated ? "one cell per pair of switches holding the "
                                "worst pair between them"
                              : "devices grouped by switch (heavy lines) "
                                "and scale-up domain (light lines)");
        sn__html_figure_open(b, sn__html_run_anchor(r, "pairs", id, sizeof(id)),
                             cap);
        snprintf(cap, sizeof(cap), "pair bandwidth heatmap of %s ranks",
                 sn_fmt_count(h.nrank, n, sizeof(n)));
        heat_draw(b, &h, cap);
        heat_worst(b, &h);
        sn__html_figure_close(b);
    }
    heat_release(&h);
}
