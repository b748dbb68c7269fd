/* design.c (html): the HTML report's design section, drawn
 * from the plan (sn_plan_build): the topology by tiers with repeated
 * units collapsed, rack elevations with power and coolant per rack, the
 * power and cooling summary, and cables by medium and length. Every
 * number printed is the plan's, formatted as `plan` prints it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html-int.h"
#include "sn/plan.h"

#define UNIT(v, k) sn_unit_format((v), (k), (char[48]){0}, 48)
#define NUM(v) sn_fmt_count((size_t)(v), (char[32]){0}, 32)

/* ---- topology by tiers ------------------------------------------------- */

#define BOX_W 200.0
#define BOX_H 46.0
#define ROW_H 96.0
#define TOPO_W 1000.0
#define TIERS 8

/* The row a class is drawn in, top to bottom: scale-out above the
 * accelerators, scale-up below them. */
static int tier_of(int c)
{
    switch (sn_topo_class_kind(c)) {
    case SN_NODE_ACCEL:
        return 5;
    case SN_NODE_CPU:
    case SN_NODE_NIC:
        return 4;
    default:
        break;
    }
    switch (sn_topo_class_role(c)) {
    case SN_SW_CORE:
        return 0;
    case SN_SW_SPINE:
        return 1;
    case SN_SW_LEAF:
        return 2;
    case SN_SW_EXTERNAL:
        return 3;
    case SN_SW_SCALEUP_L2:
        return 7;
    default: /* scale-up L1, PCIe */
        return 6;
    }
}

/* Where each class's box is; x < 0 for classes not drawn. */
struct topo_layout {
    double x[SN_TOPO_NCLASS], y[SN_TOPO_NCLASS];
    double h;
};

static void topo_place(const struct sn_topo_collapsed *c, struct topo_layout *L)
{
    int nrow[TIERS] = {0}, seen[TIERS] = {0}, row_of[TIERS], rows = 0;

    for (int k = 0; k < SN_TOPO_NCLASS; k++) {
        L->x[k] = -1;
        if (c->count[k])
            nrow[tier_of(k)]++;
    }
    for (int t = 0; t < TIERS; t++)
        row_of[t] = nrow[t] ? rows++ : -1;
    for (int k = 0; k < SN_TOPO_NCLASS; k++) {
        int t = tier_of(k);
        double span;
        if (!c->count[k])
            continue;
        span = TOPO_W / nrow[t];
        L->x[k] = span * seen[t]++ + (span - BOX_W) / 2;
        L->y[k] = 40 + row_of[t] * ROW_H;
    }
    L->h = 40 + rows * ROW_H;
}

/* Distinct planes (scale-up) or rails (leaves) the class's switches sit
 * in: "in 18 planes" when over one. */
static size_t class_planes(const struct sn_topo *t, int c)
{
    unsigned char seen[8192] = {0};
    size_t n = 0;

    for (size_t v = 0; v < t->nnodes; v++) {
        const struct sn_node *d = &t->nodes[v];
        if (d->plane == SN_NONE16 || sn_topo_class_of(d) != c)
            continue;
        if (d->plane / 8 < sizeof(seen) &&
            !(seen[d->plane / 8] & (1u << (d->plane % 8)))) {
            seen[d->plane / 8] |= (unsigned char)(1u << (d->plane % 8));
            n++;
        }
    }
    return n;
}

static void topo_box(struct sn_buf *b, const struct sn_topo *t,
                     const struct sn_topo_collapsed *c,
                     const struct topo_layout *L, int k)
{
    bool shared = sn_topo_class_shared(k);
    size_t n = shared ? c->count[k] : c->count[k] / c->supernodes;
    size_t planes =
        sn_topo_class_kind(k) == SN_NODE_SWITCH ? class_planes(t, k) : 0;
    char line[96];

    sn__svg_rect(b, L->x[k], L->y[k], BOX_W, BOX_H, "node", NULL, NULL);
    sn__svg_text_fit(b, L->x[k] + BOX_W / 2, L->y[k] + 19, BOX_W - 10, 12,
                     "middle", "hd", sn_topo_class_label(k));
    snprintf(line, sizeof(line), "\xc3\x97%s%s", NUM(n),
             shared || c->supernodes == 1 ? "" : " per supernode");
    if (planes > 1) {
        size_t len = strlen(line);
        snprintf(line + len, sizeof(line) - len, ", %zu %s", planes,
                 sn_topo_class_role(k) == SN_SW_LEAF ? "rails" : "planes");
    }
    sn__svg_text_fit(b, L->x[k] + BOX_W / 2, L->y[k] + 36, BOX_W - 10, 11,
                     "middle", "sm", line);
}

