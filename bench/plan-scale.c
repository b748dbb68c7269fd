/* plan-scale.c: how long `supernode plan` takes, and how much memory it
 * holds, as the cluster grows: N GB200 NVL72 racks (72 GPUs each, 18 links
 * per GPU into 18 switch chips) on a three-tier rail-optimised fat tree of
 * 144-port switches, one 400G NIC per GPU. Times each stage (parse, build,
 * plan, JSON) in one process and reports the process's peak resident set.
 * Run by bench/plan-scale.sh, one process per size.
 *   plan-scale RACKS         time the stages at RACKS racks
 *   plan-scale --yaml RACKS  print the spec instead */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench-common.h"
#include "sn/plan.h"
#include "sn/sn.h"

static const char spec_fmt[] = BENCH_NVL72_FLEET "cooling:\n"
                                                 "  type: cold_plate\n"
                                                 "workload:\n"
                                                 "  model: llama3-405b\n";

int main(int argc, char **argv)
{
    struct sn_spec spec;
    struct sn_topo *topo = NULL;
    struct sn_plan *plan = NULL;
    struct sn_error err;
    struct sn_buf text, json;
    struct rusage ru;
    double t0, t1, t2, t3, t4;
    bool yaml = argc > 2 && !strcmp(argv[1], "--yaml");
    int racks = argc > 1 ? atoi(argv[argc - 1]) : 1389;

    if (racks < 1 || racks > 100000) {
        fprintf(stderr, "usage: plan-scale [--yaml] RACKS (1 to 100000)\n");
        return 2;
    }
    sn_buf_init(&text);
    sn_buf_init(&json);
    sn_buf_printf(&text, spec_fmt, racks, racks);
    if (yaml) {
        fputs(text.data, stdout);
        sn_buf_release(&text);
        return 0;
    }
    t0 = sn_now();
    if (sn_spec_parse("plan-scale.yaml", text.data, text.len, &spec, &err)) {
        fprintf(stderr, "plan-scale: %s\n", err.msg);
        return 2;
    }
    t1 = sn_now();
    if (sn_topo_build(&spec, &topo, &err)) {
        fprintf(stderr, "plan-scale: %s\n", err.msg);
        return 2;
    }
    t2 = sn_now();
    if (sn_plan_build(topo, &plan, &err)) {
        fprintf(stderr, "plan-scale: %s\n", err.msg);
        return 3;
    }
    t3 = sn_now();
    sn_render_plan_json(plan, &json);
    t4 = sn_now();
    getrusage(RUSAGE_SELF, &ru);
    /* wall time per stage, the process's CPU time (user + system: what
     * the stages cost on a machine shared with other work) and its peak
     * resident set */
    printf("%6d racks %7zu accelerators %8zu links  parse %.3f  build %.3f  "
           "plan %.3f  json %.3f  total %.3f s wall, %.3f s cpu, "
           "peak %.0f MiB\n",
           racks, topo->naccel, topo->nlinks, t1 - t0, t2 - t1, t3 - t2,
           t4 - t3, t4 - t0,
           ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
               ru.ru_stime.tv_usec / 1e6,
           ru.ru_maxrss / 1024.0);
    sn_plan_free(plan);
    sn_topo_free(topo);
    sn_spec_release(&spec);
    sn_buf_release(&text);
    sn_buf_release(&json);
    return 0;
}
