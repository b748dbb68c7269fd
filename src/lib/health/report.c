/* report.c: the doctor's report: checks in the order they were made,
 * their counts and the worst status. Its renderings (a checklist for
 * people, SN_SCHEMA_DOCTOR JSON) are in src/lib/render/doctor.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/health.h"

/* A report never grows past this many checks: a node with thousands of
 * PCI functions still gets every accelerator, NIC and NVMe device, and a
 * run away probe cannot exhaust memory. */
#define REPORT_MAX_CHECKS 100000

static const char *const status_names[SN_HEALTH_STATUS_COUNT] = {
    "pass", "skip", "warn", "fail"};
static const char *const status_labels[SN_HEALTH_STATUS_COUNT] = {
    "PASS", "SKIP", "WARN", "FAIL"};

const char *sn_health_status_name(enum sn_health_status s)
{
    return (unsigned)s < SN_HEALTH_STATUS_COUNT ? status_names[s] : "?";
}

const char *sn_health_status_label(enum sn_health_status s)
{
    return (unsigned)s < SN_HEALTH_STATUS_COUNT ? status_labels[s] : "?";
}

void sn_health_report_init(struct sn_health_report *rep)
{
    memset(rep, 0, sizeof(*rep));
    rep->host = sn_xstrdup("");
    rep->fsroot = sn_xstrdup("/");
}

void sn_health_report_release(struct sn_health_report *rep)
{
    if (!rep)
        return;
    for (size_t i = 0; i < rep->nchecks; i++) {
        free(rep->checks[i].name);
        free(rep->checks[i].subject);
        free(rep->checks[i].evidence);
        free(rep->checks[i].remedy);
    }
    free(rep->checks);
    free(rep->host);
    free(rep->fsroot);
    memset(rep, 0, sizeof(*rep));
}

void sn_health_report_add(struct sn_health_report *rep, const char *name,
                          enum sn_health_status status, const char *subject,
                          const char *remedy, const char *evidence_fmt, ...)
{
    struct sn_health_check *ck;
    struct sn_buf ev;
    va_list ap;

    if (rep->nchecks >= REPORT_MAX_CHECKS)
        return;
    SN_GROW(rep->checks, rep->cap, rep->nchecks + 1);
    ck = &rep->checks[rep->nchecks++];
    sn_buf_init(&ev);
    va_start(ap, evidence_fmt);
    sn_buf_vprintf(&ev, evidence_fmt, ap);
    va_end(ap);
    ck->name = sn_xstrdup(name);
    ck->status =
        (unsigned)status < SN_HEALTH_STATUS_COUNT ? status : SN_HEALTH_FAIL;
    /* subjects and evidence quote what the machine said (sysfs, NVML,
     * the kernel log): cleaned here, once for every probe, so that the
     * checklist prints as itself and the JSON, the JUnit and the store
     * get valid UTF-8 */
    ck->subject = sn_xstrdup_clean(subject ? subject : "", 0);
    ck->evidence = sn_xstrdup_clean(ev.data ? ev.data : "", SN_CLEAN_LINES);
    ck->remedy = sn_xstrdup(remedy && status != SN_HEALTH_PASS ? remedy : "");
    sn_buf_release(&ev);
}

void sn_health_report_counts(const struct sn_health_report *rep, size_t *counts)
{
    for (int s = 0; s < SN_HEALTH_STATUS_COUNT; s++)
        counts[s] = 0;
    for (size_t i = 0; i < rep->nchecks; i++)
        counts[rep->checks[i].status]++;
}

enum sn_health_status sn_health_report_worst(const struct sn_health_report *rep)
{
    size_t counts[SN_HEALTH_STATUS_COUNT];

    /* a probe that could not look (no AER counters, no BIOS version
     * readable) says nothing against the node: it makes the verdict SKIP
     * only when nothing was checked at all */
    sn_health_report_counts(rep, counts);
    if (counts[SN_HEALTH_FAIL])
        return SN_HEALTH_FAIL;
    if (counts[SN_HEALTH_WARN])
        return SN_HEALTH_WARN;
    if (counts[SN_HEALTH_PASS] || !counts[SN_HEALTH_SKIP])
        return SN_HEALTH_PASS;
    return SN_HEALTH_SKIP;
}
