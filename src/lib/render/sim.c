/* sim.c (render): the predictions of `supernode sim coll` and `sim pairs`
 * as nccl-tests-style tables or the SN_SCHEMA_COLL and SN_SCHEMA_PAIRS
 * documents. Each is written row by row as the CLI predicts: _begin
 * writes the head, _row one row, _end the tail; _release frees the table
 * whether or not _end was reached. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sn/model.h"
#include "sn/render.h"

/* The links a what-if changed, by id and label, as found in t. */
static void json_changes(struct sn_json *j, const struct sn_topo *t,
                         const struct sn_render_change *changes, size_t n)
{
    char buf[256];

    sn_json_key(j, "changed_links");
    sn_json_arr_begin(j);
    for (size_t i = 0; i < n; i++) {
        uint32_t id;
        struct sn_error err;
        if (sn_topo_find_link(t, changes[i].label, &id, &err))
            continue;
        sn_json_obj_begin(j);
        sn_json_kstr(j, "id", sn_topo_link_id(t, id, buf, sizeof(buf)));
        sn_json_kstr(j, "label", sn_topo_link_label(t, id, buf, sizeof(buf)));
        sn_json_knum(j, "health", changes[i].health);
        sn_json_obj_end(j);
    }
    sn_json_arr_end(j);
}

static void text_changes(struct sn_buf *b, const struct sn_topo *t,
                         const struct sn_render_change *changes, size_t n)
{
    char id[32], label[256];

    for (size_t i = 0; i < n; i++) {
        uint32_t l;
        struct sn_error err;
        if (sn_topo_find_link(t, changes[i].label, &l, &err))
            continue;
        sn_buf_printf(b, "# %s %s %s\n",
                      changes[i].health > 0 ? "degraded" : "failed",
                      sn_topo_link_id(t, l, id, sizeof(id)),
                      sn_topo_link_label(t, l, label, sizeof(label)));
        if (changes[i].health > 0)
            sn_buf_printf(b, "#   to %g of its rate\n", changes[i].health);
    }
}

/* ---- sim coll ---------------------------------------------------------- */

static const char *redop(int op)
{
    return sn_coll_op_info((enum sn_coll_op)op)->reduces ? "sum" : "none";
}

static void fmt(char *b, size_t n, double v, int prec)
{
    if (!isfinite(v))
        snprintf(b, n, "inf");
    else
        snprintf(b, n, "%.*f", prec, v);
}

void sn_render_coll_begin(struct sn_render_coll *p, struct sn_buf *out)
{
    static const char *const cols[] = {"size",  "count", "type",
                                       "redop", "root",  "time_us",
                                       "algbw", "busbw", NULL};
    static const char *const tail[] = {"algo", "proto", "bottleneck", NULL};
    const char *spec = p->spec ? p->spec : "";

    p->out = out;
    if (p->json) {
        sn_json_init(&p->j, p->out, true);
        sn_json_obj_begin(&p->j);
        sn_json_kstr(&p->j, "schema", SN_SCHEMA_COLL);
        sn_json_kstr(&p->j, "spec", spec);
        sn_json_kstr(&p->j, "op", sn_coll_op_name(p->op));
        sn_json_kstr(&p->j, "group", p->group);
        sn_json_kint(&p->j, "ranks", p->ranks);
        sn_json_kstr(&p->j, "type", p->type);
        sn_json_kstr(&p->j, "algo_requested", sn_coll_algo_name(p->algo));
        json_changes(&p->j, p->t, p->changes, p->nchanges);
        sn_json_key(&p->j, "rows");
        sn_json_arr_begin(&p->j);
        return;
    }
    sn_buf_printf(p->out, "# supernode sim coll: %s on %u ranks (",
                  sn_coll_op_name(p->op), p->ranks);
    sn_buf_put_esc(p->out, SN_ESC_TERM, p->group);
    sn_buf_puts(p->out, "), ");
    sn_buf_put_esc(p->out, SN_ESC_TERM, spec);
    sn_buf_putc(p->out, '\n');
    text_changes(p->out, p->t, p->changes, p->nchanges);
    /* type and redop are words, left-aligned; the rest are numbers */
    for (size_t c = 0; cols[c]; c++)
        sn_table_col(&p->tb, cols[c], c != 2 && c != 3);
    if (p->nchanges)
        sn_table_col(&p->tb, "nominal", true);
    for (size_t c = 0; tail[c]; c++)
        sn_table_col(&p->tb, tail[c], false);
    sn_table_col(&p->tb, "eff", true);
}

