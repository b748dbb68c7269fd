/* run.c (html): the HTML report's run section: each stored run
 * of in->runs loaded with what the design expects of its results, then
 * its figures (heat.c, perf.c), its findings with the
 * degraded cable drawn on the topology, node health per host and the
 * watch events of its hosts while it ran. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run-int.h"
#include "sn/diagnose.h"

/* Findings drawn on the topology, at most (the list names them all). */
#define MAX_PICTURES 8
/* Neighbours of each end of a cable the picture shows, at most. */
#define MAX_NEIGH 6

const char *sn__html_run_anchor(const struct sn__html_run *r, const char *what,
                                char *buf, size_t size)
{
    snprintf(buf, size, "run%lld-%s", (long long)r->run.id, what);
    return buf;
}

uint32_t sn__html_rank_switch(const struct sn_topo *t, uint32_t rank)
{
    uint32_t v = t->accel[rank], up = SN_NONE, out = SN_NONE;

    for (uint32_t k = t->adj_off[v]; k < t->adj_off[v + 1]; k++) {
        const struct sn_link *l = &t->links[t->adj[k]];
        uint32_t o = l->a == v ? l->b : l->a;
        if (t->nodes[o].kind == SN_NODE_SWITCH && o < up &&
            l->cls == SN_LINK_SCALE_UP)
            up = o;
        if (t->nodes[o].kind != SN_NODE_NIC)
            continue;
        for (uint32_t j = t->adj_off[o]; j < t->adj_off[o + 1]; j++) {
            const struct sn_link *m = &t->links[t->adj[j]];
            uint32_t s = m->a == o ? m->b : m->a;
            if (m->cls == SN_LINK_SCALE_OUT &&
                t->nodes[s].kind == SN_NODE_SWITCH && s < out)
                out = s;
        }
    }
    return out != SN_NONE ? out : up;
}

/* A pair result's class: the switches of its ranks and whether it stays
 * in a server (0), a scale-up domain (1) or crosses the network (2). */
struct pair_class {
    uint32_t sa, sb, rel;
    size_t item;
};

static int class_cmp(const void *pa, const void *pb)
{
    const struct pair_class *a = pa, *b = pb;

    if (a->sa != b->sa)
        return a->sa < b->sa ? -1 : 1;
    if (a->sb != b->sb)
        return a->sb < b->sb ? -1 : 1;
    if (a->rel != b->rel)
        return a->rel < b->rel ? -1 : 1;
    return a->item < b->item ? -1 : a->item > b->item;
}

static bool same_class(const struct pair_class *a, const struct pair_class *b)
{
    return a->sa == b->sa && a->sb == b->sb && a->rel == b->rel;
}

static bool is_pair_bw(const struct sn_result *x)
{
    return x->subject == SN_SUBJECT_PAIR && !strcmp(x->unit, "B/s");
}

/* What to ask the design for: every result, or (classes) every result
 * but the pair results, and one pair per class measured alone. The
 * asked results are shallow copies (their samples borrowed); ask[k]
 * answers for result from[k]. Returns the count. */
static size_t ask_list(const struct sn__html_run *r, struct pair_class *cl,
                       size_t ncl, struct sn_result *ask, size_t *from)
{
    size_t n = 0;

    for (size_t i = 0; i < r->rs.n; i++)
        if (!cl || !is_pair_bw(&r->rs.items[i])) {
            ask[n] = r->rs.items[i];
            from[n++] = i;
        }
    for (size_t k = 0; k < ncl; k++)
        if (!k || !same_class(&cl[k - 1], &cl[k])) {
            ask[n] = r->rs.items[cl[k].item];
            ask[n].round = SN_STORE_NO_RANK; /* alone */
            from[n++] = cl[k].item;
        }
    return n;
}

