/* baseline.c (render): `supernode baseline`'s results: the list of
 * baselines, one baseline's subjects and a run compared with one, as
 * tables or the SN_SCHEMA_BASELINES, SN_SCHEMA_BASELINE and
 * SN_SCHEMA_BASELINE_DIFF documents. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sn/diagnose.h"
#include "sn/render.h"
#include "sn/store.h"

void sn_render_baselines_json(const struct sn_baseline *list, size_t n,
                              struct sn_buf *out)
{
    struct sn_json j;

    sn_json_init(&j, out, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_BASELINES);
    sn_json_key(&j, "baselines");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < n; i++) {
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "name", list[i].name);
        sn_json_kstr(&j, "created", list[i].created);
        sn_json_kstr(&j, "runs", list[i].runs);
        sn_json_kstr(&j, "spec_name", list[i].spec_name);
        sn_json_kstr(&j, "spec_hash", list[i].spec_hash);
        sn_json_kint(&j, "subjects", (long long)list[i].n);
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);
    sn_json_obj_end(&j);
    sn_buf_putc(out, '\n');
}

void sn_render_baselines_text(const struct sn_baseline *list, size_t n,
                              struct sn_buf *out)
{
    struct sn_table t;

    if (n == 0) {
        sn_buf_puts(out, "no baselines yet (save one with 'supernode "
                         "baseline save NAME')\n");
        return;
    }
    sn_table_init(&t, "");
    sn_table_col(&t, "NAME", false);
    sn_table_col(&t, "CREATED", false);
    sn_table_col(&t, "RUNS", false);
    sn_table_col(&t, "SPEC", false);
    sn_table_col(&t, "SUBJECTS", true);
    for (size_t i = 0; i < n; i++) {
        sn_table_row(&t);
        sn_table_cell(&t, "%s", list[i].name);
        sn_table_cell(&t, "%s", list[i].created);
        sn_table_cell(&t, "%s", list[i].runs);
        sn_table_cell(&t, "%s", list[i].spec_name[0] ? list[i].spec_name : "-");
        sn_table_cell(&t, "%zu", list[i].n);
    }
    sn_table_render(&t, out);
    sn_table_release(&t);
}

/* An entry's subject as a result's would read ("rank 3", "0-5"). */
static void entry_subject(const struct sn_baseline_entry *e, char *buf,
                          size_t size)
{
    struct sn_result r;

    memset(&r, 0, sizeof(r));
    r.subject = e->subject;
    r.a = e->a;
    r.b = e->b;
    sn_result_subject(&r, buf, size);
}

void sn_render_baseline_json(const struct sn_baseline *b, struct sn_buf *out)
{
    struct sn_json j;
    char subj[64];

    sn_json_init(&j, out, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_BASELINE);
    sn_json_kstr(&j, "name", b->name);
    sn_json_kstr(&j, "created", b->created);
    sn_json_kstr(&j, "runs", b->runs);
    sn_json_kstr(&j, "spec_name", b->spec_name);
    sn_json_kstr(&j, "spec_hash", b->spec_hash);
    sn_json_key(&j, "entries");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < b->n; i++) {
        const struct sn_baseline_entry *e = &b->entries[i];
        entry_subject(e, subj, sizeof(subj));
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "test", e->test);
        sn_json_kstr(&j, "params", e->params);
        sn_json_kstr(&j, "subject", subj);
        sn_json_kstr(&j, "unit", e->unit);
        sn_json_knum(&j, "center", e->center);
        sn_json_knum(&j, "noise", e->noise);
        sn_json_kint(&j, "samples", (long long)e->n);
        sn_json_kint(&j, "runs", e->runs);
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);
    sn_json_obj_end(&j);
    sn_buf_putc(out, '\n');
}

void sn_render_baseline_text(const struct sn_baseline *b, struct sn_buf *out)
{
    struct sn_table t;

    sn_buf_printf(out,
                  "baseline '%s': %zu subjects from run%s %s, "
                  "saved %s\n  spec %s (hash %s)\n\n",
                  b->name, b->n, strchr(b->runs, ',') ? "s" : "", b->runs,
                  b->created, b->spec_name[0] ? b->spec_name : "-",
                  b->spec_hash[0] ? b->spec_hash : "-");
    sn_table_init(&t, "");
    sn_table_col(&t, "TEST", false);
    sn_table_col(&t, "PARAMS", false);
    sn_table_col(&t, "SUBJECT", false);
    sn_table_col(&t, "CENTER", true);
    sn_table_col(&t, "NOISE", true);
    sn_table_col(&t, "SAMPLES", true);
    for (size_t i = 0; i < b->n; i++) {
        const struct sn_baseline_entry *e = &b->entries[i];
        char v[48], s[64];
        sn_table_row(&t);
        sn_table_cell(&t, "%s", e->test);
        sn_table_cell(&t, "%s", e->params[0] ? e->params : "-");
        entry_subject(e, s, sizeof(s));
        sn_table_cell(&t, "%s", s);
        sn_table_cell(&t, "%s",
                      sn_unit_format_named(e->center, e->unit, v, sizeof(v)));
        sn_table_cell(&t, "%.2f%%",
                      e->center != 0 ? 100.0 * e->noise / fabs(e->center)
                                     : 0.0);
        sn_table_cell(&t, "%zu", e->n);
    }
    sn_table_render(&t, out);
    sn_table_release(&t);
}

