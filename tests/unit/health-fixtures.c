/* health-fixtures.c: see health-fixtures.h. */
#include <stdio.h>
#include <string.h>

#include "health-fixtures.h"

void fx_health_config(struct sn_health_config *cfg, const char *root,
                      unsigned probes)
{
    sn_health_config_init(cfg);
    cfg->fsroot = root;
    cfg->probes = probes;
    cfg->nvml_library = "";
}

int fx_health_run(const struct sn_health_config *cfg,
                  struct sn_health_report *rep)
{
    struct sn_error err;
    int rc;

    sn_health_report_init(rep);
    rc = sn_health_run(cfg, rep, &err);
    if (rc)
        printf("  sn_health_run: %s\n", err.msg);
    return rc;
}

const struct sn_health_check *fx_find_check(const struct sn_health_report *rep,
                                            const char *name,
                                            const char *prefix)
{
    for (size_t i = 0; i < rep->nchecks; i++)
        if (!strcmp(rep->checks[i].name, name) &&
            !strncmp(rep->checks[i].subject, prefix, strlen(prefix)))
            return &rep->checks[i];
    return NULL;
}

const struct sn_health_check *
fx_expect_check(const struct sn_health_report *rep, const char *name,
                const char *prefix, enum sn_health_status st)
{
    const struct sn_health_check *ck = fx_find_check(rep, name, prefix);

    if (!ck) {
        printf("  no check %s on '%s'\n", name, prefix);
        return NULL;
    }
    if (ck->status != st) {
        printf("  %s on '%s' is %s, expected %s: %s\n", name, ck->subject,
               sn_health_status_name(ck->status), sn_health_status_name(st),
               ck->evidence);
        return NULL;
    }
    return ck;
}

size_t fx_count_checks(const struct sn_health_report *rep, const char *name,
                       enum sn_health_status st)
{
    size_t n = 0;

    for (size_t i = 0; i < rep->nchecks; i++)
        if (!strcmp(rep->checks[i].name, name) && rep->checks[i].status == st)
            n++;
    return n;
}

struct sn_store_health fx_store_health(const char *host, const char *name,
                                       const char *status, const char *subject,
                                       const char *evidence, const char *remedy)
{
    struct sn_store_health h;

    memset(&h, 0, sizeof(h));
    snprintf(h.host, sizeof(h.host), "%s", host);
    snprintf(h.name, sizeof(h.name), "%s", name);
    snprintf(h.status, sizeof(h.status), "%s", status);
    snprintf(h.subject, sizeof(h.subject), "%s", subject);
    h.evidence = (char *)evidence;
    h.remedy = (char *)remedy;
    return h;
}