/* Pair results in classes (sorted), *n of them. */
static struct pair_class *classes(const struct sn__html_run *r,
                                  const struct sn_topo *t, size_t *n)
{
    struct pair_class *cl = sn_xmalloc((r->rs.n + 1) * sizeof(*cl));
    uint32_t *sw = sn_xmalloc((t->naccel + 1) * sizeof(uint32_t));

    for (uint32_t k = 0; k < t->naccel; k++)
        sw[k] = sn__html_rank_switch(t, k);
    *n = 0;
    for (size_t i = 0; i < r->rs.n; i++) {
        const struct sn_result *x = &r->rs.items[i];
        const struct sn_node *p, *q;
        if (!is_pair_bw(x))
            continue;
        p = &t->nodes[t->accel[x->a]];
        q = &t->nodes[t->accel[x->b]];
        cl[*n].sa = sw[x->a];
        cl[*n].sb = sw[x->b];
        cl[*n].rel = p->supernode != q->supernode ? 2
                     : p->server != q->server     ? 1
                                                  : 0;
        cl[(*n)++].item = i;
    }
    qsort(cl, *n, sizeof(*cl), class_cmp);
    free(sw);
    return cl;
}

static const struct sn_result *sort_ask;

/* Pairs by source rank, so the design routes each source once. */
static int by_source(const void *pa, const void *pb)
{
    const struct sn_result *a = &sort_ask[*(const size_t *)pa];
    const struct sn_result *b = &sort_ask[*(const size_t *)pb];

    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

/* Ask the design for the values of r's results (see ask_list), in
 * source order; copy each answer to the results it stands for. */
static int ask_design(struct sn__html_run *r, const struct sn_topo *t,
                      struct pair_class *cl, size_t ncl, struct sn_error *err)
{
    struct sn_result *ask = sn_xmalloc((r->rs.n + 1) * sizeof(*ask));
    size_t *from = sn_xmalloc((r->rs.n + 1) * sizeof(size_t));
    size_t *ord = sn_xmalloc((r->rs.n + 1) * sizeof(size_t));
    size_t n = ask_list(r, cl, ncl, ask, from), m = 0;
    struct sn_results rs = {sn_xmalloc((n + 1) * sizeof(*ask)), n, n + 1};
    double *e = sn_xcalloc(n + 1, sizeof(double));
    int rc;

    for (size_t k = 0; k < n; k++)
        ord[k] = k;
    sort_ask = ask;
    qsort(ord, n, sizeof(*ord), by_source);
    for (size_t k = 0; k < n; k++)
        rs.items[k] = ask[ord[k]];
    rc = sn_diag_expect(t, r->run.backend, &rs, e, NULL, err);
    for (size_t k = 0; !rc && k < n; k++)
        r->expected[from[ord[k]]] = e[k];
    /* every pair of a class takes its representative's value */
    for (size_t k = 0; !rc && k < ncl; k++) {
        if (k && same_class(&cl[k - 1], &cl[k]))
            r->expected[cl[k].item] = r->expected[cl[m].item];
        else
            m = k;
    }
    free(e);
    free(rs.items);
    free(ord);
    free(from);
    free(ask);
    return rc;
}

/* The design's values when the topology can hold the run's ranks; a note
 * says why there are none otherwise, or that pairs were valued by
 * class. */
static void load_expected(struct sn__html_run *r)
{
    const struct sn_topo *t = r->in->topo;
    struct pair_class *cl = NULL;
    struct sn_error err;
    uint64_t top = 0;
    size_t npairs = 0, ncl = 0;

    for (size_t i = 0; i < r->rs.n; i++) {
        const struct sn_result *x = &r->rs.items[i];
        r->expected[i] = NAN;
        npairs += is_pair_bw(x);
        if (x->a != SN_STORE_NO_RANK && (uint64_t)x->a + 1 > top)
            top = (uint64_t)x->a + 1;
        if (x->subject == SN_SUBJECT_PAIR && (uint64_t)x->b + 1 > top)
            top = (uint64_t)x->b + 1;
    }
    if (!t) {
        sn_strlcpy(r->note, "No spec given: shares are of the best pair",
                   sizeof(r->note));
        return;
    }
    if (top > t->naccel) {
        snprintf(r->note, sizeof(r->note),
                 "The run has %llu ranks, the design %zu accelerators: no "
                 "design values",
                 (unsigned long long)top, t->naccel);
        return;
    }
    if (npairs > REP_EXPECT_PAIRS_MAX) {
        cl = classes(r, t, &ncl);
        snprintf(r->note, sizeof(r->note),
                 "Design values of its %zu pair results by class: one pair "
                 "per switch pair and relation (server, domain, network) "
                 "routed alone stands for its class",
                 npairs);
    }
    if (ask_design(r, t, cl, ncl, &err)) {
        snprintf(r->note, sizeof(r->note), "No design values: %.200s", err.msg);
        for (size_t i = 0; i < r->rs.n; i++)
            r->expected[i] = NAN;
    } else {
        r->topo = t;
    }
    free(cl);
}

static void run_release(struct sn__html_run *r)
{
    sn_results_release(&r->rs);
    free(r->expected);
    if (r->have_bl)
        sn_baseline_release(&r->bl);
    sn_store_findings_release(r->f, r->nf);
    sn_store_health_release(r->h, r->nh);
}

/* Load run id; SN_ENOTFOUND and the rest from the store. */
static int run_load(const struct sn_html_in *in, int64_t id,
                    struct sn__html_run *r, struct sn_error *err)
{
    int rc;

    memset(r, 0, sizeof(*r));
    r->in = in;
    sn_results_init(&r->rs);
    rc = sn_store_run_get(in->store, id, &r->run, err);
    if (!rc)
        rc = sn_store_results_read(in->store, id, SN_STORE_SAMPLES_TIMES,
                                   &r->rs, err);
    if (!rc)
        rc = sn_store_findings_get(in->store, id, &r->f, &r->nf, err);
    if (!rc)
        rc = sn_store_health_get(in->store, id, &r->h, &r->nh, err);
    if (!rc && in->baseline && in->baseline[0]) {
        rc = sn_store_baseline_get(in->store, in->baseline, &r->bl, err);
        r->have_bl = rc == SN_OK;
    }
    if (rc)
        return rc;
    r->expected = sn_xcalloc(r->rs.n + 1, sizeof(double));
    load_expected(r);
    return SN_OK;
}

/* A verdict or status in words, coloured as the page colours them
 * (FAIL bad, WARN warn, PASS ok, others muted): never colour alone. */
static void sev_badge(struct sn_buf *b, const char *sev, const char *text)
{
    /* check's verdicts and watch's severities ("warning", "critical") */
    const char *var =
        sn_strcaseeq(sev, "FAIL") || sn_strcaseeq(sev, "critical")  ? "bad"
        : sn_strcaseeq(sev, "WARN") || sn_strcaseeq(sev, "warning") ? "warn"
        : sn_strcaseeq(sev, "PASS")                                 ? "ok"
                                                                    : "mut";

    sn_buf_printf(b, "<b style=\"color:var(--%s)\">", var);
    sn__html_escape(b, text);
    sn_buf_puts(b, "</b>");
}

/* The run's own fields as one paragraph. */
static void run_summary(struct sn_buf *b, const struct sn__html_run *r)
{
    const struct sn_run *u = &r->run;
    const char *v = u->verdict[0] ? u->verdict : "none";
    char n[32];

    sn_buf_puts(b, "<p class=\"meta\">Spec <b>");
    sn__html_escape(b, u->spec_name);
    sn_buf_puts(b, "</b>");
    if (u->spec_hash[0]) {
        sn_buf_puts(b, " (hash ");
        sn__html_escape(b, u->spec_hash);
        sn_buf_puts(b, ")");
    }
    sn_buf_puts(b, ", suite ");
    sn__html_escape(b, u->suite);
    sn_buf_puts(b, ", backend ");
    sn__html_escape(b, u->backend);
    sn_buf_printf(b, ", %d ranks; host ", u->ranks);
    sn__html_escape(b, u->host);
    sn_buf_puts(b, ", started ");
    sn__html_escape(b, u->started);
    if (u->complete) {
        sn_buf_puts(b, ", finished ");
        sn__html_escape(b, u->finished);
    } else {
        sn_buf_puts(b, ", <b>not finished</b>");
    }
    sn_buf_printf(b, "; %s results, %zu findings; verdict ",
                  sn_fmt_count(r->rs.n, n, sizeof(n)), r->nf);
    sev_badge(b, v, u->verdict[0] ? u->verdict : "not judged");
    sn_buf_puts(b, ".");
    if (r->note[0]) {
        sn_buf_puts(b, " ");
        sn__html_escape(b, r->note);
        sn_buf_puts(b, ".");
    }
    sn_buf_puts(b, "</p>\n");
}

/* Table cells: n texts, escaped, each in its <td>. */
static void cells(struct sn_buf *b, const char *const *text, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        sn_buf_puts(b, "<td>");
        sn__html_escape(b, text[i]);
        sn_buf_puts(b, "</td>");
    }
}

