/* doctor.c (render): the doctor's report (`supernode doctor`) as a
 * checklist for people and as the SN_SCHEMA_DOCTOR document for machines
 * and for storing with a run. Declared in sn/health.h. */
#include <stdio.h>

#include "sn/health.h"
#include "sn/render.h"

void sn_render_health_json(const struct sn_health_report *rep,
                           struct sn_buf *out)
{
    struct sn_json j;
    size_t counts[SN_HEALTH_STATUS_COUNT];

    sn_health_report_counts(rep, counts);
    sn_json_init(&j, out, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_DOCTOR);
    sn_json_kstr(&j, "host", rep->host);
    sn_json_kstr(&j, "fsroot", rep->fsroot);
    sn_json_key(&j, "summary");
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "status",
                 sn_health_status_name(sn_health_report_worst(rep)));
    for (int s = 0; s < SN_HEALTH_STATUS_COUNT; s++)
        sn_json_kint(&j, sn_health_status_name((enum sn_health_status)s),
                     (long long)counts[s]);
    sn_json_obj_end(&j);
    sn_json_key(&j, "checks");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < rep->nchecks; i++) {
        const struct sn_health_check *ck = &rep->checks[i];
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "name", ck->name);
        sn_json_kstr(&j, "status", sn_health_status_name(ck->status));
        sn_json_kstr(&j, "subject", ck->subject);
        sn_json_kstr(&j, "evidence", ck->evidence);
        sn_json_kstr(&j, "remedy", ck->remedy);
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);
    sn_json_obj_end(&j); /* the writer ends a pretty document with \n */
}

void sn_render_health_text(const struct sn_health_report *rep,
                           struct sn_buf *out)
{
    size_t counts[SN_HEALTH_STATUS_COUNT];
    enum sn_health_status worst = sn_health_report_worst(rep);

    sn_health_report_counts(rep, counts);
    /* the host name, device names and what was read from them come
     * from the machine: each is one line of clean text here */
    sn_buf_puts(out, "doctor: host ");
    sn_buf_put_esc(out, SN_ESC_TERM, rep->host[0] ? rep->host : "(unknown)");
    sn_buf_puts(out, ", root ");
    sn_buf_put_esc(out, SN_ESC_TERM, rep->fsroot);
    sn_buf_putc(out, '\n');
    for (size_t i = 0; i < rep->nchecks; i++) {
        const struct sn_health_check *ck = &rep->checks[i];
        sn_buf_printf(out, "%s  %-21s ", sn_health_status_label(ck->status),
                      ck->name);
        sn_buf_put_esc(out, SN_ESC_TERM, ck->subject);
        sn_buf_puts(out, ": ");
        sn_buf_put_esc(out, SN_ESC_TERM, ck->evidence);
        sn_buf_putc(out, '\n');
        if (ck->remedy[0]) {
            sn_buf_puts(out, "      remedy: ");
            sn_buf_put_esc(out, SN_ESC_TERM, ck->remedy);
            sn_buf_putc(out, '\n');
        }
    }
    sn_buf_printf(out, "%s: %zu pass, %zu warn, %zu fail, %zu skipped\n",
                  sn_health_status_label(worst), counts[SN_HEALTH_PASS],
                  counts[SN_HEALTH_WARN], counts[SN_HEALTH_FAIL],
                  counts[SN_HEALTH_SKIP]);
}
