/* cli-nccl.c: NCCL's dump or log against the design, for doctor and
 * check (cli-nccl.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-nccl.h"
#include "sn/nccl.h"

/* The report's "root" is the file the checks read. */
static void set_source(struct sn_health_report *rep, const char *path)
{
    free(rep->fsroot);
    rep->fsroot = sn_xstrdup_clean(path, 0);
}

/* Print rep (and write its JSON) and return the exit status. */
static int finish(const struct sn_health_report *rep, enum sn_format format,
                  const char *json_out)
{
    struct sn_buf out, json;
    int status = SN_EXIT_OK;

    sn_buf_init(&out);
    sn_buf_init(&json);
    sn_render_health_json(rep, &json);
    if (json_out && (status = cli_write(json_out, &json)))
        goto out;
    if (format == SN_FORMAT_JSON)
        cli_print(&json);
    else {
        sn_render_health_text(rep, &out);
        cli_print(&out);
    }
    if (sn_health_report_worst(rep) == SN_HEALTH_FAIL)
        status = SN_EXIT_CHECK;
out:
    sn_buf_release(&json);
    sn_buf_release(&out);
    return status;
}

int cli_nccl_topo(const char *dump, const char *spec_path,
                  enum sn_format format, const char *json_out)
{
    struct sn_nccl_design d;
    struct sn_nccl_topo *t = NULL;
    struct sn_health_report rep;
    struct sn_error err;
    int status;

    if (sn_nccl_design_load(spec_path, &d, &err) ||
        sn_nccl_topo_load(dump, &t, &err))
        return cli_fail(&err);
    sn_health_report_init(&rep);
    set_source(&rep, dump);
    sn_nccl_topo_check(t, &d, &rep);
    status = finish(&rep, format, json_out);
    sn_health_report_release(&rep);
    sn_nccl_topo_free(t);
    return status;
}

int cli_nccl_log(const char *log, const char *spec_path, enum sn_format format,
                 const char *json_out)
{
    struct sn_nccl_design d;
    struct sn_nccl_log *l = NULL;
    struct sn_health_report rep;
    struct sn_error err;
    int status;

    if (sn_nccl_design_load(spec_path, &d, &err) ||
        sn_nccl_log_load(log, &l, &err))
        return cli_fail(&err);
    sn_health_report_init(&rep);
    set_source(&rep, log);
    sn_nccl_log_check(l, &d, &rep);
    status = finish(&rep, format, json_out);
    sn_health_report_release(&rep);
    sn_nccl_log_free(l);
    return status;
}

const char *cli_nccl_dir(char *buf, size_t size)
{
    const char *tmp = getenv("TMPDIR");

    if (!tmp || !*tmp)
        tmp = "/tmp";
    if ((size_t)snprintf(buf, size, "%s/supernode-nccl-XXXXXX", tmp) >= size)
        return NULL;
    return mkdtemp(buf);
}