/* The row of a node in the topology picture: accelerators at the bottom,
 * the network's tiers above. */
static int node_tier(const struct sn_node *n)
{
    switch (n->kind) {
    case SN_NODE_ACCEL:
    case SN_NODE_CPU:
        return 0;
    case SN_NODE_NIC:
        return 1;
    default:
        break;
    }
    switch (n->role) {
    case SN_SW_PCIE:
        return 1;
    case SN_SW_SCALEUP_L1:
    case SN_SW_LEAF:
        return 2;
    case SN_SW_SCALEUP_L2:
    case SN_SW_SPINE:
        return 3;
    case SN_SW_CORE:
        return 4;
    default:
        return 5;
    }
}

/* Add node v to the picture's set unless it is there. */
static void pic_add(uint32_t *set, size_t *n, uint32_t v)
{
    for (size_t i = 0; i < *n; i++)
        if (set[i] == v)
            return;
    set[(*n)++] = v;
}

/* The cable's two ends and a few neighbours of each, by tier. */
static size_t pic_nodes(const struct sn_topo *t, uint32_t link, uint32_t *set)
{
    const struct sn_link *l = &t->links[link];
    uint32_t ends[2] = {l->a, l->b};
    size_t n = 0;

    pic_add(set, &n, l->a);
    pic_add(set, &n, l->b);
    for (int e = 0; e < 2; e++) {
        size_t added = 0;
        for (uint32_t k = t->adj_off[ends[e]];
             k < t->adj_off[ends[e] + 1] && added < MAX_NEIGH; k++) {
            const struct sn_link *o = &t->links[t->adj[k]];
            size_t before = n;
            pic_add(set, &n, o->a == ends[e] ? o->b : o->a);
            added += n > before;
        }
    }
    return n;
}