/* An edge as a line between its boxes with a letter badge part way
 * along, staggered so badges of edges from one box do not sit together.
 * Same-row edges go over the top; a class linked to itself loops. */
static void topo_edge(struct sn_buf *b, const struct topo_layout *L,
                      const struct sn_topo_class_edge *e, size_t k)
{
    double ax = L->x[e->ca] + BOX_W / 2, bx = L->x[e->cb] + BOX_W / 2;
    double ay = L->y[e->ca], by = L->y[e->cb], mx, my;
    double f = 0.3 + 0.2 * (double)(k % 3);
    const char *cls = e->cls == SN_LINK_HOST ? "link dash" : "link";
    char tag[8];

    if (e->ca == e->cb) {
        double x[] = {ax + BOX_W / 2, ax + BOX_W / 2 + 22, ax + BOX_W / 2 + 22,
                      ax + BOX_W / 2};
        double y[] = {ay + 12, ay + 12, ay + BOX_H - 12, ay + BOX_H - 12};
        sn__svg_path(b, x, y, 4, cls);
        mx = ax + BOX_W / 2 + 22;
        my = ay + BOX_H / 2;
    } else if (ay == by) {
        /* under the row: above it sit the labels of the unit's box */
        double yb = ay + BOX_H, x[] = {ax, ax, bx, bx},
               y[] = {yb, yb + 16, yb + 16, yb};
        sn__svg_path(b, x, y, 4, cls);
        mx = ax + (bx - ax) * f;
        my = yb + 16;
    } else {
        double y0 = ay < by ? ay + BOX_H : ay, y1 = ay < by ? by : by + BOX_H;
        sn__svg_line(b, ax, y0, bx, y1, cls);
        mx = ax + (bx - ax) * f;
        my = y0 + (y1 - y0) * f;
    }
    snprintf(tag, sizeof(tag), "%c", (int)('a' + k % 26));
    sn_buf_puts(b, "<circle");
    sn_buf_printf(b, " cx=\"%.1f\" cy=\"%.1f\" r=\"9\" class=\"badge\"/>\n", mx,
                  my);
    sn__svg_text(b, mx, my + 4, "middle", "bt", tag);
}

/* The edges' table: what each letter stands for. */
static void topo_edge_table(struct sn_buf *b, const struct sn_topo_collapsed *c)
{
    sn_buf_puts(b, "<table class=\"data\"><thead><tr><th></th><th>between"
                   "</th><th class=\"n\">links</th><th>class</th><th>medium"
                   "</th><th class=\"n\">per link</th></tr></thead><tbody>\n");
    for (size_t k = 0; k < c->ne; k++) {
        const struct sn_topo_class_edge *e = &c->e[k];
        bool inside =
            !sn_topo_class_shared(e->ca) && !sn_topo_class_shared(e->cb);
        sn_buf_printf(b, "<tr><td>%c</td><td>", (int)('a' + k % 26));
        sn__html_escape(b, sn_topo_class_label(e->ca));
        sn_buf_puts(b, " &#8211; ");
        sn__html_escape(b, sn_topo_class_label(e->cb));
        sn_buf_printf(b, "</td><td class=\"n\">%s%s</td><td>%s</td>",
                      NUM(inside ? e->count / c->supernodes : e->count),
                      inside && c->supernodes > 1 ? " per supernode" : "",
                      sn_link_class_name((enum sn_link_class)e->cls));
        sn_buf_printf(b, "<td>%s</td><td class=\"n\">%s</td></tr>\n",
                      sn_medium_name((enum sn_medium)e->medium),
                      UNIT(e->bw, SN_UNIT_BANDWIDTH));
    }
    sn_buf_puts(b, "</tbody></table>\n");
}

