/* runs.c (render): the stored runs as `supernode runs` shows them: the
 * list as a table or an SN_SCHEMA_RUNS document, and one run with its
 * results, findings and node health as text or an SN_SCHEMA_RUN one. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sn/diagnose.h"
#include "sn/render.h"
#include "sn/store.h"

static const char *run_state(const struct sn_run *r)
{
    return r->complete ? "complete" : "incomplete";
}

void sn_render_runs_json(const struct sn_run *runs, size_t n,
                         struct sn_buf *out)
{
    struct sn_json j;

    sn_json_init(&j, out, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_RUNS);
    sn_json_key(&j, "runs");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < n; i++)
        sn_store_run_json(&j, &runs[i], NULL, NULL, 0, NULL, 0, false);
    sn_json_arr_end(&j);
    sn_json_obj_end(&j);
    sn_buf_putc(out, '\n');
}

void sn_render_runs_text(const struct sn_run *runs, size_t n,
                         struct sn_buf *out)
{
    struct sn_table t;

    if (n == 0) {
        sn_buf_puts(out, "no runs yet (run 'supernode check' first)\n");
        return;
    }
    sn_table_init(&t, "");
    sn_table_col(&t, "ID", true);
    sn_table_col(&t, "STARTED", false);
    sn_table_col(&t, "SPEC", false);
    sn_table_col(&t, "SUITE", false);
    sn_table_col(&t, "RANKS", true);
    sn_table_col(&t, "RESULTS", true);
    sn_table_col(&t, "STATE", false);
    sn_table_col(&t, "VERDICT", false);
    for (size_t i = 0; i < n; i++) {
        sn_table_row(&t);
        sn_table_cell(&t, "%" PRId64, runs[i].id);
        sn_table_cell(&t, "%s", runs[i].started);
        sn_table_cell(&t, "%s", runs[i].spec_name[0] ? runs[i].spec_name : "-");
        sn_table_cell(&t, "%s", runs[i].suite[0] ? runs[i].suite : "-");
        sn_table_cell(&t, "%d", runs[i].ranks);
        sn_table_cell(&t, "%zu", runs[i].nresults);
        sn_table_cell(&t, "%s", run_state(&runs[i]));
        sn_table_cell(&t, "%s", runs[i].verdict[0] ? runs[i].verdict : "-");
    }
    sn_table_render(&t, out);
    sn_table_release(&t);
}

void sn_render_run_json(const struct sn_render_run *w, struct sn_buf *out)
{
    struct sn_json j;

    sn_json_init(&j, out, true);
    sn_store_run_json(&j, w->run, w->rs, w->f, w->nf, w->h, w->nh, true);
    sn_buf_putc(out, '\n');
}

/* The results: median, spread (robust, relative), samples. */
static void results_table(const struct sn_results *rs, struct sn_buf *out)
{
    struct sn_table t;

    sn_table_init(&t, "");
    sn_table_col(&t, "TEST", false);
    sn_table_col(&t, "PARAMS", false);
    sn_table_col(&t, "SUBJECT", false);
    sn_table_col(&t, "MEDIAN", true);
    sn_table_col(&t, "SPREAD", true);
    sn_table_col(&t, "N", true);
    for (size_t i = 0; i < rs->n; i++) {
        const struct sn_result *x = &rs->items[i];
        char v[48], s[64];
        double spread =
            x->stats.median != 0
                ? SN_STATS_MAD_TO_SIGMA * x->stats.mad / fabs(x->stats.median)
                : 0;
        sn_table_row(&t);
        sn_table_cell(&t, "%s", x->test);
        sn_table_cell(&t, "%s", x->params[0] ? x->params : "-");
        sn_table_cell(&t, "%s", sn_result_subject(x, s, sizeof(s)));
        sn_table_cell(
            &t, "%s",
            sn_unit_format_named(x->stats.median, x->unit, v, sizeof(v)));
        sn_table_cell(&t, "%.1f%%", 100.0 * spread);
        sn_table_cell(&t, "%zu", x->stats.n);
    }
    sn_table_render(&t, out);
    sn_table_release(&t);
}

void sn_render_run_text(const struct sn_render_run *w, struct sn_buf *out)
{
    const struct sn_run *r = w->run;

    sn_buf_printf(out, "run %" PRId64 ": %s, %s\n", r->id, run_state(r),
                  r->verdict[0] ? r->verdict : "not judged");
    sn_buf_printf(out, "  started   %s\n", r->started);
    sn_buf_printf(out, "  finished  %s\n", r->finished[0] ? r->finished : "-");
    sn_buf_printf(out, "  where     %s (user %s)\n", r->host[0] ? r->host : "-",
                  r->user[0] ? r->user : "-");
    sn_buf_printf(out, "  spec      %s (hash %s)\n",
                  r->spec_name[0] ? r->spec_name : "-",
                  r->spec_hash[0] ? r->spec_hash : "-");
    sn_buf_printf(out, "  suite     %s on %s, %d ranks\n",
                  r->suite[0] ? r->suite : "-",
                  r->backend[0] ? r->backend : "-", r->ranks);
    sn_buf_printf(out, "  versions  %s%s%s\n", r->tool,
                  r->versions[0] ? ", " : "", r->versions);
    sn_buf_putc(out, '\n');
    if (w->rs->n == 0)
        sn_buf_puts(out, "no results\n");
    else
        results_table(w->rs, out);
    if (w->nf) {
        sn_buf_puts(out, "\nfindings:\n");
        for (size_t i = 0; i < w->nf; i++)
            sn_buf_printf(out, "  %-4s %s%s%s\n", w->f[i].severity,
                          w->f[i].summary, w->f[i].label[0] ? " : " : "",
                          w->f[i].label);
    }
    if (w->nh) {
        sn_buf_putc(out, '\n');
        sn_render_diag_health(w->h, w->nh, true, true, out);
    }
}

void sn_render_run_line(int64_t id, const char *spec, const struct sn_run *r,
                        struct sn_buf *out)
{
    sn_buf_printf(out, "run %" PRId64 " on %s, %s suite, %d ranks\n", id, spec,
                  r->suite, r->ranks);
}