/* The nodes in the fullest row of the picture. */
static int pic_widest(const struct sn_topo *t, const uint32_t *set, size_t n)
{
    int rows[6] = {0}, most = 1;

    for (size_t i = 0; i < n; i++) {
        int k = node_tier(&t->nodes[set[i]]);
        most = ++rows[k] > most ? rows[k] : most;
    }
    return most;
}

/* Where each node of the set goes: rows by tier, evenly spaced. */
static void pic_place(const struct sn_topo *t, const uint32_t *set, size_t n,
                      double w, double *x, double *y)
{
    int rows[6] = {0}, seen[6] = {0}, used = 0, row_of[6];

    for (size_t i = 0; i < n; i++)
        rows[node_tier(&t->nodes[set[i]])]++;
    for (int k = 5; k >= 0; k--)
        row_of[k] = rows[k] ? used++ : 0;
    for (size_t i = 0; i < n; i++) {
        int k = node_tier(&t->nodes[set[i]]);
        x[i] = w * (seen[k]++ + 0.5) / rows[k];
        y[i] = 24 + 64.0 * row_of[k];
    }
}

/* A small picture of one cable's neighbourhood, the cable red. Boxes
 * are wide enough for a node's whole name ("net.r40.u10.leaf3"). */
static void cable_picture(struct sn_buf *b, const struct sn_topo *t,
                          uint32_t link, const char *what)
{
    uint32_t set[2 + 2 * MAX_NEIGH];
    double x[2 + 2 * MAX_NEIGH], y[2 + 2 * MAX_NEIGH], h = 0;
    size_t n = pic_nodes(t, link, set);
    double bw = 168, w = fmax(720, (bw + 12) * pic_widest(t, set, n));
    char name[128], label[320];

    pic_place(t, set, n, w, x, y);
    for (size_t i = 0; i < n; i++)
        h = fmax(h, y[i] + 20);
    sn_topo_link_label(t, link, label, sizeof(label));
    sn__svg_open(b, w, h + 24, what);
    for (size_t i = 0; i < n; i++) /* every link among the shown nodes */
        for (uint32_t k = t->adj_off[set[i]]; k < t->adj_off[set[i] + 1]; k++) {
            const struct sn_link *l = &t->links[t->adj[k]];
            uint32_t o = l->a == set[i] ? l->b : l->a;
            for (size_t j = i + 1; j < n; j++)
                if (set[j] == o && t->adj[k] != link)
                    sn__svg_line(b, x[i], y[i], x[j], y[j], "link");
        }
    /* the cable: thick, in the page's colour for bad */
    sn_buf_printf(b,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                  "class=\"bad\" stroke-width=\"4\"/>\n",
                  x[0], y[0], x[1], y[1]);
    for (size_t i = 0; i < n; i++) {
        sn_topo_node_name(t, set[i], name, sizeof(name));
        sn__svg_rect(b, x[i] - bw / 2, y[i] - 11, bw, 22, "node", NULL, name);
        sn__svg_text_fit(b, x[i], y[i] + 4, bw - 8, 11, "middle", "sm", name);
    }
    sn__svg_text_fit(b, w / 2, h + 16, w - 20, 12, "middle", "bad", label);
    sn__svg_close(b);
}