static void fig_topology(struct sn_buf *b, const struct sn_plan *p)
{
    struct sn_topo_collapsed c;
    struct topo_layout L;
    double ix0 = TOPO_W, iy0 = 1e9, ix1 = 0, iy1 = 0;
    char label[160];

    sn_topo_collapse(p->topo, &c);
    topo_place(&c, &L);
    for (int k = 0; k < SN_TOPO_NCLASS; k++)
        if (L.x[k] >= 0 && !sn_topo_class_shared(k)) {
            ix0 = fmin(ix0, L.x[k]);
            ix1 = fmax(ix1, L.x[k] + BOX_W);
            iy0 = fmin(iy0, L.y[k]);
            iy1 = fmax(iy1, L.y[k] + BOX_H);
        }
    sn__html_figure_open(b, "design-topology",
                         "Topology by tiers, repeated units collapsed");
    sn__svg_open(b, TOPO_W + 40, L.h + 20, "topology by tiers");
    if (ix1 > ix0) {
        snprintf(label, sizeof(label), "one supernode of %zu, drawn once",
                 c.supernodes);
        /* the label at the bottom: edges come in over the top */
        sn__svg_rect(b, ix0 - 12, iy0 - 12, ix1 - ix0 + 50, iy1 - iy0 + 50,
                     "unit", NULL, NULL);
        sn__svg_text(b, ix0 - 4, iy1 + 32, "start", "sm", label);
    }
    for (size_t k = 0; k < c.ne; k++)
        topo_edge(b, &L, &c.e[k], k);
    for (int k = 0; k < SN_TOPO_NCLASS; k++)
        if (L.x[k] >= 0)
            topo_box(b, p->topo, &c, &L, k);
    sn__svg_close(b);
    topo_edge_table(b, &c);
    sn__html_figure_close(b);
    sn_topo_collapse_release(&c);
}

/* ---- rack elevations ----------------------------------------------------- */

#define RACK_W 150.0
#define RACK_COLS 6
#define RACKS_DRAWN 12
#define U_PX 10.0

/* One thing in a rack: a server with its accelerators, or a switch box,
 * at a unit. */
struct rack_item {
    uint32_t unit;
    int cls; /* class of what is there (accelerator or switch role) */
    size_t devices;
};

/* The racks that look alike (same items, same power): drawn once. */
struct rack_group {
    uint32_t first, last;
    size_t count;
    struct rack_item *items;
    size_t nitems;
    const struct sn_plan_rack *rk;
};

static int item_cmp(const void *a, const void *b)
{
    const struct rack_item *x = a, *y = b;

    if (x->unit != y->unit)
        return x->unit < y->unit ? -1 : 1;
    return x->cls - y->cls;
}

/* The items of every rack: accelerators and switches by (unit, class),
 * counted. NICs and CPUs sit in their server and are left out. */
static void rack_items(const struct sn_topo *t, size_t nrack,
                       struct rack_item **items, size_t *nitems)
{
    size_t cap = 0;

    for (size_t r = 0; r < nrack; r++) {
        items[r] = NULL;
        nitems[r] = 0;
    }
    for (size_t v = 0; v < t->nnodes; v++) {
        const struct sn_node *n = &t->nodes[v];
        struct rack_item **it;
        size_t *ni, k;
        int c = sn_topo_class_of(n);
        /* NICs, CPUs and on-board switch chips are inside their server */
        if (n->rack >= nrack || n->kind == SN_NODE_CPU ||
            n->kind == SN_NODE_NIC || n->role == SN_SW_EXTERNAL ||
            (n->kind == SN_NODE_SWITCH && n->server != SN_NONE))
            continue;
        it = &items[n->rack];
        ni = &nitems[n->rack];
        for (k = 0; k < *ni; k++)
            if ((*it)[k].unit == n->unit && (*it)[k].cls == c)
                break;
        if (k == *ni) {
            cap = *ni;
            SN_GROW(*it, cap, *ni + 1);
            (*it)[k] = (struct rack_item){n->unit, c, 0};
            (*ni)++;
        }
        (*it)[k].devices++;
    }
    for (size_t r = 0; r < nrack; r++)
        if (nitems[r])
            qsort(items[r], nitems[r], sizeof(*items[r]), item_cmp);
}

