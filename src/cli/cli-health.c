/* cli-health.c: the node-health options doctor and check share, the
 * environment hwloc needs to follow --fsroot, and a report as the rows
 * the store keeps with a run. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli-health.h"
#include "cmd.h"

bool cli_health_opt(int argc, char **argv, int *i, struct cli_health_opts *o,
                    int *rc)
{
    const char *v;

    if ((v = cli_opt_value(argc, argv, i, "--fsroot", NULL, rc)))
        o->fsroot = v;
    else if ((v = cli_opt_value(argc, argv, i, "--nvml", NULL, rc)))
        o->nvml = v;
    else if ((v = cli_opt_value(argc, argv, i, "--matrix", NULL, rc)))
        o->matrix = v;
    return v != NULL;
}

int cli_health_setup(const struct cli_health_opts *o,
                     struct sn_health_config *cfg,
                     struct sn_health_matrix **matrix, struct sn_error *err)
{
    const char *env_root = getenv("HWLOC_FSROOT");
    struct stat st;

    *matrix = NULL;
    /* the environment can point at another NVML (a test double, a driver
     * outside the loader path); --nvml wins over it */
    if (o->nvml)
        cfg->nvml_library = strcmp(o->nvml, "none") ? o->nvml : "";
    else if (getenv("SN_NVML_LIBRARY"))
        cfg->nvml_library = getenv("SN_NVML_LIBRARY");
    /* an HWLOC_FSROOT already set is the default root: hwloc and the
     * other probes then read the same tree */
    if (o->fsroot && strcmp(o->fsroot, "/")) {
        if (stat(o->fsroot, &st) != 0)
            return sn_error_set(err, SN_EINPUT,
                                "%s: cannot use as root: %s", o->fsroot,
                                strerror(errno));
        if (!S_ISDIR(st.st_mode))
            return sn_error_set(err, SN_EINPUT,
                                "%s: cannot use as root: not a directory",
                                o->fsroot);
        cfg->fsroot = o->fsroot;
    } else if (o->fsroot) {
        cfg->fsroot = "/";
    } else if (env_root && *env_root) {
        cfg->fsroot = env_root;
    }
    if (o->matrix)
        return sn_health_matrix_load(o->matrix, matrix, err);
    return SN_OK;
}

void cli_health_env_begin(const struct sn_health_config *cfg, char **saved)
{
    const char *now = getenv("HWLOC_FSROOT");

    *saved = now ? sn_xstrdup(now) : NULL;
    if (cfg->fsroot && *cfg->fsroot && strcmp(cfg->fsroot, "/"))
        setenv("HWLOC_FSROOT", cfg->fsroot, 1);
    else
        unsetenv("HWLOC_FSROOT");
}

void cli_health_env_end(char *saved)
{
    if (saved)
        setenv("HWLOC_FSROOT", saved, 1);
    else
        unsetenv("HWLOC_FSROOT");
    free(saved);
}

void cli_health_row_add(struct sn_store_health **rows, size_t *n,
                        size_t *cap, const char *host, const char *name,
                        const char *status, const char *subject,
                        const char *evidence, const char *remedy)
{
    struct sn_store_health *r;

    SN_GROW(*rows, *cap, *n + 1);
    r = &(*rows)[(*n)++];
    memset(r, 0, sizeof(*r));
    sn_strlcpy(r->host, host, sizeof(r->host));
    sn_strlcpy(r->name, name, sizeof(r->name));
    sn_strlcpy(r->status, status, sizeof(r->status));
    sn_strlcpy(r->subject, subject ? subject : "", sizeof(r->subject));
    r->evidence = sn_xstrdup(evidence ? evidence : "");
    r->remedy = sn_xstrdup(remedy ? remedy : "");
}

void cli_health_rows(const struct sn_health_report *rep, const char *host,
                     struct sn_store_health **rows, size_t *n, size_t *cap)
{
    for (size_t i = 0; i < rep->nchecks; i++) {
        const struct sn_health_check *c = &rep->checks[i];
        cli_health_row_add(rows, n, cap, host, c->name,
                           sn_health_status_label(c->status), c->subject,
                           c->evidence, c->remedy);
    }
}