/* The cable a finding names (its label, else its subject), or SN_NONE. */
static uint32_t finding_link(const struct sn_topo *t,
                             const struct sn_store_finding *f)
{
    uint32_t link;
    struct sn_error err;

    if (!t || strcmp(f->kind, "link"))
        return SN_NONE;
    if (f->label[0] && sn_topo_find_link(t, f->label, &link, &err) == SN_OK)
        return link;
    if (f->subject[0] && sn_topo_find_link(t, f->subject, &link, &err) == SN_OK)
        return link;
    return SN_NONE;
}

/* The findings in the order check stored them (strongest first), each
 * cable finding with its picture. */
static void run_findings(struct sn_buf *b, const struct sn__html_run *r)
{
    size_t pictures = 0;
    char id[64];

    if (!r->nf)
        return;
    sn__html_figure_open(
        b, sn__html_run_anchor(r, "findings", id, sizeof(id)),
        "Findings in the order check made them, strongest first");
    sn_buf_puts(b, "<ol class=\"findings\">\n");
    for (size_t i = 0; i < r->nf; i++) {
        const struct sn_store_finding *f = &r->f[i];
        uint32_t link = finding_link(r->topo, f);
        sn_buf_puts(b, "<li>");
        sev_badge(b, f->severity, f->severity);
        sn_buf_puts(b, " <b>");
        sn__html_escape(b, f->kind);
        sn_buf_puts(b, "</b> <code>");
        sn__html_escape(b, f->subject);
        sn_buf_puts(b, "</code> ");
        sn__html_escape(b, f->label);
        sn_buf_puts(b, "<br/>");
        sn__html_escape(b, f->summary ? f->summary : "");
        if (link != SN_NONE && pictures++ < MAX_PICTURES) {
            char what[200];
            snprintf(what, sizeof(what), "the cable of finding %zu in red",
                     i + 1);
            sn_buf_puts(b, "<div class=\"cable-pic\">");
            cable_picture(b, r->topo, link, what);
            sn_buf_puts(b, "</div>");
        }
        sn_buf_puts(b, "</li>\n");
    }
    sn_buf_puts(b, "</ol>\n");
    sn__html_figure_close(b);
}

/* Whether host h is among the first n checks' hosts. */
static bool host_seen(const struct sn_store_health *h, size_t n,
                      const char *host)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(h[i].host, host))
            return true;
    return false;
}

/* One host's checks: a line of counts, then every check not passed. */
static void health_host(struct sn_buf *b, const struct sn__html_run *r,
                        const char *host)
{
    static const char *const st[4] = {"FAIL", "WARN", "SKIP", "PASS"};
    size_t count[4] = {0};

    for (size_t i = 0; i < r->nh; i++)
        for (int k = 0; k < 4; k++)
            count[k] +=
                !strcmp(r->h[i].host, host) && !strcmp(r->h[i].status, st[k]);
    sn_buf_puts(b, "<tr class=\"host\"><th>");
    sn__html_escape(b, host[0] ? host : "(no host)");
    sn_buf_puts(b, "</th><td colspan=\"3\">");
    for (int k = 0; k < 4; k++) {
        char t[32];
        snprintf(t, sizeof(t), "%zu %s", count[k], st[k]);
        sev_badge(b, st[k], t);
        sn_buf_puts(b, " ");
    }
    sn_buf_puts(b, "</td></tr>\n");
    for (size_t i = 0; i < r->nh; i++) {
        const struct sn_store_health *c = &r->h[i];
        if (strcmp(c->host, host) || !strcmp(c->status, "PASS"))
            continue;
        sn_buf_puts(b, "<tr><td>");
        sev_badge(b, c->status, c->status);
        sn_buf_puts(b, " ");
        sn__html_escape(b, c->name);
        sn_buf_puts(b, "</td>");
        cells(b, (const char *const[]){c->subject, c->evidence, c->remedy}, 3);
        sn_buf_puts(b, "</tr>\n");
    }
}