static bool rack_alike(const struct rack_group *g, const struct rack_item *it,
                       size_t n, const struct sn_plan_rack *rk)
{
    return g->nitems == n && g->rk->kind == rk->kind &&
           g->rk->peak_w == rk->peak_w &&
           g->rk->coolant_m3s == rk->coolant_m3s &&
           (n == 0 || !memcmp(g->items, it, n * sizeof(*it)));
}

/* Group consecutive racks that are alike: a row of identical compute
 * racks is one group. *items is handed to the groups that keep it. */
static size_t rack_groups(const struct sn_plan *p, struct rack_group **out)
{
    size_t nrack = p->nrack, ng = 0, cap = 0;
    struct rack_item **items = sn_xcalloc(nrack + 1, sizeof(*items));
    size_t *nitems = sn_xcalloc(nrack + 1, sizeof(*nitems));
    struct rack_group *g = NULL;

    rack_items(p->topo, nrack, items, nitems);
    for (size_t r = 0; r < nrack; r++) {
        if (ng && rack_alike(&g[ng - 1], items[r], nitems[r], &p->rack[r])) {
            g[ng - 1].last = (uint32_t)r;
            g[ng - 1].count++;
            free(items[r]);
            continue;
        }
        SN_GROW(g, cap, ng + 1);
        g[ng++] = (struct rack_group){(uint32_t)r, (uint32_t)r, 1,
                                      items[r],    nitems[r],   &p->rack[r]};
    }
    free(items);
    free(nitems);
    *out = g;
    return ng;
}

static void rack_item_label(const struct sn_spec *s, const struct rack_item *it,
                            char *buf, size_t n)
{
    if (sn_topo_class_kind(it->cls) == SN_NODE_ACCEL) {
        /* the catalog key: short enough for a rack unit's label */
        const char *a = s->accel ? s->accel->name : "accelerator";
        snprintf(buf, n, "U%u %zu\xc3\x97 %s", (unsigned)it->unit, it->devices,
                 a);
    } else {
        snprintf(buf, n, "U%u %zu\xc3\x97 %s", (unsigned)it->unit, it->devices,
                 sn_topo_class_label(it->cls));
    }
}

/* One rack drawn unit by unit at (x, y), units from the bottom. */
static void rack_draw(struct sn_buf *b, const struct sn_plan *p,
                      const struct rack_group *g, double x, double y, int units)
{
    const struct sn_spec *s = p->spec;
    int node_u = s->racks.node_units > 0 ? s->racks.node_units : 1;
    double bottom = y + 34 + units * U_PX, lim = s->racks.power_limit_w;
    char head[64], line[96];

    if (g->count > 1)
        snprintf(head, sizeof(head), "racks %u\xe2\x80\x93%u \xc3\x97%zu",
                 (unsigned)g->first, (unsigned)g->last, g->count);
    else
        snprintf(head, sizeof(head), "rack %u", (unsigned)g->first);
    sn__svg_text_fit(b, x, y + 12, RACK_W, 12, "start", "hd", head);
    sn__svg_text_fit(b, x, y + 27, RACK_W, 11, "start", "sm",
                     sn_rack_kind_name(g->rk->kind));
    sn__svg_rect(b, x, y + 34, RACK_W, units * U_PX, "empty", NULL, NULL);
    for (size_t i = 0; i < g->nitems; i++) {
        const struct rack_item *it = &g->items[i];
        int h = sn_topo_class_kind(it->cls) == SN_NODE_ACCEL ? node_u : 1;
        double top = bottom - (it->unit - 1 + h) * U_PX;
        rack_item_label(s, it, line, sizeof(line));
        if (it->unit < 1 || (int)it->unit + h - 1 > units)
            continue; /* placed past the rack's height: the plan warns */
        sn__svg_rect(b, x + 1, top + 0.5, RACK_W - 2, h * U_PX - 1,
                     sn_topo_class_kind(it->cls) == SN_NODE_ACCEL ? "srv"
                                                                  : "swb",
                     NULL, line);
        if (h * U_PX >= 9)
            sn__svg_text_fit(b, x + 4, top + h * U_PX / 2 + 3.5, RACK_W - 8, 9,
                             "start", "ru", line);
    }
    /* power against the limit, and coolant, printed under the rack */
    snprintf(line, sizeof(line), "peak %s", UNIT(g->rk->peak_w, SN_UNIT_POWER));
    if (lim > 0) {
        size_t len = strlen(line);
        snprintf(line + len, sizeof(line) - len, " of %s",
                 UNIT(lim, SN_UNIT_POWER));
    }
    sn__svg_text_fit(b, x, bottom + 16, RACK_W, 11, "start",
                     lim > 0 && g->rk->peak_w > lim ? "sm bad" : "sm", line);
    if (lim > 0) {
        double f = fmin(g->rk->peak_w / lim, 1.0);
        sn__svg_rect(b, x, bottom + 22, RACK_W, 6, "empty", NULL, NULL);
        sn__svg_rect(b, x, bottom + 22, RACK_W * f, 6,
                     g->rk->peak_w > lim ? "bad" : "f0", NULL, line);
    }
    snprintf(line, sizeof(line), "coolant %s",
             g->rk->coolant_m3s > 0 ? UNIT(g->rk->coolant_m3s, SN_UNIT_FLOW)
                                    : "none (air)");
    sn__svg_text_fit(b, x, bottom + 42, RACK_W, 11, "start", "sm", line);
}