static void coll_json_row(struct sn_render_coll *p, double bytes,
                          uint64_t count, int root,
                          const struct sn_coll_result *r,
                          const struct sn_coll_result *rn)
{
    struct sn_json *j = &p->j;

    sn_json_obj_begin(j);
    sn_json_kint(j, "size_bytes", (long long)bytes);
    sn_json_kint(j, "count", (long long)count);
    sn_json_kstr(j, "type", p->type);
    sn_json_kstr(j, "redop", redop(p->op));
    sn_json_kint(j, "root", root);
    sn_json_knum(j, "time_us", r->time * 1e6);
    sn_json_knum(j, "algbw_GBps", r->algbw / 1e9);
    sn_json_knum(j, "busbw_GBps", r->busbw / 1e9);
    if (p->nchanges)
        sn_json_knum(j, "nominal_busbw_GBps", rn->busbw / 1e9);
    sn_json_kstr(j, "algo", sn_coll_algo_name(r->algo));
    sn_json_kstr(j, "proto", sn_coll_proto_name(r->proto));
    sn_json_kstr(j, "bottleneck", sn_link_class_name(r->bottleneck));
    sn_json_knum(j, "bottleneck_GBps", r->bottleneck_bw / 1e9);
    sn_json_knum(j, "bottleneck_eff", r->bottleneck_eff);
    sn_json_knum(j, "latency_us", r->latency * 1e6);
    sn_json_kstr(j, "model", r->flows ? "flows" : "per-rank");
    sn_json_obj_end(j);
}

void sn_render_coll_row(struct sn_render_coll *p, double bytes, uint64_t count,
                        int root, const struct sn_coll_result *r,
                        const struct sn_coll_result *nominal)
{
    char b1[64], b2[64], b3[64];

    if (p->json) {
        coll_json_row(p, bytes, count, root, r, nominal);
        return;
    }
    sn_table_row(&p->tb);
    sn_table_cell(&p->tb, "%.0f", bytes);
    sn_table_cell(&p->tb, "%llu", (unsigned long long)count);
    sn_table_cell(&p->tb, "%s", p->type);
    sn_table_cell(&p->tb, "%s", redop(p->op));
    sn_table_cell(&p->tb, "%d", root);
    fmt(b1, sizeof(b1), r->time * 1e6, 2);
    sn_table_cell(&p->tb, "%s", b1);
    fmt(b2, sizeof(b2), r->algbw / 1e9, 2);
    sn_table_cell(&p->tb, "%s", b2);
    fmt(b3, sizeof(b3), r->busbw / 1e9, 2);
    sn_table_cell(&p->tb, "%s", b3);
    if (p->nchanges) {
        fmt(b1, sizeof(b1), nominal->busbw / 1e9, 2);
        sn_table_cell(&p->tb, "%s", b1);
    }
    sn_table_cell(&p->tb, "%s", sn_coll_algo_name(r->algo));
    sn_table_cell(&p->tb, "%s", sn_coll_proto_name(r->proto));
    sn_table_cell(&p->tb, "%s", sn_link_class_name(r->bottleneck));
    sn_table_cell(&p->tb, "%.2f", r->bottleneck_eff);
}

