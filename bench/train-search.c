/* train-search.c: the speed of the layout search. For a model on a spec's
 * cluster: the whole search from a cold start (every collective the
 * search needs computed on the topology) and again warm (collectives
 * memoised), layouts per second and microseconds per layout, against
 * Calculon's published 8,112 layouts in 26 s on 2 cores (3.2 ms each).
 * Wall and CPU time both: on a shared machine the wall time carries the
 * queueing of other work, the process CPU time (one thread) does not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-common.h"
#include "sn/sn.h"

int main(int argc, char **argv)
{
    struct sn_spec spec;
    struct sn_train_env env;
    struct sn_train *t;
    struct sn_train_search s;
    struct sn_train_opts o;
    struct sn_train_candidate top[5];
    struct sn_train_search_stats cold, warm;
    struct sn_error err;
    const struct sn_model_info *m;
    size_t n;
    double c0, build, build_cpu, cold_cpu, warm_cpu;
    double calculon = 26.0 / 8112;

    if (argc < 5 || argc == 6) {
        fprintf(stderr, "usage: train-search SPEC MODEL GPUS GBS "
                        "[SEQ DTYPE [KEY=VALUE...]]\n");
        return 2;
    }
    if (bench_system(argv[1], argv + 7, argc > 7 ? argc - 7 : 0, &spec, &env,
                     &build, &build_cpu))
        return 1;
    m = sn_catalog_model(&spec.catalog, argv[2]);
    if (!m || sn_train_new(m, &env.sys, &t, &err)) {
        fprintf(stderr, "unknown model or %s\n", err.msg);
        return 1;
    }
    sn_train_search_default(&s);
    s.accels = atoi(argv[3]);
    s.gbs = atoi(argv[4]);
    s.seq = argc > 6 ? atoi(argv[5]) : m->seq;
    if (argc > 6 && sn_dtype_parse(argv[6], &s.dtype, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    sn_train_opts_default(&o);
    c0 = bench_cpu_now();
    if (sn_train_search_run(t, &s, &o, top, 5, &n, &cold, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    cold_cpu = bench_cpu_now() - c0;
    c0 = bench_cpu_now();
    if (sn_train_search_run(t, &s, &o, top, 5, &n, &warm, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    warm_cpu = bench_cpu_now() - c0;
    printf("%s on %d GPUs (%s): topology and collective model %.3f s "
           "(cpu %.3f s)\n",
           m->name, s.accels, spec.name, build, build_cpu);
    printf("  layouts: %llu pass the rules, %llu fit and are timed\n",
           (unsigned long long)cold.enumerated,
           (unsigned long long)cold.fitting);
    printf("  cold search: wall %.4f s, %.2f us per layout, %.0fx Calculon; "
           "cpu %.4f s, %.2f us per layout, %.0fx\n",
           cold.seconds, cold.seconds / cold.enumerated * 1e6,
           calculon / (cold.seconds / cold.enumerated), cold_cpu,
           cold_cpu / cold.enumerated * 1e6,
           calculon / (cold_cpu / cold.enumerated));
    printf("  warm search: wall %.4f s, %.2f us per layout, %.0fx Calculon; "
           "cpu %.4f s, %.2f us per layout, %.0fx\n",
           warm.seconds, warm.seconds / warm.enumerated * 1e6,
           calculon / (warm.seconds / warm.enumerated), warm_cpu,
           warm_cpu / warm.enumerated * 1e6,
           calculon / (warm_cpu / warm.enumerated));
    printf("  whole search with the topology: wall %.3f s, cpu %.3f s\n",
           build + cold.seconds, build_cpu + cold_cpu);
    if (n)
        printf("  best: tp %d pp %d dp %d ep %d vpp %d mbs %d %s zero %d, "
               "%.2f s/step, MFU %.1f%%\n",
               top[0].layout.tp, top[0].layout.pp, top[0].layout.dp,
               top[0].layout.ep, top[0].layout.vpp, top[0].layout.mbs,
               sn_recompute_name(top[0].layout.recompute), top[0].layout.zero,
               top[0].result.step_time, 100 * top[0].result.mfu);
    sn_train_free(t);
    sn_train_env_release(&env);
    sn_spec_release(&spec);
    return 0;
}