static void fig_racks(struct sn_buf *b, const struct sn_plan *p)
{
    struct rack_group *g = NULL;
    size_t ng = rack_groups(p, &g), drawn = ng < RACKS_DRAWN ? ng : RACKS_DRAWN;
    int units = p->spec->racks.rack_units > 0 ? p->spec->racks.rack_units : 42;
    double rack_h, w;
    size_t rows;
    char label[128];

    for (size_t i = 0; i < ng; i++)
        units = units > (int)g[i].rk->units ? units : (int)g[i].rk->units;
    rack_h = 34 + units * U_PX + 56;
    rows = (drawn + RACK_COLS - 1) / RACK_COLS;
    w = (double)(drawn < RACK_COLS ? drawn : RACK_COLS) * (RACK_W + 24) + 8;
    snprintf(label, sizeof(label),
             "Rack elevations: %s rack%s, alike racks drawn once",
             NUM(p->nrack), p->nrack == 1 ? "" : "s");
    sn__html_figure_open(b, "design-racks", label);
    if (drawn) {
        sn__svg_open(b, w, rows * (rack_h + 16), "rack elevations");
        for (size_t i = 0; i < drawn; i++)
            rack_draw(b, p, &g[i], 8 + (double)(i % RACK_COLS) * (RACK_W + 24),
                      (double)(i / RACK_COLS) * (rack_h + 16), units);
        sn__svg_close(b);
    }
    if (ng > drawn)
        sn_buf_printf(b,
                      "<p class=\"note\">%zu more kinds of rack, not drawn: "
                      "racks %u to %u (plan lists each).</p>\n",
                      ng - drawn, (unsigned)g[drawn].first,
                      (unsigned)g[ng - 1].last);
    sn__html_figure_close(b);
    for (size_t i = 0; i < ng; i++)
        free(g[i].items);
    free(g);
}

/* ---- power and cooling ----------------------------------------------------
 */

/* A horizontal bar of parts on scale s at y, each labelled with its
 * name and value under it. */
static void power_bar(struct sn_buf *b, const struct sn__svg_scale *s, double y,
                      const char *title, const char *const *names,
                      const double *w, size_t n)
{
    double x = s->p0;

    sn__svg_text(b, s->p0, y - 6, "start", "hd", title);
    for (size_t i = 0; i < n; i++) {
        double len = sn__svg_map(s, w[i]) - s->p0;
        char tip[128], cls[24];
        if (!(w[i] > 0))
            continue;
        snprintf(tip, sizeof(tip), "%s %s", names[i],
                 UNIT(w[i], SN_UNIT_POWER));
        snprintf(cls, sizeof(cls), "f%zu", i);
        sn__svg_rect(b, x, y, len, 20, cls, NULL, tip);
        sn__svg_text_fit(b, x + 2, y + 34 + 13 * (double)(i % 2),
                         fmax(len, 120), 11, "start", "sm", tip);
        x += len;
    }
}

