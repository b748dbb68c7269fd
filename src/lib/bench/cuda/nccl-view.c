/* nccl-view.c: the cuda backend's own NCCL dump and log. Before NCCL
 * starts, point it at files in the run's directory (opts.nccl_dir); after
 * the run, rank 0 reads them back through the library's parsers
 * (sn/nccl.h) and every check that is not a pass becomes a note of the
 * run, judged against the spec when there is one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench-int.h"
#include "cuda-int.h"
#include "sn/nccl.h"

/* NCCL's subsystems whose INFO lines the parsers read: init and graph
 * (ranks, channels, NVLS), env, net, the transports */
#define NCCL_SUBSYS "INIT,GRAPH,ENV,NET,P2P,SHM,NVLS"

static void paths(const struct sn__bench_ctx *c, char *topo, char *log,
                  size_t size)
{
    snprintf(topo, size, "%s/nccl-topo.xml", c->o.nccl_dir);
    snprintf(log, size, "%s/nccl-%d.log", c->o.nccl_dir, c->job->rank);
}

void sn__cuda_nccl_env(struct sn__bench_ctx *c)
{
    char topo[1024], log[1024];

    if (!c->o.nccl_dir)
        return;
    paths(c, topo, log, sizeof(topo));
    /* overwrite 0: what the user set stays */
    setenv("NCCL_TOPO_DUMP_FILE", topo, 0);
    setenv("NCCL_DEBUG", "INFO", 0);
    setenv("NCCL_DEBUG_SUBSYS", NCCL_SUBSYS, 0);
    setenv("NCCL_DEBUG_FILE", log, 0);
}

static void note_checks(struct sn__bench_ctx *c,
                        const struct sn_health_report *rep, const char *what)
{
    size_t counts[SN_HEALTH_STATUS_COUNT];

    sn_health_report_counts(rep, counts);
    sn__bench_note(c, "NCCL's %s: %zu pass, %zu warn, %zu fail", what,
                   counts[SN_HEALTH_PASS], counts[SN_HEALTH_WARN],
                   counts[SN_HEALTH_FAIL]);
    for (size_t i = 0; i < rep->nchecks; i++) {
        const struct sn_health_check *k = &rep->checks[i];
        if (k->status != SN_HEALTH_WARN && k->status != SN_HEALTH_FAIL)
            continue;
        sn__bench_note(c, "%s %s %s: %s (%s)",
                       sn_health_status_label(k->status), k->name, k->subject,
                       k->evidence, k->remedy);
    }
}

void sn__cuda_nccl_readback(struct sn__bench_ctx *c)
{
    struct sn_nccl_design d, *dp = NULL;
    struct sn_nccl_topo *t = NULL;
    struct sn_nccl_log *l = NULL;
    struct sn_health_report rep;
    char topo[1024], log[1024];
    struct sn_error err;

    if (!c->o.nccl_dir || c->job->rank != 0)
        return;
    paths(c, topo, log, sizeof(topo));
    if (c->o.spec && !sn_nccl_design_from_spec(c->o.spec, &d, &err))
        dp = &d;
    sn_health_report_init(&rep);
    if (sn_nccl_topo_load(topo, &t, &err) == SN_OK)
        sn_nccl_topo_check(t, dp, &rep);
    else /* NCCL_TOPO_DUMP_FILE set by the user, or NCCL did not start */
        sn__bench_note(c, "NCCL's topology dump not read: %s", err.msg);
    note_checks(c, &rep, "topology");
    sn_health_report_release(&rep);
    sn_health_report_init(&rep);
    if (sn_nccl_log_load(log, &l, &err) == SN_OK)
        sn_nccl_log_check(l, dp, &rep);
    else
        sn__bench_note(c, "NCCL's log not read: %s", err.msg);
    note_checks(c, &rep, "log");
    sn_health_report_release(&rep);
    sn__bench_note(c, "NCCL's dump and logs of this run: %s", c->o.nccl_dir);
    sn_nccl_topo_free(t);
    sn_nccl_log_free(l);
}
