/* bench-common.h: what the speed benchmarks under bench/ share: the CPU
 * clock they report beside the wall clock, and the GB200 NVL72 fleet they
 * grow (N racks of 72 on a 3-tier rail fat tree), so that plan-scale and
 * coll-scale time the very same design. Header-only: each benchmark is
 * one translation unit built by its own script. */
#ifndef SN_BENCH_COMMON_H
#define SN_BENCH_COMMON_H

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sn/sn.h"

/* Seconds of CPU time this process has used (all threads). */
static inline double bench_cpu_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Set each "KEY=VALUE" of args on the spec in order, as `--set` does:
 * a benchmark's design is an example spec with its size changed. */
static inline int bench_spec_sets(struct sn_spec *spec, char **args, int n,
                                  struct sn_error *err)
{
    for (int i = 0; i < n; i++) {
        char key[128];
        const char *eq = strchr(args[i], '=');
        if (!eq || (size_t)(eq - args[i]) >= sizeof(key))
            return sn_error_set(err, SN_EINPUT, "'%s': expected KEY=VALUE",
                                args[i]);
        memcpy(key, args[i], (size_t)(eq - args[i]));
        key[eq - args[i]] = '\0';
        if (sn_spec_set(spec, key, eq + 1, err))
            return SN_EINPUT;
    }
    return SN_OK;
}

/* Load the spec at path with the settings of args (n of them) and build
 * its system: topology and collective model, timed into *wall and *cpu
 * seconds. 0, or 1 with the error printed. */
static inline int bench_system(const char *path, char **args, int n,
                               struct sn_spec *spec, struct sn_train_env *env,
                               double *wall, double *cpu)
{
    struct sn_error err;
    double t0 = sn_now(), c0 = bench_cpu_now();

    if (sn_spec_load(path, spec, &err) ||
        bench_spec_sets(spec, args, n, &err) ||
        sn_train_env_init(env, spec, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    *wall = sn_now() - t0;
    *cpu = bench_cpu_now() - c0;
    return 0;
}

/* A spec of %d GB200 NVL72 racks (the printf argument appears twice: the
 * name and the supernode count). Callers may append sections. */
#define BENCH_NVL72_FLEET                                                      \
    "name: nvl72-x%d\n"                                                        \
    "accelerator: gb200-nvl72\n"                                               \
    "supernode:\n"                                                             \
    "  accelerators: 72\n"                                                     \
    "  per_node: 4\n"                                                          \
    "  fabric: switched\n"                                                     \
    "  links_per_accelerator: 18\n"                                            \
    "  switch: nvlink5-switch\n"                                               \
    "  medium: copper\n"                                                       \
    "supernodes: %d\n"                                                         \
    "scaleout:\n"                                                              \
    "  topology: rail_fat_tree\n"                                              \
    "  nics_per_node: 4\n"                                                     \
    "  nic: cx7-400g\n"                                                        \
    "  switch: quantum-x800-q3400\n"                                           \
    "  tiers: 3\n"                                                             \
    "racks:\n"                                                                 \
    "  nodes_per_rack: 18\n"                                                   \
    "  node_units: 1\n"

#endif