static void fig_power(struct sn_buf *b, const struct sn_plan *p)
{
    static const char *const parts[] = {"servers", "switches", "optics"};
    static const char *const heat[] = {"liquid", "air"};
    double part_w[] = {p->servers_w, p->switches_w, p->transceiver_w};
    double heat_w[] = {p->liquid_w, p->air_w};
    double top = fmax(p->facility_w, p->provisioned_w), lo = 0;
    struct sn__svg_scale s;
    static const char *const marks[] = {"peak", "provisioned", "facility"};
    double mark_w[] = {p->peak_w, p->provisioned_w, p->facility_w};

    sn__svg_nice_domain(&lo, &top, false);
    s = (struct sn__svg_scale){0, top, 40, 960, false};
    sn__html_figure_open(b, "design-power", "Power and cooling");
    sn__svg_open(b, 1000, 250, "power and cooling");
    power_bar(b, &s, 30, "steady power by part", parts, part_w, 3);
    for (size_t i = 0; i < 3; i++) {
        double x = sn__svg_map(&s, mark_w[i]);
        char t[64];
        snprintf(t, sizeof(t), "%s %s", marks[i],
                 UNIT(mark_w[i], SN_UNIT_POWER));
        sn__svg_line(b, x, 22, x, 56, "lim");
        sn__svg_text(b, x, 90 + 13 * (double)i, x > 800 ? "end" : "middle",
                     "sm", t);
    }
    power_bar(b, &s, 140, "heat: liquid and air", heat, heat_w, 2);
    sn__svg_axis_x(b, &s, 210, 210, NULL, "W", false);
    sn__svg_close(b);
    sn_buf_puts(b, "<table class=\"data\"><tbody>\n");
    sn_buf_printf(b,
                  "<tr><td>steady</td><td class=\"n\">%s</td></tr>\n"
                  "<tr><td>peak</td><td class=\"n\">%s</td></tr>\n"
                  "<tr><td>provisioned</td><td class=\"n\">%s</td></tr>\n",
                  UNIT(p->steady_w, SN_UNIT_POWER),
                  UNIT(p->peak_w, SN_UNIT_POWER),
                  UNIT(p->provisioned_w, SN_UNIT_POWER));
    sn_buf_printf(b,
                  "<tr><td>facility (PUE %.2f)</td><td class=\"n\">%s</td>"
                  "</tr>\n<tr><td>coolant flow</td><td class=\"n\">%s</td>"
                  "</tr>\n<tr><td>worst rack peak</td><td class=\"n\">%s</td>"
                  "</tr>\n",
                  p->pue, UNIT(p->facility_w, SN_UNIT_POWER),
                  p->coolant_m3s > 0 ? UNIT(p->coolant_m3s, SN_UNIT_FLOW)
                                     : "none (air)",
                  p->worst ? UNIT(p->worst->peak_w, SN_UNIT_POWER) : "-");
    sn_buf_puts(b, "</tbody></table>\n");
    sn__html_figure_close(b);
}

/* ---- cables -----------------------------------------------------------------
 */

/* Length bins, metres: upper edges; the last is open. */
static const double bin_edge[] = {1, 2, 3, 5, 10, 20, 50, 100, INFINITY};
#define NBINS (sizeof(bin_edge) / sizeof(bin_edge[0]))

static const char *const bin_name[NBINS] = {"\xe2\x89\xa4"
                                            "1 m",
                                            "1-2 m",
                                            "2-3 m",
                                            "3-5 m",
                                            "5-10 m",
                                            "10-20 m",
                                            "20-50 m",
                                            "50-100 m",
                                            ">100 m"};