/* A row's change against the baseline's centre, as a fraction. */
static double row_change(const struct sn_render_diff_row *d)
{
    return d->e->center != 0
               ? (d->r->stats.median - d->e->center) / d->e->center
               : 0.0;
}

void sn_render_baseline_diff_json(const struct sn_render_diff *d,
                                  struct sn_buf *out)
{
    struct sn_json j;
    char s[64];

    sn_json_init(&j, out, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_BASELINE_DIFF);
    sn_json_kstr(&j, "baseline", d->baseline->name);
    sn_json_kint(&j, "run", d->run);
    sn_json_key(&j, "subjects");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < d->n; i++) {
        const struct sn_render_diff_row *x = &d->rows[i];
        sn_result_subject(x->r, s, sizeof(s));
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "test", x->r->test);
        sn_json_kstr(&j, "params", x->r->params);
        sn_json_kstr(&j, "subject", s);
        sn_json_kstr(&j, "unit", x->r->unit);
        sn_json_knum(&j, "baseline", x->e->center);
        sn_json_knum(&j, "noise", x->cmp.noise);
        sn_json_knum(&j, "now", x->r->stats.median);
        sn_json_knum(&j, "change", row_change(x));
        sn_json_knum(&j, "z", x->cmp.z);
        sn_json_kstr(&j, "verdict", sn_severity_name(x->cmp.severity));
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);
    sn_json_kint(&j, "not_in_baseline", (long long)d->unmatched);
    sn_json_obj_end(&j);
    sn_buf_putc(out, '\n');
}

void sn_render_baseline_diff_text(const struct sn_render_diff *d,
                                  struct sn_buf *out)
{
    static const char *const cols[] = {"TEST",     "PARAMS",  "SUBJECT",
                                       "BASELINE", "NOW",     "CHANGE",
                                       "Z",        "VERDICT", NULL};
    size_t sev[3] = {0, 0, 0};
    struct sn_table t;

    sn_buf_printf(out, "run %" PRId64 " against baseline '%s' (runs %s)\n\n",
                  d->run, d->baseline->name, d->baseline->runs);
    sn_table_init(&t, "");
    /* the figures right-aligned, the words and the verdict left */
    for (size_t c = 0; cols[c]; c++)
        sn_table_col(&t, cols[c], c >= 3 && c <= 6);
    for (size_t i = 0; i < d->n; i++) {
        const struct sn_render_diff_row *x = &d->rows[i];
        char s[64], v0[48], v1[48];
        if ((unsigned)x->cmp.severity < SN_ARRAY_LEN(sev))
            sev[x->cmp.severity]++;
        sn_result_subject(x->r, s, sizeof(s));
        sn_table_row(&t);
        sn_table_cell(&t, "%s", x->r->test);
        sn_table_cell(&t, "%s", x->r->params[0] ? x->r->params : "-");
        sn_table_cell(&t, "%s", s);
        sn_table_cell(
            &t, "%s",
            sn_unit_format_named(x->e->center, x->r->unit, v0, sizeof(v0)));
        sn_table_cell(&t, "%s",
                      sn_unit_format_named(x->r->stats.median, x->r->unit, v1,
                                           sizeof(v1)));
        sn_table_cell(&t, "%+.1f%%",
                      x->e->center != 0
                          ? 100.0 * (x->r->stats.median - x->e->center) /
                                x->e->center
                          : 0.0);
        sn_table_cell(&t, "%+.1f", x->cmp.z);
        sn_table_cell(&t, "%s", sn_severity_name(x->cmp.severity));
    }
    sn_table_render(&t, out);
    sn_table_release(&t);
    sn_buf_printf(out, "\n%zu PASS, %zu WARN, %zu FAIL", sev[0], sev[1],
                  sev[2]);
    if (d->unmatched)
        sn_buf_printf(out, "; %zu results not in the baseline", d->unmatched);
    sn_buf_putc(out, '\n');
}