void sn_render_coll_end(struct sn_render_coll *p)
{
    if (p->json) {
        sn_json_arr_end(&p->j);
        sn_json_obj_end(&p->j);
        sn_buf_putc(p->out, '\n');
        return;
    }
    sn_table_render(&p->tb, p->out);
    sn_buf_printf(p->out,
                  "# time_us in microseconds; algbw, busbw%s in "
                  "GB/s (nccl-tests definitions); eff = bytes "
                  "over the bottleneck class / time / its rate\n",
                  p->nchanges ? ", nominal" : "");
}

void sn_render_coll_release(struct sn_render_coll *p)
{
    sn_table_release(&p->tb);
}

/* ---- sim pairs --------------------------------------------------------- */

static bool lowered(const struct sn_pair *now, const struct sn_pair *nom)
{
    return now->uni_bw < nom->uni_bw * (1 - 1e-9) ||
           now->bidi_bw < nom->bidi_bw * (1 - 1e-9);
}

static void pair_json(struct sn_json *j, const struct sn_topo *t,
                      const struct sn_pair *p, const struct sn_pair *nom,
                      enum sn_pair_relation rel, uint64_t count, bool classes)
{
    char buf[256];

    sn_json_obj_begin(j);
    sn_json_kint(j, "src", p->src);
    sn_json_kint(j, "dst", p->dst);
    sn_json_kstr(j, "src_name",
                 sn_topo_node_name(t, t->accel[p->src], buf, sizeof(buf)));
    sn_json_kstr(j, "dst_name",
                 sn_topo_node_name(t, t->accel[p->dst], buf, sizeof(buf)));
    sn_json_kstr(j, "relation", sn_pair_relation_name(rel));
    if (classes)
        sn_json_kint(j, "count", (long long)count);
    sn_json_knum(j, "uni_GBps", p->uni_bw / 1e9);
    sn_json_knum(j, "bidi_GBps", p->bidi_bw / 1e9);
    sn_json_knum(j, "latency_us", p->latency * 1e6);
    sn_json_knum(j, "wire_latency_us", p->wire_latency * 1e6);
    sn_json_kint(j, "hops", p->hops);
    sn_json_kstr(j, "bottleneck", sn_link_class_name(p->cls));
    if (p->bottleneck != SN_NONE) {
        sn_json_kstr(j, "bottleneck_id",
                     sn_topo_link_id(t, p->bottleneck, buf, sizeof(buf)));
        sn_json_kstr(j, "bottleneck_link",
                     sn_topo_link_label(t, p->bottleneck, buf, sizeof(buf)));
    }
    if (nom) {
        sn_json_knum(j, "nominal_uni_GBps", nom->uni_bw / 1e9);
        sn_json_knum(j, "nominal_bidi_GBps", nom->bidi_bw / 1e9);
        sn_json_kbool(j, "lowered", lowered(p, nom));
    }
    sn_json_obj_end(j);
}

static void pair_row(struct sn_table *tb, const struct sn_topo *t,
                     const struct sn_pair *p, const struct sn_pair *nom,
                     enum sn_pair_relation rel, uint64_t count, bool classes)
{
    char a[128], b[128], id[32];

    sn_table_row(tb);
    if (classes)
        sn_table_cell(tb, "%llu", (unsigned long long)count);
    sn_table_cell(tb, "%u", p->src);
    sn_table_cell(tb, "%u", p->dst);
    sn_table_cell(tb, "%s",
                  sn_topo_node_name(t, t->accel[p->src], a, sizeof(a)));
    sn_table_cell(tb, "%s",
                  sn_topo_node_name(t, t->accel[p->dst], b, sizeof(b)));
    sn_table_cell(tb, "%s", sn_pair_relation_name(rel));
    sn_table_cell(tb, "%.1f", p->uni_bw / 1e9);
    sn_table_cell(tb, "%.1f", p->bidi_bw / 1e9);
    sn_table_cell(tb, "%.2f", p->latency * 1e6);
    sn_table_cell(tb, "%u", p->hops);
    sn_table_cell(tb, "%s", sn_link_class_name(p->cls));
    sn_table_cell(tb, "%s",
                  p->bottleneck == SN_NONE
                      ? "-"
                      : sn_topo_link_id(t, p->bottleneck, id, sizeof(id)));
    if (nom) {
        sn_table_cell(tb, "%.1f", nom->uni_bw / 1e9);
        sn_table_cell(tb, "%s", lowered(p, nom) ? "LOWER" : "");
    }
}