static void fig_cables(struct sn_buf *b, const struct sn_plan *p)
{
    size_t count[SN_MEDIUM_COUNT][NBINS] = {{0}}, nm = 0, maxc = 1;
    const struct sn_topo *t = p->topo;
    const double cw = 88, x0 = 150, rh = 30;
    char lbl[64];

    for (size_t i = 0; i < t->nlinks; i++) {
        const struct sn_link *l = &t->links[i];
        size_t k = 0;
        if (l->cls == SN_LINK_HOST || l->medium >= SN_MEDIUM_COUNT)
            continue; /* on the board, not cabled: as plan counts */
        while (k + 1 < NBINS && !(l->length <= bin_edge[k]))
            k++;
        count[l->medium][k]++;
    }
    for (int m = 0; m < SN_MEDIUM_COUNT; m++) {
        nm += p->cables[m] > 0;
        for (size_t k = 0; k < NBINS; k++)
            maxc = count[m][k] > maxc ? count[m][k] : maxc;
    }
    sn__html_figure_open(b, "design-cables", "Cables by medium and length");
    sn__svg_open(b, x0 + cw * NBINS + 110, 40 + rh * (double)nm + 10,
                 "cables by medium and length");
    for (size_t k = 0; k < NBINS; k++)
        sn__svg_text(b, x0 + cw * ((double)k + 0.5), 20, "middle", "tk",
                     bin_name[k]);
    sn__svg_text(b, x0 + cw * NBINS + 10, 20, "start", "at", "total");
    for (int m = 0, row = 0; m < SN_MEDIUM_COUNT; m++) {
        double y = 30 + rh * row;
        if (!p->cables[m])
            continue;
        sn__svg_text_fit(b, x0 - 8, y + 16, x0 - 10, 12, "end", "at",
                         m == SN_MEDIUM_BOARD
                             ? "board (no cable)"
                             : sn_medium_name((enum sn_medium)m));
        for (size_t k = 0; k < NBINS; k++) {
            /* the count printed, a bar under it for its size: the bar
             * never sits under the digits */
            double w = count[m][k] ? 3 + (cw - 11) * count[m][k] / maxc : 0;
            snprintf(lbl, sizeof(lbl), "%s %s", sn_medium_name(m), bin_name[k]);
            if (w > 0)
                sn__svg_rect(b, x0 + cw * k + 4, y + 21, w, 5, "f4", NULL, lbl);
            sn__svg_text(b, x0 + cw * ((double)k + 0.5), y + 16, "middle",
                         count[m][k] ? "lbl" : "tk",
                         count[m][k] ? NUM(count[m][k]) : "-");
        }
        sn__svg_text(b, x0 + cw * NBINS + 10, y + 16, "start", "hd",
                     NUM(p->cables[m]));
        row++;
    }
    sn__svg_close(b);
    sn__html_figure_close(b);
}

int sn__html_design(struct sn_buf *b, const struct sn_html_in *in,
                    struct sn_error *err)
{
    struct sn_plan *p = NULL;
    size_t cables = 0;
    int rc;

    if (!in->topo)
        return SN_OK;
    if ((rc = sn_plan_build(in->topo, &p, err)))
        return rc;
    for (int m = 0; m < SN_MEDIUM_COUNT; m++)
        cables += m == SN_MEDIUM_BOARD ? 0 : p->cables[m]; /* traces */
    sn__html_section_open(b, "design", "Design");
    sn_buf_printf(b,
                  "<p>%s supernode%s \xc3\x97 %s accelerators = %s "
                  "accelerators in %s servers and %s rack%s; %s links "
                  "(%s of them cabled), %s switch chips.</p>\n",
                  NUM(p->supernodes), p->supernodes == 1 ? "" : "s",
                  NUM(p->per_supernode), NUM(p->accelerators), NUM(p->servers),
                  NUM(p->racks), p->racks == 1 ? "" : "s", NUM(p->links_total),
                  NUM(cables), NUM(p->switch_chips));
    fig_topology(b, p);
    fig_racks(b, p);
    fig_power(b, p);
    fig_cables(b, p);
    sn__html_section_close(b);
    sn_plan_free(p);
    return SN_OK;
}
