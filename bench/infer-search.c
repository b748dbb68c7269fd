/* infer-search.c: the speed of the serving search (sn_infer_search):
 * every layout (tp, ep, pp, attention tensor- or data-parallel, two-batch
 * overlap) and every batch size that fits, timed, the Pareto front marked
 * and the best within a TPOT limit chosen. Cold (the first search on a
 * freshly built topology: every collective it needs computed) and warm
 * (again, collectives memoised). Wall and CPU time both, as
 * train-search.c: the CPU time is the steadier figure on a shared
 * machine. With --disaggregate first, the disaggregated search
 * (sn_infer_disagg_search: prefill and decode instance layouts, sizes and
 * the P:D split) under the TPOT limit and a 2 s TTFT. Usage:
 * infer-search [--disaggregate] SPEC MODEL GPUS PRECISION TPOT_MS
 * [KEY=VALUE...] (spec settings, as --set). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-common.h"
#include "sn/sn.h"

static void report(const char *what, const struct sn_infer_search_stats *st,
                   double cpu)
{
    printf("  %s search: %zu layouts and batches timed, %zu on the front; "
           "wall %.4f s (%.2f us each), cpu %.4f s (%.2f us each)\n",
           what, st->timed, st->pareto, st->seconds,
           st->seconds / st->timed * 1e6, cpu, cpu / st->timed * 1e6);
}

/* The disaggregated search, cold and warm, and its best split. */
static int disagg(const struct sn_model_info *m, const struct sn_train_env *env,
                  int gpus, const struct sn_infer_work *w, double tpot)
{
    struct sn_infer_limits lim = {2.0, tpot};
    struct sn_infer_disagg d;
    struct sn_infer_disagg_stats st;
    struct sn_error err;

    for (int pass = 0; pass < 2; pass++) {
        double c0 = bench_cpu_now(), cpu;
        if (sn_infer_disagg_search(m, &env->sys, gpus, w, &lim, &d, &st,
                                   &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        cpu = bench_cpu_now() - c0;
        printf("  %s disaggregated search: %zu layouts and batches timed, "
               "%zu instance-size pairs; wall %.4f s, cpu %.4f s\n",
               pass ? "warm" : "cold", st.timed, st.splits, st.seconds, cpu);
    }
    if (st.found)
        printf("  best: prefill tp %d ep %d pp %d x %d, decode tp %d ep %d "
               "pp %d x %d batch %d (%d:%d GPUs), TTFT %.1f ms, TPOT %.2f "
               "ms, %.1f output tokens/s per GPU of both pools\n",
               d.lp.tp, d.lp.ep, d.lp.pp, d.prefill_instances, d.ld.tp, d.ld.ep,
               d.ld.pp, d.decode_instances, d.d.batch, d.prefill, d.decode,
               1e3 * d.d.ttft_s, 1e3 * d.d.tpot_s, d.output_tps_gpu);
    return 0;
}

int main(int argc, char **argv)
{
    struct sn_spec spec;
    struct sn_train_env env;
    struct sn_infer_work w = {.isl = 1024,
                              .osl = 1024,
                              .precision = SN_DTYPE_BF16,
                              .kv = SN_DTYPE_BF16};
    struct sn_infer_limits lim = {0, 0};
    struct sn_infer_search_stats cold, warm;
    struct sn_infer_point best[1];
    struct sn_error err;
    const struct sn_model_info *m;
    size_t n;
    int gpus;
    double c0, build, build_cpu, cold_cpu, warm_cpu;
    bool split = argc > 1 && !strcmp(argv[1], "--disaggregate");

    if (split) {
        argv++;
        argc--;
    }
    if (argc < 6) {
        fprintf(stderr, "usage: infer-search [--disaggregate] SPEC MODEL "
                        "GPUS PRECISION TPOT_MS [KEY=VALUE...]\n");
        return 2;
    }
    if (bench_system(argv[1], argv + 6, argc > 6 ? argc - 6 : 0, &spec, &env,
                     &build, &build_cpu))
        return 1;
    m = sn_catalog_model(&spec.catalog, argv[2]);
    gpus = atoi(argv[3]);
    if (!m || sn_dtype_parse(argv[4], &w.precision, &err)) {
        fprintf(stderr, "unknown model '%s' or precision '%s'\n", argv[2],
                argv[4]);
        return 2;
    }
    w.kv = w.precision == SN_DTYPE_BF16 ? SN_DTYPE_BF16 : SN_DTYPE_FP8;
    lim.tpot = atof(argv[5]) / 1e3;
    if (split) {
        printf("%s on %d x %s (%s), %s, TPOT <= %s ms, TTFT <= 2 s: topology "
               "and collective model %.3f s (cpu %.3f s)\n",
               m->name, gpus, spec.accel->name, spec.name, argv[4], argv[5],
               build, build_cpu);
        c0 = disagg(m, &env, gpus, &w, lim.tpot);
        sn_train_env_release(&env);
        sn_spec_release(&spec);
        return (int)c0;
    }
    c0 = bench_cpu_now();
    if (sn_infer_search(m, &env.sys, gpus, &w, &lim, best, 1, &n, &cold,
                        &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    cold_cpu = bench_cpu_now() - c0;
    c0 = bench_cpu_now();
    if (sn_infer_search(m, &env.sys, gpus, &w, &lim, best, 1, &n, &warm,
                        &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    warm_cpu = bench_cpu_now() - c0;
    printf("%s on %d x %s (%s, %d per domain), %s, TPOT <= %s ms: topology "
           "and collective model %.3f s (cpu %.3f s)\n",
           m->name, gpus, spec.accel->name, spec.name,
           spec.scaleup.accelerators, argv[4], argv[5], build, build_cpu);
    report("cold", &cold, cold_cpu);
    report("warm", &warm, warm_cpu);
    printf("  whole search with the topology: wall %.3f s, cpu %.3f s\n",
           build + cold.seconds, build_cpu + cold_cpu);
    if (warm.best >= 0)
        printf("  best: tp %d ep %d pp %d %s%s batch %d, TPOT %.2f ms, "
               "%.1f tokens/s per GPU\n",
               best[0].layout.tp, best[0].layout.ep, best[0].layout.pp,
               best[0].layout.dp_attention ? "attention DP" : "attention TP",
               best[0].layout.tbo ? " TBO" : "", best[0].layout.batch,
               1e3 * best[0].result.tpot_s, best[0].result.output_tps_gpu);
    sn_train_env_release(&env);
    sn_spec_release(&spec);
    return 0;
}