void sn_render_pairs_begin(struct sn_render_pairs *p, struct sn_buf *out)
{
    static const struct {
        const char *name;
        bool right;
    } cols[] = {{"dst", true},       {"src_name", false}, {"dst_name", false},
                {"relation", false}, {"uni", true},       {"bidi", true},
                {"lat_us", true},    {"hops", true},      {"bottleneck", false},
                {"link", false}};
    const char *spec = p->spec ? p->spec : "";
    uint32_t n = p->ranks;

    p->out = out;
    if (p->json) {
        sn_json_init(&p->j, p->out, true);
        sn_json_obj_begin(&p->j);
        sn_json_kstr(&p->j, "schema", SN_SCHEMA_PAIRS);
        sn_json_kstr(&p->j, "spec", spec);
        sn_json_kint(&p->j, "ranks", n);
        sn_json_kint(&p->j, "pairs", (long long)n * (n - 1));
        json_changes(&p->j, p->t, p->changes, p->nchanges);
        sn_json_key(&p->j, p->every ? "pairs_list" : "classes");
        sn_json_arr_begin(&p->j);
        return;
    }
    sn_buf_printf(p->out,
                  "# supernode sim pairs: %u accelerators, %llu "
                  "ordered pairs%s, ",
                  n, (unsigned long long)n * (n - 1),
                  p->every ? "" : " in classes of equal expectations");
    sn_buf_put_esc(p->out, SN_ESC_TERM, spec);
    sn_buf_putc(p->out, '\n');
    text_changes(p->out, p->t, p->changes, p->nchanges);
    if (!p->every)
        sn_table_col(&p->tb, "count", true);
    sn_table_col(&p->tb, p->every ? "src" : "e.g. src", true);
    for (size_t c = 0; c < SN_ARRAY_LEN(cols); c++)
        sn_table_col(&p->tb, cols[c].name, cols[c].right);
    if (p->nchanges) {
        sn_table_col(&p->tb, "nominal", true);
        sn_table_col(&p->tb, "", false);
    }
}

void sn_render_pairs_row(struct sn_render_pairs *p, const struct sn_pair *pair,
                         const struct sn_pair *nominal,
                         enum sn_pair_relation rel, uint64_t count)
{
    const struct sn_pair *n = p->nchanges ? nominal : NULL;

    p->total += count;
    p->lowered += n && lowered(pair, n) ? count : 0;
    if (p->json)
        pair_json(&p->j, p->t, pair, n, rel, count, !p->every);
    else
        pair_row(&p->tb, p->t, pair, n, rel, count, !p->every);
}

void sn_render_pairs_end(struct sn_render_pairs *p)
{
    if (p->json) {
        sn_json_arr_end(&p->j);
        if (p->nchanges)
            sn_json_kint(&p->j, "lowered_pairs", (long long)p->lowered);
        sn_json_obj_end(&p->j);
        sn_buf_putc(p->out, '\n');
        return;
    }
    sn_table_render(&p->tb, p->out);
    sn_buf_printf(p->out,
                  "# uni, bidi%s in GB/s; lat_us: a small NCCL "
                  "send/recv (LL base + one hop, or the wire)\n",
                  p->nchanges ? ", nominal" : "");
    if (p->nchanges)
        sn_buf_printf(p->out,
                      "# %llu of %llu pairs lowered by the changed "
                      "links\n",
                      (unsigned long long)p->lowered,
                      (unsigned long long)p->total);
}

void sn_render_pairs_release(struct sn_render_pairs *p)
{
    sn_table_release(&p->tb);
}