/* Node health per host, as doctor found it with the run. */
static void run_health(struct sn_buf *b, const struct sn__html_run *r)
{
    char id[64];

    if (!r->nh)
        return;
    sn__html_figure_open(b, sn__html_run_anchor(r, "health", id, sizeof(id)),
                         "Node health per host (doctor's checks with the run; "
                         "every check that did not pass is listed)");
    sn_buf_puts(b, "<table class=\"data\"><thead><tr><th>check</th>"
                   "<th>subject</th><th>evidence</th><th>remedy</th></tr>"
                   "</thead><tbody>\n");
    for (size_t i = 0; i < r->nh; i++)
        if (!host_seen(r->h, i, r->h[i].host))
            health_host(b, r, r->h[i].host);
    sn_buf_puts(b, "</tbody></table>\n");
    sn__html_figure_close(b);
}

/* One event as a table row. */
static void event_row(struct sn_buf *b, const struct sn_store_event *e)
{
    char t0[32], t1[32];
    time_t s = (time_t)e->started, z = (time_t)e->resolved;
    struct tm tm;

    strftime(t0, sizeof(t0), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&s, &tm));
    if (isnan(e->resolved))
        sn_strlcpy(t1, "holding", sizeof(t1));
    else
        strftime(t1, sizeof(t1), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&z, &tm));
    sn_buf_puts(b, "<tr><td>");
    sev_badge(b, e->severity, e->severity);
    sn_buf_puts(b, "</td>");
    cells(b, (const char *const[]){e->host, e->rule, e->message, t0, t1}, 5);
    sn_buf_puts(b, "</tr>\n");
}

/* The watch events of the run's hosts (its own and every host with
 * health checks) that held while it ran; nothing when there are none. */
static void run_events(struct sn_buf *b, const struct sn__html_run *r)
{
    struct sn_render_run_events w;
    char id[64];

    /* not finished: up to the report's time */
    sn_render_run_events(r->in->store, &r->run, r->h, r->nh,
                         r->in->now > 0 ? r->in->now : INFINITY, &w);
    if (w.n) {
        sn__html_figure_open(b,
                             sn__html_run_anchor(r, "events", id, sizeof(id)),
                             "Watch events on the run's hosts while it ran");
        sn_buf_puts(b, "<table class=\"data\"><thead><tr><th>severity</th>"
                       "<th>host</th><th>rule</th><th>message</th>"
                       "<th>started</th><th>resolved</th></tr></thead>"
                       "<tbody>\n");
        for (size_t i = 0; i < w.n; i++)
            event_row(b, &w.ev[i]);
        sn_buf_puts(b, "</tbody></table>\n");
        sn__html_figure_close(b);
    }
    sn_render_run_events_release(&w);
}

/* One run's section. */
static void run_section(struct sn_buf *b, const struct sn__html_run *r)
{
    char id[64], title[200];

    snprintf(id, sizeof(id), "run%lld", (long long)r->run.id);
    snprintf(title, sizeof(title), "Run %lld: %s, %s", (long long)r->run.id,
             r->run.spec_name, r->run.started);
    sn__html_section_open(b, id, title);
    run_summary(b, r);
    sn__html_run_heatmap(b, r);
    sn__html_run_colls(b, r);
    sn__html_run_latency(b, r);
    sn__html_run_devices(b, r);
    run_findings(b, r);
    run_health(b, r);
    run_events(b, r);
    sn__html_section_close(b);
}

int sn__html_run(struct sn_buf *b, const struct sn_html_in *in,
                 struct sn_error *err)
{
    int rc = SN_OK;

    if (!in->store)
        return SN_OK;
    for (size_t i = 0; i < in->nruns && !rc; i++) {
        struct sn__html_run r;
        rc = run_load(in, in->runs[i], &r, err);
        if (!rc)
            run_section(b, &r);
        run_release(&r);
    }
    return rc;
}
